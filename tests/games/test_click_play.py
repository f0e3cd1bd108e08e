"""Click play beyond the shared check (bot/testing/checks/clicks.py): TilingKing's poses group a piece,
and a game without `click_move` has no click moves."""

from __future__ import annotations

import games
from games.base import clickable_moves
from games.tilingking import RULES as TILINGKING


def test_tilingking_poses_group_a_piece() -> None:
    """Every placement of a piece has that piece as its group, and its pose reproduces its short notation."""
    state = TILINGKING.new(2, {}, 3)
    clicks = clickable_moves(TILINGKING, state)
    assert len({c.group for c in clicks}) > 1
    for click in clicks[::37]:
        move = TILINGKING.parse(state, click.notation)
        short = TILINGKING.short_notation(state, move)
        turn, mirrored = click.pose
        assert short.startswith(f"{click.group}@") and f" r{turn}" in short
        assert short.endswith(" m") == mirrored
    assert games.get("tilingking") is TILINGKING


def test_a_game_without_click_moves_has_none() -> None:
    class NoClicks:
        def legal_moves(self, state: object) -> list[int]:
            return [1]

    assert clickable_moves(NoClicks(), None) == ()  # type: ignore[arg-type]
