"""Paintscape's puzzles: their themes (games/ai/puzzles.py) and the starter pool shipped with the game
(`STARTER`, made by bench/starter_puzzles.py).

- "collect": the solution collects a colour (its sixth stone on the colour);
- "block": after the move played in the match the opponent could collect a colour at once, and after the
  solution it cannot;
- "quiet": anything else (a move that wins at once is "win", found before this module is asked).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from games.base import Rules
from games.paintscape.rules import PaintscapeState

STARTER = Path(__file__).with_name("puzzles.jsonl")
"""The starter pool: one puzzle a line (bench/starter_puzzles.py)."""


def _collected(state: PaintscapeState) -> int:
    return sum(1 for owner in state.collected if owner in (0, 1))


def _can_collect(rules: Rules[Any, Any], state: PaintscapeState) -> bool:
    """Whether the seat to move has a move that collects a colour."""
    if rules.to_move(state) is None:
        return False
    count = _collected(state)
    return any(_collected(rules.apply(state, move)) > count for move in rules.legal_moves(state))


def theme(
    rules: Rules[Any, Any],
    before: PaintscapeState,
    solution: Any,
    after: PaintscapeState,
    played_after: PaintscapeState,
) -> str:
    """The puzzle's theme (see the module doc)."""
    if _collected(after) > _collected(before):
        return "collect"
    if _can_collect(rules, played_after) and not _can_collect(rules, after):
        return "block"
    return "quiet"
