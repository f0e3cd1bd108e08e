"""Random Paintscape playouts per second, balancing off: through the generic `Rules` contract and through
`fast_playout`. Run: /tmp/v/bin/python bench/paintscape_playouts.py [seconds per figure, default 3]."""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from games.paintscape import RULES, PaintscapeState, fast_playout

GENERIC_TARGET = 1_500
FAST_TARGET = 4_000


def generic_playout(state: PaintscapeState, rng: random.Random) -> int:
    """One random game the way a generic AI plays it: legal_moves, apply and outcome every ply."""
    rules = RULES
    plies = 0
    while rules.outcome(state) is None:
        state = rules.apply(state, rng.choice(rules.legal_moves(state)))
        plies += 1
    return plies


def measure(
    name: str, seconds: float, target: int, run: Callable[[PaintscapeState, random.Random], int]
) -> None:
    """Play random games from 200 random starts for `seconds`; print playouts per second."""
    rng = random.Random(1)
    starts = [RULES.new(2, {"balance": False}, seed) for seed in range(200)]
    count = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        for _ in range(20):
            run(starts[count % len(starts)], rng)
            count += 1
    elapsed = time.perf_counter() - began
    rate = count / elapsed
    verdict = "ok" if rate >= target else "BELOW TARGET"
    print(f"{name:<28} {rate:>9,.0f} playouts/s   (target >= {target:,}: {verdict})")


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    rng = random.Random(2)
    lengths = [generic_playout(RULES.new(2, {"balance": False}, seed), rng) for seed in range(300)]
    print(f"mean game length {sum(lengths) / len(lengths):.1f} plies (random play, 300 games)")
    measure("generic contract", seconds, GENERIC_TARGET, generic_playout)
    measure("fast_playout", seconds, FAST_TARGET, fast_playout)


if __name__ == "__main__":
    main()
