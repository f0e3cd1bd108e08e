"""Databases as an older Tessera left them, for upgrade tests, and query plans that show an index is used.

`old_sqlite` / `old_postgres` apply the store's migrations (schema.py, rendered for each database) up to
`version` by hand, record that version as the store does (a PostgreSQL database below version 9 in the old
numbering it had then, `schema.POSTGRES_LEGACY`), and insert the old rows; opening the store then runs the
later migrations."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg

from bot.service.store.schema import POSTGRES_LEGACY, migrations

Rows = Sequence[tuple[str, tuple[Any, ...]]]
"""(statement, parameters) to run after the migrations: `?` placeholders for SQLite, `$n` for PostgreSQL."""

Migrations = Sequence[Sequence[str]]

SQLITE_MIGRATIONS = migrations("sqlite")
POSTGRES_MIGRATIONS = migrations("postgresql")
LEGACY_NUMBER = {version: legacy for legacy, version in POSTGRES_LEGACY.items()}
"""A schema version -> the number a PostgreSQL database at that schema recorded then (versions 1-3 never
existed there: its first version was version 4 here)."""


def postgres_recorded(version: int) -> int:
    """The number a PostgreSQL database at schema `version` recorded in ``schema_version``."""
    if 0 < version < min(POSTGRES_LEGACY.values()):
        raise ValueError(f"no PostgreSQL database was ever at schema version {version}")
    return LEGACY_NUMBER.get(version, version)


def migration_with(migrations: Migrations, text: str) -> int:
    """The index of the first migration one of whose statements contains `text` (upgrade tests find the
    migration they test by what it does, not by its number)."""
    return next(i for i, statements in enumerate(migrations) if any(text in s for s in statements))


async def old_sqlite(path: Path, version: int, rows: Rows) -> None:
    """A SQLite file at schema `version` holding `rows`."""
    async with aiosqlite.connect(path) as db:
        for migration in SQLITE_MIGRATIONS[:version]:
            for statement in migration:
                await db.execute(statement)
        await db.execute(f"PRAGMA user_version = {version}")
        for statement, parameters in rows:
            await db.execute(statement, parameters)
        await db.commit()


async def old_postgres(url: str, version: int, rows: Rows) -> None:
    """A PostgreSQL schema at `version` holding `rows`."""
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            for migration in POSTGRES_MIGRATIONS[:version]:
                for statement in migration:
                    await conn.execute(statement)
            await conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            await conn.execute("INSERT INTO schema_version VALUES ($1)", postgres_recorded(version))
            for statement, parameters in rows:
                await conn.execute(statement, *parameters)
    finally:
        await conn.close()


def sqlite_plan(path: Path, query: str) -> str:
    """SQLite's query plan of `query` (as the store ran it), its steps joined by " / "."""
    with sqlite3.connect(path) as db:
        plan = " / ".join(row[3] for row in db.execute(f"EXPLAIN QUERY PLAN {query}"))
    db.close()
    return plan


async def postgres_plan(url: str, query: str, *parameters: Any) -> str:
    """PostgreSQL's plan of `query` with sequential scans off (the test tables are tiny: this asks for the
    plan the server would choose for a big one)."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("SET enable_seqscan = off")
        return "\n".join(r[0] for r in await conn.fetch(f"EXPLAIN {query}", *parameters))
    finally:
        await conn.close()
