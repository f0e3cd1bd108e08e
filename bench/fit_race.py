"""Fit the Paintscape race evaluation's weights to self-play: positions of games the hard AI played against
itself, each labelled with who won it, scored by the log loss of `race_chance` as a prediction.

    python bench/fit_race.py --games 120 --iterations 150 --jobs 2 --data /tmp/race.json   # play and fit
    python bench/fit_race.py --data /tmp/race.json                                          # fit again

The search is a pattern search over the weights (scale, tempo, path, damp) for each depth asked for: each
weight in turn is multiplied and divided by a step factor while that lowers the loss; the factor shrinks
when nothing helps. It prints the loss (and how often the favoured side won) of the default and the fitted
weights.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import games
from games.ai import analyse
from games.paintscape.race import RaceWeights, race_chance

Sample = tuple[int, int, list[int], list[int], bool, float]
"""(black, white, tiles, colours collected by Black and White, Black to move, Black's result)."""


def self_play(args: tuple[int, int]) -> list[Sample]:
    """Every play-phase position of one hard-against-hard game (start `seed`), labelled with the result."""
    seed, iterations = args
    rules = games.get("paintscape")
    state = rules.new(2, {"balance": False}, seed)
    rng = random.Random(seed)
    positions = []
    while rules.to_move(state) is not None:
        if state.phase == "play":
            scores = [state.collected.count(0), state.collected.count(1)]
            positions.append((state.black, state.white, list(state.tiles), scores, state.turn == 0))
        move = analyse(rules, state, iterations=iterations, seed=rng.randrange(1 << 30)).move
        state = rules.apply(state, move)
    outcome = rules.outcome(state)
    assert outcome is not None and state.black_seat is not None
    black_result = 0.5 if outcome.is_draw else 1.0 if state.black_seat in outcome.winners else 0.0
    return [(*p, black_result) for p in positions]


def loss(samples: list[Sample], weights: RaceWeights) -> tuple[float, float]:
    """(mean log loss, share of decided predictions the result agreed with)."""
    total = 0.0
    right = 0
    for black, white, tiles, scores, black_to_move, result in samples:
        p = min(1 - 1e-6, max(1e-6, race_chance(black, white, tiles, scores, black_to_move, weights)))
        total -= result * math.log(p) + (1 - result) * math.log(1 - p)
        right += (p > 0.5) == (result > 0.5)
    return total / len(samples), right / len(samples)


def fit(samples: list[Sample], start: RaceWeights) -> RaceWeights:
    """Pattern search on the four real weights (see the module docstring)."""
    best, best_loss = start, loss(samples, start)[0]
    factor = 2.0
    while factor > 1.05:
        improved = False
        for name in ("scale", "tempo", "path", "damp"):
            for change in (factor, 1 / factor):
                trial = dataclasses.replace(best, **{name: getattr(best, name) * change})
                trial_loss = loss(samples, trial)[0]
                if trial_loss < best_loss - 1e-5:
                    best, best_loss, improved = trial, trial_loss, True
        if not improved:
            factor = math.sqrt(factor)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=0, help="self-play games to add to the data")
    parser.add_argument("--iterations", type=int, default=150, help="hard's iterations a move")
    parser.add_argument("--jobs", type=int, default=2, help="games played in parallel processes (default 2)")
    parser.add_argument("--data", type=Path, required=True, help="JSON file of samples (read, then extended)")
    parser.add_argument("--first-seed", type=int, default=100_000, help="start of the new games' seeds")
    parser.add_argument("--depths", default="2,3,4,5", help="reach depths to fit (default 2,3,4,5)")
    args = parser.parse_args()
    samples: list[Sample] = json.loads(args.data.read_text()) if args.data.exists() else []
    if args.games:
        with ProcessPoolExecutor(max(1, args.jobs)) as pool:
            jobs = [(args.first_seed + g, args.iterations) for g in range(args.games)]
            for game in pool.map(self_play, jobs):
                samples.extend(game)
        args.data.write_text(json.dumps(samples))
    print(f"{len(samples)} positions")
    default = RaceWeights()
    log_loss, agrees = loss(samples, default)
    print(f"default {default}: log loss {log_loss:.4f}, agrees {agrees:.1%}")
    for depth in (int(d) for d in args.depths.split(",")):
        fitted = fit(samples, dataclasses.replace(default, depth=depth))
        log_loss, agrees = loss(samples, fitted)
        print(f"fitted  {fitted}: log loss {log_loss:.4f}, agrees {agrees:.1%}", flush=True)


if __name__ == "__main__":
    main()
