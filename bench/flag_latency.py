"""Flag latency of live clocks: how late the flag timer (bot/service/flags.py) flags a player whose clock
runs out, with many live games running on one process.

Sets up `--games` live matches (each in a channel of its own, both players past their first move, so every
clock runs: all of them are in the timer's heap) on a fresh SQLite database, and starts the service's flag
timer, which reads them all from the database as it does at start. `--flags` of the clocks run out at
random over `--spread` seconds (their deadlines are set so); `--movers` other games keep moving, one move
every `--every` seconds each (so the database is busy and the heap holds stale entries, as in real play).
Prints, over the flags written:

- timer: how late the timer started each flag after its deadline (the scheduler alone);
- flag: how late the flag was committed (the timeout written, the game over, the event out);

The objects set up are frozen out of the garbage collector's sight first, as the bot does once it is ready
(`--no-freeze` leaves them: full collections walking them then pause the loop for hundreds of ms), and the
service's state cache holds every game, the size it grows to when every game moves in turn.

as p50 / p99 / max in milliseconds, with the heap rebuild time and the rates.

    PYTHONPATH=. python bench/flag_latency.py   # 10,000 games, 2,000 flags in 60 s, 500 movers
    PYTHONPATH=. python bench/flag_latency.py --games 1000 --flags 300 --spread 10 --movers 50
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.service import Service
from bot.service.flags import FlagTimer
from bot.service.records import MatchView, TimedOut
from bot.service.store import open_store
from bot.service.timecontrol import TimeControl


def first_move(service: Service, match: MatchView) -> str:
    rules = service.rules(match.game)
    move = next(iter(rules.legal_moves(match.state)))
    return str(rules.notation(match.state, move))


def percentiles(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    p50, top = statistics.median(ordered), ordered[-1]
    return f"p50 {p50 * 1000:.1f} / p99 {p99 * 1000:.1f} / max {top * 1000:.1f} ms"


async def setup(service: Service, games: int, game: str) -> list[MatchView]:
    """`games` live matches with both players past their first move (their clocks run)."""
    control = TimeControl(600, 0)
    matches = []
    for i in range(games):
        user = 10 * i + 1
        match = await service.matches.start(
            game, {}, [(user, None), (user + 1, None)], seed=i, rated=False, turn_timeout=86400,
            guild_id=1, channel_id=1_000 + i, time_control=control,
        )  # fmt: skip
        for _ in range(2):
            mover = match.user_to_move
            assert mover is not None
            match = (await service.matches.play(match, mover, first_move(service, match))).match
        matches.append(match)
    return matches


async def run(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="tessera-flags-"))
    try:
        store = await open_store(f"sqlite:///{folder / 'bench.sqlite3'}")
        # The state cache at the size it grows to when every game moves in turn (matches.StateCache).
        service = Service(store, now=time.time, rng=random.Random(1), state_cache_size=args.games)
        began = time.perf_counter()
        matches = await setup(service, args.games, args.game)
        print(f"set up {len(matches)} live {args.game} games in {time.perf_counter() - began:.1f} s")
        if not args.no_freeze:  # what the bot does once it is ready (bot/__main__.py)
            gc.collect()
            gc.freeze()
        rng = random.Random(2)
        start = time.time() + 2.0
        chosen = rng.sample(matches, min(args.flags, len(matches)))
        flags_at: dict[int, float] = {}
        for match in chosen:
            deadline = start + rng.uniform(0, args.spread)
            await store.set_deadline(match.id, match.ply, deadline)
            flags_at[match.id] = deadline
        timer_late: list[float] = []
        flag_late: list[float] = []
        done = asyncio.Event()
        expected = len(chosen)

        async def flagged(event: TimedOut) -> None:
            flag_late.append(time.time() - flags_at[event.match_id])
            if len(flag_late) >= expected:
                done.set()

        timer = FlagTimer(service.matches, flagged, now=time.time)
        original = timer._flag

        async def timed_flag(match_id: int, ply: int, deadline: float) -> None:
            timer_late.append(time.time() - deadline)
            await original(match_id, ply, deadline)

        timer._flag = timed_flag  # type: ignore[method-assign]
        began = time.perf_counter()
        scheduled = await timer.start()
        print(
            f"flag timer: {scheduled} running clocks read and scheduled in "
            f"{time.perf_counter() - began:.2f} s"
        )
        others = [m for m in matches if m.id not in flags_at]
        movers = rng.sample(others, min(args.movers, len(others)))
        moves = 0

        async def keep_moving(match: MatchView) -> None:
            """One game moving every `--every` seconds (new deadlines; the old entries go stale)."""
            nonlocal moves
            await asyncio.sleep(rng.uniform(0, args.every))
            while not done.is_set():
                mover = match.user_to_move
                if mover is None or not match.is_active:
                    return
                match = (await service.matches.play(match, mover, first_move(service, match))).match
                moves += 1
                await asyncio.sleep(args.every)

        moving = [asyncio.create_task(keep_moving(m)) for m in movers]
        began = time.perf_counter()
        try:
            await asyncio.wait_for(done.wait(), args.spread + 120)
        except TimeoutError:
            print(f"only {len(flag_late)} of {expected} flags came in time")
        elapsed = time.perf_counter() - began
        for task in moving:
            task.cancel()
        await asyncio.gather(*moving, return_exceptions=True)
        await timer.stop()
        print(f"{len(flag_late)} flags over {args.spread:.0f} s ({len(flag_late) / args.spread:.0f}/s); "
              f"{len(movers)} games moving meanwhile ({moves / elapsed:.0f} moves/s)")  # fmt: skip
        print(f"timer: {percentiles(timer_late)}")
        print(f"flag:  {percentiles(flag_late)}")
        await service.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: Any = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--flags", type=int, default=2_000, help="clocks that run out during the run")
    parser.add_argument("--spread", type=float, default=60.0, help="seconds over which the flags fall")
    parser.add_argument("--movers", type=int, default=500, help="games that keep moving meanwhile")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between a mover's moves")
    parser.add_argument("--game", default="paintscape")
    parser.add_argument("--no-freeze", action="store_true", help="leave start-up objects to the collector")
    asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
