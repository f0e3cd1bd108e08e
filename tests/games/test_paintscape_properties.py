"""Paintscape invariants over random games (hypothesis), and the fast playout against the contract."""

from __future__ import annotations

import json
import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import Outcome
from games.paintscape.rules import (
    FULL,
    MAX_PLY,
    PASS,
    RULES,
    PaintscapeState,
    Place,
    fast_playout,
    from_position_text,
    race,
)

EXAMPLES = int(os.environ.get("PAINTSCAPE_EXAMPLES", "25"))
PLY_LIMIT = 1000


def all_tiles(state: PaintscapeState) -> int:
    result = 0
    for t in state.tiles:
        result |= t
    return result


def check_position(state: PaintscapeState) -> None:
    """What holds in every reachable position."""
    assert not state.black & state.white, "a square holds at most one stone"
    seen = 0
    for k, t in enumerate(state.tiles):
        assert t.bit_count() in (0, 12), "a colour has all 12 tiles or none"
        assert not seen & t, "a square holds at most one tile"
        seen |= t
        assert (t == 0) == (state.collected[k] is not None), (
            "a colour leaves the board exactly when collected"
        )
        black, white, _free = race(state)[k]
        assert black < 6 and white < 6, "a 6th stone of one player on a colour always removes it"
    assert state.swapped.bit_count() <= 4
    assert RULES.load(json.loads(json.dumps(RULES.dump(state)))) == state
    assert from_position_text(RULES.position_text(state)) == state
    if state.phase in ("play", "over") and state.black_seat is not None:
        seat_scores = [0, 0]
        for c in state.collected:
            if c is not None:
                seat_scores[c ^ state.black_seat] += 1
        outcome = RULES.outcome(state)
        if outcome is not None:
            assert list(outcome.scores) == seat_scores, "the score is the colours collected"


def check_step(before: PaintscapeState, move: int, after: PaintscapeState) -> None:
    """What holds across every move."""
    assert after.ply == before.ply + 1
    permanent = (before.black | before.white) & ~all_tiles(before) & FULL
    if before.phase == "play":
        assert (after.black | after.white) & permanent == permanent, (
            "stones on bare squares are never removed"
        )
        assert after.black & before.black & permanent == before.black & permanent
        gone = [k for k in range(5) if before.tiles[k] and not after.tiles[k]]
        assert len(gone) <= 1, "at most one colour goes per move"
        for k in gone:
            assert not (after.black | after.white) & before.tiles[k], "no stone stays on a removed colour"
            assert after.collected[k] == before.turn, "the mover collects"
    if before.phase in ("balance", "choose"):
        assert after.phase != "over", "setup choices never end the game"
        assert [t.bit_count() for t in after.tiles] == [t.bit_count() for t in before.tiles]
        assert (after.black | after.white).bit_count() == (before.black | before.white).bit_count()


def play_out(state: PaintscapeState, rng: random.Random) -> tuple[PaintscapeState, int]:
    """A random game with every invariant checked; returns the final state and the number of passes."""
    passes = 0
    previous_was_pass = False
    check_position(state)
    for _ in range(PLY_LIMIT):
        if RULES.outcome(state) is not None:
            assert RULES.legal_moves(state) == []
            return state, passes
        moves = RULES.legal_moves(state)
        forced = RULES.forced_move(state)
        if forced is not None:
            assert moves == [forced] == [PASS]
            assert not previous_was_pass, "two passes in a row"
            passes += 1
        previous_was_pass = forced is not None
        move = rng.choice(moves)
        after = RULES.apply(state, move)
        check_step(state, move, after)
        check_position(after)
        state = after
    raise AssertionError("the game did not end")


@settings(max_examples=EXAMPLES, deadline=None)
@given(seed=st.integers(0, 2**32), balance=st.booleans(), rng=st.randoms(use_true_random=False))
def test_random_games_keep_every_invariant_and_end_with_one_winner(
    seed: int, balance: bool, rng: random.Random
) -> None:
    state = RULES.new(2, {"balance": balance}, seed)
    final, _passes = play_out(state, rng)
    outcome = RULES.outcome(final)
    assert isinstance(outcome, Outcome)
    assert len(outcome.winners) == 1, "Paintscape has no draws"
    assert outcome.scores[outcome.winners[0]] == 3 and max(outcome.scores[1 - outcome.winners[0]], 0) < 3


