"""The Discord application's hold on the service: it opens the service in `setup_hook`, starts its
background work, and turns the service's events (a timeout, an expired challenge, the bot's own move) into
posted messages. It also remembers display names for the boards (the bot has no member-list intent).

Time: the service reads the clock through `discord.utils.utcnow()`, so a test's virtual clock (SimCord)
moves turn deadlines too.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import discord

from bot.boards import BoardMessage, board_message, move_lines
from bot.service import Service
from bot.service.ai import AIRunner
from bot.service.records import BotPlayed, ChallengeExpired, Event, Finished, MatchView, Played, TimedOut

if TYPE_CHECKING:
    from bot.client import TesseraBot

log = logging.getLogger("tessera.runtime")


def utc_seconds() -> float:
    """Seconds since the epoch, from discord.py's clock (which a test harness may drive)."""
    return discord.utils.utcnow().timestamp()


class Runtime:
    """The service and the AI runner of one bot process, and what it posts on its own."""

    def __init__(self, bot: TesseraBot, service: Service, ai: AIRunner, *, owns_ai: bool) -> None:
        self.bot = bot
        self.service = service
        self.ai = ai
        self._owns_ai = owns_ai
        self.names: dict[int, str] = {}
        self._closed = False

    @classmethod
    async def open(
        cls, bot: TesseraBot, *, ai_runner: AIRunner | None = None, now: Callable[[], float] | None = None
    ) -> Runtime:
        service = await Service.open(bot.settings.database_url, now=now or utc_seconds)
        return cls(bot, service, ai_runner or AIRunner(), owns_ai=ai_runner is None)

    async def start(self) -> None:
        """Start the turn clock and resume every match where the bot is to move."""
        await self.service.start(self.on_event, ai=self.ai, on_thinking=self._typing)

    async def close(self) -> None:
        """Stop thinking, stop the clock, close the store (every write is a finished transaction)."""
        if self._closed:
            return
        self._closed = True
        await self.service.close()
        if self._owns_ai:
            await self.ai.aclose()

    def after_change(self, match: MatchView) -> None:
        """Call after anything that changed a match: if the bot is now to move, it starts thinking."""
        self.service.after_change(match)

    # ------------------------------------------------------------------------------------------- names

    def remember(self, *users: discord.abc.User | None) -> None:
        """Keep display names of users seen in interactions."""
        for user in users:
            if user is not None:
                self.names[user.id] = user.display_name

    async def names_for(self, match: MatchView) -> dict[int, str]:
        """Display names of the match's players, fetched once if the bot has not seen them."""
        for player in match.seats:
            if player.is_ai or player.user_id in self.names:
                continue
            user = self.bot.get_user(player.user_id)
            if user is None:
                try:
                    user = await self.bot.fetch_user(player.user_id)
                except discord.HTTPException:
                    continue
            self.names[player.user_id] = user.display_name
        return self.names

    # ------------------------------------------------------------------------------------------- boards

    async def board(
        self,
        match: MatchView,
        *,
        headline: str = "",
        lines: Sequence[str] = (),
        last_move: str | None = None,
        finished: Finished | None = None,
    ) -> BoardMessage:
        rules = self.service.rules(match.game)
        names = await self.names_for(match)
        return await board_message(
            match, rules, names, headline=headline, lines=lines, last_move=last_move, finished=finished
        )

    async def played_board(self, played: Played, *, headline: str = "") -> BoardMessage:
        """The board after a move: the move and any automatic passes in words, then whose turn or the end."""
        return await self.board(
            played.match,
            headline=headline,
            lines=move_lines(played.moves),
            last_move=played.moves[-1].notation,
            finished=played.finished,
        )

    def channel(self, channel_id: int) -> discord.abc.Messageable:
        found = self.bot.get_channel(channel_id)
        if isinstance(found, discord.abc.Messageable):
            return found
        return self.bot.get_partial_messageable(channel_id)

    async def post(self, channel_id: int, message: BoardMessage) -> discord.Message | None:
        """Send a board message to a channel (a new message, so the mention pings)."""
        try:
            return await self.channel(channel_id).send(**message.send_kwargs())
        except discord.HTTPException:
            log.exception("could not post to channel %s", channel_id)
            return None

    async def _typing(self, match: MatchView) -> None:
        with contextlib.suppress(discord.HTTPException):
            await self.channel(match.channel_id).typing()

    # ---------------------------------------------------------------------------------------- events

    async def on_event(self, event: Event) -> None:
        """Background work happened: post the bot's move, a timeout's result, or an expired challenge."""
        if isinstance(event, BotPlayed):
            await self.post(event.played.match.channel_id, await self.played_board(event.played))
        elif isinstance(event, TimedOut):
            if event.finished is not None:  # the result lines say who ran out of time
                message = await self.board(event.finished.match, finished=event.finished)
                await self.post(event.finished.match.channel_id, message)
            elif event.played is not None:  # the rules moved for them; the move lines say how
                headline = f"<@{event.user_id}> ran out of time."
                await self.post(
                    event.played.match.channel_id, await self.played_board(event.played, headline=headline)
                )
                self.after_change(event.played.match)
        elif isinstance(event, ChallengeExpired):
            challenge = event.challenge
            await self.channel(challenge.channel_id).send(
                f"The challenge from <@{challenge.challenger_id}> to <@{challenge.opponent_id}> "
                f"(#{challenge.id}) expired. Send a new one with /play.",
                allowed_mentions=discord.AllowedMentions.none(),
            )
