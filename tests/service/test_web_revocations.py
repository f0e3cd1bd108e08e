"""The store's side of the web board's sessions (bot/web/sessions.py) and the established ratings' index, on
both databases: revocations are kept until they expire and swept after, a one-time value is taken once, and
a database of the previous version gets the table and the index on upgrade, which the global leaderboard's
query uses."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg

from bot.service.ratings import PROVISIONAL_SIGMA
from bot.service.store import SCHEMA_VERSION, PostgresStore, open_store
from bot.service.store.schema import ESTABLISHED, ESTABLISHED_SIGMA, GUILD_ESTABLISHED, MIGRATIONS
from tests.service.old_databases import old_postgres, old_sqlite

GUILD_LEADERBOARD = (
    f"SELECT game, player_key, mu, sigma, played FROM guild_ratings WHERE guild_id = 1 AND game = 'paint' "
    f"AND {GUILD_ESTABLISHED} ORDER BY mu DESC, player_key DESC LIMIT 10"
)
LEADERBOARD = (
    f"SELECT game, player_key, mu, sigma, played FROM ratings WHERE game = 'paint' AND {ESTABLISHED} "
    "ORDER BY mu DESC, player_key DESC LIMIT 10"
)


async def test_revocations_are_kept_until_they_expire(store_url: str) -> None:
    store = await open_store(store_url)
    try:
        await store.revoke_web("session:a", 100.0, 200.0)
        await store.revoke_web("user:7", 150.0, 300.0)
        assert await store.web_revoked(["session:a", "user:7", "session:b"], 160.0) == {
            "session:a": 100.0,
            "user:7": 150.0,
        }
        await store.revoke_web("user:7", 170.0, 320.0)  # a later "log out everywhere" replaces it
        assert await store.web_revoked(["user:7"], 180.0) == {"user:7": 170.0}
        assert await store.web_revoked(["session:a"], 200.0) == {}  # expired: no longer matters
        await store.revoke_web("session:c", 250.0, 400.0)  # each revocation sweeps the expired rows
        assert await store.web_revoked(["session:a", "user:7", "session:c"], 0.0) == {
            "user:7": 170.0,
            "session:c": 250.0,
        }
        assert await store.web_revoked([], 0.0) == {}
    finally:
        await store.close()


async def test_a_one_time_value_is_taken_once(store_url: str) -> None:
    store = await open_store(store_url)
    try:
        assert await store.consume_web("state:x", 1.0, 600.0)
        assert not await store.consume_web("state:x", 2.0, 600.0)
        assert await store.consume_web("state:y", 2.0, 600.0)
    finally:
        await store.close()


REVOCATIONS_STEP = next(i for i, m in enumerate(MIGRATIONS) if any("web_revocations" in str(s) for s in m))
"""The migration that adds web_revocations and the leaderboards' indexes (later ones may follow it)."""


def test_the_index_predicate_is_the_querys() -> None:
    """The leaderboard's query repeats the partial index's predicate word for word (else neither database
    proves the index covers it), with the service's own threshold."""
    step = MIGRATIONS[REVOCATIONS_STEP]
    assert ESTABLISHED in str(step[-2]) and GUILD_ESTABLISHED in str(step[-1])
    assert ESTABLISHED_SIGMA == PROVISIONAL_SIGMA


RATING_ROWS = [
    (
        "INSERT INTO ratings (game, player_key, mu, sigma, updated_at, played) VALUES "
        f"('paint', 'user:{n}', {20 + n % 7}, {2.0 if n % 10 == 0 else 8.0}, 0, 3)",
        (),
    )
    for n in range(1, 301)
] + [
    (
        "INSERT INTO guild_ratings (guild_id, game, player_key, played, mu, sigma) VALUES "
        f"(1, 'paint', 'user:{n}', 3, {20 + n % 7}, {2.0 if n % 10 == 0 else 8.0})",
        (),
    )
    for n in range(1, 301)
]


async def test_sqlite_upgrade_adds_the_table_and_the_index_the_leaderboard_uses(db_path: Path) -> None:
    await old_sqlite(db_path, REVOCATIONS_STEP, RATING_ROWS)
    store = await open_store(f"sqlite:///{db_path}")
    try:
        assert await store.consume_web("state:z", 1.0, 2.0)
        board = await store.leaderboard("paint", None, 10, PROVISIONAL_SIGMA)
        assert len(board) == 10 and all(r.sigma <= PROVISIONAL_SIGMA for r in board)
        assert [r.mu for r in board] == sorted((r.mu for r in board), reverse=True)
    finally:
        await store.close()
    with sqlite3.connect(db_path) as db:
        plan = " ".join(str(row) for row in db.execute("EXPLAIN QUERY PLAN " + LEADERBOARD))
        plan += " ".join(str(row) for row in db.execute("EXPLAIN QUERY PLAN " + GUILD_LEADERBOARD))
        version = db.execute("PRAGMA user_version").fetchone()[0]
    db.close()
    assert version == SCHEMA_VERSION
    assert "ratings_established" in plan and "guild_ratings_established" in plan, plan


async def test_postgresql_upgrade_adds_the_table_and_the_index_the_leaderboard_uses(
    postgres_url: str,
) -> None:
    await old_postgres(postgres_url, REVOCATIONS_STEP, RATING_ROWS)
    store = await PostgresStore.open(postgres_url)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        assert await store.consume_web("state:z", 1.0, 2.0)
        board = await store.leaderboard("paint", None, 10, PROVISIONAL_SIGMA)
        assert len(board) == 10 and all(r.sigma <= PROVISIONAL_SIGMA for r in board)
    finally:
        await store.close()
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute("ANALYZE ratings")
        await conn.execute("SET enable_seqscan = off")  # a small table: ask whether the index can serve it
        await conn.execute("SET enable_bitmapscan = off")
        await conn.execute("ANALYZE guild_ratings")
        plan = "\n".join(r[0] for r in await conn.fetch("EXPLAIN " + LEADERBOARD))
        plan += "\n".join(r[0] for r in await conn.fetch("EXPLAIN " + GUILD_LEADERBOARD))
    finally:
        await conn.close()
    assert "ratings_established" in plan and "guild_ratings_established" in plan, plan
