"""Paint's opening book: the top level (level 8) plays the book's move where the book holds the position; no
other level does, nor the analysis's searches, nor any game with other settings; the shipped book's every
entry is a position its line reaches from the standard start, with a legal move."""

from __future__ import annotations

import dataclasses
import json
import random
from importlib import resources
from typing import Any

import pytest

import games
import games.paint.ai as paint_ai
from games.ai import analyse
from games.ai.levels import LEVEL_IDS
from games.paint.ai import BOOK_FILE, book_key
from games.paint.rules import PaintSettings

RULES = games.get("paint")


def shipped_book() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(resources.files("games.paint").joinpath(BOOK_FILE).read_text("utf-8"))
    return data


def an_unlikely_move(state: Any) -> Any:
    """A legal move no search would pick first: the one the game's greedy order ranks last."""
    knowledge = paint_ai.PaintKnowledge()
    return knowledge.order(RULES, state, list(RULES.legal_moves(state)), random.Random(0))[-1]


@pytest.fixture
def booked(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    """A book holding the start position with an unlikely move (only the book can explain playing it)."""
    start = RULES.new(2, {}, 0)
    move = an_unlikely_move(start)
    monkeypatch.setattr(paint_ai, "opening_book", lambda: {book_key(start): RULES.notation(start, move)})
    return start, move


def test_the_top_level_plays_the_book_move(booked: tuple[Any, Any]) -> None:
    start, move = booked
    report = analyse(RULES, start, level=LEVEL_IDS[-1], seed=1)
    assert (report.move, report.reason, report.iterations) == (move, "book", 0)
    timed = analyse(RULES, start, level=LEVEL_IDS[-1], seconds=0.05, seed=1)
    assert timed.move == move, "at time odds too (a budget given in seconds)"


@pytest.mark.parametrize("level", [*LEVEL_IDS[:-1], "hard", "medium", "easy"])
def test_no_other_level_plays_the_book(booked: tuple[Any, Any], level: str) -> None:
    start, _ = booked
    assert analyse(RULES, start, level=level, iterations=60, seed=1).reason != "book"


def test_the_book_holds_only_positions_of_the_standard_settings(booked: tuple[Any, Any]) -> None:
    start, _ = booked
    other = dataclasses.replace(start, settings=PaintSettings(lead_turns=30))
    assert book_key(other) == book_key(start), "the key leaves the settings out"
    assert analyse(RULES, other, level=LEVEL_IDS[-1], iterations=60, seed=1).reason == "search"


def test_a_book_move_that_is_not_legal_there_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    start = RULES.new(2, {}, 0)
    after = RULES.apply(start, next(iter(RULES.legal_moves(start))))
    black_move = RULES.notation(after, next(iter(RULES.legal_moves(after))))  # a Black move: not White's
    monkeypatch.setattr(paint_ai, "opening_book", lambda: {book_key(start): black_move})
    assert analyse(RULES, start, level=LEVEL_IDS[-1], iterations=60, seed=1).reason == "search"


def test_every_entry_of_the_shipped_book_is_reached_by_its_line_and_legal() -> None:
    book = shipped_book()
    positions = book["positions"]
    assert len(positions) >= 20
    sides = set()
    for entry in positions:
        state = RULES.new(2, {}, 0)
        for notation in filter(None, entry["line"].split(" ")):
            state = RULES.apply(state, RULES.parse(state, notation))
        assert book_key(state) == entry["key"]
        assert RULES.parse(state, entry["move"]) in RULES.legal_moves(state)
        assert entry["side"] == ("White", "Black")[state.to_move]
        sides.add(entry["side"])
    assert sides == {"White", "Black"}, "the book serves both sides"
    assert len({entry["key"] for entry in positions}) == len(positions)
    assert paint_ai.opening_book() == {entry["key"]: entry["move"] for entry in positions}
