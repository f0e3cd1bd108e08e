"""Cell geometry: neighbours share exactly one edge on the lattice, outlines are the edges of a cell union
that no two of its cells share, and a board fits inside its pixel box."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.grids import TILINGS
from renderer.geometry import BoardGeometry, boundary_loops, lattice_corners, outline_edges, square_cells

KINDS = ("square", "hex", "triangle")
CORNERS = {"square": 4, "hex": 6, "triangle": 3}


def edges(kind: str, cell: tuple[int, int]) -> set[frozenset[tuple[int, int]]]:
    corners = lattice_corners(kind, cell)
    return {frozenset((corners[k], corners[(k + 1) % len(corners)])) for k in range(len(corners))}


cells = st.tuples(st.integers(-6, 6), st.integers(-6, 6))


@pytest.mark.parametrize("kind", KINDS)
@given(cell=cells)
def test_edge_neighbours_share_exactly_one_lattice_edge(kind: str, cell: tuple[int, int]) -> None:
    tiling = TILINGS[kind]
    mine = edges(kind, cell)
    assert len(mine) == CORNERS[kind]
    for other in tiling.edge_neighbours(cell):
        assert len(mine & edges(kind, other)) == 1
    for other in tiling.vertex_neighbours(cell):
        if other not in tiling.edge_neighbours(cell):
            shared_corners = set(lattice_corners(kind, cell)) & set(lattice_corners(kind, other))
            assert len(shared_corners) == 1, "vertex-only neighbours meet at one corner"


@pytest.mark.parametrize("kind", KINDS)
@given(group=st.sets(cells, min_size=1, max_size=12))
def test_outline_is_the_edges_no_two_cells_share(kind: str, group: set[tuple[int, int]]) -> None:
    chosen = sorted(group)
    outline = {frozenset(e) for e in outline_edges(lattice_corners(kind, c) for c in chosen)}
    all_edges = [e for c in chosen for e in edges(kind, c)]
    shared = {e for e in all_edges if all_edges.count(e) == 2}
    assert outline == set(all_edges) - shared
    assert len(outline) == len(all_edges) - 2 * len(shared)


@settings(max_examples=30)
@given(kind=st.sampled_from(KINDS), width=st.integers(100, 900), height=st.integers(100, 900))
def test_a_board_fits_its_box_and_fills_one_side(kind: str, width: int, height: int) -> None:
    board_cells = _board(kind)
    geo = BoardGeometry(kind, board_cells, (10, 20, width, height))
    left, top, right, bottom = geo.bounds
    assert left >= 10 - 1e-6 and top >= 20 - 1e-6
    assert right <= 10 + width + 1e-6 and bottom <= 20 + height + 1e-6
    assert math.isclose(right - left, width, rel_tol=1e-6) or math.isclose(bottom - top, height, rel_tol=1e-6)


def _board(kind: str) -> tuple[tuple[int, int], ...]:
    if kind == "square":
        return square_cells(5, 4)
    if kind == "hex":
        return tuple((q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2)
    return tuple((x, y) for y in range(4) for x in range(9))


def test_cell_sizes_match_the_tilings() -> None:
    squares = BoardGeometry("square", square_cells(2, 2), (0, 0, 200, 200))
    assert squares.scale == pytest.approx(100)
    assert squares.inner_radius == pytest.approx(50)
    assert squares.centres[0] == pytest.approx((50, 150))  # a1 is bottom left
    hexes = BoardGeometry("hex", ((0, 0),), (0, 0, 1000, 200))
    assert hexes.bounds[3] - hexes.bounds[1] == pytest.approx(200)  # pointy top: two corner radii tall
    assert hexes.inner_radius == pytest.approx(100 * math.sqrt(3) / 2)
    up = BoardGeometry("triangle", ((0, 0),), (0, 0, 100, 1000))
    down = BoardGeometry("triangle", ((1, 0),), (0, 0, 100, 1000))
    assert up.centres[0][1] > (up.bounds[1] + up.bounds[3]) / 2  # an up triangle's centroid sits low
    assert down.centres[0][1] < (down.bounds[1] + down.bounds[3]) / 2


@pytest.mark.parametrize("kind", KINDS)
@given(group=st.sets(cells, min_size=1, max_size=12))
def test_outline_loops_are_closed_and_cover_the_outline_once(kind: str, group: set[tuple[int, int]]) -> None:
    chosen = sorted(group)
    outline = [frozenset(e) for e in outline_edges(lattice_corners(kind, c) for c in chosen)]
    loops = boundary_loops(outline_edges(lattice_corners(kind, c) for c in chosen))
    walked = [frozenset((loop[k], loop[(k + 1) % len(loop)])) for loop in loops for k in range(len(loop))]
    assert sorted(walked, key=sorted) == sorted(outline, key=sorted)
    assert all(len(loop) >= 3 for loop in loops)


def test_cell_numbers_on_every_hex_and_triangle_preset_are_readable_and_fit() -> None:
    """In-row numbers are at least 10 px at the default width and fit their cell's inscribed circle."""
    from games.tilingking.boards import PRESETS, board
    from games.tilingking.drawer import _cell_label_px, _geometry
    from renderer.canvas import text_width

    for board_id in PRESETS:
        b = board(board_id)
        if b.kind == "square":
            continue
        geo = _geometry(b.kind, tuple(b.cells), 960)
        px = _cell_label_px(geo)
        widest = max((b.label(i)[1:] for i in range(b.size)), key=len)
        assert px >= 10, board_id
        assert text_width(widest, px) <= 2.3 * geo.inner_radius, board_id
