"""Read scaling: /leaderboard, /stats, /history, /matches and start-up with many players in one server.

Builds a database with bulk SQL (not through the service, so a million matches take a minute, not hours):
`--players` people in ONE server (50,000 by default) and `--matches` finished, rated Paint matches between
them (1,000,000), each with its two seats, two moves and an outcome; a rating per player (one in five
still provisional, plus the bot's) and the server's copy of each; and 200 active matches (50 against the
bot). Then it opens the service (start-up: the store's open, ratings recovery, the check of every active
match) and times the service calls behind the commands, each on `--repeat` different players (or servers'
boards), after one untimed call: median and max in milliseconds. `leaderboard_guild_join_ms` times the
previous query of a server's board (the guild's players joined to their ratings and sorted) and
`leaderboard_everywhere_old_ms` the global board's before the partial index of established ratings (it
walked past every provisional rating: see `--provisional 0.99`), on the same database, for comparison.
`board_settings_*` time what every board reads besides its match (the server's language and the viewer's
theme) from the service's cache and with the cache emptied before each, with the store reads each board
made. On SQLite it also times start-up after a clean shutdown (`startup_clean_ms`,
5 starts), the full check that then runs in the background, and a start after an unclean shutdown.

(Run from the checkout's root with PYTHONPATH=. so that its `bot` is the one imported.)

    python bench/read_scale.py                          # SQLite, in a temporary folder
    python bench/read_scale.py --players 5000 --matches 100000 --repeat 10
    python bench/read_scale.py --database-url postgresql://postgres@127.0.0.1:55432/postgres
        # PostgreSQL: everything in a schema of its own, dropped at the end

SQLite figures are from a database the bench never ANALYZEs (as a bot's); PostgreSQL's are after ANALYZE (as
autovacuum would have done).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import asyncpg

import games
from bot.service import Service
from bot.service.matches import snapshot_text
from bot.service.ratings import PROVISIONAL_SIGMA
from bot.service.store import open_store
from bot.service.store.postgres import with_search_path
from games.base import Outcome, Termination

GUILD = 1
ACTIVE = 200
BOT_MATCHES = 50
BOT_USER = 99_999_999


def _texts() -> tuple[str, str, str]:
    rules = games.get("paint")
    snapshot = snapshot_text(rules, rules.new(2, {}, 1))
    wins = [
        json.dumps(Outcome.loss(loser, 2, Termination.RESIGNATION).to_json(), separators=(",", ":"))
        for loser in (1, 0)
    ]
    return snapshot, wins[0], wins[1]


def _rows_sql(
    players: int, matches: int, snapshot: str, seat0_wins: str, seat1_wins: str, provisional: float = 0.2
) -> list[str]:
    """The bulk statements, in SQL both stores run (``{series}`` is filled per store). Player a(i) of match i
    walks every player (7919 is prime to the player count); b(i) is another one. A `provisional` share of
    the ratings is still provisional (every fifth by default)."""
    p = players
    unsure = "i % 5 = 0" if provisional == 0.2 else f"(i * 7919) % 10000 < {round(provisional * 10000)}"
    a = f"(1 + (i * 7919) % {p})"
    b = f"(1 + ((i * 7919) % {p} + 1 + (i * 31) % ({p} - 1)) % {p})"
    q = "'"
    snap = snapshot.replace(q, q + q)
    return [
        "INSERT INTO matches (id, game, options, seed, guild_id, channel_id, status, ply, turn_timeout, "
        "deadline, snapshot, outcome, rated, ratings_applied, created_at, updated_at, finished_at) "
        f"SELECT i, 'paint', '{{}}', 1, {GUILD}, 1000000 + i, 'finished', 2, 86400.0, NULL, '{snap}', "
        f"CAST(CASE WHEN i % 2 = 0 THEN '{seat0_wins}' ELSE '{seat1_wins}' END AS {{json}}), "
        "{true}, {true}, i, i, i "
        f"FROM {{series}}(1, {matches})",
        "INSERT INTO match_seats (match_id, seat, user_id, ai_level, player_key, result) "
        f"SELECT i, 0, {a}, NULL, 'user:' || {a}, CASE WHEN i % 2 = 0 THEN 'win' ELSE 'loss' END "
        f"FROM {{series}}(1, {matches})",
        "INSERT INTO match_seats (match_id, seat, user_id, ai_level, player_key, result) "
        f"SELECT i, 1, {b}, NULL, 'user:' || {b}, CASE WHEN i % 2 = 0 THEN 'loss' ELSE 'win' END "
        f"FROM {{series}}(1, {matches})",
        "INSERT INTO moves (match_id, ply, seat, notation, forced, at) "
        f"SELECT i, 0, 0, 'c1-c2', {{false}}, i FROM {{series}}(1, {matches})",
        "INSERT INTO moves (match_id, ply, seat, notation, forced, at) "
        f"SELECT i, 1, 1, 'c7-c6', {{false}}, i FROM {{series}}(1, {matches})",
        # mu from 20 to 30; a share still provisional; every player has played (once at least).
        "INSERT INTO ratings (game, player_key, mu, sigma, updated_at, played) "
        "SELECT 'paint', 'user:' || i, 20 + ((i * 37) % 1000) / 100.0, "
        f"CASE WHEN {unsure} THEN {PROVISIONAL_SIGMA} + 1 ELSE 2 + (i % 300) / 100.0 END, 0, "
        f"{max(1, 2 * matches // p)} FROM {{series}}(1, {p})",
        "INSERT INTO ratings (game, player_key, mu, sigma, updated_at, played) "
        "VALUES ('paint', 'ai:hard', 35, 1, 0, 1000)",
        "INSERT INTO guild_ratings (guild_id, game, player_key, played, mu, sigma) "
        f"SELECT {GUILD}, game, player_key, played, mu, sigma FROM ratings",
        # The active matches: 200 players each in one, the last 50 against the bot.
        "INSERT INTO matches (id, game, options, seed, guild_id, channel_id, status, ply, turn_timeout, "
        "deadline, snapshot, rated, ratings_applied, created_at, updated_at) "
        f"SELECT {matches} + i, 'paint', '{{}}', 1, {GUILD}, 2000000 + i, 'active', 0, 86400.0, "
        f"4000000000.0, '{snap}', {{true}}, {{false}}, 0, 0 FROM {{series}}(1, {ACTIVE})",
        "INSERT INTO match_seats (match_id, seat, user_id, ai_level, player_key) "
        f"SELECT {matches} + i, 0, i, NULL, 'user:' || i FROM {{series}}(1, {ACTIVE})",
        "INSERT INTO match_seats (match_id, seat, user_id, ai_level, player_key) "
        f"SELECT {matches} + i, 1, "
        f"CASE WHEN i > {ACTIVE - BOT_MATCHES} THEN {BOT_USER} ELSE {ACTIVE} + i END, "
        f"CASE WHEN i > {ACTIVE - BOT_MATCHES} THEN 'hard' END, "
        f"CASE WHEN i > {ACTIVE - BOT_MATCHES} THEN 'ai:hard' ELSE 'user:' || ({ACTIVE} + i) END "
        f"FROM {{series}}(1, {ACTIVE})",
    ]


SERIES = re.compile(r"\{series\}\((\w+), (\w+)\)")
"""``{series}(lo, hi)``: the integers lo..hi as a table of one column ``i``."""
SQLITE_SERIES = (
    r"(WITH RECURSIVE n(i) AS (SELECT \1 UNION ALL SELECT i + 1 FROM n WHERE i < \2) SELECT i FROM n)"
)
POSTGRES_SERIES = r"generate_series(\1::bigint, \2) AS s(i)"


def fill_sqlite(path: str, players: int, matches: int, provisional: float) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys = OFF")
        conn.execute("BEGIN")
        for statement in _rows_sql(players, matches, *_texts(), provisional):
            statement = SERIES.sub(
                SQLITE_SERIES,
                statement.replace("{true}", "1").replace("{false}", "0").replace("{json}", "TEXT"),
            )
            conn.execute(statement)
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


async def fill_postgres(url: str, players: int, matches: int, provisional: float) -> None:
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            for statement in _rows_sql(players, matches, *_texts(), provisional):
                statement = (
                    statement.replace("{true}", "TRUE").replace("{false}", "FALSE").replace("{json}", "jsonb")
                )
                await conn.execute(SERIES.sub(POSTGRES_SERIES, statement))
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


async def timed(call: Callable[[int], Awaitable[Any]], args: Sequence[int]) -> tuple[float, float]:
    """(median, max) in milliseconds of `call(a)` for each of `args`, after one untimed call."""
    await call(args[0])
    times = []
    for arg in args:
        started = time.perf_counter()
        await call(arg)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), max(times)


async def measure(
    url: str, players: int, repeat: int, seed: int, join_query: str, matches: int
) -> dict[str, Any]:
    opened = time.perf_counter()
    service = await Service.open(url)
    figures: dict[str, Any] = {"startup_open_ms": ((time.perf_counter() - opened) * 1000, None)}
    rng = random.Random(seed)
    users = rng.sample(range(1, players + 1), repeat)
    active = rng.sample(range(1, ACTIVE + 1), repeat)
    store: Any = service.store

    async def old_board(_: int) -> Any:
        return await store._fetch(join_query, GUILD)  # one query text for both stores

    async def old_global_board(_: int) -> Any:
        """The global board's query before the partial index (SQLite, which would take the partial index
        for it too, is told to walk the one index there was)."""
        query = OLD_GLOBAL_QUERY
        if url.startswith("sqlite"):
            query = query.replace("FROM ratings ", "FROM ratings INDEXED BY ratings_board ")
        return await store._fetch(query, "paint", PROVISIONAL_SIGMA)

    async def board_settings(user: int) -> Any:
        """What every board reads besides the match: the server's language and the viewer's theme."""
        await service.guilds.settings(GUILD)
        return await service.prefs.theme_for(user, GUILD)

    async def board_settings_uncached(user: int) -> Any:
        service.cache.listening(service.cache.live)  # empties it: every read asks the store
        return await board_settings(user)

    try:
        service.listen()  # on PostgreSQL the cache is used once the listener is up
        while not service.cache.live:
            await asyncio.sleep(0.01)
        await service.prefs.set_guild_theme(GUILD, "colorblind")
        await board_settings(users[0])
        misses = service.cache.misses
        cached = await timed(board_settings, [users[0]] * repeat)
        reads_cached = (service.cache.misses - misses) / (repeat + 1)
        misses = service.cache.misses
        uncached = await timed(board_settings_uncached, [users[0]] * repeat)
        reads_uncached = (service.cache.misses - misses) / (repeat + 1)
        figures |= {
            "board_settings_cached_ms": cached,
            "board_settings_uncached_ms": uncached,
            "board_store_reads_cached": (reads_cached, None),
            "board_store_reads_uncached": (reads_uncached, None),
            "startup_bot_turns_ms": await timed(lambda _: service.matches.bot_turns(), [0] * repeat),
            "leaderboard_everywhere_ms": await timed(
                lambda _: service.ratings.leaderboard("paint"), [0] * repeat
            ),
            "leaderboard_everywhere_old_ms": await timed(old_global_board, [0] * repeat),
            "leaderboard_guild_ms": await timed(
                lambda g: service.ratings.leaderboard("paint", guild_id=g), [GUILD] * repeat
            ),
            "leaderboard_guild_join_ms": await timed(old_board, [GUILD] * repeat),
            "rating_ms": await timed(lambda u: service.ratings.rating("paint", u), users),
            "stats_ms": await timed(lambda u: service.history.stats(u), users),
            "stats_here_ms": await timed(lambda u: service.history.stats(u, guild_id=GUILD), users),
            "history_ms": await timed(lambda u: service.history.finished(user_id=u, limit=10), users),
            "history_here_ms": await timed(
                lambda u: service.history.finished(user_id=u, guild_id=GUILD, limit=10), users
            ),
            "history_game_ms": await timed(
                lambda u: service.history.finished(user_id=u, game="paint", limit=10), users
            ),
            "matches_ms": await timed(lambda u: service.matches.of_user(u), active),
        }
        for guild in (GUILD, None):
            board = await service.ratings.leaderboard("paint", guild_id=guild)
            assert all(r.sigma <= PROVISIONAL_SIGMA for r in board), board  # empty when all are provisional
        history = await service.history.finished(user_id=users[0], limit=10)
        assert len(history) == 10 if 2 * matches >= 20 * players else len(history) <= 10, history
    finally:
        await service.close()
    return figures


JOIN_QUERY = (
    "SELECT r.game, r.player_key, r.mu, r.sigma, g.played FROM guild_ratings g "
    "JOIN ratings r ON r.game = g.game AND r.player_key = g.player_key "
    f"WHERE g.guild_id = ? AND g.game = 'paint' AND r.sigma <= {PROVISIONAL_SIGMA} "
    "AND g.player_key LIKE 'user:%' ORDER BY r.mu DESC, r.player_key DESC LIMIT 10"
)


OLD_GLOBAL_QUERY = (
    "SELECT game, player_key, mu, sigma, played FROM ratings WHERE game = ? AND played > 0 "
    "AND sigma <= ? AND player_key LIKE 'user:%' ORDER BY mu DESC, player_key DESC LIMIT 10"
)


async def run_sqlite(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="tessera-read-scale-", dir=args.folder) as folder:
        path = str(Path(folder) / "scale.sqlite3")
        store = await open_store(f"sqlite:///{path}")
        await store.close()
        started = time.perf_counter()
        await asyncio.to_thread(fill_sqlite, path, args.players, args.matches, args.provisional)
        build = time.perf_counter() - started
        figures = await measure(
            f"sqlite:///{path}", args.players, args.repeat, args.seed, JOIN_QUERY, args.matches
        )
        figures |= await startups(path)
        figures["database_mib"] = (os.path.getsize(path) / 2**20, None)
        return {"build_s": (build, None)} | figures


async def startups(path: str, runs: int = 5) -> dict[str, Any]:
    """SQLite start-up (`Service.open`) after a clean shutdown, median and max of `runs`; the full check
    that then runs in the background; and a start after an unclean shutdown (the full check at start)."""
    url = f"sqlite:///{path}"
    clean = []
    for _ in range(runs):
        started = time.perf_counter()
        service = await Service.open(url)
        clean.append((time.perf_counter() - started) * 1000)
        await service.close()
    service = await Service.open(url)
    started = time.perf_counter()
    await service.store.full_check()
    background = time.perf_counter() - started
    await service.close()
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE file_state SET value = 'running' WHERE key = 'shutdown'")  # as a crash leaves
    conn.close()
    started = time.perf_counter()
    service = await Service.open(url)
    unclean = (time.perf_counter() - started) * 1000
    await service.close()
    return {
        "startup_clean_ms": (statistics.median(clean), max(clean)),
        "full_check_background_s": (background, None),
        "startup_unclean_ms": (unclean, None),
    }


async def run_postgres(args: argparse.Namespace) -> dict[str, Any]:
    schema = f"tessera_read_scale_{os.getpid()}"
    admin = await asyncpg.connect(args.database_url)
    await admin.execute(f"CREATE SCHEMA {schema}")
    try:
        url = with_search_path(args.database_url, schema)
        store = await open_store(url)
        await store.close()
        started = time.perf_counter()
        await fill_postgres(url, args.players, args.matches, args.provisional)
        build = time.perf_counter() - started
        figures = await measure(url, args.players, args.repeat, args.seed, JOIN_QUERY, args.matches)
        return {"build_s": (build, None)} | figures
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


async def run(args: argparse.Namespace) -> None:
    figures = await (run_postgres(args) if args.database_url else run_sqlite(args))
    store = "postgresql" if args.database_url else "sqlite"
    print(
        f"read_scale store={store} players={args.players} (one server) matches={args.matches} "
        f"provisional={args.provisional:.0%}"
    )
    print(f"{'':<28}{'median':>10}{'max':>10}")
    for name, (median, top) in figures.items():
        print(f"{name:<28}{median:10.2f}" + ("" if top is None else f"{top:10.2f}"))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=50_000)
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--provisional",
        type=float,
        default=0.2,
        help="the share of players still provisional (0.2: one in five)",
    )
    parser.add_argument("--folder", help="where the SQLite database is built (default: the temporary folder)")
    parser.add_argument("--database-url", help="PostgreSQL: build in a new schema of this database")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
