"""Board geometry shared by the games: cells, labels players type, neighbours.

Square boards index cells as `i = y * width + x`, with x the file (a, b, ... left to right) and y the rank
(1, 2, ... bottom to top), so `a1` is index 0. Bitboards are Python ints with bit i for cell i.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from games.texts import Text

FILES = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class SquareGrid:
    """A width x height rectangle of square cells, labelled a1 (bottom left) to e.g. h8 (top right)."""

    width: int
    height: int

    @property
    def size(self) -> int:
        return self.width * self.height

    @property
    def full(self) -> int:
        """The bitboard with every cell set."""
        return (1 << self.size) - 1

    def index(self, x: int, y: int) -> int:
        return y * self.width + x

    def xy(self, i: int) -> tuple[int, int]:
        return i % self.width, i // self.width

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def label(self, i: int) -> str:
        x, y = self.xy(i)
        return f"{FILES[x]}{y + 1}"

    def describe_range(self) -> str:
        """ "files a-h, ranks 1-8", for error messages."""
        return Text("files a-{file}, ranks 1-{rank}", file=FILES[self.width - 1], rank=self.height)

    def parse(self, text: str) -> int:
        """A label like "d4" (any case, surrounding spaces ignored) to a cell index.

        Raises ValueError with a message for a player: "d9 is off the board (files a-h, ranks 1-8)".
        """
        label = text.strip().lower()
        rank = label[1:]
        if len(label) < 2 or label[0] not in FILES or not (rank.isascii() and rank.isdigit()):
            raise ValueError(
                Text("{text!r} is not a square; squares look like a1 or d4", text=_shortened(text.strip()))
            )
        x, y = FILES.index(label[0]), int(rank) - 1 if len(rank) <= 3 else self.height
        if not self.on_board(x, y):
            raise ValueError(
                Text(
                    "{label} is off the board ({squares})",
                    label=_shortened(label),
                    squares=self.describe_range(),
                )
            )
        return self.index(x, y)

    @cached_property
    def labels(self) -> tuple[str, ...]:
        return tuple(self.label(i) for i in range(self.size))

    @cached_property
    def orthogonal(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, its edge neighbours (N, E, S, W order where they exist)."""
        result = []
        for i in range(self.size):
            x, y = self.xy(i)
            steps = ((0, 1), (1, 0), (0, -1), (-1, 0))
            result.append(
                tuple(self.index(x + dx, y + dy) for dx, dy in steps if self.on_board(x + dx, y + dy))
            )
        return tuple(result)

    @cached_property
    def orthogonal_masks(self) -> tuple[int, ...]:
        """For each cell, the bitboard of its edge neighbours."""
        return tuple(sum(1 << j for j in nbrs) for nbrs in self.orthogonal)

    def grow(self, bits: int) -> int:
        """The cells orthogonally next to any cell in `bits` (not including `bits` itself unless adjacent)."""
        w = self.width
        left_edge = sum(1 << self.index(0, y) for y in range(self.height))
        right_edge = sum(1 << self.index(w - 1, y) for y in range(self.height))
        full = self.full
        return (
            ((bits << w) & full) | (bits >> w) | ((bits & ~right_edge) << 1) | ((bits & ~left_edge) >> 1)
        ) & full


_BYTE_TABLES: list[tuple[tuple[int, ...], ...]] = []
"""`_BYTE_TABLES[j][b]`: the indices of the set bits of a mask whose byte j has the value b, lowest first.
Grown on first use to the longest mask seen (a 384-cell board needs 48 tables of 256 tuples)."""

_FEW_BITS = 5
"""Up to this many set bits (a piece, a single cell), stripping the lowest bit one at a time is faster than
the byte tables."""


