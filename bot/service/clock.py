"""The turn clock: one task that sleeps until the earliest turn deadline or challenge expiry and expires
what is due, reporting each expiry as an event.

Deadlines live in the database, so the clock holds no state of its own: after a restart a new clock looks
at the tables again and everything overdue expires at once; every expiry is a stale-checked write, so
nothing fires twice. The clock sleeps with `asyncio.sleep` (which a test's virtual clock drives), at most
`max_sleep` seconds, so a wall-clock jump or a deadline written by another process is noticed in that time;
`wake()` cuts a sleep short when a deadline moves earlier, and never interrupts a pass that is writing.

Other durable timers (turn reminders) ride on the same loop as `Timer`s: each says when it is next due and
does what is due; the clock sleeps until the earliest of all.

With `shards`, the clock expires only the turns and challenges of the guilds those shards own, so clocks in
several processes over one database fire each deadline once. `lag` is how late the last pass ran after the
earliest due time it had slept towards (0 when it was on time or woke early): the event loop's health.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from bot.service.challenges import Challenges
from bot.service.matches import MatchService
from bot.service.records import ChallengeExpired, Event
from bot.service.shards import Shards

log = logging.getLogger(__name__)

EventHandler = Callable[[Event], Awaitable[None]]


class Timer(Protocol):
    """More work the clock does on time, its due times kept in the database (e.g. `Reminders`)."""

    async def next_due(self) -> float | None: ...
    async def run_due(self, now: float) -> object: ...


class TurnClock:
    """Expires overdue turns (`MatchService.expire_due`) and challenges (`Challenges.expire`)."""

    def __init__(
        self,
        matches: MatchService,
        challenges: Challenges,
        on_event: EventHandler,
        *,
        now: Callable[[], float],
        max_sleep: float = 300.0,
        retry_after: float = 5.0,
        timers: Sequence[Timer] = (),
        shards: Shards | None = None,
    ) -> None:
        self.matches = matches
        self.shards = shards
        self.lag = 0.0
        """Seconds the last pass ran after the due time it slept towards (see the module doc)."""
        self._due: float | None = None
        self.timers = tuple(timers)
        self.challenges = challenges
        self.on_event = on_event
        self.now = now
        self.max_sleep = max_sleep
        self.retry_after = retry_after
        self._task: asyncio.Task[None] | None = None
        self._sleeping = False
        self._woken = False
        self._dirty = False
        self._stopping = False
        matches.add_deadline_listener(self.wake)

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Start the loop; anything overdue (say, after downtime) expires right away."""
        if not self.running:
            self._stopping = False
            self._task = asyncio.create_task(self._run(), name="tessera-turn-clock")

    async def stop(self) -> None:
        """Stop the loop: a sleeping loop is cancelled; a pass in progress finishes its writes first."""
        task, self._task = self._task, None
        if task is None:
            return
        self._stopping = True
        if self._sleeping:
            self._woken = False
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    def wake(self) -> None:
        """A deadline may have moved earlier: look at the deadlines again now."""
        task = self._task
        if task is None or task.done():
            return
        if self._sleeping and not self._woken:
            self._woken = True
            task.cancel()
        else:
            self._dirty = True

    async def run_once(self) -> list[Event]:
        """Expire everything due now and report each event; returns the events."""
        now = self.now()
        due, self._due = self._due, None
        self.lag = max(0.0, now - due) if due is not None else 0.0
        events: list[Event] = [
            ChallengeExpired(c) for c in await self.challenges.expire(now, shards=self.shards)
        ]
        events.extend(await self.matches.expire_due(now, shards=self.shards))
        for event in events:
            try:
                await self.on_event(event)
            except Exception:
                log.exception("clock event handler failed for %r", event)
        for timer in self.timers:
            try:
                await timer.run_due(now)
            except Exception:
                log.exception("clock timer %r failed", timer)
        return events

    async def seconds_to_next(self) -> float | None:
        """Seconds until the next deadline or expiry (0 if already due), None if nothing is waiting."""
        times = [
            t
            for t in (
                await self.matches.next_deadline(shards=self.shards),
                await self.challenges.next_expiry(shards=self.shards),
            )
            if t
        ]
        for timer in self.timers:
            due = await timer.next_due()
            if due is not None:
                times.append(due)
        self._due = min(times) if times else None
        return max(0.0, self._due - self.now()) if self._due is not None else None

    async def _run(self) -> None:
        while not self._stopping:
            self._dirty = False
            try:
                await self.run_once()
                delay = await self.seconds_to_next()
            except Exception:
                log.exception("turn clock pass failed; retrying shortly")
                delay = self.retry_after
            if self._stopping:
                return
            if self._dirty:
                continue
            timeout = self.max_sleep if delay is None else min(delay, self.max_sleep)
            self._sleeping = True
            try:
                await asyncio.sleep(max(timeout, 0.05))
            except asyncio.CancelledError:
                if not self._woken:
                    raise
                current = asyncio.current_task()
                if current is not None:
                    current.uncancel()
            finally:
                self._sleeping = False
                self._woken = False
