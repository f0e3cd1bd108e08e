"""The click-play part of the Rules contract (`games.base.clickable_moves`): in random positions of every
game, the cells of each click move identify it (no two legal moves share cells), its notation is the legal
move it stands for, and every legal move is either clicked on the board or a word (a word move, the pass,
a forced move, a resignation the rules list as a move). A game without `click_move` has none and passes
by its words."""

from __future__ import annotations

import random
from typing import Any

import pytest

import games
from games.base import RESIGN, Rules, clickable_moves

MOVES_LOOKED_AT = 6000
"""Positions are looked at until their legal moves add up to this many (a game with thousands of
placements a position looks at fewer positions)."""


def _positions(rules: Rules[Any, Any], seed: int, count: int) -> list[Any]:
    rng = random.Random(seed)
    state = rules.new(min(rules.seats), {}, seed)
    out = [state]
    seen = 0
    while rules.to_move(state) is not None and len(out) < count and seen < MOVES_LOOKED_AT:
        moves = list(rules.legal_moves(state))
        seen += len(moves)
        clicked = {c.notation for c in clickable_moves(rules, state)}
        placements = [m for m in moves if rules.notation(state, m) in clicked] or moves
        state = rules.apply(state, rng.choice(placements))
        out.append(state)
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_cells_identify_every_click_move(game_id: str, seed: int) -> None:
    rules = games.get(game_id)
    for state in _positions(rules, seed, 40):
        clicks = clickable_moves(rules, state)  # raises if two moves share their cells
        keys = {c.cells if c.ordered else frozenset(c.cells) for c in clicks}
        assert len(keys) == len(clicks)
        by_notation = {rules.notation(state, m): m for m in rules.legal_moves(state)}
        for click in clicks:
            assert click.notation in by_notation
            assert rules.parse(state, click.notation) == by_notation[click.notation]
            assert click.cells and len(set(click.cells)) == len(click.cells)
        if not clicks:
            continue  # a game without click play is played by its words and typed moves
        words = {RESIGN, *(w.notation for w in rules.word_moves(state))}
        for other in (rules.pass_move(state), rules.forced_move(state)):
            if other is not None:
                words.add(rules.notation(state, other))
        for notation in set(by_notation) - {c.notation for c in clicks}:
            assert notation in words, f"{game_id}: {notation} is neither clickable nor a word move"
