"""Each process loads what it uses (bench/import_cost.py reports the cost): a spawned AI worker imports
the engines and the search, nothing of the bot; a board process the renderer, the catalogs and the
engines, no Discord and no service; the bot loads tournament pairing (networkx) and PostgreSQL's driver
only when it needs them. Each check runs a fresh interpreter, as `spawn` starts a worker."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bot.service import ai


def loaded_after(code: str) -> set[str]:
    """The top-level packages and the project's modules a fresh interpreter holds after `code`."""
    script = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    names = json.loads(out.splitlines()[-1])
    return {name.split(".")[0] for name in names} | {n for n in names if n.startswith(("bot", "games"))}


@pytest.mark.parametrize(
    "function",
    [
        ai.choose_in_worker,
        ai.review_in_worker,
        ai.hint_in_worker,
        ai.positions_in_worker,
        ai.puzzle_in_worker,
    ],
)
def test_an_ai_worker_imports_the_engines_and_the_search_and_nothing_of_the_bot(function: object) -> None:
    module = function.__module__  # type: ignore[attr-defined]
    loaded = loaded_after(f"import {module}\nimport games\nfor g in games.GAME_IDS: games.get(g)")
    assert "games.ai.search" in loaded and "games.paint.rules" in loaded
    assert not loaded & {"bot", "discord", "aiosqlite", "asyncpg", "networkx", "PIL", "aiohttp"}, sorted(
        loaded & {"bot", "discord", "aiosqlite", "asyncpg", "networkx", "PIL", "aiohttp"}
    )
