"""The arrows of DESIGN.md point one way: games imports nothing of the project or of I/O libraries, the
renderer imports no Discord or database, and the service (bot/service/) imports no Discord, no renderer, no
cogs and nothing of the Discord application around it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module)
    return modules


def imported_roots(path: Path) -> set[str]:
    return {name.split(".")[0] for name in imported_modules(path)}


FORBIDDEN = {
    "games": {"discord", "PIL", "aiosqlite", "asyncio", "bot", "cogs", "renderer", "sqlite3"},
    "renderer": {"discord", "aiosqlite", "asyncio", "bot", "cogs", "sqlite3"},
}


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_stay_in_their_layer(package: str) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"{package}/ has no modules"
    for path in files:
        bad = imported_roots(path) & FORBIDDEN[package]
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


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
