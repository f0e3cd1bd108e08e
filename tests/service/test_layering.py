"""The service layer imports no Discord: its modules are walked with `ast`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOT = Path(__file__).resolve().parents[2] / "bot"
SERVICE_MODULES = ["store.py", "matches.py", "clock.py", "checkdb.py"]


def imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("name", SERVICE_MODULES)
def test_service_module_does_not_import_discord(name: str) -> None:
    roots = imported_roots(BOT / name)
    assert "discord" not in roots and "cogs" not in roots and "renderer" not in roots, roots
