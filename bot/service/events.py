"""Background events reach the application through subscriptions, one handler list per event type.

The clock (`TimedOut`, `ChallengeExpired`) and the bot's turns (`BotPlayed`) publish what happened in the
background; the application subscribes a handler to each type it shows::

    service.events.subscribe(TimedOut, on_timeout)

A handler's failure reaches the publisher (the bot's turns try to announce a move again when posting its
board failed; the clock logs it and goes on), after every other handler of the event has run.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from bot.service.records import Event

E = TypeVar("E")

Handler = Callable[[E], Awaitable[None]]


class Events:
    """The subscriptions to background events: `subscribe(kind, handler)`; `publish(event)` awaits every
    handler subscribed to the event's type or to a base of it (`subscribe_all`: to every event), in the
    order they subscribed."""

    def __init__(self) -> None:
        self._handlers: list[tuple[type[Any], Handler[Any]]] = []

    def subscribe(self, kind: type[E], handler: Handler[E]) -> None:
        """Call `handler` with every published event that is a `kind`."""
        self._handlers.append((kind, handler))

    def subscribe_all(self, handler: Handler[Event]) -> None:
        """Call `handler` with every published event (a test, a worker that only records them)."""
        self._handlers.append((object, handler))

    def handlers(self, event: object) -> list[Handler[Any]]:
        return [handler for kind, handler in self._handlers if isinstance(event, kind)]

    async def publish(self, event: Event) -> None:
        """Run every handler of `event`; the first failure is raised once all of them ran."""
        failure: Exception | None = None
        for handler in self.handlers(event):
            try:
                await handler(event)
            except Exception as error:
                if failure is None:
                    failure = error
        if failure is not None:
            raise failure
