"""Post-game analysis benchmark: how long `/analyse` searches a whole match with the default budget.

Each game is a seeded random two-player match played to the end (random play is full of mistakes, so the
second pass always has candidates). Prints the plies, the decisions analysed, the iterations spent, wall and
CPU seconds, and the turning points found. CPU time is the fairer figure on a busy machine.

    python bench/analysis.py                      # the three games, a minute or so
    python bench/analysis.py --game paintscape --seed 3
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from games.ai.analysis import Budget, analyse_match, decisions  # noqa: E402
from games.base import Seat, replay  # noqa: E402

OPTIONS: dict[str, dict[str, Any]] = {
    "paintscape": {"balance": False},
    "paint": {},
    "tilingking": {"board": "sq9"},
}


def random_match(game_id: str, seed: int) -> tuple[Any, list[tuple[Seat, str]]]:
    """A seeded random two-player match to the end (TilingKing: random placements, pass when none fits)."""
    rules = games.get(game_id)
    rng = random.Random(seed)
    start = rules.new(2, OPTIONS[game_id], seed)
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
    parser.add_argument("--game", choices=sorted(OPTIONS), action="append")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    budget = Budget()
    print(f"budget: first {budget.first}, deep {budget.deep}, first-pass total {budget.total} iterations")
    print(
        f"{'game':11} {'plies':>5} {'analysed':>8} {'iterations':>10} {'wall s':>7} {'cpu s':>7}  "
        "turning points"
    )
    for game_id in args.game or sorted(OPTIONS):
        rules = games.get(game_id)
        start, log = random_match(game_id, args.seed)
        analysed = len(decisions(rules, list(replay(rules, start, log))))
        wall, cpu = time.perf_counter(), time.process_time()
        result = analyse_match(rules, start, log, budget=budget)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        points = sum(len(p) for p in result.turning_points)
        print(
            f"{game_id:11} {len(log):>5} {analysed:>8} {result.iterations:>10} {wall:>7.1f} {cpu:>7.1f}  "
            f"{points}"
        )


if __name__ == "__main__":
    main()
