"""Servers' settings and themes and users' preferences, read on every board, come from the service's cache
(bot/service/cache.py): a write through the service forgets its row at once, and on PostgreSQL another
process's write does within the NOTIFY round trip."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.service import Service
from bot.service.cache import Cache
from tests.service.conftest import ServiceFactory

GUILD, USER = 42, 7
READS = ("get_guild_settings", "get_guild_theme", "get_user_prefs")


def count_reads(service: Service) -> Counter[str]:
    """Count the store reads of the cached rows (the store's methods, wrapped on this instance)."""
    counts: Counter[str] = Counter()
    for name in READS:
        method = getattr(service.store, name)

        async def counted(*args: Any, _name: str = name, _method: Any = method) -> Any:
            counts[_name] += 1
            return await _method(*args)

        setattr(service.store, name, counted)
    return counts


async def board_reads(service: Service) -> tuple[str | None, str]:
    """What a board reads: the server's language, and the theme of its viewer."""
    locale = (await service.guilds.settings(GUILD)).locale
    return locale, await service.prefs.theme_for(USER, GUILD)


async def until(check: Callable[[], Awaitable[bool]], seconds: float = 60.0) -> float:
    """Seconds until `check()` holds (fails the test after `seconds`)."""
    started = time.monotonic()
    while not await check():
        assert time.monotonic() - started < seconds, "not seen in time"
        await asyncio.sleep(0.005)
    return time.monotonic() - started


async def listening(service: Service) -> Service:
    """`service` listening to its store, with its cache in use (at once on SQLite)."""
    service.listen()
    await until(lambda: asyncio.sleep(0, service.cache.live))
    return service


async def test_a_board_reads_the_store_once_and_a_write_here_is_seen_at_once(
    open_service: ServiceFactory,
) -> None:
    service = await listening(await open_service())
    try:
        reads = count_reads(service)
        for _ in range(5):
            assert await board_reads(service) == (None, "default")
        assert reads == Counter(READS), "each row is read once, then comes from the cache"
        await service.guilds.update(GUILD, locale="fr")
        await service.prefs.set_guild_theme(GUILD, "colorblind")
        assert await board_reads(service) == ("fr", "colorblind")
        await service.prefs.set_user(USER, theme="default")
        assert await board_reads(service) == ("fr", "default")
        # Each write forgot its row, read once again since (set_user found the old one in the cache); on
        # PostgreSQL the write's own NOTIFY, heard a moment later, may forget it once more.
        again = 3 if service.store.shared else 2
        assert all(2 <= reads[name] <= again for name in READS), reads
    finally:
        await service.close()


async def test_another_process_s_change_is_seen_within_the_notify_round_trip(
    open_service: ServiceFactory,
) -> None:
    """Two services on one database stand for two shard processes (on SQLite, only one process may open
    the file, so this is the PostgreSQL case)."""
    reader, writer = await open_service(), await open_service()
    if not reader.store.shared:
        pytest.skip("SQLite has one process: its writes go through its own cache")
    await listening(reader)
    try:
        reads = count_reads(reader)
        assert await board_reads(reader) == (None, "default")
        assert await board_reads(reader) == (None, "default")
        assert sum(reads.values()) == 3, "the second board came from the cache"
        await writer.guilds.update(GUILD, locale="de")
        # Seen at all means seen through NOTIFY: the cache has no expiry that would read the row again.
        await until(lambda: locale_is(reader, "de"))
        await writer.prefs.set_guild_theme(GUILD, "colorblind")
        await until(lambda: theme_is(reader, "colorblind"))
        await writer.prefs.set_user(USER, theme="default")
        await writer.prefs.set_guild_theme(GUILD, "default")
        await until(lambda: theme_is(reader, "default"))
    finally:
        await reader.close()


async def locale_is(service: Service, locale: str) -> bool:
    return (await service.guilds.settings(GUILD)).locale == locale


async def theme_is(service: Service, theme: str) -> bool:
    return await service.prefs.theme_for(USER, GUILD) == theme


async def test_a_shared_store_is_read_every_time_while_nothing_listens(open_service: ServiceFactory) -> None:
    service = await open_service()
    reads = count_reads(service)
    await board_reads(service)
    await board_reads(service)
    expected = 3 if not service.store.shared else 6
    assert sum(reads.values()) == expected


async def test_a_read_that_started_before_a_change_is_not_kept() -> None:
    cache = Cache(shared=False)
    started, release = asyncio.Event(), asyncio.Event()

    async def slow_old_row() -> str:
        started.set()
        await release.wait()
        return "old"

    reading = asyncio.create_task(cache.get("guild:1", slow_old_row))
    await started.wait()
    cache.changed("guild:1")  # written meanwhile
    release.set()
    assert await reading == "old"

    async def new_row() -> str:
        return "new"

    assert await cache.get("guild:1", new_row) == "new", "the old row was not kept"


async def test_a_lost_listener_empties_the_cache_and_stops_using_it() -> None:
    cache = Cache(shared=True)
    rows = iter(["a", "b", "c", "d"])

    async def load() -> str:
        return next(rows)

    assert await cache.get("user:1", load) == "a"
    assert await cache.get("user:1", load) == "b", "not live before the listener is up"
    cache.listening(True)
    assert await cache.get("user:1", load) == "c"
    assert await cache.get("user:1", load) == "c"
    cache.listening(False)
    assert await cache.get("user:1", load) == "d"
