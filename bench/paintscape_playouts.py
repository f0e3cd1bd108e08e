"""Random Paintscape playouts per second, balancing off: through the generic `Rules` contract and through
`fast_playout`. Run: python bench/paintscape_playouts.py [seconds per figure, default 6]."""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from games.paintscape.rules import RULES, PaintscapeState, fast_playout

GENERIC_TARGET = 1_500
FAST_TARGET = 4_000
ROUNDS = 3


def generic_playout(state: PaintscapeState, rng: random.Random) -> int:
    """One random game the way a generic AI plays it: legal_moves, apply and outcome every ply."""
    rules = RULES
    plies = 0
    while rules.outcome(state) is None:
        state = rules.apply(state, rng.choice(rules.legal_moves(state)))
        plies += 1
    return plies


def rate_of(seconds: float, run: Callable[[PaintscapeState, random.Random], int]) -> float:
    """Playouts per CPU second of this process over `seconds` of CPU time, cycling through 200 random
    starts (balancing off). CPU time, not wall time: the machine is shared, and waiting for a core is not
    the engine's cost."""
    rng = random.Random(1)
    starts = [RULES.new(2, {"balance": False}, seed) for seed in range(200)]
    count = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        for _ in range(20):
            run(starts[count % len(starts)], rng)
            count += 1
    return count / (time.process_time() - began)


def measure(
    name: str, seconds: float, target: int, run: Callable[[PaintscapeState, random.Random], int]
) -> None:
    """Print the best and the median of ROUNDS rounds (the machine is shared, so rounds vary)."""
    rates = sorted(rate_of(seconds / ROUNDS, run) for _ in range(ROUNDS))
    best, median = rates[-1], rates[len(rates) // 2]
    verdict = "ok" if best >= target else "BELOW TARGET"
    print(
        f"{name:<18} best {best:>7,.0f}/s  median {median:>7,.0f}/s (per CPU second)"
        f"  target >= {target:,}: {verdict}"
    )


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 6.0
    rng = random.Random(2)
    lengths = [generic_playout(RULES.new(2, {"balance": False}, seed), rng) for seed in range(300)]
    print(f"mean game length {sum(lengths) / len(lengths):.1f} plies (random play, 300 games)")
    measure("generic contract", seconds, GENERIC_TARGET, generic_playout)
    measure("fast_playout", seconds, FAST_TARGET, fast_playout)


if __name__ == "__main__":
    main()
