"""Fit a Paint evaluation to the outcomes of self-play games (an experiment of issue 30 item 2).

    python bench/fit_paint_eval.py play --games 240 --iterations 120 --jobs 2   # positions -> jsonl
    python bench/fit_paint_eval.py fit                                         # weights, held-out loss

`play` plays the hard search against itself at a fixed iteration budget (the first `--random-plies` plies
uniformly random, so that games differ) and writes every position after the opening with the game's result
for White (1, 0.5, 0) to /tmp/paint_eval_positions.jsonl (raw bitboards and counters, so a new feature set
needs no replay; --positions to put it elsewhere). `fit` computes the features below for every position,
fits a logistic regression (numpy, Newton's method, a small ridge) on four fifths of the games and prints
the log-loss on the held-out fifth for the fitted weights, the evaluation the AI uses (games/paint/ai.py:
tiles / 5 and 4 x the lead count's progress) and a coin, then the fitted weights. Positions of one game
never sit on both sides of the split. numpy is a bench-only dependency (`pip install -e ".[bench]"`).

The result (bench/baselines/time_odds.md): the fitted evaluation predicts results far better (held-out
log-loss 0.263 against 0.399), yet played no better at equal time (20-20 in 40 games against the AI as it
is), so the AI keeps its own.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from games.ai import analyse
from games.paint.ai import LEAD_WEIGHT, TILE_SCALE
from games.paint.rules import WHITE, PaintState, areas, disc_ranks

FEATURE_NAMES = ("tiles", "lead", "safe", "rank", "mobility", "to_move")
"""Each from White's side (see `features`)."""
AI_WEIGHTS = {"tiles": 1 / TILE_SCALE, "lead": LEAD_WEIGHT, "safe": 0.0, "rank": 0.0, "mobility": 0.0,
              "to_move": 0.0}  # fmt: skip
"""The AI's own evaluation in these features."""
RULES = games.get("paint")
FIELDS = ("light", "dark", "white_discs", "black_discs", "spheres", "to_move", "leader", "lead_count",
          "no_lead_count")  # fmt: skip


def features(state: PaintState) -> tuple[float, ...]:
    """The tile difference; the lead count's progress towards a win (+ for White, - for Black); the
    difference in safe tiles (in areas whose rank is at least the opponent's highest disc rank, so no
    opponent disc may cross them); the difference in highest disc rank; the difference in legal moves / 10;
    +1 with White to move, else -1."""
    ranks = disc_ranks(state)
    all_discs = (state.white_discs, state.black_discs)
    top = [
        max((rank for square, rank in ranks.items() if discs >> square & 1), default=0) for discs in all_discs
    ]

    def safe(colour: int) -> int:
        discs = all_discs[colour]
        return sum(
            a.bit_count() for a in areas(state, colour) if (a & discs).bit_count() >= max(1, top[1 - colour])
        )

    def mobility(seat: int) -> int:
        return len(
            RULES.legal_moves(replace(state, to_move=seat, leader=None, lead_count=0, no_lead_count=0))
        )

    lead = 0.0 if state.leader is None else min(1.0, state.lead_count / state.lead_turns)
    return (
        float(state.light.bit_count() - state.dark.bit_count()),
        lead if state.leader == WHITE else -lead,
        float(safe(0) - safe(1)),
        float(top[0] - top[1]),
        (mobility(0) - mobility(1)) / 10,
        1.0 if state.to_move == WHITE else -1.0,
    )


