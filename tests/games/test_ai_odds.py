"""The time-odds bench (bench/ai_strength.py, issue 30): each side keeps its own budget, a game of four puts
the measured player in seat k % 4 with the opponent in every other seat, and a run with iteration budgets
(the stand-in for time odds) is reproducible."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def bench() -> Any:
    sys.path.insert(0, str(BENCH))
    try:
        import ai_strength
    finally:
        sys.path.remove(str(BENCH))
    return ai_strength


def test_opponent_budgets_are_their_own(bench: Any) -> None:
    table = bench.pairings(0.25, None, opponent_seconds=1.0)
    hard, grave = table["hard-grave"]
    assert (hard.level, hard.seconds, grave.level, grave.seconds) == ("hard", 0.25, "grave", 1.0)
    assert table["hard-plain"][1].seconds == 1.0
    table = bench.pairings(0.25, 200, opponent_iterations=900)
    hard, grave = table["hard-grave"]
    assert (hard.iterations, grave.iterations) == (200, 900)
    assert (hard.label, grave.label) == ("hard@200it", "grave@900it")
    # without odds the opponents follow the player's budget, as before
    same = bench.pairings(0.5, None)["hard-grave"]
    assert (same[0].seconds, same[1].seconds) == (0.5, 0.5)


def test_four_seats_rotate_the_measured_player(bench: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Game k seats the first player at k % 4 and the opponent at the other three; its thinking is its own."""
    seen: list[tuple[int, str, int]] = []

    class Recorder(bench.Player):  # type: ignore[misc]
        def think(self, rules: Any, state: Any, rng: random.Random) -> tuple[Any, int, float, bool]:
            seat = rules.to_move(state)
            seen.append((current[0], self.label, seat))
            move = next(m for m in rules.legal_moves(state) if m.action == "place")
            booked = self.label == "us" and state.ply < 4  # "us" plays its first move from a book
            return move, 10 if self.label == "us" else 3, 0.01, booked

    current = [0]
    us, them = Recorder("us", "x"), Recorder("them", "x")
    for k in range(4, 8):
        current[0] = k
        result = bench.game_result(bench.Match("tilingking", us, them, k, seats=4, max_plies=12))
        ours = {seat for kk, label, seat in seen if kk == k and label == "us"}
        theirs = {seat for kk, label, seat in seen if kk == k and label == "them"}
        assert ours == {k % 4}
        assert theirs == set(range(4)) - {k % 4}
        assert result.first.iterations == 10 * result.first.moves
        assert result.second.iterations == 3 * result.second.moves
        assert result.first.moves + result.second.moves == 12
        assert (result.first.book, result.second.book) == (1, 0)
        assert 0.0 <= result.score <= 1.0


def test_an_iteration_odds_game_is_reproducible(bench: Any) -> None:
    table = bench.pairings(0.25, 12, opponent_iterations=40)
    hard, grave = table["hard-grave"]
    match = bench.Match("paint", hard, grave, 3, max_plies=30)
    first, again = bench.game_result(match), bench.game_result(match)
    assert first.score == again.score
    assert (first.first.iterations, first.second.iterations) == (
        again.first.iterations,
        again.second.iterations,
    )
    # each side searched with its own budget (moves found without a search count nothing)
    assert first.first.iterations == 12 * first.first.moves > 0
    assert first.second.iterations == 40 * first.second.moves > 0


def test_wilson_interval_brackets_the_score(bench: Any) -> None:
    low, high = bench.wilson(30, 40)
    assert low < 0.75 < high
    assert (round(low, 3), round(high, 3)) == (0.598, 0.858)


def test_a_tally_names_a_four_seat_game_and_sums_each_sides_thinking(bench: Any) -> None:
    from concurrent.futures import Future

    us, them = bench.Player("us", "hard", seconds=0.25), bench.Player("them", "grave", seconds=1.0)
    futures = []
    for score in (1.0, 0.0):
        future: Future[Any] = Future()
        future.set_result(
            bench.GameResult(score, 2.0, bench.Thinking(2, 20, 0.5), bench.Thinking(6, 90, 6.0))
        )
        futures.append(future)
    matches = [bench.Match("tilingking", us, them, k, seats=4) for k in range(2)]
    tally = bench.tally(matches, futures)
    assert tally.game_id == "tilingking:4"
    assert (tally.wins, tally.losses, tally.score) == (1, 1, 0.5)
    assert (tally.first_thinking.moves, tally.first_thinking.iterations) == (4, 40)
    assert tally.second_thinking.iterations == 180
    assert "10 it/move" in bench.rate(tally.first_thinking) and "40 it/s" in bench.rate(tally.first_thinking)
    two = bench.tally([bench.Match("paint", us, them, 0)], futures[:1])
    assert two.game_id == "paint"
