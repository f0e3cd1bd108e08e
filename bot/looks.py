"""How the bot's messages look to whom: what the bot posts in a channel (boards, results, expired
challenges, reminders) is in the server's language (`public_tr`: the /settings choice, else the server's
Discord locale), and each board is drawn in the theme of the user it is for (`theme_for`: theirs, else the
server's default)."""

from __future__ import annotations

import logging
from typing import Protocol

import discord

from bot.i18n import ENGLISH, Tr, guild_locale
from bot.service import Service

log = logging.getLogger("tessera.runtime")


class GuildLookup(Protocol):
    """Where a server's Discord locale is found: a Discord client's guild cache."""

    def get_guild(self, id: int, /) -> discord.Guild | None: ...


class Looks:
    """The language of public messages and the theme of boards, from the service's settings and preferences
    (and the servers' Discord locales in `guilds`, if there is a Discord client)."""

    def __init__(self, service: Service, guilds: GuildLookup | None = None) -> None:
        self.service = service
        self.guilds = guilds

    async def public_tr(self, guild_id: int | None, discord_locale: discord.Locale | None = None) -> Tr:
        """The language of public messages in a server: its /settings choice, else its Discord locale (the
        cached guild's, else `discord_locale`: an interaction's `guild_locale`), else English."""
        if guild_id is None:
            return ENGLISH
        guild = self.guilds.get_guild(guild_id) if self.guilds is not None else None
        if guild is not None:
            discord_locale = guild.preferred_locale
        try:
            chosen = (await self.service.guilds.settings(guild_id)).locale
        except Exception:
            log.exception("could not read the language of guild %s", guild_id)
            chosen = None
        return guild_locale(chosen, discord_locale)

    async def theme_for(self, user_id: int | None, guild_id: int | None) -> str:
        """The theme for a board or image shown to `user_id` here (the default theme if it cannot be read)."""
        try:
            return await self.service.prefs.theme_for(user_id, guild_id)
        except Exception:
            log.exception("could not read the theme preference of user %s", user_id)
            return "default"
