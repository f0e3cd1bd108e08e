"""The one way from a game, its options and its players to a started match, shared by challenges, matches
against the bot and lobbies (challenges.py, lobbies.py): options resolved and checked completely up front
(`Starts.options`), then at the start the seats (`options.seated`), the time per turn (the host's, else the
server's), rated or not, a seed, and `MatchService.start`, which stores the match and closes the challenge or
lobby in the same transaction. What each caller makes of a conflict (a challenge no longer pending, a lobby
whose members changed) stays with it."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.service.guilds import Guilds
from bot.service.matches import MatchService
from bot.service.options import MatchOptions, resolve, seated
from bot.service.records import MatchView
from games.base import Rules

PlayerSpec = tuple[int, str | None]
"""A player to seat: a user id, and the bot's level for the bot's seat (None for a person)."""


def check_start(rules: Rules[Any, Any], seats: range | int, options: MatchOptions) -> None:
    """Build the start position for every seat count the match may have: raises InvalidOptions (or the
    engine's ValueError) for options that only the engine can judge, such as a layout or a board size."""
    for count in [seats] if isinstance(seats, int) else seats:
        rules.new(count, options.engine, 0)


class Starts:
    """Starts matches for challenges, the bot's matches and lobbies (see the module doc)."""

    def __init__(self, matches: MatchService, guilds: Guilds, *, rng: random.Random) -> None:
        self.matches = matches
        self.guilds = guilds
        self.rng = rng

    def options(
        self, rules: Rules[Any, Any], given: Mapping[str, Any], *, seats: range | int, lobby: bool = False
    ) -> MatchOptions:
        """The resolved options of a match of `rules` for `seats` players (a count, or every count a lobby
        may start with), checked completely now (InvalidOptions), so a bad layout or size is the host's
        error, never the opponent's at Accept."""
        options = resolve(rules, given, lobby=lobby)
        check_start(rules, seats, options)
        return options

    async def start(
        self,
        game: str,
        options: MatchOptions,
        players: Sequence[PlayerSpec],
        *,
        order: str | None,
        guild_id: int | None,
        channel_id: int,
        challenge_id: int | None = None,
        lobby_id: int | None = None,
        side: bool = False,
    ) -> MatchView:
        """Seat `players` (in the order they came: the challenger first, a lobby's members as they joined)
        by `order` (`options.seated`) and start the match; closes the challenge or lobby it came from.
        `side`: started from the channel's Activity, a side table if the channel has its main match."""
        host = options.host
        return await self.matches.start(
            game,
            dict(options.engine),
            seated(players, order, self.rng),
            seed=self.rng.randrange(2**31),
            rated=host.rated,
            turn_timeout=await self.guilds.turn_timeout(guild_id, host.turn_timeout),
            guild_id=guild_id,
            channel_id=channel_id,
            challenge_id=challenge_id,
            lobby_id=lobby_id,
            side=side,
            time_control=host.time_control,
        )
