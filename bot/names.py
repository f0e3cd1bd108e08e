"""Players' display names for every surface: boards, replays, tournament threads, standings and podiums. The
bot has no member-list intent, so its user cache is empty after every restart: it keeps the names of the
users it sees in interactions, and asks Discord once for a player it has not seen. A name that could not be
had when it was needed (Discord failed) is told to the listeners once it arrives (`on_learned`), so what
showed a raw id can be shown again with the name."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Protocol

import discord

from bot.channels import SEND_ERRORS
from bot.service.records import MatchView

log = logging.getLogger("tessera.runtime")

Learned = Callable[[int, str], None]
"""A listener told each name that arrived late: (user id, display name)."""


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
        self.missed: set[int] = set()
        """Users whose name was needed and could not be had: their name arriving is news."""
        self._learned: list[Learned] = []

    def on_learned(self, listener: Learned) -> None:
        """Tell `listener` each name that arrives after it was missed (its failure is only logged)."""
        self._learned.append(listener)

    def _learn(self, user_id: int, name: str) -> None:
        self.known[user_id] = name
        if user_id in self.missed:
            self.missed.discard(user_id)
            for listener in self._learned:
                try:
                    listener(user_id, name)
                except Exception:
                    log.exception("a listener of user %s's name failed", user_id)

    def remember(self, *users: discord.abc.User | None) -> None:
        """Keep display names of users seen in interactions."""
        for user in users:
            if user is not None:
                self._learn(user.id, user.display_name)

    async def names(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The display names of `user_ids` that can be had: known, else in the client's cache, else fetched
        from Discord once. A user Discord does not answer for is left out (and marked missed)."""
        found: dict[int, str] = {}
        for user_id in dict.fromkeys(user_ids):
            name = self.known.get(user_id)
            if name is None and self.users is not None:
                user = self.users.get_user(user_id)
                if user is None:
                    try:
                        user = await self.users.fetch_user(user_id)
                    except SEND_ERRORS:
                        user = None
                if user is not None:
                    self._learn(user_id, user.display_name)
                    name = user.display_name
            if name is None:
                self.missed.add(user_id)
            else:
                found[user_id] = name
        return found

    async def names_for(self, match: MatchView) -> dict[int, str]:
        """Display names of the match's players (`names`), by user id; the bot's seats are named elsewhere."""
        return await self.names(p.user_id for p in match.seats if not p.is_ai)
