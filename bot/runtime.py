"""The running application behind the cogs: store, match service, turn clock and AI, plus the things that
happen without a user's interaction: posting a timeout's result, and the bot taking its own turns.

`Runtime.open` builds everything in `setup_hook`; `start` starts the clock and resumes the bot's pending
turns (after a restart it picks up where it stopped); `close` stops it all and closes the store, so nothing
is half-written on shutdown.

Time: the service reads the clock through `discord.utils.utcnow()`, so a test's virtual clock (SimCord)
moves turn deadlines too.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

import discord

from bot.ai_runner import AIRunner
from bot.boards import BoardMessage, board_message, move_lines
from bot.clock import TurnClock
from bot.matches import (
    ChallengeExpired,
    ClockEvent,
    Finished,
    MatchService,
    MatchView,
    Played,
    ServiceError,
    TimedOut,
)
from bot.store import MatchStore, open_store
from games.base import MoveError

if TYPE_CHECKING:
    from bot.client import TesseraBot

log = logging.getLogger("tessera.runtime")


def utc_seconds() -> float:
    """Seconds since the epoch, from discord.py's clock (which a test harness may drive)."""
    return discord.utils.utcnow().timestamp()


class Runtime:
    """Store + service + clock + AI for one bot process."""

    def __init__(
        self,
        bot: TesseraBot,
        store: MatchStore,
        service: MatchService,
        clock: TurnClock,
        ai: AIRunner,
        *,
        owns_ai: bool,
    ) -> None:
        self.bot = bot
        self.store = store
        self.service = service
        self.clock = clock
        self.ai = ai
        self._owns_ai = owns_ai
        self.names: dict[int, str] = {}
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._closing = False
        self._clock_task: asyncio.Task[None] | None = None
        self._clock_sleeping = False
        self._clock_woken = False
        self._clock_dirty = False
        service.add_deadline_listener(self.wake_clock)

    @classmethod
    async def open(
        cls,
        bot: TesseraBot,
        *,
        ai_runner: AIRunner | None = None,
        now: Callable[[], float] | None = None,
    ) -> Runtime:
        store = await open_store(bot.settings.database_url)
        service = MatchService(store, now=now or utc_seconds)
        recovered = await service.recover()
        if recovered:
            log.info("rated %d matches that ended just before the last shutdown", recovered)
        clock = TurnClock(service)
        runtime = cls(bot, store, service, clock, ai_runner or AIRunner(), owns_ai=ai_runner is None)
        clock.set_callback(runtime.on_clock_event)
        return runtime

    async def start(self) -> None:
        """Start the turn clock and resume every match where the bot is to move."""
        self._clock_task = asyncio.create_task(self._clock_loop(), name="tessera-turn-clock")
        for match in await self.service.ai_turns():
            self.schedule_ai(match)

    # -------------------------------------------------------------------------------------------- clock

    async def _clock_loop(self) -> None:
        """Expire what is due, then sleep until the next deadline (at most `clock.max_sleep`).

        A plain `asyncio.sleep` (not a wait on an event) so that a virtual clock in tests can drive it; a
        deadline that moves earlier cancels the sleep (never a pass in progress, which writes to the store).
        """
        while True:
            self._clock_dirty = False
            try:
                await self.clock.run_once()
                delay = await self.clock.seconds_to_next()
            except Exception:
                log.exception("turn clock pass failed; retrying shortly")
                delay = 5.0
            if self._closing:
                return
            if self._clock_dirty:
                continue
            timeout = self.clock.max_sleep if delay is None else min(delay, self.clock.max_sleep)
            self._clock_sleeping = True
            try:
                await asyncio.sleep(max(timeout, 0.05))
            except asyncio.CancelledError:
                if not self._clock_woken:
                    raise
                current = asyncio.current_task()
                if current is not None:
                    current.uncancel()
            finally:
                self._clock_sleeping = False
                self._clock_woken = False

    def wake_clock(self) -> None:
        """A deadline may have moved earlier: look at the deadlines again now."""
        task = self._clock_task
        if task is None or task.done():
            return
        if self._clock_sleeping and not self._clock_woken:
            self._clock_woken = True
            task.cancel()
        else:
            self._clock_dirty = True

    async def close(self) -> None:
        """Stop thinking, stop the clock, close the store (every write is a finished transaction)."""
        if self._closing:
            return
        self._closing = True
        tasks = list(self._ai_tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._clock_task is not None:
            # A pass in progress finishes its writes and the loop then stops; a sleeping loop is cancelled.
            if self._clock_sleeping:
                self._clock_woken = False
                self._clock_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._clock_task
        if self._owns_ai:
            await self.ai.aclose()
        await self.store.close()

    # ------------------------------------------------------------------------------------------- names

    def remember(self, *users: discord.abc.User | None) -> None:
        """Keep display names of users seen in interactions (the bot has no member list intent)."""
        for user in users:
            if user is not None:
                self.names[user.id] = user.display_name

    async def names_for(self, match: MatchView) -> dict[int, str]:
        """Display names of the match's human players, fetched once if the bot has not seen them."""
        for seat in match.seats:
            if seat.is_ai or seat.user_id in self.names:
                continue
            user = self.bot.get_user(seat.user_id)
            if user is None:
                try:
                    user = await self.bot.fetch_user(seat.user_id)
                except discord.HTTPException:
                    continue
            self.names[seat.user_id] = user.display_name
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
        moves = [played.move, *played.forced]
        last = moves[-1].notation
        return await self.board(
            played.match, headline=headline, lines=move_lines(moves), last_move=last, finished=played.finished
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

    # ----------------------------------------------------------------------------------- after a change

    def after_change(self, match: MatchView) -> None:
        """Call after anything that changed a match: if the bot is now to move, it starts thinking."""
        if match.ai_seat_to_move() is not None:
            self.schedule_ai(match)

    # ---------------------------------------------------------------------------------------------- AI

    def schedule_ai(self, match: MatchView) -> None:
        """Let the bot take its turn in `match` in the background (at most one task per match)."""
        if self._closing:
            return
        running = self._ai_tasks.get(match.id)
        if running is not None and not running.done():
            return
        task = asyncio.create_task(self._ai_turns(match.id), name=f"tessera-ai-{match.id}")
        self._ai_tasks[match.id] = task
        task.add_done_callback(functools.partial(self._ai_done, match.id))

    def _ai_done(self, match_id: int, task: asyncio.Task[None]) -> None:
        if self._ai_tasks.get(match_id) is task:
            del self._ai_tasks[match_id]

    def pending_ai(self) -> Iterable[asyncio.Task[None]]:
        return tuple(self._ai_tasks.values())

    async def _ai_turns(self, match_id: int) -> None:
        """Play the bot's moves while it is to move: think in the AI's worker process, then play through the
        service like any player, and post the board."""
        while not self._closing:
            try:
                match = await self.service.get_match(match_id)
                seat = match.ai_seat_to_move()
                if seat is None or seat.ai_level is None:
                    return
                rules = self.service.rules(match.game)
                with contextlib.suppress(discord.HTTPException):
                    await self.channel(match.channel_id).typing()
                notation = await self.ai.choose(
                    match.game, rules.dump(match.state), seat.ai_level, match.seed + match.ply
                )
                played = await self.service.play(match.id, seat.user_id, notation, expected_ply=match.ply)
            except asyncio.CancelledError:
                raise
            except (ServiceError, MoveError) as error:
                # The position moved under the bot (a takeback, an abort): look again, or stop if over.
                log.info("bot move in match %s not played: %s", match_id, error)
                await asyncio.sleep(0)
                match = await self.service.get_match(match_id)
                if match.ai_seat_to_move() is None:
                    return
                continue
            except Exception:
                log.exception("the bot could not move in match %s", match_id)
                return
            await self.post(played.match.channel_id, await self.played_board(played))
            if played.match.ai_seat_to_move() is None:
                return

    # ---------------------------------------------------------------------------------------- clock events

    async def on_clock_event(self, event: ClockEvent) -> None:
        """A deadline fired: post the result of a timeout, or say a challenge expired."""
        if isinstance(event, TimedOut):
            if event.finished is not None:
                message = await self.board(
                    event.finished.match,
                    headline=f"<@{event.user_id}> ran out of time.",
                    finished=event.finished,
                )
                await self.post(event.finished.match.channel_id, message)
            elif event.played is not None:
                headline = f"<@{event.user_id}> ran out of time and now passes every turn."
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
