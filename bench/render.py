"""Render benchmark: per game, the CPU time to draw a mid-game board (build its scene and paint it) and,
apart, to encode it as a PNG, and their ratio (medians of runs; CPU time, which a busy machine disturbs less
than wall time); then the p50 and p99 wall time to render and encode a board PNG at the default size and the
p50 and p99 PNG size, over positions sampled from seeded random games; then the time and size of a replay
GIF of a 150-move game. Targets: drawing <= 2 ms of CPU, render+encode <= 15 ms, PNG <= 60 KB, 150-move GIF
<= 2 MB, and (issue 42) a board's render + encode <= 1.6x Pillow's bare encode of the same picture (the
picture mapped to the theme's palette and written by Pillow's PNG writer at its default settings). Each
game's CPU line is followed by the CPU time to draw and encode a board from its match's last board, as the
bot's board processes draw a match's next move (`renderer.incremental`: the scene diffed against the last,
only the changed items' boxes painted), against drawing the same way in full (other matches of the same
game), and each as a multiple of Pillow's bare encode.

    python bench/render.py            # about a minute (bench/replay.py measures replay memory)
    python bench/render.py --cpu-only # only the CPU time of drawing and encoding
    python bench/render.py --longest  # also a 600-ply Paint replay (the longest game)
    python bench/render.py --encoders # also quantization and PNG compress levels
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
import renderer
from renderer.replay import MAX_BYTES, replay_gif

BOARDS: list[tuple[str, str, int, dict[str, Any]]] = [
    ("paintscape", "paintscape", 2, {"balance": False}),
    ("paint", "paint", 2, {}),
    ("tilingking sq9", "tilingking", 2, {"board": "sq9"}),
    ("tilingking hex8bi", "tilingking", 3, {"board": "hex8bi"}),
    ("tilingking tri6bi", "tilingking", 4, {"board": "tri6bi"}),
]
TARGET_MS, TARGET_PNG, TARGET_GIF = 15.0, 60 * 1024, 2 * 1024 * 1024
TARGET_RENDER_MS = 2.0
TARGET_OVER_PILLOW = 1.6
"""Issue 42: render + encode at most 1.6 times Pillow's bare encode of the same picture."""
WARM_GAMES = 6
"""Games drawn (a dozen positions each) before the CPU figures are taken, as a running bot has."""
"""Issue 26: a board's drawing alone (before the PNG encode) in at most 2 ms of CPU."""


def random_game(
    game_id: str, seats: int, options: dict[str, Any], seed: int, limit: int
) -> tuple[list[Any], list[str]]:
    rules = games.get(game_id)
    rng = random.Random(seed)
    state = rules.new(seats, options, seed)
    states, moves = [state], []
    while rules.outcome(state) is None and len(moves) < limit:
        legal = list(rules.legal_moves(state))
        if game_id == "tilingking":
            legal = [m for m in legal if m.action == "place"] or legal
        move = rng.choice(legal)
        moves.append(rules.notation(state, move))
        state = rules.apply(state, move)
        states.append(state)
    return states, moves


def bench_png(
    label: str, game_id: str, seats: int, options: dict[str, Any], games_count: int, per_game: int
) -> None:
    times, cpu, sizes = [], [], []
    for seed in range(games_count):
        states, moves = random_game(game_id, seats, options, seed, limit=300)
        for k in range(per_game):
            n = round(k * (len(states) - 1) / max(1, per_game - 1))
            last = moves[n - 1] if n else None
            renderer.render(game_id, states[n], last_move=last)  # warm the caches for this board
            start, start_cpu = time.perf_counter(), time.process_time()
            data = renderer.render(game_id, states[n], last_move=last)
            cpu.append((time.process_time() - start_cpu) * 1000)
            times.append((time.perf_counter() - start) * 1000)
            sizes.append(len(data))
    print(
        f"{label:<18} render+encode p50 {percentile(times, 50):5.1f} ms,"
        f" p99 {percentile(times, 99):5.1f} ms wall"
        f" ({statistics.median(cpu):5.1f} ms CPU p50; target {TARGET_MS:.0f})   PNG p50 "
        f"{percentile(sizes, 50) / 1024:4.1f} KB, p99 {percentile(sizes, 99) / 1024:4.1f} KB"
        f" (target {TARGET_PNG // 1024})   n={len(times)}"
    )


