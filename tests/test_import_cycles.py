"""No hidden cycles (issue 25): the modules of games/, renderer/, bot/ and cogs/ import each other along an
acyclic graph. Every import counts: at module level, inside a function (a deferred import is still a
dependency) and under `if TYPE_CHECKING:` (a type-only import still ties the two modules' designs together,
and mypy and a reader follow it). An edge goes to the module an import names: `from a.b import c` to `a.b.c`
when that is a module, else to `a.b`; the packages above a module (run first by Python) are not edges, or
every package would be a cycle with its own submodules."""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "renderer", "bot", "cogs")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    """Every module of the checked packages, by dotted name."""
    return {
        module_name(path): path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
    }


def resolve(base: str, level: int, current: str, is_package: bool) -> str:
    """The absolute name of a (possibly relative) `from` import's module."""
    if level == 0:
        return base
    parts = current.split(".")
    anchor = parts if is_package else parts[:-1]
    anchor = anchor[: len(anchor) - (level - 1)]
    return ".".join([*anchor, base] if base else anchor)


def imports_in(source: str, name: str, is_package: bool, modules: Iterable[str]) -> Iterator[tuple[str, int]]:
    """(imported project module, line) for every import in the source of module `name`, wherever it stands:
    at module level, in a function, under `if TYPE_CHECKING:`."""
    known = set(modules)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = resolve(node.module or "", node.level, name, is_package)
            for alias in node.names:
                if f"{base}.{alias.name}" in known:
                    yield f"{base}.{alias.name}", node.lineno
                elif base in known:
                    yield base, node.lineno


def import_graph() -> dict[str, dict[str, int]]:
    """Module -> {imported module: line of the first such import}."""
    modules = project_modules()
    graph: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        edges = graph.setdefault(name, {})
        source = path.read_text(encoding="utf-8")
        for target, line in imports_in(source, name, path.name == "__init__.py", modules):
            if target != name:
                edges.setdefault(target, line)
    return graph


def knots(graph: Mapping[str, Mapping[str, int]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan): the modules that are on a
    cycle, grouped; an empty list if the graph is acyclic."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, {})):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(components)


def find_cycles(graph: Mapping[str, Mapping[str, int]]) -> list[list[str]]:
    """One cycle through each knot of the graph."""
    return [cycle_in(graph, set(knot)) for knot in knots(graph)]


def cycle_in(graph: Mapping[str, Mapping[str, int]], component: set[str]) -> list[str]:
    """One cycle through the first module of a strongly connected component (a shortest one, by BFS)."""
    start = min(component)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for target in sorted(graph[node]):
            if target == start:
                return [*paths[node], start]
            if target in component and target not in paths:
                paths[target] = [*paths[node], target]
                queue.append(target)
    raise AssertionError(f"{sorted(component)} is not strongly connected")


def described(graph: Mapping[str, Mapping[str, int]], cycle: list[str]) -> str:
    steps = [f"{a} (line {graph[a][b]}) -> {b}" for a, b in itertools.pairwise(cycle)]
    return "\n  ".join(steps)


def test_the_project_import_graph_has_no_cycle() -> None:
    graph = import_graph()
    assert len(graph) > 50, "the walk found too few modules"
    found = knots(graph)
    report = [
        f"- {', '.join(knot)}; one cycle:\n  {described(graph, cycle_in(graph, set(knot)))}" for knot in found
    ]
    assert not found, "modules that import each other (a cycle):\n" + "\n".join(report)


def test_the_walk_sees_every_kind_of_import() -> None:
    """Function-level and TYPE_CHECKING imports are edges, relative imports are resolved, `from a import b`
    goes to the module `a.b` (else to `a`); the cycle finder reports a cycle through every module of it and
    nothing for a graph without one."""
    source = """
from typing import TYPE_CHECKING
from bot import names
from .looks import Looks
from bot.service import Service
import games
if TYPE_CHECKING:
    from bot.client import TesseraBot
def later():
    from bot.runtime import Runtime
"""
    modules = [
        "bot",
        "bot.names",
        "bot.looks",
        "bot.service",
        "bot.client",
        "bot.runtime",
        "games",
        "bot.parts",
    ]
    found = dict(imports_in(source, "bot.parts", False, modules))
    assert found == {
        "bot.names": 3,
        "bot.looks": 4,
        "bot.service": 5,
        "games": 6,
        "bot.client": 8,
        "bot.runtime": 10,
    }
    graph = {"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3}, "d": {"a": 4}}
    assert find_cycles(graph) == [["a", "b", "c", "a"]]
    assert "a (line 1) -> b" in described(graph, ["a", "b", "c", "a"])
    assert find_cycles({"a": {"b": 1}, "b": {}, "c": {"a": 1}}) == []
    assert resolve("records", 1, "bot.service.matches", False) == "bot.service.records"
    assert resolve("", 1, "bot.service", True) == "bot.service"
    assert resolve("x", 2, "bot.service.store.sqlite", False) == "bot.service.x"


def test_the_old_client_runtime_cycle_is_found() -> None:
    """The cycle issue 25 names: the client imported the runtime in `setup_hook`, the runtime the client
    under `if TYPE_CHECKING:`; the walk sees both halves."""
    modules = ["bot.client", "bot.runtime"]
    client = "def setup_hook():\n    from bot.runtime import Runtime\n"
    runtime = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.client import TesseraBot\n"
    graph = {
        "bot.client": dict(imports_in(client, "bot.client", False, modules)),
        "bot.runtime": dict(imports_in(runtime, "bot.runtime", False, modules)),
    }
    assert find_cycles(graph) == [["bot.client", "bot.runtime", "bot.client"]]
