"""The piece sets of RULES 3.4: every free polyform of sizes 1-4 (squares, hexes) or 1-5 (triangles).

Each piece has a short id a player can type and a name. The shapes are given here in one orientation (cell
coordinates of `games.grids`, see there) and stored as canonical forms; a test checks that they are exactly
the enumerated free polyforms.

Squares (`Q4`, 9 pieces, 29 cells): `1` monomino, `2` domino, `I3` straight tromino, `V3` bent tromino,
`I4` `O4` `T4` `L4` `S4` tetrominoes.
Hexes (`H4`, 12 pieces, 40 cells): `1` monohex, `2` dihex, `I3` straight, `V3` bent, `D3` triangle trihex;
tetrahexes `I4` bar, `P4` pistol, `Y4` propeller, `J4` worm, `U4` arch, `O4` bee, `S4` wave.
Triangles (`T5`, 10 pieces, 38 cells): `1` moniamond, `2` diamond, `3` triamond; tetriamonds `I4` bar,
`C4` chevron, `T4` triangle; pentiamonds `I5` bar, `U5` crown, `P5` pennant, `L5` hook.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from games.grids import TILINGS, Shape

_SOURCES: dict[str, tuple[tuple[str, str, tuple[tuple[int, int], ...]], ...]] = {
    "square": (
        ("1", "monomino", ((0, 0),)),
        ("2", "domino", ((0, 0), (1, 0))),
        ("I3", "straight tromino", ((0, 0), (1, 0), (2, 0))),
        ("V3", "bent tromino", ((0, 0), (1, 0), (0, 1))),
        ("I4", "straight tetromino", ((0, 0), (1, 0), (2, 0), (3, 0))),
        ("O4", "square tetromino", ((0, 0), (1, 0), (0, 1), (1, 1))),
        ("T4", "T tetromino", ((0, 0), (1, 0), (2, 0), (1, 1))),
        ("L4", "L tetromino", ((0, 0), (1, 0), (2, 0), (0, 1))),
        ("S4", "S tetromino", ((0, 0), (1, 0), (1, 1), (2, 1))),
    ),
    "hex": (
        ("1", "monohex", ((0, 0),)),
        ("2", "dihex", ((0, 0), (1, 0))),
        ("I3", "straight trihex", ((0, 0), (1, 0), (2, 0))),
        ("V3", "bent trihex", ((0, 0), (1, 0), (2, -1))),
        ("D3", "triangle trihex", ((0, 0), (1, 0), (0, 1))),
        ("I4", "bar", ((0, 0), (1, 0), (2, 0), (3, 0))),
        ("P4", "pistol", ((0, 0), (1, 0), (2, 0), (1, -1))),
        ("Y4", "propeller", ((0, 0), (1, 0), (0, -1), (-1, 1))),
        ("J4", "worm", ((0, 0), (1, 0), (2, 0), (3, -1))),
        ("U4", "arch", ((1, 0), (1, -1), (0, -1), (-1, 0))),
        ("O4", "bee", ((0, 0), (1, 0), (0, 1), (1, 1))),
        ("S4", "wave", ((0, 0), (1, 0), (1, 1), (2, 1))),
    ),
    "triangle": (
        ("1", "moniamond", ((0, 0),)),
        ("2", "diamond", ((0, 0), (1, 0))),
        ("3", "triamond", ((0, 0), (1, 0), (2, 0))),
        ("I4", "bar tetriamond", ((0, 0), (1, 0), (2, 0), (3, 0))),
        ("C4", "chevron", ((0, 0), (1, 0), (0, 1), (1, 1))),
        ("T4", "triangle tetriamond", ((0, 0), (-1, 1), (0, 1), (1, 1))),
        ("I5", "bar pentiamond", ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0))),
        ("U5", "crown", ((0, 0), (1, 0), (2, 0), (0, 1), (1, 1))),
        ("P5", "pennant", ((0, 0), (-1, 1), (0, 1), (1, 1), (-1, 2))),
        ("L5", "hook", ((0, 0), (0, 1), (1, 1), (0, 2), (1, 2))),
    ),
}

SET_NAMES = {"square": "Q4", "hex": "H4", "triangle": "T5"}
MAX_SIZE = {"square": 4, "hex": 4, "triangle": 5}


@dataclass(frozen=True)
class Piece:
    """One piece type of a set: `shape` is its canonical form (RULES 3.2)."""

    id: str
    name: str
    kind: str
    shape: Shape

    @property
    def size(self) -> int:
        return len(self.shape)


@cache
def pieces(kind: str) -> tuple[Piece, ...]:
    """The base set of a cell type, smallest pieces first; the order is the supply order."""
    tiling = TILINGS[kind]
    return tuple(Piece(pid, name, kind, tiling.canonical(cells)) for pid, name, cells in _SOURCES[kind])


@cache
def piece_index(kind: str) -> dict[str, int]:
    """Piece id (upper case) -> position in `pieces(kind)`."""
    return {p.id.upper(): i for i, p in enumerate(pieces(kind))}


def piece_shapes(kind: str) -> dict[str, Shape]:
    """Piece id -> its cells in one orientation (canonical form), for the /pieces picture."""
    return {p.id: p.shape for p in pieces(kind)}


def base_cells(kind: str) -> int:
    """The number of cells of one base set: 29, 40 or 38."""
    return sum(p.size for p in pieces(kind))


def default_copies(kind: str, playable: int, players: int) -> int:
    """Copies of the base set per player (RULES 3.4):
    max(1, round(0.7 * playable / (players * base_cells)))."""
    return max(1, round(0.7 * playable / (players * base_cells(kind))))
