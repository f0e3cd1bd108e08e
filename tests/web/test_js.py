"""The page's JavaScript (web/js/) under node's own test runner (`node --test tests/web/js/`), and the
browser's diff-apply against the server's: for any two scenes of a match, the JSON diff applied in
JavaScript gives the scene the server would have sent (a hypothesis property, through one node process)."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

from renderer.scene import Scene, diff, diff_json, scene_json
from tests.renderer.test_scene import successions

NODE = shutil.which("node")
ROOT = Path(__file__).resolve().parents[2]
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")


@needs_node
def test_the_pages_javascript_passes_its_unit_tests() -> None:
    run = subprocess.run(
        [str(NODE), "--test", "tests/web/js/"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout


@pytest.fixture(scope="module")
def node_apply() -> Iterator[subprocess.Popen[str]]:
    if NODE is None:
        pytest.skip("node is not installed")
    process = subprocess.Popen(
        [str(NODE), "tests/web/js/apply_lines.mjs"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    yield process
    assert process.stdin is not None
    process.stdin.close()
    process.wait(timeout=10)


COMPARED = ("game", "width", "height", "ply", "fixed", "items", "panel", "cells", "labels")


def _as_browser_sees(scene: Scene) -> dict[str, Any]:
    data = scene_json(scene)
    return {k: data[k] for k in COMPARED}


@needs_node
@settings(max_examples=80, deadline=None)
@given(successions())
def test_the_browsers_apply_gives_the_servers_scene(node_apply: Any, pair: tuple[Scene, Scene]) -> None:
    old, new = pair
    old_json = scene_json(old)
    line = json.dumps({"old": old_json, "diff": diff_json(diff(old, new), known=old.tokens())})
    assert node_apply.stdin is not None and node_apply.stdout is not None
    node_apply.stdin.write(line + "\n")
    node_apply.stdin.flush()
    answer = json.loads(node_apply.stdout.readline())
    assert "error" not in answer, answer
    made = answer["scene"]
    assert {k: made[k] for k in COMPARED} == _as_browser_sees(new)
    for theme, palette in scene_json(new)["palettes"].items():  # every colour the new scene needs
        assert palette["colours"].items() <= made["palettes"][theme]["colours"].items()


@needs_node
@pytest.mark.parametrize(
    ("game", "options", "plies"),
    [
        ("tilingking", {"board": "hex5"}, 2),
        ("tilingking", {"board": "tri4"}, 0),
        ("paint", {}, 3),
        ("paintscape", {}, 6),
    ],
)
def test_the_page_expands_the_compact_legal_moves_as_the_server_sent_them(
    game: str, options: dict[str, Any], plies: int
) -> None:
    """A player's legal moves travel compact (bot/web/wire.py `compact_clicks`); the page's expansion gives
    back every move with its cells, order, piece, pose and notation."""
    import random

    import games
    import renderer
    from bot.web.wire import compact_clicks
    from games.base import clickable_moves, resolve_options

    rules = games.get(game)
    state = rules.new(2, resolve_options(rules.options, options), 3)
    rng = random.Random(plies)
    for _ in range(plies):
        clicks = clickable_moves(rules, state)
        move = rng.choice(clicks).notation if clicks else rules.word_moves(state)[0].notation
        state = rules.apply(state, rules.parse(state, move))
    labels = renderer.board_scene(game, state).labels
    clicks = clickable_moves(rules, state)
    line = json.dumps({"compact": compact_clicks(clicks, labels), "labels": list(labels)})
    run = subprocess.run(
        [str(NODE), "tests/web/js/expand_lines.mjs"],
        input=line + "\n",
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    expanded = json.loads(run.stdout)
    key = lambda m: (m[0], tuple(sorted(m[1])) if not m[2] else tuple(m[1]))  # noqa: E731
    sent = sorted(
        ([c.notation, list(c.cells), c.ordered, c.group, c.pose[0], c.pose[1]] for c in clicks), key=key
    )
    got = sorted(expanded, key=key)
    assert len(got) == len(sent) > 0
    for mine, theirs in zip(got, sent, strict=True):
        assert mine[0] == theirs[0]
        assert (mine[1] if mine[2] else sorted(mine[1])) == (theirs[1] if theirs[2] else sorted(theirs[1]))
        assert mine[2:] == theirs[2:]
