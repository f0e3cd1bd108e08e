"""Connect Four's board and alt text. The board is declared, not drawn: a 7x6 rack of round holes, each
seat's disc colour and second-cue mark, the panel's words (`BOARD`), and what lies where in a position
(`position`); the host builds the scene from them (`renderer.cellboard`: the frame, the discs, the marks,
the panel, the header, the click polygons), and paints it in any theme.

The game's own words come from this package's catalog (marked with `N_`, said with `wording.say`), its
colours from its plugin (the tokens "frame", "red", "yellow").
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import Outcome
from games.texts import N_
from renderer import text as wording
from renderer.canvas import seat_names, status_text
from renderer.cellboard import Cell, CellBoard, Position, SeatLook
from tessera_connect_four.rules import COLUMNS, LETTERS, ROWS, RULES, SEAT_NAMES, FourState, winning_cells

TITLE = N_("Connect Four")
RULE = N_("Drop a disc in a column (a to g); four in a row, across, up or diagonally, wins.")
DISCS = N_("{role}: {count} on the board")
ALT_DISCS = N_("Discs of {player}: {cells}.")

BOARD = CellBoard(
    columns=COLUMNS,
    rows=ROWS,
    holes=True,
    frame="frame",
    seats=(SeatLook("red", "square"), SeatLook("yellow", "diamond")),
    title=TITLE,
    rule=RULE,
    count=DISCS,
)
"""Cell i is column i % 7, row i // 7 (row 0 at the bottom), as the rules' `click_move` numbers them."""


def position(state: FourState, last_move: str | None) -> Position:
    """Each disc, the winning line's discs dotted, the last disc dropped ringed."""
    winning = set(winning_cells(state))
    cells = {
        row * COLUMNS + column: Cell(seat=seat, dot=(column, row) in winning)
        for column in range(COLUMNS)
        for row in range(ROWS)
        if (seat := state.at(column, row)) is not None
    }
    move = (last_move or "").strip().lower()
    if move in LETTERS and state.columns[LETTERS.index(move)]:
        column = LETTERS.index(move)
        return Position(cells, last=((len(state.columns[column]) - 1) * COLUMNS + column,))
    return Position(cells)


def describe(
    state: FourState, *, last_move: str | None, players: Sequence[str] | None, outcome: Outcome | None = None
) -> str:
    """The position in words: whose turn or the result, the last move, every disc by colour."""
    names = seat_names(RULES, state, players, 2)
    status = status_text(RULES, state, names, outcome=outcome)
    parts = [wording.text("alt.board", game=wording.say(TITLE), status=status)]
    if last_move:
        parts.append(wording.text("alt.last_move", move=last_move))
    none = wording.text("alt.none")
    for seat in range(2):
        cells = [
            f"{LETTERS[c]}{r + 1}" for c in range(COLUMNS) for r in range(ROWS) if state.at(c, r) == seat
        ]
        player = wording.with_role(names[seat], RULES.seat_label(state, seat))
        parts.append(wording.say(ALT_DISCS, player=player, cells=wording.pairs(cells) or none))
    return wording.sentences(parts)


__all__ = ["BOARD", "SEAT_NAMES", "describe", "position"]
