"""The rules of Connect Four on a 7x6 board, behind Tessera's `Rules` contract.

Two players, Red (seat 0, drops first) and Yellow, drop discs in turn into one of seven columns; a disc
falls to the lowest free row. Four discs of one colour in a row (across, up or on a diagonal) win; a full
board without one is a draw. A move is the column's letter, a to g; rows are counted 1 (bottom) to 6.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from games.base import (
    ClickMove,
    GameOver,
    IllegalMove,
    InvalidMove,
    InvalidOptions,
    Option,
    Outcome,
    Rules,
    Seat,
    Termination,
    move_text,
    resolve_options,
)
from games.snapshots import InvalidSnapshot
from games.texts import N_, Text

COLUMNS, ROWS = 7, 6
LETTERS = "abcdefg"
CONNECT = 4

FOUR = Termination("four_in_a_row", N_("four in a row"), win=N_("{winner} wins with four in a row"))
FULL = Termination("full_board", N_("a full board"), draw=N_("Draw: the board is full"))
"""Connect Four's own ways to end, with their result lines."""

SEAT_NAMES = (N_("Red"), N_("Yellow"))

SUMMARY = N_("""\
**Connect Four** — two players, Red (drops first) and Yellow, on a board of 7 columns and 6 rows.

**Move.** Drop one disc of your colour into a column that is not full: it falls to the lowest free row. \
Write the column's letter, `a` to `g`.
**Winning.** Four of your discs in a row, across, up or diagonally, win at once. A full board without \
four in a row is a draw.""")

OPTIONS: tuple[Option, ...] = ()


@dataclass(frozen=True, slots=True)
class FourState:
    """A position: `columns[c]` lists the seats of the discs in column c from the bottom up; `winner` is
    the seat that made four in a row, or None."""

    columns: tuple[tuple[int, ...], ...]
    winner: int | None = None

    @property
    def ply(self) -> int:
        return sum(len(column) for column in self.columns)

    def at(self, column: int, row: int) -> int | None:
        """The seat of the disc at (column, row), row 0 at the bottom; None where the cell is empty."""
        stack = self.columns[column]
        return stack[row] if row < len(stack) else None


def _lines_through(state: FourState, column: int, row: int) -> int:
    """The longest line of the disc at (column, row)'s colour through it."""
    seat = state.at(column, row)
    best = 0
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        length = 1
        for sign in (1, -1):
            c, r = column + sign * dc, row + sign * dr
            while 0 <= c < COLUMNS and 0 <= r < ROWS and state.at(c, r) == seat:
                length += 1
                c, r = c + sign * dc, r + sign * dr
        best = max(best, length)
    return best


def winning_cells(state: FourState) -> list[tuple[int, int]]:
    """Every (column, row) that belongs to a line of four or more of one colour (the drawer marks them)."""
    found: set[tuple[int, int]] = set()
    for column in range(COLUMNS):
        for row in range(len(state.columns[column])):
            seat = state.at(column, row)
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(column + i * dc, row + i * dr) for i in range(CONNECT)]
                if all(0 <= c < COLUMNS and 0 <= r < ROWS and state.at(c, r) == seat for c, r in cells):
                    found.update(cells)
    return sorted(found)


