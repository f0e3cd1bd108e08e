"""Connect Four's own rules: drops, four in a row every way, a full board, notation, snapshots."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tessera_connect_four.rules import COLUMNS, RULES, FourState

from games.base import GameOver, IllegalMove, InvalidMove, Termination
from games.snapshots import InvalidSnapshot


def play(columns: str) -> FourState:
    state = RULES.new(2, {}, 0)
    for letter in columns:
        state = RULES.apply(state, RULES.parse(state, letter))
    return state


def test_a_disc_falls_to_the_lowest_free_row_and_the_players_alternate() -> None:
    state = play("dd")
    assert state.columns[3] == (0, 1)
    assert RULES.to_move(state) == 0 and RULES.moves_played(state) == 2
    assert RULES.describe(state, 3) == "Red drops a disc in column d, row 3"


@pytest.mark.parametrize(
    "columns",
    ["abababa", "aabbccd", "abbcdccdgdd", "gffedeedadd"],
    ids=["up", "across", "diagonal up", "diagonal down"],
)
def test_four_in_a_row_wins_in_every_direction(columns: str) -> None:
    state = play(columns[:-1])
    assert RULES.outcome(state) is None
    state = RULES.apply(state, RULES.parse(state, columns[-1]))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.termination is Termination.FOUR_IN_A_ROW
    assert outcome.winners == (0,)  # Red dropped the last disc
    assert RULES.to_move(state) is None and list(RULES.legal_moves(state)) == []
    with pytest.raises(GameOver):
        RULES.parse(state, "a")


RED_FIRST = [0, 1, 0, 1, 0, 1]
YELLOW_FIRST = [1, 0, 1, 0, 1, 0]
DRAWN = [RED_FIRST] * 3 + [YELLOW_FIRST] * 3 + [RED_FIRST]
"""A full board without four in a row: columns a-c and g red at the bottom, d-f yellow."""


def test_a_full_board_without_four_in_a_row_is_a_draw() -> None:
    before = RULES.load({"columns": [*DRAWN[:-1], DRAWN[-1][:-1]]})
    assert RULES.to_move(before) == 1 and RULES.outcome(before) is None
    after = RULES.apply(before, RULES.parse(before, "g"))
    outcome = RULES.outcome(after)
    assert outcome is not None and outcome.is_draw and outcome.termination is Termination.FULL_BOARD
    assert RULES.load(RULES.dump(after)) == after


def test_moves_are_column_letters_and_full_columns_are_refused() -> None:
    state = play("aaaaaa")
    assert [RULES.notation(state, m) for m in RULES.legal_moves(state)] == list("bcdefg")
    with pytest.raises(IllegalMove, match="column a is full"):
        RULES.parse(state, "a")
    for text in ("h", "1", "ab", ""):
        with pytest.raises(InvalidMove):
            RULES.parse(state, text)
    assert RULES.parse(state, " B ") == 1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, COLUMNS - 1), max_size=42))
def test_every_reachable_position_dumps_and_loads_back(drops: list[int]) -> None:
    state = RULES.new(2, {}, 0)
    for column in drops:
        if RULES.outcome(state) is not None:
            break
        if column in RULES.legal_moves(state):
            state = RULES.apply(state, column)
    assert RULES.load(RULES.dump(state)) == state


@pytest.mark.parametrize(
    "columns",
    [
        [[1], [], [], [], [], [], []],  # Yellow dropped first
        [[0, 0], [], [], [], [], [], []],  # two Red discs, no Yellow
        [[0, 0, 0, 0], [1, 1, 1, 1], [], [], [], [], []],  # both have four
        [[0, 1, 0, 1, 0, 1, 0], [], [], [], [], [], []],  # seven rows
    ],
)
def test_unreachable_snapshots_are_refused(columns: list[list[int]]) -> None:
    with pytest.raises(InvalidSnapshot):
        RULES.load({"columns": columns})
