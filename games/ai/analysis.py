"""Post-game analysis and hints: where a finished match turned, and what the AI would play now.

`analyse_match` replays a match's log (`games.base.replay`) and, at every position where a player chose
among several moves, estimates the mover's win chance with the move the AI prefers (`before`) and with the
move that was played (`after`). The estimates are mean search rewards in [0, 1]: a win counts 1, a loss 0,
a draw 1/2 (TilingKing's rewards also credit the score margin a little, see games/tilingking/ai.py).

- The preferred move and its value come from `analyse` at the hard level; the played move's value from a
  search of that move alone, so every iteration goes into answering it.
- Bounded: a first pass gives every position at most `Budget.first` iterations per search and all of them
  together at most `Budget.total`; the few positions with the largest drops per seat are searched again
  with `Budget.deep` iterations, and only those deep estimates become turning points.
- Anytime: with `Budget.seconds` set, every search also stops at its share of the wall-clock time left
  (the first pass shares `1 - deep_share` of it, the second pass what is left; the replay and the rest come
  out of it too), so a whole analysis takes about `seconds` on any machine, fewer iterations on a slow or
  busy one. Without it the searches are bounded by
  iterations alone and the result is reproducible: every search has a seed derived from `seed` and the ply.
- Forced moves, positions with one legal move, resignations and phases the AI plays by its own procedure
  (Paintscape's balancing swaps) are not analysed.
- In steps: `positions`, then `review` of each (first pass), `candidates`, `review` of each deep, and
  `conclude`; a host can run the steps one by one (in worker processes, reporting progress between them).

`hint` is the AI's suggestion for the seat to move, with a one-line reason; `seconds` bounds its search.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.ai.knowledge import Knowledge, knowledge_for
from games.ai.search import Level, Search, SearchReport, analyse, seat_count
from games.base import Rules, Seat, Step, replay
from games.texts import Text

LEVEL = Level.HARD
"""The analysis searches with the hard level's knowledge and picks its most visited move."""
DEEP_SEED = 1 << 20
"""Added to the seeds of the second pass, so it does not repeat the first pass's random choices."""
ANALYSIS_SECONDS = 7.0
"""The wall-clock time a player's analysis searches (`Budget.seconds` of the bot's budget): with the
replay and the rest, a whole match is analysed in under 10 seconds on a 2-core machine."""
HINT_SECONDS = 2.0
"""The wall-clock time a hint searches at most: a hint comes in under 3 seconds."""
MIN_DEEP_SECONDS = 0.03
"""A second-pass search gets at least this long, even when the first pass used up the time (a first-pass
search gets no floor but its first few iterations: the search reads the clock every 8)."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How much searching an analysis may do: iterations (reproducible), and optionally wall-clock time."""

    first: int = 200
    """Iterations per search in the first pass (fewer when the match is long, see `total`)."""
    deep: int = 800
    """Iterations per search in the second pass over the candidate turning points."""
    total: int = 24_000
    """Iterations of the whole first pass at most: a long match gets fewer per position."""
    turning_points: int = 3
    """Turning points reported per seat at most (also the candidates per seat of the second pass)."""
    min_drop: float = 0.05
    """A move that costs less win chance than this is not a turning point."""
    seconds: float | None = None
    """Wall-clock seconds of searching for the whole analysis; None: iterations alone (reproducible)."""
    deep_share: float = 0.35
    """The share of `seconds` the second pass gets (at least; it also gets what the first pass left)."""

    def per_search(self, searches: int) -> int:
        """First-pass iterations per search when `searches` searches share `total` (at least 10)."""
        return max(10, min(self.first, self.total // max(1, searches)))

    def first_seconds(self, searches: int, elapsed: float = 0.0) -> float | None:
        """First-pass seconds per search: the first pass's time left after `elapsed` seconds (replay and
        searches so far: what the machine spent elsewhere comes out of the budget too), shared by the
        `searches` still to come (0 once it is used up)."""
        if self.seconds is None:
            return None
        left = self.seconds * (1 - self.deep_share) - elapsed
        return max(0.0, left / max(1, searches))

    def deep_seconds(self, searches: int, elapsed: float) -> float | None:
        """Second-pass seconds per search: the time left after `elapsed` seconds, shared by `searches`
        (at least `MIN_DEEP_SECONDS` each)."""
        if self.seconds is None:
            return None
        return max(MIN_DEEP_SECONDS, (self.seconds - elapsed) / max(1, searches))


TIMED_BUDGET = Budget(seconds=ANALYSIS_SECONDS)
"""The budget of a player's analysis: the default iterations, bounded by `ANALYSIS_SECONDS` in all."""


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One analysed decision: `seat` played `played` at `ply`; the AI prefers `preferred`. `before` is the
    mover's estimated win chance with the preferred move, `after` with the move played."""

    ply: int
    seat: Seat
    played: str
    preferred: str
    before: float
    after: float
    deep: bool = False
    """Whether the estimates come from the deeper second pass."""

    @property
    def drop(self) -> float:
        """The win chance the played move gave away (0 when it was the preferred move or as good)."""
        if self.played == self.preferred:
            return 0.0
        return max(0.0, self.before - self.after)


@dataclass(frozen=True, slots=True)
class MatchAnalysis:
    """Every analysed decision in ply order, and each seat's turning points (biggest drop first)."""

    reviews: tuple[MoveReview, ...]
    turning_points: tuple[tuple[MoveReview, ...], ...]
    """Indexed by seat."""
    iterations: int
    """Search iterations spent in all."""

    def biggest(self) -> MoveReview | None:
        """The turning point with the largest drop of all seats (the earliest on a tie), or None."""
        points = [p for seat_points in self.turning_points for p in seat_points]
        if not points:
            return None
        return max(points, key=lambda p: (p.drop, -p.ply))


@dataclass(frozen=True, slots=True)
class Hint:
    """The AI's move for the seat to move: its notation, the move in words, and a one-line reason (both
    `Text`, so the bot words them in the player's language)."""

    move: str
    description: str
    reason: Text
    chance: float | None
    """The mover's estimated win chance after the move; None where no search estimated it."""


@dataclass(frozen=True, slots=True)
class Reviewed:
    """What one review found (None where the AI would not search: its own procedure) and the iterations
    it spent."""

    review: MoveReview | None
    iterations: int


class _Estimator:
    """The searches of one review, counting the iterations they spend."""

    def __init__(self, rules: Rules[Any, Any], knowledge: Knowledge) -> None:
        self.rules = rules
        self.knowledge = knowledge
        self.iterations = 0

    def preferred(self, state: Any, iterations: int, seconds: float | None, seed: int) -> SearchReport:
        report = analyse(self.rules, state, level=LEVEL, iterations=iterations, seconds=seconds, seed=seed)
        self.iterations += report.iterations
        return report

    def value(self, state: Any, move: Any, iterations: int, seconds: float | None, seed: int) -> float:
        """The mover's mean reward over a search of `move` alone from `state`."""
        search = Search(self.rules, self.knowledge, seat_count(self.rules, state), random.Random(seed))
        report = search.run(state, [move], seconds=seconds, iterations=iterations, temperature=0.0)
        self.iterations += report.iterations
        return report.moves[0].value


def review(
    rules: Rules[Any, Any],
    state: Any,
    ply: int,
    played: str,
    *,
    iterations: int,
    seconds: float | None = None,
    seed: int,
    deep: bool = False,
) -> Reviewed:
    """The review of the move `played` (notation) at `ply` from `state`: the preferred move and both win
    chances, each search bounded by `iterations` and `seconds` (None: iterations alone)."""
    estimator = _Estimator(rules, knowledge_for(rules.id))
    report = estimator.preferred(state, iterations, seconds, seed)
    if report.reason == "special":
        return Reviewed(None, estimator.iterations)
    seat = rules.to_move(state)
    assert seat is not None, "a reviewed position has a mover"
    preferred = rules.notation(state, report.move)
    stats = {rules.notation(state, s.move): s.value for s in report.moves}
    before = stats.get(preferred)
    if before is None:  # chosen without a tree search (a winning move, one candidate): search it alone
        before = estimator.value(state, report.move, iterations, seconds, seed)
    if preferred == played:
        after = before
    else:
        after = estimator.value(state, rules.parse(state, played), iterations, seconds, seed)
    found = MoveReview(ply, seat, played, preferred, before, after, deep)
    return Reviewed(found, estimator.iterations)


def decisions(rules: Rules[Any, Any], steps: Sequence[Step[Any, Any]]) -> list[Step[Any, Any]]:
    """The steps where a player chose a move: not a resignation, not forced, not the only legal move."""
    chosen = []
    for step in steps:
        if step.move is None or rules.forced_move(step.before) is not None:
            continue
        moves = iter(rules.legal_moves(step.before))
        if next(moves, None) is not None and next(moves, None) is not None:
            chosen.append(step)
    return chosen


def positions(rules: Rules[Any, Any], start: Any, log: Sequence[tuple[Seat, str]]) -> list[Step[Any, Any]]:
    """The decisions of the match played from `start` with `log` (ReplayError if it does not replay)."""
    return decisions(rules, list(replay(rules, start, log)))


def _top(reviews: Sequence[MoveReview], seat: Seat, count: int, min_drop: float) -> list[MoveReview]:
    """A seat's reviews with the largest drops (at least `min_drop`), biggest first, earliest on a tie."""
    mine = [r for r in reviews if r.seat == seat and r.drop >= min_drop]
    return sorted(mine, key=lambda r: (-r.drop, r.ply))[:count]


def candidates(first: Sequence[MoveReview], seats: int, budget: Budget) -> list[MoveReview]:
    """The first-pass reviews the second pass searches again: per seat, the largest drops, seat by seat."""
    return [c for seat in range(seats) for c in _top(first, seat, budget.turning_points, min_drop=1e-9)]


def conclude(
    first: Sequence[MoveReview], deep: Sequence[MoveReview], seats: int, budget: Budget, iterations: int
) -> MatchAnalysis:
    """The analysis from both passes: the deep reviews replace the first ones of their plies, and each
    seat's turning points are its largest deep drops."""
    reviews = {r.ply: r for r in first}
    reviews.update((r.ply, r) for r in deep)
    ordered = tuple(reviews[ply] for ply in sorted(reviews))
    deep_reviews = [r for r in ordered if r.deep]
    points = tuple(
        tuple(_top(deep_reviews, seat, budget.turning_points, budget.min_drop)) for seat in range(seats)
    )
    return MatchAnalysis(ordered, points, iterations)


def analyse_match(
    rules: Rules[Any, Any],
    start: Any,
    log: Sequence[tuple[Seat, str]],
    *,
    budget: Budget = Budget(),
    seed: int = 0,
    progress: Callable[[int, int, bool], None] | None = None,
) -> MatchAnalysis:
    """The analysis of a match played from `start` with the move `log` of (seat, notation) entries (see the
    module doc); `progress(done, total, deep)` is called after each position. Raises ReplayError for a log
    that does not replay."""
    began = time.perf_counter()
    chosen = positions(rules, start, log)
    seats = seat_count(rules, start)
    iterations = budget.per_search(2 * len(chosen))
    spent = 0
    first: list[MoveReview] = []
    for done, step in enumerate(chosen, 1):
        seconds = budget.first_seconds(2 * (len(chosen) - done + 1), time.perf_counter() - began)
        found = review(
            rules,
            step.before,
            step.ply,
            step.notation,
            iterations=iterations,
            seconds=seconds,
            seed=seed + step.ply,
        )
        spent += found.iterations
        if found.review is not None:
            first.append(found.review)
        if progress is not None:
            progress(done, len(chosen), False)
    by_ply = {step.ply: step for step in chosen}
    again = candidates(first, seats, budget)
    deep: list[MoveReview] = []
    for done, candidate in enumerate(again, 1):
        step = by_ply[candidate.ply]
        deep_seconds = budget.deep_seconds(2 * (len(again) - done + 1), time.perf_counter() - began)
        found = review(
            rules,
            step.before,
            step.ply,
            step.notation,
            iterations=budget.deep,
            seconds=deep_seconds,
            seed=seed + step.ply + DEEP_SEED,
            deep=True,
        )
        spent += found.iterations
        if found.review is not None:
            deep.append(found.review)
        if progress is not None:
            progress(done, len(again), True)
    return conclude(first, deep, seats, budget, spent)


def _wins_at_once(rules: Rules[Any, Any], state: Any, seat: Seat, limit: int = 400) -> bool:
    """Whether `seat`, to move in `state`, has a move that wins the game outright (checked up to `limit`
    moves, so a huge move list costs nothing)."""
    if rules.to_move(state) != seat:
        return False
    moves = list(rules.legal_moves(state))
    if len(moves) > limit:
        return False
    for move in moves:
        outcome = rules.outcome(rules.apply(state, move))
        if outcome is not None and outcome.winners == (seat,):
            return True
    return False


def _stops_a_win(rules: Rules[Any, Any], state: Any, report: SearchReport) -> Seat | None:
    """The opponent who could win at once after the search's second choice but not after its first, in a
    two-player game: the move prevents that win. None otherwise."""
    if seat_count(rules, state) != 2 or len(report.moves) < 2:
        return None
    mover = rules.to_move(state)
    assert mover is not None
    opponent = 1 - mover
    runner_up = rules.apply(state, report.moves[1].move)
    chosen = rules.apply(state, report.move)
    if _wins_at_once(rules, runner_up, opponent) and not _wins_at_once(rules, chosen, opponent):
        return opponent
    return None


def hint(
    rules: Rules[Any, Any], state: Any, *, iterations: int, seconds: float | None = None, seed: int = 0
) -> Hint:
    """The AI's move for the seat to move in `state` (hard level, a search of at most `iterations` and at
    most `seconds`, None: iterations alone) and why, in one line: it wins at once, it is the only move, it
    stops the opponent's immediate win, or its win chance (beside the next best move's, when that is lower:
    a short search may rank by visits a move whose mean is a little lower). Raises GameOver on a finished
    game."""
    report = analyse(rules, state, level=LEVEL, iterations=iterations, seconds=seconds, seed=seed)
    notation = rules.notation(state, report.move)
    description = rules.describe(state, report.move)
    if report.reason == "winning move":
        return Hint(notation, description, Text("it wins the game at once."), 1.0)
    if report.reason in ("forced", "only move"):
        return Hint(notation, description, Text("it is the only sensible move here."), None)
    if not report.moves:  # the AI's own procedure (Paintscape's balancing)
        return Hint(notation, description, Text("it is the move I would make here."), None)
    chance = report.moves[0].value
    blocked = _stops_a_win(rules, state, report)
    if blocked is not None:
        reason = Text(
            "about {chance} to win after it, and it stops {seat} from winning next turn.",
            chance=percent(chance),
            seat=rules.seat_label(state, blocked),
        )
    elif len(report.moves) > 1 and report.moves[1].value <= chance:
        second = report.moves[1]
        reason = Text(
            "about {chance} to win after it (next best {move}: {other}).",
            chance=percent(chance),
            move=rules.notation(state, second.move),
            other=percent(second.value),
        )
    else:
        reason = Text("about {chance} to win after it.", chance=percent(chance))
    return Hint(notation, description, reason, chance)


def percent(chance: float) -> str:
    """A win chance as players read it: "62%"."""
    return f"{round(100 * chance)}%"


__all__ = [
    "ANALYSIS_SECONDS",
    "HINT_SECONDS",
    "TIMED_BUDGET",
    "Budget",
    "Hint",
    "MatchAnalysis",
    "MoveReview",
    "Reviewed",
    "analyse_match",
    "candidates",
    "conclude",
    "decisions",
    "hint",
    "percent",
    "positions",
    "review",
]
