"""The one schema (store/schema.py) on both databases: PostgreSQL databases of its old numbering upgrade to
exactly the schema a new one gets, and abort votes, once an INTEGER[] there and JSON text on SQLite, read the
same from every old database."""

from __future__ import annotations

import uuid
from pathlib import Path

import asyncpg

from bot.service.records import Requests
from bot.service.store import SCHEMA_VERSION, PostgresStore, open_store
from bot.service.store.postgres import with_search_path
from bot.service.store.schema import POSTGRES_LEGACY, TOKENS, render
from tests.service.conftest import postgres_server
from tests.service.old_databases import old_postgres, old_sqlite

BEFORE_ONE_LINE = max(POSTGRES_LEGACY.values())
"""The last version both databases had before the one line (SQLite 8, PostgreSQL 5 in its own numbering)."""


def old_match(kind: str, votes: str) -> list[tuple[str, tuple[object, ...]]]:
    """An active two-seat match whose stored abort votes are `votes` (as that database stored them)."""
    tokens = TOKENS["sqlite" if kind == "sqlite" else "postgresql"]
    return [
        (
            render(
                "INSERT INTO matches (id, game, options, seed, guild_id, channel_id, status, ply, "
                "turn_timeout, deadline, snapshot, rated, abort_votes, created_at, updated_at) "
                "VALUES (1, 'paint', '{}', 7, 5, 9, 'active', 0, 60, NULL, '{}', {FALSE}, "
                f"'{votes}', 1, 1)",
                tokens,
            ),
            (),
        ),
        *(
            (
                "INSERT INTO match_seats (match_id, seat, user_id, ai_level, player_key) "
                f"VALUES (1, {seat}, {11 + seat}, NULL, 'user:{11 + seat}')",
                (),
            )
            for seat in (0, 1)
        ),
    ]


async def votes_after_upgrade(url: str) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """The match's abort votes as the upgraded store reads them, and after one more vote is merged."""
    store = await open_store(url)
    try:
        match = await store.get_match(1)
        assert match is not None
        merged = await store.update_requests(1, 0, lambda r: Requests((*r.abort_votes, 1, 0, 1), r.takeback))
        return match.abort_votes, None if merged is None else merged.abort_votes
    finally:
        await store.close()


async def test_sqlite_abort_votes_read_the_same_after_the_upgrade(db_path: Path) -> None:
    await old_sqlite(db_path, BEFORE_ONE_LINE, old_match("sqlite", "[1,0]"))
    assert await votes_after_upgrade(f"sqlite:///{db_path}") == ((1, 0), (1, 0))


async def test_postgresql_abort_votes_become_json_and_read_the_same(postgres_url: str) -> None:
    await old_postgres(postgres_url, BEFORE_ONE_LINE, old_match("postgresql", "{1,0}"))
    assert await votes_after_upgrade(postgres_url) == ((1, 0), (1, 0))
    conn = await asyncpg.connect(postgres_url)
    try:
        kind = await conn.fetchval(
            "SELECT data_type FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = 'matches' AND column_name = 'abort_votes'"
        )
        assert kind == "jsonb"
        assert await conn.fetchval("SELECT abort_votes::text FROM matches WHERE id = 1") == "[1, 0]"
    finally:
        await conn.close()


async def shape(url: str) -> dict[str, list[tuple[object, ...]]]:
    """A PostgreSQL schema's tables, columns, indexes and triggers, as comparable values."""
    conn = await asyncpg.connect(url)
    try:
        schema = await conn.fetchval("SELECT current_schema()")
        columns = await conn.fetch(
            "SELECT table_name, column_name, ordinal_position, data_type, is_nullable, column_default "
            "FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position",
            schema,
        )
        indexes = await conn.fetch(
            "SELECT indexname, replace(indexdef, $1 || '.', '') FROM pg_indexes WHERE schemaname = $1 "
            "ORDER BY indexname",
            schema,
        )
        triggers = await conn.fetch(
            "SELECT trigger_name, event_manipulation, event_object_table, action_condition, action_statement "
            "FROM information_schema.triggers WHERE trigger_schema = $1 ORDER BY 1, 2, 3",
            schema,
        )
        return {
            "columns": [tuple(r) for r in columns],
            "indexes": [tuple(r) for r in indexes],
            "triggers": [tuple(r) for r in triggers],
        }
    finally:
        await conn.close()


async def test_postgresql_databases_of_every_old_version_get_the_new_schema(postgres_url: str) -> None:
    fresh = await PostgresStore.open(postgres_url)
    await fresh.close()
    wanted = await shape(postgres_url)
    assert wanted["triggers"], "the wake-up and change triggers are part of the schema"
    server = postgres_server()
    admin = await asyncpg.connect(server)
    try:
        for legacy, version in sorted(POSTGRES_LEGACY.items()):
            schema = f"test_{uuid.uuid4().hex[:16]}"
            await admin.execute(f"CREATE SCHEMA {schema}")
            try:
                url = with_search_path(server, schema)
                await old_postgres(url, version, [])
                conn = await asyncpg.connect(url)
                assert await conn.fetchval("SELECT version FROM schema_version") == legacy
                await conn.close()
                store = await PostgresStore.open(url)
                try:
                    assert await store.schema_version() == SCHEMA_VERSION
                finally:
                    await store.close()
                assert await shape(url) == wanted, f"upgraded from version {legacy} of the old numbering"
            finally:
                await admin.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await admin.close()
