"""Puzzles from finished matches: positions where one move is clearly best, and the match's player missed it.

`find_puzzles` replays a finished match (`games.ai.analysis.positions`: the decisions, no forced or only
moves, no resignations) and, for each position, runs the checks below; a position that passes all three is
a `Puzzle`. Every win chance is a mean search reward for the mover in [0, 1] (as in the analysis).

0. **Scout** (`PuzzleBudget.scout` iterations, when fewer than the first search's): a short search whose best
   move must already stand `SCOUT_MARGIN` above every other; most positions have no clear best and stop
   here, so the deep searches run only where a puzzle is likely (the scout only turns positions away: a
   puzzle found with it is found without it, with the same figures).
1. **First search** (`PuzzleBudget.first` iterations, the hard level's knowledge): the most visited move
   is the candidate; its value must be at least `MARGIN` above the value of every other move the search
   tried (the runner-up is the other move with the highest value).
2. **Verification** (`PuzzleBudget.second` iterations, another seed): a longer search must prefer the same
   move, and the margin must hold again over every other move it tried and over the rivals searched alone
   with `PuzzleBudget.rival` iterations each, so a rival the tree barely visited cannot hide a good reply:
   **every** other legal move where there are at most `PuzzleBudget.alone` (Paintscape has 9-19), else
   the strongest `PuzzleBudget.rivals`. The solution is searched alone too, and the lower of its two
   values counts. `MARGIN` (0.3 on the [0, 1] scale) is stricter than lichess's rule (no second move
   within 0.42 on its -1..1 scale, `LICHESS_MARGIN` here).
3. **The move played lost ground**: it is not the solution, and searched alone (`PuzzleBudget.rival`
   iterations) its value is at least `PLAYED_LOSS` below the solution's value in the second search.

Skipped: positions with fewer than `MIN_CHOICES` legal moves and those where the AI plays a move of its
own procedure (Paintscape's balancing). A move that wins at once makes a "find the win" puzzle when every
other candidate is clearly worse, checked the same way. The solution line is the solution and, when the
game goes on, the reply a short search expects (`PuzzleBudget.first` iterations after the solution).

**One puzzle per match** (`find_puzzles`): the positions are examined in an order shuffled by the match's seed
(`mining_order`) and the first puzzle found ends the match's mining, so a match never gives two puzzles (one
answer found in consecutive plies was the daily puzzle three days running), and a puzzle may come from any
part of the match. Each puzzle has a **theme** (`THEMES`, `theme_of`): the winning move, or what the game's
own puzzle module (`GamePlugin.puzzles`, `theme`) says the solution does (collect a colour, ring
capture...), else a quiet move.

Deterministic: searches are bounded by iterations and seeded from `seed` and the ply, so the same match and
budget give the same puzzles. The source match is not part of a `Puzzle` (the host keeps its id privately),
and nothing here knows players' names.
"""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar

from games.ai.analysis import LEVEL, positions
from games.ai.knowledge import knowledge_for
from games.ai.search import MoveStats, Search, SearchReport, analyse, seat_count
from games.base import GameOver, Rules, Seat, Step, replay_state
from games.texts import N_

MARGIN = 0.3
"""The solution's win chance is at least this much above every other move's, in both searches."""
PLAYED_LOSS = 0.2
"""The move played in the match is worth at least this much less than the solution (it lost ground)."""
LICHESS_MARGIN = 0.21
"""Lichess's rule for an unambiguous puzzle, on this module's [0, 1] scale: no second move within 0.42 of the
solution on lichess's -1..1 scale (bench/puzzle_quality.py measures it at ten times the finder's budget)."""
SCOUT_MARGIN = 0.1
"""The scout's best move must stand this much above every other for the deep searches to run (lower than
`MARGIN`: a short search's values are rougher, and a position it turns away is lost)."""
MIN_CHOICES = 3
"""Positions with fewer legal moves are not puzzles: a choice of two is a coin toss for the solver."""
SECOND_SEED = 1 << 21
"""Added to the second search's seed, so it does not repeat the first one's random choices."""
RIVAL_SEED = 1 << 22
"""Added to the seeds of the searches of single moves (rivals and the move played)."""
SCOUT_SEED = 1 << 23
"""Added to the scout's seed."""
ORDER_SEED = 0x5EED
"""Mixed into the match's seed for the order its positions are examined in (`mining_order`)."""


