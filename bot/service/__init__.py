"""Tessera's service: everything about matches that is not Discord (no discord import; a test enforces it).

One `Service` over one store holds the parts, each a file of one job:

    matches     MatchService: start, read, play, pass, resign, time out                     (matches.py)
    agreements  Agreements: abort by common consent, take moves back                        (agreements.py)
    draws       Draws: draw offers, agreed by every player still playing                     (draws.py)
    rematches   Rematches: the same match again, seats rotated, and the chain's score        (rematches.py)
    challenges  Challenges: challenge a member, or play the bot at once                      (challenges.py)
    lobbies     Lobbies: open tables of 2-4 players                                         (lobbies.py)
    starts      Starts: options, seats and the start of a match, for both of them            (starts.py)
    guilds      Guilds: per-server settings                                                  (guilds.py)
    ratings     Ratings: openskill ratings and leaderboards                                  (ratings.py)
    history     History: finished matches and statistics                                     (history.py)
    clock       TurnClock: expires turns and challenges on time                              (clock.py)
    flags       FlagTimer: flags live clocks the moment they run out                        (flags.py)
    bot_turns   BotTurns: the bot plays its seats through an AIRunner                        (ai.py)
    prefs       Prefs: users' board themes and reminders, servers' default theme             (prefs.py)
    messages    Messages: the newest board of each match, each challenge's message           (messages.py)
    reminders   Reminders: opt-in turn reminders in long matches, run by the clock           (reminders.py)

Records and events are in records.py, errors in errors.py, match options (the engine's and the host's)
in options.py, the store behind its protocol in store/. The application (the Discord bot) builds it once::

    service = await Service.open(settings.database_url, now=clock)
    service.events.subscribe(TimedOut, on_timeout)   # one handler per background event it shows
    await service.start(ai=AIRunner())   # the clock runs, the bot resumes its turns
    ...
    await service.close()

and hears about background work through `events` (`TimedOut`, `ChallengeExpired`, `BotPlayed`; events.py),
and about due turn reminders through `on_reminder` (`TurnReminder`). The bot's turn needs no call: the
bot's turns listen to every change the match service commits and think whenever the bot is to move.

Several processes over one database: each builds its Service with the `Shards` it owns, and its clock,
challenge expiry, reminders and the bot's turns act only for those guilds (every deadline fires once, each
of the bot's turns is searched once). The store's `listen` wakes the clock and looks for the bot's turns
when another process changed something timed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

import games
from bot.service.agreements import Agreements
from bot.service.ai import SWEEP_EVERY, AIRunner, BotTurns
from bot.service.cache import Cache
from bot.service.challenges import CHALLENGE_TTL, Challenges
from bot.service.clock import EventHandler, TurnClock
from bot.service.draws import Draws
from bot.service.events import Events
from bot.service.flags import FlagTimer
from bot.service.guilds import DEFAULT_TURN_TIMEOUT, Guilds
from bot.service.history import History
from bot.service.lobbies import Lobbies
from bot.service.matches import MatchService, Registry
from bot.service.messages import Messages
from bot.service.prefs import Prefs
from bot.service.ratings import Ratings
from bot.service.records import MatchView
from bot.service.rematches import Rematches
from bot.service.reminders import ReminderHandler, Reminders
from bot.service.shards import Shards
from bot.service.starts import Starts
from bot.service.store import MatchStore, StoreUnavailable, open_store
from bot.service.tournaments.host import TournamentHost
from games.base import Rules

log = logging.getLogger(__name__)


class Service:
    """The service over one store (see the module doc). Tests build it on a temporary database with a fake
    clock, a seeded random source and, if they like, their own game registry."""

    def __init__(
        self,
        store: MatchStore,
        *,
        registry: Registry | None = None,
        now: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        challenge_ttl: float = CHALLENGE_TTL,
        default_turn_timeout: float = DEFAULT_TURN_TIMEOUT,
        state_cache_size: int = 512,
        shards: Shards | None = None,
    ) -> None:
        rng = rng or random.SystemRandom()
        registry = registry or games.get
        self.store = store
        self.now = now
        self.shards = shards
        """The shards whose guilds' timed work this process runs; None: every guild."""
        self.cache = Cache(shared=store.shared)
        """Servers' settings and themes, users' preferences (cache.py): kept right by `listen`."""
        self.guilds = Guilds(store, default_turn_timeout=default_turn_timeout, cache=self.cache)
        self.ratings = Ratings(store, registry=registry, now=now)
        self.history = History(store)
        self.matches = MatchService(
            store,
            guilds=self.guilds,
            ratings=self.ratings,
            registry=registry,
            now=now,
            state_cache_size=state_cache_size,
        )
        self.agreements = Agreements(self.matches)
        self.draws = Draws(self.matches)
        """Draw offers (draws.py)."""
        self.rematches = Rematches(self.matches, now=now, rng=rng)
        """Rematch offers and their chains' scores (rematches.py)."""
        self.starts = Starts(self.matches, self.guilds, rng=rng)
        """The one path from a game, options and players to a started match (starts.py)."""
        self.challenges = Challenges(store, self.matches, self.starts, now=now, ttl=challenge_ttl)
        self.lobbies = Lobbies(store, self.matches, self.starts, now=now)
        self.prefs = Prefs(store, now=now, on_change=self.matches.deadlines_changed, cache=self.cache)
        self.messages = Messages(store, now=now)
        self.reminders = Reminders(store, self.matches, self.prefs, now=now, shards=shards)
        self.tournaments = TournamentHost(
            store, self.matches, self.starts, self.ratings, now=now, shards=shards, rng=rng
        )
        """Swiss, round robin and arena events (tournaments/host.py)."""
        self.events = Events()
        """Who hears the background events (`TimedOut`, `ChallengeExpired`, `BotPlayed`), by type."""
        self.clock: TurnClock | None = None
        self.flags: FlagTimer | None = None
        """The flag timer of live clocks (flags.py), once started."""
        self.bot_turns: BotTurns | None = None
        self._listening: asyncio.Task[None] | None = None
        self.quarantined: list[int] = []
        """The matches set aside at start-up because they could not be loaded."""
        self.damage: str | None = None
        """What the background check of the database found wrong with it (None: nothing, or not yet)."""
        self._checking: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, url: str, **kwargs: Any) -> Service:
        """Open the store a database URL names (which migrates it, data upgrades included: upgrades.py), and
        repair what a crash may have left (unrated results).
        Every match not over is loaded once: one that cannot be loaded is quarantined, never fatal. The store
        is closed again if anything here fails."""
        store = await open_store(url)
        try:
            service = cls(store, **kwargs)
            recovered = await service.ratings.recover()
            if recovered:
                log.info("rated %d matches that ended just before the last shutdown", recovered)
            service.quarantined = await service.matches.quarantine_unloadable()
        except BaseException:
            # An open store keeps worker threads (SQLite) or connections alive: close it on every way out,
            # so a failed start-up ends the process instead of hanging it.
            await store.close()
            raise
        if service.quarantined:
            log.warning(
                "damaged matches set aside (quarantined): %s (%d); the bot runs without them",
                ", ".join(f"#{i}" for i in service.quarantined),
                len(service.quarantined),
            )
        return service

    def rules(self, game: str) -> Rules[Any, Any]:
        """The engine of a game; UnknownGame if there is none."""
        return self.matches.rules(game)

    async def start(
        self,
        on_event: EventHandler | None = None,
        *,
        ai: AIRunner,
        on_thinking: Callable[[MatchView], Awaitable[None]] | None = None,
        on_reminder: ReminderHandler | None = None,
        max_sleep: float = 300.0,
    ) -> None:
        """Start the background work: the turn clock (with the turn reminders, sent to `on_reminder`), and
        the bot's turns (resumed where it is to move), for the guilds this process owns; and listen to the
        store in the background, so another process's changes wake both. Their events go to the handlers
        subscribed in `events` (`on_event`, if given, hears all of them)."""
        self.reminders.handler = on_reminder
        if on_event is not None:
            self.events.subscribe_all(on_event)
        try:
            resumed = await self.matches.resume_clocks(shards=self.shards)  # before anything flags them
        except Exception:  # never stops a start: the clocks then run on from their stored deadlines
            log.exception("resuming the live clocks failed; time while down may be charged")
        else:
            if resumed:
                log.info("resumed %d live clocks where they stood (time while down is not charged)", resumed)
        self.flags = FlagTimer(self.matches, self.events.publish, now=self.now, shards=self.shards)
        self.clock = TurnClock(
            self.matches,
            self.challenges,
            self.events.publish,
            now=self.now,
            max_sleep=max_sleep,
            timers=(self.reminders, self.tournaments) if on_reminder is not None else (self.tournaments,),
            shards=self.shards,
        )
        self.bot_turns = BotTurns(
            self.matches,
            ai,
            self.events.publish,
            on_thinking=on_thinking,
            shards=self.shards,
            sweep_every=SWEEP_EVERY,
        )
        self.tournaments.wake_clock = self.clock.wake
        self.clock.start()
        await self.flags.start()
        await self.bot_turns.resume()
        await self.tournaments.recover()
        self.listen()
        self._checking = asyncio.create_task(self.check_store(), name="tessera-store-check")

    async def check_store(self) -> None:
        """The full check of the database that start-up skipped after a clean shutdown, off the event loop.

        Damage found here is logged CRITICAL (counted in tessera_errors_total{kind="database_damaged"}) and
        kept in `damage`, which fails the health check's store part. The bot goes on serving: SQLite itself
        refuses any read or write that reaches a damaged page, and the file is not marked cleanly shut
        down, so the next start checks it in full and refuses it with one line (restore it from a
        backup)."""
        try:
            await self.store.full_check()
        except StoreUnavailable as error:
            self.damage = str(error)
            log.critical(
                "%s. Tessera keeps running, but its health check fails and the next start refuses the file",
                error,
                extra={"kind": "database_damaged"},
            )
        except Exception:
            log.exception("the background check of the database failed", extra={"kind": "database_check"})

    def listen(self) -> None:
        """Listen to the store in the background (`start` does it): another process's changes wake the clock
        and the bot's turns, and keep the cache right; on PostgreSQL the cache is used only while this
        listens."""
        if self._listening is None:
            self._listening = asyncio.create_task(self._listen(), name="tessera-store-listen")

    async def _listen(self) -> None:
        try:
            await self.store.listen(self.heard, shards=self.shards, changes=self.cache)
        except Exception:
            log.exception("listening to the store failed; other processes' changes wait for the clock")
        finally:
            self.cache.listening(False)  # a shared store is read every time again

    def heard(self) -> None:
        """Another process changed a deadline, a challenge or a match: the clock looks again now, and the
        bot picks up any turn of its own in the guilds this process owns."""
        if self.clock is not None:
            self.clock.wake()
        if self.flags is not None:
            self.flags.sync_soon()
        self.tournaments.wake()
        if self.bot_turns is not None:
            self.bot_turns.resume_soon()

    async def ping(self) -> None:
        """One trivial query: raises if the store cannot answer (the health check)."""
        await self.store.get_meta("ping")

    async def close(self) -> None:
        """Stop listening and thinking, stop the clock (a pass in progress finishes its writes), close the
        store."""
        if self._listening is not None:
            self._listening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listening
        if self._checking is not None:
            self._checking.cancel()  # the store's close stops the check's thread
        if self.bot_turns is not None:
            await self.bot_turns.close()
        if self.flags is not None:
            await self.flags.stop()
        if self.clock is not None:
            await self.clock.stop()
        await self.tournaments.stop()
        await self.store.close()
        if self._checking is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._checking
