"""Per-guild settings: the default time per turn, whether matches get their own thread, the channels
where games may start, and the language of public messages."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from bot.service.cache import GUILD_SETTINGS, Cache, key
from bot.service.errors import ChannelNotAllowed, InvalidSetting, TurnTimeoutRange, valid_id
from bot.service.options import MAX_TURN_TIMEOUT_MINUTES
from bot.service.records import GuildSettings
from bot.service.store import MatchStore

LOCALES = ("en", "fr", "de", "es", "it", "pt_BR", "pl", "ja")
"""The languages Tessera speaks (catalog names; English is the source). A guild's `locale` is one of them,
or None to follow the server's Discord language."""
FOLLOW_DISCORD = "discord"
"""The /settings value that clears the guild's language (public messages follow Discord's server locale)."""

DEFAULT_TURN_TIMEOUT = 24 * 3600.0
"""Seconds a player has for a turn unless the guild or the match says otherwise."""


class _Flow:
    """The settings one flow has read, by guild: used by the task that runs the flow only (a task it starts
    inherits the context, not the reads), and forgotten when the flow ends."""

    def __init__(self) -> None:
        self.read: dict[int, GuildSettings] = {}
        self.task = _current_task()
        self.open = True

    def here(self) -> bool:
        return self.open and self.task is _current_task()


def _current_task() -> asyncio.Task[Any] | None:
    try:
        return asyncio.current_task()
    except RuntimeError:  # no event loop running: no flow to share with
        return None


_FLOW: ContextVar[_Flow | None] = ContextVar("tessera_guild_settings_flow", default=None)


class Guilds:
    """Reads and changes guild settings; a guild that never changed them has the defaults. Reads go through
    `cache` (every board reads the server's language); without one, every read asks the store."""

    def __init__(
        self,
        store: MatchStore,
        *,
        default_turn_timeout: float = DEFAULT_TURN_TIMEOUT,
        cache: Cache | None = None,
    ) -> None:
        self.store = store
        self.default_turn_timeout = default_turn_timeout
        self.cache = cache or Cache(shared=True)

    @staticmethod
    @contextmanager
    def flow() -> Iterator[None]:
        """One user's action (an interaction, a request): inside it each guild's settings are read once and
        that read is reused (its language, its time per turn), also where the cache cannot be used. Only the
        task that opened it uses it, and nothing is kept past the block: a task it started (the bot's turn)
        reads afresh."""
        flow = _Flow()
        token = _FLOW.set(flow)
        try:
            yield
        finally:
            flow.open = False
            flow.read.clear()
            _FLOW.reset(token)

    async def settings(self, guild_id: int) -> GuildSettings:
        valid_id(guild_id, "server")
        flow = _FLOW.get()
        if flow is not None and flow.here() and guild_id in flow.read:
            return flow.read[guild_id]
        stored = await self.cache.get(
            key(GUILD_SETTINGS, guild_id), lambda: self.store.get_guild_settings(guild_id)
        )
        found = stored or GuildSettings(guild_id, self.default_turn_timeout, False, ())
        if flow is not None and flow.here():
            flow.read[guild_id] = found
        return found

    async def update(
        self,
        guild_id: int,
        *,
        turn_timeout: float | None = None,
        threads: bool | None = None,
        allowed_channels: Iterable[int] | None = None,
        locale: str | None = None,
        web_board: bool | None = None,
    ) -> GuildSettings:
        """Change some settings (None keeps one). `turn_timeout` is in seconds, one minute to 14 days;
        `locale` is one of `LOCALES`, or `FOLLOW_DISCORD` to follow the server's Discord language;
        `web_board` turns the web board (links, pages, the Activity) on or off for the server."""
        current = await self.settings(guild_id)
        if turn_timeout is not None and (
            isinstance(turn_timeout, bool)
            or not isinstance(turn_timeout, int | float)
            or not 60 <= turn_timeout <= MAX_TURN_TIMEOUT_MINUTES * 60
        ):
            raise TurnTimeoutRange()
        if threads is not None and not isinstance(threads, bool):
            raise InvalidSetting(name="threads", expected="on or off")
        if allowed_channels is not None:
            allowed_channels = list(allowed_channels)
            if not all(
                isinstance(c, int) and not isinstance(c, bool) and 0 < c < 2**63 for c in allowed_channels
            ):
                raise InvalidSetting(name="game channels", expected="channels of this server")
        if locale is not None and locale not in (*LOCALES, FOLLOW_DISCORD):
            raise InvalidSetting(name="language", expected="one of " + ", ".join(LOCALES))
        new_locale = current.locale if locale is None else (None if locale == FOLLOW_DISCORD else locale)
        new = GuildSettings(
            guild_id,
            current.turn_timeout if turn_timeout is None else float(turn_timeout),
            current.threads if threads is None else threads,
            current.allowed_channels if allowed_channels is None else tuple(sorted(set(allowed_channels))),
            new_locale,
            current.web_board if web_board is None else bool(web_board),
        )
        try:
            await self.store.put_guild_settings(new)
        finally:
            self.cache.changed(key(GUILD_SETTINGS, guild_id))
            flow = _FLOW.get()
            if flow is not None:
                flow.read.pop(guild_id, None)  # the flow reads its own write
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
