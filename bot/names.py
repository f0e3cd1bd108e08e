"""Players' display names for boards and replays. The bot has no member-list intent, so it keeps the names of
the users it sees in interactions, and asks Discord once for a player it has not seen."""

from __future__ import annotations

from typing import Protocol

import discord

from bot.channels import SEND_ERRORS
from bot.service.records import MatchView


class UserLookup(Protocol):
    """Where unseen users are looked up: a Discord client's cache, then Discord."""

    def get_user(self, id: int, /) -> discord.User | None: ...

    async def fetch_user(self, user_id: int, /) -> discord.User: ...


class PlayerNames:
    """Display names by user id: those seen in interactions, and those looked up in `users` (None: only the
    names it was told, for a caller without a Discord client)."""

    def __init__(self, users: UserLookup | None = None) -> None:
        self.users = users
        self.known: dict[int, str] = {}

    def remember(self, *users: discord.abc.User | None) -> None:
        """Keep display names of users seen in interactions."""
        for user in users:
            if user is not None:
                self.known[user.id] = user.display_name

    async def names_for(self, match: MatchView) -> dict[int, str]:
        """Display names of the match's players, fetched once if the bot has not seen them."""
        for player in match.seats:
            if player.is_ai or player.user_id in self.known or self.users is None:
                continue
            user = self.users.get_user(player.user_id)
            if user is None:
                try:
                    user = await self.users.fetch_user(player.user_id)
                except SEND_ERRORS:
                    continue
            self.known[player.user_id] = user.display_name
        return self.known
