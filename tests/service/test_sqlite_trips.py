"""SQLite's write transactions in one trip to the writer connection's thread (`SqliteStore._atomic`): BEGIN,
the statements and COMMIT run there together, so a move costs the event loop one wake-up for its write, not
one per statement; and everything a transaction promised still holds: it commits before the answer comes
back, a failure anywhere in it keeps nothing of it, stale writes are refused, and the writer is never left
inside a transaction."""

from __future__ import annotations

import asyncio
import sqlite3
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.service import Service
from bot.service.records import BoardPosted, MoveRecord, PostedMessage
from bot.service.store import SqliteStore
from bot.service.store.sql import Tx
from tests.service.conftest import ServiceFactory
from tests.service.helpers import legal, start_match

pytestmark = pytest.mark.sqlite_only


@contextmanager
def trips(db: aiosqlite.Connection) -> Iterator[Counter[str]]:
    """Count the calls queued to `db`'s thread while the block runs, by the name of the function queued."""
    counted: Counter[str] = Counter()
    queue = db._execute

    async def counting(fn: Any, *args: Any, **kwargs: Any) -> Any:
        counted[getattr(fn, "__name__", repr(fn))] += 1
        return await queue(fn, *args, **kwargs)

    db._execute = counting  # type: ignore[method-assign]
    try:
        yield counted
    finally:
        del db._execute


async def test_a_move_and_its_board_are_each_one_trip_to_the_writer(
    open_service: ServiceFactory, db_path: Path
) -> None:
    service = await open_service()
    store = service.store
    assert isinstance(store, SqliteStore)
    match = await start_match(service, "paintscape")
    user = match.seats[match.to_move or 0].user_id
    move = (await legal(service, match.id))[0]
    with trips(store._writer) as written:
        played = await service.matches.play(match.id, user, move)
    assert sum(written.values()) == 1, written  # before: BEGIN, UPDATE, INSERT, COMMIT
    with trips(store._writer) as written:
        assert await store.swap_board_message(match.id, PostedMessage(5, 50), 1.0) is None
        assert await store.swap_board_message(match.id, PostedMessage(5, 60), 2.0) == PostedMessage(5, 50)
    assert sum(written.values()) == 2, written  # before: five each
    with trips(store._writer) as written:
        posted = await store.post_board(match.id, PostedMessage(5, 70), 3.0)
    assert posted == BoardPosted(PostedMessage(5, 60), ())
    assert sum(written.values()) == 1, written  # the swap and the open requests, read together
    # Committed before the answer: another connection sees it at once.
    with sqlite3.connect(db_path) as other:
        ((ply,),) = other.execute("SELECT ply FROM matches WHERE id = ?", (match.id,)).fetchall()
        ((message,),) = other.execute(
            "SELECT message_id FROM board_messages WHERE match_id = ?", (match.id,)
        ).fetchall()
    other.close()
    assert (ply, message) == (played.match.ply, 70)


async def test_a_stale_move_is_refused_in_its_one_trip(service: Service) -> None:
    match = await start_match(service, "paintscape")
    moves = [MoveRecord(ply=match.ply, seat=0, notation="x", forced=False, at=1.0)]
    assert not await service.store.append_moves(match.id, match.ply + 1, moves, "s", None, 1.0)
    assert await service.store.moves(match.id) == []
    assert await service.store.append_moves(match.id, match.ply, moves, "s", None, 1.0)
    assert not await service.store.append_moves(match.id, match.ply, moves, "t", None, 1.0)
    assert [m.notation for m in await service.store.moves(match.id)] == ["x"]


async def test_a_failure_inside_the_transaction_keeps_nothing_of_it(service: Service) -> None:
    store = service.store
    assert isinstance(store, SqliteStore)
    await store.put_meta("kept", "before")

    async def half_done(tx: Tx) -> None:
        await tx.run("UPDATE meta SET value = ? WHERE key = ?", "after", "kept")
        await tx.run("INSERT INTO meta (key, value) VALUES (?, ?)", "kept", "twice")  # the key is taken

    with pytest.raises(sqlite3.IntegrityError):
        await store._atomic(half_done)
    assert not store._writer.in_transaction
    assert await store.get_meta("kept") == "before"

    async def raises(tx: Tx) -> None:
        await tx.run("UPDATE meta SET value = ? WHERE key = ?", "after", "kept")
        raise LookupError("the work's own error")

    with pytest.raises(LookupError, match="own error"):
        await store._atomic(raises)
    assert not store._writer.in_transaction
    assert await store.get_meta("kept") == "before"
    await store.put_meta("kept", "later")  # the writer goes on
    assert await store.get_meta("kept") == "later"


async def test_work_that_awaits_anything_but_its_statements_is_refused_and_rolled_back(
    service: Service,
) -> None:
    store = service.store
    assert isinstance(store, SqliteStore)
    await store.put_meta("kept", "before")

    async def waits(tx: Tx) -> None:
        await tx.run("UPDATE meta SET value = ? WHERE key = ?", "after", "kept")
        await asyncio.sleep(0)  # would run the event loop's work on the database thread

    with pytest.raises(RuntimeError, match="awaited something other than its statements"):
        await store._atomic(waits)
    assert not store._writer.in_transaction
    assert await store.get_meta("kept") == "before"


async def test_the_transaction_reads_its_own_writes_and_returns_what_the_work_does(service: Service) -> None:
    store = service.store
    assert isinstance(store, SqliteStore)

    async def counts(tx: Tx) -> tuple[int, str]:
        await tx.run_many("INSERT INTO meta (key, value) VALUES (?, ?)", [("a", "1"), ("b", "2")])
        changed = await tx.run("UPDATE meta SET value = value || '!' WHERE key IN ('a', 'b')")
        rows = await tx.fetch("SELECT group_concat(value, ',') AS v FROM meta WHERE key IN ('a', 'b')")
        return changed, str(rows[0]["v"])

    assert await store._atomic(counts) == (2, "1!,2!")


async def test_moves_played_at_once_in_many_matches_all_land_in_order(service: Service) -> None:
    """Transactions queued together run one after the other, each whole: none sees another half done."""
    matches = [await start_match(service, "paintscape", channel=200 + i) for i in range(12)]

    async def play_some(match_id: int) -> None:
        for _ in range(4):
            view = await service.matches.get(match_id)
            assert view.to_move is not None
            move = (await legal(service, match_id))[0]
            await service.matches.play(match_id, view.seats[view.to_move].user_id, move)

    await asyncio.gather(*(play_some(m.id) for m in matches))
    for match in matches:
        stored = await service.store.moves(match.id)
        view = await service.matches.get(match.id)
        assert [m.ply for m in stored] == list(range(view.ply)) and view.ply >= 4
