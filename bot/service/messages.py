"""Posted messages the bot edits later: the newest board of each match (its buttons go when a newer board
is posted) and the message of each challenge (edited in place when it expires). Kept in the database, so a
restart forgets nothing. Only ids are stored; the application does the editing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.service.errors import valid_id
from bot.service.records import PostedMessage as PostedMessage  # the record lives in records.py

if TYPE_CHECKING:
    from collections.abc import Callable

    from bot.service.store import MatchStore


class Messages:
    """The newest board message of each match, and each challenge's message."""

    def __init__(self, store: MatchStore, *, now: Callable[[], float]) -> None:
        self.store = store
        self.now = now

    async def board_posted(self, match_id: int, channel_id: int, message_id: int) -> PostedMessage | None:
        """Record a board just posted for a match; returns the board it supersedes, whose buttons should go
        (the previous one, or this one if an even newer board was recorded meanwhile), None if none."""
        valid_id(match_id, "match")
        posted = PostedMessage(valid_id(channel_id, "channel"), valid_id(message_id, "message"))
        return await self.store.swap_board_message(match_id, posted, self.now())

    async def last_board(self, match_id: int) -> PostedMessage | None:
        return await self.store.get_board_message(valid_id(match_id, "match"))

    async def challenge_posted(self, challenge_id: int, channel_id: int, message_id: int) -> None:
        """Record the message that shows a challenge (with its Accept / Decline buttons)."""
        valid_id(challenge_id, "challenge")
        posted = PostedMessage(valid_id(channel_id, "channel"), valid_id(message_id, "message"))
        await self.store.put_challenge_message(challenge_id, posted, self.now())

    async def challenge_message(self, challenge_id: int) -> PostedMessage | None:
        return await self.store.get_challenge_message(valid_id(challenge_id, "challenge"))
