"""Ratings once per finished rated match, leaderboards (established people only, by shown rating; the bot
apart), stats and history."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.service import Service
from bot.service.ratings import PROVISIONAL_SIGMA, shown_rating
from bot.service.records import Finish, Finished, MatchStatus, Rating
from bot.service.store import MatchStore, PostgresStore, SqliteStore
from games.ai.levels import LEVEL_IDS, level_rating
from games.base import Outcome, Termination
from tests.service.helpers import (
    ALICE,
    BOB,
    BOT,
    CAROL,
    DAVE,
    GUILD,
    everyone_moves,
    start_match,
    start_old_bot_match,
)
from tests.service.old_databases import (
    POSTGRES_MIGRATIONS,
    SQLITE_MIGRATIONS,
    migration_with,
    old_postgres,
    old_sqlite,
    sqlite_plan,
)


async def win_race(service: Service, winner: int, loser: int, channel: int, guild: int = GUILD) -> Finished:
    match = await start_match(service, challenger=winner, opponent=loser, channel=channel, guild=guild)
    await everyone_moves(service, match.id)
    result = await service.matches.resign(match.id, loser)
    assert isinstance(result, Finished)
    return result


async def test_a_rated_match_changes_ratings_once(service: Service) -> None:
    finished = await win_race(service, ALICE, BOB, 1)
    changes = {c.user_id: c for c in finished.rating_changes}
    assert set(changes) == {ALICE, BOB}
    assert changes[ALICE].mu_before is None and changes[ALICE].mu_after > 25 > changes[BOB].mu_after
    ratings = await service.store.get_ratings("race", ["user:1", "user:2"])
    assert await service.ratings.rate(finished.match.id) == list(finished.rating_changes)
    assert await service.ratings.recover() == 0
    assert await service.store.get_ratings("race", ["user:1", "user:2"]) == ratings
    second = await win_race(service, ALICE, BOB, 2)
    alice = next(c for c in second.rating_changes if c.user_id == ALICE)
    assert alice.mu_before == changes[ALICE].mu_after and alice.mu_after > alice.mu_before


async def test_unrated_and_aborted_matches_change_nothing(service: Service) -> None:
    match = await start_match(service, options={"rated": False})
    await everyone_moves(service, match.id)
    result = await service.matches.resign(match.id, BOB)
    assert isinstance(result, Finished) and result.rating_changes == ()
    other = await start_match(service, channel=2)
    aborted = await service.agreements.request_abort(other.id, ALICE, admin=True)
    assert isinstance(aborted, Finished) and aborted.rating_changes == ()
    assert await service.ratings.leaderboard("race") == []
    [stats] = await service.history.stats(
        ALICE
    )  # the unrated match counts as played; the aborted one does not
    assert (stats.played, stats.won) == (1, 1)


async def test_a_crash_between_the_end_and_the_rating_is_repaired_by_recover(service: Service) -> None:
    match = await start_match(service)
    outcome = Outcome.loss(1, 2, Termination.RESIGNATION)
    finish = Finish(MatchStatus.FINISHED, outcome, service.now())
    assert await service.store.finish_match(match.id, 0, finish)
    assert await service.ratings.recover() == 1
    assert await service.ratings.recover() == 0
    ratings = await service.store.get_ratings("race", ["user:1", "user:2"])
    assert ratings["user:1"].mu > ratings["user:2"].mu and ratings["user:1"].played == 1


async def played_out(
    service: Service, winner: int, loser: int, channel: int, guild: int | None = GUILD
) -> Finished:
    """A rated match in which each player moves once before the loser resigns."""
    match = await start_match(service, challenger=winner, opponent=loser, channel=channel, guild=guild)
    await service.matches.play(match.id, winner, "1")
    await service.matches.play(match.id, loser, "1")
    result = await service.matches.resign(match.id, loser)
    assert isinstance(result, Finished) and result.rating_changes
    return result


async def test_leaderboards_rank_established_people_by_shown_rating(service: Service) -> None:
    """As on lichess: Alice and Bob (22 rated matches, Alice winning two in three) are ranked by their shown
    ratings; Carol and Dave (2 matches elsewhere) are provisional and left out, and so is the bot, which has
    its own line (`bot_ratings`)."""
    for n in range(22):
        await played_out(service, *((BOB, ALICE) if n % 3 == 2 else (ALICE, BOB)), channel=1)
    await played_out(service, CAROL, DAVE, 2, guild=GUILD + 1)
    await played_out(service, DAVE, CAROL, 2, guild=GUILD + 1)
    for _ in range(2):
        ai = await start_old_bot_match(service, CAROL, channel=3)  # an older match, at "hard"
        await service.matches.play(ai.id, CAROL, "1")
        await service.matches.play(ai.id, BOT, "1")
        result = await service.matches.resign(ai.id, CAROL)
        assert isinstance(result, Finished)
        # The bot's rating is its calibrated one and does not move: only Carol's change is reported.
        assert {c.player_key for c in result.rating_changes} == {"user:3"}

    everyone = await service.store.get_ratings("race", [f"user:{u}" for u in (ALICE, BOB, CAROL, DAVE)])
    shown = {key: shown_rating(r.mu, r.sigma) for key, r in everyone.items()}
    assert not shown["user:1"].provisional and not shown["user:2"].provisional
    assert shown["user:3"].provisional and shown["user:4"].provisional
    assert shown["user:1"].points > shown["user:3"].points, "a provisional player could have ranked second"

    def keys(board: list[Rating]) -> list[str]:
        return [e.player_key for e in board]

    overall = await service.ratings.leaderboard("race")
    assert keys(overall) == ["user:1", "user:2"]
    assert [e.played for e in overall] == [22, 22]
    local = await service.ratings.leaderboard("race", guild_id=GUILD)
    assert keys(local) == ["user:1", "user:2"]
    assert await service.ratings.leaderboard("race", guild_id=GUILD + 1) == []
    assert keys(await service.ratings.leaderboard("race", limit=1)) == ["user:1"]
    bots = await service.ratings.bot_ratings("race")
    assert [b.ai_level for b in bots] == list(LEVEL_IDS), "the eight levels, weakest first"
    assert [shown_rating(b.mu, b.sigma).points for b in bots] == [level_rating("race", v) for v in LEVEL_IDS]
    assert [b.played for b in bots] == [0] * 8, "the old hard level is not one of the eight"
    stored = (await service.store.get_ratings("race", ["ai:hard"]))["ai:hard"]
    assert stored.played == 2 and shown_rating(stored.mu, stored.sigma).points == level_rating("race", "hard")
    assert (await service.ratings.rating("race", ALICE)) == everyone["user:1"]
    assert await service.ratings.rating("race", 12345) is None
    with pytest.raises(Exception, match="no game called"):
        await service.ratings.leaderboard("chess")


async def test_stats_count_wins_losses_and_draws(service: Service) -> None:
    await win_race(service, ALICE, BOB, 1)
    await win_race(service, BOB, ALICE, 2)
    await win_race(service, ALICE, BOB, 3, guild=GUILD + 1)
    draw = await start_match(service, "hoard", channel=4)
    await service.matches.pass_turn(draw.id, ALICE)
    played = await service.matches.pass_turn(draw.id, BOB)
    assert played.finished is not None and played.finished.outcome.is_draw
    stats = {s.game: s for s in await service.history.stats(ALICE)}
    assert (stats["race"].played, stats["race"].won, stats["race"].lost, stats["race"].drawn) == (3, 2, 1, 0)
    assert (stats["hoard"].played, stats["hoard"].drawn) == (1, 1)
    local = {s.game: s for s in await service.history.stats(ALICE, guild_id=GUILD + 1)}
    assert local["race"].played == 1 and "hoard" not in local


async def test_history_lists_finished_matches_with_their_moves(service: Service) -> None:
    match = await start_match(service, options={"target": 3})
    await service.matches.play(match.id, ALICE, "1")
    await service.matches.play(match.id, BOB, "2")
    await win_race(service, BOB, ALICE, 2)
    history = await service.history.finished(user_id=ALICE)
    assert len(history) == 2
    first = next(h for h in history if h.match.id == match.id)
    assert first.moves == 2
    assert first.match.outcome is not None and first.match.outcome.winners == (1,)
    assert [h.match.id for h in await service.history.finished(user_id=ALICE, limit=1)] == [
        history[0].match.id
    ]
    assert await service.history.finished(game="hoard") == []


# ------------------------------------------------------------------------------- upgrading old databases

OLD_RATINGS = [
    # (player_key, mu, sigma, played): by the old mu - 3 sigma Bob ranked first; by mu Alice does. Carol's
    # rating is provisional and the bot's is the bot's: neither is ranked any more.
    ("user:1", 30.0, 3.0, 25),
    ("user:2", 27.0, 0.5, 30),
    ("user:3", 35.0, 6.0, 3),
    ("ai:hard", 40.0, 1.0, 50),
]


LEADERBOARD_INDEX = "ON ratings (game, mu, player_key)"
"""What the migration that indexes leaderboards by mu does."""


def old_rows(ratings: str, guild_ratings: str) -> list[tuple[str, tuple[object, ...]]]:
    """OLD_RATINGS as rows of the old tables, everyone in GUILD (statements in the store's placeholders)."""
    rows: list[tuple[str, tuple[object, ...]]] = []
    for key, mu, sigma, played in OLD_RATINGS:
        rows += [(ratings, (key, mu, sigma, played)), (guild_ratings, (GUILD, key, played))]
    return rows


async def check_upgraded_leaderboards(store: MatchStore) -> None:
    everywhere = await store.leaderboard("race", None, 10, PROVISIONAL_SIGMA)
    assert [(e.player_key, e.played) for e in everywhere] == [("user:1", 25), ("user:2", 30)]
    assert [e.player_key for e in await store.leaderboard("race", GUILD, 10, PROVISIONAL_SIGMA)] == [
        "user:1",
        "user:2",
    ]


@pytest.mark.sqlite_only
async def test_an_old_sqlite_database_ranks_by_the_shown_rating_from_an_index(db_path: Path) -> None:
    """A database from before the change keeps its ratings, ranks them by the shown rating, and answers the
    leaderboard from the index in its order (no sort of the whole game)."""
    rows = old_rows(
        "INSERT INTO ratings VALUES ('race', ?, ?, ?, 0.0, ?)",
        "INSERT INTO guild_ratings VALUES (?, 'race', ?, ?)",
    )
    await old_sqlite(db_path, migration_with(SQLITE_MIGRATIONS, LEADERBOARD_INDEX), rows)
    store = await SqliteStore.open(str(db_path))
    statements: list[str] = []
    try:
        await store._reader.set_trace_callback(statements.append)
        await check_upgraded_leaderboards(store)
    finally:
        await store.close()
    async with aiosqlite.connect(db_path) as db, db.execute("PRAGMA user_version") as cursor:
        assert (await cursor.fetchone()) == (len(SQLITE_MIGRATIONS),)
    [everywhere] = [s for s in statements if "FROM ratings WHERE" in s]
    plan = sqlite_plan(db_path, everywhere)
    # the established ratings' partial index (issue 40), in the board's order
    assert "USING INDEX ratings_established" in plan and "TEMP B-TREE" not in plan, plan


async def test_an_old_postgresql_database_ranks_by_the_shown_rating(postgres_url: str) -> None:
    rows = old_rows(
        "INSERT INTO ratings VALUES ('race', $1, $2, $3, 0.0, $4)",
        "INSERT INTO guild_ratings VALUES ($1, 'race', $2, $3)",
    )
    await old_postgres(postgres_url, migration_with(POSTGRES_MIGRATIONS, LEADERBOARD_INDEX), rows)
    store = await PostgresStore.open(postgres_url)
    try:
        assert await store.schema_version() == len(POSTGRES_MIGRATIONS)
        await check_upgraded_leaderboards(store)
    finally:
        await store.close()
    conn = await asyncpg.connect(postgres_url)
    try:
        index = await conn.fetchval(
            "SELECT indexdef FROM pg_indexes "
            "WHERE schemaname = current_schema() AND indexname = 'ratings_board'"
        )
    finally:
        await conn.close()
    assert index.endswith("(game, mu, player_key)"), index