def play_one(args: tuple[int, int, int]) -> list[dict[str, Any]]:
    """One self-play game (seed `game`): its positions after the opening, each with the result for White."""
    game, iterations, random_plies = args
    rules = games.get("paint")
    state = rules.new(2, {}, game)
    rng = random.Random(game)
    seen: list[dict[str, Any]] = []
    while rules.to_move(state) is not None:
        if state.ply < random_plies:
            moves = rules.legal_moves(state)
            move = moves[rng.randrange(len(moves))]
        else:
            move = analyse(
                rules, state, level="hard", iterations=iterations, seed=rng.randrange(1 << 30)
            ).move
        state = rules.apply(state, move)
        if state.ply > random_plies and rules.to_move(state) is not None:
            seen.append({name: getattr(state, name) for name in FIELDS} | {"game": game, "ply": state.ply})
    outcome = rules.outcome(state)
    assert outcome is not None
    white = 0.5 if outcome.is_draw else 1.0 if 0 in outcome.winners else 0.0
    return [row | {"white": white} for row in seen]


def play(args: argparse.Namespace) -> None:
    positions = Path(args.positions)
    done = (
        {json.loads(line)["game"] for line in positions.read_text().splitlines()}
        if positions.exists()
        else set()
    )
    todo = [g for g in range(args.first, args.first + args.games) if g not in done]
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool, positions.open("a") as out:
        for n, rows in enumerate(pool.map(play_one, [(g, args.iterations, args.random_plies) for g in todo])):
            out.writelines(json.dumps(row) + "\n" for row in rows)
            out.flush()
            result = rows[-1]["white"] if rows else "-"
            print(f"game {n + 1}/{len(todo)}: {len(rows)} positions, White {result}, "
                  f"{time.perf_counter() - start:.0f} s", flush=True)  # fmt: skip


def state_of(row: dict[str, Any], template: PaintState) -> PaintState:
    return replace(template, **{name: row[name] for name in FIELDS}, ply=row["ply"])


def fit(args: argparse.Namespace) -> None:
    import numpy as np

    rows = [json.loads(line) for line in Path(args.positions).read_text().splitlines()]
    template = games.get("paint").new(2, {}, 0)
    x = np.array([features(state_of(row, template)) for row in rows], dtype=float)
    y = np.array([row["white"] for row in rows])
    held = np.array([row["game"] % 5 == 0 for row in rows])
    print(f"{len(rows)} positions from {len({row['game'] for row in rows})} games; "
          f"White scored {y.mean():.3f}; held out: {held.sum()} positions")  # fmt: skip

    def loss(w: Any, mask: Any) -> float:
        p = 1 / (1 + np.exp(-(x[mask] @ w)))
        p = np.clip(p, 1e-9, 1 - 1e-9)
        return float(-np.mean(y[mask] * np.log(p) + (1 - y[mask]) * np.log(1 - p)))

    train = ~held
    w = np.zeros(x.shape[1])
    for _ in range(50):  # Newton's method on the ridge-penalised log-loss
        p = 1 / (1 + np.exp(-(x[train] @ w)))
        gradient = x[train].T @ (p - y[train]) + args.ridge * w
        hessian = (x[train].T * (p * (1 - p))) @ x[train] + args.ridge * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    current = np.array([AI_WEIGHTS[name] for name in FEATURE_NAMES])
    print(f"held-out log-loss: fitted {loss(w, held):.4f}, current {loss(current, held):.4f}, "
          f"coin {np.log(2):.4f}")  # fmt: skip
    print(f"train log-loss: fitted {loss(w, train):.4f}, current {loss(current, train):.4f}")
    for name, value in zip(FEATURE_NAMES, w, strict=True):
        print(f"    {name!r}: {value:.4f},")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    steps = parser.add_subparsers(dest="step", required=True)
    p = steps.add_parser("play")
    p.add_argument("--games", type=int, default=240)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--iterations", type=int, default=120)
    p.add_argument("--random-plies", type=int, default=4)
    p.add_argument("--jobs", type=int, default=2)
    f = steps.add_parser("fit")
    f.add_argument("--ridge", type=float, default=1.0)
    for step in (p, f):
        step.add_argument("--positions", default="/tmp/paint_eval_positions.jsonl", help="the positions file")
    args = parser.parse_args()
    {"play": play, "fit": fit}[args.step](args)


if __name__ == "__main__":
    main()
