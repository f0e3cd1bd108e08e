"""The scene as data (renderer/scene.py): a diff applied to the old scene gives the new one exactly, in
Python and through its JSON; JSON round trips; colour tokens resolve in every theme."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
import renderer
from bot.testing import fixtures
from renderer.scene import (
    Caps,
    Circle,
    Counter,
    Hatch,
    Kind,
    Layer,
    LegendEntry,
    Line,
    Mark,
    Panel,
    Part,
    Pattern,
    Polygon,
    Primitive,
    Rect,
    Ring,
    Scene,
    SceneDiff,
    Seat,
    Shading,
    Show,
    TextLine,
    apply,
    check,
    diff,
    diff_from_json,
    diff_json,
    item_from_json,
    item_json,
    palettes,
    rounded,
    scene_from_json,
    scene_json,
)
from renderer.theme import COLORBLIND, DARK, DEFAULT, THEME_NAMES, blend, contrast, mix, resolve
from tests.renderer.positions import GAME_SETUPS, NAMES

TOKENS = ("ink", "muted", "highlight", "board_edge", "panel", "#123456", mix("ink", "panel", 0.3))
coordinate = st.integers(-50, 1500).map(lambda n: n / 10)
point = st.tuples(coordinate, coordinate)
token = st.sampled_from(TOKENS)
maybe_token = st.none() | token
cells = st.lists(st.integers(0, 8), max_size=3, unique=True).map(tuple)
common: dict[str, Any] = {
    "kind": st.sampled_from(list(Kind)),
    "layer": st.sampled_from(list(Layer)),
    "cells": cells,
    "show": st.sampled_from(list(Show)),
}
pattern = st.none() | st.builds(
    Pattern, st.sampled_from(list(Hatch)), token, st.integers(2, 12), st.integers(1, 3)
)
width = st.integers(0, 60).map(lambda n: n / 10)


def _item(key: str) -> st.SearchStrategy[Primitive]:
    kw = dict(common, key=st.just(key))
    return st.one_of(
        st.builds(
            Rect,
            box=st.tuples(coordinate, coordinate, coordinate, coordinate),
            fill=maybe_token,
            stroke=maybe_token,
            width=width,
            radius=width,
            pattern=pattern,
            **kw,
        ),
        st.builds(
            Polygon,
            points=st.lists(point, min_size=3, max_size=6).map(tuple),
            fill=maybe_token,
            stroke=maybe_token,
            pattern=pattern,
            **kw,
        ),
        st.builds(
            Circle,
            centre=point,
            r=width,
            fill=token,
            stroke=maybe_token,
            width=width,
            shading=st.sampled_from(list(Shading)),
            text=st.sampled_from(["", "3", "12"]),
            text_size=st.integers(0, 20),
            text_colour=maybe_token,
            **kw,
        ),
        st.builds(
            Line,
            points=st.lists(point, min_size=2, max_size=5).map(tuple),
            stroke=token,
            width=width,
            closed=st.booleans(),
            caps=st.sampled_from(list(Caps)),
            **kw,
        ),
        st.builds(Ring, centre=point, r=width, width=width, **kw),
        st.builds(
            Mark,
            centre=point,
            r=width,
            shape=st.sampled_from(["circle", "square", "diamond"]),
            fill=token,
            **kw,
        ),
        st.builds(
            TextLine,
            at=point,
            text=st.text(max_size=8),
            size=st.integers(8, 30),
            colour=token,
            anchor=st.sampled_from(["lt", "mm", "rc", "lb"]),
            **kw,
        ),
    )


@st.composite
def panels(draw: st.DrawFn) -> Panel:
    seats = draw(st.integers(1, 4))
    return Panel(
        title=draw(st.sampled_from(["Paint", "Tiles"])),
        status=draw(st.text(max_size=12)),
        move=draw(st.integers(0, 300)),
        over=draw(st.booleans()),
        last_move=draw(st.sampled_from(["", "Last move: d4"])),
        players=tuple(
            Seat(
                seat=s,
                name=draw(st.sampled_from(["Alice", "Bob", "山田"])),
                role="Red",
                colour=draw(token),
                rim=draw(token),
                mark=draw(st.sampled_from(["", "square"])),
                score=draw(st.none() | st.integers(0, 99)),
                to_move=draw(st.booleans()),
                winner=draw(st.booleans()),
                clock=draw(st.none() | st.sampled_from([0.0, 12.5])),
            )
            for s in range(seats)
        ),
        counters=tuple(
            Counter(
                key=f"c{n}",
                label="lead",
                parts=(Part(label="White", value=draw(st.integers(0, 9)), colour="ink", seat=0),),
                goal=draw(st.none() | st.just(50)),
                note=draw(st.sampled_from(["", "3 of 50"])),
            )
            for n in range(draw(st.integers(0, 2)))
        ),
        legend=tuple(
            LegendEntry(label="a piece", colours=("ink", "muted"), pattern=draw(pattern))
            for _ in range(draw(st.integers(0, 2)))
        ),
        lines=tuple(draw(st.lists(st.sampled_from(["Board sq9", "x"]), max_size=2))),
    )


KEYS = [f"k{n}" for n in range(14)]


@st.composite
def scenes(draw: st.DrawFn, ply: int | None = None) -> Scene:
    keys = draw(st.lists(st.sampled_from(KEYS), unique=True, max_size=10))
    items = tuple(draw(_item(key)) for key in keys)
    polygons = tuple(((0.0, 0.0), (10.0, 0.0), (10.0, 10.0)) for _ in range(9))
    return Scene(
        game="paint",
        width=draw(st.sampled_from([960, 480])),
        height=640,
        ply=draw(st.integers(0, 99)) if ply is None else ply,
        items=items,
        panel=draw(panels()),
        cells=polygons if draw(st.booleans()) else (),
        labels=tuple(str(n) for n in range(9)),
        fixed=draw(st.integers(0, len(items))),
    )


@st.composite
def successions(draw: st.DrawFn) -> tuple[Scene, Scene]:
    """Two scenes of one game, the second often sharing most of the first's items (as a move does)."""
    old = draw(scenes())
    if draw(st.booleans()):
        return old, draw(scenes())
    kept = [item for item in old.items if draw(st.integers(0, 4))]
    for _ in range(draw(st.integers(0, 3))):
        free = [k for k in KEYS if k not in {i.key for i in kept}]
        if not free:
            break
        kept.insert(draw(st.integers(0, len(kept))), draw(_item(draw(st.sampled_from(free)))))
    if kept and draw(st.booleans()):
        n = draw(st.integers(0, len(kept) - 1))
        kept[n] = draw(_item(kept[n].key))
    if len(kept) > 1 and draw(st.booleans()):
        moved = kept.pop(draw(st.integers(0, len(kept) - 1)))
        kept.insert(draw(st.integers(0, len(kept))), moved)
    new = Scene(
        game=old.game,
        width=old.width,
        height=old.height,
        ply=old.ply + 1,
        items=tuple(kept),
        panel=draw(panels()) if draw(st.booleans()) else old.panel,
        cells=old.cells,
        labels=old.labels,
        fixed=min(old.fixed, len(kept)),
    )
    return old, new


