"""The Discord application's hold on the service: it opens the service in `setup_hook`, starts its
background work, and turns the service's events (a timeout, an expired challenge, the bot's own move) into
posted messages. It also remembers display names for the boards (the bot has no member-list intent).

Boards: every board of a match is recorded as the match's newest (`board_sent`), and the board it
supersedes loses its buttons, so only the newest board has live buttons. Each board is drawn in the theme
of the user it is for (`Prefs.theme_for`: theirs, else the server's default). An expired challenge is
edited in place. Turn reminders (opt-in) are sent as a direct message or a mention.

Language: what the bot posts in a channel (boards, results, expired challenges, reminders) is in the
server's language (`public_tr`: the /settings choice, else the server's Discord locale).

Time: the service reads the clock through `discord.utils.utcnow()`, so a test's virtual clock (SimCord)
moves turn deadlines too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.boards import BoardMessage, board_message, move_lines
from bot.drawing import Drawing
from bot.health import count_errors, match_finished, match_started
from bot.i18n import COMMAND_IDS, ENGLISH, Tr, guild_locale
from bot.service import Service
from bot.service.ai import AIRunner
from bot.service.analysis import Analyses
from bot.service.messages import PostedMessage
from bot.service.prefs import ReminderMode
from bot.service.records import BotPlayed, ChallengeExpired, Finished, MatchView, Played, TimedOut
from bot.service.reminders import TurnReminder
from bot.settings import Settings

if TYPE_CHECKING:
    from bot.client import TesseraBot

log = logging.getLogger("tessera.runtime")

NETWORK_ERRORS: tuple[type[Exception], ...] = (aiohttp.ClientError, OSError, asyncio.TimeoutError)
"""What a Discord call raises when the network fails (DNS, refused, reset, timed out), besides the
`discord.HTTPException`s of an answer that came back."""

SEND_ERRORS: tuple[type[Exception], ...] = (discord.HTTPException, *NETWORK_ERRORS)
"""Every way a Discord call can fail; cosmetic calls (typing, edits of old messages) swallow all of them."""

BOARD_ORDER_WAIT = 10.0
"""Seconds the bot's board waits at most for the board of the change that gave it its turn (a person's
move, posted by the command that made it), so the channel shows them in order; a reply that failed holds
the bot's board no longer than this."""

BOARD_ORDER_POLL = 0.05
"""Seconds between two looks whether that board is out (a plain sleep, which SimCord's clock runs)."""


@dataclass(frozen=True, slots=True)
class OpenRequest:
    """A posted abort or takeback request with live buttons: its message, its kind, its ply."""

    message: PostedMessage
    kind: str
    ply: int


def open_ply(match: MatchView) -> int | None:
    """The ply at which a board of `match` leaves requests open: its ply while it is on, None once over."""
    return match.ply if match.is_active else None


def utc_seconds() -> float:
    """Seconds since the epoch, from discord.py's clock (which a test harness may drive)."""
    return discord.utils.utcnow().timestamp()


async def open_service(settings: Settings, *, now: Callable[[], float] | None = None) -> Service:
    """Open the service the settings name, for the shards this process owns; raises StoreUnavailable (or
    BadDatabaseUrl for a URL no store handles) when the database cannot be used."""
    return await Service.open(settings.database_url, now=now or utc_seconds, shards=settings.shards)


