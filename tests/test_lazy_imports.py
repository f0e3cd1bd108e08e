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
    return {name.split(".")[0] for name in names} | {
        n for n in names if n.startswith(("bot", "games", "aiohttp"))
    }


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


NOT_IN_A_WORKER = {"discord", "aiosqlite", "asyncpg", "networkx", "aiohttp", "bot.service", "bot.i18n"}


def test_a_board_process_imports_the_renderer_the_catalogs_and_the_engines_only() -> None:
    """What a board or replay process runs comes from one module, which imports no Discord and no service
    (a spawned process imports the module of its function)."""
    from bot import drawing

    modules = {drawing._board_worker.__module__, drawing.draw_board.__module__, drawing._replay.__module__}
    code = "\n".join(
        [
            *(f"import {module}" for module in sorted(modules)),
            "import games, importlib, renderer.analysis, renderer.replay",
            "for g in games.GAME_IDS: importlib.import_module(games.plugin(g).drawer)",
            "from bot.catalogs import translations; translations('de')",
        ]
    )
    loaded = loaded_after(code)
    assert {"renderer", "PIL", "babel", "games.paint.drawer"} <= loaded
    assert not loaded & NOT_IN_A_WORKER, sorted(loaded & NOT_IN_A_WORKER)


def test_the_bot_loads_tournament_pairing_postgresql_and_the_web_servers_only_when_used() -> None:
    """`python -m bot` with its client and every cog, on SQLite and without HEALTH_PORT or WEB_PORT: no
    networkx (a tournament's pairing loads it), no PostgreSQL driver (a postgresql:// URL does), no
    aiohttp web server and no web board (the health server and the Activity's launch do)."""
    loaded = loaded_after(
        "import importlib, bot.__main__, bot.client\n"
        "for name in bot.client.EXTENSIONS: importlib.import_module(name)\n"
        "import bot.service.store as store\n"
    )
    assert {"discord", "bot.client", "cogs", "bot.service.tournaments.swiss"} <= loaded
    lazy = {
        "networkx",
        "asyncpg",
        "bot.web",
        "bot.web.activity",
        "bot.service.store.postgres",
        "pythonjsonlogger",
    }
    assert not loaded & lazy, sorted(loaded & lazy)
    assert "aiohttp.web" not in loaded_after("import bot.client, bot.health"), "the health server's alone"
    on_use = loaded_after("import bot.service.store as store\nstore.PostgresStore\n")
    assert {"asyncpg", "bot.service.store.postgres"} <= on_use
