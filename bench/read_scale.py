"""Read scaling: /leaderboard, /stats, /history, /matches and start-up on databases of many finished matches.

Builds each database through the store API (finished, rated Paint matches between 2,000 players in 20
servers, plus 200 active matches, 50 of them against the bot), then times the service calls behind the
commands and the start-up work (opening the service: ratings recovery and the check of every active match;
the bot's pending turns). Figures are medians of `--repeat` calls, in milliseconds.

    python bench/read_scale.py                      # 10,000 and 100,000 finished matches
    python bench/read_scale.py --sizes 2000 --repeat 5
    python bench/read_scale.py --database-url postgresql://...   # the same on another store (fresh database)
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import games
from bot.service import Service
from bot.service.matches import snapshot_text
from bot.service.records import Finish, MatchStatus, MoveRecord, NewMatch, Player
from bot.service.store import MatchStore, open_store
from games.base import Outcome, Termination

PLAYERS = 2000
GUILDS = 20
MOVES_PER_MATCH = 30


async def fill(store: MatchStore, finished: int, rng: random.Random) -> None:
    """`finished` rated Paint matches with a move log and ratings, then 200 active ones (50 with the bot)."""
    rules = games.get("paint")
    start = rules.new(2, {}, 1)
    snapshot = snapshot_text(rules, start)
    service = Service(store, rng=rng)
    for index in range(finished + 200):
        a, b = rng.sample(range(1, PLAYERS + 1), 2)
        guild = 1 + index % GUILDS
        bot_match = index >= finished + 150
        seats = (Player(0, a), Player(1, 99_999 if bot_match else b, "hard" if bot_match else None))
        new = NewMatch(
            game="paint",
            options={},
            seed=1,
            guild_id=guild,
            channel_id=1_000_000 + index,
            seats=seats,
            turn_timeout=86_400.0,
            deadline=None,
            snapshot=snapshot,
            rated=True,
            created_at=float(index),
        )
        row = await store.insert_match(new)
        if index >= finished:
            continue
        moves = [
            MoveRecord(ply=p, seat=p % 2, notation="c1-c2", forced=False, at=float(index))
            for p in range(MOVES_PER_MATCH)
        ]
        outcome = Outcome.loss(rng.randrange(2), 2, Termination.RESIGNATION)
        await store.append_moves(
            row.id,
            0,
            moves,
            snapshot,
            None,
            float(index),
            Finish(MatchStatus.FINISHED, outcome, float(index)),
        )
        await service.ratings.rate(row.id)


async def timed(call: Callable[[], Awaitable[Any]], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        await call()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


async def measure(url: str, finished: int, repeat: int, seed: int) -> dict[str, float]:
    store = await open_store(url)
    started = time.perf_counter()
    await fill(store, finished, random.Random(seed))
    build = time.perf_counter() - started
    await store.close()

    opened = time.perf_counter()
    service = await Service.open(url)
    startup = (time.perf_counter() - opened) * 1000
    try:
        user, guild = 7, 3
        figures = {
            "build_s": build,
            "startup_open_ms": startup,
            "startup_bot_turns_ms": await timed(service.matches.bot_turns, repeat),
            "leaderboard_everywhere_ms": await timed(lambda: service.ratings.leaderboard("paint"), repeat),
            "leaderboard_guild_ms": await timed(
                lambda: service.ratings.leaderboard("paint", guild_id=guild), repeat
            ),
            "stats_ms": await timed(lambda: service.history.stats(user), repeat),
            "rating_ms": await timed(lambda: service.ratings.rating("paint", user), repeat),
            "history_ms": await timed(lambda: service.history.finished(user_id=user, limit=10), repeat),
            "matches_ms": await timed(lambda: service.matches.of_user(user), repeat),
        }
    finally:
        await service.close()
    return figures


async def run(args: argparse.Namespace) -> None:
    results: dict[int, dict[str, float]] = {}
    for size in args.sizes:
        if args.database_url:
            results[size] = await measure(args.database_url, size, args.repeat, args.seed)
            continue
        with tempfile.TemporaryDirectory(prefix="tessera-read-scale-") as folder:  # 200 MB at 100,000
            url = f"sqlite:///{Path(folder) / 'scale.sqlite3'}"
            results[size] = await measure(url, size, args.repeat, args.seed)
    names = list(next(iter(results.values())))
    print("read_scale " + " ".join(f"finished={size}" for size in results))
    for name in names:
        values = " ".join(f"{results[size][name]:12.2f}" for size in results)
        print(f"{name:<28}{values}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", help="run on this (empty) database instead of a new SQLite file")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