class Runtime:
    """The service and the AI runner of one bot process, and what it posts on its own."""

    def __init__(
        self,
        bot: TesseraBot,
        service: Service,
        ai: AIRunner,
        *,
        owns_ai: bool,
        drawing: Drawing | None = None,
    ) -> None:
        self.bot = bot
        self.service = service
        self.ai = ai
        self._owns_ai = owns_ai
        self.drawing = drawing or Drawing()
        self.analyses = Analyses(service.matches, ai)
        service.matches.add_match_listener(started=match_started, finished=match_finished)
        service.matches.add_match_listener(changed=self._board_owed)
        service.events.subscribe(BotPlayed, self.on_bot_played)
        service.events.subscribe(TimedOut, self.on_timed_out)
        service.events.subscribe(ChallengeExpired, self.challenge_expired)
        count_errors()
        self.names: dict[int, str] = {}
        self.open_requests: dict[int, dict[int, OpenRequest]] = {}
        """Per match, the abort and takeback request messages with live buttons, by message id. Kept in memory
        (the process that serves a guild posts its boards): after a restart old request buttons stay, and
        act while their request is open (a button carries its ply)."""
        self.owed: dict[int, set[int]] = {}
        """Per match, the plies of committed changes that gave the bot its turn and whose board is not out
        yet: the bot's board of a move from such a ply waits for it (`BOARD_ORDER_WAIT`)."""
        self._closed = False

    @classmethod
    async def open(
        cls,
        bot: TesseraBot,
        *,
        service: Service | None = None,
        ai_runner: AIRunner | None = None,
        now: Callable[[], float] | None = None,
        drawing: Drawing | None = None,
    ) -> Runtime:
        """The runtime of `bot`, over `service` (opened already, as `python -m bot` does before it logs in)
        or over a service opened now from the bot's settings."""
        if service is None:
            service = await open_service(bot.settings, now=now)
        return cls(bot, service, ai_runner or AIRunner(), owns_ai=ai_runner is None, drawing=drawing)

    async def start(self) -> None:
        """Start the board processes, the turn clock, and resume every match where the bot is to move."""
        self.drawing.start()
        await self.service.start(ai=self.ai, on_thinking=self._typing, on_reminder=self.send_reminder)

    async def close(self) -> None:
        """Stop thinking, stop the clock, close the store (every write is a finished transaction)."""
        if self._closed:
            return
        self._closed = True
        COMMAND_IDS.forget()  # the commands' ids are learnt again at the next start
        await self.service.close()
        await self.drawing.close()
        if self._owns_ai:
            await self.ai.aclose()

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
                except SEND_ERRORS:
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
        viewer: int | None = None,
        tr: Tr | None = None,
    ) -> BoardMessage:
        """The board message of `match`, drawn in the theme of `viewer` (the user who asked for it or whose
        move it shows; None: the server's default), in the server's language unless `tr` says otherwise."""
        rules = self.service.rules(match.game)
        names = await self.names_for(match)
        theme = await self.theme_for(viewer, match.guild_id)
        if tr is None:
            tr = await self.public_tr(match.guild_id)
        return await board_message(
            self.drawing,
            match,
            rules,
            names,
            headline=headline,
            lines=lines,
            last_move=last_move,
            finished=finished,
            theme=theme,
            tr=tr,
        )

    async def public_tr(self, guild_id: int | None, discord_locale: discord.Locale | None = None) -> Tr:
        """The language of public messages in a server: its /settings choice, else its Discord locale (the
        cached guild's, else `discord_locale`: an interaction's `guild_locale`), else English."""
        if guild_id is None:
            return ENGLISH
        guild = self.bot.get_guild(guild_id)
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

    async def played_board(
        self, played: Played, *, headline: str = "", viewer: int | None = None
    ) -> BoardMessage:
        """The board after a move: the move and any automatic passes in words, then whose turn or the end;
        in the mover's theme (`viewer`), or the server's for the bot's moves and timeouts; in the server's
        language."""
        tr = await self.public_tr(played.match.guild_id)
        return await self.board(
            played.match,
            headline=headline,
            lines=move_lines(played.moves, tr),
            tr=tr,
            last_move=played.moves[-1].notation,
            finished=played.finished,
            viewer=viewer,
        )

    def channel(self, channel_id: int) -> discord.abc.Messageable:
        found = self.bot.get_channel(channel_id)
        if isinstance(found, discord.abc.Messageable):
            return found
        return self.bot.get_partial_messageable(channel_id)

    async def post(
        self, channel_id: int, message: BoardMessage, *, raise_transient: bool = False
    ) -> discord.Message | None:
        """Send a board message to a channel (a new message, so the mention pings); None (logged) if it
        could not be sent. With `raise_transient`, a failure that may pass (a network error, a Discord
        server error) is raised instead, for the caller to try again; a refusal (no access, no channel)
        is still None."""
        try:
            return await self.channel(channel_id).send(**message.send_kwargs())
        except (discord.Forbidden, discord.NotFound):
            log.exception("could not post to channel %s", channel_id, extra={"kind": "post"})
            return None
        except SEND_ERRORS:
            if raise_transient:
                raise
            log.exception("could not post to channel %s", channel_id, extra={"kind": "post"})
            return None

    async def post_board(
        self, match: MatchView, message: BoardMessage, *, raise_transient: bool = False
    ) -> discord.Message | None:
        """Post a board of `match` in its channel; it becomes the match's newest board (`board_sent`).
        `raise_transient`: see `post`."""
        sent = await self.post(match.channel_id, message, raise_transient=raise_transient)
        if sent is not None:
            await self.board_sent(match.id, sent, open_at=open_ply(match))
        return sent

    async def board_sent(self, match_id: int, sent: discord.Message, *, open_at: int | None = None) -> None:
        """A board of the match was just sent (posted, or as an interaction reply): remember it as the newest
        and take the buttons off the board it supersedes, and off the requests it closes: every request not
        asked at `open_at`, the ply of an active match's board (a /board at the same ply leaves an open
        request answerable; a move, a takeback or the end closes it). Never fails: a lost edit only leaves
        old buttons, which refuse to act anyway (stale check)."""
        self._board_out(match_id, open_at)
        try:
            superseded = await self.service.messages.board_posted(match_id, sent.channel.id, sent.id)
        except Exception:
            log.exception("could not record board message %s of match %s", sent.id, match_id)
            return
        if superseded is not None:
            await self.remove_buttons(superseded)
        requests = self.open_requests.get(match_id, {})
        for message_id, request in list(requests.items()):
            if open_at is None or request.ply != open_at:
                del requests[message_id]
                await self.remove_buttons(request.message)

    def request_posted(
        self, match_id: int, channel_id: int | None, message_id: int | None, *, kind: str, ply: int
    ) -> None:
        """An abort or takeback request (`kind`) asked at `ply` was posted with buttons: they stay until it is
        answered (`request_closed`) or a board shows the match moved on (`board_sent`)."""
        if channel_id is not None and message_id is not None:
            posted = PostedMessage(channel_id, message_id)
            self.open_requests.setdefault(match_id, {})[message_id] = OpenRequest(posted, kind, ply)

    def request_closed(self, match_id: int, message_id: int) -> None:
        """A request message lost its buttons by its own answer: nothing to take off later."""
        self.open_requests.get(match_id, {}).pop(message_id, None)

    async def close_requests(self, match_id: int, kind: str, *, keep: int | None = None) -> None:
        """Take the buttons off every message of the match that shows a request of `kind`, but `keep` (a
        message id): the request was answered, or is shown again in a newer message."""
        requests = self.open_requests.get(match_id, {})
        for message_id, request in list(requests.items()):
            if request.kind == kind and message_id != keep:
                del requests[message_id]
                await self.remove_buttons(request.message)

    async def edit_posted(self, posted: PostedMessage, **changes: Any) -> bool:
        """Edit a message the bot posted earlier; False (logged) if it is gone or cannot be edited."""
        message = self.bot.get_partial_messageable(posted.channel_id).get_partial_message(posted.message_id)
        try:
            await message.edit(**changes)
        except discord.NotFound:
            log.info(
                "message %s in channel %s is gone; nothing to edit", posted.message_id, posted.channel_id
            )
            return False
        except SEND_ERRORS:
            log.warning("could not edit message %s in channel %s", posted.message_id, posted.channel_id)
            return False
        return True

    async def remove_buttons(self, posted: PostedMessage) -> bool:
        """Take the buttons off a superseded board (its text and image stay)."""
        return await self.edit_posted(posted, view=None)

    async def _typing(self, match: MatchView) -> None:
        """Show "typing..." while the bot thinks: cosmetic, so no failure of it ever reaches the caller."""
        try:
            await self.channel(match.channel_id).typing()
        except SEND_ERRORS as error:
            log.info("could not show typing in channel %s: %r", match.channel_id, error)

    # ---------------------------------------------------------------------------------------- events

    # Background work reaches the runtime through `service.events`: one handler per event type.

    async def on_bot_played(self, event: BotPlayed) -> None:
        """Post the bot's move, after the board of the change that gave it its turn. A transient failure
        is raised: BotTurns announces the move again later."""
        played = event.played
        message = await self.played_board(played)
        await self._after_boards_owed(played.match.id, played.move.ply)
        await self.post_board(played.match, message, raise_transient=True)

    async def on_timed_out(self, event: TimedOut) -> None:
        """Post a timeout's board: the move the rules made for the player, or the result."""
        if event.played is not None:  # the rules moved for them (even a move that ended the game)
            tr = await self.public_tr(event.played.match.guild_id)
            headline = tr("{player} ran out of time.", player=f"<@{event.user_id}>")
            await self.post_board(
                event.played.match, await self.played_board(event.played, headline=headline)
            )
        elif event.finished is not None:  # the result lines say who ran out of time
            message = await self.board(event.finished.match, finished=event.finished)
            await self.post_board(event.finished.match, message)

    def _board_owed(self, match: MatchView) -> None:
        """A change to `match` was committed (called inside the commit): if the bot is now to move, the
        board of this change is owed before the bot's (where this process plays the bot's turns: the guild's
        shard is its own). A change back to an earlier ply (a takeback) forgets the boards owed after it,
        and the end of the match all of them."""
        shards = self.service.shards
        owed = {ply for ply in self.owed.get(match.id, ()) if ply < match.ply and match.is_active}
        if match.ai_seat_to_move() is not None and (shards is None or shards.owns(match.guild_id)):
            owed.add(match.ply)
        if owed:
            self.owed[match.id] = owed
        else:
            self.owed.pop(match.id, None)

    def _board_out(self, match_id: int, ply: int | None) -> None:
        """A board of the match at `ply` (None: its final board, every one) was sent, or will never come:
        the boards owed up to it are no longer awaited."""
        left = {p for p in self.owed.get(match_id, ()) if ply is not None and p > ply}
        if left:
            self.owed[match_id] = left
        else:
            self.owed.pop(match_id, None)

    async def _after_boards_owed(self, match_id: int, ply: int) -> None:
        """Wait until the boards owed at `ply` or before are out, at most `BOARD_ORDER_WAIT` seconds (a reply
        that failed never posts its board; then they are forgotten)."""
        waited = 0.0
        while any(p <= ply for p in self.owed.get(match_id, ())):
            if waited >= BOARD_ORDER_WAIT:
                log.info("the board before the bot's move in match %s did not come; posting it", match_id)
                self._board_out(match_id, ply)
                return
            await asyncio.sleep(BOARD_ORDER_POLL)
            waited += BOARD_ORDER_POLL

    async def challenge_expired(self, event: ChallengeExpired) -> None:
        """Edit the challenge's message in place: its buttons go and it says it expired. A challenge whose
        message was not recorded (made before the bot remembered them) gets a short notice instead."""
        challenge = event.challenge
        tr = await self.public_tr(challenge.guild_id)
        expired = tr(
            "The challenge from {challenger} to {opponent} (#{challenge_id}) expired: nobody answered in "
            "time. Send a new one with {/play}.",
            challenger=f"<@{challenge.challenger_id}>",
            opponent=f"<@{challenge.opponent_id}>",
            challenge_id=challenge.id,
        )
        posted = await self.service.messages.challenge_message(challenge.id)
        if posted is not None:
            await self.edit_posted(
                posted, content=expired, view=None, allowed_mentions=discord.AllowedMentions.none()
            )
            return
        with contextlib.suppress(*SEND_ERRORS):
            await self.channel(challenge.channel_id).send(
                expired, allowed_mentions=discord.AllowedMentions.none()
            )

    # ------------------------------------------------------------------------------------- reminders

    async def send_reminder(self, reminder: TurnReminder) -> None:
        """Remind a player that it is their turn: by direct message (a mention in the match's channel if
        their DMs are closed), or by a mention, as they chose in /prefs."""
        match = reminder.match
        game = self.service.rules(match.game).name
        link = f"https://discord.com/channels/{match.guild_id or '@me'}/{match.channel_id}"
        when = f"<t:{int(reminder.deadline)}:R>"
        tr = await self.public_tr(match.guild_id)
        if reminder.mode is ReminderMode.DM:
            text = tr(
                "Your turn in **{game}** match #{match_id} ({link}); time runs out {when}. "
                "Turn these reminders off with {/prefs}.",
                game=game,
                match_id=match.id,
                link=link,
                when=when,
            )
            if await self._direct_message(reminder.user_id, text):
                return
        text = tr(
            "{player}, a reminder: it is your turn in match #{match_id}; time runs out {when}. "
            "({/prefs} turns reminders off.)",
            player=f"<@{reminder.user_id}>",
            match_id=match.id,
            when=when,
        )
        await self.channel(match.channel_id).send(
            text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(reminder.user_id)])
        )

    async def _direct_message(self, user_id: int, text: str) -> bool:
        """Send a direct message; False if the user cannot be reached that way (DMs closed, unknown)."""
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(text)
        except discord.HTTPException:
            log.info("could not send a direct message to user %s", user_id)
            return False
        return True
