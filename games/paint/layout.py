"""Paint's layout text: the `layout` option and the board part of `position_text` (RULES.md section 2.3).

Nine rows, rank 9 first, one symbol per square: `W`/`B` a White/Black disc, `o` (or `S`) a sphere, `w`/`b`
an empty light/dark square, `.` an empty neutral square. A disc's square always has the disc's colour and a
sphere's square is always neutral, so `W` means "White disc on a light square" and no other combination
can be written. Rows are separated by new lines or `/`; spaces, a leading rank number with `|`, and a line
of file letters are ignored; a line "Black to move" gives Black the first move.

This module reads and writes the text only (`parse_layout`, `layout_rows`); whether a layout is a position
the rules allow (a coloured area without a disc of its colour, a side with no disc or more than 6, more
than 13 spheres) is games.paint.rules's `from_layout_text` to check.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from games.base import InvalidOptions, Seat
from games.texts import Text

WHITE: Final = 0
BLACK: Final = 1
"""The seats, as a "White to move" / "Black to move" line names them."""

STANDARD_LAYOUT: Final = "\n".join(
    [
        ".BBB.BBB.",
        ".........",
        "..o...o..",
        ".o..o..o.",
        "..o.o.o..",
        ".o..o..o.",
        "..o...o..",
        ".........",
        ".WWW.WWW.",
    ]
)
"""Section 2.3 (a reconstruction, not the designer's layout), rank 9 first."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Layout:
    """What a layout text says: the bitboards (bit i = square i = y * 9 + x, a1 = 0) and the side to move
    if a line names it."""

    light: int
    dark: int
    white_discs: int
    black_discs: int
    spheres: int
    to_move: Seat | None = None


_CELL_SYMBOLS: Final = frozenset("WBoSwb.")
_FILE_LINE: Final = "abcdefghi"
_RANK_PREFIX: Final = re.compile(r"^\s*\d\s*\|?")


def parse_layout(text: str) -> Layout:
    """The bitboards of a layout text; InvalidOptions (a ValueError, a message for a player) for a text
    that is not nine rows of nine symbols."""
    rows, to_move = _rows(text)
    light = dark = white_discs = black_discs = spheres = 0
    for row_index, row in enumerate(rows):
        y = 8 - row_index
        for x, symbol in enumerate(row):
            bit = 1 << (y * 9 + x)
            if symbol == "W":
                white_discs |= bit
                light |= bit
            elif symbol == "B":
                black_discs |= bit
                dark |= bit
            elif symbol in "oS":
                spheres |= bit
            elif symbol == "w":
                light |= bit
            elif symbol == "b":
                dark |= bit
    return Layout(
        light=light,
        dark=dark,
        white_discs=white_discs,
        black_discs=black_discs,
        spheres=spheres,
        to_move=to_move,
    )


def layout_rows(*, light: int, dark: int, white_discs: int, black_discs: int, spheres: int) -> list[str]:
    """The board as nine strings of layout symbols, rank 9 first (`parse_layout` reads them back)."""
    rows = []
    for y in range(8, -1, -1):
        row = []
        for x in range(9):
            bit = 1 << (y * 9 + x)
            if white_discs & bit:
                row.append("W")
            elif black_discs & bit:
                row.append("B")
            elif spheres & bit:
                row.append("o")
            elif light & bit:
                row.append("w")
            elif dark & bit:
                row.append("b")
            else:
                row.append(".")
        rows.append("".join(row))
    return rows


def _rows(text: str) -> tuple[list[str], Seat | None]:
    """The nine board rows of a layout text (rank 9 first) and the side to move, if a line names it."""
    rows: list[str] = []
    to_move: Seat | None = None
    for number, line in enumerate(re.split(r"[\n/]", text), start=1):
        if not line.strip():
            continue
        lowered = line.lower()
        if "to move" in lowered:
            side = re.search(r"(white|black)\s+to\s+move", lowered)
            if side is None:
                raise InvalidOptions(
                    Text("line {number}: write 'White to move' or 'Black to move'", number=number)
                )
            to_move = WHITE if side.group(1) == "white" else BLACK
            continue
        cells = _RANK_PREFIX.sub("", line) if len(line.replace(" ", "")) > 9 else line
        cells = cells.replace(" ", "").replace("|", "")
        if cells.lower() == _FILE_LINE:
            continue
        bad = sorted(set(cells) - _CELL_SYMBOLS)
        if bad:
            raise InvalidOptions(
                Text(
                    "layout line {number} has {bad!r}; "
                    "use W B (discs), o (sphere), w b (light/dark), . (neutral)",
                    number=number,
                    bad=bad[0],
                )
            )
        if len(cells) != 9:
            raise InvalidOptions(
                Text.ngettext(
                    "layout line {number} has {count} square; each row needs 9",
                    "layout line {number} has {count} squares; each row needs 9",
                    len(cells),
                    number=number,
                    count=len(cells),
                )
            )
        rows.append(cells)
    if len(rows) != 9:
        raise InvalidOptions(
            Text.ngettext(
                "the layout has {count} row; it needs 9 (rank 9 first)",
                "the layout has {count} rows; it needs 9 (rank 9 first)",
                len(rows),
                count=len(rows),
            )
        )
    return rows, to_move


__all__ = ["BLACK", "STANDARD_LAYOUT", "WHITE", "Layout", "layout_rows", "parse_layout"]
