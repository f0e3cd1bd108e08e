"""What the bot's AI worker processes run (`bot.service.ai.AIRunner` sends them these functions): a position
in as its engine's `dump`, a move's notation, a review, a hint or a puzzle's verdict out.

They are here, beside the search, and not in the service that schedules them, because a worker process is
spawned: it imports the module of the function it runs, so these import the engines and the search and
nothing of the bot (no database, no Discord, no tournaments).
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import games
from games.ai import best_move
from games.ai.analysis import Hint, Reviewed, hint, positions, review
from games.ai.levels import level_settings
from games.ai.puzzles import Examined, PuzzleBudget, examine
from games.base import Seat
from games.lifeline import die_with_parent

log = logging.getLogger(__name__)


def choose_in_worker(
    game_id: str,
    state_dump: Mapping[str, Any],
    level: str,
    seed: int,
    seconds: float | None,
    iterations: int | None,
    limit: float | None = None,
) -> str:
    """The search itself, run inside a worker process: position in, move notation out. `limit` caps the
    level's own thinking time (a live clock's budget); it never makes a level think longer."""
    rules = games.get(game_id)
    state = rules.load(state_dump)
    if limit is not None:
        if seconds is None and iterations is None:
            own = level_settings(level, game_id)
            seconds, iterations = own.seconds, own.iterations
        seconds = limit if seconds is None else min(seconds, limit)
    move = best_move(rules, state, level=level, seconds=seconds, iterations=iterations, seed=seed)
    return rules.notation(state, move)


@dataclass(frozen=True, slots=True)
class AnalysisPosition:
    """A position of a finished match where a player chose a move: its ply, the move played (notation)
    and the position before it (the engine's `dump`)."""

    ply: int
    played: str
    state: dict[str, Any]


def positions_in_worker(
    game_id: str, options: Mapping[str, Any], seed: int, seats: int, log: list[tuple[Seat, str]]
) -> list[AnalysisPosition]:
    """The positions an analysis reviews (`games.ai.analysis.positions`), run inside a worker process."""
    rules = games.get(game_id)
    start = rules.new(seats, options, seed)
    return [
        AnalysisPosition(step.ply, step.notation, rules.dump(step.before))
        for step in positions(rules, start, log)
    ]


def review_in_worker(
    game_id: str,
    position: AnalysisPosition,
    iterations: int,
    seconds: float | None,
    seed: int,
    deep: bool,
) -> Reviewed:
    """One position's review (`games.ai.analysis.review`), run inside a worker process."""
    rules = games.get(game_id)
    state = rules.load(position.state)
    return review(
        rules,
        state,
        position.ply,
        position.played,
        iterations=iterations,
        seconds=seconds,
        seed=seed,
        deep=deep,
    )


def puzzle_in_worker(game_id: str, position: AnalysisPosition, budget: PuzzleBudget, seed: int) -> Examined:
    """Whether one position of a finished match is a puzzle (`games.ai.puzzles.examine`), in a worker."""
    rules = games.get(game_id)
    state = rules.load(position.state)
    return examine(rules, state, position.ply, position.played, budget=budget, seed=seed)


def hint_in_worker(
    game_id: str, state_dump: Mapping[str, Any], iterations: int, seconds: float | None, seed: int
) -> Hint:
    """The AI's suggestion for the seat to move, run inside a worker process."""
    rules = games.get(game_id)
    return hint(rules, rules.load(state_dump), iterations=iterations, seconds=seconds, seed=seed)


def warm_up(niceness: int = 0) -> None:
    """A fresh worker's start: lower its CPU priority by `niceness` and import every engine once, so the
    first real search does not pay for it. A worker ends with its parent (a bot killed without closing its
    pool takes its searches with it)."""
    die_with_parent()
    with contextlib.suppress(OSError, AttributeError):  # os.nice is POSIX only
        os.nice(niceness)
    for game_id in games.GAME_IDS:
        try:
            games.get(game_id)
        except ImportError:  # an engine that is not installed only fails when it is asked for
            log.debug("game %s could not be imported in the AI worker", game_id)
