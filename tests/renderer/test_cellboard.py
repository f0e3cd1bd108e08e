"""A declared cell board (renderer/cellboard.py) on every tiling: the host builds a well-formed scene whose
cells are the tiling's polygons, with each disc, label, dot and last-move ring where the position says,
and paints it in every theme (the example game under examples/ declares a square rack of holes; here a
game's state lends only its players and status line)."""

from __future__ import annotations

import pytest

import games
from renderer import painter
from renderer.cellboard import Cell, CellBoard, Position, SeatLook, board_scene
from renderer.scene import Circle, Kind, Mark, Polygon, Show, TextLine, check
from renderer.theme import THEME_NAMES, get_theme

HEX = ((0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (0, 2))
TRIANGLES = ((0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (1, 1), (2, 1), (3, 1))


@pytest.mark.parametrize(
    ("tiling", "cells", "corners"),
    [("square", (), 4), ("hex", HEX, 6), ("triangle", TRIANGLES, 3)],
)
def test_a_declared_board_on_each_tiling(
    tiling: str, cells: tuple[tuple[int, int], ...], corners: int
) -> None:
    board = CellBoard(
        columns=4,
        rows=3,
        tiling=tiling,
        cells=cells,
        seats=(SeatLook("ink", "square"), SeatLook("highlight", "diamond")),
        empty="panel",
    )
    rules = games.get("paint")
    state = rules.new(2, {}, 1)
    where = Position(
        {0: Cell(seat=0), 1: Cell(seat=1, dot=True), 2: Cell(fill="muted", label="7")}, last=(1,)
    )
    scene = board_scene(board, "paint", state, where, players=["Ann", "Ben"], size=960)
    check(scene)
    count = len(cells) if cells else 12
    assert len(scene.cells) == len(scene.labels) == count
    assert all(len(polygon) == corners for polygon in scene.cells)
    items = scene.keyed()
    assert all(isinstance(items[f"cell:{i}"], Polygon) for i in range(count))
    assert isinstance(items["disc:0"], Circle) and items["disc:0"].fill == "ink"
    cx = sum(x for x, _ in scene.cells[1]) / corners
    assert items["disc:1"].centre[0] == pytest.approx(cx)  # type: ignore[union-attr]
    mark = items["disc:1:mark"]
    assert isinstance(mark, Mark) and mark.shape == "diamond" and mark.show is Show.CUES
    assert items["fill:2"].kind is Kind.TERRITORY and isinstance(items["label:2"], TextLine)
    assert "dot:1" in items and items["mark:last"].cells == (1,)
    assert [s.score for s in scene.panel.players] == [1, 1]
    if tiling == "square":  # a square board's coordinates: column letters and row numbers
        assert "file:3" in items and "rank:2" in items and scene.labels[5] == "b2"
    for theme in THEME_NAMES:
        image = painter.paint(scene, get_theme(theme))
        assert image.size == (960, 640)
