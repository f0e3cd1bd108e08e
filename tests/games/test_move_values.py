"""Moves are small frozen values with a notation round trip, in every engine: for every legal move `m` of
random positions, `parse(notation(m)) == m`, and the parsed move is the same kind of value as the listed one
(hashable, equal by value, so a move can key a dict or be compared with a stored one)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.base import IllegalMove, Rules, advance
from games.paint.rules import Move as PaintMove
from games.paintscape.rules import PASS, PLACES, Place, Swap, Word, is_swap, swap_move, swap_squares
from games.tilingking import Move as TilingMove
from tests.games.test_paintscape import E5

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


def assert_round_trip(rules: Rules[Any, Any], state: Any, kind: type | tuple[type, ...]) -> int:
    """Every legal move survives notation -> parse, as a value of `kind` (or one of the kinds); returns how
    many were checked."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    moves = list(rules.legal_moves(state))
    for move in moves:
        assert type(move) in kinds, f"{rules.id} lists a {type(move).__name__}, not one of {kinds}"
        parsed = rules.parse(state, rules.notation(state, move))
        assert parsed == move and type(parsed) is type(move) and hash(parsed) == hash(move)
    return len(moves)


@given(seed=SEEDS, plies=PLIES, variant=st.integers(0, 5))
def test_paintscape_moves_round_trip_through_their_notation(seed: int, plies: int, variant: int) -> None:
    rules, state = position("paintscape", seed, plies, variant)
    assert_round_trip(rules, state, (Place, Swap, Word))
    for move in rules.legal_moves(state):
        if is_swap(move):
            assert swap_move(*swap_squares(move)) == move == Swap(stone=move.stone, tile=move.tile)
        if type(move) is Place:
            assert move is PLACES[move.square], "the engine lists the placements built once"


def test_paintscape_words_and_passes_round_trip_and_other_values_are_refused() -> None:
    """The moves `legal_moves` may not list in the positions above (a forced pass) round-trip too, and
    values that are not moves (the old int encoding, a bare string, a square off the board) are refused."""
    rules = games.get("paintscape")
    walled = rules.new(2, {"balance": False, "layout": E5}, 0)  # Black is walled in: it must pass
    assert rules.legal_moves(walled) == [PASS] and rules.parse(walled, rules.notation(walled, PASS)) is PASS
    for move in (7, "pass", (3,)):
        with pytest.raises(IllegalMove, match="not a Paintscape move"):
            rules.apply(walled, move)
        with pytest.raises(IllegalMove, match="not a Paintscape move"):
            rules.notation(walled, move)
    for bad in (-1, 64, True):
        with pytest.raises(ValueError):
            Place(bad)
        with pytest.raises(ValueError):
            Swap(bad, 0)


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
