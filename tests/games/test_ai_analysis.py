"""Post-game analysis and hints on real games: a blunder that throws a win away is the top turning point,
the analysis is reproducible and bounded, and hints say why."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

import games
from games.ai.analysis import (
    MIN_DEEP_SECONDS,
    Budget,
    MoveReview,
    _stops_a_win,
    analyse_match,
    decisions,
    hint,
)
from games.ai.search import MoveStats, SearchReport
from games.base import RESIGN, GameOver, Seat, replay

PAINTSCAPE = games.get("paintscape")
TEST_BUDGET = Budget(first=60, deep=300)


def winning_moves(rules: Any, state: Any, seat: Seat) -> list[Any]:
    wins = []
    for move in rules.legal_moves(state):
        outcome = rules.outcome(rules.apply(state, move))
        if outcome is not None and outcome.winners == (seat,):
            wins.append(move)
    return wins


def blunder_game(seed: int) -> tuple[Any, list[tuple[Seat, str]], int]:
    """A real Paintscape game (no balancing) in which both players take any win, otherwise play a random
    move that does not let the opponent win at once, except for one blunder: the first time a player could
    win at once while some move lets the opponent win at once, they play that move, and lose at once.
    Returns the start, the log and the blunder's ply."""
    rules = PAINTSCAPE
    rng = random.Random(seed)
    start = rules.new(2, {"balance": False}, seed)
    state, blunder = start, -1
    log: list[tuple[Seat, str]] = []
    while (seat := rules.to_move(state)) is not None:
        move = rules.forced_move(state)
        if move is None:
            moves = list(rules.legal_moves(state))
            wins = winning_moves(rules, state, seat)
            safe = [m for m in moves if not winning_moves(rules, rules.apply(state, m), 1 - seat)]
            move = wins[0] if wins else rng.choice(safe or moves)
            losing = [m for m in moves if m not in safe]
            if wins and losing and blunder < 0:
                move, blunder = losing[0], len(log)
        log.append((seat, rules.notation(state, move)))
        state = rules.apply(state, move)
    return start, log, blunder


def test_a_blunder_that_throws_away_a_win_is_the_top_turning_point() -> None:
    start, log, ply = blunder_game(35)
    assert ply >= 0, "the game has its blunder"
    seat = log[ply][0]
    analysis = analyse_match(PAINTSCAPE, start, log, budget=TEST_BUDGET, seed=3)
    top = analysis.turning_points[seat][0]
    assert top.ply == ply and top.played == log[ply][1]
    assert analysis.biggest() == top
    before = list(replay(PAINTSCAPE, start, log[:ply]))[-1].after
    preferred = PAINTSCAPE.parse(before, top.preferred)
    assert preferred in winning_moves(PAINTSCAPE, before, seat), "the AI prefers the win"
    assert top.before == 1.0 and top.after < 0.25 and top.drop > 0.75
    assert top.deep
    assert len(analysis.turning_points[seat]) <= TEST_BUDGET.turning_points


def test_the_analysis_is_reproducible_and_its_records_consistent() -> None:
    start, log, _ = blunder_game(35)
    budget = Budget(first=20, deep=40, total=1500)
    first = analyse_match(PAINTSCAPE, start, log, budget=budget, seed=9)
    assert first == analyse_match(PAINTSCAPE, start, log, budget=budget, seed=9)
    plies = [r.ply for r in first.reviews]
    assert plies == sorted(plies) and len(set(plies)) == len(plies)
    for review in first.reviews:
        assert log[review.ply] == (review.seat, review.played)
        assert 0.0 <= review.after <= 1.0 and 0.0 <= review.before <= 1.0
        if review.played == review.preferred:
            assert review.drop == 0.0 and review.after == review.before
    for seat, points in enumerate(first.turning_points):
        assert all(p.seat == seat and p.deep and p.drop >= budget.min_drop for p in points)
        assert [p.drop for p in points] == sorted((p.drop for p in points), reverse=True)


def test_a_long_match_shares_a_capped_first_pass() -> None:
    start, log, _ = blunder_game(35)
    budget = Budget(first=200, deep=30, total=600, turning_points=2)
    analysis = analyse_match(PAINTSCAPE, start, log, budget=budget)
    chosen = decisions(PAINTSCAPE, list(replay(PAINTSCAPE, start, log)))
    per_search = budget.per_search(2 * len(chosen))
    assert per_search == 10, "94 plies share 600 iterations: the floor of 10 per search"
    first_pass = 2 * per_search * len(chosen)
    second_pass = 2 * budget.turning_points * 2 * budget.deep
    assert analysis.iterations <= first_pass + second_pass