@settings(max_examples=150, deadline=None)
@given(successions())
def test_a_diff_applied_to_the_old_scene_gives_the_new_one(pair: tuple[Scene, Scene]) -> None:
    old, new = pair
    change = diff(old, new)
    assert apply(old, change) == new
    assert change.before == old.ply and change.after == new.ply


@settings(max_examples=100, deadline=None)
@given(successions())
def test_the_diff_through_json_gives_the_new_scene_through_json(pair: tuple[Scene, Scene]) -> None:
    """What a browser does: the old scene's JSON, and each move's diff as JSON."""
    old, new = pair
    wire = json.loads(json.dumps(diff_json(diff(old, new), known=old.tokens())))
    assert apply(rounded(old), diff_from_json(wire)) == rounded(new)


@settings(max_examples=100, deadline=None)
@given(scenes())
def test_a_scene_round_trips_through_json(scene: Scene) -> None:
    data = json.loads(json.dumps(scene_json(scene)))
    assert scene_from_json(data) == scene  # coordinates are tenths already
    assert set(data["palettes"]) == set(THEME_NAMES)
    for item in scene.items:
        assert item_from_json(json.loads(json.dumps(item_json(item)))) == item


@given(scenes())
def test_a_scene_diffed_against_itself_is_empty(scene: Scene) -> None:
    change = diff(scene, scene)
    assert change.empty and apply(scene, change) == scene


def test_a_diff_keeps_what_did_not_change_out() -> None:
    """A move that adds a stone and moves the last-move mark sends those two items, not the board."""
    cells = tuple(
        Rect(key=f"cell:{i}", kind=Kind.CELL, cells=(i,), box=(i * 10, 0, i * 10 + 10, 10), fill="panel")
        for i in range(9)
    )
    panel = Panel(title="t", status="Move 1", move=1)
    ring = Ring(key="mark:last", kind=Kind.MARK, centre=(5, 5), r=4)
    old = Scene("paint", 960, 640, 1, (*cells, ring), panel, fixed=9)
    stone = Circle(key="stone:3", kind=Kind.STONE, cells=(3,), centre=(35, 5), r=4, fill="ink")
    moved = Ring(key="mark:last", kind=Kind.MARK, centre=(35, 5), r=4)
    new = Scene(
        "paint", 960, 640, 2, (*cells, stone, moved), Panel(title="t", status="Move 2", move=2), fixed=9
    )
    change = diff(old, new)
    assert change.removed == ()
    assert change.changed == (moved,)
    assert change.placed == (("cell:8", stone),)
    assert change.panel == new.panel
    assert apply(old, change) == new


