"""Post-game analysis and hint benchmark: how long `/analyse` and `/hint` take with the bot's budgets.

Each game is a seeded random match played to the end (random play is full of mistakes, so the second pass
always has candidates). The analysis uses the bot's budget (`TIMED_BUDGET`: iterations bounded by
`ANALYSIS_SECONDS` of searching in all), the hint `HINT_ITERATIONS` bounded by `HINT_SECONDS`. Each case
runs `--runs` times (different seeds) and prints the median and the worst wall time, the median CPU time
(the fairer figure on a shared machine), the decisions analysed, the median iterations and the turning
points found; hints are timed at the start, a third and two thirds of each match.

    python bench/analysis.py                       # every case, a few minutes
    python bench/analysis.py --case paintscape --runs 5
    python bench/analysis.py --iterations-only     # the old budget: iterations alone, no time bound
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from bot.service.analysis import HINT_ITERATIONS  # noqa: E402
from games.ai.analysis import HINT_SECONDS, TIMED_BUDGET, Budget, analyse_match, hint, positions  # noqa: E402
from games.base import Seat, replay  # noqa: E402

CASES: dict[str, tuple[str, int, dict[str, Any]]] = {
    # name: game, seats, options
    "paintscape": ("paintscape", 2, {"balance": False}),
    "paint": ("paint", 2, {}),
    "tilingking-sq9": ("tilingking", 2, {"board": "sq9"}),
    "tilingking": ("tilingking", 2, {}),
    "tilingking-4": ("tilingking", 4, {}),
    "tilingking-hex": ("tilingking", 3, {"board": "hex8bi"}),
}


def random_match(
    game_id: str, seats: int, options: dict[str, Any], seed: int
) -> tuple[Any, list[tuple[Seat, str]]]:
    """A seeded random match to the end (TilingKing: random placements, pass when none fits)."""
    rules = games.get(game_id)
    rng = random.Random(seed)
    start = rules.new(seats, options, seed)
    state, log = start, []
    while (seat := rules.to_move(state)) is not None:
        moves = [m for m in rules.legal_moves(state) if rules.notation(state, m) not in ("resign", "passall")]
        placements = [m for m in moves if getattr(m, "action", "place") == "place"]
        move = rng.choice(placements or moves)
        log.append((seat, rules.notation(state, move)))
        state = rules.apply(state, move)
    return start, log


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--case", choices=sorted(CASES), action="append")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--iterations-only", action="store_true")
    args = parser.parse_args()
    budget = Budget() if args.iterations_only else TIMED_BUDGET
    hint_seconds = None if args.iterations_only else HINT_SECONDS
    print(
        f"analysis budget: first {budget.first}, deep {budget.deep}, first-pass total {budget.total} "
        f"iterations, {budget.seconds} s; hint {HINT_ITERATIONS} iterations, {hint_seconds} s; "
        f"{args.runs} runs each"
    )
    print(
        f"{'case':15} {'plies':>5} {'analysed':>8} {'iterations':>10} {'wall s':>7} {'worst':>6} "
        f"{'cpu s':>6} {'points':>6}  {'hint s':>6} {'worst':>6}"
    )
    for name in args.case or list(CASES):
        game_id, seats, options = CASES[name]
        rules = games.get(game_id)
        walls, cpus, iterations, plies, analysed, points, hints = [], [], [], [], [], [], []
        for run in range(args.runs):
            start, log = random_match(game_id, seats, options, run + 1)
            plies.append(len(log))
            analysed.append(len(positions(rules, start, log)))
            wall, cpu = time.perf_counter(), time.process_time()
            result = analyse_match(rules, start, log, budget=budget)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
            iterations.append(result.iterations)
            points.append(sum(len(p) for p in result.turning_points))
            steps = list(replay(rules, start, log))
            for share in (0, 1 / 3, 2 / 3):
                state = steps[int(share * len(steps))].before
                began = time.perf_counter()
                hint(rules, state, iterations=HINT_ITERATIONS, seconds=hint_seconds, seed=run)
                hints.append(time.perf_counter() - began)
        median = statistics.median
        print(
            f"{name:15} {median(plies):>5.0f} {median(analysed):>8.0f} {median(iterations):>10.0f} "
            f"{median(walls):>7.1f} {max(walls):>6.1f} {median(cpus):>6.1f} {median(points):>6.0f}  "
            f"{median(hints):>6.2f} {max(hints):>6.2f}"
        )


if __name__ == "__main__":
    main()
