"""Which of the bot's messages keep live buttons: every board of a match is recorded as the match's newest
(`board_sent`), and the board it supersedes loses its buttons, so only the newest board has live buttons;
an abort or takeback request keeps its buttons until it is answered or a board shows the match moved on,
and then says what became of it (answered, lapsed as the match moved on or ended, or shown again below).
Both are recorded in the database (`Messages`), so a restart forgets none of them."""

from __future__ import annotations

import logging

import discord

from bot.board_order import BoardOrder
from bot.boards import BoardMessage
from bot.channels import Channels
from bot.i18n import ENGLISH, Tr
from bot.looks import Looks
from bot.service import Service
from bot.service.records import AbortRequested, MatchView, PostedMessage, RequestMessage, TakebackRequested
from games.texts import N_

log = logging.getLogger("tessera.runtime")


CLOSED_WORDS = {
    ("takeback", "moved_on"): N_(
        "{player} asked to take back their last move in match #{match_id}; the match moved on, so the "
        "request lapsed."
    ),
    ("takeback", "over"): N_(
        "{player} asked to take back their last move in match #{match_id}; the match is over, so the request "
        "lapsed."
    ),
    ("takeback", "again"): N_(
        "{player} asked to take back their last move in match #{match_id}; the request is shown again below."
    ),
    ("abort", "moved_on"): N_(
        "{player} wanted to abort match #{match_id}; the match moved on, so the request lapsed."
    ),
    ("abort", "over"): N_(
        "{player} wanted to abort match #{match_id}; the match is over, so the request lapsed."
    ),
    ("abort", "again"): N_("{player} wanted to abort match #{match_id}; the request is shown again below."),
}
"""What a request message says once its buttons go without an answer: the match moved on, it ended, or the
request is shown again in a newer message (by kind, then why)."""


def open_ply(match: MatchView) -> int | None:
    """The ply at which a board of `match` leaves requests open: its ply while it is on, None once over."""
    return match.ply if match.is_active else None


class BoardPosts:
    """Posts boards in `channels`, records the newest board of each match in the service, tells `order` of
    every board sent, and takes the buttons off what a newer board supersedes."""

    def __init__(
        self, service: Service, channels: Channels, order: BoardOrder, looks: Looks | None = None
    ) -> None:
        self.service = service
        self.channels = channels
        self.order = order
        self.looks = looks
        """The server's language of a request message reworded on closing (None: English)."""

    async def _public(self, guild_id: int | None) -> Tr:
        return await self.looks.public_tr(guild_id) if self.looks is not None else ENGLISH

    @staticmethod
    def closed_text(request: RequestMessage, why: str, tr: Tr) -> str:
        """What `request`'s message says once it closed without an answer (`CLOSED_WORDS`)."""
        template = CLOSED_WORDS[(request.kind if request.kind == "abort" else "takeback", why)]
        return tr(template, player=f"<@{request.by_user}>", match_id=request.match_id)

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
        closing = [r for r in posted.requests if open_at is None or r.ply != open_at]
        if closing:  # each says what became of it: the match moved on, or it is over
            tr = await self._public(await self._guild_of(match_id))  # a reply's message may not know it
            why = "over" if open_at is None else "moved_on"
            for request in closing:
                await self._close(request, self.closed_text(request, why, tr))

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
        message id), and reword it: with `content`, how the request was answered (as its own button would
        have said); without, that it is shown again in a newer message (`keep`)."""
        closing = [
            r for r in await self.open_requests(match_id) if r.kind == kind and r.posted.message_id != keep
        ]
        if not closing:
            return
        tr = ENGLISH if content is not None else await self._public(await self._guild_of(match_id))
        for request in closing:
            await self._close(request, content or self.closed_text(request, "again", tr))

    async def _guild_of(self, match_id: int) -> int | None:
        try:
            return (await self.service.matches.get(match_id)).guild_id
        except Exception:
            log.exception("could not read the server of match %s", match_id)
            return None

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
        else:  # what became of it, without its buttons: never "Waiting for ..." any more
            await self.channels.edit_posted(
                request.posted, content=content, view=None, allowed_mentions=discord.AllowedMentions.none()
            )
