"""A full disk (issue 24): a write the database has no room for is `StoreFull`, never a bare driver error;
nothing of it is saved, the store keeps working, and a move says it was not saved (`MoveNotSaved`). SQLite
is filled for real: a test database of 512-byte pages capped at its size (``PRAGMA max_page_count``);
PostgreSQL's "disk full" (SQLSTATE 53100) comes from a trigger, as the server would send it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.service import Service
from bot.service.errors import MoveNotSaved
from bot.service.store import SqliteStore, StoreFull
from tests.service.conftest import ServiceFactory
from tests.service.helpers import legal, start_match


def small_pages(path: Path) -> None:
    """Create the database file with 512-byte pages, so a cap on its size is reached in a few moves."""
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA page_size = 512")
        db.execute("VACUUM")
    db.close()


async def cap_size(store: SqliteStore) -> None:
    """Let the database grow no more than it has (the writer connection's limit, as a full disk would)."""
    writer = store._writer  # the one connection that writes
    pages = (await writer.execute_fetchall("PRAGMA page_count"))[0][0]
    await writer.execute_fetchall(f"PRAGMA max_page_count = {pages}")


async def lift_cap(store: SqliteStore) -> None:
    await store._writer.execute_fetchall("PRAGMA max_page_count = 1073741823")


async def play_until_refused(service: Service, match_id: int, most: int = 200) -> tuple[int, str]:
    """Play the first legal move of whoever is to move until the store refuses one; (that seat's user,
    the move)."""
    for _ in range(most):
        view = await service.matches.get(match_id)
        assert view.to_move is not None, "the game ended before the database was full"
        user, move = view.seats[view.to_move].user_id, (await legal(service, match_id))[0]
        try:
            await service.matches.play(match_id, user, move)
        except MoveNotSaved:
            return user, move
    raise AssertionError(f"{most} moves were saved in a full database")


@pytest.mark.sqlite_only
async def test_a_full_sqlite_database_refuses_a_move_and_saves_nothing_of_it(
    open_service: ServiceFactory, db_path: Path
) -> None:
    small_pages(db_path)
    service = await open_service()
    assert isinstance(service.store, SqliteStore)
    match = await start_match(service, "paintscape")
    await cap_size(service.store)
    user, move = await play_until_refused(service, match.id)

    before = await service.matches.get(match.id)
    with pytest.raises(MoveNotSaved, match="Your move was not saved: the bot's database is full"):
        await service.matches.play(match.id, user, move)
    with pytest.raises(StoreFull, match=f"the database {db_path} is full"):
        await service.store.put_meta("big", "x" * 4000)
    after = await service.matches.get(match.id)
    assert (after.ply, after.snapshot) == (before.ply, before.snapshot)
    assert len(await service.store.moves(match.id)) == before.ply, "nothing of the refused move was kept"

    await lift_cap(service.store)  # room again: the writer was left outside any transaction
    played = await service.matches.play(match.id, user, move)
    assert played.match.ply > before.ply
    assert await service.store.get_meta("big") is None


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
async def test_a_full_postgresql_disk_refuses_a_move(open_service: ServiceFactory, store_url: str) -> None:
    service = await open_service()
    match = await start_match(service)
    conn = await asyncpg.connect(store_url)
    try:
        await conn.execute(
            "CREATE FUNCTION no_room() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            "RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; "
            "END $$"
        )
        await conn.execute("CREATE TRIGGER no_room BEFORE INSERT ON moves EXECUTE FUNCTION no_room()")
        with pytest.raises(MoveNotSaved):
            await service.matches.play(match.id, match.seats[0].user_id, "2")
        assert (await service.matches.get(match.id)).ply == 0
        await conn.execute("DROP TRIGGER no_room ON moves")
    finally:
        await conn.close()
    assert (await service.matches.play(match.id, match.seats[0].user_id, "2")).match.ply == 1
