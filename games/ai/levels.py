"""The bot's eight levels, and the three time-based levels they replaced (kept for old matches).

A level is a search budget in iterations (so a level plays the same on any machine, and its calibration
holds everywhere) with a wall-clock cap (`CAP_SECONDS`) so that no level thinks longer than that on a slow
or busy machine. Every level uses the game's full knowledge, whatever it is, so every move a level
considers is one the knowledge finds sensible; the weak levels err the way people do:

- a shallow horizon: a small iteration budget (each level doubles the one below);
- oversight: the root sees only a random share 1 - `overlook` of the legal moves (at least `MIN_SEEN`),
  so a beginner sometimes misses the obvious, a winning move or a capture; the game's knowledge then ranks
  and prunes the moves it did see as always, so what it plays is a sensible move among those;
- misjudgement: the final choice adds gaussian noise (`noise`, on the [0, 1] reward scale) to the value of
  each well-searched root move, so a level sometimes prefers a slightly worse move.

The top level (level 8) errs in none of these ways, searches for about a second of one core of the 2-core
development machine, and plays the game's opening book where there is one (Paint's: positions searched far
deeper ahead of time, bench/paint_book.py).

Levels are stored by their ids ("1" to "8"; "easy", "medium" and "hard" for old matches), so an old match
in progress goes on at its old strength. Each game's plugin brings its ladder and the calibration of it
(`GamePlugin.levels`: the built-in games' `games/<id>/levels.py` and `levels.json`); a game without one
plays the default ladder (`DEFAULT_LADDER`). The bot's rating per level and game comes from the calibration
by self-play (bench/calibrate_levels.py); a level without one gets the nominal ladder (`nominal_rating`).
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import games
from games.base import Rules
from games.plugins import LEVEL_COUNT, Rung


class Level(enum.StrEnum):
    """The three time-based levels of old matches (before the eight levels); kept so that old matches read
    and play as before, and as fixed points of the calibration."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


@dataclass(frozen=True, slots=True)
class LevelSettings:
    """What a level means: its budget (`iterations`, capped at `seconds` of wall-clock time; a level without
    iterations thinks for `seconds`), whether it uses the game's weak knowledge, how loosely it picks, and
    how it errs (`overlook`, `noise`)."""

    seconds: float
    weak: bool
    temperature: float
    """0 plays the most visited move; above 0 draws a move with probability ~ visits ** (1 / temperature)."""
    iterations: int | None = None
    overlook: float = 0.0
    """The share of the legal moves the level does not see at the root (a winning move included)."""
    noise: float = 0.0
    """The standard deviation of the misjudgement added to each root move's value at the final choice."""
    book: bool = False
    """Whether the level plays the game's opening book where it has one (the top level only)."""


LEVELS: dict[Level, LevelSettings] = {
    Level.EASY: LevelSettings(seconds=0.2, weak=True, temperature=1.0),
    Level.MEDIUM: LevelSettings(seconds=1.0, weak=False, temperature=0.0),
    Level.HARD: LevelSettings(seconds=3.0, weak=False, temperature=0.0),
}
"""The old time-based levels (easy 0.2 s with the weak knowledge and a loose pick, medium 1 s, hard 3 s)."""

LEVEL_IDS: tuple[str, ...] = tuple(str(n) for n in range(1, LEVEL_COUNT + 1))
"""The eight levels a player can choose, weakest first."""
OLD_LEVEL_IDS: tuple[str, ...] = tuple(level.value for level in Level)
"""The old levels' ids: still valid in stored matches and lobbies, no longer offered."""
ALL_LEVEL_IDS: tuple[str, ...] = LEVEL_IDS + OLD_LEVEL_IDS

NEW_PLAYER_LEVEL = "2"
"""The level a player without a rating in the game gets."""

MIN_SEEN = 4
"""However much a level overlooks, it sees at least this many moves (all of them if there are fewer)."""

