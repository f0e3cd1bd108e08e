"""The search on TilingKing: a capture it must see (RULES T1), pruning of pass/passall/resign, every seat
of 2-4 player games, and the placement heuristic and playouts."""

from __future__ import annotations

import random

import pytest

import games
from games.ai import analyse, best_move
from games.tilingking import TilingState
from games.tilingking.ai import Features, TilingKingKnowledge, estimated_rewards, margin_rewards

RULES = games.get("tilingking")


def position(moves: list[str], seats: int = 2, **options: object) -> TilingState:
    state = RULES.new(seats, dict(options), 0)
    for text in moves:
        state = RULES.apply(state, RULES.parse(state, text))
    return state


# RULES T1: Red has I4 b2-e2, I4 b5-e5 and a domino b3-b4 round Blue's monomino on d4; closing e3-e4
# captures the pocket c3 c4 d3 d4.
T1 = ["b2 c2 d2 e2", "d4", "b5 c5 d5 e5", "h8", "b3 b4", "h5 h6"]


def test_closes_the_ring_and_captures() -> None:
    state = position(T1, copies=2)
    move = best_move(RULES, state, level="hard", iterations=60, seed=0)
    after = RULES.apply(state, move)
    labels = {state.board.label(i) for i in range(state.board.size) if after.territory_masks[0] >> i & 1}
    assert labels == {"c3", "c4", "d3", "d4"}, RULES.notation(state, move)
    assert not any(p.owner == 1 and p.cells == (state.board.label_index["d4"],) for p in after.placed)


def test_never_resigns_or_passes_while_pieces_fit() -> None:
    state = position(["e5 e6", "a1"])
    report = analyse(RULES, state, level="hard", iterations=40, seed=1)
    assert report.move.action == "place"
    assert all(stats.move.action == "place" for stats in report.moves)


def test_passes_when_passing_wins_at_once() -> None:
    """Blue has passed for good; Red is ahead, so Red's pass ends the game (a full round) with Red first."""
    state = position(["b2 c2 d2 e2", "passall"])
    report = analyse(RULES, state, level="hard", iterations=40, seed=1)
    assert RULES.notation(state, report.move) == "pass"
    outcome = RULES.outcome(RULES.apply(state, report.move))
    assert outcome is not None and outcome.winners == (0,)


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("board", ["sq9", "hex6b", "tri5b"])
def test_every_seat_gets_a_legal_placement(seats: int, board: str) -> None:
    state = RULES.new(seats, {"board": board}, 0)
    for ply in range(seats + 1):
        seat = RULES.to_move(state)
        assert seat is not None
        move = best_move(RULES, state, level="medium", iterations=12, seed=ply)
        assert move.action == "place", f"seat {seat} did not place"
        assert RULES.notation(state, move) in {RULES.notation(state, m) for m in RULES.legal_moves(state)}
        state = RULES.apply(state, move)


def test_root_keeps_a_short_candidate_list_with_the_capture_first() -> None:
    state = position(T1, copies=2)
    moves = RULES.legal_moves(state)
    roots = TilingKingKnowledge().root_moves(RULES, state, moves, random.Random(0))
    assert len(roots) <= 40 < len(moves)
    first = RULES.apply(state, roots[0])
    pocket = sum(1 << state.board.label_index[label] for label in ("c3", "c4", "d3", "d4"))
    assert first.territory_masks[0] & pocket == pocket, "the best-probed move captures the pocket"


def test_heuristic_prefers_big_pieces_next_to_own_pieces() -> None:
    state = position(["e5 e6", "a1"])
    features = Features(RULES, state, 0)
    touching = RULES.parse(state, "e7 e8 e9 f9").mask
    apart = RULES.parse(state, "h1 h2 h3 i3").mask
    small = RULES.parse(state, "e4").mask
    assert features.score(touching) > features.score(apart) > features.score(small)


def test_playout_rewards_are_per_seat_and_bounded() -> None:
    knowledge = TilingKingKnowledge()
    for seats in (2, 3, 4):
        state = RULES.new(seats, {}, 0)
        rewards = knowledge.playout(RULES, state, random.Random(seats), seats)
        assert len(rewards) == seats and all(0.0 <= r <= 1.0 for r in rewards)


def test_estimates_favour_the_seat_ahead() -> None:
    state = position(["b2 c2 d2 e2", "a9"])
    red, blue = estimated_rewards(state)
    assert red > blue
    assert margin_rewards([1.0, 0.0], [50, 10], 81)[0] > margin_rewards([1.0, 0.0], [50, 49], 81)[0]


def test_considers_the_pie_swap_when_the_match_allows_it() -> None:
    state = position(["a1 a2 b1 b2"], swap=True)
    assert RULES.swap_allowed(state)
    moves = RULES.legal_moves(state)
    roots = TilingKingKnowledge().root_moves(RULES, state, moves, random.Random(0))
    assert any(m.action == "swap" for m in roots)
    move = best_move(RULES, state, level="hard", iterations=30, seed=0)
    assert move.action in {"place", "swap"}


def test_estimate_counts_only_pieces_that_still_fit() -> None:
    """On a nearly full 4x4 board the big pieces left in the supplies no longer fit anywhere."""
    state = position(["a1 a2 a3 a4", "b1 b2 b3 b4", "c1 c2 c3 d1", "d2 d3"], size=4, board="sq9")
    assert RULES.to_move(state) == 0, "c4 and d4 are free: Red can still place a monomino or a domino"
    red_all, blue_all = estimated_rewards(state)
    red_fitting, blue_fitting = estimated_rewards(state, RULES)
    # Red's score is ahead either way, but counting unplaceable pieces overstates what is left to play.
    assert red_all > blue_all and red_fitting > blue_fitting
    assert (red_all, blue_all) != (red_fitting, blue_fitting)