def test_a_diff_for_another_ply_is_refused() -> None:
    panel = Panel(title="t", status="", move=0)
    old = Scene("paint", 960, 640, 3, (), panel)
    with pytest.raises(ValueError, match="ply 2"):
        apply(old, SceneDiff(game="paint", before=2, after=3))


def test_check_refuses_a_key_used_twice_and_a_cell_not_there() -> None:
    panel = Panel(title="t", status="", move=0)
    a = TextLine(key="a", kind=Kind.LABEL, at=(0, 0), text="x", size=10, colour="ink")
    with pytest.raises(ValueError, match="two items"):
        check(Scene("paint", 960, 640, 0, (a, a), panel))
    b = Polygon(key="b", kind=Kind.CELL, cells=(4,))
    with pytest.raises(ValueError, match="cells"):
        check(Scene("paint", 960, 640, 0, (b,), panel, cells=(((0, 0), (1, 0), (1, 1)),), labels=("a1",)))


def test_tokens_resolve_in_every_theme() -> None:
    assert resolve("ink", DEFAULT) == DEFAULT.ink
    assert resolve("ink", DARK) == DARK.ink != DEFAULT.ink
    assert resolve("#0a0b0c", COLORBLIND) == (10, 11, 12)
    assert resolve(mix("ink", "panel", 0.3), DEFAULT) == blend(DEFAULT.ink, DEFAULT.panel, 0.3)
    nested = mix(mix("ink", "#ffffff", 0.5), "panel", 0.25)
    assert resolve(nested, DEFAULT) == blend(blend(DEFAULT.ink, (255, 255, 255), 0.5), DEFAULT.panel, 0.25)
    assert resolve(contrast("#ffff00", "ink", "#ffffff"), DEFAULT) == DEFAULT.ink
    assert resolve(contrast("#102040", "ink", "#ffffff"), DEFAULT) == (255, 255, 255)
    assert resolve("piece_red", DEFAULT, "tilingking") == (214, 40, 57)
    with pytest.raises(ValueError, match="no colour"):
        resolve("nothing_here", DEFAULT, "paint")


def test_the_palettes_carry_every_theme_and_whether_it_draws_second_cues() -> None:
    out = palettes({"ink", "light"}, "paint")
    assert set(out) == set(THEME_NAMES)
    assert out["colorblind"]["cues"] and not out["default"]["cues"] and not out["dark"]["cues"]
    assert out["default"]["colours"] == {"ink": "#22223b", "light": "#fff6d8"}


@pytest.mark.parametrize("setup", sorted(GAME_SETUPS))
def test_every_games_scenes_are_well_formed_and_follow_each_other_by_diffs(setup: str) -> None:
    """The drawers' scenes of a random game: unique keys, cells that exist, every colour token resolved in
    every theme; each move's diff turns the last scene into the next, in Python and through JSON."""
    game_id, seats, options = GAME_SETUPS[setup]
    rules = games.get(game_id)
    rng = random.Random(3)
    state, last = rules.new(seats, options, 3), None
    before = None
    for _ in range(25):
        scene = renderer.board_scene(game_id, state, last_move=last, players=NAMES[:seats])
        check(scene)
        assert len(scene.cells) == len(scene.labels) > 0
        palettes(scene.tokens(), game_id)  # every token names a colour in every theme
        if before is not None:
            change = diff(before, scene)
            assert apply(before, change) == scene
            wire = json.loads(json.dumps(diff_json(change, known=before.tokens())))
            assert apply(rounded(before), diff_from_json(wire)) == rounded(scene)
        if rules.outcome(state) is not None:
            break
        move = rng.choice(fixtures.random_moves(game_id, state, list(rules.legal_moves(state))))
        before, last, state = scene, rules.notation(state, move), rules.apply(state, move)


def test_the_pieces_scene_is_well_formed() -> None:
    rules = games.get("tilingking")
    state = rules.new(3, {"board": "hex8bi"}, 2)
    pieces = renderer.drawer("tilingking").pieces_scene(state, 1, players=NAMES[:3], size=960)  # type: ignore[attr-defined]
    check(pieces)
    assert pieces.panel.players[0].seat == 1 and pieces.panel.players[0].pieces
    palettes(pieces.tokens(), "tilingking")
