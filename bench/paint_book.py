"""Build Paint's opening book (games/ai/paint_book.json), the top level's moves for the positions it holds.

Paint starts from one layout, so its first moves come back in every game, and they matter: between equal
searches White wins about 72% (bench/baselines/time_odds.md), and a deep search of Black's first reply
prefers one move by about 0.1 of a win chance over the one a 0.25 s search usually picks. The book holds, for
the positions each side is most likely to meet, the move of a search many times deeper than the top level's.

Which positions: the lines each side can expect, most likely first. For one side (its "perspective") a line
goes on by the book's own move where that side moves, and by the replies a strong opponent would play where
the other side moves: the moves of --reply-searches searches of the top level's knowledge at
--reply-iterations (different seeds), each with the share of those searches that played it. A line's
likelihood is the product of its replies' shares; lines are taken most likely first, for both sides
together, until --positions positions are searched (or no line above --min-share is left before --plies).
Each book position is searched at the full knowledge with --iterations (seeded: the book is reproducible)
and keeps the most visited move, its win chance and its share of the visits.

    python bench/paint_book.py --positions 60 --iterations 40000     # about 40 minutes on one core
    python bench/paint_book.py --positions 4 --iterations 2000 --out /tmp/book.json    # a quick try
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from anywhere, installed or not

import games
from games.ai import analyse
from games.ai.paint import BOOK_FILE, book_key
from games.paint import BLACK, WHITE

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "games" / "ai" / BOOK_FILE
SIDES = {WHITE: "White", BLACK: "Black"}


def replay(rules: Any, line: tuple[str, ...]) -> Any:
    """The position after `line` (moves in notation) from the standard start."""
    state = rules.new(2, {}, 0)
    for notation in line:
        state = rules.apply(state, rules.parse(state, notation))
    return state


def searched(rules: Any, state: Any, iterations: int) -> dict[str, Any]:
    """The deep search of a book position: its move, the mover's win chance and the move's share of visits."""
    report = analyse(rules, state, level="hard", iterations=iterations, seed=0)
    visits = sum(s.visits for s in report.moves) or 1
    best = next((s for s in report.moves if s.move == report.move), None)
    return {
        "move": rules.notation(state, report.move),
        "value": round(best.value, 3) if best else None,
        "share": round(best.visits / visits, 3) if best else None,
        "iterations": report.iterations,
        "reason": report.reason,
    }


def replies(rules: Any, state: Any, searches: int, iterations: int) -> list[tuple[str, float]]:
    """The moves a strong opponent plays here, each with the share of seeded searches that chose it."""
    picks = Counter(
        rules.notation(state, analyse(rules, state, level="hard", iterations=iterations, seed=seed).move)
        for seed in range(searches)
    )
    return [(move, count / searches) for move, count in picks.most_common()]


def build(args: argparse.Namespace) -> dict[str, Any]:
    rules = games.get("paint")
    order = itertools.count()
    frontier: list[tuple[float, int, tuple[str, ...], int]] = [
        (-1.0, next(order), (), side) for side in (WHITE, BLACK)
    ]
    book: dict[str, dict[str, Any]] = {}
    reply_cache: dict[str, list[tuple[str, float]]] = {}
    started = time.perf_counter()
    while frontier and len(book) < args.positions:
        negative_share, _, line, side = heapq.heappop(frontier)
        share = -negative_share
        state = replay(rules, line)
        if rules.to_move(state) is None or len(line) >= args.plies:
            continue
        key = book_key(state)
        if state.to_move == side:
            entry = book.get(key)
            if entry is None:
                entry = searched(rules, state, args.iterations)
                entry |= {
                    "key": key,
                    "line": " ".join(line),
                    "side": SIDES[side],
                    "likelihood": round(share, 3),
                }
                book[key] = entry
                print(f"{len(book):3}/{args.positions} {SIDES[side]:<5} p={share:.3f} "
                      f"[{entry['line']}] -> {entry['move']} ({entry['value']}, share {entry['share']}) "
                      f"{time.perf_counter() - started:.0f} s", flush=True)  # fmt: skip
            heapq.heappush(frontier, (-share, next(order), (*line, entry["move"]), side))
            continue
        if key not in reply_cache:
            reply_cache[key] = replies(rules, state, args.reply_searches, args.reply_iterations)
        for move, reply_share in reply_cache[key]:
            if share * reply_share >= args.min_share:
                heapq.heappush(frontier, (-share * reply_share, next(order), (*line, move), side))
    positions = sorted(book.values(), key=lambda e: (len(e["line"].split()), -e["likelihood"]))
    return {
        "note": "Paint's opening book for the top level (games/ai/levels.py), by bench/paint_book.py: "
        "the standard layout and settings; key: the position (games.ai.paint.book_key), move: the deep "
        "search's, value: the mover's win chance, share: the move's share of the search's visits, line: the "
        "moves from the start, likelihood: how likely the side the entry serves meets it.",
        "built": {
            "positions": args.positions,
            "iterations": args.iterations,
            "reply_searches": args.reply_searches,
            "reply_iterations": args.reply_iterations,
            "min_share": args.min_share,
            "plies": args.plies,
            "seconds": round(time.perf_counter() - started),
        },
        "positions": positions,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=60, help="positions to search deeply (60)")
    parser.add_argument("--iterations", type=int, default=40000, help="each book search's iterations (40000)")
    parser.add_argument("--reply-searches", type=int, default=8, help="searches that model a reply (8)")
    parser.add_argument("--reply-iterations", type=int, default=2000, help="their iterations (2000)")
    parser.add_argument("--min-share", type=float, default=0.02, help="the least likely line kept (0.02)")
    parser.add_argument("--plies", type=int, default=16, help="the longest line (16 plies)")
    parser.add_argument("--out", default=str(BOOK), help="where to write the book")
    args = parser.parse_args()
    book = build(args)
    Path(args.out).write_text(json.dumps(book, indent=1) + "\n", encoding="utf-8")
    print(f"{len(book['positions'])} positions in {book['built']['seconds']} s -> {args.out}")


if __name__ == "__main__":
    main()
