"""The PostgreSQL store: URLs, one-line errors, migrations under concurrent opens, wake-ups (the queries
themselves run on both stores in the other store tests: one implementation).

Each test gets a fresh schema on the server `TESSERA_TEST_DATABASE_URL` names (skipped without it)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from urllib.parse import urlsplit

import asyncpg
import pytest

from bot.service.records import GuildSettings
from bot.service.shards import Shards
from bot.service.store import SCHEMA_VERSION, PostgresStore, StoreUnavailable, open_store
from tests.service.conftest import postgres_server


def replaced(url: str, **parts: str) -> str:
    return urlsplit(url)._replace(**parts).geturl()


@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
async def test_open_store_picks_postgresql_by_url(postgres_url: str, scheme: str) -> None:
    store = await open_store(replaced(postgres_url, scheme=scheme))
    try:
        assert isinstance(store, PostgresStore)
        assert await store.schema_version() == SCHEMA_VERSION
    finally:
        await store.close()


async def test_an_unreachable_server_is_one_line_without_the_password() -> None:
    with pytest.raises(StoreUnavailable) as caught:
        await open_store("postgresql://tessera:s3cret@127.0.0.1:1/tessera")
    message = str(caught.value)
    assert "\n" not in message and "s3cret" not in message
    assert message.startswith("the PostgreSQL database tessera on 127.0.0.1:1 as tessera cannot be used")
    assert "cannot be reached" in message and "DATABASE_URL" in message


async def test_a_missing_database_and_a_refused_login_say_what_to_do() -> None:
    server = postgres_server()
    with pytest.raises(StoreUnavailable, match=r"does not exist.*createdb"):
        await open_store(replaced(server, path="/no_such_database_here"))
    netloc = urlsplit(server).netloc.rpartition("@")[2]
    with pytest.raises(StoreUnavailable, match=r"refused the login.*user and password"):
        await open_store(replaced(server, netloc=f"no_such_role:pw@{netloc}"))


async def test_processes_starting_together_migrate_once(postgres_url: str) -> None:
    stores = await asyncio.gather(*(PostgresStore.open(postgres_url) for _ in range(6)))
    try:
        assert [await s.schema_version() for s in stores] == [SCHEMA_VERSION] * 6
        conn = await asyncpg.connect(postgres_url)
        try:
            assert await conn.fetchval("SELECT COUNT(*) FROM schema_version") == 1
        finally:
            await conn.close()
    finally:
        await asyncio.gather(*(s.close() for s in stores))


async def test_a_newer_schema_is_refused(postgres_url: str) -> None:
    store = await PostgresStore.open(postgres_url)
    await store.close()
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute("UPDATE schema_version SET version = $1", SCHEMA_VERSION + 3)
    finally:
        await conn.close()
    with pytest.raises(StoreUnavailable, match=r"is newer than this code's \(\d+\); run a newer Tessera$"):
        await PostgresStore.open(postgres_url)


async def wakes_after(store: PostgresStore, write: Awaitable[object], shards: Shards | None = None) -> int:
    """How many wake-ups a listener hears after `write` (an awaitable) commits."""
    heard = asyncio.Event()
    count = 0

    def wake() -> None:
        nonlocal count
        count += 1
        heard.set()

    listener = asyncio.create_task(store.listen(wake, shards=shards))
    try:
        await asyncio.wait_for(heard.wait(), 10)  # the wake-up every (re)connection gives
        heard.clear()
        await write
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(heard.wait(), 1)
        return count - 1
    finally:
        listener.cancel()
        with pytest.raises(asyncio.CancelledError):
            await listener


async def test_another_processs_writes_wake_the_listener(postgres_url: str) -> None:
    listening, writing = await PostgresStore.open(postgres_url), await PostgresStore.open(postgres_url)
    try:
        challenge = writing.insert_challenge("race", {}, 5 << 22, 1, 1, 2, 0.0, 60.0)
        assert await wakes_after(listening, challenge) >= 1
        settings = writing.put_guild_settings(GuildSettings(7, 120.0, False, ()))
        assert await wakes_after(listening, settings) >= 1
        # A guild whose shard the listener does not own wakes nobody (guild 5 << 22 is shard 1 of 2).
        other = writing.insert_challenge("race", {}, 5 << 22, 2, 1, 2, 0.0, 60.0)
        assert await wakes_after(listening, other, Shards(2, frozenset({0}))) == 0
        theme = writing.set_guild_theme(7, "dark", 0.0)  # no clock moves: no wake-up
        assert await wakes_after(listening, theme) == 0
    finally:
        await listening.close()
        await writing.close()
