"""GRAVE, the generic baseline of bench/ai_strength.py: it plays the obvious moves, is reproducible with a
seed and an iteration budget, and its `ref` decides whose AMAF table guides a choice."""

from __future__ import annotations

import random

import pytest

import games
from games.ai.grave import Grave, GraveNode, grave_move, grave_value, reference
from games.base import GameOver
from tests.games.test_ai_toys import CoinRow, TicTacToe


def test_finds_an_immediate_win() -> None:
    rules = TicTacToe()
    state = rules.from_text("xx./oo./...", mover=0)
    report = grave_move(rules, state, iterations=300, seed=3)
    assert report.reason == "search"
    assert rules.notation(state, report.move) == "c3"


def test_blocks_the_opponents_threat() -> None:
    rules = TicTacToe()
    state = rules.from_text("x../oo./x..", mover=0)
    assert rules.notation(state, grave_move(rules, state, iterations=1500, seed=1).move) == "c2"


def test_same_seed_same_search() -> None:
    rules = games.get("paintscape")
    state = rules.new(2, {"balance": False}, 5)
    first = grave_move(rules, state, iterations=150, seed=9)
    again = grave_move(rules, state, iterations=150, seed=9)
    assert (first.move, first.moves) == (again.move, again.moves)
    assert first.iterations == 150
    assert sum(s.visits for s in first.moves) == 150


def test_the_reference_is_the_closest_node_with_ref_visits() -> None:
    rules = TicTacToe()
    rng = random.Random(0)
    path = [GraveNode(rules, rules.new(2, {}, 0), 2, rng) for _ in range(3)]
    path[0].visits, path[1].visits, path[2].visits = 500, 120, 30
    assert reference(path, 100) is path[1]
    assert reference(path, 20) is path[2]
    assert reference(path, 1000) is path[0], "the root when no node has enough visits"


def test_ref_changes_the_search() -> None:
    """With ref 0 every node follows its own AMAF table; with a huge ref the root's guides the whole tree."""
    rules = games.get("paintscape")
    state = rules.new(2, {"balance": False}, 2)
    own = grave_move(rules, state, iterations=400, seed=4, ref=0)
    root_only = grave_move(rules, state, iterations=400, seed=4, ref=10**9)
    assert [(s.move, s.visits) for s in own.moves] != [(s.move, s.visits) for s in root_only.moves]


def test_beta_schedule() -> None:
    """No AMAF data: the mean, or untried first; few visits: mostly AMAF; many visits: mostly the mean."""
    assert grave_value(0, 0.0, None, 1e-6) > 1.0
    assert grave_value(4, 3.0, None, 1e-6) == 0.75
    assert grave_value(0, 0.0, [90.0, 100.0], 1e-6) == pytest.approx(0.9)
    assert grave_value(1, 0.0, [90.0, 100.0], 1e-6) == pytest.approx(0.9 * 100 / 101, abs=1e-4)
    assert grave_value(10_000, 2_000.0, [90.0, 100.0], 1e-2) < 0.25


def test_amaf_tables_hold_every_move_played_below() -> None:
    rules = CoinRow()
    search = Grave(rules, 3, random.Random(1), ref=10)
    root = GraveNode(rules, rules.new(3, {"coins": (5, 1, 1, 9)}, 0), 3, search.rng)
    for _ in range(50):
        search.iterate(root)
    assert root.visits == 50 == sum(root.visits_of)
    seats_seen = {seat for seat, _ in root.amaf}
    assert seats_seen == {0, 1, 2}
    assert all(0 < count <= 50 and 0.0 <= total <= count for total, count in root.amaf.values())


def test_needs_a_budget() -> None:
    rules = TicTacToe()
    with pytest.raises(ValueError, match="budget"):
        grave_move(rules, rules.new(2, {}, 0))


def test_a_finished_game_has_no_move() -> None:
    rules = TicTacToe()
    state = rules.from_text("xxx/oo./...", mover=1)
    with pytest.raises(GameOver):
        grave_move(rules, state, iterations=10)
