"""A sample of puzzles per game: finished matches by bot self-play, mined by games/ai/puzzles.py.

Each match is played from start seed k by the easy level at --play-iterations per move on both seats (it
errs like a beginner, so its matches have positions where one move was clearly best and it missed it), then
`find_puzzles` examines every decision with the budget given. Matches are mined in --jobs processes until
--count puzzles are found or --seconds have passed, per game. Deterministic for a budget: the same seeds give
the same matches and the same puzzles (the jobs only change the order the results arrive in; the file lists
them by match seed and ply).

    python bench/puzzles_sample.py --count 30                     # every game, written to bench/baselines/
    python bench/puzzles_sample.py --game paint --count 2 --first 150 --second 300 --rival 100 --no-write

Writes bench/baselines/puzzles_<game>.md: per puzzle the position (the engine's `position_text`), the
solution line, both searches' figures (best and runner-up win chance, margin, iterations) and the move
played with its value and loss.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import games
from games.ai import best_move
from games.ai.puzzles import MARGIN, PLAYED_LOSS, SCOUT_MARGIN, Puzzle, PuzzleBudget, find_puzzles
from games.base import Seat

GAMES = ("paintscape", "paint", "tilingking")
DEFAULT = PuzzleBudget()
BASELINES = Path(__file__).parent / "baselines"


@dataclass(frozen=True, slots=True)
class Mined:
    """One match's puzzles, with the positions examined and the seconds it took."""

    game: str
    seed: int
    plies: int
    examined: int
    failed: dict[str, int]
    puzzles: list[tuple[Puzzle, str]]
    """Each puzzle with its position as text."""
    seconds: float


def self_play(game: str, seed: int, iterations: int) -> list[tuple[Seat, str]]:
    """A finished match of the easy level against itself, from start seed `seed` (2 seats)."""
    rules = games.get(game)
    state = rules.new(2, {}, seed)
    log: list[tuple[Seat, str]] = []
    ply = 0
    while rules.outcome(state) is None:
        seat = rules.to_move(state)
        assert seat is not None
        move = best_move(rules, state, level="easy", iterations=iterations, seed=seed * 1000 + ply)
        log.append((seat, rules.notation(state, move)))
        state = rules.apply(state, move)
        ply += 1
    return log


def mine(game: str, seed: int, play_iterations: int, budget: PuzzleBudget) -> Mined:
    """Play one match and mine it (in a worker process)."""
    with_nice()
    began = time.perf_counter()
    rules = games.get(game)
    log = self_play(game, seed, play_iterations)
    failed: dict[str, int] = {}
    examined = 0

    def count(step: Any, verdict: Any) -> None:
        nonlocal examined
        examined += 1
        if verdict.failed is not None:
            failed[verdict.failed] = failed.get(verdict.failed, 0) + 1

    found = find_puzzles(rules, rules.new(2, {}, seed), log, budget=budget, seed=seed, on_examined=count)
    texts = [(p, rules.position_text(rules.load(p.position))) for p in found]
    return Mined(game, seed, len(log), examined, failed, texts, time.perf_counter() - began)


def with_nice() -> None:
    with contextlib.suppress(OSError):
        os.nice(0 if os.nice(0) >= 10 else 10)


def scout_text(budget: PuzzleBudget) -> str:
    if budget.scout >= budget.first:
        return ""
    return (
        f"a scout of {budget.scout} iterations whose best move stands {SCOUT_MARGIN} above every other (most "
        "positions stop there), then "
    )


