"""Differential test: games.paint against the literal reference in paint_ref.py, driven by notation from the
default layout with random moves: legal move sets, every square's colour and occupant, the lead counters, and
the result must agree at every ply."""

from __future__ import annotations

import random
from typing import Any

import pytest

import games
from tests.reference.paint_ref import RefPaint


@pytest.fixture(scope="module")
def _rules() -> None:
    global RULES
    RULES = games.get("paint")


RULES: Any = None
SEAT = {"W": 0, "B": 1}


@pytest.mark.usefixtures("_rules")
@pytest.mark.parametrize("seed", range(12))
def test_random_games_match_the_reference(seed: int) -> None:
    rng = random.Random(seed)
    state = RULES.new(2, {}, seed)
    ref = RefPaint.default()
    while True:
        assert (
            state.light,
            state.dark,
            state.white_discs,
            state.black_discs,
            state.spheres,
        ) == ref.bitboards()
        assert (state.lead_count, state.no_lead_count) == (ref.lead_count, ref.no_lead_count)
        assert state.leader == (None if ref.leader is None else SEAT[ref.leader])
        outcome = RULES.outcome(state)
        if ref.result is not None:
            assert outcome is not None
            termination, winner = ref.result
            assert outcome.termination.value == termination
            if termination == "no_moves":
                loser = SEAT[ref.mover]
                assert outcome.winners == (1 - loser,)
            else:
                assert outcome.winners == (() if winner is None else (SEAT[winner],))
            return
        assert outcome is None
        assert RULES.to_move(state) == SEAT[ref.mover]
        legal = {RULES.notation(state, m) for m in RULES.legal_moves(state)}
        assert legal == ref.legal()
        move = rng.choice(sorted(legal))
        state = RULES.apply(state, RULES.parse(state, move))
        ref = ref.play(move)
