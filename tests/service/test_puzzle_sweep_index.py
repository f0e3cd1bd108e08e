"""The puzzle sweep's query (store.unmined_matches) reads the finished matches from an index of their own,
on both databases, whether the database is new or upgraded from the version before that index."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.service.store import PostgresStore, SqliteStore
from bot.service.store.sql import SqlStore
from tests.service.old_databases import (
    POSTGRES_MIGRATIONS,
    SQLITE_MIGRATIONS,
    old_postgres,
    old_sqlite,
    postgres_plan,
    sqlite_plan,
)

INDEX = "matches_finished_id"


def _before_index(migrations: list[list[str]]) -> int:
    """The version just before the migration that adds the index."""
    return next(i for i, step in enumerate(migrations) if any(INDEX in s for s in step))


@pytest.mark.sqlite_only
@pytest.mark.parametrize("upgraded", [False, True], ids=["new", "upgraded"])
async def test_the_sqlite_sweep_walks_the_finished_matches_index(db_path: Path, upgraded: bool) -> None:
    if upgraded:
        await old_sqlite(db_path, _before_index(SQLITE_MIGRATIONS), [])
    store = await SqliteStore.open(str(db_path))
    statements: list[str] = []
    try:
        await store._reader.set_trace_callback(statements.append)
        assert await store.unmined_matches(0.0, limit=5) == []
    finally:
        await store.close()
    [query] = [s for s in statements if "puzzle_mined" in s]
    plan = sqlite_plan(db_path, query)
    assert f"SCAN m USING INDEX {INDEX}" in plan and "TEMP B-TREE" not in plan, plan
    with sqlite3.connect(db_path) as db:
        [(count,)] = db.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = ?", (INDEX,)).fetchall()
    db.close()
    assert count == 1


@pytest.mark.parametrize("upgraded", [False, True], ids=["new", "upgraded"])
async def test_the_postgresql_sweep_walks_the_finished_matches_index(
    postgres_url: str, upgraded: bool
) -> None:
    if upgraded:
        await old_postgres(postgres_url, _before_index(POSTGRES_MIGRATIONS), [])
    store = await PostgresStore.open(postgres_url)
    try:
        assert await store.unmined_matches(0.0, limit=5) == []
        query = store._sql(SqlStore.unmined_sql())
    finally:
        await store.close()
    plan = await postgres_plan(postgres_url, query, 0.0, 5)
    assert INDEX in plan and "Seq Scan on matches" not in plan, plan
