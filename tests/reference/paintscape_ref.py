"""A slow, literal Paintscape written straight from RULES.md section 1, for differential tests.

Deliberately independent of games/paintscape/rules.py: plain dicts and label strings, no bitboards, no shared
code. Squares are labels "a1".."h8"; a square holds a tile colour (1-5, or 0 for none) and a stone
("B", "W" or None).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

FILES = "abcdefgh"
SQUARES = [f"{f}{r}" for r in range(1, 9) for f in FILES]  # a1, b1, ..., h1, a2, ..., h8


def neighbours(sq: str) -> list[str]:
    x, y = FILES.index(sq[0]), int(sq[1]) - 1
    out = []
    for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
        nx, ny = x + dx, y + dy
        if 0 <= nx < 8 and 0 <= ny < 8:
            out.append(f"{FILES[nx]}{ny + 1}")
    return out


@dataclass
class RefPaintscape:
    tile: dict[str, int]
    stone: dict[str, str | None]
    phase: str  # "balance", "choose", "play", "over"
    black_seat: int | None = None
    to_move_colour: str = "B"  # in the play phase
    swaps: int = 0
    remembered: set[str] = field(default_factory=set)
    score: dict[str, int] = field(default_factory=lambda: {"B": 0, "W": 0})
    winner_colour: str | None = None
    last_removed: int = 0  # colour removed by the last move, 0 if none

    @classmethod
    def from_layout(cls, layout: str, balance: bool) -> RefPaintscape:
        tile = {}
        stone: dict[str, str | None] = {}
        for sq, ch in zip(SQUARES, layout, strict=True):
            tile[sq] = int(ch) if ch in "12345" else 0
            stone[sq] = ch if ch in "BW" else None
        if balance:
            return cls(tile, stone, "balance")
        return cls(tile, stone, "play", black_seat=0)

    def seat_to_move(self) -> int | None:
        if self.phase == "balance":
            return 0
        if self.phase == "choose":
            return 1
        if self.phase == "play":
            assert self.black_seat is not None
            return self.black_seat if self.to_move_colour == "B" else 1 - self.black_seat
        return None

    def legal(self) -> set[str]:
        if self.phase == "balance":
            sources = [s for s in SQUARES if self.stone[s] is not None and s not in self.remembered]
            targets = [t for t in SQUARES if self.tile[t] and self.stone[t] is None]
            return {f"swap {s} {t}" for s in sources for t in targets} | {"done"}
        if self.phase == "choose":
            return {"black", "white"}
        if self.phase == "play":
            me = self.to_move_colour
            targets = {
                q for s in SQUARES if self.stone[s] == me for q in neighbours(s) if self.stone[q] is None
            }
            return targets or {"pass"}
        return set()

    def play(self, move: str) -> RefPaintscape:
        assert move in self.legal(), (move, sorted(self.legal()))
        nxt = copy.deepcopy(self)
        nxt.last_removed = 0
        if self.phase == "balance":
            if move == "done":
                nxt.phase = "choose"
                return nxt
            _, s, t = move.split()
            nxt.stone[t], nxt.stone[s] = self.stone[s], None
            nxt.tile[s], nxt.tile[t] = self.tile[t], 0
            nxt.remembered.add(t)
            nxt.swaps += 1
            if nxt.swaps == 4:
                nxt.phase = "choose"
            return nxt
        if self.phase == "choose":
            nxt.black_seat = 1 if move == "black" else 0
            nxt.phase = "play"
            nxt.to_move_colour = "B"
            return nxt
        me = self.to_move_colour
        if move != "pass":
            nxt.stone[move] = me
            k = nxt.tile[move]
            if k:
                mine = sum(1 for s in SQUARES if nxt.tile[s] == k and nxt.stone[s] == me)
                if mine == 6:
                    for s in SQUARES:
                        if nxt.tile[s] == k:
                            nxt.tile[s] = 0
                            nxt.stone[s] = None
                    nxt.score[me] += 1
                    nxt.last_removed = k
                    if nxt.score[me] == 3:
                        nxt.phase = "over"
                        nxt.winner_colour = me
                        return nxt
                    if not any(nxt.tile.values()):
                        # Only reachable from a custom layout that leaves colours out: the engine's documented
                        # proposal is that more colours wins and equal colours draw.
                        nxt.phase = "over"
                        b, w = nxt.score["B"], nxt.score["W"]
                        nxt.winner_colour = "B" if b > w else "W" if w > b else None
                        return nxt
        nxt.to_move_colour = "W" if me == "B" else "B"
        return nxt

    def winner_seat(self) -> int | None:
        if self.winner_colour is None:
            return None
        assert self.black_seat is not None
        return self.black_seat if self.winner_colour == "B" else 1 - self.black_seat

    def bitboards(self) -> tuple[int, int, tuple[int, ...]]:
        """(black, white, tiles per colour) as bitboards with bit i for SQUARES[i]."""
        black = sum(1 << i for i, s in enumerate(SQUARES) if self.stone[s] == "B")
        white = sum(1 << i for i, s in enumerate(SQUARES) if self.stone[s] == "W")
        tiles = tuple(sum(1 << i for i, s in enumerate(SQUARES) if self.tile[s] == k) for k in range(1, 6))
        return black, white, tiles