def _shortened(text: str, limit: int = 20) -> str:
    """`text`, cut to `limit` characters with an ellipsis, for echoing a player's input in a message."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def bits_of(mask: int) -> list[int]:
    """The indices of the set bits of `mask`, lowest first: the one bit-iteration helper of the engines.

    A negative mask would have infinitely many set bits: ValueError, rather than a loop that never ends.
    A sparse mask is read bit by bit, a denser one (a player's targets) a byte at a time from tables."""
    if mask < 0:
        raise ValueError(f"a bitboard is never negative, got {mask}")
    if mask.bit_count() <= _FEW_BITS:
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out
    size = (mask.bit_length() + 7) // 8
    tables = _BYTE_TABLES
    if size > len(tables):
        _grow_byte_tables(size)
    out = []
    for j, byte in enumerate(mask.to_bytes(size, "little")):
        if byte:
            out += tables[j][byte]
    return out


def _grow_byte_tables(size: int) -> None:
    """Extend `_BYTE_TABLES` to masks of `size` bytes."""
    offsets = tuple(tuple(k for k in range(8) if value >> k & 1) for value in range(256))
    for j in range(len(_BYTE_TABLES), size):
        _BYTE_TABLES.append(tuple(tuple(8 * j + k for k in bits) for bits in offsets))


# -------------------------------------------------------------------------- tilings (square, hex, triangle)
#
# RULES.md 3.2. A `Tiling` knows the infinite plane of one cell type: neighbours, symmetries and polyform
# shapes. A `TileGrid` is a finite board on it: cells in a fixed order (index i), labels, neighbour tables and
# bitmasks. Coordinates:
#   square   (x, y): x the file (a, b, ...), y the rank (1, 2, ... bottom to top);
#   hex      (q, r): axial, edge neighbours (+-1, 0), (0, +-1), (+1, -1), (-1, +1); row r = -(n-1) is the top;
#   triangle (x, y): y the row (0 = top, downward), x the column; up (apex up) when x + y is even.

Cell = tuple[int, int]
Shape = tuple[Cell, ...]
"""A set of cells as a sorted tuple."""


class Tiling(ABC):
    """One regular tiling of the plane: neighbours, the symmetries that fix the origin, and shapes."""

    kind: str = ""
    rotations: int = 4
    """How many rotations the symmetry group has (4 or 6); with reflections it has twice as many."""
    edge_degree: int = 4
    vertex_degree: int = 8

    @abstractmethod
    def edge_neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The cells sharing a full edge with `cell`."""

    @abstractmethod
    def vertex_neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The cells sharing at least one corner with `cell` (edge neighbours included)."""

    @abstractmethod
    def rotate(self, cell: Cell) -> Cell:
        """One turn of the smallest rotation (90 degrees for squares, 60 for hexes and triangles)."""

    @abstractmethod
    def reflect(self, cell: Cell) -> Cell:
        """A mirror image."""

    def translation(self, source: Cell, target: Cell) -> Cell | None:
        """The offset that moves `source` onto `target`, or None if no translation of the tiling does."""
        return (target[0] - source[0], target[1] - source[1])

    def transform(self, cell: Cell, rotation: int, mirror: bool) -> Cell:
        """Mirror first (if asked), then rotate `rotation` times."""
        if mirror:
            cell = self.reflect(cell)
        for _ in range(rotation % self.rotations):
            cell = self.rotate(cell)
        return cell

    def symmetries(self) -> tuple[tuple[int, bool], ...]:
        """Every (rotation, mirror) pair: the 8 or 12 symmetries of the tiling."""
        return tuple((r, m) for m in (False, True) for r in range(self.rotations))

    def normalise(self, cells: Iterable[Cell]) -> Shape:
        """The shape translated so that its smallest cell sits at the origin (or (1, 0) for a down
        triangle), sorted: two translates of one shape normalise to the same tuple."""
        ordered = sorted(cells)
        first = ordered[0]
        anchor = (first[0] + first[1]) % 2 if self.kind == "triangle" else 0
        dx, dy = anchor - first[0], -first[1]
        return tuple((x + dx, y + dy) for x, y in ordered)

    def oriented(self, cells: Iterable[Cell], rotation: int, mirror: bool) -> Shape:
        """The normalised image of a shape under one symmetry."""
        return self.normalise(self.transform(c, rotation, mirror) for c in cells)

    def canonical(self, cells: Iterable[Cell]) -> Shape:
        """The lexicographically smallest normalised image under every symmetry (RULES 3.2): two cell sets
        are the same free piece exactly when their canonical forms are equal."""
        shape = tuple(cells)
        return min(self.oriented(shape, r, m) for r, m in self.symmetries())

    def orientations(self, cells: Iterable[Cell], reflections: bool = True) -> tuple[Shape, ...]:
        """The distinct normalised images of a shape (its fixed forms), in symmetry order."""
        shape = tuple(cells)
        seen: dict[Shape, None] = {}
        for rotation, mirror in self.symmetries():
            if mirror and not reflections:
                continue
            seen.setdefault(self.oriented(shape, rotation, mirror), None)
        return tuple(seen)

    def is_connected(self, cells: Iterable[Cell]) -> bool:
        """Whether the cells form one group under edge adjacency."""
        remaining = set(cells)
        if not remaining:
            return False
        stack = [remaining.pop()]
        while stack:
            for n in self.edge_neighbours(stack.pop()):
                if n in remaining:
                    remaining.remove(n)
                    stack.append(n)
        return not remaining

    def free_polyforms(self, size: int) -> tuple[Shape, ...]:
        """Every free polyform of `size` cells (edge-connected, up to symmetry) as canonical forms, sorted.

        Grown cell by cell from the single cell: every polyform of size k+1 is a polyform of size k plus one
        edge neighbour, so the canonical forms of all such extensions are all the free polyforms.
        """
        if size < 1:
            return ()
        layer: set[Shape] = {self.canonical([(0, 0)])}
        for _ in range(size - 1):
            grown: set[Shape] = set()
            for shape in layer:
                cells = set(shape)
                for cell in shape:
                    for n in self.edge_neighbours(cell):
                        if n not in cells:
                            grown.add(self.canonical(cells | {n}))
            layer = grown
        return tuple(sorted(layer, key=lambda s: (len(s), s)))


class SquareTiling(Tiling):
    """Squares: 4 edge neighbours, 8 vertex neighbours, 8 symmetries."""

    kind = "square"
    rotations = 4
    edge_degree = 4
    vertex_degree = 8
    _EDGE = ((0, 1), (1, 0), (0, -1), (-1, 0))
    _VERTEX = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))

    def edge_neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        x, y = cell
        return tuple((x + dx, y + dy) for dx, dy in self._EDGE)

    def vertex_neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        x, y = cell
        return tuple((x + dx, y + dy) for dx, dy in self._VERTEX)

    def rotate(self, cell: Cell) -> Cell:
        x, y = cell
        return (-y, x)

    def reflect(self, cell: Cell) -> Cell:
        x, y = cell
        return (-x, y)


