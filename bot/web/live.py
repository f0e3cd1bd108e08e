"""Live updates: every page of a match holds one server-sent-events stream; a change to the match (made in
this process, or in another one and heard through the store's NOTIFY) is serialized once per language and
theme and handed to every stream, which writes it.

A subscriber keeps only the newest state: a slow browser skips boards it could not take in time instead of
queueing them, so one stuck connection never holds memory or delays the others.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

log = logging.getLogger("tessera.web")

Group = tuple[str, str]
"""(locale, theme): the viewers who get the same bytes."""


RECOUNT = 2.0
"""Seconds a change in the number of spectators waits before every page hears it (viewers who come and
go together make one update; a move in between carries the count at once)."""

BACKLOG = 256 * 1024
"""Bytes a stream may have waiting in its socket buffer before the hub stops writing to it directly."""


@dataclass(eq=False, slots=True)
class Subscriber:
    """One open stream: which match and group it shows, how to write to it, and a flag the hub sets when
    its own task should write (the stream was too slow to be written to directly)."""

    match_id: int
    group: Group
    write: Callable[[bytes], Awaitable[None]] | None = None
    backlog: Callable[[], int] = lambda: 0
    news: asyncio.Event = field(default_factory=asyncio.Event)
    sent: int = -1
    """The version of the last payload written."""
    spectator: bool = False
    """A viewer who plays no seat of the match."""


class Hub:
    """The streams per match, and the newest payload of each (match, group)."""

    def __init__(
        self, build: Callable[[int, Group], Awaitable[bytes | None]], recount: float = RECOUNT
    ) -> None:
        self._build = build
        self.recount_delay = recount
        self._counted: dict[int, int] = {}
        """The spectators of each match as last published."""
        self._recounts: dict[int, asyncio.Task[None]] = {}
        self._subscribers: dict[int, set[Subscriber]] = {}
        self._latest: dict[tuple[int, Group], tuple[int, bytes]] = {}
        self._version = 0
        self._pending: dict[int, asyncio.Task[None]] = {}

    def watched(self) -> list[int]:
        """The matches someone is watching now."""
        return list(self._subscribers)

    def count(self) -> int:
        return sum(len(s) for s in self._subscribers.values())

    def spectators(self, match_id: int) -> int:
        """The streams open on `match_id` of viewers who play no seat in it."""
        return sum(1 for s in self._subscribers.get(match_id, ()) if s.spectator)

    def close(self) -> None:
        """Forget the recounts still waiting (the server is stopping)."""
        for task in list(self._recounts.values()):
            task.cancel()

    def recount(self, match_id: int) -> None:
        """A spectator came or went: publish the match's state once `recount_delay` has passed, if the
        count differs from the one published last by then."""
        if match_id in self._recounts:
            return

        async def later() -> None:
            await asyncio.sleep(self.recount_delay)
            if self.spectators(match_id) != self._counted.get(match_id, 0):
                self.changed(match_id)

        task = asyncio.get_running_loop().create_task(later())
        self._recounts[match_id] = task
        task.add_done_callback(lambda _: self._recounts.pop(match_id, None))

    def subscribe(
        self,
        match_id: int,
        group: Group,
        write: Callable[[bytes], Awaitable[None]] | None = None,
        backlog: Callable[[], int] = lambda: 0,
        *,
        spectator: bool = False,
    ) -> Subscriber:
        subscriber = Subscriber(match_id, group, write, backlog, spectator=spectator)
        self._subscribers.setdefault(match_id, set()).add(subscriber)
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        subs = self._subscribers.get(subscriber.match_id)
        if subs is None:
            return
        subs.discard(subscriber)
        if not subs:
            del self._subscribers[subscriber.match_id]
            self._counted.pop(subscriber.match_id, None)
            for key in [k for k in self._latest if k[0] == subscriber.match_id]:
                del self._latest[key]

    def latest(self, subscriber: Subscriber) -> tuple[int, bytes] | None:
        return self._latest.get((subscriber.match_id, subscriber.group))

    def changed(self, match_id: int) -> None:
        """Something changed in `match_id`: build and hand out its new state (sync and cheap: it only
        schedules; several changes in a row make one update)."""
        if match_id not in self._subscribers or match_id in self._pending:
            return
        task = asyncio.get_running_loop().create_task(self._publish(match_id))
        self._pending[match_id] = task
        task.add_done_callback(lambda _: self._pending.pop(match_id, None))

    async def _publish(self, match_id: int) -> None:
        await asyncio.sleep(0)  # let the commit that told us finish first
        subs = self._subscribers.get(match_id)
        if not subs:
            return
        groups = {s.group for s in subs}
        self._counted[match_id] = self.spectators(match_id)
        self._version += 1
        for group in groups:
            try:
                payload = await self._build(match_id, group)
            except Exception:  # a lost database: the next change tries again
                log.exception("could not build the live state of match %s", match_id)
                return
            if payload is not None:
                self._latest[(match_id, group)] = (self._version, payload)
        # Written here, one after the other, rather than by waking every stream's task: hundreds of task
        # switches cost more than the writes. A write only fills the socket's buffer; a stream whose buffer
        # is already full is left to its own task (it skips to the newest state when it can take it).
        frames: dict[Group, tuple[int, bytes]] = {}
        for subscriber in list(self._subscribers.get(match_id, ())):
            latest = self._latest.get((match_id, subscriber.group))
            if latest is None or latest[0] == subscriber.sent:
                continue
            if subscriber.write is None or subscriber.backlog() > BACKLOG:
                subscriber.news.set()
                continue
            frame = frames.get(subscriber.group)
            if frame is None:
                frame = frames[subscriber.group] = (latest[0], sse_frame(latest[1]))
            subscriber.sent = latest[0]
            try:
                await subscriber.write(frame[1])
            except (ConnectionError, RuntimeError):
                self.unsubscribe(subscriber)


class NoGuild:
    """A shard filter that owns no guild: a listener of the store's match changes (`matches`) that wants
    `wake()` only when listening (re)starts, when every change meanwhile was lost, not on every clock
    wake-up (the service's own listening has those)."""

    def owns(self, guild_id: int | None) -> bool:
        return False

    def sql_filter(self, column: str = "guild_id") -> str:
        return "1 = 0"


def sse_frame(payload: bytes) -> bytes:
    """A server-sent `state` event carrying `payload` (JSON: one line)."""
    return b"event: state\ndata: " + payload + b"\n\n"
