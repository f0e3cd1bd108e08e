"""Hostile input for each chosen game's engine: arbitrary objects and text for `parse`, arbitrary values
for its options' `coerce`, `resolve_options` and `new`. Each answer is a legal move or state, or the
documented error (a `MoveError` for a move, `InvalidOptions` for options) and never another exception.

The fuzzing of `load` with corrupted snapshots is in snapshots.py.
"""

from __future__ import annotations

import functools
import math
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from games.base import (
    MAX_MOVE_TEXT,
    InvalidMove,
    InvalidOptions,
    MoveError,
    Option,
    Rules,
    advance,
    resolve_options,
)

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ------------------------------------------------------------------------------------- positions


@functools.cache
def positions(game_id: str) -> tuple[Any, ...]:
    """A spread of positions of one game: every phase, a few seat counts, finished games included."""
    rules = games.get(game_id)
    found: list[Any] = []
    for seats in rules.seats:
        for seed in range(3):
            rng = random.Random(seed)
            state, _ = advance(rules, rules.new(seats, {}, seed))
            trail = [state]
            for _ in range(400):
                moves = list(rules.legal_moves(state))
                if not moves:
                    break
                state, _ = advance(rules, rules.apply(state, rng.choice(moves)))
                trail.append(state)
            found += [*trail[:: max(1, len(trail) // 6)], trail[-1]]
    return tuple(found)


# ------------------------------------------------------------------------------------- text

WORDS = [
    "pass", "passall", "resign", "swap", "done", "black", "white", "first", "second", "place", "T4@c3",
    "r1", "r9", "m", "@", "-", "–", "1", "2", "I3", "V3", "O4", "L5", "a", "z", "0", "00", "a0", "a01",
    "١", "²", "é", "\x00", "\n", "  ",
]  # fmt: skip
LABELS = [f"{file}{rank}" for file in "abcdijkz" for rank in (0, 1, 4, 8, 9, 10, 13, 99)]
TOKENS = st.sampled_from(WORDS + LABELS) | st.text(max_size=6)
MOVE_LIKE = st.lists(TOKENS, min_size=0, max_size=7).flatmap(
    lambda parts: st.sampled_from([" ", "", "-", "  ", "@", ","]).map(lambda sep: sep.join(parts))
)
TEXT = MOVE_LIKE | st.text(max_size=40) | st.text(max_size=MAX_MOVE_TEXT + 20, alphabet="a1 -@rm")
NOT_TEXT = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.binary(max_size=8)
    | st.lists(st.text(max_size=4), max_size=3)
    | st.dictionaries(st.text(max_size=3), st.integers(), max_size=2)
)


def check_parse(rules: Rules[Any, Any], state: Any, text: Any) -> None:
    """`parse` answers a legal move whose notation parses back to it, or raises a MoveError."""
    try:
        move = rules.parse(state, text)
    except MoveError as error:
        assert str(error), "a move error carries a message for the player"
        if not isinstance(text, str):
            assert isinstance(error, InvalidMove)
        return
    assert isinstance(text, str)
    assert rules.outcome(state) is None
    notation = rules.notation(state, move)
    assert rules.parse(state, notation) == move
    rules.apply(state, move)  # legal: raises nothing


@FUZZ
@given(data=st.data(), text=TEXT)
def test_parse_answers_a_legal_move_or_a_move_error(game_id: str, data: st.DataObject, text: str) -> None:
    rules = games.get(game_id)
    state = data.draw(st.sampled_from(positions(game_id)))
    check_parse(rules, state, text)
    check_parse(rules, state, text.upper())


@settings(max_examples=60, deadline=None)
@given(data=st.data(), value=NOT_TEXT)
def test_parse_of_anything_but_text_is_an_invalid_move(game_id: str, data: st.DataObject, value: Any) -> None:
    rules = games.get(game_id)
    state = data.draw(st.sampled_from(positions(game_id)))
    with pytest.raises(InvalidMove):
        rules.parse(state, value)


@pytest.mark.parametrize("value", [None, 123, 4.5, b"d4", ["d4"], {"move": "d4"}, "x" * (MAX_MOVE_TEXT + 1)])
def test_non_text_and_overlong_notations_are_invalid_moves(game_id: str, value: Any) -> None:
    rules = games.get(game_id)
    with pytest.raises(InvalidMove):
        rules.parse(rules.new(min(rules.seats), {}, 0), value)


# ------------------------------------------------------------------------------------- options

ANY_VALUE = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats()
    | st.sampled_from([math.inf, -math.inf, math.nan, 1e300, 2.5, 3.0, -0.0])
    | st.text(max_size=12)
    | st.sampled_from(["12", " 7 ", "1_000", "1e3", "١٢", "9" * 5000, "-3", "+4", "on", "off", "sq9"])
    | st.lists(st.integers(), max_size=2)
)


@settings(max_examples=80, deadline=None)
@given(data=st.data(), value=ANY_VALUE)
def test_option_coerce_answers_a_valid_value_or_invalid_options(
    game_id: str, data: st.DataObject, value: Any
) -> None:
    options = games.get(game_id).options
    if not options:
        return  # a game without options has nothing to coerce
    spec: Option = data.draw(st.sampled_from(options), label="option")
    try:
        result = spec.coerce(value)
    except InvalidOptions as error:
        assert spec.name in str(error)
        return
    assert type(result) is type(spec.default)
    if isinstance(result, int) and not isinstance(result, bool):
        assert spec.minimum is None or result >= spec.minimum
        assert spec.maximum is None or result <= spec.maximum
    if spec.choices:
        assert result in spec.choices


def option_names(game_id: str) -> st.SearchStrategy[str]:
    names = sorted(spec.name for spec in games.get(game_id).options)
    return (st.sampled_from(names) if names else st.nothing()) | st.text(max_size=8)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    seats=st.sampled_from([2, 3, 4]) | st.integers() | st.floats() | st.none() | st.text(max_size=2),
)
def test_new_and_resolve_options_answer_a_state_or_invalid_options(
    game_id: str, data: st.DataObject, seats: Any
) -> None:
    rules = games.get(game_id)
    keys = option_names(game_id) | st.integers() | st.none()
    given_options: dict[Any, Any] = data.draw(st.dictionaries(keys, ANY_VALUE, max_size=4), label="options")
    try:
        resolved = resolve_options(rules.options, given_options)
    except InvalidOptions:
        resolved = None
    try:
        state = rules.new(seats, given_options, 0)
    except InvalidOptions as error:
        assert str(error)
        return
    assert resolved is not None, "new accepted options that resolve_options refused"
    assert rules.to_move(state) in range(seats)
    assert list(rules.legal_moves(state))


@pytest.mark.parametrize("given_options", [None, [("balance", True)], "balance=on", 3])
def test_options_that_are_not_a_mapping_are_invalid_options(game_id: str, given_options: Any) -> None:
    rules = games.get(game_id)
    with pytest.raises(InvalidOptions):
        resolve_options(rules.options, given_options)
    with pytest.raises(InvalidOptions):
        rules.new(min(rules.seats), given_options, 0)
