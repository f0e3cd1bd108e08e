"""Build Paint's opening book (games/paint/book.json), the top level's moves for the positions it holds.

Paint starts from one layout, so its first moves come back in every game, and they matter: between equal
searches White wins about 72% (bench/baselines/time_odds.md), and a deep search of Black's first reply
prefers one move by about 0.1 of a win chance over the one a 0.25 s search usually picks. The book holds, for
the positions each side is most likely to meet, the move of a search many times deeper than the top level's.

Which positions: the lines each side can expect, most likely first. For one side (its "perspective") a line
goes on by the book's own move where that side moves, and by the replies a strong opponent would play where
the other side moves. Opponents differ, so the replies come from two searches, weighted equally: the top
level's own knowledge (--reply-searches seeded searches at --reply-iterations) and GRAVE, the generic search
of games/ai/grave.py (--grave-searches at --grave-iterations, about what it searches in a second here), each
move with the share of those searches that chose it. GRAVE's first moves vary far more than the top level's
(5 different ones in 6 seeds), and a book grown from the top level's choices alone missed most of them. A
line's likelihood is the product of its replies' shares; lines are taken most likely first until the side
has --positions positions, --minutes run out, or no line above --min-share is left before --plies. Each book
position is searched at the full knowledge with --iterations (seeded: the book is reproducible) and keeps
the most visited move, its win chance and its share of the visits.

A run resumes: a position already in the book at the same --iterations is not searched again. `--side white`
and `--side black` grow one side's lines each, so two processes use two cores; each keeps the other side's
entries as it finds them in the book file when it writes.

    python bench/paint_book.py --side black --positions 160 --minutes 40 &
    python bench/paint_book.py --side white --positions 90 --minutes 40
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
from games.ai.grave import grave_move
from games.paint.ai import BOOK_FILE, book_key
from games.paint.rules import BLACK, WHITE

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "games" / "paint" / BOOK_FILE
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


def replies(rules: Any, state: Any, args: argparse.Namespace) -> list[tuple[str, float]]:
    """The moves strong opponents play here, each with its share: half from seeded searches of the top level's
    knowledge, half from seeded GRAVE searches (a search without it may pick a move none gave)."""
    ours = Counter(
        analyse(rules, state, level="hard", iterations=args.reply_iterations, seed=seed).move
        for seed in range(args.reply_searches)
    )
    grave = Counter(
        grave_move(rules, state, iterations=args.grave_iterations, seed=seed).move
        for seed in range(args.grave_searches)
    )
    models = [picks for picks in (ours, grave) if picks]
    shares: dict[str, float] = {}
    for picks in models:
        for move, count in picks.items():
            notation = rules.notation(state, move)
            shares[notation] = shares.get(notation, 0.0) + count / sum(picks.values()) / len(models)
    return sorted(shares.items(), key=lambda item: -item[1])


def read_book(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"positions": [], "built": {}}


def build(args: argparse.Namespace, side: int, known: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The book entries of one side's lines, most likely first; `known` (key -> entry) are reused unsearched
    where their iterations match."""
    rules = games.get("paint")
    order = itertools.count()
    frontier: list[tuple[float, int, tuple[str, ...]]] = [(-1.0, next(order), ())]
    book: dict[str, dict[str, Any]] = {}
    started = time.perf_counter()
    searches = 0
    while frontier and len(book) < args.positions and time.perf_counter() - started < args.minutes * 60:
        negative_share, _, line = heapq.heappop(frontier)
        share = -negative_share
        state = replay(rules, line)
        if rules.to_move(state) is None or len(line) >= args.plies:
            continue
        key = book_key(state)
        if state.to_move == side:
            entry = book.get(key)
            if entry is None:
                old = known.get(key)
                if old is not None and old.get("iterations") == args.iterations:
                    entry = {k: old[k] for k in ("move", "value", "share", "iterations", "reason")}
                else:
                    entry = searched(rules, state, args.iterations)
                    searches += 1
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
            heapq.heappush(frontier, (-share, next(order), (*line, entry["move"])))
            continue
        for move, reply_share in replies(rules, state, args):
            if share * reply_share >= args.min_share:
                heapq.heappush(frontier, (-share * reply_share, next(order), (*line, move)))
    seconds = time.perf_counter() - started
    print(f"{SIDES[side]}: {len(book)} positions ({searches} searched) in {seconds:.0f} s", flush=True)
    return list(book.values())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--side", choices=("white", "black", "both"), default="both", help="whose lines")
    parser.add_argument("--positions", type=int, default=60, help="book positions per side (60)")
    parser.add_argument("--minutes", type=float, default=60.0, help="stop growing a side after this (60)")
    parser.add_argument("--iterations", type=int, default=40000, help="each book search's iterations (40000)")
    parser.add_argument("--reply-searches", type=int, default=8, help="top-level searches per reply (8)")
    parser.add_argument("--reply-iterations", type=int, default=2000, help="their iterations (2000)")
    parser.add_argument("--grave-searches", type=int, default=8, help="GRAVE searches that model a reply (8)")
    parser.add_argument("--grave-iterations", type=int, default=400, help="their iterations (400)")
    parser.add_argument("--min-share", type=float, default=0.02, help="the least likely line kept (0.02)")
    parser.add_argument("--plies", type=int, default=16, help="the longest line (16 plies)")
    parser.add_argument("--out", default=str(BOOK), help="the book to resume and write")
    args = parser.parse_args()
    out = Path(args.out)
    sides = [WHITE, BLACK] if args.side == "both" else [WHITE if args.side == "white" else BLACK]
    known = {entry["key"]: entry for entry in read_book(out)["positions"]}
    built = {SIDES[side]: build(args, side, known) for side in sides}
    book = read_book(out)  # again: the other side's process may have written its entries meanwhile
    entries = [e for e in book["positions"] if e["side"] not in built]
    entries += [e for side_entries in built.values() for e in side_entries]
    settings = {k: v for k, v in vars(args).items() if k not in ("side", "out")}
    book = {
        "note": "Paint's opening book for the top level (games/ai/levels.py), by bench/paint_book.py: "
        "the standard layout and settings; key: the position (games.paint.ai.book_key), move: the deep "
        "search's, value: the mover's win chance, share: the move's share of the search's visits, line: the "
        "moves from the start, likelihood: how likely the side the entry serves meets it.",
        "built": {side: book["built"][side] for side in SIDES.values() if side in book.get("built", {})}
        | {side: settings for side in built},
        "positions": sorted(entries, key=lambda e: (e["side"], len(e["line"].split()), -e["likelihood"])),
    }
    out.write_text(json.dumps(book, indent=1) + "\n", encoding="utf-8")
    print(f"{len(book['positions'])} positions -> {out}")


if __name__ == "__main__":
    main()
