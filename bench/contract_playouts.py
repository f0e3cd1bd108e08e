"""Uniformly random playouts through the `Rules` contract, a fixed amount of work, timed in CPU seconds:
the figure for comparing two trees of the engines (old against new) side by side.

    python bench/contract_playouts.py [--root TREE] [--games paintscape,paint,tilingking] [--playouts 400]

`--root` is the tree whose `games` package is measured (default: the tree holding this script), so the same
script measures an older checkout. Every game plays the same playouts each run: starts from seeds 0-15
(Paintscape without balancing, in the play phase; TilingKing two seats), moves drawn by `random.Random(0)`,
each ply `to_move`, `legal_moves` and `apply` as a generic search plays them. Output per game: the playouts,
the plies they played (equal for equal engines), CPU seconds and playouts per CPU second. The work is fixed,
so `valgrind --tool=callgrind` instruction counts of a run compare two trees without timing noise.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

START_OPTIONS: dict[str, dict[str, Any]] = {"paintscape": {"balance": False}}
"""Start in the play phase: a search's playouts are about play, not Paintscape's balancing."""


def playouts(rules: Any, starts: list[Any], count: int, cap: int) -> int:
    """`count` random playouts (to the end or `cap` plies) from `starts` in turn; returns the plies played."""
    rng = random.Random(0)
    to_move, legal_moves, apply = rules.to_move, rules.legal_moves, rules.apply
    plies = 0
    for i in range(count):
        state = starts[i % len(starts)]
        played = 0
        while played < cap and to_move(state) is not None:
            moves = legal_moves(state)
            state = apply(state, moves[rng.randrange(len(moves))])
            played += 1
        plies += played
    return plies


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--games", default="paintscape,paint,tilingking", help="comma-separated game ids")
    parser.add_argument("--playouts", type=int, default=400, help="playouts per game (default 400)")
    parser.add_argument("--cap", type=int, default=1000, help="ply cap of a playout (default 1000)")
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    import games

    assert Path(games.__file__).resolve().is_relative_to(args.root.resolve()), games.__file__
    for game_id in args.games.split(","):
        rules = games.get(game_id)
        seats = 2 if 2 in rules.seats else min(rules.seats)
        starts = [rules.new(seats, START_OPTIONS.get(game_id, {}), seed) for seed in range(16)]
        began = time.process_time()
        plies = playouts(rules, starts, args.playouts, args.cap)
        cpu = time.process_time() - began
        print(
            f"{game_id:<11} playouts {args.playouts:>6} plies {plies:>8} cpu {cpu:7.3f} s"
            f"  {args.playouts / max(cpu, 1e-9):9.1f} playouts/cpu-s"
        )


if __name__ == "__main__":
    main()
