"""The board's scene on the web: the cell polygons the page draws over the PNG lie on the cells the PNG
shows, and its palettes give the page its colours in every theme."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import games
import renderer
from bot.web.wire import scene_payload, web_scene
from games.base import clickable_moves
from renderer.theme import game_colours, get_theme


def _inside(poly: tuple[tuple[float, float], ...]) -> tuple[int, int]:
    """A point well inside the cell, away from the number written at its centre: 55% of the way from the
    centre towards its first corner."""
    cx, cy = sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly)
    return round(cx + (poly[0][0] - cx) * 0.55), round(cy + (poly[0][1] - cy) * 0.55)


@pytest.mark.parametrize("board", ["sq9", "hex5", "tri4"])
def test_tilingking_cells_match_the_image(board: str) -> None:
    """Empty cells are drawn in the empty colour at their polygon's centre; the cells of a placed piece are
    not (the piece's colour is there), on square, hex and triangle boards."""
    rules = games.get("tilingking")
    state = rules.new(2, {"board": board}, 1)
    click = next(c for c in clickable_moves(rules, state) if len(c.cells) >= 3)
    state = rules.apply(state, rules.parse(state, click.notation))
    image = Image.open(io.BytesIO(renderer.render("tilingking", state, size=960))).convert("RGB")
    sc = renderer.board_scene("tilingking", state, size=960)
    assert (sc.width, sc.height) == image.size
    assert len(sc.cells) == len(state.board.cells) == len(sc.labels)
    empty = game_colours(get_theme("default"), "tilingking")["empty"]
    for i, poly in enumerate(sc.cells):
        pixel = image.getpixel(_inside(poly))
        if i in click.cells:
            assert pixel != empty, sc.labels[i]
        elif state.board.playable_mask >> i & 1:
            assert pixel == empty, sc.labels[i]


@pytest.mark.parametrize("game_id", ["paint", "paintscape"])
def test_square_boards_have_one_polygon_per_square(game_id: str) -> None:
    rules = games.get(game_id)
    state = rules.new(2, {}, 1)
    sc = web_scene(renderer.board_scene(game_id, state, size=720))
    data = scene_payload(sc)
    assert data["width"] == 720 and data["height"] == 480
    assert len(data["cells"]) == len(sc.labels) and sc.labels[0] == "a1"
    # a1 is at the bottom left: its top edge is below the top edge of a2 (the square above it)
    assert data["cells"][0][1] > data["cells"][round(len(sc.labels) ** 0.5)][1]
    highlight = data["palettes"]["colorblind"]["colours"]["highlight"]
    assert highlight == "#{:02x}{:02x}{:02x}".format(*get_theme("colorblind").highlight)


def test_the_ghost_piece_takes_each_seats_own_colour() -> None:
    """The panel names each seat's colour; the palettes give it in every theme (the web page draws the
    ghost piece of the seat to move in it)."""
    rules = games.get("tilingking")
    data = scene_payload(web_scene(renderer.board_scene("tilingking", rules.new(4, {}, 1), size=720)))
    for theme in ("default", "colorblind", "dark"):
        own = game_colours(get_theme(theme), "tilingking")
        palette = data["palettes"][theme]["colours"]
        seats = [palette[p["colour"]] for p in data["panel"]["players"]]
        colours = [own[f"piece_{c}"] for c in ("red", "blue", "green", "yellow")]
        assert seats == ["#{:02x}{:02x}{:02x}".format(*colour) for colour in colours]