def test_forced_moves_resignations_and_single_moves_are_not_analysed() -> None:
    rules = games.get("tilingking")
    start = rules.new(3, {"board": "sq9"}, 4)
    state = start
    log: list[tuple[Seat, str]] = []
    for action in ("place", "passall", RESIGN, "place", "forced", "place"):
        seat = rules.to_move(state)
        assert seat is not None
        forced = rules.forced_move(state)
        assert (forced is not None) == (action == "forced")
        if action == RESIGN:
            log.append((seat, RESIGN))
            state = rules.resign(state, seat)
            continue
        if action == "place":
            move = next(m for m in rules.legal_moves(state) if m.action == "place")
        else:
            move = forced if forced is not None else rules.parse(state, action)
        log.append((seat, rules.notation(state, move)))
        state = rules.apply(state, move)
    chosen = [s.ply for s in decisions(rules, list(replay(rules, start, log)))]
    assert chosen == [0, 1, 3, 5], "not the resignation (2), not the automatic pass (4)"
    analysis = analyse_match(rules, start, log, budget=Budget(first=4, deep=4, total=100))
    assert [r.ply for r in analysis.reviews] == chosen
    assert len(analysis.turning_points) == 3


def test_the_balancing_procedure_is_not_reviewed() -> None:
    start = PAINTSCAPE.new(2, {}, 5)
    assert start.phase == "balance"
    log = [(PAINTSCAPE.to_move(start) or 0, "done")]
    analysis = analyse_match(PAINTSCAPE, start, log, budget=Budget(first=10, deep=10))
    assert analysis.reviews == () and analysis.biggest() is None


def test_a_review_without_a_drop_when_the_preferred_move_is_played() -> None:
    review = MoveReview(ply=3, seat=0, played="d4", preferred="d4", before=0.7, after=0.2)
    assert review.drop == 0.0
    assert MoveReview(ply=3, seat=0, played="e5", preferred="d4", before=0.4, after=0.6).drop == 0.0
    worse = MoveReview(ply=3, seat=0, played="e5", preferred="d4", before=0.7, after=0.2)
    assert worse.drop == pytest.approx(0.5)


def position_before_blunder() -> tuple[Any, Seat]:
    start, log, ply = blunder_game(35)
    state = start
    for step in replay(PAINTSCAPE, start, log[:ply]):
        state = step.after
    return state, log[ply][0]


def test_a_hint_takes_a_win() -> None:
    state, seat = position_before_blunder()
    given = hint(PAINTSCAPE, state, iterations=50)
    assert PAINTSCAPE.parse(state, given.move) in winning_moves(PAINTSCAPE, state, seat)
    assert given.reason == "it wins the game at once." and given.chance == 1.0
    assert "collects" in given.description


def threatened_position() -> tuple[Any, list[Any], list[Any]]:
    """The first position of a game where the mover cannot win at once but some of its moves let
    the opponent win at once: (state, safe moves, losing moves)."""
    start, log, _ = blunder_game(3)
    for step in replay(PAINTSCAPE, start, log):
        state, seat = step.before, step.seat
        if step.move is None or PAINTSCAPE.forced_move(state) is not None:
            continue
        if winning_moves(PAINTSCAPE, state, seat):
            continue
        moves = list(PAINTSCAPE.legal_moves(state))
        losing = [m for m in moves if winning_moves(PAINTSCAPE, PAINTSCAPE.apply(state, m), 1 - seat)]
        if losing and len(losing) < len(moves):
            return state, [m for m in moves if m not in losing], losing
    raise AssertionError("the game has no threatened position")


