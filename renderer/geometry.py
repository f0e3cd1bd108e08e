"""Cell shapes in pixels for square, hex and triangle boards: the one place that knows about sqrt(3).

Every cell is a polygon whose corners lie on an integer lattice, so two cells share an edge exactly when
they share a pair of lattice points; `outline` uses that to draw the outer boundary of a union of cells.
The lattice is stretched to the plane by a per-kind factor (`LATTICE_SCALE`) and fitted into a pixel box.

Cell coordinates follow RULES 3.2:
- square `(x, y)`: x the file (left to right), y the rank (bottom to top);
- hex `(q, r)`, axial, pointy-top, r = row from the top; a cell's centre is at lattice (2q + r, 3r);
- triangle `(x, y)`: row y from the top, column x; up (apex up) when x + y is even.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

Lattice = tuple[int, int]
Point = tuple[float, float]
Box = tuple[float, float, float, float]

SQRT3 = math.sqrt(3.0)

LATTICE_SCALE: dict[str, tuple[float, float]] = {
    "square": (1.0, 1.0),
    "hex": (SQRT3 / 2, 0.5),
    "triangle": (0.5, SQRT3 / 2),
}
"""Plane units per lattice step (x, y). Square side, hex corner radius and triangle side are all 1 unit."""

INSCRIBED: dict[str, float] = {"square": 0.5, "hex": SQRT3 / 2, "triangle": 1 / (2 * SQRT3)}
"""The radius of the largest circle inside a cell, in plane units."""

_HEX_CORNERS: tuple[Lattice, ...] = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))


def lattice_corners(kind: str, cell: tuple[int, int]) -> tuple[Lattice, ...]:
    """The corners of one cell on the integer lattice, clockwise on screen (y grows downward)."""
    a, b = cell
    if kind == "square":
        return ((a, -b - 1), (a + 1, -b - 1), (a + 1, -b), (a, -b))
    if kind == "hex":
        cx, cy = 2 * a + b, 3 * b
        return tuple((cx + dx, cy + dy) for dx, dy in _HEX_CORNERS)
    if kind == "triangle":
        if (a + b) % 2 == 0:  # apex up
            return ((a + 1, b), (a + 2, b + 1), (a, b + 1))
        return ((a, b), (a + 2, b), (a + 1, b + 1))
    raise ValueError(f"unknown cell kind {kind!r}")


def outline_edges(corner_lists: Iterable[Sequence[Lattice]]) -> list[tuple[Lattice, Lattice]]:
    """The boundary of a union of cells: the edges that belong to exactly one of the cells."""
    counts: Counter[tuple[Lattice, Lattice]] = Counter()
    for corners in corner_lists:
        for k, p in enumerate(corners):
            q = corners[(k + 1) % len(corners)]
            counts[(p, q) if p <= q else (q, p)] += 1
    return [edge for edge, n in counts.items() if n == 1]


LOOP_CACHE_SIZE = 4096
"""Outlines remembered per board geometry (a board has a few thousand possible placements at most)."""


def boundary_loops(edges: Iterable[tuple[Lattice, Lattice]]) -> list[list[Lattice]]:
    """Boundary edges chained into closed loops of corners (a corner where two loops touch is visited once
    per loop)."""
    unused: dict[Lattice, list[Lattice]] = {}
    for p, q in edges:
        unused.setdefault(p, []).append(q)
        unused.setdefault(q, []).append(p)
    loops = []
    for start in sorted(unused):
        while unused[start]:
            loop, point = [start], start
            while True:
                after = unused[point].pop()
                unused[after].remove(point)
                if after == start:
                    break
                loop.append(after)
                point = after
            loops.append(loop)
    return loops


@dataclass(frozen=True)
class BoardGeometry:
    """A board's cells fitted into a pixel box, as large as fits, centred.

    `cells` are coordinates in RULES 3.2 terms; everything here is indexed like `cells`.
    """

    kind: str
    cells: tuple[tuple[int, int], ...]
    box: Box

    def __hash__(self) -> int:
        """Computed once: a geometry is part of the keys of the drawers' caches, looked up for every piece
        of every board."""
        found: int | None = self.__dict__.get("_hash")
        if found is None:
            found = hash((self.kind, self.cells, self.box))
            object.__setattr__(self, "_hash", found)
        return found

    @cached_property
    def corners(self) -> tuple[tuple[Lattice, ...], ...]:
        return tuple(lattice_corners(self.kind, c) for c in self.cells)

    @cached_property
    def _transform(self) -> tuple[float, float, float, float, float]:
        """(scale, x offset, y offset, x step, y step) from lattice to pixels."""
        xs = [p[0] for cs in self.corners for p in cs]
        ys = [p[1] for cs in self.corners for p in cs]
        ux, uy = LATTICE_SCALE[self.kind]
        width, height = (max(xs) - min(xs)) * ux, (max(ys) - min(ys)) * uy
        x0, y0, w, h = self.box
        scale = min(w / width, h / height)
        ox = x0 + (w - width * scale) / 2 - min(xs) * ux * scale
        oy = y0 + (h - height * scale) / 2 - min(ys) * uy * scale
        return scale, ox, oy, ux * scale, uy * scale

    @property
    def scale(self) -> float:
        """Pixels per plane unit (a square's side, a hex's corner radius, a triangle's side)."""
        return self._transform[0]

    def to_pixel(self, p: tuple[float, float]) -> Point:
        _, ox, oy, sx, sy = self._transform
        return ox + p[0] * sx, oy + p[1] * sy

    @cached_property
    def polygons(self) -> tuple[tuple[Point, ...], ...]:
        """Each cell's corners in pixels."""
        return tuple(tuple(self.to_pixel(p) for p in cs) for cs in self.corners)

    @cached_property
    def centres(self) -> tuple[Point, ...]:
        """Each cell's centre in pixels (the centroid, which for a triangle sits a third of the way up)."""
        out = []
        for poly in self.polygons:
            out.append((sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly)))
        return tuple(out)

    @property
    def inner_radius(self) -> float:
        """The radius in pixels of the largest circle that fits inside a cell."""
        return INSCRIBED[self.kind] * self.scale

    @cached_property
    def bounds(self) -> Box:
        """The pixel bounding box (left, top, right, bottom) of all cells."""
        xs = [p[0] for poly in self.polygons for p in poly]
        ys = [p[1] for poly in self.polygons for p in poly]
        return min(xs), min(ys), max(xs), max(ys)

    def outline(self, indices: Iterable[int]) -> list[tuple[Point, Point]]:
        """The outer boundary of the union of the given cells, as pixel segments."""
        edges = outline_edges(self.corners[i] for i in indices)
        return [(self.to_pixel(p), self.to_pixel(q)) for p, q in edges]

    @cached_property
    def _loops(self) -> dict[tuple[int, ...], tuple[tuple[Point, ...], ...]]:
        return {}

    def outline_loops(self, indices: Iterable[int]) -> tuple[tuple[Point, ...], ...]:
        """The same boundary as closed loops of pixel points (one polyline each, cheaper to draw than its
        segments); remembered per set of cells, since a placed piece never changes."""
        key = tuple(sorted(indices))
        if key not in self._loops:
            if len(self._loops) >= LOOP_CACHE_SIZE:
                self._loops.clear()
            loops = boundary_loops(outline_edges(self.corners[i] for i in key))
            self._loops[key] = tuple(tuple(self.to_pixel(p) for p in loop) for loop in loops)
        return self._loops[key]

    def shrunk(self, index: int, inset: float) -> list[Point]:
        """A cell's polygon pulled `inset` pixels towards its centre (for borders kept inside the cell)."""
        cx, cy = self.centres[index]
        poly = self.polygons[index]
        radius = self.inner_radius
        factor = max(0.0, (radius - inset) / radius) if radius > 0 else 1.0
        return [(cx + (x - cx) * factor, cy + (y - cy) * factor) for x, y in poly]


def square_cells(width: int, height: int) -> tuple[tuple[int, int], ...]:
    """Cells (x, y) of a width x height square board in index order i = y * width + x."""
    return tuple((i % width, i // width) for i in range(width * height))
