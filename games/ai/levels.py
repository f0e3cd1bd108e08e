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
in progress goes on at its old strength. The bot's rating per level and game comes from the calibration by
self-play (bench/calibrate_levels.py), kept in `level_ratings.json` next to this module; a game without a
calibration gets the nominal ladder (`nominal_rating`).
"""

from __future__ import annotations

import enum
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from games.base import Rules


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

LEVEL_IDS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8")
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


@dataclass(frozen=True, slots=True)
class Rung:
    """One level's place on a game's ladder: its iteration budget, the share of legal moves it overlooks at
    the root, and its misjudgement (the noise's standard deviation at the final choice)."""

    iterations: int
    overlook: float
    noise: float


LADDERS: Mapping[str, tuple[Rung, ...]] = {
    # Level 1 as first set, level 8 the full search for about a second of one core of the development
    # machine; the levels between re-spaced after each calibration (`python bench/calibrate_levels.py
    # respace`): placed where the calibrated curve (rating against settings) reaches evenly spaced ratings,
    # their settings interpolated there. TilingKing's last ladder came from `respace --from-games`, the
    # curve fitted to every pass's games (its strength is flat over stretches of budget, and one pass's
    # 40-game pairs could not see where). TilingKing has thousands of placements, and the best of a random
    # tenth of them is still a fair move: its beginners overlook more. Paint's level 8 plays an opening book
    # that no other level plays, worth about 230 points against our own search: its level 7 was moved up by
    # hand (1,684 to 2,500 iterations) to split that jump between the last two steps (322 points wide
    # before; 258 and 222 after, bench/baselines/levels_paint.md).
    "paintscape": (
        Rung(60, 0.85, 0.35),
        Rung(103, 0.647, 0.235),
        Rung(187, 0.426, 0.132),
        Rung(309, 0.291, 0.086),
        Rung(485, 0.206, 0.061),
        Rung(787, 0.132, 0.041),
        Rung(1379, 0.071, 0.023),
        Rung(12000, 0.0, 0.0),
    ),
    "paint": (
        Rung(30, 0.85, 0.35),
        Rung(39, 0.711, 0.262),
        Rung(67, 0.474, 0.151),
        Rung(150, 0.18, 0.054),
        Rung(250, 0.079, 0.024),
        Rung(391, 0.01, 0.003),
        Rung(2500, 0.0, 0.0),
        Rung(3200, 0.0, 0.0),
    ),
    "tilingking": (
        Rung(16, 0.97, 0.35),
        Rung(38, 0.851, 0.154),
        Rung(57, 0.731, 0.109),
        Rung(83, 0.622, 0.088),
        Rung(212, 0.343, 0.044),
        Rung(558, 0.083, 0.009),
        Rung(850, 0.009, 0.001),
        Rung(1500, 0.0, 0.0),
    ),
}
"""Per game, levels 1 to 8."""
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


def level_settings(level: str, game_id: str = "") -> LevelSettings:
    """The settings of a level in a game; ValueError for an unknown level."""
    if level in OLD_LEVEL_IDS:
        return LEVELS[Level(level)]
    if level not in LEVEL_IDS:
        raise ValueError(f"unknown level {level!r} (levels: {', '.join(ALL_LEVEL_IDS)})")
    rung = LADDERS.get(game_id, DEFAULT_LADDER)[LEVEL_IDS.index(level)]
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
    """The calibrated ratings shipped in the package: game id -> level id -> shown rating."""
    try:
        text = resources.files("games.ai").joinpath("level_ratings.json").read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    data = json.loads(text)
    return {game: {str(k): int(v) for k, v in levels.items()} for game, levels in data["ratings"].items()}


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
    "LEVELS",
    "LEVEL_IDS",
    "NEW_PLAYER_LEVEL",
    "OLD_LEVEL_IDS",
    "Level",
    "LevelSettings",
    "is_level",
    "level_rating",
    "level_settings",
    "misjudged",
    "nearest_level",
    "nominal_rating",
    "offered_level",
    "overlooking",
]
