"""The flag timer: flags a player of a live match the moment their clock runs out.

The turn clock (clock.py) reads the database and sleeps for up to minutes: right for correspondence
deadlines, too coarse for live clocks. This timer keeps every running live clock's flag time in memory, in a
heap of (deadline, match id, ply), and one task that sleeps until the earliest; each commit the match
service makes to a live match pushes its new deadline (`add_match_listener(changed=...)`), and `start`
rebuilds the heap from the database (`store.live_deadlines`), so a restart loses nothing.

A due entry runs the service's timeout (`MatchService.flag`): a stale-checked write (the match must still
be at that ply, with that deadline passed), so an entry made stale by a move, a takeback or another process
does nothing, and a flag never fires twice, whichever of this timer and the turn clock gets there first.
Each flag is reported as a `TimedOut` event, the same event the turn clock sends, so every front-end ends
the game the way it ends any timeout. Only the guilds `shards` owns are flagged here.

Times: deadlines are the service's clock (`now`, wall time); the task sleeps the difference, and an entry
is only run once `now` has reached it (an early wake-up sleeps again).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
from collections.abc import Awaitable, Callable

from bot.service.matches import MatchService
from bot.service.records import MatchView, TimedOut
from bot.service.shards import Shards

log = logging.getLogger(__name__)

FlagHandler = Callable[[TimedOut], Awaitable[None]]
SYNC_EVERY = 1.0
"""The most often the timer reads every running clock again on other processes' notifications (seconds)."""
IDLE_SLEEP = 3600.0
"""The longest the timer sleeps without looking (a new flag wakes it at once anyway)."""


