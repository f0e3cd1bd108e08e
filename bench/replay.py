"""Replay benchmark: time, size and peak memory of animated replays of long games, each measured in a fresh
process so that one replay's peak does not hide another's.

Time is wall-clock and CPU time (the CPU figure is the fairer one on a busy machine). Memory is reported
two ways: `rss+` is how far the process's peak resident size (ru_maxrss) rose above its
resident size just before the replay (the figure that matters to the bot: Pillow's pixel buffers are
allocated in C and are invisible to tracemalloc), and `traced` is tracemalloc's peak of Python allocations.
Target (issue 14): a 600-move replay peaks at <= 100 MiB.

    python bench/replay.py                 # the four cases below, a minute or two
    python bench/replay.py --case paint-600
    python bench/replay.py --case paint-600 --size 540 --max-frames 301   # what smaller replays would cost
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CASES: dict[str, tuple[str, int, dict[str, Any], int, int]] = {
    # name: game, seats, options, seed, move limit
    "paint-600": ("paint", 2, {"lead_turns": 1000, "no_lead_turns": 1000}, 9, 600),
    "paintscape-long": ("paintscape", 2, {}, 9, 600),
    "tilingking-sq19x4": ("tilingking", 4, {"board": "sq9", "size": 19, "copies": 6}, 9, 600),
    "tilingking-tri8": ("tilingking", 4, {"board": "tri4", "size": 8, "copies": 3}, 9, 600),
}
TARGET_MIB = 100
PLAYERS = ["Alice", "Bob", "Carol", "Dave"]


def random_moves(
    game_id: str, seats: int, options: dict[str, Any], seed: int, limit: int
) -> list[tuple[int, str]]:
    """A seeded random game's move log, (seat, notation) entries (TilingKing prefers placing to passing)."""
    import games

    rules = games.get(game_id)
    rng = random.Random(seed)
    state = rules.new(seats, options, seed)
    moves: list[tuple[int, str]] = []
    while (seat := rules.to_move(state)) is not None and len(moves) < limit:
        legal = list(rules.legal_moves(state))
        if game_id == "tilingking":
            legal = [m for m in legal if m.action == "place"] or legal
        move = rng.choice(legal)
        moves.append((seat, rules.notation(state, move)))
        state = rules.apply(state, move)
    return moves


def resident_mib() -> float:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def measure(case: str, extra: dict[str, Any]) -> dict[str, Any]:
    """Run one replay in this process and return its figures (`extra`: keyword arguments for replay_gif)."""
    import io

    from PIL import Image

    import renderer.replay as replay

    game_id, seats, options, seed, limit = CASES[case]
    moves = random_moves(game_id, seats, options, seed, limit)
    before = resident_mib()
    start, start_cpu = time.perf_counter(), time.process_time()
    data = replay.replay_gif(game_id, options, seed, seats, moves, PLAYERS[:seats], **extra)
    seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    # a second run under tracemalloc (which slows Python down, so it is not timed)
    tracemalloc.start()
    replay.replay_gif(game_id, options, seed, seats, moves, PLAYERS[:seats], **extra)
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    frames = getattr(Image.open(io.BytesIO(data)), "n_frames", 1)
    return {
        "case": case,
        "moves": len(moves),
        "frames": frames,
        "seconds": seconds,
        "cpu": cpu,
        "bytes": len(data),
        "rss_before": before,
        "rss_peak": peak,
        "traced_peak": traced_peak / 2**20,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", choices=sorted(CASES), action="append", help="run only these cases")
    parser.add_argument("--size", type=int, help="frame width (default: the renderer's REPLAY_SIZE)")
    parser.add_argument("--max-frames", type=int, help="frame cap (default: the renderer's MAX_FRAMES)")
    parser.add_argument("--child", choices=sorted(CASES), help=argparse.SUPPRESS)
    args = parser.parse_args()
    extra = {k: v for k, v in (("size", args.size), ("max_frames", args.max_frames)) if v is not None}
    if args.child:
        print(json.dumps(measure(args.child, extra)))
        return
    print(f"replay benchmark (one fresh process per case; target rss+ <= {TARGET_MIB} MiB for 600 moves)")
    for case in args.case or list(CASES):
        flags = [f"--{k.replace('_', '-')}={v}" for k, v in extra.items()]
        result = subprocess.run(
            [sys.executable, __file__, "--child", case, *flags], capture_output=True, text=True, check=True
        )
        r = json.loads(result.stdout.strip().splitlines()[-1])
        print(
            f"{r['case']:<18} {r['moves']:4d} moves {r['frames']:4d} frames  "
            f"{r['seconds']:6.2f} s ({r['cpu']:5.2f} s CPU)  "
            f"{r['bytes'] / 2**20:5.2f} MiB GIF  rss+ {r['rss_peak'] - r['rss_before']:6.1f} MiB "
            f"(peak {r['rss_peak']:6.1f}, before {r['rss_before']:5.1f})  traced {r['traced_peak']:6.1f} MiB"
        )


if __name__ == "__main__":
    main()
