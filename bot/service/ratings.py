"""Ratings: openskill's Plackett-Luce model, one rating per game and player key (``user:<id>``, or
``ai:<level>`` for the bot), updated once when a rated match finishes (a flag on the match makes it
idempotent, so a crash between the end and the rating is repaired by `recover`). The bot's rating at each
level is fixed by the calibration (`bot_rating`): people's ratings move against it as against any player,
the bot's never drift.

Players read a rating on one scale, `shown_rating`, the one definition of the number shown and of its
provisional mark: the skill estimate mu on an Elo-like scale where a new player shows 1500. It is not the
conservative estimate mu - 3 sigma: that one rises for everyone as sigma shrinks, so a pool of equal players
drifted together to about 2,300 after a few hundred games. mu is shared out between players (what one gains
the others lose, give or take), so the average shown rating stays where new players start. A rating stays
provisional ("1530?") until sigma falls to `PROVISIONAL_SIGMA`, and only established ratings of people (never
the bot's) are ranked on leaderboards, as on lichess.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from bot.service.errors import UnknownGame
from bot.service.records import MatchRecord, MatchStatus, Rating, RatingChange, parse_player_key, player_key
from bot.service.store import DamagedRow, MatchStore
from games.ai.levels import LEVEL_IDS, level_rating, nearest_level
from games.base import Rules

log = logging.getLogger(__name__)

_MODEL = PlackettLuce()

NEW_MU, NEW_SIGMA = _MODEL.mu, _MODEL.sigma
"""A player's rating before their first rated game."""
START_RATING = 1500
"""What a new player shows, and what the average shown rating of a pool stays near."""
SETTLED_SIGMA = 2.5
"""The sigma of a settled player, what 50 to 150 rated games leave (it keeps falling slowly after that)."""
POINTS_PER_MU = 400.0 / (math.log(10) * math.sqrt(2 * (_MODEL.beta**2 + SETTLED_SIGMA**2)))
"""Shown points per unit of mu, about 25 with openskill's defaults, so that gaps read as in Elo: Plackett-Luce
expects a player d ahead of an opponent, both with sigma s, to win 1 / (1 + exp(-d / sqrt(2 (beta^2 + s^2))))
of games and Elo expects 1 / (1 + 10^(-D / 400)) from D points ahead; with s = `SETTLED_SIGMA` the two agree
when D = d * POINTS_PER_MU (200 points: about 76%). In simulated pools of Elo-rated players the shown gaps
are about 20% wider than the true ones after 80 games each, 5% after 200, and right after 600."""
PROVISIONAL_SIGMA = 5.0
"""A rating is provisional while its sigma is above this: about 126 points on the shown scale, of 211 for a
new player (lichess marks a rating provisional while its deviation is above 110). At the threshold one game
still moves the shown rating by about 40 points."""
ESTABLISHED_AFTER = 20
"""About how many rated games establish a rating (what players are told; tests/service/test_rating_scale.py
checks it): measured on simulated pools, about 12 against settled players, 20 in a pool of newcomers, and 25
for two newcomers who only play each other."""


@dataclass(frozen=True, slots=True)
class ShownRating:
    """A rating as players read it: the points, and whether it is still provisional ("1530?")."""

    points: int
    provisional: bool

    def __str__(self) -> str:
        return f"{self.points}?" if self.provisional else str(self.points)


CORRESPONDENCE, LIVE = "correspondence", "live"
SPEEDS: tuple[str, ...] = (CORRESPONDENCE, LIVE)
"""Ratings are kept apart per speed, as lichess keeps them: a match with a live clock rates the live pool of
its game, every other match (and every rating from before live clocks) the correspondence one."""


def rating_pool(game: str, speed: str = CORRESPONDENCE) -> str:
    """The key a game's ratings of one speed are stored under: the game's id for correspondence (so the
    ratings from before live clocks are the correspondence ones), ``<game>:live`` for live play."""
    if speed not in SPEEDS:
        raise ValueError(f"no such speed: {speed!r}")
    return game if speed == CORRESPONDENCE else f"{game}:{speed}"


def speed_of(match: MatchRecord) -> str:
    """The speed a match is rated at: live with a live clock, else correspondence."""
    return LIVE if match.time_control is not None else CORRESPONDENCE


def shown_rating(mu: float, sigma: float) -> ShownRating:
    """The rating players read, everywhere: `START_RATING` plus `POINTS_PER_MU` per unit of mu above a new
    player's, rounded half up, provisional while sigma is above `PROVISIONAL_SIGMA`. Changes are taken
    between shown ratings, so "1500 -> 1583 (+83)" always adds up; leaderboards sort by mu, which orders
    the same way."""
    points = math.floor(START_RATING + POINTS_PER_MU * (mu - NEW_MU) + 0.5)
    return ShownRating(points, sigma > PROVISIONAL_SIGMA)


