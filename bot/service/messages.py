"""Posted messages the bot edits later: the newest board of each match (its buttons go when a newer board
is posted), the message of each challenge (edited in place when it expires) and each takeback or abort
request's message with live buttons (reworded when it is answered). Kept in the database, so a
restart forgets nothing. Only ids are stored; the application does the editing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.service.errors import valid_id
from bot.service.records import BoardPosted, RequestMessage
from bot.service.records import PostedMessage as PostedMessage  # the record lives in records.py

if TYPE_CHECKING:
    from collections.abc import Callable

    from bot.service.store import MatchStore


class Messages:
    """The newest board message of each match, each challenge's message, and the open requests' messages."""

    def __init__(self, store: MatchStore, *, now: Callable[[], float]) -> None:
        self.store = store
        self.now = now

    async def board_posted(self, match_id: int, channel_id: int, message_id: int) -> BoardPosted:
        """Record a board just posted for a match; returns the board it supersedes, whose buttons should go
        (the previous one, or this one if an even newer board was recorded meanwhile; None if none), and
        the match's request messages with live buttons, read in the same transaction."""
        valid_id(match_id, "match")
        posted = PostedMessage(valid_id(channel_id, "channel"), valid_id(message_id, "message"))
        return await self.store.post_board(match_id, posted, self.now())

    async def last_board(self, match_id: int) -> PostedMessage | None:
        return await self.store.get_board_message(valid_id(match_id, "match"))

    async def challenge_posted(self, challenge_id: int, channel_id: int, message_id: int) -> None:
        """Record the message that shows a challenge (with its Accept / Decline buttons)."""
        valid_id(challenge_id, "challenge")
        posted = PostedMessage(valid_id(channel_id, "channel"), valid_id(message_id, "message"))
        await self.store.put_challenge_message(challenge_id, posted, self.now())

    async def challenge_message(self, challenge_id: int) -> PostedMessage | None:
        return await self.store.get_challenge_message(valid_id(challenge_id, "challenge"))

    async def request_posted(self, request: RequestMessage) -> None:
        """Record a takeback or abort request message with live buttons (again, with who is still to answer
        it: the message was reworded)."""
        valid_id(request.match_id, "match")
        valid_id(request.posted.channel_id, "channel")
        valid_id(request.posted.message_id, "message")
        await self.store.put_request_message(request, self.now())

    async def request_messages(self, match_id: int) -> list[RequestMessage]:
        """The match's request messages with live buttons, oldest first."""
        return await self.store.request_messages(valid_id(match_id, "match"))

    async def request_closed(self, message_id: int) -> bool:
        """A request message lost its buttons; whether it was still recorded (the first to close it)."""
        return await self.store.delete_request_message(valid_id(message_id, "message"))
