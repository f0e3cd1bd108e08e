"""A server's leaderboard walks an index in rating order and stops at its length (each server's row keeps a
copy of the player's rating): the copies follow every rating change, in every server of the player, and an
older database gets them when it is upgraded, on both stores."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.service import Service
from bot.service.ratings import PROVISIONAL_SIGMA
from bot.service.store import MatchStore, PostgresStore, SqliteStore
from bot.service.store.postgres_schema import MIGRATIONS as POSTGRES_MIGRATIONS
from bot.service.store.sqlite_schema import MIGRATIONS as SQLITE_MIGRATIONS
from tests.service.helpers import ALICE, BOB, CAROL, GUILD
from tests.service.test_ratings import win_race

OTHER_GUILD = GUILD + 1
EVERYONE = 1e9
"""A `max_sigma` that ranks provisional ratings too."""


async def test_a_rating_change_reaches_every_server_board_of_the_player(service: Service) -> None:
    await win_race(service, ALICE, BOB, 1)
    await win_race(service, ALICE, CAROL, 2, guild=OTHER_GUILD)
    await win_race(service, BOB, ALICE, 3)  # in GUILD: Alice's rating changes in OTHER_GUILD's board too
    ratings = await service.store.get_ratings("race", ["user:1", "user:2", "user:3"])
    for guild, players in ((GUILD, {"user:1", "user:2"}), (OTHER_GUILD, {"user:1", "user:3"})):
        board = await service.store.leaderboard("race", guild, 10, EVERYONE)
        assert {r.player_key for r in board} == players
        for row in board:
            everywhere = ratings[row.player_key]
            assert (row.mu, row.sigma) == (everywhere.mu, everywhere.sigma), (guild, row)
        assert [r.mu for r in board] == sorted((r.mu for r in board), reverse=True)
    here = {r.player_key: r.played for r in await service.store.leaderboard("race", GUILD, 10, EVERYONE)}
    assert here == {"user:1": 2, "user:2": 2}, "each server counts its own matches"


OLD_RATINGS = [
    # (player_key, mu, sigma, played): ranked by mu; Carol is provisional, the bot is the bot.
    ("user:1", 27.0, 3.0, 25),
    ("user:2", 30.0, 0.5, 30),
    ("user:3", 35.0, 6.0, 3),
    ("ai:hard", 40.0, 1.0, 50),
]


def before_the_guild_board_migration(migrations: tuple[tuple[str, ...], ...]) -> int:
    return next(
        i for i, statements in enumerate(migrations) if any("guild_ratings_board" in s for s in statements)
    )


async def check_upgraded_boards(store: MatchStore) -> None:
    board = await store.leaderboard("race", GUILD, 10, PROVISIONAL_SIGMA)
    assert [(r.player_key, r.mu, r.sigma, r.played) for r in board] == [
        ("user:2", 30.0, 0.5, 30),
        ("user:1", 27.0, 3.0, 25),
    ]
    assert [r.player_key for r in await store.leaderboard("race", OTHER_GUILD, 10, PROVISIONAL_SIGMA)] == [
        "user:1"
    ]


@pytest.mark.sqlite_only
async def test_an_old_sqlite_database_gets_index_driven_server_boards(db_path: Path) -> None:
    old = before_the_guild_board_migration(SQLITE_MIGRATIONS)
    async with aiosqlite.connect(db_path) as db:
        for migration in SQLITE_MIGRATIONS[:old]:
            for statement in migration:
                await db.execute(statement)
        await db.execute(f"PRAGMA user_version = {old}")
        for key, mu, sigma, played in OLD_RATINGS:
            await db.execute("INSERT INTO ratings VALUES ('race', ?, ?, ?, 0.0, ?)", (key, mu, sigma, played))
            await db.execute("INSERT INTO guild_ratings VALUES (?, 'race', ?, ?)", (GUILD, key, played))
        await db.execute("INSERT INTO guild_ratings VALUES (?, 'race', 'user:1', 4)", (OTHER_GUILD,))
        await db.commit()
    store = await SqliteStore.open(str(db_path))
    statements: list[str] = []
    try:
        await store._reader.set_trace_callback(statements.append)
        await check_upgraded_boards(store)
    finally:
        await store.close()
    [query, _] = [s for s in statements if "FROM guild_ratings" in s]
    async with aiosqlite.connect(db_path) as db, db.execute(f"EXPLAIN QUERY PLAN {query}") as cursor:
        plan = " / ".join(row[3] for row in await cursor.fetchall())
    assert "USING INDEX guild_ratings_board" in plan and "TEMP B-TREE" not in plan, plan


async def test_an_old_postgresql_database_gets_index_driven_server_boards(postgres_url: str) -> None:
    old = before_the_guild_board_migration(POSTGRES_MIGRATIONS)
    conn = await asyncpg.connect(postgres_url)
    try:
        async with conn.transaction():
            for migration in POSTGRES_MIGRATIONS[:old]:
                for statement in migration:
                    await conn.execute(statement)
            await conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            await conn.execute("INSERT INTO schema_version VALUES ($1)", old)
            for key, mu, sigma, played in OLD_RATINGS:
                await conn.execute(
                    "INSERT INTO ratings VALUES ('race', $1, $2, $3, 0.0, $4)", key, mu, sigma, played
                )
                await conn.execute(
                    "INSERT INTO guild_ratings VALUES ($1, 'race', $2, $3)", GUILD, key, played
                )
            await conn.execute("INSERT INTO guild_ratings VALUES ($1, 'race', 'user:1', 4)", OTHER_GUILD)
    finally:
        await conn.close()
    store = await PostgresStore.open(postgres_url)
    try:
        assert await store.schema_version() == len(POSTGRES_MIGRATIONS)
        await check_upgraded_boards(store)
    finally:
        await store.close()
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute("SET enable_seqscan = off")  # a tiny table: ask for the plan of a big one
        plan = "\n".join(
            r[0]
            for r in await conn.fetch(
                "EXPLAIN SELECT game, player_key, mu, sigma, played FROM guild_ratings "
                "WHERE guild_id = $1 AND game = 'race' AND sigma <= 5 AND player_key LIKE 'user:%' "
                "ORDER BY mu DESC, player_key DESC LIMIT 10",
                GUILD,
            )
        )
    finally:
        await conn.close()
    assert "guild_ratings_board" in plan and "Sort" not in plan, plan
