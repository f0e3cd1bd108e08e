"""Ratings: openskill's Plackett-Luce model, one rating per game and player key (``user:<id>``, or
``ai:<level>`` for the bot), updated once when a rated match finishes (a flag on the match makes it
idempotent, so a crash between the end and the rating is repaired by `recover`).

Players read a rating on one scale, `shown_rating`: openskill's ordinal (the conservative estimate
mu - 3 sigma) mapped to an Elo-like number, so a new player shows 1500, and marked provisional
(`is_provisional`) while it is still uncertain. Every text that shows a rating uses these two functions.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from typing import Any

from openskill.models import PlackettLuce

from bot.service.errors import UnknownGame
from bot.service.records import MatchStatus, Rating, RatingChange, player_key
from bot.service.store import DamagedRow, MatchStore
from games.base import Rules

log = logging.getLogger(__name__)

_DISPLAY_MODEL = PlackettLuce()

NEW_MU, NEW_SIGMA = _DISPLAY_MODEL.mu, _DISPLAY_MODEL.sigma
"""A player's rating before their first rated game."""
DISPLAY_TARGET = 1500.0
"""What a new player shows: openskill's default rating has mu - 3 sigma = 0, which maps to this."""
DISPLAY_ALPHA = 200.0 / _DISPLAY_MODEL.beta
"""Points per unit of skill: one beta (the model's skill-class width: a player one beta stronger wins about
76% of games) is 200 points, as 200 Elo points are a 76% expected score. 48 with openskill's defaults."""
PROVISIONAL_SIGMA = 6.0
"""A rating is provisional while its sigma is above this (a new rating starts at 25/3 = 8.33). Measured on
simulated two-player pools, sigma falls below 6 after about a dozen rated games; until then a single game
still moves the shown rating by 70 to 130 points, so the number is not yet worth comparing."""


def shown_rating(mu: float, sigma: float) -> int:
    """The rating players read: openskill's ordinal with `DISPLAY_ALPHA` and `DISPLAY_TARGET` (a new player
    shows 1500), rounded half up. Differences are taken between shown ratings, so "1500 -> 1665 (+165)"
    always adds up."""
    ordinal = _DISPLAY_MODEL.rating(mu=mu, sigma=sigma).ordinal(3.0, DISPLAY_ALPHA, DISPLAY_TARGET)
    return math.floor(ordinal + 0.5)


def is_provisional(sigma: float) -> bool:
    """Whether a rating is still too uncertain to compare (see `PROVISIONAL_SIGMA`)."""
    return sigma > PROVISIONAL_SIGMA


class Ratings:
    """Applies ratings when matches end; reads leaderboards and players' ratings."""

    def __init__(
        self, store: MatchStore, *, registry: Callable[[str], Rules[Any, Any]], now: Callable[[], float]
    ) -> None:
        self.store = store
        self.registry = registry
        self.now = now
        self._model = PlackettLuce()

    async def rate(self, match_id: int) -> list[RatingChange]:
        """Apply the ratings of a finished rated match once; later calls return the stored changes."""
        row = await self.store.get_match(match_id)
        if row is None or row.status is not MatchStatus.FINISHED or not row.rated or row.outcome is None:
            return []
        ranks = [float(r) for r in row.outcome.ranks]
        keys = [p.player_key for p in row.seats]
        model = self._model

        def compute(current: dict[str, tuple[float, float] | None]) -> dict[str, tuple[float, float]]:
            teams = []
            for key in keys:
                before = current[key]
                teams.append([model.rating(name=key) if before is None else model.rating(*before, name=key)])
            rated = model.rate(teams, ranks=ranks)
            return {key: (team[0].mu, team[0].sigma) for key, team in zip(keys, rated, strict=True)}

        await self.store.apply_ratings(match_id, row.game, keys, compute, self.now())
        return await self.store.rating_changes(match_id)

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

    async def leaderboard(self, game: str, *, guild_id: int | None = None, limit: int = 10) -> list[Rating]:
        """The best rated players of a game (with a finished rated match), in a guild or everywhere."""
        try:
            self.registry(game)
        except KeyError:
            raise UnknownGame(game=game) from None
        return await self.store.leaderboard(game, guild_id, limit)

    async def rating(self, game: str, user_id: int) -> Rating | None:
        """A user's rating in a game, or None if unrated."""
        key = player_key(user_id, None)
        return (await self.store.get_ratings(game, [key])).get(key)
