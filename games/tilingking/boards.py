"""Board presets of RULES 3.3 and custom plain sizes, with their placement tables.

A `Board` is a `games.grids.TileGrid` (cells, labels, edge/vertex neighbour tables, `outside_mask`) plus an
id, its neutral cells and every placement of every piece precomputed as a cell bitmask.

| id       | cells                       | neutral                                      | playable |
| `sq9`    | 9x9 squares                 | none                                         | 81       |
| `sq11b`  | 11x11 squares               | outer ring (40)                              | 81       |
| `sq13bi` | 13x13 squares               | outer ring (48) and f6-h8 (9)                | 112      |
| `hex5`   | hexagon of hexes, side 5    | none                                         | 61       |
| `hex6b`  | side 6 (91)                 | outer ring (30)                              | 61       |
| `hex8bi` | side 8 (169)                | outer ring (42), centre and its neighbours   | 120      |
| `tri4`   | hexagon of triangles, side 4| none                                         | 96       |
| `tri5b`  | side 5 (150)                | every triangle with a corner on the rim (54) | 96       |
| `tri6bi` | side 6 (216)                | the rim (66) and the 6 around the centre     | 144      |

Plain boards of other sizes have ids `sq<n>`, `hex<n>`, `tri<n>` (see `board`).
"""

from __future__ import annotations

import re
from functools import cache, cached_property

from games.grids import TileGrid, hex_grid, square_grid, triangle_grid, triangle_rows
from games.texts import Text
from games.tilingking.pieces import pieces

PRESETS: tuple[str, ...] = ("sq9", "sq11b", "sq13bi", "hex5", "hex6b", "hex8bi", "tri4", "tri5b", "tri6bi")
PLAIN = {"square": "sq9", "hex": "hex5", "triangle": "tri4"}
SIZE_LIMITS = {"sq": (4, 19), "hex": (3, 10), "tri": (2, 8)}
"""Smallest and largest custom size per plain shape (labels stay single letters)."""

_ID = re.compile(r"^(sq|hex|tri)([0-9]{1,2})(b|bi)?$")


class Board(TileGrid):
    """A board: the grid, its `neutral` cells and the playable rest.

    `neutral` is a frozenset of cell indices and `neutral_mask` the same as a bitmask; `playable_mask` is
    every other cell. Boards are compared and hashed by id.
    """

    def __init__(self, board_id: str, grid: TileGrid, neutral: frozenset[int]) -> None:
        super().__init__(grid.tiling, grid.cells, grid.labels, grid.range_text)
        self.id = board_id
        self.neutral = neutral
        self.neutral_mask = self.mask_of(neutral)
        self.playable_mask = self.full & ~self.neutral_mask
        self.playable_count = self.size - len(neutral)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and other.id == self.id

    def __hash__(self) -> int:
        return hash(("board", self.id))

    def __repr__(self) -> str:
        return f"Board({self.id!r})"

    @cached_property
    def notation_rank(self) -> tuple[int, ...]:
        """Per cell, its place in a move's written cell list: file then rank on squares (c3 c4 c5 d4),
        reading order (row, then left to right) on hexes and triangles."""
        if self.kind != "square":
            return tuple(range(self.size))
        order = sorted(range(self.size), key=lambda i: self.cells[i])
        rank = [0] * self.size
        for position, i in enumerate(order):
            rank[i] = position
        return tuple(rank)

    @cache  # noqa: B019 - boards are cached singletons, so the cache lives as long as they do
    def placements(self, reflections: bool = True) -> tuple[tuple[int, ...], ...]:
        """Per piece (in set order), every placement on playable cells as a bitmask, without duplicates.
        Without reflections only the rotations of each piece's canonical form count."""
        tiling = self.tiling
        result = []
        for piece in pieces(self.kind):
            masks: dict[int, None] = {}
            for shape in tiling.orientations(piece.shape, reflections):
                first = shape[0]
                for anchor in self.cells:
                    offset = tiling.translation(first, anchor)
                    if offset is None:
                        continue
                    mask = 0
                    for x, y in shape:
                        i = self.index_of.get((x + offset[0], y + offset[1]))
                        if i is None:
                            break
                        mask |= 1 << i
                    else:
                        if not mask & self.neutral_mask:
                            masks.setdefault(mask, None)
            result.append(tuple(masks))
        return tuple(result)

    @cache  # noqa: B019
    def placement_piece(self, reflections: bool = True) -> dict[int, int]:
        """Placement bitmask -> piece index, for every placement `placements(reflections)` lists."""
        return {mask: p for p, masks in enumerate(self.placements(reflections)) for mask in masks}


def _grid(shape: str, size: int) -> TileGrid:
    if shape == "sq":
        return square_grid(size, size)
    if shape == "hex":
        return hex_grid(size)
    return triangle_grid(size)


def _centre(shape: str, size: int, grid: TileGrid) -> set[int]:
    """The interior island: the 3x3 centre of a square board, the centre hex and its 6 neighbours, or the 6
    triangles around the centre point of a triangle board."""
    if shape == "sq":
        mid = size // 2
        return {grid.index_of[(mid + dx, mid + dy)] for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    if shape == "hex":
        return {grid.index_of[(0, 0)], *grid.edge_neighbours[grid.index_of[(0, 0)]]}
    rows = triangle_rows(size)
    middle = rows[size - 1].start + 2 * size - 1  # the down triangle whose bottom corner is the centre point
    return {grid.index_of[(middle + dx, y)] for dx in (-1, 0, 1) for y in (size - 1, size)}


@cache
def board(board_id: str) -> Board:
    """The board with this id: a preset, or a plain `sq<n>`/`hex<n>`/`tri<n>` of a custom size.

    A `b` suffix makes the cells that touch the outside neutral, `bi` adds the interior island.
    Raises ValueError for an unknown id.
    """
    match = _ID.match(board_id)
    if not match:
        raise ValueError(
            Text(
                "unknown board {board_id!r}; boards are {boards}",
                board_id=board_id,
                boards=", ".join(PRESETS),
            )
        )
    shape, size_text, border = match.groups()
    size = int(size_text)
    low, high = SIZE_LIMITS[shape]
    if not low <= size <= high:
        raise ValueError(Text("{shape} boards have size {low} to {high}", shape=shape, low=low, high=high))
    grid = _grid(shape, size)
    neutral: set[int] = set()
    if border:
        neutral |= {i for i in range(grid.size) if grid.touches_outside(i)}
    if border == "bi":
        neutral |= _centre(shape, size, grid)
    return Board(board_id, grid, frozenset(neutral))


def custom_id(preset: str, size: int) -> str:
    """The id of a plain board of another size: custom_id("hex5", 7) == "hex7"."""
    match = _ID.match(preset)
    if not match or match.group(3):
        raise ValueError(Text("size works only with the plain boards sq9, hex5 and tri4"))
    return f"{match.group(1)}{size}"
