"""Puzzle quality by lichess's rule: the share of ambiguous puzzles, checked at ten times the finder's budget.

A puzzle is **ambiguous** when another move comes within lichess's margin of the solution (0.42 on lichess's
-1..1 scale: `LICHESS_MARGIN`, 0.21 on the finder's [0, 1] win chance), and **wrong** when another move is
worth more than the solution. Each puzzle's position is searched again, with seeds the finder never used, at
`--factor` (10) times the finder's budgets (games/ai/puzzles.py `PuzzleBudget`): one search over every
candidate at factor x `second` iterations, then the solution and each rival alone at factor x `rival`
(every other legal move where there are at most `alone`, else the 3 strongest of the big search); a move's
value is the higher of its two (the solution's, the lower).

The sample: the starter pools shipped with the games (`games/<game>/puzzles.jsonl`, bench/starter_puzzles.py:
puzzles the finder found in self-play it was never tuned on), the first --count of each; or with --fresh,
puzzles mined now from match seeds starting at --first-seed (far from the pools' seeds). Deterministic.

    nice -n 19 python bench/puzzle_quality.py --count 100 --jobs 2       # every game, the shipped pools
    python bench/puzzle_quality.py --game paintscape --count 5 --fresh --no-write

Prints, per game, the puzzles checked, the ambiguous and wrong ones (share), and the worker-seconds; writes
bench/baselines/puzzle_quality.md with a line per puzzle (its solution, the closest rival and the gap).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import starter_puzzles

import games
from games.ai.analysis import LEVEL
from games.ai.knowledge import knowledge_for
from games.ai.puzzles import LICHESS_MARGIN, PuzzleBudget, starter_pool
from games.ai.search import Search, analyse, seat_count

GAMES = ("paintscape", "paint", "tilingking")
BASELINES = Path(__file__).parent / "baselines"
CHECK_SEED = 1 << 24
"""Added to every check search's seed: the finder never used these."""
TOP_RIVALS = 3


@dataclass(frozen=True, slots=True)
class Checked:
    """One puzzle's check: the solution's value, the closest rival and its value, the seconds it took."""

    game: str
    match: int
    solution: str
    value: float
    rival: str
    rival_value: float
    seconds: float

    @property
    def gap(self) -> float:
        return self.value - self.rival_value

    @property
    def ambiguous(self) -> bool:
        return self.gap < LICHESS_MARGIN

    @property
    def wrong(self) -> bool:
        return self.gap < 0


def alone(rules: Any, state: Any, move: Any, iterations: int, seed: int) -> float:
    search = Search(rules, knowledge_for(rules.id), seat_count(rules, state), random.Random(seed))
    return search.run(state, [move], seconds=None, iterations=iterations, temperature=0.0).moves[0].value


def check(game: str, entry: dict[str, Any], factor: int) -> Checked:
    """Search the puzzle's position again at `factor` times the finder's budgets (see the module doc)."""
    with contextlib.suppress(OSError):
        os.nice(0 if os.nice(0) >= 10 else 10)
    began = time.perf_counter()
    budget = PuzzleBudget()
    rules = games.get(game)
    state = rules.load(entry["position"])
    seed = CHECK_SEED + int(entry["match"])
    legal = {rules.notation(state, move): move for move in rules.legal_moves(state)}
    solution = entry["solution"][0]
    big = analyse(rules, state, level=LEVEL, iterations=factor * budget.second, seed=seed)
    values = {rules.notation(state, s.move): s.value for s in big.moves}
    if len(legal) <= budget.alone:
        rivals = [name for name in legal if name != solution]
    else:
        ranked = sorted((n for n in values if n != solution), key=lambda n: -values[n])
        rivals = ranked[:TOP_RIVALS]
    for number, name in enumerate(rivals):
        value = alone(rules, state, legal[name], factor * budget.rival, seed + 1 + number)
        values[name] = max(values.get(name, 0.0), value)
    own = alone(rules, state, legal[solution], factor * budget.rival, seed)
    value = min(values.get(solution, own), own)
    others = {name: v for name, v in values.items() if name != solution}
    rival = max(others, key=lambda name: others[name])
    return Checked(
        game, int(entry["match"]), solution, value, rival, others[rival], time.perf_counter() - began
    )


def sample(game: str, count: int, fresh: bool, first_seed: int) -> list[dict[str, Any]]:
    """The puzzles to check: the shipped pool's first `count`, or `count` mined now (--fresh)."""
    if not fresh:
        return starter_pool(game)[:count]
    found = []
    seed = first_seed
    while len(found) < count:
        mined = starter_puzzles.mine(game, seed)
        if mined.puzzle is not None:
            found.append(starter_puzzles.entry(game, seed, mined.puzzle))
        seed += 1
    return found


def report(results: dict[str, list[Checked]], args: argparse.Namespace) -> str:
    lines = [
        "# Puzzle quality (lichess's rule)",
        "",
        f"Made by `python bench/puzzle_quality.py --count {args.count} --factor {args.factor}"
        f"{' --fresh' if args.fresh else ''}` on {os.cpu_count()} CPUs: each puzzle searched again at "
        f"{args.factor}x the finder's budgets; ambiguous: another move within {LICHESS_MARGIN} of the "
        "solution (lichess's 0.42 on -1..1); wrong: another move above it.",
        "",
        "| game | checked | ambiguous | wrong | worker-seconds |",
        "|---|---|---|---|---|",
    ]
    for game, checked in results.items():
        n = len(checked)
        ambiguous = sum(c.ambiguous for c in checked)
        wrong = sum(c.wrong for c in checked)
        share = f"{ambiguous} ({100 * ambiguous / n:.1f}%)" if n else "-"
        lines.append(f"| {game} | {n} | {share} | {wrong} | {sum(c.seconds for c in checked):.0f} |")
    lines += [
        "",
        "| game | match | solution | value | closest rival | value | gap |",
        "|---|---|---|---|---|---|---|",
    ]
    for checked in results.values():
        for c in checked:
            mark = " (ambiguous)" if c.ambiguous else ""
            lines.append(
                f"| {c.game} | {c.match} | {c.solution} | {c.value:.2f} | {c.rival} | {c.rival_value:.2f} | "
                f"{c.gap:.2f}{mark} |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES, action="append")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--factor", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--fresh", action="store_true", help="mine the sample now instead of the pools")
    parser.add_argument("--first-seed", type=int, default=1_000_000)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    results: dict[str, list[Checked]] = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        for game in args.game or GAMES:
            entries = sample(game, args.count, args.fresh, args.first_seed)
            checked = list(pool.map(check, [game] * len(entries), entries, [args.factor] * len(entries)))
            results[game] = checked
            ambiguous = sum(c.ambiguous for c in checked)
            share = 100 * ambiguous / len(checked) if checked else 0.0
            seconds = sum(c.seconds for c in checked)
            print(
                f"{game}: {len(checked)} checked, {ambiguous} ambiguous ({share:.1f}%), "
                f"{sum(c.wrong for c in checked)} wrong, {seconds:.0f} worker-seconds",
                flush=True,
            )
    text = report(results, args)
    if args.no_write:
        print(text)
    else:
        path = BASELINES / "puzzle_quality.md"
        path.write_text(text + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
