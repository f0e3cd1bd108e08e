"""Which of the bot's messages keep live buttons: every board of a match is recorded as the match's newest
(`board_sent`), and the board it supersedes loses its buttons, so only the newest board has live buttons;
an abort or takeback request keeps its buttons until it is answered or a board shows the match moved on.
Both are recorded in the database (`Messages`), so a restart forgets none of them."""

from __future__ import annotations

import logging

import discord

from bot.board_order import BoardOrder
from bot.boards import BoardMessage
from bot.channels import Channels
from bot.service import Service
from bot.service.records import AbortRequested, MatchView, PostedMessage, RequestMessage, TakebackRequested

log = logging.getLogger("tessera.runtime")


def open_ply(match: MatchView) -> int | None:
    """The ply at which a board of `match` leaves requests open: its ply while it is on, None once over."""
    return match.ply if match.is_active else None


class BoardPosts:
    """Posts boards in `channels`, records the newest board of each match in the service, tells `order` of
    every board sent, and takes the buttons off what a newer board supersedes."""

    def __init__(self, service: Service, channels: Channels, order: BoardOrder) -> None:
        self.service = service
        self.channels = channels
        self.order = order

    async def post_board(
        self, match: MatchView, message: BoardMessage, *, raise_transient: bool = False
    ) -> discord.Message | None:
        """Post a board of `match` in its channel; it becomes the match's newest board (`board_sent`).
        `raise_transient`: see `Channels.post`."""
        sent = await self.channels.post(match.channel_id, message, raise_transient=raise_transient)
        if sent is not None:
            await self.board_sent(match.id, sent, open_at=open_ply(match))
        return sent

    def board_lost(self, match_id: int, ply: int | None) -> None:
        """A board of the match at `ply` could not be sent (its reply failed): the bot's board that waits for
        it (`BoardOrder`) need not wait any longer."""
        self.order.out(match_id, ply)

    async def board_sent(self, match_id: int, sent: discord.Message, *, open_at: int | None = None) -> None:
        """A board of the match was just sent (posted, or as an interaction reply): remember it as the newest
        and take the buttons off the board it supersedes, and off the requests it closes: every request not
        asked at `open_at`, the ply of an active match's board (a /board at the same ply leaves an open
        request answerable; a move, a takeback or the end closes it). Never fails: a lost edit only leaves
        old buttons, which refuse to act anyway (stale check)."""
        self.order.out(match_id, open_at)
        try:
            posted = await self.service.messages.board_posted(match_id, sent.channel.id, sent.id)
        except Exception:
            log.exception("could not record board message %s of match %s", sent.id, match_id)
            return
        if posted.superseded is not None:
            await self.channels.remove_buttons(posted.superseded)
        for request in posted.requests:
            if open_at is None or request.ply != open_at:
                await self._close(request)

    async def open_requests(self, match_id: int) -> list[RequestMessage]:
        """The match's request messages with live buttons (none if they cannot be read: a lost edit only
        leaves old buttons, which refuse to act anyway)."""
        try:
            return await self.service.messages.request_messages(match_id)
        except Exception:
            log.exception("could not read the request messages of match %s", match_id)
            return []

    async def request_posted(
        self, request: TakebackRequested | AbortRequested, channel_id: int | None, message_id: int | None
    ) -> None:
        """A takeback or abort request was posted with buttons (or its message reworded with who is still to
        answer): they stay until it is answered (`request_closed`) or a board shows the match moved on
        (`board_sent`)."""
        if channel_id is None or message_id is None:
            return
        kind = "takeback" if isinstance(request, TakebackRequested) else "abort"
        posted = RequestMessage(
            PostedMessage(channel_id, message_id),
            request.match.id,
            kind,
            request.match.ply,
            request.by_user,
            tuple(request.waiting_for),
        )
        try:
            await self.service.messages.request_posted(posted)
        except Exception:
            log.exception("could not record request message %s of match %s", message_id, request.match.id)

    async def request_closed(self, match_id: int, message_id: int) -> None:
        """A request message lost its buttons by its own answer: nothing to take off later."""
        try:
            await self.service.messages.request_closed(message_id)
        except Exception:
            log.exception("could not forget request message %s of match %s", message_id, match_id)

    async def close_requests(
        self, match_id: int, kind: str, *, keep: int | None = None, content: str | None = None
    ) -> None:
        """Take the buttons off every message of the match that shows a request of `kind`, but `keep` (a
        message id): the request was answered, or is shown again in a newer message. With `content`, each
        such message is reworded too (how the request was closed, as its own button would have said)."""
        for request in await self.open_requests(match_id):
            if request.kind == kind and request.posted.message_id != keep:
                await self._close(request, content)

    async def _close(self, request: RequestMessage, content: str | None = None) -> None:
        """Forget `request` and take its buttons off (rewording it with `content`); only the first of two
        closings (a board and an answer at once) edits it."""
        try:
            if not await self.service.messages.request_closed(request.posted.message_id):
                return
        except Exception:
            log.exception("could not forget request message %s", request.posted.message_id)
        if content is None:
            await self.channels.remove_buttons(request.posted)
        else:
            await self.channels.edit_posted(
                request.posted, content=content, view=None, allowed_mentions=discord.AllowedMentions.none()
            )