CAP_SECONDS = 2.5
"""No level thinks longer than this (wall clock) whatever its iteration budget: under 3 s on a busy
2-core machine."""


DEFAULT_LADDER: tuple[Rung, ...] = tuple(
    Rung(iterations, overlook, noise)
    for iterations, overlook, noise in zip(
        (8, 16, 32, 64, 128, 256, 512, 1024),
        (0.85, 0.7, 0.55, 0.38, 0.24, 0.13, 0.05, 0.0),
        (0.35, 0.25, 0.17, 0.11, 0.07, 0.04, 0.02, 0.0),
        strict=True,
    )
)
"""The ladder of a game without its own (each level doubles the budget of the one below)."""

SPACING = 175
"""The nominal gap between neighbouring levels in shown rating points (about a 73% score for the stronger):
big enough to feel, small enough that some level is near every player."""
NOMINAL_ANCHOR = 1500
"""Level 2's nominal rating: what a new player shows, so a new player's nearest level is level 2."""


def is_level(level: str) -> bool:
    """Whether `level` names a level (one of the eight, or an old one)."""
    return level in ALL_LEVEL_IDS


def ladder(game_id: str) -> tuple[Rung, ...]:
    """A game's eight levels, weakest first: its plugin's ladder, else `DEFAULT_LADDER` (also for an id no
    plugin registers)."""
    plugin = games.PLUGINS.get(game_id)
    return plugin.levels.ladder if plugin is not None and plugin.levels is not None else DEFAULT_LADDER


def level_settings(level: str, game_id: str = "") -> LevelSettings:
    """The settings of a level in a game; ValueError for an unknown level."""
    if level in OLD_LEVEL_IDS:
        return LEVELS[Level(level)]
    if level not in LEVEL_IDS:
        raise ValueError(f"unknown level {level!r} (levels: {', '.join(ALL_LEVEL_IDS)})")
    rung = ladder(game_id)[LEVEL_IDS.index(level)]
    return LevelSettings(
        seconds=CAP_SECONDS,
        weak=False,
        temperature=0.0,
        iterations=rung.iterations,
        overlook=rung.overlook,
        noise=rung.noise,
        book=level == LEVEL_IDS[-1],
    )


# ------------------------------------------------------------------------------------------- erring


def _wins_outright(rules: Rules[Any, Any], state: Any, seat: int) -> bool:
    outcome = rules.outcome(state)
    return outcome is not None and outcome.winners == (seat,)


class Overlooking:
    """A mixin over a game's knowledge (see `overlooking`): the root sees a random share 1 - `overlook` of the
    legal moves (at least `MIN_SEEN`; an outright win only if it is among them), and the knowledge ranks and
    prunes the moves it saw."""

    overlook: float = 0.0
    sees_wins: bool = False
    """Whether the knowledge underneath looks for outright wins first (its own `take_wins`)."""
    take_wins = False  # the root's win check is done here, where it can be overlooked

    def root_moves(
        self, rules: Rules[Any, Any], state: Any, moves: list[Any], rng: random.Random
    ) -> list[Any]:
        count = min(len(moves), max(MIN_SEEN, round((1 - self.overlook) * len(moves))))
        picked = sorted(rng.sample(range(len(moves)), count))
        seen = [moves[i] for i in picked]
        if self.sees_wins and len(seen) <= 400:
            mover = rules.to_move(state)
            for move in seen:
                if mover is not None and _wins_outright(rules, rules.apply(state, move), mover):
                    return [move]
        ranked: list[Any] = super().root_moves(rules, state, seen, rng)  # type: ignore[misc]
        return ranked


_OVERLOOKING: dict[type, type] = {}


def _overlooking_class(base: type) -> type:
    """The knowledge class `base` with `Overlooking` over it (made once per class)."""
    made = _OVERLOOKING.get(base)
    if made is None:
        made = _OVERLOOKING[base] = type(f"Overlooking{base.__name__}", (Overlooking, base), {})
    return made


