"""Differential test: games.paintscape.rules against the literal reference in paintscape_ref.py.

Both are driven only through notation strings, from random layouts (standard starts, and positions with
removed colours and extra stones), with and without the balancing phase. At every ply the legal move sets,
the seat to move, every stone and tile, and the result must agree exactly.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import games
from tests.reference.paintscape_ref import SQUARES, RefPaintscape


@pytest.fixture(scope="module")
def _rules() -> None:
    global RULES
    RULES = games.get("paintscape")


RULES: Any = None


def standard_layout(rng: random.Random) -> str:
    items = list("BBWW") + [str(k) for k in range(1, 6) for _ in range(12)]
    rng.shuffle(items)
    return "".join(items)


def midgame_layout(rng: random.Random) -> str:
    """A layout as an exported position might look: some colours gone, more stones on bare squares."""
    removed = set(rng.sample(range(1, 6), rng.randint(0, 2)))
    items = [str(k) for k in range(1, 6) if k not in removed for _ in range(12)]
    free = 64 - len(items)
    stones = rng.randint(4, min(free, 12))
    blacks = rng.randint(2, stones - 2)
    items += ["B"] * blacks + ["W"] * (stones - blacks) + ["."] * (free - stones)
    rng.shuffle(items)
    return "".join(items)


def engine_legal(state: object) -> set[str]:
    return {RULES.notation(state, m) for m in RULES.legal_moves(state)}


def run_game(layout: str, balance: bool, rng: random.Random) -> int:
    state = RULES.new(2, {"layout": layout, "balance": balance}, 0)
    ref = RefPaintscape.from_layout(layout, balance)
    plies = 0
    while True:
        assert RULES.to_move(state) == ref.seat_to_move()
        assert engine_legal(state) == ref.legal()
        black, white, tiles = ref.bitboards()
        assert (state.black, state.white, tuple(state.tiles)) == (black, white, tiles)
        outcome = RULES.outcome(state)
        if ref.phase == "over":
            winner = ref.winner_seat()
            assert outcome is not None and outcome.winners == (() if winner is None else (winner,))
            assert sorted(outcome.scores) == sorted([float(ref.score["B"]), float(ref.score["W"])])
            return plies
        assert outcome is None
        legal = sorted(ref.legal())
        move = "done" if ref.phase == "balance" and rng.random() < 0.25 else rng.choice(legal)
        state = RULES.apply(state, RULES.parse(state, move))
        ref = ref.play(move)
        plies += 1
        assert plies < 500


@pytest.mark.usefixtures("_rules")
@pytest.mark.parametrize("seed", range(40))
def test_standard_starts_match_the_reference(seed: int) -> None:
    rng = random.Random(seed)
    run_game(standard_layout(rng), balance=seed % 2 == 0, rng=rng)


@pytest.mark.usefixtures("_rules")
@pytest.mark.parametrize("seed", range(40))
def test_midgame_layouts_match_the_reference(seed: int) -> None:
    rng = random.Random(1000 + seed)
    run_game(midgame_layout(rng), balance=seed % 3 == 0, rng=rng)


@pytest.mark.usefixtures("_rules")
def test_random_start_from_a_seed_is_a_legal_setup() -> None:
    for seed in range(50):
        state = RULES.new(2, {}, seed)
        assert bin(state.black).count("1") == 2 and bin(state.white).count("1") == 2
        assert [bin(t).count("1") for t in state.tiles] == [12] * 5
        stones = state.black | state.white
        assert all(stones & t == 0 for t in state.tiles), "starting stones stand on bare squares"
        covered = stones
        for t in state.tiles:
            covered |= t
        assert covered == (1 << 64) - 1
    assert RULES.new(2, {}, 5) == RULES.new(2, {}, 5)
    assert len({RULES.new(2, {}, s) for s in range(20)}) == 20


def test_reference_square_order_is_the_layout_order() -> None:
    assert SQUARES[0] == "a1" and SQUARES[7] == "h1" and SQUARES[8] == "a2" and SQUARES[63] == "h8"
