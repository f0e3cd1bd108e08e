"""The arrows of DESIGN.md point one way: games imports nothing of the project or of I/O libraries, the
renderer imports no Discord or database, and the service layer (bot/ except the client) imports no discord."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


FORBIDDEN = {
    "games": {"discord", "PIL", "aiosqlite", "asyncio", "bot", "cogs", "renderer", "sqlite3"},
    "renderer": {"discord", "aiosqlite", "asyncio", "bot", "cogs", "sqlite3"},
}
SERVICE_MODULES = ["bot/store.py", "bot/matches.py", "bot/clock.py"]


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_stay_in_their_layer(package: str) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"{package}/ has no modules"
    for path in files:
        bad = imported_roots(path) & FORBIDDEN[package]
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_service_has_no_discord_import() -> None:
    for name in SERVICE_MODULES:
        path = ROOT / name
        if path.exists():
            assert "discord" not in imported_roots(path), f"{name} imports discord"