class FlagTimer:
    """Flags live clocks on time (see the module doc)."""

    def __init__(
        self,
        matches: MatchService,
        on_flag: FlagHandler,
        *,
        now: Callable[[], float],
        shards: Shards | None = None,
        on_late: Callable[[float], None] | None = None,
    ) -> None:
        self.matches = matches
        self.on_flag = on_flag
        self.now = now
        self.shards = shards
        self.on_late = on_late
        """Told how many seconds after its deadline each flag was written (a bench's measure)."""
        self._heap: list[tuple[float, int, int]] = []
        self._latest: dict[int, tuple[int, float]] = {}
        """Each scheduled match's current (ply, deadline): an entry of the heap that differs is stale."""
        self._task: asyncio.Task[None] | None = None
        self._sleeping = False
        self._woken = False
        self._sleeping_until: float | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._syncing: asyncio.Task[None] | None = None
        self._synced_at: float | None = None
        self._running = False
        self._commits = 0
        self._committed: dict[int, int] = {}
        """The number of this process's commits when each live match last changed (`sync` keeps a change
        that overtook its read)."""
        matches.add_match_listener(changed=self.changed)

    def __len__(self) -> int:
        """The live clocks scheduled now."""
        return len(self._latest)

    async def start(self) -> int:
        """Schedule every running live clock of the guilds this process owns; returns how many."""
        self._running = True
        self._task = asyncio.create_task(self._run(), name="tessera-flag-timer")  # its own task from start
        return await self.sync()

    async def sync(self) -> int:
        """Read every running live clock from the database again (another process moved one). A match
        this process changed while the read was under way keeps what its commit scheduled (the read may
        predate it)."""
        began = self._commits
        found = await self.matches.store.live_deadlines(shards=self.shards)
        for match_id, ply, deadline in found:
            if self._committed.get(match_id, -1) < began:
                self.schedule(match_id, ply, deadline)
        return len(found)

    def sync_soon(self) -> None:
        """`sync` in the background (a notification from another process): one at a time, at most one a
        `SYNC_EVERY` seconds however many notifications come (a clock moved elsewhere is flagged by its
        new deadline after that; its old entry meanwhile finds the match moved on and does nothing)."""
        if not self._running or (self._syncing is not None and not self._syncing.done()):
            return
        self._syncing = asyncio.create_task(self._sync_quietly(), name="tessera-flag-sync")

    async def _sync_quietly(self) -> None:
        wait = self._synced_at + SYNC_EVERY - self.now() if self._synced_at is not None else 0.0
        if wait > 0:
            await asyncio.sleep(wait)
        self._synced_at = self.now()
        try:
            await self.sync()
        except Exception:
            log.exception("reading the live clocks failed; the turn clock flags them meanwhile")

    async def stop(self) -> None:
        """Stop: no more flags; flags being written finish first."""
        self._running = False
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._syncing is not None:
            self._syncing.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    # ------------------------------------------------------------------------------------- scheduling

    def changed(self, match: MatchView) -> None:
        """The match service committed a change: schedule a live match's new flag, forget an ended one."""
        if match.time_control is None:
            return
        self._commits += 1
        self._committed.pop(match.id, None)  # to the end: the oldest are pruned first
        self._committed[match.id] = self._commits
        while len(self._committed) > 4 * len(self._latest) + 1024:  # the oldest go first
            del self._committed[next(iter(self._committed))]
        if not match.is_active or match.deadline is None:
            self._latest.pop(match.id, None)
            return
        if self.shards is not None and not self.shards.owns(match.guild_id):
            return
        self.schedule(match.id, match.ply, match.deadline)

    def schedule(self, match_id: int, ply: int, deadline: float) -> None:
        """Flag `match_id` at `deadline` if it is still at `ply` then (what this process committed last,
        or what a read of the database found)."""
        if self._latest.get(match_id) == (ply, deadline):
            return
        self._latest[match_id] = (ply, deadline)
        heapq.heappush(self._heap, (deadline, match_id, ply))
        if len(self._heap) > 2 * len(self._latest) + 1024:  # stale entries: rebuild from the current ones
            self._heap = [(d, m, p) for m, (p, d) in self._latest.items()]
            heapq.heapify(self._heap)
        self._arm()

    def rearm(self) -> None:
        """Look at the earliest flag again now (the service's clock jumped: a wall-clock change, or a
        test's fake clock)."""
        self._wake()

    def _arm(self) -> None:
        """Make sure the loop sleeps no later than the earliest flag."""
        if not self._running:
            return
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="tessera-flag-timer")
        elif self._heap and self._sleeping_until is not None and self._heap[0][0] < self._sleeping_until:
            self._wake()

    def _wake(self) -> None:
        task = self._task
        if task is None or task.done():
            self._arm()
        elif self._sleeping and not self._woken:
            self._woken = True
            task.cancel()

    async def _run(self) -> None:
        """Sleep until the earliest flag (asyncio.sleep: a test's virtual clock drives it), flag what is
        due, again; a flag scheduled earlier than the sleep's end cuts it short (`_wake`)."""
        while self._running:
            self.run_due(self.now())
            while self._heap and self._stale(self._heap[0]):
                heapq.heappop(self._heap)
            due = self._heap[0][0] if self._heap else None
            delay = IDLE_SLEEP if due is None else min(IDLE_SLEEP, max(0.0, due - self.now()))
            self._sleeping_until = self.now() + delay
            self._sleeping = True
            try:
                await asyncio.sleep(delay)
            except asyncio.CancelledError:
                if not self._woken:
                    raise
                current = asyncio.current_task()
                if current is not None:
                    current.uncancel()
            finally:
                self._sleeping = False
                self._woken = False
                self._sleeping_until = None

    def _stale(self, entry: tuple[float, int, int]) -> bool:
        deadline, match_id, ply = entry
        return self._latest.get(match_id) != (ply, deadline)

    def run_due(self, now: float) -> int:
        """Start a flag for every clock run out by `now` (the loop's timer calls it; a test may too);
        returns how many were started."""
        started = 0
        while self._heap and self._heap[0][0] <= now:
            entry = heapq.heappop(self._heap)
            if self._stale(entry):
                continue
            deadline, match_id, ply = entry
            del self._latest[match_id]
            task = asyncio.create_task(self._flag(match_id, ply, deadline), name=f"tessera-flag-{match_id}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            started += 1
        return started

    async def _flag(self, match_id: int, ply: int, deadline: float) -> None:
        try:
            event = await self.matches.flag(match_id, ply)
        except Exception:
            log.exception("flagging match %s failed", match_id, extra={"match_id": match_id})
            return
        if event is None:
            return
        if self.on_late is not None:
            self.on_late(self.now() - deadline)
        try:
            await self.on_flag(event)
        except Exception:
            log.exception("flag handler failed for match %s", match_id)
