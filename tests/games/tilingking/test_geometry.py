"""Square, hex and triangle geometry of games.grids (RULES 3.2): neighbours, symmetries, polyforms."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.grids import (
    HEX,
    SQUARE,
    TILINGS,
    TRIANGLE,
    Cell,
    SquareGrid,
    TileGrid,
    Tiling,
    bits_of,
    hex_grid,
    square_grid,
    triangle_grid,
)


def triangle_corners(cell: Cell) -> set[tuple[int, int]]:
    """The three corner points of a triangle in a lattice where each cell is 2 wide and 1 high."""
    x, y = cell
    if (x + y) % 2 == 0:  # apex up at (x, y), base on line y + 1
        return {(x, y), (x - 1, y + 1), (x + 1, y + 1)}
    return {(x - 1, y), (x + 1, y), (x, y + 1)}


def square_corners(cell: Cell) -> set[tuple[int, int]]:
    x, y = cell
    return {(x + dx, y + dy) for dx in (0, 1) for dy in (0, 1)}


@pytest.mark.parametrize("cell", [(0, 0), (1, 0), (4, 3), (5, 3), (-3, 7)])
def test_triangle_neighbours_are_the_cells_sharing_an_edge_or_a_corner(cell: Cell) -> None:
    corners = triangle_corners(cell)
    x, y = cell
    nearby = [(x + dx, y + dy) for dx in range(-4, 5) for dy in range(-2, 3) if (dx, dy) != (0, 0)]
    by_edge = {c for c in nearby if len(triangle_corners(c) & corners) == 2}
    by_corner = {c for c in nearby if triangle_corners(c) & corners}
    assert set(TRIANGLE.edge_neighbours(cell)) == by_edge
    assert set(TRIANGLE.vertex_neighbours(cell)) == by_corner
    assert len(by_edge) == 3 and len(by_corner) == 12


def test_square_neighbours_share_an_edge_or_a_corner() -> None:
    cell = (3, 4)
    nearby = [(3 + dx, 4 + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
    mine = square_corners(cell)
    assert set(SQUARE.vertex_neighbours(cell)) == {c for c in nearby if square_corners(c) & mine}
    assert set(SQUARE.edge_neighbours(cell)) == {c for c in nearby if len(square_corners(c) & mine) == 2}


@pytest.mark.parametrize(
    ("grid", "edge", "vertex"),
    [(square_grid(7, 7), 4, 8), (hex_grid(4), 6, 6), (triangle_grid(4), 3, 12)],
)
def test_interior_cells_have_the_full_neighbour_counts(grid: TileGrid, edge: int, vertex: int) -> None:
    interior = [i for i in range(grid.size) if not grid.touches_outside(i)]
    assert interior
    for i in interior:
        assert len(grid.edge_neighbours[i]) == edge
        assert len(grid.vertex_neighbours[i]) == vertex
        assert set(grid.edge_neighbours[i]) <= set(grid.vertex_neighbours[i])
        for j in grid.vertex_neighbours[i]:
            assert i in grid.vertex_neighbours[j], "vertex adjacency is symmetric"
        assert bits_of(grid.vertex_masks[i]) == sorted(grid.vertex_neighbours[i])


def test_board_sizes_and_rims() -> None:
    assert square_grid(9, 9).size == 81 and bin(square_grid(9, 9).outside_mask).count("1") == 32
    assert [hex_grid(n).size for n in (5, 6, 8)] == [61, 91, 169]
    assert [bin(hex_grid(n).outside_mask).count("1") for n in (6, 8)] == [30, 42]
    assert [triangle_grid(n).size for n in (4, 5, 6)] == [96, 150, 216]
    assert [bin(triangle_grid(n).outside_mask).count("1") for n in (5, 6)] == [54, 66]


@pytest.mark.parametrize("grid", [hex_grid(5), triangle_grid(4), triangle_grid(5), square_grid(6, 6)])
def test_hexagonal_and_square_boards_look_the_same_under_every_symmetry(grid: TileGrid) -> None:
    tiling = grid.tiling
    shape = tiling.normalise(grid.cells)
    for rotation, mirror in tiling.symmetries():
        assert tiling.oriented(grid.cells, rotation, mirror) == shape


def test_triangle_cells_point_up_when_x_plus_y_is_even() -> None:
    grid = triangle_grid(3)
    for x, y in grid.cells:
        up = (x + y) % 2 == 0
        assert TRIANGLE.edge_neighbours((x, y))[2] == ((x, y + 1) if up else (x, y - 1))
    first_row = [c for c in grid.cells if c[1] == 0]
    assert len(first_row) == 7 and TRIANGLE.is_up(first_row[0]) and TRIANGLE.is_up(first_row[-1])


def test_labels_follow_rules_3_2() -> None:
    sq = square_grid(9, 9)
    assert sq.label(sq.index_of[(0, 0)]) == "a1" and sq.label(sq.index_of[(2, 3)]) == "c4"
    hx = hex_grid(5)
    assert hx.label(hx.index_of[(0, -4)]) == "a1"  # top row r = -4 starts at q = 0
    assert hx.label(hx.index_of[(4, -4)]) == "a5"
    assert hx.label(hx.index_of[(-4, 0)]) == "e1" and hx.label(hx.index_of[(0, 0)]) == "e5"
    tri = triangle_grid(4)
    assert tri.labels[0] == "a1" and tri.labels[-1] == "h9"
    assert tri.parse(" D3 ") == tri.label_index["d3"]
    with pytest.raises(ValueError, match="off the board"):
        tri.parse("a10")
    with pytest.raises(ValueError, match="not a cell"):
        tri.parse("3a")


def test_square_grid_api_is_unchanged() -> None:
    old, new = SquareGrid(5, 4), square_grid(5, 4)
    assert old.labels == new.labels
    assert [tuple(sorted(n)) for n in old.orthogonal] == [tuple(sorted(n)) for n in new.edge_neighbours]


@pytest.mark.parametrize(("tiling", "size"), [(SQUARE, 8), (HEX, 12), (TRIANGLE, 12)])
def test_symmetry_groups_have_8_12_12_elements(tiling: Tiling, size: int) -> None:
    assert len(tiling.symmetries()) == size
    hook = [(0, 0), (0, 1), (1, 1), (0, 2), (1, 2)]
    asymmetric = hook if tiling is TRIANGLE else [(0, 0), (1, 0), (2, 0), (2, 1)]
    assert tiling.is_connected(asymmetric)
    assert len(tiling.orientations(asymmetric)) == size, "a shape without symmetry has one image per element"
    for cell in [(0, 0), (3, -2), (5, 1)]:
        assert tiling.transform(cell, tiling.rotations, False) == cell
        assert tiling.reflect(tiling.reflect(cell)) == cell


@pytest.mark.parametrize(
    ("kind", "counts"),
    [("square", [1, 1, 2, 5]), ("hex", [1, 1, 3, 7]), ("triangle", [1, 1, 1, 3, 4])],
)
def test_free_polyform_counts(kind: str, counts: list[int]) -> None:
    tiling = TILINGS[kind]
    assert [len(tiling.free_polyforms(n)) for n in range(1, len(counts) + 1)] == counts


def test_fixed_form_counts_match_the_known_values() -> None:
    assert sum(len(SQUARE.orientations(s)) for s in SQUARE.free_polyforms(4)) == 19
    assert sum(len(HEX.orientations(s)) for s in HEX.free_polyforms(4)) == 44
    assert sum(len(TRIANGLE.orientations(s)) for s in TRIANGLE.free_polyforms(5)) == 36


@settings(max_examples=40, deadline=None)
@given(
    kind=st.sampled_from(sorted(TILINGS)),
    size=st.integers(1, 5),
    seed=st.integers(0, 10_000),
    shift=st.tuples(st.integers(-6, 6), st.integers(-6, 6)),
)
def test_canonical_forms_are_invariant_under_every_symmetry_and_translation(
    kind: str, size: int, seed: int, shift: tuple[int, int]
) -> None:
    import random

    tiling = TILINGS[kind]
    rng = random.Random(seed)
    cells = {(0, 0)}
    while len(cells) < size:
        cells.add(rng.choice(tiling.edge_neighbours(rng.choice(sorted(cells)))))
    canonical = tiling.canonical(cells)
    assert tiling.is_connected(canonical) and len(canonical) == size
    dx, dy = shift if kind != "triangle" else (shift[0] * 2, shift[1] * 2)
    assert tiling.canonical((x + dx, y + dy) for x, y in cells) == canonical
    for rotation, mirror in tiling.symmetries():
        image = [tiling.transform(c, rotation, mirror) for c in cells]
        assert tiling.is_connected(image)
        assert tiling.canonical(image) == canonical
