"""What each kind of Tessera process imports before it does any work, and what that costs.

    python bench/import_cost.py                          # this tree: modules and -X importtime per process
    python bench/import_cost.py --root /tmp/tessera-old  # another tree (git archive <commit> | tar -x -C ...)
    python bench/import_cost.py --instructions           # and instructions (valgrind's callgrind)

Processes, each measured in a fresh interpreter:

  bot     the bot before it logs in: `python -m bot`'s module, the client and every cog it loads;
  ai      an AI worker (spawned by `bot.service.ai.AIRunner`): the module of the search function the pool
          runs, its warm-up (every engine) included;
  board   a board process (spawned by `bot.drawing.BoardProcesses`): the module of its worker, the
          catalogs' module and every game's drawer;
  web     `python -m bot web`, a web board of its own: the module it runs.

Figures per process: the modules it holds (`sys.modules`, less those of a bare `python -c pass`), the sum
of `-X importtime`'s self times in milliseconds (the median of `--runs` runs; a busy machine moves it), and
with `--instructions` the instructions valgrind counts (`--tool=callgrind`) less those of `python -c pass`:
the same on every run of the same tree (within a fraction of a percent: hash randomisation), the figure to
compare two trees by. A spawned worker imports what its function's module imports, so the worker's
modules are found the way `spawn` finds them: by the module that defines the function the pool pickles.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

WHERE = """
import importlib, json
import bot.service.ai as ai
import bot.drawing as drawing
print(json.dumps({
    "ai": [ai.choose_in_worker.__module__, ai.review_in_worker.__module__],
    "board": [drawing._board_worker.__module__, drawing.draw_board.__module__],
}))
"""
"""Prints the modules a spawned worker imports first: those defining the functions its pool pickles."""

SNIPPETS = {
    "bot": (
        "import importlib, bot.__main__, bot.client\n"
        "for name in bot.client.EXTENSIONS: importlib.import_module(name)\n"
    ),
    "ai": (
        "import importlib, games\n"
        "for name in {modules}: importlib.import_module(name)\n"
        "for game in games.GAME_IDS: games.get(game)\n"
    ),
    "board": (
        "import importlib, games\n"
        "for name in {modules}: importlib.import_module(name)\n"
        "for game in games.GAME_IDS: importlib.import_module(games.plugin(game).drawer)\n"
    ),
    "web": "import bot.web.serve\n",
}
COUNT = "\nimport sys; print('MODULES', len(sys.modules))\n"


def run(
    root: Path, code: str, *, wrapper: tuple[str, ...] = (), options: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """`code` in a fresh interpreter with `root` first on the path (ahead of any installed checkout), under
    `wrapper` (valgrind) with the interpreter's `options` (-X importtime)."""
    env = dict(os.environ, PYTHONPATH=str(root))
    command = [*wrapper, sys.executable, *options, "-c", code]
    return subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, check=True)


def snippets(root: Path) -> dict[str, str]:
    import json

    where = json.loads(run(root, WHERE).stdout)
    return {
        name: code.replace("{modules}", repr(sorted(set(where.get(name, [])))))
        for name, code in SNIPPETS.items()
    }


def modules(root: Path, code: str) -> int:
    found = re.search(r"MODULES (\d+)", run(root, code + COUNT).stdout)
    assert found
    return int(found.group(1))


def import_ms(root: Path, code: str, runs: int) -> float:
    """The median over `runs` of the summed self times `-X importtime` reports, in milliseconds."""
    totals = []
    for _ in range(runs):
        report = run(root, code, options=("-X", "importtime")).stderr
        totals.append(sum(int(m[1]) for m in re.finditer(r"import time:\s+(\d+) \|", report)) / 1000)
    return statistics.median(totals)


def instructions(root: Path, code: str) -> int:
    """The instructions valgrind counts for running `code` (callgrind's total)."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        wrapper = ("valgrind", "--tool=callgrind", f"--callgrind-out-file={out}")
        report = run(root, code, wrapper=wrapper).stderr
    found = re.search(r"Collected : (\d+)", report)
    if found is None:
        raise SystemExit(f"valgrind gave no count:\n{report[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--root", type=Path, default=HERE, help="the tree to measure (default: this one)")
    parser.add_argument("--runs", type=int, default=5, help="-X importtime runs per process (the median)")
    parser.add_argument("--instructions", action="store_true", help="count instructions with valgrind too")
    parser.add_argument("--processes", default=",".join(SNIPPETS), help="comma-separated process kinds")
    args = parser.parse_args()
    if args.instructions and shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")
    root = args.root.resolve()
    codes = snippets(root)
    bare_modules = modules(root, "pass")
    bare_instructions = instructions(root, "pass") if args.instructions else 0
    print(f"tree {root}")
    header = f"{'process':8} {'modules':>8} {'import ms':>10}"
    print(header + (f" {'instructions':>14}" if args.instructions else ""))
    for name in args.processes.split(","):
        code = codes[name]
        line = f"{name:8} {modules(root, code) - bare_modules:8d} {import_ms(root, code, args.runs):10.0f}"
        if args.instructions:
            line += f" {(instructions(root, code) - bare_instructions) / 1e6:13,.0f}M"
        print(line, flush=True)


if __name__ == "__main__":
    main()