@dataclass(frozen=True, slots=True)
class PuzzleBudget:
    """Search iterations of each check (see the module doc)."""

    first: int = 1500
    second: int = 4000
    rivals: int = 2
    rival: int = 2500
    """Iterations of each search of one move alone (the rivals, the solution, the move played): at 1,000 one
    Paintscape puzzle in six of the first starter pool was ambiguous at ten times the budget (a rival 0.20
    below the solution); at 2,500 that one is turned away and the other five kept."""
    scout: int = 200
    """The scout's iterations; no scout unless fewer than `first`."""
    alone: int = 24
    """Positions with at most this many legal moves have every move searched alone in the verification."""
    max_positions: int | None = None
    """Positions examined per match at most (the latest ones first are not preferred: in ply order)."""


@dataclass(frozen=True, slots=True)
class Figures:
    """What the checks measured: both searches' best and runner-up values, the move played and its value."""

    first_best: float
    first_runner_up: float
    first_runner_up_move: str
    first_iterations: int
    second_best: float
    second_runner_up: float
    second_runner_up_move: str
    second_iterations: int
    played: str
    played_value: float
    candidates: int
    """How many moves the searches chose among."""
    alone: int = 0
    """How many rivals the verification searched alone."""

    @property
    def first_margin(self) -> float:
        return self.first_best - self.first_runner_up

    @property
    def second_margin(self) -> float:
        return self.second_best - self.second_runner_up

    @property
    def played_loss(self) -> float:
        """The win chance the move played gave away, by the second search's value of the solution."""
        return self.second_best - self.played_value

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Figures:
        return cls(**data)


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A position (the engine's `dump`), the seat to move, the solution line in notation (the solution
    first), the checks' figures, and the ply of the match it comes from."""

    ply: int
    mover: Seat
    position: dict[str, Any]
    solution: tuple[str, ...]
    figures: Figures
    theme: str = "quiet"
    """What the solution does (a key of `THEMES`)."""

    @property
    def move(self) -> str:
        """The move to find."""
        return self.solution[0]

    @property
    def difficulty(self) -> float:
        """How hard it looks, in [0, 1]: more moves to choose from and a narrower margin are harder, and so
        is a move a player in a real match missed (every puzzle has that)."""
        choice = min(1.0, self.figures.candidates / 40)
        narrow = 1.0 - min(1.0, max(0.0, self.figures.second_margin - MARGIN) / (1.0 - MARGIN))
        return round(0.5 * choice + 0.5 * narrow, 3)


@dataclass(frozen=True, slots=True)
class Examined:
    """One position's verdict: the puzzle, or None with the check that failed (for the bench's counts)."""

    puzzle: Puzzle | None
    failed: str | None


def _best_and_runner_up(report: SearchReport) -> tuple[MoveStats, MoveStats | None]:
    """The chosen move's statistics and the other move with the highest value (None when the search tried
    no other)."""
    best = next(s for s in report.moves if s.move == report.move)
    others = [s for s in report.moves if s.move != report.move]
    return best, max(others, key=lambda s: s.value) if others else None


def _stands_out(report: SearchReport, margin: float) -> bool:
    """Whether the chosen move's value is at least `margin` above every other move the search tried."""
    best, rival = _best_and_runner_up(report)
    return rival is not None and best.value >= rival.value + margin


def _single(rules: Rules[Any, Any], state: Any, move: Any, iterations: int, seed: int) -> float:
    """The mover's mean reward over a search of `move` alone from `state`."""
    search = Search(rules, knowledge_for(rules.id), seat_count(rules, state), random.Random(seed))
    report = search.run(state, [move], seconds=None, iterations=iterations, temperature=0.0)
    return report.moves[0].value


