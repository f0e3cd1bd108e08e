"""Preferences: each user's board theme and turn reminders, and each server's default theme.

A user's theme is used for every board they ask for (/board, /pieces, replays) and for the public board
posted after their move; a user who chose none follows the server's default, and a server that chose none
uses the renderer's "default" theme. Reminders are off unless the user asks for them (`ReminderMode`);
`bot.service.reminders` sends them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from bot.service.cache import GUILD_THEME, USER_PREFS, Cache, key
from bot.service.errors import ServiceError, valid_id

# The records live with the others (records.py); imported from here too, as before.
from bot.service.records import THEMES as THEMES
from bot.service.records import ReminderMode as ReminderMode
from bot.service.records import UserPrefs as UserPrefs
from games.texts import N_

if TYPE_CHECKING:
    from bot.service.store import MatchStore

DEFAULT_THEME = "default"
FOLLOW_SERVER = "server"
"""What a user picks to drop their own theme and follow the server's default again."""


class UnknownTheme(ServiceError):
    template = N_("There is no theme {theme!r}. Choose default or colorblind.")


class UnknownReminderMode(ServiceError):
    template = N_("Reminders can be off, dm or mention, not {mode!r}.")


class Prefs:
    """Reads and changes preferences; a user or server that never chose has the defaults. Reads go through
    `cache` (every board reads a theme); without one, every read asks the store."""

    def __init__(
        self,
        store: MatchStore,
        *,
        now: Callable[[], float],
        on_change: Callable[[], None] | None = None,
        cache: Cache | None = None,
    ) -> None:
        self.store = store
        self.now = now
        self._on_change = on_change
        self.cache = cache or Cache(shared=True)

    async def of_user(self, user_id: int) -> UserPrefs:
        valid_id(user_id, "user")
        stored = await self.cache.get(key(USER_PREFS, user_id), lambda: self.store.get_user_prefs(user_id))
        return stored or UserPrefs(user_id)

    async def set_user(
        self, user_id: int, *, theme: str | None = None, reminders: str | None = None
    ) -> UserPrefs:
        """Change a user's preferences (None keeps one). `theme` is a theme name, or FOLLOW_SERVER."""
        current = await self.of_user(user_id)
        if theme is not None:
            if theme != FOLLOW_SERVER and theme not in THEMES:
                raise UnknownTheme(theme=theme)
            current = replace(current, theme=None if theme == FOLLOW_SERVER else theme)
        if reminders is not None:
            try:
                current = replace(current, reminders=ReminderMode(reminders))
            except ValueError:
                raise UnknownReminderMode(mode=reminders) from None
        try:
            await self.store.put_user_prefs(current, self.now())
        finally:
            self.cache.changed(key(USER_PREFS, user_id))
        if reminders is not None and self._on_change is not None:
            self._on_change()  # a reminder may be due at once: the clock looks again
        return current

    async def guild_theme(self, guild_id: int) -> str | None:
        """The server's default theme, None if it chose none."""
        valid_id(guild_id, "server")
        return await self.cache.get(key(GUILD_THEME, guild_id), lambda: self.store.get_guild_theme(guild_id))

    async def set_guild_theme(self, guild_id: int, theme: str) -> str:
        """Set the server's default theme (a theme name)."""
        valid_id(guild_id, "server")
        if theme not in THEMES:
            raise UnknownTheme(theme=theme)
        try:
            await self.store.set_guild_theme(guild_id, theme, self.now())
        finally:
            self.cache.changed(key(GUILD_THEME, guild_id))
        return theme

    async def theme_for(self, user_id: int | None, guild_id: int | None) -> str:
        """The theme of a board shown to (or caused by) `user_id` in `guild_id`: the user's own choice, else
        the server's default, else DEFAULT_THEME. None for either means nobody in particular."""
        if user_id is not None:
            own = (await self.of_user(user_id)).theme
            if own is not None:
                return own
        if guild_id is not None:
            server = await self.guild_theme(guild_id)
            if server is not None:
                return server
        return DEFAULT_THEME
