"""Start-up does not read the whole SQLite file after a clean shutdown: the full check (quick_check) runs in
the background then, and at start only after an unclean shutdown; damage it finds in the background fails
the health check and gets the file refused at the next start."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

import pytest

from bot.health import HealthServer
from bot.service import Service
from bot.service.store import PostgresStore, SqliteStore, StoreUnavailable
from bot.service.store.sqlite import CLEAN, RUNNING, SHUTDOWN_KEY
from tests.service.old_databases import postgres_plan, sqlite_plan
from tests.service.tinygames import registry

pytestmark = pytest.mark.sqlite_only

PAGE = 4096


async def tessera_file(path: Path) -> None:
    """A Tessera database, cleanly shut down, with a table of about 150 pages after the schema's."""
    store = await SqliteStore.open(str(path))
    await store.close()
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE filler (x BLOB)")
        db.executemany("INSERT INTO filler VALUES (randomblob(300))", [()] * 2000)
    db.close()


def shutdown_state(path: Path) -> str:
    with sqlite3.connect(path) as db:
        row = db.execute("SELECT value FROM file_state WHERE key = ?", (SHUTDOWN_KEY,)).fetchone()
    db.close()
    return str(row[0])


def damage_the_middle(path: Path) -> None:
    """Garbage over pages in the middle of the filler table: no header, schema or first row shows it."""
    pages = path.stat().st_size // PAGE
    with path.open("r+b") as handle:
        handle.seek((pages * 2 // 3) * PAGE)
        handle.write(b"\xa5" * 3 * PAGE)


async def test_a_clean_shutdown_lets_the_next_start_skip_the_full_check(db_path: Path) -> None:
    await tessera_file(db_path)
    assert shutdown_state(db_path) == CLEAN
    store = await SqliteStore.open(str(db_path))
    try:
        assert not store.fully_checked, "after a clean shutdown start-up does not read every page"
        assert shutdown_state(db_path) == RUNNING, "an open file says so, so a crash is noticed"
        await store.full_check()
        assert store.fully_checked and store.damage is None
    finally:
        await store.close()
    assert shutdown_state(db_path) == CLEAN


async def test_damage_found_in_the_background_fails_health_and_the_next_start(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    await tessera_file(db_path)
    damage_the_middle(db_path)
    service = await Service.open(f"sqlite:///{db_path}", registry=registry)  # the cheap check passes
    try:
        assert isinstance(service.store, SqliteStore) and not service.store.fully_checked
        health = HealthServer(gateway_connected=lambda: True, service=lambda: service, ai=lambda: None)
        assert await health.store_answers()
        with caplog.at_level(logging.CRITICAL):
            await service.check_store()
        assert service.damage is not None and "damaged" in service.damage and str(db_path) in service.damage
        [record] = [r for r in caplog.records if r.levelno == logging.CRITICAL]
        assert getattr(record, "kind", None) == "database_damaged"  # counted in tessera_errors_total
        assert not await health.store_answers(), "a damaged database fails the health check"
    finally:
        await service.close()
    assert shutdown_state(db_path) == RUNNING, "a damaged file is never marked cleanly shut down"
    with pytest.raises(StoreUnavailable, match=r"damaged.*restore it from a backup"):
        await Service.open(f"sqlite:///{db_path}", registry=registry)


async def test_after_an_unclean_shutdown_start_up_checks_every_page(db_path: Path) -> None:
    await tessera_file(db_path)
    store = await SqliteStore.open(str(db_path))
    await store.close()
    with sqlite3.connect(db_path) as db:  # what a crash leaves: the state the open wrote
        db.execute("UPDATE file_state SET value = ? WHERE key = ?", (RUNNING, SHUTDOWN_KEY))
    db.close()
    store = await SqliteStore.open(str(db_path))
    assert store.fully_checked
    await store.close()
    damage_the_middle(db_path)
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE file_state SET value = ? WHERE key = ?", (RUNNING, SHUTDOWN_KEY))
    db.close()
    with pytest.raises(StoreUnavailable, match="damaged"):
        await SqliteStore.open(str(db_path))


async def test_a_truncated_file_is_refused_at_once_even_after_a_clean_shutdown(db_path: Path) -> None:
    await tessera_file(db_path)
    with db_path.open("r+b") as handle:
        handle.truncate(db_path.stat().st_size * 6 // 10)
    with pytest.raises(StoreUnavailable, match="damaged"):
        await SqliteStore.open(str(db_path))


async def test_a_garbled_first_page_of_a_table_is_refused_at_once(db_path: Path) -> None:
    await tessera_file(db_path)
    with sqlite3.connect(db_path) as db:
        root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'filler'").fetchone()[0]
    db.close()
    with db_path.open("r+b") as handle:
        handle.seek((root - 1) * PAGE)
        handle.write(b"\xa5" * PAGE)
    with pytest.raises(StoreUnavailable, match=r"damaged|not a database"):
        await SqliteStore.open(str(db_path))


async def test_closing_during_the_background_check_stops_it_and_keeps_it_due(db_path: Path) -> None:
    await tessera_file(db_path)
    store = await SqliteStore.open(str(db_path))
    checking = asyncio.create_task(store.full_check())
    await asyncio.sleep(0)  # the check's thread has started
    await store.close()  # interrupts it, and waits for its thread
    await checking  # no damage was found, and nothing raises
    assert store.damage is None
    assert shutdown_state(db_path) == CLEAN


async def test_start_up_finds_the_matches_not_over_from_an_index(db_path: Path) -> None:
    """Start-up loads every match that is not over: found from a small index, not a scan of every match."""
    store = await SqliteStore.open(str(db_path))
    statements: list[str] = []
    try:
        await store._reader.set_trace_callback(statements.append)
        assert await store.unsettled_match_ids() == []
    finally:
        await store.close()
    [query] = statements
    plan = sqlite_plan(db_path, query)
    assert "INDEX matches_unsettled" in plan, plan


async def test_start_up_finds_the_matches_not_over_from_an_index_on_postgresql(postgres_url: str) -> None:
    store = await PostgresStore.open(postgres_url)
    await store.close()
    plan = await postgres_plan(
        postgres_url,
        "SELECT id FROM matches WHERE quarantine IS NULL "
        "AND (status IS NULL OR status NOT IN ('finished', 'aborted')) ORDER BY id",
    )
    assert "matches_unsettled" in plan, plan
