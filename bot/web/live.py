"""Live updates: every page of a match holds one server-sent-events stream; a change to the match (made in
this process, or in another one and heard through the store's NOTIFY) is serialized once per language and
theme and handed to every stream, which writes it.

A subscriber keeps only the newest state: a slow browser skips boards it could not take in time instead of
queueing them, so one stuck connection never holds memory or delays the others.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

Group = tuple[str, str]
"""(locale, theme): the viewers who get the same bytes."""


@dataclass(eq=False, slots=True)
class Subscriber:
    """One open stream: which match and group it shows, and a flag the hub sets when there is news."""

    match_id: int
    group: Group
    news: asyncio.Event = field(default_factory=asyncio.Event)
    sent: int = -1
    """The version of the last payload written."""


class Hub:
    """The streams per match, and the newest payload of each (match, group)."""

    def __init__(self, build: Callable[[int, Group], Awaitable[bytes | None]]) -> None:
        self._build = build
        self._subscribers: dict[int, set[Subscriber]] = {}
        self._latest: dict[tuple[int, Group], tuple[int, bytes]] = {}
        self._version = 0
        self._pending: dict[int, asyncio.Task[None]] = {}

    def watched(self) -> list[int]:
        """The matches someone is watching now."""
        return list(self._subscribers)

    def count(self) -> int:
        return sum(len(s) for s in self._subscribers.values())

    def subscribe(self, match_id: int, group: Group) -> Subscriber:
        subscriber = Subscriber(match_id, group)
        self._subscribers.setdefault(match_id, set()).add(subscriber)
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        subs = self._subscribers.get(subscriber.match_id)
        if subs is None:
            return
        subs.discard(subscriber)
        if not subs:
            del self._subscribers[subscriber.match_id]
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
        self._version += 1
        for group in groups:
            payload = await self._build(match_id, group)
            if payload is not None:
                self._latest[(match_id, group)] = (self._version, payload)
        for subscriber in list(self._subscribers.get(match_id, ())):
            subscriber.news.set()