def test_a_hint_blocks_an_immediate_win_and_says_so() -> None:
    state, safe, losing = threatened_position()
    mover = PAINTSCAPE.to_move(state)
    assert mover is not None
    given = hint(PAINTSCAPE, state, iterations=300)
    assert PAINTSCAPE.parse(state, given.move) in safe
    blocks = (MoveStats(safe[0], 1, 0.6), MoveStats(losing[0], 1, 0.4))
    report = SearchReport(safe[0], 2, 0.0, blocks, "search")
    assert _stops_a_win(PAINTSCAPE, state, report) == 1 - mover
    neither = (MoveStats(safe[0], 1, 0.6), MoveStats(safe[-1], 1, 0.5))
    both_safe = SearchReport(safe[0], 2, 0.0, neither, "search")
    if len(safe) > 1:
        assert _stops_a_win(PAINTSCAPE, state, both_safe) is None
    label = PAINTSCAPE.seat_label(state, 1 - mover)
    stops = f"and it stops {label} from winning next turn."
    assert given.reason.endswith(stops) == (_stops_a_win(PAINTSCAPE, state, given_report(state)) is not None)


def given_report(state: Any) -> SearchReport:
    from games.ai.analysis import LEVEL
    from games.ai.search import analyse

    return analyse(PAINTSCAPE, state, level=LEVEL, iterations=300, seed=0)


def test_a_hint_gives_a_win_chance_and_the_next_best_move() -> None:
    state = PAINTSCAPE.new(2, {"balance": False}, 11)
    given = hint(PAINTSCAPE, state, iterations=80, seed=2)
    assert given == hint(PAINTSCAPE, state, iterations=80, seed=2)
    assert given.chance is not None
    assert given.reason.startswith(f"about {round(given.chance * 100)}% to win after it")
    found = re.search(r"\(next best \S+: (\d+)%\)\.$", given.reason)
    if found is not None:
        assert int(found.group(1)) <= round(given.chance * 100), "a next best move is never shown as better"
    assert PAINTSCAPE.parse(state, given.move) in list(PAINTSCAPE.legal_moves(state))


def test_no_hint_once_the_game_is_over() -> None:
    start, log, _ = blunder_game(35)
    end = list(replay(PAINTSCAPE, start, log))[-1].after
    with pytest.raises(GameOver):
        hint(PAINTSCAPE, end, iterations=10)


def test_a_timed_analysis_stays_within_its_seconds_whatever_the_iterations() -> None:
    """Anytime: with `seconds` set, iteration caps far beyond what fits still end in about that time (the
    first pass its share, the second pass what is left), and the turning point is still found."""
    start, log, ply = blunder_game(35)
    seat = log[ply][0]
    budget = Budget(first=10**6, deep=10**6, total=10**9, seconds=1.5)
    heard: list[tuple[int, int, bool]] = []
    began = time.process_time()  # CPU time: the search stops on wall time, so a busy machine only shortens it
    analysis = analyse_match(
        PAINTSCAPE, start, log, budget=budget, seed=3, progress=lambda *event: heard.append(event)
    )
    took = time.process_time() - began
    assert took < budget.seconds + 1.5, f"an analysis of {budget.seconds} s took {took:.1f} s"
    assert analysis.turning_points[seat][0].ply == ply, "the blunder is still the top turning point"
    first = [e for e in heard if not e[2]]
    assert [done for done, _, _ in first] == list(range(1, len(first) + 1))
    assert len(first) == len(decisions(PAINTSCAPE, list(replay(PAINTSCAPE, start, log))))
    assert heard[len(first) :] and all(deep for _, _, deep in heard[len(first) :])


def test_the_budget_shares_its_seconds_between_the_passes() -> None:
    budget = Budget(seconds=10.0, deep_share=0.3)
    assert budget.first_seconds(20) == pytest.approx(7.0 / 20)
    assert budget.first_seconds(10, elapsed=5.0) == pytest.approx(0.2), "time spent comes out of it"
    assert budget.first_seconds(10, elapsed=8.0) == 0.0, "nothing left: a few iterations each"
    assert budget.deep_seconds(4, elapsed=6.0) == pytest.approx(1.0), "the second pass gets what is left"
    assert budget.deep_seconds(4, elapsed=12.0) == MIN_DEEP_SECONDS, "a floor when the first pass overran"
    assert Budget().first_seconds(20) is None and Budget().deep_seconds(4, 1.0) is None


def test_a_hint_searches_no_longer_than_its_seconds() -> None:
    rules = games.get("tilingking")
    state = rules.new(2, {}, 1)
    began = time.process_time()  # CPU time: the search stops on wall time, so a busy machine only shortens it
    given = hint(rules, state, iterations=10**7, seconds=0.5)
    took = time.process_time() - began
    assert took < 2.0, f"a hint of 0.5 s took {took:.1f} s"
    assert rules.parse(state, given.move) in list(rules.legal_moves(state))
