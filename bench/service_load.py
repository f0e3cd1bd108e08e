"""Load benchmark of the match service: many active matches on one database, moves played concurrently.

Two phases: capacity (a few players moving as fast as they can: moves per second) and sustained (moves
arriving at a fixed rate, 500/s by default: the p50/p99/max latency of `MatchService.play()`, which includes
the forced moves, the transaction and the snapshot). Then the resident memory before and after. Memory must
not grow with the number of stored matches: a last phase stores many more finished matches and measures again
(one process only).

With --processes N, N processes (shard processes of one deployment) share the database, each with its own
matches, 1/N of the players and 1/N of the rate; the figures are of all of them together. The database is a
SQLite file in a temporary folder by default; --database-url postgresql://... uses a fresh schema on that
server (dropped afterwards).

    python bench/service_load.py        # 1000 matches, paintscape, 500 moves/s for 20 s
    python bench/service_load.py --matches 200 --moves 2000 --seconds 5 --stored 500
    python bench/service_load.py --database-url postgresql://postgres@127.0.0.1:5432/postgres --processes 2 \
        --rate 1000 --stored 0
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from threading import Barrier

import asyncpg

from bot.service import Service
from bot.service.records import MatchView
from bot.service.store import open_store
from bot.service.store.postgres import with_search_path


def rss_mb() -> float:
    """The current resident set size in MiB (Linux /proc), or the peak where /proc is missing; garbage
    is collected first, so the figure is what is really held."""
    gc.collect()
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
        return pages * resource.getpagesize() / 2**20
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def new_match(service: Service, game: str, channel: int) -> MatchView:
    challenge = await service.challenges.create(
        game, {}, 2 * channel + 1, 2 * channel + 2, guild_id=1, channel_id=channel + 1
    )
    return await service.challenges.accept(challenge.id, 2 * channel + 2)


@dataclass
class Figures:
    """What one process measured."""

    setup_s: float = 0.0
    capacity: list[float] = field(default_factory=list)
    capacity_s: float = 0.0
    sustained: list[float] = field(default_factory=list)
    sustained_s: float = 0.0
    finished: int = 0
    memory: dict[str, float] = field(default_factory=dict)


async def load(args: argparse.Namespace, url: str, index: int, barrier: Barrier | None) -> Figures:
    """One process's share of the load: its own matches (channels offset by the process), its share of the
    players and of the rate. With a barrier, each phase starts in every process at once."""
    processes = args.processes
    share = args.matches // processes
    offset = index * 10**7
    store = await open_store(url)
    service = Service(store, rng=random.Random(args.seed + index))
    rules = service.rules(args.game)
    rng = random.Random(args.seed + index)
    figures = Figures()

    async def together() -> None:
        if barrier is not None:
            await asyncio.to_thread(barrier.wait)

    started = time.perf_counter()
    matches = [(await new_match(service, args.game, offset + c)).id for c in range(share)]
    figures.setup_s = time.perf_counter() - started
    rss_before = rss_mb()

    async def one_move(channel: int) -> float:
        """Read the board of a channel's match, pick a random legal move, play it; returns play()'s time."""
        view = await service.matches.get(matches[channel])
        if not view.is_active:
            figures.finished += 1
            matches[channel] = (
                await new_match(service, args.game, offset + channel + 10**6 * figures.finished)
            ).id
            view = await service.matches.get(matches[channel])
        user = view.user_to_move
        assert user is not None
        move = rng.choice(list(rules.legal_moves(view.state)))
        text = rules.notation(view.state, move)
        t0 = time.perf_counter()
        await service.matches.play(view.id, user, text, expected_ply=view.ply)
        return time.perf_counter() - t0

    # Phase 1, capacity: a fixed number of players move as fast as they can, each on its own matches.
    workers = max(1, args.workers // processes)

    async def worker(number: int) -> None:
        mine = list(range(number, share, workers))
        for step in range(args.moves // processes // workers):
            figures.capacity.append(await one_move(mine[step % len(mine)]))

    await together()
    started = time.perf_counter()
    await asyncio.gather(*(worker(i) for i in range(workers)))
    figures.capacity_s = time.perf_counter() - started

    # Phase 2, sustained: moves arrive at a fixed rate (open loop), each on a match nobody is moving in.
    free: asyncio.Queue[int] = asyncio.Queue()
    for channel in range(share):
        free.put_nowait(channel)

    async def arrival() -> None:
        channel = await free.get()
        try:
            figures.sustained.append(await one_move(channel))
        finally:
            free.put_nowait(channel)

    rate = args.rate / processes
    total = int(rate * args.seconds)
    tasks = []
    await together()
    started = time.perf_counter()
    for i in range(total):
        delay = started + i / rate - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(arrival()))
    await asyncio.gather(*tasks)
    figures.sustained_s = time.perf_counter() - started
    rss_after = rss_mb()

    if processes == 1 and args.stored:
        # Phase 3: many more stored (finished) matches must not raise the resident memory.
        rss_half_stored = rss_after
        for i in range(args.stored):
            view = await new_match(service, args.game, 2 * 10**6 + i)
            await service.matches.resign(view.id, view.seats[0].user_id)
            if i == args.stored // 2:
                rss_half_stored = rss_mb()
        stored_total = len(await store.match_ids())
        for _ in range(2):
            for channel in range(share):
                await service.matches.get(matches[channel])
        figures.memory = {
            "rss_before_mb": rss_before,
            "rss_after_mb": rss_after,
            "stored_matches": stored_total,
            "rss_half_stored_mb": rss_half_stored,
            "rss_after_stored_mb": rss_mb(),
            "peak_rss_mb": peak_mb(),
        }
    await store.close()
    return figures


def load_process(args: argparse.Namespace, url: str, index: int, barrier: Barrier) -> Figures:
    return asyncio.run(load(args, url, index, barrier))


async def fresh_schema(server: str) -> str:
    """A new schema on the PostgreSQL server for this run; its name."""
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(server)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()
    return schema


async def drop_schema(server: str, schema: str) -> None:
    conn = await asyncpg.connect(server)
    try:
        await conn.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await conn.close()


def run(args: argparse.Namespace) -> None:
    if args.processes > 1 and not args.database_url:
        raise SystemExit("--processes needs --database-url: a SQLite file serves one process")
    folder: Path | None = None
    schema: str | None = None
    if args.database_url:
        schema = asyncio.run(fresh_schema(args.database_url))
        url = with_search_path(args.database_url, schema)
        kind = "postgresql"
    else:
        folder = Path(args.db or tempfile.mkdtemp(prefix="tessera-bench-"))
        path = folder / "bench.sqlite3"
        url = f"sqlite:///{path}"
        kind = "sqlite"
    try:
        if args.processes == 1:
            parts = [asyncio.run(load(args, url, 0, None))]
        else:
            context = multiprocessing.get_context("spawn")
            with context.Manager() as manager, context.Pool(args.processes) as pool:
                barrier = manager.Barrier(args.processes)
                parts = pool.starmap(load_process, [(args, url, i, barrier) for i in range(args.processes)])
        report(args, kind, parts)
        if folder is not None:
            wal = Path(f"{path}-wal")
            print(f"db_size_mb                 {path.stat().st_size / 2**20:10.1f}")
            print(f"wal_size_mb                {(wal.stat().st_size if wal.exists() else 0) / 2**20:10.1f}")
    finally:
        if schema is not None:
            asyncio.run(drop_schema(args.database_url, schema))
        if folder is not None and not args.db:
            shutil.rmtree(folder)


def report(args: argparse.Namespace, kind: str, parts: list[Figures]) -> None:
    def percentile(values: list[float], q: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000

    capacity = [t for p in parts for t in p.capacity]
    sustained = [t for p in parts for t in p.sustained]
    print(
        f"service_load store={kind} processes={args.processes} game={args.game} active_matches={args.matches}"
    )
    print(f"setup_matches_per_s        {args.matches / max(p.setup_s for p in parts):10.1f}")
    print(f"capacity_workers           {args.workers:10d}")
    print(f"capacity_moves             {len(capacity):10d}")
    print(f"capacity_moves_per_s       {len(capacity) / max(p.capacity_s for p in parts):10.1f}")
    print(f"capacity_play_p50_ms       {statistics.median(capacity) * 1000:10.2f}")
    print(f"capacity_play_p99_ms       {percentile(capacity, 0.99):10.2f}")
    print(f"sustained_target_per_s     {args.rate:10.1f}")
    print(f"sustained_moves            {len(sustained):10d}")
    print(f"sustained_moves_per_s      {len(sustained) / max(p.sustained_s for p in parts):10.1f}")
    print(f"sustained_play_p50_ms      {statistics.median(sustained) * 1000:10.2f}")
    print(f"sustained_play_p99_ms      {percentile(sustained, 0.99):10.2f}")
    print(f"sustained_play_max_ms      {max(sustained) * 1000:10.2f}")
    print(f"games_finished             {sum(p.finished for p in parts):10d}")
    for name, value in parts[0].memory.items():
        print(f"{name:<27}{value:10.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="paintscape")
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=10000, help="moves of the capacity phase")
    parser.add_argument("--workers", type=int, default=8, help="concurrent players in the capacity phase")
    parser.add_argument("--rate", type=float, default=500.0, help="moves per second of the sustained phase")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the sustained phase")
    parser.add_argument("--stored", type=int, default=3000, help="finished matches added in phase 2")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", help="folder for the SQLite file (default: a new temporary folder)")
    parser.add_argument("--database-url", help="a PostgreSQL server URL (a fresh schema is made there)")
    parser.add_argument("--processes", type=int, default=1, help="service processes sharing the database")
    run(parser.parse_args(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
