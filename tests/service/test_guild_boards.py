"""A server's leaderboard walks an index in rating order and stops at its length (each server's row keeps a
copy of the player's rating): the copies follow every rating change, in every server of the player, and an
older database gets them when it is upgraded, on both stores."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service import Service
from bot.service.ratings import PROVISIONAL_SIGMA
from bot.service.store import MatchStore, PostgresStore, SqliteStore
from bot.service.store.schema import GUILD_ESTABLISHED
from tests.service.helpers import ALICE, BOB, CAROL, GUILD
from tests.service.old_databases import (
    POSTGRES_MIGRATIONS,
    SQLITE_MIGRATIONS,
    migration_with,
    old_postgres,
    old_sqlite,
    postgres_plan,
    sqlite_plan,
)
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


def old_rows(ratings: str, guild_ratings: str) -> list[tuple[str, tuple[object, ...]]]:
    """OLD_RATINGS as rows of the old tables (statements in the store's placeholder style), and Alice
    also in another guild."""
    rows: list[tuple[str, tuple[object, ...]]] = []
    for key, mu, sigma, played in OLD_RATINGS:
        rows += [(ratings, (key, mu, sigma, played)), (guild_ratings, (GUILD, key, played))]
    return [*rows, (guild_ratings, (OTHER_GUILD, "user:1", 4))]


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
    rows = old_rows(
        "INSERT INTO ratings VALUES ('race', ?, ?, ?, 0.0, ?)",
        "INSERT INTO guild_ratings VALUES (?, 'race', ?, ?)",
    )
    await old_sqlite(db_path, migration_with(SQLITE_MIGRATIONS, "guild_ratings_board"), rows)
    store = await SqliteStore.open(str(db_path))
    statements: list[str] = []
    try:
        await store._reader.set_trace_callback(statements.append)
        await check_upgraded_boards(store)
    finally:
        await store.close()
    [query, _] = [s for s in statements if "FROM guild_ratings" in s]
    plan = sqlite_plan(db_path, query)
    # The board of established ratings walks its partial index in order (migrated in as well) and stops.
    assert "USING INDEX guild_ratings_established" in plan and "TEMP B-TREE" not in plan, plan


async def test_an_old_postgresql_database_gets_index_driven_server_boards(postgres_url: str) -> None:
    rows = old_rows(
        "INSERT INTO ratings VALUES ('race', $1, $2, $3, 0.0, $4)",
        "INSERT INTO guild_ratings VALUES ($1, 'race', $2, $3)",
    )
    await old_postgres(postgres_url, migration_with(POSTGRES_MIGRATIONS, "guild_ratings_board"), rows)
    store = await PostgresStore.open(postgres_url)
    try:
        assert await store.schema_version() == len(POSTGRES_MIGRATIONS)
        await check_upgraded_boards(store)
    finally:
        await store.close()
    plan = await postgres_plan(
        postgres_url,
        "SELECT game, player_key, mu, sigma, played FROM guild_ratings "
        f"WHERE guild_id = $1 AND game = 'race' AND {GUILD_ESTABLISHED} "
        "ORDER BY mu DESC, player_key DESC LIMIT 10",
        GUILD,
    )
    assert "guild_ratings_established" in plan and "Sort" not in plan, plan