def bench_cpu(
    label: str, game_id: str, seats: int, options: dict[str, Any], runs: int, matches: int, moves: int
) -> tuple[float, float]:
    """CPU time (this thread's: `time.thread_time`) to draw one mid-game board and, apart, to encode it as
    the palette PNG, as a bot that has run a while meets boards: after boards of `WARM_GAMES` other games,
    `matches` matches at once, each drawn once before, then `moves` new positions of each in turn, never
    drawn before. Each run takes other matches; prints the median over runs of the mean per board and
    returns (render ms, encode ms)."""
    from renderer.canvas import png_bytes
    from renderer.theme import get_theme

    theme = get_theme("default")
    players = ["Alice", "Bob", "Carol", "Dave"][:seats]
    render_ms, encode_ms, pillow_ms = [], [], []
    for seed in range(500, 500 + WARM_GAMES):  # a bot that has run a while has drawn boards of other matches
        states, notations = random_game(game_id, seats, options, seed, limit=300)
        for n in range(1, len(states), max(1, len(states) // 12)):
            renderer.render_image(game_id, states[n], last_move=notations[n - 1], players=players)
    for run in range(runs):
        boards = []
        for seed in range(run * matches, (run + 1) * matches):
            states, notations = random_game(game_id, seats, options, 1000 + seed, limit=300)
            first = max(1, len(states) // 2 - moves // 2)
            window = [(states[n], notations[n - 1]) for n in range(first, min(len(states), first + moves))]
            # the match so far: its static layers are cached, as in a bot that has drawn it before
            renderer.render_image(game_id, states[first - 1], last_move=None, players=players)
            boards.append(window)
        drawing = encoding = bare = 0.0
        count = 0
        for k in range(moves):
            for window in boards:
                if k < len(window):
                    state, last = window[k]
                    start = time.thread_time()
                    image = renderer.render_image(game_id, state, last_move=last, players=players)
                    middle = time.thread_time()
                    png_bytes(image, theme, game_id)
                    end = time.thread_time()
                    pillow_encode(image, theme, game_id)
                    drawing, encoding = drawing + middle - start, encoding + end - middle
                    bare += time.thread_time() - end
                    count += 1
        render_ms.append(drawing * 1000 / count)
        encode_ms.append(encoding * 1000 / count)
        pillow_ms.append(bare * 1000 / count)
    render, encode, pillow = (statistics.median(m) for m in (render_ms, encode_ms, pillow_ms))
    print(
        f"{label:<18} render {render:5.2f} ms CPU, PNG encode {encode:5.2f} ms CPU,"
        f" render/encode {render / encode:4.2f}  (median of {runs} runs, {matches} matches x {moves} moves;"
        f" target render <= {TARGET_RENDER_MS:.0f} ms); Pillow's bare encode {pillow:5.2f} ms CPU"
    )
    from_last = bench_from_last(game_id, seats, options, runs, matches, moves, keep=True)
    in_full = bench_from_last(game_id, seats, options, runs, matches, moves, keep=False)
    print(
        f"{'':<18} render + encode from the match's last board (as a board process draws a move):"
        f" {from_last:5.2f} ms CPU, against {in_full:5.2f} in full the same way;"
        f" {from_last / pillow:4.2f}x and {in_full / pillow:4.2f}x Pillow's bare encode"
        f" (target <= {TARGET_OVER_PILLOW}x)"
    )
    return render, encode


def pillow_encode(image: Any, theme: Any, game_id: str) -> bytes:
    """Pillow's bare encode of a board picture: mapped to the theme's palette (as every board is) and
    written by Pillow's own PNG writer with its default settings."""
    from renderer.canvas import to_palette

    out = io.BytesIO()
    to_palette(image, theme, game_id).save(out, "PNG")
    return out.getvalue()


def bench_from_last(
    game_id: str, seats: int, options: dict[str, Any], runs: int, matches: int, moves: int, *, keep: bool
) -> float:
    """CPU time (this thread's) to draw and encode a board from its match's last board
    (`renderer.incremental.Boards`, what a board process does for a match's next move), or with `keep`
    False, in full the same way (a `Boards` that keeps nothing), over other matches than `bench_cpu`'s and
    each other's (none of their texts drawn before), each move in turn; the median over runs of the mean
    per board, in ms."""
    from renderer.incremental import Boards

    players = ["Alice", "Bob", "Carol", "Dave"][:seats]
    per_run = []
    for run in range(runs):
        boards, windows = Boards() if keep else Boards(limit_bytes=0), []
        first_seed = ((1 if keep else 2) * runs + run) * matches
        for seed in range(first_seed, first_seed + matches):
            states, notations = random_game(game_id, seats, options, 1000 + seed, limit=300)
            first = max(1, len(states) // 2 - moves // 2)
            windows.append(
                [(states[n], notations[n - 1]) for n in range(first, min(len(states), first + moves))]
            )
            last = notations[first - 2] if first > 1 else None  # the match's board before the window
            boards.render(
                seed, game_id, states[first - 1], last_move=last, players=players, size=renderer.DEFAULT_SIZE
            )
        spent, count = 0.0, 0
        for k in range(moves):
            for seed, window in enumerate(windows, start=first_seed):
                if k < len(window):
                    state, last = window[k]
                    start = time.thread_time()
                    boards.render(
                        seed, game_id, state, last_move=last, players=players, size=renderer.DEFAULT_SIZE
                    )
                    spent += time.thread_time() - start
                    count += 1
        per_run.append(spent * 1000 / count)
    return statistics.median(per_run)


def percentile(values: list[float] | list[int], pct: float) -> float:
    """The pct-th percentile by nearest rank."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(pct / 100 * len(ordered) + 0.5) - 1))
    return float(ordered[rank])


def bench_gif(label: str, game_id: str, seats: int, options: dict[str, Any], plies: int, seed: int) -> None:
    states, moves = random_game(game_id, seats, options, seed, limit=plies)
    rules = games.get(game_id)
    log = [(rules.to_move(state), move) for state, move in zip(states, moves, strict=False)]
    start = time.perf_counter()
    data = replay_gif(game_id, options, seed, seats, log, ["Alice", "Bob", "Carol", "Dave"][:seats])
    seconds = time.perf_counter() - start
    from PIL import Image

    frames = getattr(Image.open(io.BytesIO(data)), "n_frames", 1)
    print(
        f"{label:<18} GIF {len(moves):4d} moves, {frames:4d} frames: {seconds:5.2f} s, "
        f"{len(data) / 1024 / 1024:5.2f} MB  (target {TARGET_GIF / 1024 / 1024:.0f} MB for 150 moves, "
        f"cap {MAX_BYTES / 1024 / 1024:.0f} MiB)"
    )


def bench_encoders(games_count: int) -> None:
    """The cost of each step of a board image: palette quantization, Pillow's PNG at each zlib level, and the
    encoder the boards use (`renderer.png`)."""
    from renderer import png
    from renderer.canvas import to_palette
    from renderer.theme import get_theme

    theme = get_theme("default")
    images = []
    for _label, game_id, seats, options in BOARDS:
        for seed in range(games_count):
            states, moves = random_game(game_id, seats, options, seed, limit=300)
            n = len(states) // 2
            images.append(renderer.render_image(game_id, states[n], last_move=moves[n - 1] if n else None))
    start = time.process_time()
    quantized = [to_palette(image, theme) for image in images]
    quantize_ms = (time.process_time() - start) * 1000 / len(images)
    print(f"palette quantization: {quantize_ms:.2f} ms CPU per image (n={len(images)})")
    for level in (1, 3, 6, 9):
        start, total = time.process_time(), 0
        for image in quantized:
            out = io.BytesIO()
            image.save(out, "PNG", compress_level=level)
            total += out.tell()
        ms = (time.process_time() - start) * 1000 / len(quantized)
        kb = total / len(quantized) / 1024
        print(f"PNG compress_level={level}: {ms:5.2f} ms CPU, {kb:5.1f} KB per image")
    start, total = time.process_time(), 0
    for image in quantized:
        total += len(png.encode(image))
    ms = (time.process_time() - start) * 1000 / len(quantized)
    kb = total / len(quantized) / 1024
    print(
        f"renderer.png (the boards' encoder: unfiltered rows, ISA-L level {png.LEVEL}):"
        f" {ms:5.2f} ms CPU, {kb:5.1f} KB per image"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="random games per board (default 3)")
    parser.add_argument("--per-game", type=int, default=8, help="positions rendered per game (default 8)")
    parser.add_argument("--longest", action="store_true", help="also replay a 600-ply Paint game")
    parser.add_argument("--encoders", action="store_true", help="also time quantization and PNG levels")
    parser.add_argument(
        "--runs", type=int, default=5, help="CPU runs per board, other matches each (default 5)"
    )
    parser.add_argument("--matches", type=int, default=8, help="matches drawn in turn per run (default 8)")
    parser.add_argument("--moves", type=int, default=10, help="new positions per match and run (default 10)")
    parser.add_argument("--cpu-only", action="store_true", help="only the CPU time of render and encode")
    args = parser.parse_args()
    print(f"renderer benchmark: default size {renderer.DEFAULT_SIZE}px, theme default")
    print("CPU time per mid-game board (less noisy than wall time on a shared machine):")
    for label, game_id, seats, options in BOARDS:
        bench_cpu(label, game_id, seats, options, args.runs, args.matches, args.moves)
    if args.encoders:
        bench_encoders(args.games)
    if args.cpu_only:
        return
    print("wall time per board, render + encode:")
    for label, game_id, seats, options in BOARDS:
        bench_png(label, game_id, seats, options, args.games, args.per_game)
    long_paint = {"lead_turns": 1000, "no_lead_turns": 1000}
    bench_gif("paint", "paint", 2, long_paint, 150, seed=4)
    bench_gif("paintscape", "paintscape", 2, {"balance": False}, 150, seed=4)
    bench_gif("tilingking hex8bi", "tilingking", 3, {"board": "hex8bi"}, 150, seed=4)
    if args.longest:
        bench_gif("paint (longest)", "paint", 2, long_paint, 600, seed=9)


if __name__ == "__main__":
    main()
