"""Paint engine speed: random plies per second (legal-move generation plus apply).

    python bench/paint_plies.py [--games 200] [--seconds 2] [--seed 1]

Figures, one per line, in a stable format:
- positions: legal_moves + apply of a random move, on positions sampled from random games (fresh objects
  and an emptied area cache, so nothing is known in advance);
- games: whole random games through the contract (outcome + legal_moves + apply each ply);
- fast_playout: whole random games through `fast_playout`, plies counted from the same seeds.
"""

from __future__ import annotations

import argparse
import random
import time

from games.paint import rules as paint
from games.paint.rules import RULES, PaintState, fast_playout


def sample_positions(games: int, seed: int) -> list[PaintState]:
    """Every position of `games` random games from the standard start."""
    rng = random.Random(seed)
    positions = []
    for _ in range(games):
        state = RULES.new(2, {}, 0)
        while RULES.outcome(state) is None:
            positions.append(state)
            state = RULES.apply(state, rng.choice(RULES.legal_moves(state)))
    return positions


def bench_positions(positions: list[PaintState], seconds: float, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    plies = 0
    elapsed = 0.0
    while elapsed < seconds:
        fresh = [RULES.load(RULES.dump(p)) for p in rng.sample(positions, min(2000, len(positions)))]
        paint._AREA_CACHE.clear()  # no areas known from sampling: a cold start for every batch
        started = time.perf_counter()
        for state in fresh:
            RULES.apply(state, rng.choice(RULES.legal_moves(state)))
        elapsed += time.perf_counter() - started
        plies += len(fresh)
    return plies / elapsed, plies


def bench_games(seconds: float, seed: int) -> tuple[float, int, int]:
    rng = random.Random(seed)
    plies = games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = RULES.new(2, {}, 0)
        while RULES.outcome(state) is None:
            state = RULES.apply(state, rng.choice(RULES.legal_moves(state)))
            plies += 1
        games += 1
    return plies / (time.perf_counter() - started), plies, games


def bench_fast(seconds: float, seed: int) -> tuple[float, int, int]:
    start = RULES.new(2, {}, 0)
    plies = games = 0
    elapsed = 0.0
    game_seed = seed
    while elapsed < seconds:
        game_seed += 1
        # Count the plies of this game on the contract path (same choices), untimed.
        rng = random.Random(game_seed)
        state = start
        while RULES.outcome(state) is None:
            state = RULES.apply(state, rng.choice(RULES.legal_moves(state)))
        plies += state.ply
        started = time.perf_counter()
        fast_playout(start, random.Random(game_seed))
        elapsed += time.perf_counter() - started
        games += 1
    return plies / elapsed, plies, games


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200, help="random games to sample positions from")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per figure (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    positions = sample_positions(args.games, args.seed)
    rate, plies = bench_positions(positions, args.seconds, args.seed)
    print(f"paint positions     {rate:>10.0f} plies/s  ({plies} plies, {len(positions)} sampled positions)")
    rate, plies, games = bench_games(args.seconds, args.seed)
    print(f"paint games         {rate:>10.0f} plies/s  ({plies} plies, {games} games, outcome every ply)")
    rate, plies, games = bench_fast(args.seconds, args.seed)
    print(f"paint fast_playout  {rate:>10.0f} plies/s  ({plies} plies, {games} games)")


if __name__ == "__main__":
    main()
