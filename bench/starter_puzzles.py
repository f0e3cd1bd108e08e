"""The starter puzzle pools shipped with the games (`games/<game>/puzzles.jsonl`, `GamePlugin.puzzles`):
puzzles from bot self-play, each found and verified by the finder (games/ai/puzzles.py) at its own budget,
so a new installation has puzzles before its own matches are mined (bot/service/puzzles.py serves them
until a game has `STARTER_UNTIL` puzzles of its own).

Match k (k = 0, 1, 2...) is played from start seed k by the bot's levels 1 to 4 at their own iteration
budgets (games/<game>/levels.json; seat 0 at level 1 + k % 4, seat 1 at level 1 + k // 4 % 4: weak levels
err, so their matches have positions where one move was clearly best and it was missed), and mined by
`find_puzzles` (at most one puzzle a match). Everything is seeded and bounded by iterations, never by time:
the same seeds give the same pool on any machine, whatever --jobs.

Resumable: the pool file lists its puzzles in match order and its companion
`games/<game>/puzzles.progress.json` records how many matches were mined, the worker-seconds they took (wall
time in the worker: a busy machine makes it longer) and their CPU seconds (counted since `cpu_matches`);
a run goes on from there, appending, until the pool holds --count puzzles or --seconds have passed. Stop it
at any time (what was written stays valid: matches are written in seed order once every lower seed is done).

    nice -n 19 python bench/starter_puzzles.py --count 300 --jobs 2          # every game, resumed
    python bench/starter_puzzles.py --game paintscape --count 5 --out /tmp/pool   # elsewhere
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import games
from games.ai import best_move
from games.ai.levels import ladder
from games.ai.puzzles import Puzzle, PuzzleBudget, find_puzzles
from games.base import Seat

GAMES = ("paintscape", "paint", "tilingking")
ROOT = Path(__file__).resolve().parent.parent
PLAYING_LEVELS = 4
"""The levels that play the source matches: 1 to this."""


@dataclass(frozen=True, slots=True)
class Mined:
    """One match's puzzle (if any), the match's length and the seconds it took."""

    seed: int
    plies: int
    puzzle: Puzzle | None
    seconds: float
    cpu_seconds: float


def levels_of(seed: int) -> tuple[int, int]:
    """The levels of the two seats of match `seed`."""
    return 1 + seed % PLAYING_LEVELS, 1 + seed // PLAYING_LEVELS % PLAYING_LEVELS


def self_play(game: str, seed: int) -> list[tuple[Seat, str]]:
    """Match `seed`: the seats at `levels_of(seed)`, each at its level's iteration budget."""
    rules = games.get(game)
    rungs = ladder(game)
    levels = levels_of(seed)
    state = rules.new(2, {}, seed)
    log: list[tuple[Seat, str]] = []
    while rules.outcome(state) is None:
        seat = rules.to_move(state)
        assert seat is not None
        level = levels[seat]
        move = best_move(
            rules,
            state,
            level=str(level),
            iterations=rungs[level - 1].iterations,
            seed=seed * 1000 + len(log),
        )
        log.append((seat, rules.notation(state, move)))
        state = rules.apply(state, move)
    return log


def mine(game: str, seed: int) -> Mined:
    """Play match `seed` and mine it (in a worker process)."""
    with contextlib.suppress(OSError):
        os.nice(0 if os.nice(0) >= 10 else 10)
    began, cpu = time.perf_counter(), time.process_time()
    rules = games.get(game)
    log = self_play(game, seed)
    found = find_puzzles(rules, rules.new(2, {}, seed), log, budget=PuzzleBudget(), seed=seed)
    return Mined(
        seed,
        len(log),
        found[0] if found else None,
        time.perf_counter() - began,
        time.process_time() - cpu,
    )


def entry(game: str, seed: int, puzzle: Puzzle) -> dict[str, Any]:
    """One line of a pool file (what bot/service/puzzles.py loads)."""
    return {
        "game": game,
        "match": seed,
        "ply": puzzle.ply,
        "seats": 2,
        "options": {},
        "mover": puzzle.mover,
        "position": puzzle.position,
        "solution": list(puzzle.solution),
        "figures": puzzle.figures.as_dict(),
        "theme": puzzle.theme,
        "difficulty": puzzle.difficulty,
    }


def paths(game: str, out: Path | None) -> tuple[Path, Path]:
    folder = out if out is not None else ROOT / "games" / game
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "puzzles.jsonl", folder / "puzzles.progress.json"


def run_game(game: str, count: int, jobs: int, seconds: float, out: Path | None) -> None:
    pool_path, progress_path = paths(game, out)
    progress: dict[str, Any] = {"matches": 0, "worker_seconds": 0.0, "cpu_seconds": 0.0, "puzzles": 0}
    if progress_path.exists():
        progress.update(json.loads(progress_path.read_text()))
    have = sum(1 for line in pool_path.read_text().splitlines() if line.strip()) if pool_path.exists() else 0
    began = time.monotonic()
    next_seed = int(progress["matches"])
    done: dict[int, Mined] = {}
    with ProcessPoolExecutor(jobs) as pool, pool_path.open("a", encoding="utf-8") as sink:
        running: set[Future[Mined]] = set()
        queued = next_seed
        while True:
            late = time.monotonic() - began > seconds
            if have < count and not late:
                while len(running) < jobs:
                    running.add(pool.submit(mine, game, queued))
                    queued += 1
            if not running:
                break
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                mined = future.result()
                done[mined.seed] = mined
            while next_seed in done and have < count:  # in seed order: a resumed run adds the same lines
                mined = done.pop(next_seed)
                next_seed += 1
                progress["matches"] = next_seed
                progress["worker_seconds"] = round(float(progress["worker_seconds"]) + mined.seconds, 1)
                progress["cpu_seconds"] = round(float(progress["cpu_seconds"]) + mined.cpu_seconds, 1)
                progress["cpu_matches"] = int(progress.get("cpu_matches", 0)) + 1
                if mined.puzzle is not None:
                    sink.write(
                        json.dumps(entry(game, mined.seed, mined.puzzle), separators=(",", ":")) + "\n"
                    )
                    sink.flush()
                    have += 1
                progress["puzzles"] = have
                progress_path.write_text(json.dumps(progress, indent=1) + "\n")
                print(
                    f"{game} match {mined.seed}: {mined.plies} plies, "
                    f"{'a puzzle' if mined.puzzle else 'none'} ({mined.seconds:.1f} s); pool {have}",
                    flush=True,
                )
            if have >= count or late:
                for future in running:
                    future.cancel()
                running = {f for f in running if not f.cancelled()}
    print(
        f"{game}: {have} puzzles from {progress['matches']} matches, "
        f"{float(progress['worker_seconds']) / 60:.1f} worker-minutes in all",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES, action="append")
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seconds", type=float, default=float("inf"), help="per game at most")
    parser.add_argument("--out", type=Path, help="a folder for the pool files instead of games/<game>/")
    args = parser.parse_args()
    for game in args.game or GAMES:
        run_game(game, args.count, args.jobs, args.seconds, args.out)


if __name__ == "__main__":
    main()