def _search(rules: Rules[Any, Any], state: Any, iterations: int, seed: int) -> SearchReport | None:
    """A search over every candidate move, with statistics for each (a move that wins at once included);
    None where the AI would not search (a forced move, one candidate, its own procedure)."""
    report = analyse(rules, state, level=LEVEL, iterations=iterations, seed=seed)
    if report.reason == "search":
        return report
    if report.reason != "winning move":
        return None
    knowledge = knowledge_for(rules.id)
    rng = random.Random(seed)
    moves = knowledge.root_moves(rules, state, list(rules.legal_moves(state)), rng)
    if len(moves) < 2:
        return None
    search = Search(rules, knowledge, seat_count(rules, state), rng)
    return search.run(state, moves, seconds=None, iterations=iterations, temperature=0.0)


def reply_to(rules: Rules[Any, Any], state: Any, iterations: int, seed: int) -> str | None:
    """The reply a search expects after the solution, in notation; None when the game is over."""
    if rules.to_move(state) is None:
        return None
    try:
        report = analyse(rules, state, level=LEVEL, iterations=iterations, seed=seed)
    except GameOver:
        return None
    return rules.notation(state, report.move)


def examine(
    rules: Rules[Any, Any], state: Any, ply: int, played: str, *, budget: PuzzleBudget, seed: int
) -> Examined:
    """Whether the position `state` (before the move `played` at `ply`) is a puzzle (see the module doc)."""
    mover = rules.to_move(state)
    if mover is None:
        return Examined(None, "over")
    legal = list(rules.legal_moves(state))
    if len(legal) < MIN_CHOICES:
        return Examined(None, "few moves")
    if budget.scout < budget.first:
        scout = _search(rules, state, budget.scout, seed + SCOUT_SEED)
        if scout is None:
            return Examined(None, "no search")
        if not _stands_out(scout, SCOUT_MARGIN):
            return Examined(None, "scout margin")
    first = _search(rules, state, budget.first, seed)
    if first is None:
        return Examined(None, "no search")
    best = first.move
    if not _stands_out(first, MARGIN):
        return Examined(None, "first margin")
    best_stats, rival = _best_and_runner_up(first)
    assert rival is not None
    solution = rules.notation(state, best)
    if solution == played:
        return Examined(None, "found in the match")
    second = _search(rules, state, budget.second, seed + SECOND_SEED)
    if second is None or rules.notation(state, second.move) != solution:
        return Examined(None, "second disagrees")
    second_best = next(s for s in second.moves if s.move == second.move).value
    others = sorted((s for s in second.moves if s.move != second.move), key=lambda s: -s.value)
    if not others:
        return Examined(None, "second margin")
    rival_values = {rules.notation(state, s.move): s.value for s in others}
    if len(legal) <= budget.alone:
        alone = [move for move in legal if rules.notation(state, move) != solution]
    else:
        alone = [s.move for s in others[: budget.rivals]]
    for number, other in enumerate(alone):
        value = _single(rules, state, other, budget.rival, seed + RIVAL_SEED + number)
        name = rules.notation(state, other)
        rival_values[name] = max(rival_values.get(name, 0.0), value)
        if second_best < value + MARGIN:
            return Examined(None, "second margin")
    second_best = min(second_best, _single(rules, state, best, budget.rival, seed + RIVAL_SEED + 98))
    second_rival, second_rival_value = max(rival_values.items(), key=lambda item: item[1])
    if second_best < second_rival_value + MARGIN:
        return Examined(None, "second margin")
    played_move = rules.parse(state, played)
    played_value = _single(rules, state, played_move, budget.rival, seed + RIVAL_SEED + 99)
    if second_best - played_value < PLAYED_LOSS:
        return Examined(None, "played held")
    figures = Figures(
        first_best=best_stats.value,
        first_runner_up=rival.value,
        first_runner_up_move=rules.notation(state, rival.move),
        first_iterations=first.iterations,
        second_best=second_best,
        second_runner_up=second_rival_value,
        second_runner_up_move=second_rival,
        second_iterations=second.iterations,
        played=played,
        played_value=played_value,
        candidates=max(len(second.moves), len(alone) + 1),
        alone=len(alone),
    )
    after = rules.apply(state, best)
    reply = reply_to(rules, after, budget.first, seed + SECOND_SEED + 1)
    line = (solution,) if reply is None else (solution, reply)
    played_after = rules.apply(state, played_move)
    theme = theme_of(rules, state, best, after, played_after)
    return Examined(Puzzle(ply, mover, rules.dump(state), line, figures, theme), None)


