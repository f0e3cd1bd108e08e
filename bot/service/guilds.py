"""Per-guild settings: the default time per turn, whether matches get their own thread, and the channels
where games may start."""

from __future__ import annotations

from collections.abc import Iterable

from bot.service.errors import ChannelNotAllowed, TurnTimeoutRange
from bot.service.options import MAX_TURN_TIMEOUT_MINUTES
from bot.service.records import GuildSettings
from bot.service.store import MatchStore

DEFAULT_TURN_TIMEOUT = 24 * 3600.0
"""Seconds a player has for a turn unless the guild or the match says otherwise."""


class Guilds:
    """Reads and changes guild settings; a guild that never changed them has the defaults."""

    def __init__(self, store: MatchStore, *, default_turn_timeout: float = DEFAULT_TURN_TIMEOUT) -> None:
        self.store = store
        self.default_turn_timeout = default_turn_timeout

    async def settings(self, guild_id: int) -> GuildSettings:
        stored = await self.store.get_guild_settings(guild_id)
        return stored or GuildSettings(guild_id, self.default_turn_timeout, False, ())

    async def update(
        self,
        guild_id: int,
        *,
        turn_timeout: float | None = None,
        threads: bool | None = None,
        allowed_channels: Iterable[int] | None = None,
    ) -> GuildSettings:
        """Change some settings (None keeps one). `turn_timeout` is in seconds, one minute to 14 days."""
        current = await self.settings(guild_id)
        if turn_timeout is not None and not 60 <= turn_timeout <= MAX_TURN_TIMEOUT_MINUTES * 60:
            raise TurnTimeoutRange()
        new = GuildSettings(
            guild_id,
            current.turn_timeout if turn_timeout is None else float(turn_timeout),
            current.threads if threads is None else threads,
            current.allowed_channels if allowed_channels is None else tuple(sorted(set(allowed_channels))),
        )
        await self.store.put_guild_settings(new)
        return new

    async def check_allowed(self, guild_id: int | None, channel_id: int) -> None:
        """Raise ChannelNotAllowed if the guild limits games to other channels."""
        if guild_id is None:
            return
        allowed = (await self.settings(guild_id)).allowed_channels
        if allowed and channel_id not in allowed:
            raise ChannelNotAllowed()

    async def turn_timeout(self, guild_id: int | None, minutes: int) -> float:
        """Seconds per turn: the match's own `minutes` when set, else the guild's setting."""
        if minutes > 0:
            return minutes * 60.0
        if guild_id is None:
            return self.default_turn_timeout
        return (await self.settings(guild_id)).turn_timeout
