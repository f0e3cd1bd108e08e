"""Load benchmark of the match service: many active matches on a file database, moves played concurrently.

Two phases: capacity (a few players moving as fast as they can: moves per second) and sustained (moves
arriving at a fixed rate, 500/s by default: the p50/p99/max latency of `MatchService.play()`, which includes
the forced moves, the transaction and the snapshot). Then the resident memory before and after. Memory must
not grow with the number of stored matches: a last phase stores many more finished matches and measures again.

    /tmp/v/bin/python bench/service_load.py        # 1000 matches, paintscape, 500 moves/s for 20 s
    /tmp/v/bin/python bench/service_load.py --matches 200 --moves 2000 --seconds 5 --stored 500
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bot.service import Service
from bot.service.records import MatchView
from bot.service.store import SqliteStore


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
        game, {}, 2 * channel + 1, 2 * channel + 2, guild_id=1, channel_id=channel
    )
    return await service.challenges.accept(challenge.id, 2 * channel + 2)


async def run(args: argparse.Namespace) -> None:
    folder = Path(args.db or tempfile.mkdtemp(prefix="tessera-bench-"))
    path = folder / "bench.sqlite3"
    store = await SqliteStore.open(str(path))
    service = Service(store, rng=random.Random(args.seed))
    rules = service.rules(args.game)
    rng = random.Random(args.seed)

    started = time.perf_counter()
    matches = [(await new_match(service, args.game, c)).id for c in range(args.matches)]
    setup = time.perf_counter() - started
    rss_before = rss_mb()

    finished = 0

    async def one_move(channel: int) -> float:
        """Read the board of a channel's match, pick a random legal move, play it; returns play()'s time."""
        nonlocal finished
        view = await service.matches.get(matches[channel])
        if not view.is_active:
            finished += 1
            matches[channel] = (await new_match(service, args.game, channel + 10**6 * finished)).id
            view = await service.matches.get(matches[channel])
        user = view.user_to_move
        assert user is not None
        move = rng.choice(list(rules.legal_moves(view.state)))
        text = rules.notation(view.state, move)
        t0 = time.perf_counter()
        await service.matches.play(view.id, user, text, expected_ply=view.ply)
        return time.perf_counter() - t0

    # Phase 1, capacity: a fixed number of players move as fast as they can, each on its own matches.
    capacity: list[float] = []

    async def worker(index: int) -> None:
        mine = list(range(index, args.matches, args.workers))
        for step in range(args.moves // args.workers):
            capacity.append(await one_move(mine[step % len(mine)]))

    started = time.perf_counter()
    await asyncio.gather(*(worker(i) for i in range(args.workers)))
    capacity_rate = len(capacity) / (time.perf_counter() - started)

    # Phase 2, sustained: moves arrive at a fixed rate (open loop), each on a match nobody is moving in.
    free: asyncio.Queue[int] = asyncio.Queue()
    for channel in range(args.matches):
        free.put_nowait(channel)
    sustained: list[float] = []

    async def arrival() -> None:
        channel = await free.get()
        try:
            sustained.append(await one_move(channel))
        finally:
            free.put_nowait(channel)

    total = int(args.rate * args.seconds)
    tasks = []
    started = time.perf_counter()
    for i in range(total):
        delay = started + i / args.rate - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(arrival()))
    await asyncio.gather(*tasks)
    sustained_rate = len(sustained) / (time.perf_counter() - started)
    rss_after = rss_mb()

    # Phase 2: many more stored (finished) matches must not raise the resident memory.
    rss_half_stored = rss_after
    for i in range(args.stored):
        view = await new_match(service, args.game, 2 * 10**6 + i)
        await service.matches.resign(view.id, view.seats[0].user_id)
        if i == args.stored // 2:
            rss_half_stored = rss_mb()
    stored_total = len(await store.match_ids())
    for _ in range(2):
        for channel in range(args.matches):
            await service.matches.get(matches[channel])
    rss_stored = rss_mb()
    wal = Path(f"{path}-wal")
    wal_mb = wal.stat().st_size / 2**20 if wal.exists() else 0.0
    await store.close()

    def percentile(values: list[float], q: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000

    print(f"service_load game={args.game} active_matches={args.matches}")
    print(f"setup_matches_per_s        {args.matches / setup:10.1f}")
    print(f"capacity_workers           {args.workers:10d}")
    print(f"capacity_moves             {len(capacity):10d}")
    print(f"capacity_moves_per_s       {capacity_rate:10.1f}")
    print(f"capacity_play_p50_ms       {statistics.median(capacity) * 1000:10.2f}")
    print(f"capacity_play_p99_ms       {percentile(capacity, 0.99):10.2f}")
    print(f"sustained_target_per_s     {args.rate:10.1f}")
    print(f"sustained_moves            {len(sustained):10d}")
    print(f"sustained_moves_per_s      {sustained_rate:10.1f}")
    print(f"sustained_play_p50_ms      {statistics.median(sustained) * 1000:10.2f}")
    print(f"sustained_play_p99_ms      {percentile(sustained, 0.99):10.2f}")
    print(f"sustained_play_max_ms      {max(sustained) * 1000:10.2f}")
    print(f"games_finished             {finished:10d}")
    print(f"rss_before_mb              {rss_before:10.1f}")
    print(f"rss_after_mb               {rss_after:10.1f}")
    print(f"stored_matches             {stored_total:10d}")
    print(f"rss_half_stored_mb         {rss_half_stored:10.1f}")
    print(f"rss_after_stored_mb        {rss_stored:10.1f}")
    print(f"peak_rss_mb                {peak_mb():10.1f}")
    print(f"db_size_mb                 {path.stat().st_size / 2**20:10.1f}")
    print(f"wal_size_mb                {wal_mb:10.1f}")
    if not args.db:
        shutil.rmtree(folder)


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
    parser.add_argument("--db", help="folder for the database file (default: a new temporary folder)")
    asyncio.run(run(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
