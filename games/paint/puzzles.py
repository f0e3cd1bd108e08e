"""Paint's puzzles: their themes (games/ai/puzzles.py) and the starter pool shipped with the game (`STARTER`,
made by bench/starter_puzzles.py).

- "take_lead": the mover did not lead before the solution and leads after it;
- "push": the solution pushes a sphere;
- "hold_lead": the mover leads before and after the solution (and would not after the move played);
- "quiet": anything else (a move that wins at once is "win", found before this module is asked).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from games.base import Rules
from games.paint.rules import Move, PaintState

STARTER = Path(__file__).with_name("puzzles.jsonl")
"""The starter pool: one puzzle a line (bench/starter_puzzles.py)."""


def theme(
    rules: Rules[Any, Any], before: PaintState, solution: Move, after: PaintState, played_after: PaintState
) -> str:
    """The puzzle's theme (see the module doc)."""
    mover = before.to_move
    if before.leader != mover and after.leader == mover:
        return "take_lead"
    if before.spheres >> solution.dest & 1:
        return "push"
    if before.leader == mover and after.leader == mover and played_after.leader != mover:
        return "hold_lead"
    return "quiet"
