"""The arrows of DESIGN.md point one way: games imports nothing of the project or of I/O libraries, the
renderer imports no Discord or database, and the service (bot/service/) imports no Discord, no renderer, no
cogs and nothing of the Discord application around it.

A game's package (games/<id>/) holds its drawer too: the module its plugin names as `drawer` belongs to the
renderer's layer (it draws with Pillow and `renderer.canvas`), every other module of the package to the
games layer, and none of those imports a drawer."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import games

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module)  # and what it names, which may be a module: `from games.x import drawer`
            modules.update(f"{node.module}.{alias.name}" for alias in node.names)
    return modules


def imported_roots(path: Path) -> set[str]:
    return {name.split(".")[0] for name in imported_modules(path)}


FORBIDDEN = {
    "games": {"discord", "PIL", "aiosqlite", "asyncio", "bot", "cogs", "renderer", "sqlite3"},
    "renderer": {"discord", "aiosqlite", "asyncio", "bot", "cogs", "sqlite3"},
}


def drawer_files() -> dict[str, Path]:
    """The drawer modules of the registered games that live in this project's games/, by module name."""
    found = {}
    for game_id in games.GAME_IDS:
        name = games.plugin(game_id).drawer
        path = Path(importlib.import_module(name).__file__ or "").resolve()
        if (ROOT / "games") in path.parents:
            found[name] = path
    return found


def layer_files(package: str) -> list[Path]:
    """The modules of a layer: games/ without the games' drawers; renderer/ with them."""
    drawers = set(drawer_files().values())
    files = {path.resolve() for path in (ROOT / package).rglob("*.py")}
    return sorted(files - drawers if package == "games" else files | drawers)


def test_each_built_in_game_has_its_drawer_in_its_package() -> None:
    assert set(drawer_files()) >= {f"games.{g}.drawer" for g in ("paint", "paintscape", "tilingking")}


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_stay_in_their_layer(package: str) -> None:
    files = layer_files(package)
    assert files, f"{package}/ has no modules"
    for path in files:
        bad = imported_roots(path) & FORBIDDEN[package]
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_nothing_of_the_games_layer_imports_a_drawer() -> None:
    drawers = set(drawer_files())
    for path in layer_files("games"):
        modules = imported_modules(path)
        bad = {m for m in modules if m in drawers or any(m.startswith(d + ".") for d in drawers)}
        assert not bad, f"{path.relative_to(ROOT)} imports the drawer {sorted(bad)}"


def test_the_service_imports_no_discord_and_nothing_of_the_application() -> None:
    files = sorted((ROOT / "bot" / "service").rglob("*.py"))
    assert len(files) > 10, "the service package is missing"
    for path in files:
        modules = imported_modules(path)
        bad = {m for m in modules if m.split(".")[0] in {"discord", "cogs", "renderer"}}
        bad |= {m for m in modules if m.split(".")[0] == "bot" and not m.startswith("bot.service")}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_the_discord_layer_never_schedules_the_bots_turn() -> None:
    """The service schedules the bot's turn whenever it commits a change (issue 25): no cog and nothing of
    the Discord application calls an `after_change`, and the name exists nowhere, so a call site that
    forgets it (or a reply that fails before it) cannot leave the bot without its turn."""
    files = sorted([*(ROOT / "cogs").rglob("*.py"), *(ROOT / "bot").rglob("*.py")])
    assert len(files) > 20
    for path in files:
        names = {
            node.attr if isinstance(node, ast.Attribute) else node.name
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Attribute | ast.FunctionDef)
        }
        assert "after_change" not in names, f"{path.relative_to(ROOT)} still uses after_change"


def test_the_catalogs_import_nothing_above_them() -> None:
    """bot/i18n (the translator and `python -m bot.i18n`) sits under the Discord application: it imports
    no client, no cog (the update reads the cogs named in bot/extensions.py by name)."""
    for path in sorted((ROOT / "bot" / "i18n").rglob("*.py")):
        modules = imported_modules(path)
        bad = {m for m in modules if m.split(".")[0] == "cogs" or m.startswith(("bot.client", "bot.runtime"))}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"
