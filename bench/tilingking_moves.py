"""TilingKing move-generation benchmark: for every board preset, in a mid-game position, the time to list
every legal move and the time to apply one placement (captures included).

    python bench/tilingking_moves.py [--plies N] [--repeat 30]

Columns: the one-off time to build the board's placement table; the number of moves and the time to list
them on the empty board; then, after --plies random plies, the same and the time to apply a placement
(median and 95th percentile over up to 300 legal placements) and to parse one. Targets: listing under 50 ms
on the largest preset, applying under 1 ms median.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import replace

from games.tilingking import PRESETS, RULES, TilingState, board, pieces
from games.tilingking.rules import PASS_MOVE, PLACE


def midgame(board_id: str, plies: int, seed: int = 1) -> TilingState:
    """A 2-player position after `plies` random moves (placements when possible); by default each player has
    placed about half of their pieces."""
    rng = random.Random(seed)
    state = RULES.new(2, {"board": board_id}, seed)
    for _ in range(plies):
        placements = [m for m in RULES.legal_moves(state) if m.action == PLACE]
        state = RULES.apply(state, rng.choice(placements) if placements else PASS_MOVE)
        if RULES.outcome(state) is not None:
            break
    return state


def p95(values: list[float]) -> float:
    return sorted(values)[int(0.95 * (len(values) - 1))] if values else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=0, help="random plies first (0: half of the set)")
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    print(
        f"{'board':8} {'cells':>5} {'table ms':>8} {'opening':>7} {'list ms':>7} {'ply':>4} {'moves':>6} "
        f"{'list ms':>8} {'apply med ms':>12} {'apply p95 ms':>12} {'parse us':>8}"
    )
    for board_id in PRESETS:
        started = time.perf_counter()
        board(board_id).placements(True)
        board(board_id).placement_piece(True)
        empty = RULES.new(2, {"board": board_id}, 0)
        RULES.legal_moves(empty)
        table_ms = (time.perf_counter() - started) * 1000
        t0 = time.perf_counter()
        opening = RULES.legal_moves(replace(empty))
        empty_ms = (time.perf_counter() - t0) * 1000
        state = midgame(board_id, args.plies or len(pieces(board(board_id).kind)))
        listing = []
        for _ in range(args.repeat):
            fresh = replace(state)  # no memoised forced-move check
            t0 = time.perf_counter()
            moves = RULES.legal_moves(fresh)
            listing.append(time.perf_counter() - t0)
        placements = [m for m in moves if m.action == PLACE]
        sample = random.Random(2).sample(placements, min(300, len(placements)))
        applying = []
        for move in sample:
            t0 = time.perf_counter()
            RULES.apply(state, move)
            applying.append(time.perf_counter() - t0)
        texts = [RULES.notation(state, m) for m in sample]
        t0 = time.perf_counter()
        for text in texts:
            RULES.parse(state, text)
        parse_us = (time.perf_counter() - t0) / max(1, len(texts)) * 1e6
        print(
            f"{board_id:8} {state.board.size:5d} {table_ms:8.1f} {len(opening):7d} {empty_ms:7.2f} "
            f"{state.ply:4d} {len(moves):6d} "
            f"{statistics.median(listing) * 1000:8.2f} {statistics.median(applying or [0]) * 1000:12.3f} "
            f"{p95(applying) * 1000:12.3f} {parse_us:8.1f}"
        )


if __name__ == "__main__":
    main()
