"""A slow, literal TilingKing written straight from RULES.md section 3, for differential tests.

Independent of games/tilingking: its own board construction (3.2, 3.3), its own piece canonicalisation
(triangles through their vertices on the triangular lattice, not cube coordinates), and the capture
algorithm of 3.7 line by line on Python sets. Cells are identified by the labels players type, so the
engine and this reference meet only in notation. Default options only (reflections on, half cap on, no
Tile Hoard options).
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

Coord = tuple[int, int]
LETTERS = string.ascii_lowercase


# ------------------------------------------------------------------------------------------ boards


@dataclass
class RefBoard:
    kind: str
    cells: list[Coord]  # in no particular order
    labels: dict[Coord, str]
    neutral: set[Coord]

    def __post_init__(self) -> None:
        self.cell_set = set(self.cells)
        self._edge_neighbours: dict[Coord, list[Coord]] = {}

    def edge_neighbours(self, c: Coord) -> list[Coord]:
        """`neighbours_along_edges`, remembered per cell (the board never changes)."""
        found = self._edge_neighbours.get(c)
        if found is None:
            found = self._edge_neighbours[c] = self.neighbours_along_edges(c)
        return found

    @property
    def playable(self) -> int:
        return len(self.cells) - len(self.neutral)

    def neighbours_along_edges(self, c: Coord) -> list[Coord]:
        x, y = c
        if self.kind == "square":
            offs = [(1, 0), (-1, 0), (0, 1), (0, -1)]
            return [(x + dx, y + dy) for dx, dy in offs]
        if self.kind == "hex":
            offs = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]
            return [(x + dx, y + dy) for dx, dy in offs]
        up = (x + y) % 2 == 0
        return [(x - 1, y), (x + 1, y), (x, y + 1) if up else (x, y - 1)]

    def vertex_neighbours(self, c: Coord) -> list[Coord]:
        x, y = c
        if self.kind == "square":
            return [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
        if self.kind == "hex":
            return self.edge_neighbours(c)
        up = (x + y) % 2 == 0
        far, near = (y + 1, y - 1) if up else (y - 1, y + 1)
        out = [(x + dx, y) for dx in (-2, -1, 1, 2)]
        out += [(x + dx, far) for dx in range(-2, 3)]
        out += [(x + dx, near) for dx in range(-1, 2)]
        return out

    def touches_outside(self, c: Coord) -> bool:
        return any(n not in self.cell_set for n in self.vertex_neighbours(c))


def square_board(n: int, border: bool, island: bool) -> RefBoard:
    cells = [(x, y) for y in range(n) for x in range(n)]
    labels = {(x, y): f"{LETTERS[x]}{y + 1}" for x, y in cells}
    board = RefBoard("square", cells, labels, set())
    if border:
        board.neutral = {c for c in cells if board.touches_outside(c)}
    if island:
        mid = n // 2
        board.neutral |= {(x, y) for x in range(mid - 1, mid + 2) for y in range(mid - 1, mid + 2)}
    return board


def hex_board(n: int, border: bool, island: bool) -> RefBoard:
    m = n - 1
    cells = [(q, r) for r in range(-m, m + 1) for q in range(-m, m + 1) if abs(q + r) <= m]
    labels = {}
    for r in range(-m, m + 1):
        row = sorted(q for q, rr in cells if rr == r)
        for i, q in enumerate(row):
            labels[(q, r)] = f"{LETTERS[r + m]}{i + 1}"
    board = RefBoard("hex", cells, labels, set())
    if border:
        board.neutral = {c for c in cells if board.touches_outside(c)}
    if island:
        board.neutral |= {(0, 0), *board.edge_neighbours((0, 0))}
    return board


def triangle_board(n: int, border: bool, island: bool) -> RefBoard:
    """A hexagon of side n made of 6n^2 triangles; row 0 at the top; a global column x aligned across rows,
    with cell (x, y) pointing up when x + y is even (the top half's rows start with an up triangle)."""
    cells = []
    for y in range(2 * n):
        if y < n:
            start, length = 2 * n - y, 2 * n + 1 + 2 * y
        else:
            start, length = y + 1, 6 * n - 1 - 2 * y
        cells += [(x, y) for x in range(start, start + length)]
    labels = {}
    for y in range(2 * n):
        row = sorted(x for x, yy in cells if yy == y)
        for i, x in enumerate(row):
            labels[(x, y)] = f"{LETTERS[y]}{i + 1}"
    board = RefBoard("triangle", cells, labels, set())
    if border:
        board.neutral = {c for c in cells if board.touches_outside(c)}
    if island:
        centre = 3 * n
        board.neutral |= {(centre + dx, y) for dx in (-1, 0, 1) for y in (n - 1, n)}
    return board


PRESETS = {
    "sq9": lambda: square_board(9, False, False),
    "sq11b": lambda: square_board(11, True, False),
    "sq13bi": lambda: square_board(13, True, True),
    "hex5": lambda: hex_board(5, False, False),
    "hex6b": lambda: hex_board(6, True, False),
    "hex8bi": lambda: hex_board(8, True, True),
    "tri4": lambda: triangle_board(4, False, False),
    "tri5b": lambda: triangle_board(5, True, False),
    "tri6bi": lambda: triangle_board(6, True, True),
}


# ------------------------------------------------------------------------------------------ shapes


def triangle_vertices(c: Coord) -> frozenset[Coord]:
    """The three corners of a triangle cell as lattice points (i, j) = i*e1 + j*e2, e2 at 60 degrees."""
    x, y = c
    if (x + y) % 2 == 0:
        doubled = [(x, -y), (x - 1, -y - 1), (x + 1, -y - 1)]
    else:
        doubled = [(x - 1, -y), (x + 1, -y), (x, -y - 1)]
    return frozenset(((p - q) // 2, q) for p, q in doubled)


def canonical(kind: str, cells: Iterable[Coord]) -> tuple[object, ...]:
    """The smallest image of the shape under the tiling's rotations, reflections and translations."""
    return _canonical(kind, frozenset(cells))


@cache
def _canonical(kind: str, cells: frozenset[Coord]) -> tuple[object, ...]:
    """`canonical`, remembered per cell set: the same sets recur at every ply of a game (a pure function of
    its arguments, so remembering it changes no result, only the time the differential tests take)."""
    if kind == "triangle":
        shape = [sorted(triangle_vertices(c)) for c in cells]

        def rotate(p: Coord) -> Coord:
            return (-p[1], p[0] + p[1])

        def reflect(p: Coord) -> Coord:
            return (p[0] + p[1], -p[1])

        images = []
        current = shape
        for _ in range(6):
            for variant in (current, [[reflect(p) for p in tri] for tri in current]):
                low = min(p for tri in variant for p in tri)
                norm = sorted(tuple(sorted((p[0] - low[0], p[1] - low[1]) for p in tri)) for tri in variant)
                images.append(tuple(norm))
            current = [[rotate(p) for p in tri] for tri in current]
        return min(images)
    if kind == "square":
        rot, ref = (lambda p: (-p[1], p[0])), (lambda p: (-p[0], p[1]))
        turns = 4
    else:
        rot, ref = (lambda p: (-p[1], p[0] + p[1])), (lambda p: (p[1], p[0]))
        turns = 6
    images = []
    current = list(cells)
    for _ in range(turns):
        for variant in (current, [ref(p) for p in current]):
            low = min(variant)
            images.append(tuple(sorted((p[0] - low[0], p[1] - low[1]) for p in variant)))
        current = [rot(p) for p in current]
    return min(images)


def free_polyforms(board: RefBoard, max_size: int) -> list[tuple[object, ...]]:
    """Every free polyform up to max_size cells, grown on a big board of this kind."""
    kind = board.kind
    big = {"square": square_board(12, False, False), "hex": hex_board(7, False, False)}.get(
        kind, triangle_board(6, False, False)
    )
    cx = sum(c[0] for c in big.cells) / len(big.cells)
    cy = sum(c[1] for c in big.cells) / len(big.cells)
    seed = min(big.cells, key=lambda c: (c[0] - cx) ** 2 + (c[1] - cy) ** 2)
    shapes: dict[tuple[object, ...], frozenset[Coord]] = {canonical(kind, [seed]): frozenset([seed])}
    frontier = [frozenset([seed])]
    for _ in range(max_size - 1):
        grown = []
        for shape in frontier:
            for c in shape:
                for n in big.edge_neighbours(c):
                    if n in big.cell_set and n not in shape:
                        new = shape | {n}
                        key = canonical(kind, new)
                        if key not in shapes:
                            shapes[key] = new
                            grown.append(new)
        frontier = grown
    return list(shapes)


# ------------------------------------------------------------------------------------------ game


@dataclass
class Placed:
    owner: int
    cells: frozenset[Coord]
    shape: tuple[object, ...]


@dataclass
class RefTilingKing:
    board: RefBoard
    players: int
    supply: list[dict[tuple[object, ...], int]]
    placed: list[Placed] = field(default_factory=list)
    territory: dict[Coord, int] = field(default_factory=dict)
    to_move: int = 0
    passall: set[int] = field(default_factory=set)
    passes_in_a_row: int = 0
    over: bool = False
    _placements: set[frozenset[str]] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def new(cls, preset: str, players: int) -> RefTilingKing:
        board = PRESETS[preset]()
        size = 5 if board.kind == "triangle" else 4
        shapes = free_polyforms(board, size)
        base_cells = sum(len(s) for s in shapes)
        k = max(1, round(0.7 * board.playable / (players * base_cells)))
        return cls(board, players, [dict.fromkeys(shapes, k) for _ in range(players)])

    def covered(self) -> dict[Coord, int]:
        return {c: p.owner for p in self.placed for c in p.cells}

    def placements(self) -> set[frozenset[str]]:
        """Every legal placement of the player to move, as sets of labels (worked out once per position:
        a position is never changed after it is made, `place` and `pass_turn` make new ones)."""
        if self._placements is None:
            self._placements = self._find_placements()
        return self._placements

    def _find_placements(self) -> set[frozenset[str]]:
        me = self.to_move
        covered = self.covered()
        free = {
            c
            for c in self.board.cells
            if c not in self.board.neutral and c not in covered and self.territory.get(c, me) == me
        }
        available = {s for s, n in self.supply[me].items() if n > 0}
        sizes = {len(s) for s in available}
        found: set[frozenset[Coord]] = set()
        frontier = {frozenset([c]) for c in free}
        for size in range(1, max(sizes, default=0) + 1):
            if size in sizes:
                found |= {s for s in frontier if canonical(self.board.kind, s) in available}
            frontier = {
                s | {n}
                for s in frontier
                for c in s
                for n in self.board.edge_neighbours(c)
                if n in free and n not in s
            }
        return {frozenset(self.board.labels[c] for c in s) for s in found}

    def copy(self) -> RefTilingKing:
        """A copy whose changes leave this position alone: every mutable part is copied, the board (never
        changed) and the placed pieces (replaced, never changed) are shared."""
        return RefTilingKing(
            board=self.board,
            players=self.players,
            supply=[dict(s) for s in self.supply],
            placed=list(self.placed),
            territory=dict(self.territory),
            to_move=self.to_move,
            passall=set(self.passall),
            passes_in_a_row=self.passes_in_a_row,
            over=self.over,
        )

    def cell_of(self) -> dict[str, Coord]:
        return {label: c for c, label in self.board.labels.items()}

    def place(self, labels: Iterable[str]) -> RefTilingKing:
        nxt = self.copy()
        me = self.to_move
        by_label = self.cell_of()
        cells = frozenset(by_label[label] for label in labels)
        shape = canonical(self.board.kind, cells)
        assert nxt.supply[me][shape] > 0
        nxt.supply[me][shape] -= 1
        new_piece = Placed(me, cells, shape)
        nxt.placed.append(new_piece)
        nxt.resolve_captures(new_piece)
        nxt.passes_in_a_row = 0
        nxt.advance_turn()
        return nxt

    def resolve_captures(self, new_piece: Placed) -> None:
        me = new_piece.owner
        board = self.board
        wall = {c for p in self.placed if p.owner == me for c in p.cells} | board.neutral
        rest = [c for c in board.cells if c not in wall]
        rest_set = set(rest)
        seen: set[Coord] = set()
        regions = []
        for c in rest:
            if c in seen:
                continue
            region, todo = {c}, [c]
            while todo:
                cur = todo.pop()
                for n in board.vertex_neighbours(cur):
                    if n in rest_set and n not in region:
                        region.add(n)
                        todo.append(n)
            seen |= region
            regions.append(region)
        near = {n for c in new_piece.cells for n in board.vertex_neighbours(c)}
        candidates = [r for r in regions if not any(board.touches_outside(c) for c in r) and r & near]
        captured = 0
        for region in sorted(candidates, key=len):
            inside = [p for p in self.placed if p.owner != me and p.cells & region]
            counts: dict[int, int] = {}
            for p in inside:
                counts[p.owner] = counts.get(p.owner, 0) + 1
            if any(n >= 2 for n in counts.values()):
                continue
            gain = {c for c in region if c not in self.territory}
            if captured + len(gain) > board.playable / 2:
                continue
            for p in inside:
                self.placed.remove(p)
                self.supply[p.owner][p.shape] += 1
            for c in gain:
                self.territory[c] = me
            captured += len(gain)

    def pass_turn(self, all_turns: bool = False) -> RefTilingKing:
        nxt = self.copy()
        if all_turns:
            nxt.passall.add(self.to_move)
        nxt.passes_in_a_row += 1
        if nxt.passes_in_a_row >= self.players:
            nxt.over = True
        else:
            nxt.advance_turn()
        return nxt

    def advance_turn(self) -> None:
        self.to_move = (self.to_move + 1) % self.players

    def must_pass(self) -> bool:
        return self.to_move in self.passall or not self.placements()

    def scores(self) -> list[int]:
        owned: list[set[Coord]] = [set() for _ in range(self.players)]
        for c, p in self.covered().items():
            owned[p].add(c)
        for c, p in self.territory.items():
            owned[p].add(c)
        return [len(s) for s in owned]
