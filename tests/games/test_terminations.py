"""Terminations are open: each game defines its own with its words, the stored codes load as before, and
two definitions of one code must agree."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

import games
from games.base import Outcome, Termination
from games.texts import N_
from renderer import text as wording

STORED_CODES = [
    "colours",
    "lead",
    "no_lead",
    "move_cap",
    "no_moves",
    "passes",
    "resignation",
    "timeout",
    "aborted",
]
"""Every code the closed enum this replaces wrote to the database."""


@pytest.mark.parametrize("code", STORED_CODES)
def test_every_stored_code_of_the_old_enum_still_loads(code: str) -> None:
    outcome = Outcome.from_json(
        json.loads(json.dumps({"termination": code, "ranks": [0, 1], "scores": [3, 1]}))
    )
    assert outcome.termination == code and outcome.termination.value == code
    assert outcome.termination is Termination(code) is getattr(Termination, code.upper())
    assert Outcome.from_json(outcome.to_json()) == outcome
    assert outcome.to_json()["termination"] == code


def test_an_unknown_code_is_refused_as_a_value_error() -> None:
    with pytest.raises(ValueError, match="not a known termination"):
        Outcome.from_json({"termination": "checkmate", "ranks": [0, 1]})
    with pytest.raises(AttributeError):
        _ = Termination.CHECKMATE


def test_a_termination_survives_pickling_and_copying_as_itself() -> None:
    outcome = Outcome.win(0, 2, Termination.LEAD)
    for again in (pickle.loads(pickle.dumps(outcome)), copy.deepcopy(outcome), copy.copy(outcome)):
        assert again.termination is Termination.LEAD and again == outcome


def test_a_game_defines_its_own_termination_with_its_result_lines() -> None:
    mine = Termination("test_knockout", N_("a knockout"), win=N_("{winner} wins by knockout"))
    assert Termination("test_knockout") is mine and Termination.TEST_KNOCKOUT is mine
    assert mine in games.terminations()
    names = ["Ann", "Ben"]
    assert wording.result(Outcome.win(1, 2, mine), names) == "Ben wins by knockout"
    assert wording.result(Outcome.draw(2, mine), names) == "Draw"  # no draw line: the plain one
    assert wording.result(Outcome.loss(2, 3, mine), [*names, "Cy"]) == "Ann and Ben share first place"
    # Defining it again the same way is the same object; other words for the same code are refused.
    assert Termination("test_knockout", N_("a knockout"), win=N_("{winner} wins by knockout")) is mine
    with pytest.raises(ValueError, match="share the code"):
        Termination("test_knockout", N_("a technical knockout"))
    with pytest.raises(ValueError, match="lower-case"):
        Termination("Bad Code", N_("bad"))


@pytest.mark.parametrize(
    ("outcome", "line"),
    [
        (Outcome.win(0, 2, Termination.COLOURS), "Ann wins by collecting three colours"),
        (Outcome.draw(2, Termination.MOVE_CAP), "Draw: the move limit was reached"),
        (Outcome.win(1, 2, Termination.NO_MOVES), "Ben wins: the opponent has no move"),
        (Outcome.loss(2, 3, Termination.PASSES), "Ann and Ben share first place on score"),
        (Outcome.draw(3, Termination.PASSES), "Draw on score"),
        (Outcome.win(1, 2, Termination.NO_LEAD), "Ben wins"),
        (Outcome.loss(0, 3, Termination.TIMEOUT), "Ben and Cy share first place after a timeout"),
    ],
)
def test_the_built_in_games_result_lines_kept_their_words(outcome: Outcome, line: str) -> None:
    assert wording.result(outcome, ["Ann", "Ben", "Cy"]) == line


def test_every_registered_games_terminations_are_known_after_import() -> None:
    """A stored outcome finds its game's termination even when nothing has touched the registry yet."""
    assert {t.value for t in games.terminations()} >= set(STORED_CODES)
    assert games.GAME_IDS
