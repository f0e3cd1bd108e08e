"""Count the store reads of one flow: a proxy between the service and its store that counts every call of a
read method, by method, and passes everything through unchanged.

Only the service's own calls are counted (the store's calls to itself, e.g. an insert that reads back the row
it wrote, stay inside the store). The settings cache is switched off while counting, so each settings
lookup is a store read, as on PostgreSQL while its listener is down: the counts say what a flow asks for,
not what a warm cache happened to hold.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from bot.service import Service
from bot.service.cache import Cache

MATCH_ROW = ("get_match", "get_matches", "active_match_in_channel")
"""The store methods that read a match's row."""
CHALLENGE_ROW = ("get_challenge",)
LOBBY_ROW = ("get_lobby",)
GUILD_SETTINGS = ("get_guild_settings",)

WRITES = (
    "insert_",
    "put_",
    "set_",
    "append_moves",
    "finish_match",
    "rewind_match",
    "update_requests",
    "quarantine_match",
    "add_lobby_member",
    "remove_lobby_member",
    "apply_ratings",
    "swap_board_message",
    "claim_turn_reminder",
    "close",
    "listen",
    "full_check",
)


class CountingStore:
    """Passes every attribute through to `store`; each call of a read method is counted in `reads`."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.reads: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._store, name)
        if name.startswith("_") or name.startswith(WRITES) or not callable(found):
            return found

        @functools.wraps(found)
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.reads[name] += 1
            return found(*args, **kwargs)

        return counted

    def of(self, methods: tuple[str, ...]) -> int:
        """How many reads of these methods were counted."""
        return sum(self.reads[m] for m in methods)


@contextmanager
def counting_reads(service: Service) -> Iterator[CountingStore]:
    """Count the store reads of `service` inside the block (every part that holds the store reads through
    the proxy); the settings cache is off meanwhile. Everything is put back afterwards."""
    store = service.store
    proxy = CountingStore(store)
    holders = [service, *vars(service).values()]
    swapped = [part for part in holders if getattr(part, "store", None) is store]
    caches: list[tuple[Any, Cache]] = [
        (part, part.cache) for part in holders if isinstance(getattr(part, "cache", None), Cache)
    ]
    for part in swapped:
        part.store = proxy
    for part, _ in caches:
        part.cache = Cache(shared=True)  # never listening: every lookup reads the store
    try:
        yield proxy
    finally:
        for part in swapped:
            part.store = store
        for part, cache in caches:
            part.cache = cache