def report(game: str, mined: list[Mined], count: int, budget: PuzzleBudget, args: argparse.Namespace) -> str:
    """The Markdown file of one game's sample."""
    rows = sorted(((m.seed, p, text) for m in mined for p, text in m.puzzles), key=lambda r: (r[0], r[1].ply))
    rows = rows[:count]
    examined = sum(m.examined for m in mined)
    failed: dict[str, int] = {}
    for m in mined:
        for key, value in m.failed.items():
            failed[key] = failed.get(key, 0) + value
    seconds = sum(m.seconds for m in mined)
    lines = [
        f"# Puzzle sample: {game}",
        "",
        f"Made by `python bench/puzzles_sample.py --game {game} --count {count} --first {budget.first} "
        f"--second {budget.second} --rival {budget.rival} --rivals {budget.rivals} "
        f"--scout {budget.scout if budget.scout < budget.first else 0} "
        f"--play-iterations {args.play_iterations} --jobs {args.jobs}` on {os.cpu_count()} CPUs.",
        "",
        f"Matches: easy level against itself at {args.play_iterations} iterations a move, start seeds "
        "from 0. "
        f"Checks (games/ai/puzzles.py): {scout_text(budget)}the solution's win chance at least {MARGIN} "
        f"above every other move's in a first search of {budget.first} iterations and in a second of "
        f"{budget.second} (another seed; "
        f"its {budget.rivals} strongest rivals also searched alone, {budget.rival} iterations each), and the "
        f"move played at least {PLAYED_LOSS} below the solution (searched alone, {budget.rival} iterations).",
        "",
        f"Mined {len(mined)} matches, {examined} positions examined, {sum(len(m.puzzles) for m in mined)} "
        f"puzzles found ({len(rows)} listed), {seconds:.0f} worker-seconds (each match's wall time in its "
        "worker, summed). Positions that failed a check: "
        + ", ".join(f"{key} {value}" for key, value in sorted(failed.items()))
        + ".",
        "",
        "| # | match seed | ply | to move | solution line | 1st: best / runner-up (margin) | "
        "2nd: best / runner-up (margin) | played: value (loss) | difficulty |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for number, (seed, puzzle, _) in enumerate(rows, 1):
        f = puzzle.figures
        lines.append(
            f"| {number} | {seed} | {puzzle.ply} | seat {puzzle.mover} | {' → '.join(puzzle.solution)} | "
            f"{f.first_best:.2f} / {f.first_runner_up:.2f} {f.first_runner_up_move} ({f.first_margin:.2f}) | "
            f"{f.second_best:.2f} / {f.second_runner_up:.2f} {f.second_runner_up_move} "
            f"({f.second_margin:.2f}) | {f.played} {f.played_value:.2f} ({f.played_loss:.2f}) | "
            f"{puzzle.difficulty:.2f} |"
        )
    lines += ["", "## Positions", ""]
    for number, (seed, puzzle, text) in enumerate(rows, 1):
        lines += [
            f"### {number}. match seed {seed}, ply {puzzle.ply}: find {puzzle.move}",
            "",
            "```",
            text,
            "```",
            "",
        ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES, action="append")
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--first", type=int, default=DEFAULT.first)
    parser.add_argument("--second", type=int, default=DEFAULT.second)
    parser.add_argument("--rival", type=int, default=DEFAULT.rival)
    parser.add_argument("--rivals", type=int, default=DEFAULT.rivals)
    parser.add_argument("--scout", type=int, default=DEFAULT.scout, help="the scout's iterations (none: 0)")
    parser.add_argument("--play-iterations", type=int, default=80)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seconds", type=float, default=1800.0, help="per game at most")
    parser.add_argument("--first-seed", type=int, default=0, help="the first match's start seed")
    parser.add_argument("--out", type=Path, help="write here instead of bench/baselines/puzzles_<game>.md")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    budget = PuzzleBudget(
        first=args.first,
        second=args.second,
        rival=args.rival,
        rivals=args.rivals,
        scout=args.scout or args.first,
    )
    for game in args.game or GAMES:
        began = time.monotonic()
        mined: list[Mined] = []
        seeds = iter(range(args.first_seed, 1 << 30))
        with ProcessPoolExecutor(args.jobs) as pool:
            running: set[Future[Mined]] = set()
            while True:
                found = sum(len(m.puzzles) for m in mined)
                late = time.monotonic() - began > args.seconds
                if found < args.count and not late:
                    while len(running) < args.jobs:
                        running.add(pool.submit(mine, game, next(seeds), args.play_iterations, budget))
                if not running:
                    break
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    m = future.result()
                    mined.append(m)
                    print(
                        f"{game} seed {m.seed}: {m.plies} plies, {m.examined} examined, "
                        f"{len(m.puzzles)} puzzles, {m.seconds:.0f} s",
                        flush=True,
                    )
                if not args.no_write:  # written as it goes: a run cut short leaves what it found
                    path = args.out or BASELINES / f"puzzles_{game}.md"
                    path.write_text(report(game, mined, args.count, budget, args) + "\n")
                if sum(len(m.puzzles) for m in mined) >= args.count or late:
                    for future in running:
                        future.cancel()
                    running = {f for f in running if not f.cancelled()}
        text = report(game, mined, args.count, budget, args)
        if args.no_write:
            print(text)
        else:
            path = args.out or BASELINES / f"puzzles_{game}.md"
            path.write_text(text + "\n")
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