def test_forced_passes_happen_in_random_games_and_the_opponent_then_places() -> None:
    """Passes are rare (a few games in a hundred) but real; the opponent always has a placement after one."""
    rng = random.Random(11)
    passes = 0
    for seed in range(300):
        state = RULES.new(2, {"balance": False}, seed)
        while RULES.outcome(state) is None:
            forced = RULES.forced_move(state)
            if forced is None:
                state = RULES.apply(state, rng.choice(RULES.legal_moves(state)))
                continue
            assert RULES.describe(state, forced).endswith("has no placement and passes")
            passes += 1
            state = RULES.apply(state, forced)
            assert RULES.forced_move(state) is None
            assert all(type(m) is Place for m in RULES.legal_moves(state)), "a placement follows a pass"
    assert passes > 0


def contract_playout(state: PaintscapeState, rng: random.Random) -> int:
    """The reference for `fast_playout`: the same choice rule, through the public contract."""
    while (outcome := RULES.outcome(state)) is None:
        move = RULES.forced_move(state)
        if move is None:
            moves = RULES.legal_moves(state)
            move = moves[int(rng.random() * len(moves))]
        state = RULES.apply(state, move)
    return outcome.winners[0] if outcome.winners else -1


@settings(max_examples=EXAMPLES * 2, deadline=None)
@given(seed=st.integers(0, 2**32), rng_seed=st.integers(0, 2**32), chooser_black=st.booleans())
def test_fast_playout_plays_the_same_game_as_the_contract(
    seed: int, rng_seed: int, chooser_black: bool
) -> None:
    state = RULES.new(2, {}, seed)
    state = RULES.apply(state, RULES.parse(state, "done"))
    state = RULES.apply(state, RULES.parse(state, "black" if chooser_black else "white"))
    fast_rng, slow_rng = random.Random(rng_seed), random.Random(rng_seed)
    assert fast_playout(state, fast_rng) == contract_playout(state, slow_rng)
    assert fast_rng.getstate() == slow_rng.getstate(), "both drew the same random numbers"


@settings(max_examples=EXAMPLES, deadline=None)
@given(rng_seed=st.integers(0, 2**32), left_out=st.sampled_from(["1", "12"]))
def test_fast_playout_matches_the_contract_when_a_layout_leaves_colours_out(
    rng_seed: int, left_out: str
) -> None:
    base = RULES.new(2, {"balance": False}, 1)
    text = RULES.position_text(base).split()[0]
    for colour in left_out:
        text = text.replace(colour, ".")
    state = RULES.new(2, {"balance": False, "layout": text}, 0)
    fast_rng, slow_rng = random.Random(rng_seed), random.Random(rng_seed)
    assert fast_playout(state, fast_rng) == contract_playout(state, slow_rng)
    assert fast_rng.getstate() == slow_rng.getstate()


def _plies_left_bound(state: PaintscapeState) -> int:
    """ply + 2 * (squares without a stone + tiles in play) + (1 if the mover must pass)."""
    free = (FULL & ~(state.black | state.white)).bit_count()
    return state.ply + 2 * (free + all_tiles(state).bit_count()) + (not RULES.targets(state))


@settings(max_examples=EXAMPLES, deadline=None)
@given(seed=st.integers(0, 2**32), rng=st.randoms(use_true_random=False))
def test_a_loaded_position_at_the_ply_bound_loads_after_every_move(seed: int, rng: random.Random) -> None:
    """A snapshot's ply is checked against what the board leaves to play (`_check_plies_left`): a position
    at the bound loads, so does every position a move leads to, and one ply more is refused (a fuzzed
    snapshot at ply 299 used to load and then play past `MAX_PLY`, to a position that did not load)."""
    state = RULES.new(2, {"balance": False}, seed)
    while state.phase != "play":
        state = RULES.apply(state, rng.choice(list(RULES.legal_moves(state))))
    for _ in range(rng.randrange(0, 30)):
        if state.phase != "play":
            return
        state = RULES.apply(state, rng.choice(list(RULES.legal_moves(state))))
    if state.phase != "play":
        return
    room = MAX_PLY - _plies_left_bound(state)
    assert room >= 0, "a reachable position is within the bound"
    at_bound = from_position_text(
        RULES.position_text(state).replace(f"ply={state.ply}", f"ply={state.ply + room}")
    )
    for move in RULES.legal_moves(at_bound):
        after = RULES.apply(at_bound, move)
        assert RULES.load(RULES.dump(after)) == after
    over = RULES.position_text(state).replace(f"ply={state.ply}", f"ply={state.ply + room + 1}")
    with pytest.raises(ValueError, match="more than a game can reach"):
        from_position_text(over)
