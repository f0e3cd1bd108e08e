"""Playouts per second per game: uniformly random playouts through the `Rules` contract, the engine's own
`fast_playout` where it has one, and the AI's informed playout policy (games.ai knowledge).

    python bench/ai_playouts.py [--seconds 2] [--games paintscape,paint,tilingking] [--seats 2]

Each figure starts from fresh positions (seeds 0-15; Paintscape without balancing, so in the play phase)
and runs for about `--seconds`. Output columns:
game, path, playouts/s, mean plies per playout (where known), seconds measured.
"""

from __future__ import annotations

import argparse
import importlib
import random
import time
from collections.abc import Callable
from typing import Any

import games
from games.ai import Knowledge, knowledge_for
from games.base import Rules


def contract_playout(rules: Rules[Any, Any], state: Any, rng: random.Random, cap: int) -> int:
    """Random legal moves to the end (or `cap` plies); returns the plies played."""
    plies = 0
    while plies < cap and rules.to_move(state) is not None:
        moves = list(rules.legal_moves(state))
        state = rules.apply(state, moves[rng.randrange(len(moves))])
        plies += 1
    return plies


def measure(
    name: str,
    path: str,
    seconds: float,
    starts: Callable[[int], Any],
    run: Callable[[Any, random.Random], int | None],
) -> None:
    rng = random.Random(0)
    count = 0
    plies = 0
    known = True
    begin = time.perf_counter()
    while True:
        result = run(starts(count), rng)
        count += 1
        if result is None:
            known = False
        else:
            plies += result
        elapsed = time.perf_counter() - begin
        if elapsed >= seconds:
            break
    per_playout = f"{plies / count:8.1f}" if known else "       -"
    print(f"{name:<12} {path:<22} {count / elapsed:10.1f} {per_playout} {elapsed:8.2f}")


START_OPTIONS: dict[str, dict[str, Any]] = {"paintscape": {"balance": False}}
"""Start in the play phase: playouts (and the fast paths) are about play, not Paintscape's balancing."""


def bench_game(game_id: str, seats: int, seconds: float, cap: int) -> None:
    """Print one line per playout path of one game."""
    try:
        rules = games.get(game_id)
    except ImportError as error:
        print(f"{game_id:<12} not available: {error}")
        return
    seats = seats if seats in rules.seats else min(rules.seats)
    cache: dict[int, Any] = {}

    def start(i: int) -> Any:
        key = i % 16
        if key not in cache:
            cache[key] = rules.new(seats, START_OPTIONS.get(game_id, {}), key)
        return cache[key]

    def by_contract(state: Any, rng: random.Random) -> int:
        return contract_playout(rules, state, rng, cap)

    measure(game_id, "contract (random)", seconds, start, by_contract)
    fast = getattr(importlib.import_module(type(rules).__module__), "fast_playout", None)
    if fast is not None:

        def by_fast_path(state: Any, rng: random.Random) -> None:
            assert fast is not None
            fast(state, rng)
            return None

        measure(game_id, "fast_playout", seconds, start, by_fast_path)
    knowledge = knowledge_for(game_id)
    if type(knowledge) is not Knowledge:

        def by_knowledge(state: Any, rng: random.Random) -> None:
            if knowledge.rave:  # the search then plays the playouts that report their moves
                knowledge.playout_keys(rules, state, rng, seats)
            else:
                knowledge.playout(rules, state, rng, seats)
            return None

        measure(game_id, "ai knowledge playout", seconds, start, by_knowledge)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="time per figure (default 2)")
    parser.add_argument("--games", default=",".join(games.GAME_IDS), help="comma-separated game ids")
    parser.add_argument("--seats", type=int, default=2, help="players per game (default 2)")
    parser.add_argument("--cap", type=int, default=1000, help="ply cap of a contract playout (default 1000)")
    args = parser.parse_args()
    print(f"{'game':<12} {'path':<22} {'playouts/s':>10} {'plies':>8} {'seconds':>8}")
    for game_id in args.games.split(","):
        bench_game(game_id, args.seats, args.seconds, args.cap)


if __name__ == "__main__":
    main()
