"""The click-play part of the Rules contract (`games.base.clickable_moves`): in random positions of every
game, the cells of each click move identify it (no two legal moves share cells), its notation is the legal
move it stands for, and every legal move is either clicked on the board or a word (pass, done, resign)."""

from __future__ import annotations

import random

import pytest

import games
from games.base import clickable_moves

WORDS = {"pass", "passall", "resign", "swap", "done", "black", "white"}


def _positions(game_id: str, seed: int, count: int) -> list[object]:
    rules = games.get(game_id)
    rng = random.Random(seed)
    state = rules.new(2, {}, seed)
    out = [state]
    while rules.to_move(state) is not None and len(out) < count:
        moves = list(rules.legal_moves(state))
        placements = [m for m in moves if rules.notation(state, m) not in WORDS] or moves
        state = rules.apply(state, rng.choice(placements))
        out.append(state)
    return out


@pytest.mark.parametrize("game_id", games.GAME_IDS)
@pytest.mark.parametrize("seed", [1, 2])
def test_cells_identify_every_click_move(game_id: str, seed: int) -> None:
    rules = games.get(game_id)
    for state in _positions(game_id, seed, 12 if game_id == "tilingking" else 40):
        clicks = clickable_moves(rules, state)  # raises if two moves share their cells
        keys = {c.cells if c.ordered else frozenset(c.cells) for c in clicks}
        assert len(keys) == len(clicks)
        by_notation = {rules.notation(state, m): m for m in rules.legal_moves(state)}
        for click in clicks:
            assert click.notation in by_notation
            assert rules.parse(state, click.notation) == by_notation[click.notation]
            assert click.cells and len(set(click.cells)) == len(click.cells)
        for notation in set(by_notation) - {c.notation for c in clicks}:
            assert notation in WORDS, f"{game_id}: {notation} is neither clickable nor a word"


def test_tilingking_poses_group_a_piece() -> None:
    """Every placement of a piece has that piece as its group, and its pose reproduces its short notation."""
    rules = games.get("tilingking")
    state = rules.new(2, {}, 3)
    clicks = clickable_moves(rules, state)
    assert len({c.group for c in clicks}) > 1
    for click in clicks[::37]:
        move = rules.parse(state, click.notation)
        short = rules.short_notation(state, move)
        turn, mirrored = click.pose
        assert short.startswith(f"{click.group}@") and f" r{turn}" in short
        assert short.endswith(" m") == mirrored


def test_a_game_without_click_moves_has_none() -> None:
    class NoClicks:
        def legal_moves(self, state: object) -> list[int]:
            return [1]

    assert clickable_moves(NoClicks(), None) == ()  # type: ignore[arg-type]
