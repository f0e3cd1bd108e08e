"""The defaults of the `Rules` contract (games/base.py): a game without passes, word moves, forced moves,
timeout moves or seat roles writes nothing for them, and a host still gets every policy."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

import games
from games.base import AGREED_DRAW, FIRST_SEAT, RESIGNATION, Option, Outcome, Rules, SeatChoice, replay_state
from games.texts import N_, Text
from renderer import text as wording


@dataclass(frozen=True)
class Pile:
    stones: int
    ply: int = 0


class Nim(Rules[Pile, int]):
    """Take one or two stones; who takes the last wins. Only what has no default is written."""

    id: ClassVar[str] = "nim_defaults"
    name: ClassVar[str] = "Nim"
    seats: ClassVar[range] = range(2, 3)
    options: ClassVar[tuple[Option, ...]] = ()
    summary: ClassVar[str] = "Take one or two stones."

    def new(self, seats: int, options: Mapping[str, Any], seed: int) -> Pile:
        return Pile(5)

    def to_move(self, state: Pile) -> int | None:
        return None if state.stones == 0 else state.ply % 2

    def legal_moves(self, state: Pile) -> Iterable[int]:
        return [n for n in (1, 2) if n <= state.stones]

    def apply(self, state: Pile, move: int) -> Pile:
        return Pile(state.stones - move, state.ply + 1)

    def outcome(self, state: Pile) -> Outcome | None:
        return Outcome.win((state.ply - 1) % 2, 2, RESIGNATION) if state.stones == 0 else None

    def parse(self, state: Pile, text: str) -> int:
        return int(text)

    def notation(self, state: Pile, move: int) -> str:
        return str(move)

    def describe(self, state: Pile, move: int) -> str:
        return f"takes {move}"

    def position_text(self, state: Pile) -> str:
        return str(state.stones)

    def dump(self, state: Pile) -> dict[str, Any]:
        return {"stones": state.stones, "ply": state.ply}

    def load(self, data: Mapping[str, Any]) -> Pile:
        return Pile(data["stones"], data["ply"])


class RedBlue(Nim):
    seat_names: ClassVar[tuple[str, ...]] = (N_("Red"), N_("Blue"))
    first_seat: ClassVar[SeatChoice] = SeatChoice("red", N_("Who plays Red"))


def test_a_game_that_writes_no_policy_gets_the_defaults() -> None:
    rules = Nim()
    state = rules.apply(rules.new(2, {}, 0), 2)
    assert rules.forced_move(state) is None and rules.pass_move(state) is None
    assert rules.timeout_move(state) is None and rules.resign(state, 0) is None
    assert rules.word_moves(state) == ()
    assert rules.first_seat is FIRST_SEAT
    assert rules.moves_played(state) == 1
    assert replay_state(rules, rules.new(2, {}, 0), [(0, "2"), (1, "1")]) == Pile(2, 2)


def test_seat_labels_come_from_seat_names_else_numbered_players() -> None:
    plain, named = Nim(), RedBlue()
    state = plain.new(2, {}, 0)
    labels = [plain.seat_label(state, seat) for seat in (0, 1)]
    assert labels == ["Player 1", "Player 2"] and all(isinstance(label, Text) for label in labels)
    assert [named.seat_label(state, seat) for seat in (0, 1)] == ["Red", "Blue"]
    assert isinstance(named.seat_label(state, 1), Text) and named.first_seat.option == "red"
    assert wording.word(named.seat_label(state, 0)) == "Red"


def test_a_state_without_a_ply_must_write_its_move_count() -> None:
    with pytest.raises(NotImplementedError, match="moves_played"):
        Nim().moves_played(object())  # type: ignore[arg-type]


def test_a_game_may_be_drawn_by_agreement_unless_it_says_it_always_has_a_winner() -> None:
    """`can_draw` defaults to yes (the host's draw offers); a game that always has a winner says no, as
    Paintscape does, and its players get no draw offers; the ending has its own words and is a draw."""
    assert Nim().can_draw
    assert not games.get("paintscape").can_draw
    assert games.get("paint").can_draw and games.get("tilingking").can_draw
    agreed = Outcome.draw(2, AGREED_DRAW)
    assert agreed.is_draw and agreed.winners == ()
    assert wording.result(agreed, ["Alice", "Bob"]) == "Draw by agreement"
