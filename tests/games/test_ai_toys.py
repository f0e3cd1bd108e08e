"""Two tiny games behind the `Rules` contract, for testing the search where the best move is obvious:
tic-tac-toe (two seats) and a coin row where 2-4 players in turn take a coin from either end."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from games.base import GameOver, IllegalMove, InvalidMove, Option, Outcome, Seat, Termination

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


@dataclass(frozen=True)
class Board:
    """cells[i] is 0 (empty), 1 (seat 0's X) or 2 (seat 1's O); cells are a1 b1 c1 a2 ... c3."""

    cells: tuple[int, ...]
    mover: Seat


class TicTacToe:
    id: ClassVar[str] = "tictactoe"
    name: ClassVar[str] = "Tic-tac-toe"
    seats: ClassVar[range] = range(2, 3)
    options: ClassVar[tuple[Option, ...]] = ()
    summary: ClassVar[str] = "Three in a row wins."

    def new(self, seats: int, options: Mapping[str, Any], seed: int) -> Board:
        return Board((0,) * 9, 0)

    def from_text(self, rows: str, mover: Seat) -> Board:
        """Rows top (rank 3) to bottom, e.g. "x.o/.x./..." ."""
        ranks = rows.split("/")[::-1]
        cells = tuple({"x": 1, "o": 2, ".": 0}[ch] for rank in ranks for ch in rank)
        return Board(cells, mover)

    def winner(self, state: Board) -> int:
        for a, b, c in LINES:
            if state.cells[a] and state.cells[a] == state.cells[b] == state.cells[c]:
                return state.cells[a]
        return 0

    def outcome(self, state: Board) -> Outcome | None:
        won = self.winner(state)
        if won:
            return Outcome.win(won - 1, 2, Termination.LEAD)
        if all(state.cells):
            return Outcome.draw(2, Termination.NO_LEAD)
        return None

    def to_move(self, state: Board) -> Seat | None:
        return None if self.outcome(state) else state.mover

    def legal_moves(self, state: Board) -> list[int]:
        if self.outcome(state):
            return []
        return [i for i, c in enumerate(state.cells) if c == 0]

    def apply(self, state: Board, move: int) -> Board:
        if self.outcome(state):
            raise GameOver("the game is over")
        if state.cells[move]:
            raise IllegalMove("that square is taken")
        cells = list(state.cells)
        cells[move] = state.mover + 1
        return Board(tuple(cells), 1 - state.mover)

    def notation(self, state: Board, move: int) -> str:
        return "abc"[move % 3] + str(move // 3 + 1)

    def parse(self, state: Board, text: str) -> int:
        for move in self.legal_moves(state):
            if self.notation(state, move) == text.strip().lower():
                return move
        raise InvalidMove(f"{text!r} is not a free square")

    def describe(self, state: Board, move: int) -> str:
        return self.notation(state, move)

    def forced_move(self, state: Board) -> int | None:
        return None

    def seat_label(self, state: Board, seat: Seat) -> str:
        return "XO"[seat]

    def position_text(self, state: Board) -> str:
        return "".join(".xo"[c] for c in state.cells)

    def dump(self, state: Board) -> dict[str, Any]:
        return {"cells": list(state.cells), "mover": state.mover}

    def load(self, data: Mapping[str, Any]) -> Board:
        return Board(tuple(data["cells"]), data["mover"])


@dataclass(frozen=True)
class Row:
    """Coins left in the row, each seat's total so far, the seat to move."""

    coins: tuple[int, ...]
    totals: tuple[int, ...]
    mover: Seat

    @property
    def seats(self) -> int:
        return len(self.totals)


class CoinRow:
    """Take the left ("l") or right ("r") end coin; when the row is empty the highest total wins."""

    id: ClassVar[str] = "coinrow"
    name: ClassVar[str] = "Coin row"
    seats: ClassVar[range] = range(2, 5)
    options: ClassVar[tuple[Option, ...]] = ()
    summary: ClassVar[str] = "Take an end coin; the richest wins."

    def new(self, seats: int, options: Mapping[str, Any], seed: int) -> Row:
        return Row(tuple(options.get("coins", (1, 2, 3, 4, 5, 6))), (0,) * seats, 0)

    def outcome(self, state: Row) -> Outcome | None:
        if state.coins:
            return None
        return Outcome.by_score([float(t) for t in state.totals], Termination.PASSES)

    def to_move(self, state: Row) -> Seat | None:
        return state.mover if state.coins else None

    def legal_moves(self, state: Row) -> list[str]:
        if not state.coins:
            return []
        return ["l", "r"] if len(state.coins) > 1 else ["l"]

    def apply(self, state: Row, move: str) -> Row:
        if not state.coins:
            raise GameOver("the game is over")
        coin, rest = (state.coins[0], state.coins[1:]) if move == "l" else (state.coins[-1], state.coins[:-1])
        totals = list(state.totals)
        totals[state.mover] += coin
        return Row(rest, tuple(totals), (state.mover + 1) % state.seats)

    def notation(self, state: Row, move: str) -> str:
        return move

    def parse(self, state: Row, text: str) -> str:
        if text.strip().lower() in self.legal_moves(state):
            return text.strip().lower()
        raise InvalidMove("take l or r")

    def describe(self, state: Row, move: str) -> str:
        return move

    def forced_move(self, state: Row) -> str | None:
        return None

    def seat_label(self, state: Row, seat: Seat) -> str:
        return f"P{seat + 1}"

    def position_text(self, state: Row) -> str:
        return f"{state.coins} {state.totals}"

    def dump(self, state: Row) -> dict[str, Any]:
        return {"coins": list(state.coins), "totals": list(state.totals), "mover": state.mover}

    def load(self, data: Mapping[str, Any]) -> Row:
        return Row(tuple(data["coins"]), tuple(data["totals"]), data["mover"])


def test_tictactoe_toy_plays_by_its_rules() -> None:
    rules = TicTacToe()
    state = rules.from_text("xx./oo./...", mover=0)
    after = rules.apply(state, rules.parse(state, "c3"))
    assert rules.outcome(after) == Outcome.win(0, 2, Termination.LEAD)
    assert rules.to_move(after) is None and rules.legal_moves(after) == []


def test_coin_row_toy_ranks_by_total() -> None:
    rules = CoinRow()
    state = rules.new(3, {"coins": (5, 1, 2)}, 0)
    for move in ("l", "l", "l"):
        state = rules.apply(state, move)
    outcome = rules.outcome(state)
    assert outcome is not None and outcome.winners == (0,) and outcome.ranks == (0, 2, 1)
