"""The PostgreSQL store: URLs, one-line errors, migrations under concurrent opens, wake-ups (the queries
themselves run on both stores in the other store tests: one implementation).

Each test gets a fresh schema on the server `TESSERA_TEST_DATABASE_URL` names (skipped without it)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable
from urllib.parse import urlsplit

import asyncpg
import pytest

from bot.service.records import GuildSettings
from bot.service.shards import Shards
from bot.service.store import SCHEMA_VERSION, PostgresStore, StoreUnavailable, open_store
from bot.service.store.postgres import with_search_path
from bot.service.store.schema import CHANGE_CHANNEL, WAKE_CHANNEL, schema_channel
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


HANG = 60.0
"""Seconds after which an awaited wake-up counts as never coming: only a real hang reaches it."""
MINE = Shards(4096, frozenset({2749}))
"""The listener's shards where a wake-up must NOT come: no other test's guilds fall in this one (guild ids g
with (g >> 22) % 4096 == 2749). (Each schema has NOTIFY channels of its own, so another xdist worker's or
another checkout's tests writing meanwhile are not heard; this also holds where they were shared.)"""
MY_GUILD, OTHER_SHARDS_GUILD = 2749 << 22, 2750 << 22
MARKER_GUILD = (2749 + 4096) << 22
"""A guild of MINE that only the end marker writes to: told apart from the write before it."""
_channels = iter(range(1000, 10**6))


class Seen:
    """A shard filter (`MINE`) that notes the guild of every NOTIFY the listener has looked at, in order."""

    def __init__(self, shards: Shards) -> None:
        self.shards = shards
        self.guilds: list[int | None] = []

    def owns(self, guild_id: int | None) -> bool:
        self.guilds.append(guild_id)
        return self.shards.owns(guild_id)

    def sql_filter(self, column: str = "guild_id") -> str:
        return self.shards.sql_filter(column)


async def wakes_after(listening: PostgresStore, write: Awaitable[object]) -> int:
    """How many wake-ups a listener hears after `write` (an awaitable) commits (at least one, or it hangs)."""
    heard = asyncio.Event()
    count = 0

    def wake() -> None:
        nonlocal count
        count += 1
        heard.set()

    listener = asyncio.create_task(listening.listen(wake))
    try:
        await asyncio.wait_for(heard.wait(), HANG)  # the wake-up every (re)connection gives
        heard.clear()
        await write
        await asyncio.wait_for(heard.wait(), HANG)
        return count - 1
    finally:
        listener.cancel()
        with pytest.raises(asyncio.CancelledError):
            await listener


async def wakes_of_mine_after(
    listening: PostgresStore, writing: PostgresStore, write: Awaitable[object]
) -> int:
    """How many wake-ups a listener of `MINE` hears from `write`, without waiting for one that should not
    come: a challenge in MARKER_GUILD written after it marks the end, since NOTIFY arrives in commit order."""
    seen = Seen(MINE)
    connected = asyncio.Event()
    count = 0

    def wake() -> None:
        nonlocal count
        count += 1
        connected.set()

    listener = asyncio.create_task(listening.listen(wake, shards=seen))
    try:
        await asyncio.wait_for(connected.wait(), HANG)  # the wake-up every (re)connection gives
        before = count
        await write
        await writing.insert_challenge("race", {}, MARKER_GUILD, next(_channels), 1, 2, 0.0, 60.0)

        async def marker_seen() -> None:
            while MARKER_GUILD not in seen.guilds:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(marker_seen(), HANG)
        return count - before - 1  # the marker's own wake-up
    finally:
        listener.cancel()
        with pytest.raises(asyncio.CancelledError):
            await listener


async def test_another_processs_writes_wake_the_listener(postgres_url: str) -> None:
    listening, writing = await PostgresStore.open(postgres_url), await PostgresStore.open(postgres_url)
    try:
        challenge = writing.insert_challenge("race", {}, MY_GUILD, next(_channels), 1, 2, 0.0, 60.0)
        assert await wakes_after(listening, challenge) >= 1
        settings = writing.put_guild_settings(GuildSettings(MY_GUILD, 120.0, False, ()))
        assert await wakes_after(listening, settings) >= 1
        # A guild whose shard the listener does not own wakes nobody.
        other = writing.insert_challenge("race", {}, OTHER_SHARDS_GUILD, next(_channels), 1, 2, 0.0, 60.0)
        assert await wakes_of_mine_after(listening, writing, other) == 0
        theme = writing.set_guild_theme(MY_GUILD, "dark", 0.0)  # no clock moves: no wake-up
        assert await wakes_of_mine_after(listening, writing, theme) == 0
        settings = writing.put_guild_settings(GuildSettings(MY_GUILD, 60.0, False, ()))
        assert await wakes_of_mine_after(listening, writing, settings) == 1, "the marker counts the others"
    finally:
        await listening.close()
        await writing.close()


async def test_each_schema_hears_only_its_own_writes_and_the_previous_release_still_hears_all(
    postgres_url: str,
) -> None:
    """Schemas sharing one database are databases of their own: a write in another schema wakes nobody here
    (each schema has its own channels), also for a schema whose name is too long for a channel (its md5
    then). The shared channels the previous release listens to still carry every write, so its processes
    keep working through a rolling upgrade."""
    server = postgres_server()
    long_schema = f"test_{uuid.uuid4().hex}_{'x' * 24}"  # 61 characters: 'tessera_changed:' + it is too long
    assert len(schema_channel(CHANGE_CHANNEL, long_schema)) <= 63
    admin = await asyncpg.connect(server)
    await admin.execute(f"CREATE SCHEMA {long_schema}")
    old_release = await asyncpg.connect(server)
    shared: list[str] = []
    await old_release.add_listener(WAKE_CHANNEL, lambda *args: shared.append(str(args[3])))
    listening, writing = await PostgresStore.open(postgres_url), await PostgresStore.open(postgres_url)
    elsewhere = await PostgresStore.open(with_search_path(server, long_schema))
    try:
        other = elsewhere.insert_challenge("race", {}, MY_GUILD, next(_channels), 1, 2, 0.0, 60.0)
        assert await wakes_of_mine_after(listening, writing, other) == 0, "another schema's write"
        mine = writing.insert_challenge("race", {}, MY_GUILD, next(_channels), 1, 2, 0.0, 60.0)
        assert await wakes_of_mine_after(listening, writing, mine) == 1
        own = elsewhere.insert_challenge("race", {}, MY_GUILD, next(_channels), 1, 2, 0.0, 60.0)
        assert await wakes_after(elsewhere, own) >= 1, "the long-named schema hears its own writes"
        for _ in range(500):
            if shared.count(str(MY_GUILD)) >= 3:
                break
            await asyncio.sleep(0.01)
        assert shared.count(str(MY_GUILD)) >= 3, "the shared channel still hears both schemas' writes"
    finally:
        await listening.close()
        await writing.close()
        await elsewhere.close()
        await old_release.close()
        await admin.execute(f"DROP SCHEMA {long_schema} CASCADE")
        await admin.close()
