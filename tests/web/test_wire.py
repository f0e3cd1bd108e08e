"""The board on the wire (bot/web/wire.py): the compact legal moves expand to exactly the legal moves; a
page that applies each update's diff and move tail holds the scene and the move list the server has."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
import renderer
from bot.testing import fixtures
from bot.web.wire import DEFLATE_OVER, Sent, compact_clicks, expand_clicks, packed, unpacked, web_scene
from games.base import ClickMove, clickable_moves
from renderer.scene import Layer, apply, diff_from_json, rounded, scene_from_json
from tests.renderer.positions import GAME_SETUPS


def _key(click: ClickMove) -> tuple[Any, ...]:
    cells = click.cells if click.ordered else tuple(sorted(click.cells))
    return click.notation, cells, click.ordered, click.group, click.pose


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=st.sampled_from(sorted(GAME_SETUPS)), seed=st.integers(0, 10**6), plies=st.integers(0, 12))
def test_compact_clicks_expand_to_the_legal_moves(setup: str, seed: int, plies: int) -> None:
    game_id, seats, options = GAME_SETUPS[setup]
    rules = games.get(game_id)
    rng = random.Random(seed)
    state = rules.new(seats, options, seed)
    for _ in range(plies):
        if rules.outcome(state) is not None:
            break
        state = rules.apply(
            state, rng.choice(fixtures.random_moves(game_id, state, list(rules.legal_moves(state))))
        )
    labels = renderer.board_scene(game_id, state).labels
    clicks = clickable_moves(rules, state)
    wire = json.loads(json.dumps(compact_clicks(clicks, labels)))
    assert sorted(map(_key, expand_clicks(wire, labels))) == sorted(map(_key, clicks))


def test_a_tilingking_players_placements_are_a_few_kilobytes() -> None:
    """Thousands of placements at the start of a hexagon game: eight times smaller than the list of them the
    page was sent before ([notation, cells, ordered, group, turn, mirrored] each)."""
    rules = games.get("tilingking")
    state = rules.new(3, {"board": "hex8bi"}, 3)
    labels = renderer.board_scene("tilingking", state).labels
    clicks = clickable_moves(rules, state)
    listed = json.dumps(
        [[c.notation, list(c.cells), c.ordered, c.group, *c.pose] for c in clicks], separators=(",", ":")
    )
    compact = json.dumps(compact_clicks(clicks, labels), separators=(",", ":"))
    assert len(clicks) > 4000 and len(compact) * 8 < len(listed)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    setup=st.sampled_from(sorted(GAME_SETUPS)),
    seed=st.integers(0, 10**6),
    steps=st.lists(st.sampled_from(["move", "move", "move", "back"]), min_size=1, max_size=12),
)
def test_a_page_following_the_updates_holds_the_servers_scene_and_moves(
    setup: str, seed: int, steps: list[str]
) -> None:
    game_id, seats, options = GAME_SETUPS[setup]
    rules = games.get(game_id)
    rng = random.Random(seed)
    history: list[tuple[Any, str | None]] = [(rules.new(seats, options, seed), None)]
    sent = Sent()
    page_scene = None
    page_moves: list[dict[str, Any]] = []
    for step in ["move", *steps]:
        state = history[-1][0]
        if step == "move" and rules.outcome(state) is None:
            move = rng.choice(fixtures.random_moves(game_id, state, list(rules.legal_moves(state))))
            history.append((rules.apply(state, move), rules.notation(state, move)))
        elif step == "back" and len(history) > 1:
            history.pop()
        state, last = history[-1]
        moves = [{"ply": n, "notation": m, "text": m} for n, (_, m) in enumerate(history[1:])]
        built = renderer.board_scene(game_id, state, last_move=last)
        scene = web_scene(built)
        assert all(item.layer is Layer.BOARD for item in scene.items)
        update = json.loads(json.dumps(sent.update(7, ("en", "default"), scene, moves)))
        if "scene" in update:
            page_scene = scene_from_json(update["scene"])
        else:
            assert page_scene is not None and update["diff"]["before"] == page_scene.ply
            page_scene = apply(page_scene, diff_from_json(update["diff"]))
        page_moves = page_moves[: update["movesFrom"]] + update["moves"]
        assert page_scene == rounded(scene)
        assert page_moves == moves


def test_a_large_event_is_sent_deflated_with_its_ply_beside_it() -> None:
    small = {"ply": 3, "status": "Move 4"}
    assert json.loads(packed(small)) == small
    large = {"ply": 9, "alt": "a long alt text " * 400}
    sent = packed(large)
    wrapped = json.loads(sent)
    assert set(wrapped) == {"ply", "deflated"} and wrapped["ply"] == 9 and len(sent) < DEFLATE_OVER
    assert unpacked(sent) == large and unpacked(packed(small)) == small
