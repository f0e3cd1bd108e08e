"""Strength of the AI levels: matches with alternating seats, win rates with Wilson 95% intervals.

Pairings (the first player is the one whose score is printed):
  hard-random   hard at --seconds per move against uniformly random moves
  hard-easy     hard at --seconds against easy at the levels' time ratio (0.2 / 3 of --seconds)
  hard-hard     hard at --seconds against hard at a third of it (3 s against 1 s by default)
  hard-plain    hard against plain UCT at the same budget: uniform random playouts to the end (through the
                engine's `fast_playout` where it has one), no game knowledge; a stand-in for an
                independent MCTS opponent

    python bench/ai_strength.py --games 10 --seconds 3            # the full-strength run (long)
    python bench/ai_strength.py --games 6 --seconds 0.3 --jobs 1  # a quick look
    python bench/ai_strength.py --iterations 400                  # iteration budgets: reproducible

Score = (wins + draws / 2) / games. Game k uses start seed k // 2 and seats swapped on odd k, so each start
is played from both sides. With --iterations, hard gets that many iterations per move, easy 1/15 of it and
the weaker hard a third, and the whole run is deterministic.
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import games
from games.ai import Knowledge, analyse, best_move
from games.base import Outcome


class PlainKnowledge(Knowledge):
    """Plain UCT: uniformly random playouts to the end, by the engine's fast path when it has one. It never
    considers resigning or passing for the rest of the game (TilingKing), which no sane player would."""

    def _sane(self, rules: Any, state: Any, moves: list[Any]) -> list[Any]:
        kept = [m for m in moves if rules.notation(state, m) not in HOPELESS]
        return kept or moves

    def order(self, rules: Any, state: Any, moves: list[Any], rng: random.Random) -> list[Any]:
        return super().order(rules, state, self._sane(rules, state, moves), rng)

    def playout(self, rules: Any, state: Any, rng: random.Random, seats: int) -> list[float]:
        fast = getattr(importlib.import_module(type(rules).__module__), "fast_playout", None)
        if fast is None or (rules.id == "paintscape" and state.phase != "play"):
            for _ in range(self.playout_cap):
                outcome = rules.outcome(state)
                if outcome is not None:
                    return self.outcome_rewards(rules, state, outcome)
                moves = self._sane(rules, state, list(rules.legal_moves(state)))
                state = rules.apply(state, moves[rng.randrange(len(moves))])
            return self.evaluate(rules, state, seats)
        winner = fast(state, rng)
        if winner is None or winner < 0:
            return [0.5] * seats
        return [1.0 if s == winner else 0.0 for s in range(seats)]


HOPELESS = frozenset({"resign", "passall"})


EASY_SHARE = 0.2 / 3.0
WEAK_HARD_SHARE = 1.0 / 3.0


@dataclass(frozen=True)
class Player:
    """A contestant: a level with a budget, "plain" (UCT without game knowledge, hard's settings), or
    `level=None` for uniformly random legal moves."""

    label: str
    level: str | None
    seconds: float | None = None
    iterations: int | None = None

    def move(self, rules: Any, state: Any, rng: random.Random) -> Any:
        if self.level is None:
            forced = rules.forced_move(state)
            if forced is not None:
                return forced
            moves = list(rules.legal_moves(state))
            return moves[rng.randrange(len(moves))]
        seed = rng.randrange(1 << 30)
        if self.level == "plain":
            return analyse(
                rules, state, level="hard", seconds=self.seconds, iterations=self.iterations, seed=seed,
                knowledge=PlainKnowledge(),
            ).move  # fmt: skip
        return best_move(
            rules, state, level=self.level, seconds=self.seconds, iterations=self.iterations, seed=seed
        )


def play_game(
    game_id: str, seating: Sequence[Player], seats: int, seed: int, max_plies: int
) -> Outcome | None:
    """One game with `seating[s]` at seat s; None if it hit the ply cap (counted as a draw)."""
    rules = games.get(game_id)
    state = rules.new(seats, {}, seed)
    rng = random.Random(seed * 7919 + 1)
    for _ in range(max_plies):
        seat = rules.to_move(state)
        if seat is None:
            return rules.outcome(state)
        state = rules.apply(state, seating[seat].move(rules, state, rng))
    return rules.outcome(state)


def game_result(args: tuple[str, Player, Player, int, int, int]) -> tuple[float, float]:
    """(score of the first player, seconds taken) for game k of a match."""
    game_id, first, second, k, seats, max_plies = args
    start = time.perf_counter()
    seat_of_first = k % 2
    seating = [second] * seats
    seating[seat_of_first] = first
    outcome = play_game(game_id, seating, seats, k // 2, max_plies)
    elapsed = time.perf_counter() - start
    if outcome is None or outcome.is_draw:
        return 0.5, elapsed
    if seat_of_first in outcome.winners:
        return 1.0 / len(outcome.winners), elapsed
    return 0.0, elapsed


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def pairings(seconds: float, iterations: int | None) -> dict[str, tuple[Player, Player]]:
    if iterations is not None:
        hard = Player(f"hard@{iterations}it", "hard", iterations=iterations)
        easy_iterations = max(1, round(iterations * EASY_SHARE))
        weak_iterations = max(1, round(iterations * WEAK_HARD_SHARE))
        easy = Player(f"easy@{easy_iterations}it", "easy", iterations=easy_iterations)
        weak = Player(f"hard@{weak_iterations}it", "hard", iterations=weak_iterations)
        plain = Player(f"plain@{iterations}it", "plain", iterations=iterations)
    else:
        hard = Player(f"hard@{seconds:g}s", "hard", seconds=seconds)
        easy = Player(f"easy@{seconds * EASY_SHARE:.3g}s", "easy", seconds=seconds * EASY_SHARE)
        weak = Player(f"hard@{seconds * WEAK_HARD_SHARE:.3g}s", "hard", seconds=seconds * WEAK_HARD_SHARE)
        plain = Player(f"plain@{seconds:g}s", "plain", seconds=seconds)
    return {
        "hard-random": (hard, Player("random", None)),
        "hard-easy": (hard, easy),
        "hard-hard": (hard, weak),
        "hard-plain": (hard, plain),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10, help="games per pairing and game (default 10)")
    parser.add_argument("--seconds", type=float, default=3.0, help="hard's time per move (default 3)")
    parser.add_argument("--iterations", type=int, default=None, help="use iteration budgets instead of time")
    parser.add_argument("--game", default=",".join(games.GAME_IDS), help="comma-separated game ids")
    parser.add_argument("--pairings", default="hard-random,hard-easy,hard-hard,hard-plain", help="list")
    parser.add_argument("--seats", type=int, default=2, help="players per game (default 2)")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel (default 1)")
    parser.add_argument("--max-plies", type=int, default=2000, help="a game this long counts as a draw")
    args = parser.parse_args()
    table = pairings(args.seconds, args.iterations)
    print(f"{'game':<11} {'first':<14} {'second':<14} {'games':>5} {'score':>6} {'95% CI':>15} {'s/game':>7}")
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        for game_id in args.game.split(","):
            try:
                games.get(game_id)
            except ImportError as error:
                print(f"{game_id:<11} not available: {error}")
                continue
            for name in args.pairings.split(","):
                first, second = table[name]
                jobs = [(game_id, first, second, k, args.seats, args.max_plies) for k in range(args.games)]
                results = list(pool.map(game_result, jobs))
                score = sum(r[0] for r in results)
                low, high = wilson(score, len(results))
                per_game = sum(r[1] for r in results) / max(1, len(results))
                print(
                    f"{game_id:<11} {first.label:<14} {second.label:<14} {len(results):>5} "
                    f"{score / max(1, len(results)):>6.1%} [{low:>5.1%}, {high:>5.1%}] {per_game:>7.1f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
