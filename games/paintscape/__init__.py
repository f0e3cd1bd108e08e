"""Paintscape (RULES.md section 1) as one package: everything the host needs of the game is in this folder.

- `rules.py`: the engine (`RULES`, `PaintscapeState`, the moves), `colours.py`: the game's colours per
  theme;
- `ai.py`: what the search knows of Paintscape (`KNOWLEDGE`), with `race.py`, the colour race as a win
  chance;
- `drawer.py`: the board image and its alt text (the renderer layer: the only module here that draws);
- `fixtures.py`: what the shared checks (bot/testing) need of the game.

`PLUGIN` registers it (entry point `tessera.games`, the project's pyproject.toml), as a game in its own
package does (examples/).
"""

from __future__ import annotations

from games.paintscape.colours import THEME_COLOURS
from games.paintscape.levels import LEVELS
from games.paintscape.rules import RULES, Move, PaintscapeRules, PaintscapeState, Phase
from games.plugins import GamePlugin

PLUGIN = GamePlugin(
    RULES,
    drawer="games.paintscape.drawer",
    ai="games.paintscape.ai",
    colours=THEME_COLOURS,
    shared_palette=0,
    levels=LEVELS,
    fixtures="games.paintscape.fixtures",
    puzzles="games.paintscape.puzzles",
)
"""Paintscape's registration (entry point `tessera.games`, pyproject.toml)."""

__all__ = ["PLUGIN", "RULES", "Move", "PaintscapeRules", "PaintscapeState", "Phase"]
