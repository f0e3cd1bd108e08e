"""A slow, literal Paint written straight from RULES.md section 2 (2.5 move generation, 2.6 effects, 2.7
counters with the default options: 50 / 20 / 600, unit ply), for differential tests.

Independent of games/paint/rules.py: dicts keyed by labels "a1".."i9"; colours ".", "w", "b"; occupants None,
"W", "B", "o" (sphere). Seat 0 is White.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

FILES = "abcdefghi"
SQUARES = [f"{f}{r}" for r in range(1, 10) for f in FILES]
DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0))

DEFAULT_LAYOUT = {
    "W": "b1 c1 d1 f1 g1 h1",
    "B": "b9 c9 d9 f9 g9 h9",
    "o": "c3 g3 b4 e4 h4 c5 e5 g5 b6 e6 h6 c7 g7",
}


def xy(sq: str) -> tuple[int, int]:
    return FILES.index(sq[0]), int(sq[1:]) - 1


def at(x: int, y: int) -> str | None:
    return f"{FILES[x]}{y + 1}" if 0 <= x < 9 and 0 <= y < 9 else None


def step(sq: str, d: tuple[int, int]) -> str | None:
    x, y = xy(sq)
    return at(x + d[0], y + d[1])


@dataclass
class RefPaint:
    colour: dict[str, str]
    occ: dict[str, str | None]
    mover: str = "W"
    leader: str | None = None
    lead_count: int = 0
    no_lead_count: int = 0
    ply: int = 0
    result: tuple[str, str | None] | None = None  # (termination, winner colour or None)
    lead_turns: int = 50
    no_lead_turns: int = 20
    move_cap: int = 600

    @classmethod
    def default(cls) -> RefPaint:
        colour = dict.fromkeys(SQUARES, ".")
        occ: dict[str, str | None] = dict.fromkeys(SQUARES)
        for piece, squares in DEFAULT_LAYOUT.items():
            for sq in squares.split():
                occ[sq] = piece
                if piece != "o":
                    colour[sq] = piece.lower()
        ref = cls(colour, occ)
        if not ref.legal():
            ref.result = ("no_moves", "B")
        return ref

    def area(self, sq: str) -> set[str]:
        c = self.colour[sq]
        seen, todo = {sq}, [sq]
        while todo:
            cur = todo.pop()
            for d in DIRECTIONS:
                n = step(cur, d)
                if n and n not in seen and self.colour[n] == c:
                    seen.add(n)
                    todo.append(n)
        return seen

    def rank(self, sq: str) -> int:
        c = self.colour[sq]
        return sum(1 for s in self.area(sq) if self.occ[s] == c.upper())

    def legal(self) -> set[str]:
        me = self.mover
        own = me.lower()
        moves = set()
        for s in SQUARES:
            if self.occ[s] != me:
                continue
            r = self.rank(s)
            for d in DIRECTIONS:
                q = step(s, d)
                while q is not None:
                    if self.occ[q] in ("W", "B"):
                        break
                    if self.occ[q] == "o":
                        b = step(q, d)
                        if b is not None and self.occ[b] is None:
                            moves.add(f"{s}-{q}")
                        break
                    c = self.colour[q]
                    if c in (".", own) or self.rank(q) < r:
                        moves.add(f"{s}-{q}")
                    else:
                        break
                    q = step(q, d)
        return moves

    def tiles(self, c: str) -> int:
        return sum(1 for s in SQUARES if self.colour[s] == c)

    def play(self, move: str) -> RefPaint:
        assert self.result is None and move in self.legal(), (move, sorted(self.legal()))
        s, t = move.split("-")
        (sx, sy), (tx, ty) = xy(s), xy(t)
        d = ((tx > sx) - (tx < sx), (ty > sy) - (ty < sy))
        nxt = copy.deepcopy(self)
        me, own = self.mover, self.mover.lower()
        pushed = self.occ[t] == "o"
        nxt.occ[s] = None
        nxt.occ[t] = me
        q = step(s, d)
        while True:
            assert q is not None
            nxt.colour[q] = own
            if q == t:
                break
            q = step(q, d)
        if pushed:
            b = step(t, d)
            assert b is not None
            nxt.occ[b] = "o"
            nxt.colour[b] = "."
        for c in ("w", "b"):
            seen: set[str] = set()
            for sq in SQUARES:
                if nxt.colour[sq] == c and sq not in seen:
                    region = nxt.area(sq)
                    seen |= region
                    if not any(nxt.occ[x] == c.upper() for x in region):
                        for x in region:
                            nxt.colour[x] = "."
        nxt.ply += 1
        nxt.mover = "B" if me == "W" else "W"
        w, b = nxt.tiles("w"), nxt.tiles("b")
        new_leader = "W" if w > b else "B" if b > w else None
        if new_leader is None:
            nxt.leader, nxt.lead_count = None, 0
            nxt.no_lead_count += 1
        elif new_leader == nxt.leader:
            nxt.lead_count += 1
            nxt.no_lead_count = 0
        else:
            nxt.leader, nxt.lead_count, nxt.no_lead_count = new_leader, 1, 0
        if nxt.lead_count >= nxt.lead_turns:
            nxt.result = ("lead", nxt.leader)
        elif nxt.no_lead_count >= nxt.no_lead_turns:
            nxt.result = ("no_lead", None)
        elif not nxt.legal():
            nxt.result = ("no_moves", me)
        elif nxt.ply >= nxt.move_cap:
            nxt.result = ("move_cap", None)
        return nxt

    def bitboards(self) -> tuple[int, int, int, int, int]:
        """(light, dark, white discs, black discs, spheres), bit i for SQUARES[i]."""

        def board(pred: object) -> int:
            return sum(1 << i for i, s in enumerate(SQUARES) if pred(s))  # type: ignore[operator]

        return (
            board(lambda s: self.colour[s] == "w"),
            board(lambda s: self.colour[s] == "b"),
            board(lambda s: self.occ[s] == "W"),
            board(lambda s: self.occ[s] == "B"),
            board(lambda s: self.occ[s] == "o"),
        )