def find_puzzles(
    rules: Rules[Any, Any],
    start: Any,
    log: Sequence[tuple[Seat, str]],
    *,
    budget: PuzzleBudget = PuzzleBudget(),
    seed: int = 0,
    ended: bool = False,
    on_examined: Callable[[Step[Any, Any], Examined], None] | None = None,
) -> list[Puzzle]:
    """The puzzle of the finished match played from `start` with `log`, if it has one (a list of at most one:
    the first found in `mining_order`; see the module doc). ValueError
    unless the match is over: its log ends the game, or the host says it `ended` otherwise (a resignation
    or a timeout in a two-player game, which the log does not record). Puzzles come only from finished
    matches."""
    steps = positions(rules, start, log)
    over = rules.outcome(replay_state(rules, start, log)) is not None
    if not (over or ended):
        raise ValueError("puzzles come only from finished matches")
    if budget.max_positions is not None:
        steps = steps[: budget.max_positions]
    for step in mining_order(steps, seed):
        examined = examine(rules, step.before, step.ply, step.notation, budget=budget, seed=seed + step.ply)
        if on_examined is not None:
            on_examined(step, examined)
        if examined.puzzle is not None:
            return [examined.puzzle]
    return []


T = TypeVar("T")


def mining_order(steps: Sequence[T], seed: int) -> list[T]:
    """The order a match's positions are examined in: shuffled by the match's seed (the same every time), so
    that the one puzzle a match gives may come from any part of it."""
    order = list(steps)
    random.Random(seed ^ ORDER_SEED).shuffle(order)
    return order


THEMES: dict[str, str] = {
    "win": N_("the winning move"),
    "collect": N_("collect a colour"),
    "block": N_("stop a colour"),
    "capture": N_("ring capture"),
    "stop_capture": N_("stop a ring"),
    "last_cell": N_("the last cell"),
    "take_lead": N_("take the lead"),
    "hold_lead": N_("hold the lead"),
    "push": N_("push a sphere"),
    "quiet": N_("quiet move"),
}
"""Every puzzle theme (its key, stored with the puzzle) and its name (translated where shown). A game's
puzzle module (`GamePlugin.puzzles`) returns one of these keys."""


def theme_of(rules: Rules[Any, Any], before: Any, solution: Any, after: Any, played_after: Any) -> str:
    """The puzzle's theme (a key of `THEMES`): "win" when the solution wins at once, else what the game's
    puzzle module says (`theme(rules, before, solution, after, played_after)`, given the positions after the
    solution and after the move played), else "quiet"."""
    mover = rules.to_move(before)
    outcome = rules.outcome(after)
    if outcome is not None and outcome.winners == (mover,):
        return "win"
    import games

    plugin = games.PLUGINS.get(rules.id)
    if plugin is None or plugin.puzzles is None:
        return "quiet"
    theme = importlib.import_module(plugin.puzzles).theme(rules, before, solution, after, played_after)
    return theme if theme in THEMES else "quiet"


def starter_pool(game_id: str) -> list[dict[str, Any]]:
    """The starter puzzles shipped with a game (its puzzle module's `STARTER` file, one JSON object a line,
    bench/starter_puzzles.py): empty for a game without a pool."""
    import games

    plugin = games.PLUGINS.get(game_id)
    if plugin is None or plugin.puzzles is None:
        return []
    path = getattr(importlib.import_module(plugin.puzzles), "STARTER", None)
    if path is None or not Path(path).exists():
        return []
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


__all__ = [
    "LICHESS_MARGIN",
    "MARGIN",
    "MIN_CHOICES",
    "PLAYED_LOSS",
    "SCOUT_MARGIN",
    "THEMES",
    "Examined",
    "Figures",
    "Puzzle",
    "PuzzleBudget",
    "examine",
    "find_puzzles",
    "mining_order",
    "reply_to",
    "starter_pool",
    "theme_of",
]
