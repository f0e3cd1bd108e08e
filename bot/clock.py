"""The turn clock: one task that sleeps until the earliest turn deadline or challenge expiry and expires them.

Deadlines live in the database (see `bot.store`), so the clock holds no state of its own: after a restart a
new clock simply looks at the table again, and everything overdue is expired at once. The service's writes are
stale-checked, so nothing fires twice. Each expiry is reported to the bot's callback::

    clock = TurnClock(service, on_event=post_result)   # async def post_result(event: ClockEvent) -> None
    await clock.start()   # in setup_hook
    ...
    await clock.stop()    # on close

`now` is injectable (tests pass a fake clock, advance it and call `wake()` or `run_once()`); by default it is
the service's own time source. The clock never sleeps longer than `max_sleep` seconds, so a wall-clock jump
(or a deadline written by another process) is noticed within that time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.matches import ClockEvent, MatchService

log = logging.getLogger(__name__)

EventCallback = Callable[[ClockEvent], Awaitable[None]]


class TurnClock:
    """Expires overdue turns and challenges through `MatchService.expire_due` and reports each one."""

    def __init__(
        self,
        service: MatchService,
        on_event: EventCallback | None = None,
        *,
        now: Callable[[], float] | None = None,
        max_sleep: float = 300.0,
    ) -> None:
        self.service = service
        self.on_event = on_event
        self.now = now or service.now
        self.max_sleep = max_sleep
        self._wakeup = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        service.add_deadline_listener(self.wake)

    def set_callback(self, on_event: EventCallback | None) -> None:
        """Register (or replace) the coroutine that receives each expiry."""
        self.on_event = on_event

    def wake(self) -> None:
        """Look at the deadlines again now (a deadline moved, or a fake clock advanced)."""
        self._wakeup.set()

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def start(self) -> None:
        """Start the background task; anything overdue (say, after downtime) expires right away."""
        if self.running:
            return
        self._task = asyncio.create_task(self._run(), name="tessera-turn-clock")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def run_once(self) -> list[ClockEvent]:
        """Expire everything due now and report each event; returns the events."""
        events = await self.service.expire_due(self.now())
        for event in events:
            if self.on_event is None:
                continue
            try:
                await self.on_event(event)
            except Exception:
                log.exception("clock event callback failed for %r", event)
        return events

    async def seconds_to_next(self) -> float | None:
        """Seconds until the next deadline or expiry (0 if already due), None if nothing is waiting."""
        wakeup = await self.service.next_wakeup()
        return None if wakeup is None else max(0.0, wakeup - self.now())

    async def _run(self) -> None:
        while True:
            self._wakeup.clear()
            try:
                await self.run_once()
                delay = await self.seconds_to_next()
            except Exception:
                log.exception("turn clock pass failed; retrying shortly")
                delay = min(5.0, self.max_sleep)
            timeout = self.max_sleep if delay is None else min(delay, self.max_sleep)
            # Never spin: something due that could not be expired is retried a moment later.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wakeup.wait(), max(timeout, 0.05))