def overlooking(knowledge: Any, chance: float) -> Any:
    """A copy of `knowledge` (a `Knowledge`) whose root overlooks the share `chance` of the legal moves (see
    the module doc); the knowledge itself, unchanged, when the share is 0."""
    if chance <= 0:
        return knowledge
    copy: Any = object.__new__(_overlooking_class(type(knowledge)))
    copy.__dict__.update(knowledge.__dict__)
    copy.sees_wins = bool(knowledge.take_wins)
    copy.take_wins = False
    copy.overlook = chance
    return copy


def misjudged(stats: Sequence[Any], noise: float, rng: random.Random) -> Any:
    """The move a level that misjudges by `noise` picks from the root's `MoveStats` (most visited first):
    the best value plus gaussian noise among the moves searched at least a third as often as the most
    visited one (the others' values mean little)."""
    top = stats[0].visits
    best, best_score = stats[0].move, float("-inf")
    for s in stats:
        if s.visits * 3 < top:
            continue
        score = s.value + rng.gauss(0.0, noise)
        if score > best_score:
            best, best_score = s.move, score
    return best


# ------------------------------------------------------------------------------------------- ratings


def nominal_rating(level: str) -> int:
    """A level's rating before any calibration: `SPACING` apart, level 2 at `NOMINAL_ANCHOR`; the old levels
    where they were meant to be (easy near level 2, medium near 5, hard near 7)."""
    index = LEVEL_IDS.index(level) if level in LEVEL_IDS else {"easy": 1, "medium": 4, "hard": 6}[level]
    return NOMINAL_ANCHOR + SPACING * (index - 1)


@cache
def calibrated() -> dict[str, dict[str, int]]:
    """The calibrated ratings each registered game's plugin ships (`Levels.calibration`): game id -> level
    id -> shown rating; a game without a calibration is not listed."""
    found = {}
    for game_id, plugin in games.PLUGINS.items():
        ratings = plugin.levels.ratings() if plugin.levels is not None else {}
        if ratings:
            found[game_id] = ratings
    return found


def level_rating(game_id: str, level: str) -> int:
    """The bot's shown rating at a level in a game: the calibrated one; for one of the eight that the
    calibration has not measured yet, `SPACING` per level from the nearest measured one; else the nominal
    one."""
    known = calibrated().get(game_id, {})
    if level in known:
        return known[level]
    if level in LEVEL_IDS:
        index = LEVEL_IDS.index(level)
        measured = [(abs(i - index), i) for i, other in enumerate(LEVEL_IDS) if other in known]
        if measured:
            _, nearest = min(measured)
            return known[LEVEL_IDS[nearest]] + SPACING * (index - nearest)
    return nominal_rating(level)


def nearest_level(game_id: str, rating: int | None) -> str:
    """The level whose rating is nearest to a player's (`NEW_PLAYER_LEVEL` without a rating; the weaker of
    two equally near)."""
    if rating is None:
        return NEW_PLAYER_LEVEL
    return min(LEVEL_IDS, key=lambda level: (abs(level_rating(game_id, level) - rating), int(level)))


def offered_level(game_id: str, level: str) -> str:
    """The one of the eight levels that `level` stands for now: itself, or for an old level (of a lobby opened
    before the eight) the level whose rating is nearest the old one's."""
    if level in LEVEL_IDS:
        return level
    return nearest_level(game_id, level_rating(game_id, level))


__all__ = [
    "ALL_LEVEL_IDS",
    "DEFAULT_LADDER",
    "LEVELS",
    "LEVEL_IDS",
    "NEW_PLAYER_LEVEL",
    "OLD_LEVEL_IDS",
    "Level",
    "LevelSettings",
    "Rung",
    "is_level",
    "ladder",
    "level_rating",
    "level_settings",
    "misjudged",
    "nearest_level",
    "nominal_rating",
    "offered_level",
    "overlooking",
]