class ConnectFourRules(Rules[FourState, int]):
    """Connect Four (7 columns x 6 rows, four in a row) on `FourState`; a move is a column index 0..6.

    What the game does not have it does not write: no forced moves, no word moves, no passing, a timeout or
    a resignation is a loss, and the first seat has no role beyond Red's; `Rules` gives those defaults, the
    move count from `FourState.ply` and the seat labels from `seat_names`."""

    id: ClassVar[str] = "connect_four"
    name: ClassVar[str] = "Connect Four"
    seats: ClassVar[range] = range(2, 3)
    options: ClassVar[tuple[Option, ...]] = OPTIONS
    summary: ClassVar[str] = SUMMARY
    seat_names: ClassVar[tuple[str, ...]] = SEAT_NAMES

    def new(self, seats: int, options: Mapping[str, Any], seed: int) -> FourState:
        if type(seats) is not int or seats != 2:
            raise InvalidOptions(Text("Connect Four is a game for exactly 2 players"))
        resolve_options(OPTIONS, options)
        return FourState(((),) * COLUMNS)

    def to_move(self, state: FourState) -> Seat | None:
        if self.outcome(state) is not None:
            return None
        return state.ply % 2

    def legal_moves(self, state: FourState) -> Iterable[int]:
        if self.outcome(state) is not None:
            return []
        return [c for c in range(COLUMNS) if len(state.columns[c]) < ROWS]

    def apply(self, state: FourState, move: int) -> FourState:
        seat = self.to_move(state)
        if seat is None:
            raise GameOver(Text("the game is over"))
        if type(move) is not int or not 0 <= move < COLUMNS:
            raise InvalidMove(Text("{move} is not a column", move=str(move)))
        if len(state.columns[move]) >= ROWS:
            raise IllegalMove(Text("column {column} is full", column=LETTERS[move]))
        columns = list(state.columns)
        columns[move] = (*columns[move], seat)
        after = FourState(tuple(columns))
        if _lines_through(after, move, len(columns[move]) - 1) >= CONNECT:
            after = FourState(after.columns, seat)
        return after

    def outcome(self, state: FourState) -> Outcome | None:
        if state.winner is not None:
            return Outcome.win(state.winner, 2, FOUR)
        if state.ply == COLUMNS * ROWS:
            return Outcome.draw(2, FULL)
        return None

    def parse(self, state: FourState, text: str) -> int:
        word = move_text(text).strip().lower()
        if self.to_move(state) is None:
            raise GameOver(Text("the game is over"))
        if len(word) != 1 or word not in LETTERS:
            raise InvalidMove(Text("{text} is not a column: write a letter from a to g", text=text.strip()))
        column = LETTERS.index(word)
        if len(state.columns[column]) >= ROWS:
            raise IllegalMove(Text("column {column} is full", column=word))
        return column

    def click_move(self, state: FourState, move: int) -> ClickMove:
        """A disc is dropped by clicking the cell it lands on (cell index `row * 7 + column`, row 0 at the
        bottom: the drawer's declared board numbers cells the same way)."""
        return ClickMove(self.notation(state, move), (len(state.columns[move]) * COLUMNS + move,))

    def notation(self, state: FourState, move: int) -> str:
        return LETTERS[move]

    def describe(self, state: FourState, move: int) -> str:
        seat = self.to_move(state)
        role = SEAT_NAMES[seat if seat is not None else 0]
        return Text(
            "{role} drops a disc in column {column}, row {row}",
            role=Text(role),
            column=LETTERS[move],
            row=len(state.columns[move]) + 1,
        )

    def position_text(self, state: FourState) -> str:
        """Six rows, the top first, one of `R`, `Y`, `.` per column (the last row "RY....." has Red on a1)."""
        symbols = {None: ".", 0: "R", 1: "Y"}
        return "/".join(
            "".join(symbols[state.at(c, r)] for c in range(COLUMNS)) for r in reversed(range(ROWS))
        )

    def dump(self, state: FourState) -> dict[str, Any]:
        return {"columns": [list(column) for column in state.columns]}

    def load(self, data: Mapping[str, Any]) -> FourState:
        """The position a `dump` describes; InvalidSnapshot names what does not fit."""
        if not isinstance(data, Mapping) or set(data) != {"columns"}:
            raise InvalidSnapshot("a Connect Four snapshot is a mapping with exactly the key 'columns'")
        raw = data["columns"]
        if not isinstance(raw, list) or len(raw) != COLUMNS:
            raise InvalidSnapshot(f"columns: must be a list of {COLUMNS} columns")
        columns: list[tuple[int, ...]] = []
        for c, column in enumerate(raw):
            if not isinstance(column, list) or len(column) > ROWS:
                raise InvalidSnapshot(f"columns[{c}]: must be a list of at most {ROWS} seats")
            if not all(type(seat) is int and seat in (0, 1) for seat in column):
                raise InvalidSnapshot(f"columns[{c}]: every disc is seat 0 or 1")
            columns.append(tuple(column))
        return self._checked(FourState(tuple(columns)))

    def _checked(self, state: FourState) -> FourState:
        """The state with its winner, if its discs are a position play can reach; InvalidSnapshot if not."""
        reds = sum(column.count(0) for column in state.columns)
        yellows = state.ply - reds
        if reds - yellows not in (0, 1):
            raise InvalidSnapshot(f"discs: Red has {reds} and Yellow {yellows}; Red drops first")
        lines = {seat: [] for seat in (0, 1)}  # type: dict[int, list[tuple[int, int]]]
        for column, row in winning_cells(state):
            seat = state.at(column, row)
            assert seat is not None
            lines[seat].append((column, row))
        winners = [seat for seat, cells in lines.items() if cells]
        if len(winners) > 1:
            raise InvalidSnapshot("discs: both players have four in a row")
        if not winners:
            return state
        winner = winners[0]
        if (reds > yellows) != (winner == 0):
            raise InvalidSnapshot("discs: the winner must have dropped the last disc")
        if not any(_would_be_last(state, c, winner) for c in range(COLUMNS)):
            raise InvalidSnapshot("discs: no last disc could have made the four in a row")
        return FourState(state.columns, winner)


def _would_be_last(state: FourState, column: int, winner: int) -> bool:
    """Whether the top disc of `column` is the winner's and taking it away leaves no four in a row, so it
    can have been the last disc dropped."""
    stack = state.columns[column]
    if not stack or stack[-1] != winner:
        return False
    columns = list(state.columns)
    columns[column] = stack[:-1]
    return not winning_cells(FourState(tuple(columns)))


RULES = ConnectFourRules()
