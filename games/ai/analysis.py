"""Post-game analysis and hints: where a finished match turned, and what the AI would play now.

`analyse_match` replays a match's log (`games.base.replay`) and, at every position where a player chose
among several moves, estimates the mover's win chance with the move the AI prefers (`before`) and with the
move that was played (`after`). The estimates are mean search rewards in [0, 1]: a win counts 1, a loss 0,
a draw 1/2 (TilingKing's rewards also credit the score margin a little, see games/ai/tilingking.py).

- The preferred move and its value come from `analyse` at the hard level; the played move's value from a
  search of that move alone, so every iteration goes into answering it.
- Bounded: a first pass gives every position at most `Budget.first` iterations per search and all of them
  together at most `Budget.total`; the few positions with the largest drops per seat are searched again
  with `Budget.deep` iterations, and only those deep estimates become turning points.
- Forced moves, positions with one legal move, resignations and phases the AI plays by its own procedure
  (Paintscape's balancing swaps) are not analysed.
- Reproducible: every search has an iteration budget and a seed derived from `seed` and the ply.

`hint` is the AI's suggestion for the seat to move, with a one-line reason.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
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


@dataclass(frozen=True, slots=True)
class Budget:
    """How much searching an analysis may do (iterations, so results are reproducible)."""

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

    def per_search(self, searches: int) -> int:
        """First-pass iterations per search when `searches` searches share `total` (at least 10)."""
        return max(10, min(self.first, self.total // max(1, searches)))


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


class _Estimator:
    """The searches of one analysis, counting the iterations they spend."""

    def __init__(self, rules: Rules[Any, Any], knowledge: Knowledge) -> None:
        self.rules = rules
        self.knowledge = knowledge
        self.iterations = 0

    def preferred(self, state: Any, iterations: int, seed: int) -> SearchReport:
        report = analyse(self.rules, state, level=LEVEL, iterations=iterations, seed=seed)
        self.iterations += report.iterations
        return report

    def value(self, state: Any, move: Any, iterations: int, seed: int) -> float:
        """The mover's mean reward over a search of `move` alone from `state`."""
        search = Search(self.rules, self.knowledge, seat_count(self.rules, state), random.Random(seed))
        report = search.run(state, [move], seconds=None, iterations=iterations, temperature=0.0)
        self.iterations += report.iterations
        return report.moves[0].value

    def review(self, step: Step[Any, Any], iterations: int, seed: int, deep: bool) -> MoveReview | None:
        """The review of one step, or None where the AI would not search (its own procedure)."""
        state, rules = step.before, self.rules
        report = self.preferred(state, iterations, seed)
        if report.reason == "special":
            return None
        preferred = rules.notation(state, report.move)
        stats = {rules.notation(state, s.move): s.value for s in report.moves}
        before = stats.get(preferred)
        if before is None:  # chosen without a tree search (a winning move, one candidate): search it alone
            before = self.value(state, report.move, iterations, seed)
        played_preferred = preferred == step.notation
        after = before if played_preferred else self.value(state, step.move, iterations, seed)
        return MoveReview(step.ply, step.seat, step.notation, preferred, before, after, deep)


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


def _top(reviews: Sequence[MoveReview], seat: Seat, count: int, min_drop: float) -> list[MoveReview]:
    """A seat's reviews with the largest drops (at least `min_drop`), biggest first, earliest on a tie."""
    mine = [r for r in reviews if r.seat == seat and r.drop >= min_drop]
    return sorted(mine, key=lambda r: (-r.drop, r.ply))[:count]


def analyse_match(
    rules: Rules[Any, Any],
    start: Any,
    log: Sequence[tuple[Seat, str]],
    *,
    budget: Budget = Budget(),
    seed: int = 0,
) -> MatchAnalysis:
    """The analysis of a match played from `start` with the move `log` of (seat, notation) entries (see the
    module doc). Raises ReplayError for a log that does not replay."""
    steps = list(replay(rules, start, log))
    seats = seat_count(rules, start)
    estimator = _Estimator(rules, knowledge_for(rules.id))
    chosen = decisions(rules, steps)
    iterations = budget.per_search(2 * len(chosen))
    first = {}
    for step in chosen:
        review = estimator.review(step, iterations, seed + step.ply, deep=False)
        if review is not None:
            first[step.ply] = review
    reviews = dict(first)
    by_ply = {step.ply: step for step in chosen}
    for seat in range(seats):
        for candidate in _top(list(first.values()), seat, budget.turning_points, min_drop=1e-9):
            step = by_ply[candidate.ply]
            deep = estimator.review(step, budget.deep, seed + step.ply + DEEP_SEED, deep=True)
            if deep is not None:
                reviews[step.ply] = deep
    ordered = tuple(reviews[ply] for ply in sorted(reviews))
    deep_reviews = [r for r in ordered if r.deep]
    points = tuple(
        tuple(_top(deep_reviews, seat, budget.turning_points, budget.min_drop)) for seat in range(seats)
    )
    return MatchAnalysis(ordered, points, estimator.iterations)


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


def hint(rules: Rules[Any, Any], state: Any, *, iterations: int, seed: int = 0) -> Hint:
    """The AI's move for the seat to move in `state` (hard level, `iterations` per search) and why, in one
    line: it wins at once, it is the only move, it stops the opponent's immediate win, or its win chance
    (beside the next best move's, when that is lower: a short search may rank by visits a move whose
    mean is a little lower). Raises GameOver on a finished game."""
    report = analyse(rules, state, level=LEVEL, iterations=iterations, seed=seed)
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


__all__ = ["Budget", "Hint", "MatchAnalysis", "MoveReview", "analyse_match", "decisions", "hint", "percent"]
