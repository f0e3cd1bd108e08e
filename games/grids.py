"""Board geometry shared by the games: cells, labels players type, neighbours.

Square boards index cells as `i = y * width + x`, with x the file (a, b, ... left to right) and y the rank
(1, 2, ... bottom to top), so `a1` is index 0. Bitboards are Python ints with bit i for cell i.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

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
        """"files a-h, ranks 1-8", for error messages."""
        return f"files a-{FILES[self.width - 1]}, ranks 1-{self.height}"

    def parse(self, text: str) -> int:
        """A label like "d4" (any case, surrounding spaces ignored) to a cell index.

        Raises ValueError with a message for a player: "d9 is off the board (files a-h, ranks 1-8)".
        """
        label = text.strip().lower()
        if len(label) < 2 or label[0] not in FILES or not label[1:].isdigit():
            raise ValueError(f"{text.strip()!r} is not a square; squares look like a1 or d4")
        x, y = FILES.index(label[0]), int(label[1:]) - 1
        if not self.on_board(x, y):
            raise ValueError(f"{label} is off the board ({self.describe_range()})")
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
            ((bits << w) & full)
            | (bits >> w)
            | ((bits & ~right_edge) << 1)
            | ((bits & ~left_edge) >> 1)
        ) & full


def bits_of(mask: int) -> list[int]:
    """The indices of the set bits of `mask`, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
