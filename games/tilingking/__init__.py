"""TilingKing (RULES.md section 3) and its Tile Hoard options: `RULES` is the engine singleton.

What the renderer and the AI use (names kept stable):

- `state.board`: a `Board` (games.tilingking.boards, a games.grids.TileGrid) with `id`, `kind` ("square",
  "hex" or "triangle"), `cells` (coordinates per cell index: square (x, y), hex axial (q, r), triangle (x, y),
  up when x + y is even), `label(i)` / `labels`, `neutral` (frozenset of indices) and `neutral_mask`,
  `playable_count`, `edge_neighbours` / `vertex_neighbours` (index tuples per cell), `edge_masks` /
  `vertex_masks` (bitmasks per cell), `outside_mask` (cells touching the outside).
- `state.placed`: the pieces on the board in placement order, each a `Placed` with `owner` (seat), `piece`
  (id), `cells` (indices), `ply` (when placed), `mask` (the cells as a bitmask).
- `state.territory`: per cell index the owning seat or None; `state.territory_masks`: per seat a bitmask.
- `state.passall`, `state.resigned` (per seat), `state.ply`, `state.turn`, `state.colours` (colour index per
  seat into `COLOURS`; the pie swap exchanges them).
- `supply(state, seat) -> dict[piece_id, count]`, `scores(state) -> tuple[int, ...]`,
  `piece_shapes(kind) -> dict[piece_id, cells]` (one orientation, for the /pieces picture).
- Moves are `Move(action, piece, mask)`; `RULES.notation` writes a placement as its sorted cells
  ("c3 c4 c5 d4"), `RULES.short_notation` as "T4@c3 r1 m" (piece, anchor, rotation, mirror).
- For the match service: `RULES.timeout_move(state)` (passall) and `RULES.resign(state, seat)`.

Piece ids (games.tilingking.pieces): squares 1 2 I3 V3 I4 O4 T4 L4 S4;
hexes 1 2 I3 V3 D3 I4 P4 Y4 J4 U4 O4 S4; triangles 1 2 3 I4 C4 T4 I5 U5 P5 L5.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.plugins import GamePlugin
from games.tilingking.boards import PRESETS, Board, board
from games.tilingking.colours import THEME_COLOURS
from games.tilingking.levels import LEVELS
from games.tilingking.pieces import Piece, piece_shapes, pieces
from games.tilingking.rules import (
    COLOURS,
    Move,
    Placed,
    Settings,
    TilingKingRules,
    TilingState,
    cell_list,
    scores,
    supply,
)

RULES = TilingKingRules()

if TYPE_CHECKING:
    from games.base import Rules

    _CONFORMS: Rules[TilingState, Move] = RULES  # mypy: the singleton implements the whole contract

__all__ = [
    "COLOURS",
    "PRESETS",
    "RULES",
    "Board",
    "Move",
    "Piece",
    "Placed",
    "Settings",
    "TilingKingRules",
    "TilingState",
    "board",
    "cell_list",
    "piece_shapes",
    "pieces",
    "scores",
    "supply",
]

PLUGIN = GamePlugin(
    RULES,
    drawer="games.tilingking.drawer",
    ai="games.tilingking.ai",
    colours=THEME_COLOURS,
    shared_palette=2,
    levels=LEVELS,
    fixtures="games.tilingking.fixtures",
    puzzles="games.tilingking.puzzles",
)
"""TilingKing's registration (entry point `tessera.games`, pyproject.toml)."""
