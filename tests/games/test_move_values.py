"""Moves are small frozen values with a notation round trip, in every engine: for every legal move `m` of
random positions, `parse(notation(m)) == m`, and the parsed move is the same kind of value as the listed one
(hashable, equal by value, so a move can key a dict or be compared with a stored one)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.base import Rules, advance
from games.paint import Move as PaintMove
from games.paintscape import is_swap, swap_move, swap_squares
from games.tilingking import Move as TilingMove

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PLIES = st.integers(min_value=0, max_value=120)

OPTIONS: dict[str, list[dict[str, Any]]] = {
    "paintscape": [{}, {"balance": False}],
    "paint": [{}, {"turn_unit": "own_turns", "lead_on_own_turn": True}],
    "tilingking": [{}, {"board": "hex6b", "ruleset": "tilehoard"}, {"board": "tri5b", "reflections": False}],
}


def position(game_id: str, seed: int, plies: int, variant: int) -> tuple[Rules[Any, Any], Any]:
    """A position `plies` random moves into a game of `seed` (forced moves played), or the end."""
    rules = games.get(game_id)
    options = OPTIONS[game_id][variant % len(OPTIONS[game_id])]
    seats = min(rules.seats) + seed % len(rules.seats)
    rng = random.Random(seed)
    state, _ = advance(rules, rules.new(seats, options, seed))
    for _ in range(plies):
        moves = list(rules.legal_moves(state))
        if not moves:
            break
        state, _ = advance(rules, rules.apply(state, rng.choice(moves)))
    return rules, state


def assert_round_trip(rules: Rules[Any, Any], state: Any, kind: type) -> int:
    """Every legal move survives notation -> parse, as a value of `kind`; returns how many were checked."""
    moves = list(rules.legal_moves(state))
    for move in moves:
        assert type(move) is kind, f"{rules.id} lists a {type(move).__name__}, not a {kind.__name__}"
        parsed = rules.parse(state, rules.notation(state, move))
        assert parsed == move and type(parsed) is kind and hash(parsed) == hash(move)
    return len(moves)


@given(seed=SEEDS, plies=PLIES, variant=st.integers(0, 5))
def test_paintscape_moves_round_trip_through_their_notation(seed: int, plies: int, variant: int) -> None:
    rules, state = position("paintscape", seed, plies, variant)
    assert_round_trip(rules, state, int)
    for move in rules.legal_moves(state):
        if is_swap(move):
            assert swap_move(*swap_squares(move)) == move


@given(seed=SEEDS, plies=PLIES, variant=st.integers(0, 5))
def test_paint_moves_round_trip_through_their_notation(seed: int, plies: int, variant: int) -> None:
    rules, state = position("paint", seed, plies, variant)
    assert_round_trip(rules, state, PaintMove)
    for move in rules.legal_moves(state):
        source, dest = move
        assert move == PaintMove(source=source, dest=dest) == (source, dest)


@settings(max_examples=40)  # a position has hundreds of placements, each parsed twice
@given(seed=SEEDS, plies=st.integers(min_value=0, max_value=60), variant=st.integers(0, 5))
def test_tilingking_moves_round_trip_through_both_notations(seed: int, plies: int, variant: int) -> None:
    rules, state = position("tilingking", seed, plies, variant)
    assert_round_trip(rules, state, TilingMove)
    placements = [m for m in rules.legal_moves(state) if m.piece]
    for move in random.Random(seed).sample(placements, min(len(placements), 40)):
        assert rules.parse(state, rules.short_notation(state, move)) == move, "the short form round-trips"