class HexTiling(Tiling):
    """Hexagons in axial coordinates: 6 edge neighbours, which are also the vertex neighbours; 12
    symmetries."""

    kind = "hex"
    rotations = 6
    edge_degree = 6
    vertex_degree = 6
    _EDGE = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

    def edge_neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        q, r = cell
        return tuple((q + dq, r + dr) for dq, dr in self._EDGE)

    def vertex_neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        return self.edge_neighbours(cell)

    def rotate(self, cell: Cell) -> Cell:
        q, r = cell
        return (-r, q + r)

    def reflect(self, cell: Cell) -> Cell:
        q, r = cell
        return (r, q)


class TriangleTiling(Tiling):
    """Triangles: cell (x, y) points up when x + y is even. 3 edge neighbours, 12 vertex neighbours, 12
    symmetries (computed in the triangle-cube coordinates of RULES 3.2)."""

    kind = "triangle"
    rotations = 6
    edge_degree = 3
    vertex_degree = 12

    @staticmethod
    def is_up(cell: Cell) -> bool:
        return (cell[0] + cell[1]) % 2 == 0

    def edge_neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        x, y = cell
        return ((x - 1, y), (x + 1, y), (x, y + 1) if self.is_up(cell) else (x, y - 1))

    def vertex_neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        x, y = cell
        wide, narrow = (y + 1, y - 1) if self.is_up(cell) else (y - 1, y + 1)
        same = tuple((x + dx, y) for dx in (-2, -1, 1, 2))
        wide_row = tuple((x + dx, wide) for dx in range(-2, 3))
        return same + wide_row + tuple((x + dx, narrow) for dx in (-1, 0, 1))

    @staticmethod
    def to_cube(cell: Cell) -> tuple[int, int, int]:
        """(x, y) to triangle-cube (a, b, c): a + b + c is 2 for an up cell, 1 for a down cell."""
        x, y = cell
        if (x + y) % 2 == 0:
            return ((x + y) // 2, -y, 2 + (y - x) // 2)
        return ((x + y - 1) // 2, -y, 1 + (y - x + 1) // 2)

    @staticmethod
    def from_cube(a: int, b: int, c: int) -> Cell:
        y = -b
        return (2 * a + b, y) if a + b + c == 2 else (2 * a + 1 + b, y)

    def rotate(self, cell: Cell) -> Cell:
        a, b, c = self.to_cube(cell)
        return self.from_cube(1 - b, 1 - c, 1 - a)

    def reflect(self, cell: Cell) -> Cell:
        a, b, c = self.to_cube(cell)
        return self.from_cube(b, a, c)

    def translation(self, source: Cell, target: Cell) -> Cell | None:
        if self.is_up(source) != self.is_up(target):
            return None
        return (target[0] - source[0], target[1] - source[1])


SQUARE = SquareTiling()
HEX = HexTiling()
TRIANGLE = TriangleTiling()
TILINGS: dict[str, Tiling] = {t.kind: t for t in (SQUARE, HEX, TRIANGLE)}


class TileGrid:
    """A finite board of one tiling: cells in index order, labels, neighbour tables and bitmasks.

    A cell touches the outside when one of its vertex-neighbour positions is off the board (RULES 3.2).
    """

    def __init__(
        self, tiling: Tiling, cells: Sequence[Cell], labels: Sequence[str], describe_range: str
    ) -> None:
        self.tiling = tiling
        self.kind = tiling.kind
        self.cells: tuple[Cell, ...] = tuple(cells)
        self.labels: tuple[str, ...] = tuple(labels)
        self.range_text = describe_range
        self.size = len(self.cells)
        self.full = (1 << self.size) - 1
        self.index_of: dict[Cell, int] = {c: i for i, c in enumerate(self.cells)}
        self.label_index: dict[str, int] = {label: i for i, label in enumerate(self.labels)}
        self.edge_neighbours: tuple[tuple[int, ...], ...] = self._table(tiling.edge_neighbours)
        self.vertex_neighbours: tuple[tuple[int, ...], ...] = self._table(tiling.vertex_neighbours)
        self.edge_masks: tuple[int, ...] = tuple(sum(1 << j for j in ns) for ns in self.edge_neighbours)
        self.vertex_masks: tuple[int, ...] = tuple(sum(1 << j for j in ns) for ns in self.vertex_neighbours)
        self.outside_mask = sum(
            1 << i
            for i, c in enumerate(self.cells)
            if any(n not in self.index_of for n in tiling.vertex_neighbours(c))
        )

    def _table(self, neighbours: Callable[[Cell], tuple[Cell, ...]]) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(self.index_of[n] for n in neighbours(c) if n in self.index_of) for c in self.cells)

    def label(self, i: int) -> str:
        return self.labels[i]

    def touches_outside(self, i: int) -> bool:
        return bool(self.outside_mask >> i & 1)

    def parse(self, text: str) -> int:
        """A label like "d4" (any case, spaces ignored) to a cell index; ValueError with a message for a
        player."""
        label = text.strip().lower()
        if label in self.label_index:
            return self.label_index[label]
        rank = label[1:]
        if len(label) < 2 or label[0] not in FILES or not (rank.isascii() and rank.isdigit()):
            raise ValueError(
                Text("{text!r} is not a cell; cells look like a1 or d4", text=_shortened(text.strip()))
            )
        row = [known for known in self.labels if known[0] == label[0]]
        if self.kind != "square" and row:
            raise ValueError(
                Text(
                    "{label} is off the board (row {row} has {first}-{last})",
                    label=_shortened(label),
                    row=label[0],
                    first=row[0],
                    last=row[-1],
                )
            )
        raise ValueError(
            Text("{label} is off the board ({cells})", label=_shortened(label), cells=self.range_text)
        )

    def mask_of(self, indices: Iterable[int]) -> int:
        mask = 0
        for i in indices:
            mask |= 1 << i
        return mask

    def grow_vertex(self, mask: int) -> int:
        """The cells vertex-adjacent to any cell of `mask`."""
        out = 0
        masks = self.vertex_masks
        while mask:
            low = mask & -mask
            out |= masks[low.bit_length() - 1]
            mask ^= low
        return out


def square_grid(width: int, height: int) -> TileGrid:
    """A width x height rectangle; index y * width + x, labels a1 (bottom left) like `SquareGrid`."""
    cells = [(x, y) for y in range(height) for x in range(width)]
    labels = [f"{FILES[x]}{y + 1}" for x, y in cells]
    return TileGrid(
        SQUARE, cells, labels, Text("files a-{file}, ranks 1-{rank}", file=FILES[width - 1], rank=height)
    )


def hex_grid(side: int) -> TileGrid:
    """A hexagon of hexes with `side` cells per edge: max(|q|, |r|, |q + r|) <= side - 1. Rows are read top
    (r = -(side-1), letter a) to bottom, cells left (smallest q) to right, numbered from 1 in each row."""
    m = side - 1
    cells: list[Cell] = []
    labels: list[str] = []
    for row, r in enumerate(range(-m, m + 1)):
        qs = range(max(-m, -m - r), min(m, m - r) + 1)
        for k, q in enumerate(qs):
            cells.append((q, r))
            labels.append(f"{FILES[row]}{k + 1}")
    return TileGrid(HEX, cells, labels, Text("rows a-{row}", row=FILES[2 * m]))


def triangle_rows(side: int) -> list[range]:
    """The columns of each row (top to bottom) of a hexagon of triangles with `side` triangles per edge:
    2 * side rows of 2 * side + 1 ... 4 * side - 1 ... 2 * side + 1 cells, 6 * side**2 in all."""
    widest_start = (side - 1) % 2  # the leftmost cell of the two widest rows is up in row side - 1
    rows = []
    for y in range(2 * side):
        if y < side:
            start, width = widest_start + (side - 1 - y), 2 * side + 1 + 2 * y
        else:
            start, width = widest_start + (y - side), 4 * side - 1 - 2 * (y - side)
        rows.append(range(start, start + width))
    return rows


def triangle_grid(side: int) -> TileGrid:
    """A hexagon made of triangles, `side` triangles per edge, rows a (top) downward, cells numbered from 1
    left to right within each row."""
    cells: list[Cell] = []
    labels: list[str] = []
    for y, xs in enumerate(triangle_rows(side)):
        for k, x in enumerate(xs):
            cells.append((x, y))
            labels.append(f"{FILES[y]}{k + 1}")
    return TileGrid(TRIANGLE, cells, labels, Text("rows a-{row}", row=FILES[2 * side - 1]))