def bot_rating(game: str, level: str) -> tuple[float, float]:
    """The bot's (mu, sigma) at a level in a game: its calibrated shown rating (games/ai/levels.py) on the
    mu scale, with a settled sigma. It never drifts: a rated match updates the person, not the bot."""
    return NEW_MU + (level_rating(game, level) - START_RATING) / POINTS_PER_MU, SETTLED_SIGMA


def after_match(
    before: Sequence[tuple[float, float] | None], ranks: Sequence[float]
) -> list[tuple[float, float]]:
    """The (mu, sigma) of each player after one match, from their ratings before (None: a new player) and
    their ranks (1 is first; equal ranks tie)."""
    teams = [[_MODEL.rating() if r is None else _MODEL.rating(*r)] for r in before]
    return [(team[0].mu, team[0].sigma) for team in _MODEL.rate(teams, ranks=list(ranks))]


class Ratings:
    """Applies ratings when matches end; reads leaderboards and players' ratings."""

    def __init__(
        self, store: MatchStore, *, registry: Callable[[str], Rules[Any, Any]], now: Callable[[], float]
    ) -> None:
        self.store = store
        self.registry = registry
        self.now = now

    async def rate(self, match_id: int, *, row: MatchRecord | None = None) -> list[RatingChange]:
        """Apply the ratings of a finished rated match once; later calls return the stored changes. `row` is
        the match as the write that ended it left it, if the caller has it (else it is read); the store
        applies the ratings once whatever it says."""
        if row is None:
            row = await self.store.get_match(match_id)
        if row is None or row.status is not MatchStatus.FINISHED or not row.rated or row.outcome is None:
            return []
        ranks = [float(r) for r in row.outcome.ranks]
        keys = [p.player_key for p in row.seats]
        game = row.game

        def compute(current: dict[str, tuple[float, float] | None]) -> dict[str, tuple[float, float]]:
            pinned = {key: bot_rating(game, level) for key in keys if (level := parse_player_key(key)[1])}
            before = [pinned.get(key, current[key]) for key in keys]
            after = dict(zip(keys, after_match(before, ranks), strict=True))
            return after | pinned

        pool = rating_pool(row.game, speed_of(row))
        await self.store.apply_ratings(match_id, pool, keys, compute, self.now())
        return await self.changes(match_id)

    async def changes(self, match_id: int) -> list[RatingChange]:
        """The rating changes of a finished match as players read them: people's only (the bot's rating at a
        level is pinned to its calibration, so its stored row is no change to show)."""
        return [c for c in await self.store.rating_changes(match_id) if c.ai_level is None]

    async def recover(self) -> int:
        """Rate every finished match whose rating was not applied (a crash in between); returns how many."""
        count = 0
        for match_id in await self.store.unapplied_rated_match_ids():
            try:
                rated = await self.rate(match_id)
            except DamagedRow as damaged:  # reported by check-db; never stops a start
                log.error("cannot rate a damaged match: %s", damaged)
                continue
            if rated:
                count += 1
        return count

    async def leaderboard(
        self, game: str, *, guild_id: int | None = None, limit: int = 10, speed: str = CORRESPONDENCE
    ) -> list[Rating]:
        """The best established ratings of people in a game at a speed (highest shown rating first), of
        those with a rated result in a guild or everywhere. Provisional ratings and the bot's are not
        ranked."""
        self._check(game)
        return await self.store.leaderboard(rating_pool(game, speed), guild_id, limit, PROVISIONAL_SIGMA)

    async def bot_ratings(self, game: str, *, speed: str = CORRESPONDENCE) -> list[Rating]:
        """The bot's rating in a game at each of the eight levels, easiest first (shown apart from the
        leaderboard): the calibrated ones (the same at every speed), with the rated games played at each
        level at this speed."""
        self._check(game)
        pool = rating_pool(game, speed)
        keys = [player_key(0, level) for level in LEVEL_IDS]
        found = await self.store.get_ratings(pool, keys)
        return [
            Rating(pool, key, *bot_rating(game, level), played=found[key].played if key in found else 0)
            for key, level in zip(keys, LEVEL_IDS, strict=True)
        ]

    def _check(self, game: str) -> None:
        try:
            self.registry(game)
        except KeyError:
            raise UnknownGame(game=game) from None

    async def rating(self, game: str, user_id: int, *, speed: str = CORRESPONDENCE) -> Rating | None:
        """A user's rating in a game at a speed, or None if unrated."""
        key = player_key(user_id, None)
        return (await self.store.get_ratings(rating_pool(game, speed), [key])).get(key)

    async def level_for(self, game: str, user_id: int, *, speed: str = CORRESPONDENCE) -> str:
        """The bot's level nearest to a user's shown rating in a game at a speed (`NEW_PLAYER_LEVEL`, level
        2, for a user without a rated game in it): what /play against the bot picks when no level is
        given."""
        rating = await self.rating(game, user_id, speed=speed)
        if rating is None or rating.played == 0:
            return nearest_level(game, None)
        return nearest_level(game, shown_rating(rating.mu, rating.sigma).points)
