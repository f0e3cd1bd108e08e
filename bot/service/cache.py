"""A cache of what every board reads and almost nothing writes: servers' settings and themes, users'
preferences (`Guilds` and `Prefs` read through it).

Kept right on every store:

- A write through this service forgets its key at once (read-your-writes in this process).
- Another process's write (PostgreSQL, several shard processes) arrives as a NOTIFY on `CHANGE_CHANNEL`
  (triggers on the three tables, so every writer is heard) and forgets its key; the cache is used only
  while that listening connection is up (`listening`), and starts empty after each (re)connection, since
  what was said meanwhile is lost. A store no other process writes (SQLite) needs no listening.
- A read that started before a forget is not kept (a generation count), so a slow read never brings an
  old row back.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

T = TypeVar("T")

GUILD_SETTINGS = "guild"
GUILD_THEME = "theme"
USER_PREFS = "user"


def key(kind: str, ident: int) -> str:
    """The cache key (and NOTIFY payload) of one row: ``guild:<id>``, ``theme:<id>`` or ``user:<id>``."""
    return f"{kind}:{ident}"


class Cache:
    """Values by key, least recently used dropped past `size` (see the module doc)."""

    def __init__(self, *, shared: bool, size: int = 20_000) -> None:
        self.shared = shared
        """Whether other processes write the database (then only a live listener makes the cache safe)."""
        self.size = size
        self.live = not shared
        self._values: OrderedDict[str, Any] = OrderedDict()
        self._generation = 0
        self.hits = 0
        self.misses = 0

    async def get(self, name: str, load: Callable[[], Awaitable[T]]) -> T:
        """The value of `name`: the kept one, else `load()` (kept unless a forget came meanwhile)."""
        if self.live and name in self._values:
            self._values.move_to_end(name)
            self.hits += 1
            return cast(T, self._values[name])
        self.misses += 1
        generation = self._generation
        value = await load()
        if self.live and generation == self._generation:
            self._values[name] = value
            if len(self._values) > self.size:
                self._values.popitem(last=False)
        return value

    def changed(self, name: str) -> None:
        """`name` was written (here, or by another process: its NOTIFY)."""
        self._values.pop(name, None)
        self._generation += 1

    def listening(self, live: bool) -> None:
        """The store's listener is up (True) or lost (False): start empty either way; while it is lost, a
        shared store is read every time."""
        self.live = live or not self.shared
        self._values.clear()
        self._generation += 1
