"""pyproject.toml declares every package the code imports: each top-level import of games/, bot/, cogs/ and
renderer/ is the standard library, the project itself, or a module of a declared dependency (a package that
only arrives through another one, as aiohttp does through discord.py, is not enough). And every declared
dependency is used: imported (fonts come from the system's packages, not pip). The kit for game authors
(bot/testing/, only tests import it) may also import what the `testing` extra declares."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "bot", "cogs", "renderer")
OWN = frozenset({*PACKAGES, "__future__"})


def normalized(name: str) -> str:
    """A distribution name as PEP 503 compares them (Pillow is pillow, a_b is a-b)."""
    return re.sub(r"[-_.]+", "-", name).lower()


KIT = "bot/testing/"
"""The test kit's folder: its imports may come from the `testing` extra too."""


def declared(extra: str | None = None) -> set[str]:
    """The distributions pyproject.toml's [project] dependencies name (or those of an optional extra)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = set()
    wanted = project["dependencies"] if extra is None else project["optional-dependencies"][extra]
    for requirement in wanted:
        found = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
        assert found, requirement
        names.add(normalized(found.group(0)))
    return names


def imports(path: Path) -> Iterator[str]:
    """The top-level module of every absolute import in a file (inside functions and TYPE_CHECKING too)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


def third_party_imports() -> dict[str, set[str]]:
    """Each third-party top-level module the code imports, with the files that import it."""
    found: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for module in imports(path):
                if module not in sys.stdlib_module_names and module not in OWN:
                    found.setdefault(module, set()).add(str(path.relative_to(ROOT)))
    return found


def distributions_of(module: str) -> set[str]:
    return {normalized(d) for d in importlib.metadata.packages_distributions().get(module, ())}


def test_the_walk_sees_the_imports_it_must_judge() -> None:
    found = third_party_imports()
    assert {"discord", "PIL", "aiohttp", "aiosqlite", "pydantic"} <= set(found)
    assert not OWN & set(found) and "asyncio" not in found


def test_every_imported_package_is_declared() -> None:
    wanted, testing = declared(), declared("testing")
    undeclared = {
        module: sorted(files)
        for module, files in third_party_imports().items()
        if not distributions_of(module) & wanted
        and not (all(f.startswith(KIT) for f in files) and distributions_of(module) & testing)
    }
    assert undeclared == {}, "declare these in pyproject.toml [project] dependencies"


def test_every_declared_dependency_is_used() -> None:
    used = {d for module in third_party_imports() for d in distributions_of(module)}
    assert declared() - used == set()
