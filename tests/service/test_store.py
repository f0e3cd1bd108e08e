"""The stores: SQLite schema versioning, pragmas, URLs; on both stores (one implementation, two dialects):
foreign keys, meta values, shard filters, stale-checked and merged writes, and PostgreSQL's hand-tuned writes
storing what the written-once ones store."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import aiosqlite
import pytest

from bot.service import Service
from bot.service.records import (
    Finish,
    MatchStatus,
    MoveRecord,
    NewMatch,
    Player,
    PostedMessage,
    Requests,
    TakebackRequest,
)
from bot.service.shards import Shards
from bot.service.store import (
    SCHEMA_VERSION,
    PostgresStore,
    SqliteStore,
    StoreUnavailable,
    open_store,
    sqlite_path,
)
from bot.service.store.sql import SqlStore
from games.base import Outcome, Termination
from tests.service.helpers import ALICE, start_match


async def test_a_new_file_is_migrated_to_the_current_version_in_wal_mode(db_path: Path) -> None:
    store = await SqliteStore.open(str(db_path))
    await store.close()
    async with aiosqlite.connect(db_path) as db:
        async with db.execute("PRAGMA user_version") as cursor:
            assert (await cursor.fetchone()) == (SCHEMA_VERSION,)
        async with db.execute("PRAGMA journal_mode") as cursor:
            assert (await cursor.fetchone()) == ("wal",)


async def test_reopening_does_not_migrate_twice(db_path: Path) -> None:
    for _ in range(2):
        store = await SqliteStore.open(str(db_path))
        await store.close()


async def test_a_newer_schema_is_refused(db_path: Path) -> None:
    async with aiosqlite.connect(db_path) as db:
        await db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    with pytest.raises(StoreUnavailable, match="newer"):
        await SqliteStore.open(str(db_path))


async def test_foreign_keys_are_enforced(store_url: str) -> None:
    store = await open_store(store_url)
    assert isinstance(store, SqlStore)
    try:
        with pytest.raises(Exception, match=r"(?i)foreign key"):
            async with store._transaction() as tx:
                await tx.run(
                    "INSERT INTO moves (match_id, ply, seat, notation, forced, at) "
                    "VALUES (?, 0, 0, 'x', ?, 0)",
                    42,
                    False,
                )
    finally:
        await store.close()


async def test_meta_values_are_stored_and_replaced(store_url: str) -> None:
    store = await open_store(store_url)
    try:
        assert await store.get_meta("commands") is None
        await store.put_meta("commands", "a")
        await store.put_meta("commands", "b")
        assert await store.get_meta("commands") == "b"
    finally:
        await store.close()


async def test_meta_values_are_listed_by_prefix_and_deleted_while_unchanged(store_url: str) -> None:
    store = await open_store(store_url)
    try:
        for key, value in (("launch:1", "a"), ("launch:2", "b"), ("other", "c"), ("launch", "d")):
            await store.put_meta(key, value)
        assert await store.meta_with_prefix("launch:") == {"launch:1": "a", "launch:2": "b"}
        assert not await store.delete_meta("launch:1", "written again since")
        assert await store.delete_meta("launch:1", "a")
        assert await store.delete_meta("launch:2")
        assert not await store.delete_meta("launch:2")
        assert await store.meta_with_prefix("launch:") == {}
        assert await store.get_meta("other") == "c"
    finally:
        await store.close()


async def test_the_shard_filter_keeps_other_guilds_out(store_url: str) -> None:
    store = await open_store(store_url)
    try:
        mine, theirs = 4 << 22, 5 << 22
        await store.insert_challenge("race", {}, mine, 1, 1, 2, 0.0, 10.0)
        await store.insert_challenge("race", {}, theirs, 2, 1, 2, 0.0, 5.0)
        shards = Shards(2, frozenset({0}))
        assert [c.guild_id for c in await store.due_challenges(100.0, shards=shards)] == [mine]
        assert await store.next_challenge_expiry(shards=shards) == 10.0
        assert await store.next_challenge_expiry() == 5.0
    finally:
        await store.close()


def new_match(channel_id: int) -> NewMatch:
    return NewMatch(
        "race", {"n": 1}, 3, 7, channel_id, (Player(0, 11), Player(1, 12)), 60.0, 70.0, "s0", True, 1.0
    )


async def test_the_hand_tuned_postgresql_writes_store_what_the_written_once_ones_do(
    postgres_url: str,
) -> None:
    """PostgreSQL's single-statement moves, takebacks and endings against `SqlStore`'s transactions, on one
    database: every column of the match, its seats and its moves end the same."""
    store = await PostgresStore.open(postgres_url)
    won = Finish(MatchStatus.FINISHED, Outcome.win(1, 2, Termination.RESIGNATION), 9.0)
    moves = [MoveRecord(ply=0, seat=0, notation="a", forced=False, at=2.0)]
    moves.append(MoveRecord(ply=1, seat=1, notation="b", forced=True, at=2.0))
    ended = []
    try:
        for channel, writes in ((1, SqlStore), (2, PostgresStore)):
            match_id = (await store.insert_match(new_match(channel))).id
            assert await writes.append_moves(store, match_id, 0, moves, "s2", 80.0, 2.0)
            assert not await writes.append_moves(store, match_id, 0, moves, "s2", 80.0, 2.0)  # stale
            assert await store.update_requests(match_id, 2, lambda r: Requests((1,), None))
            assert await writes.rewind_match(store, match_id, 2, 1, "s1", 90.0, 3.0)
            assert await store.update_requests(match_id, 1, lambda r: Requests((0, 1), None))
            assert not await writes.finish_match(store, match_id, 2, won)  # stale
            last = [MoveRecord(ply=1, seat=1, notation="c", forced=False, at=4.0)]
            assert await writes.append_moves(store, match_id, 1, last, "s2", None, 4.0, won)
            match = await store.get_match(match_id)
            assert match is not None and match.status is MatchStatus.FINISHED
            ended.append((replace(match, id=0, channel_id=0), await store.moves(match_id)))
            other = (await store.insert_match(new_match(channel + 10))).id
            assert await store.update_requests(other, 0, lambda r: Requests((0,), None))
            assert await writes.finish_match(store, other, 0, won)
            match = await store.get_match(other)
            assert match is not None
            ended.append((replace(match, id=0, channel_id=0), await store.moves(other)))
    finally:
        await store.close()
    assert ended[0] == ended[2] and ended[1] == ended[3]


async def test_open_store_picks_sqlite_by_url(tmp_path: Path) -> None:
    store = await open_store("sqlite:///:memory:")
    assert isinstance(store, SqliteStore)
    await store.close()
    target = tmp_path / "sub" / "x.sqlite3"
    store = await open_store(f"sqlite:///{target}")
    await store.close()
    assert target.exists()


@pytest.mark.parametrize("url", ["sqlite:///", "mysql://x"])
async def test_unknown_urls_are_refused_with_a_hint(url: str) -> None:
    with pytest.raises(ValueError, match="sqlite:///"):
        await open_store(url)


def test_sqlite_path_keeps_relative_and_absolute_paths() -> None:
    assert sqlite_path("sqlite:///data/tessera.sqlite3") == "data/tessera.sqlite3"
    assert sqlite_path("sqlite:////abs/t.db") == "/abs/t.db"
    assert sqlite_path("sqlite:///:memory:") == ":memory:"


async def test_background_checkpoints_keep_the_wal_from_growing(db_path: Path) -> None:
    """Writers and readers keep going during checkpoints; each checkpoint still completes, so the WAL file
    starts over instead of growing (2400 commits without that would make a WAL of many megabytes)."""
    from bot.service.records import GuildSettings

    store = await SqliteStore.open(str(db_path))
    store.CHECKPOINT_EVERY = 50
    wal = Path(f"{db_path}-wal")
    sizes = []

    async def writer(worker: int, round_: int) -> None:
        for guild in range(100):
            row = GuildSettings(worker * 1000 + guild, 60.0 + round_, False, tuple(range(50)))
            await store.put_guild_settings(row)
            await store.get_guild_settings(guild)

    try:
        for round_ in range(12):
            await asyncio.gather(*(writer(worker, round_) for worker in range(4)))
            if store._checkpoint_task is not None:
                await store._checkpoint_task
            sizes.append(wal.stat().st_size)
    finally:
        await store.close()
    # 4,800 commits of about one 4 KiB page each: without checkpoints the WAL would pass 19 MB. How far it
    # gets between two checkpoints depends on scheduling (a busy machine delays the background task), so
    # the bound leaves room for that and still fails if checkpoints stopped working.
    assert max(sizes) < 4_000_000, sizes


async def test_the_wal_is_checkpointed_in_the_background(db_path: Path) -> None:
    from bot.service.records import GuildSettings

    store = await SqliteStore.open(str(db_path))
    store.CHECKPOINT_EVERY = 5
    try:
        for guild in range(12):
            await store.put_guild_settings(GuildSettings(guild, 60.0, False, ()))
        task = store._checkpoint_task
        assert task is not None
        await task
        assert (await store.get_guild_settings(11)) == GuildSettings(11, 60.0, False, ())
    finally:
        await store.close()
    async with aiosqlite.connect(db_path) as db:
        assert list(await db.execute_fetchall("SELECT COUNT(*) FROM guild_settings")) == [(12,)]


async def test_sqlite_listen_returns_at_once(db_path: Path) -> None:
    """One process on SQLite: its own writes tell its clock, so there is nothing to listen for."""
    store = await SqliteStore.open(str(db_path))
    try:
        woken: list[int] = []
        await asyncio.wait_for(store.listen(lambda: woken.append(1)), 60)  # a limit only a hang reaches
        assert woken == []
    finally:
        await store.close()


async def test_requests_change_only_at_the_expected_ply_and_merge(service: Service) -> None:
    """update_requests hands the change what is stored now (not what its caller read), stores the votes
    once each in the order they came (the first seat started the vote), and refuses an old ply."""
    match = await start_match(service)
    store = service.store
    votes = await store.update_requests(match.id, 0, lambda now: replace(now, abort_votes=(1,)))
    assert votes == Requests((1,), None)
    request = TakebackRequest(0, ALICE, 0)
    both = await store.update_requests(
        match.id, 0, lambda now: replace(now, abort_votes=(*now.abort_votes, 0, 1), takeback=request)
    )
    assert both == Requests((1, 0), request)
    row = await store.get_match(match.id)
    assert row is not None and (row.abort_votes, row.takeback) == ((1, 0), request)
    assert await store.update_requests(match.id, 1, lambda now: Requests()) is None
    await service.matches.play(match.id, ALICE, "1")
    row = await store.get_match(match.id)
    assert row is not None and (row.abort_votes, row.takeback) == ((), None), "a move clears them"


def test_a_dialect_must_supply_its_connection_methods() -> None:
    """The written-once store is abstract: a dialect that forgets how to read, write or recognise a taken
    channel cannot be made (instead of failing on the first query)."""
    from bot.service.store.sql import SqlStore

    class Incomplete(SqlStore):
        KIND = "sqlite"

    with pytest.raises(TypeError, match=r"_channel_taken.*_fetch.*_transaction"):
        Incomplete()  # type: ignore[abstract]


async def test_a_board_swap_keeps_the_newest_message_and_says_which_one_is_superseded(store_url: str) -> None:
    """`swap_board_message` (one write transaction, run whole on SQLite's writer thread): the newest board
    is kept; the answer is the board this one supersedes, or this one itself when a newer one is kept."""
    store = await open_store(store_url)
    assert isinstance(store, SqlStore)
    try:
        match_id = (await store.insert_match(new_match(300))).id
        first, second, third = PostedMessage(5, 50), PostedMessage(5, 60), PostedMessage(6, 70)
        assert await store.swap_board_message(match_id, first, 1.0) is None
        assert await store.swap_board_message(match_id, third, 2.0) == first
        assert await store.swap_board_message(match_id, second, 3.0) == second  # older: superseded at once
        assert await store.swap_board_message(match_id, third, 4.0) is None  # the same board again
        assert await store.get_board_message(match_id) == third
        swaps = [store.swap_board_message(match_id, PostedMessage(7, 100 + n), 5.0) for n in range(6)]
        superseded = await asyncio.gather(*swaps)
        assert await store.get_board_message(match_id) == PostedMessage(7, 105)
        # Every board but the newest is answered as superseded exactly once (by itself or by its successor).
        assert sorted(p.message_id for p in superseded if p is not None) == [70, 100, 101, 102, 103, 104]
    finally:
        await store.close()
