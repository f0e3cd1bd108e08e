"""TilingKing's puzzles: their themes (games/ai/puzzles.py) and the starter pool shipped with the game
(`STARTER`, made by bench/starter_puzzles.py).

- "capture": the solution closes a ring: the mover's territory grows;
- "stop_capture": after the move played in the match the next seat could capture at once, and after the
  solution it cannot;
- "last_cell": after the solution the next seat has no place left for a piece (it can only pass);
- "quiet": anything else (a move that wins at once is "win", found before this module is asked).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from games.base import Rules
from games.tilingking.state import TilingState

STARTER = Path(__file__).with_name("puzzles.jsonl")
"""The starter pool: one puzzle a line (bench/starter_puzzles.py)."""


def _territory(state: TilingState, seat: int) -> int:
    return state.territory_masks[seat].bit_count()


def _can_capture(rules: Rules[Any, Any], state: TilingState) -> bool:
    """Whether the seat to move has a placement that captures."""
    seat = rules.to_move(state)
    if seat is None:
        return False
    held = _territory(state, seat)
    return any(_territory(rules.apply(state, move), seat) > held for move in rules.legal_moves(state))


def theme(
    rules: Rules[Any, Any], before: TilingState, solution: Any, after: TilingState, played_after: TilingState
) -> str:
    """The puzzle's theme (see the module doc)."""
    mover = rules.to_move(before)
    assert mover is not None
    if _territory(after, mover) > _territory(before, mover):
        return "capture"
    if _can_capture(rules, played_after) and not _can_capture(rules, after):
        return "stop_capture"
    if rules.to_move(after) is not None:
        passing = rules.pass_move(after)
        if [move for move in rules.legal_moves(after) if move != passing] == []:
            return "last_cell"
    return "quiet"
