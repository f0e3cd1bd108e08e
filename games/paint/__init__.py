"""Paint (RULES.md section 2) as one package: everything the host needs of the game is in this folder.

- `rules.py`: the engine (`RULES`, `PaintState`, `Move`), `layout.py`: the layout text of the `layout`
  option, `colours.py`: the game's colours per theme;
- `ai.py`: what the search knows of Paint (`KNOWLEDGE`), with its opening book `book.json`;
- `drawer.py`: the board image and its alt text (the renderer layer: the only module here that draws);
- `fixtures.py`: what the shared checks (bot/testing) need of the game.

`PLUGIN` registers it (entry point `tessera.games`, the project's pyproject.toml), as a game in its own
package does (examples/).
"""

from __future__ import annotations

from games.paint.colours import THEME_COLOURS
from games.paint.levels import LEVELS
from games.paint.rules import RULES, Move, PaintRules, PaintSettings, PaintState
from games.plugins import GamePlugin

PLUGIN = GamePlugin(
    RULES,
    drawer="games.paint.drawer",
    ai="games.paint.ai",
    colours=THEME_COLOURS,
    shared_palette=1,
    levels=LEVELS,
    fixtures="games.paint.fixtures",
    puzzles="games.paint.puzzles",
)
"""Paint's registration (entry point `tessera.games`, pyproject.toml)."""

__all__ = ["PLUGIN", "RULES", "Move", "PaintRules", "PaintSettings", "PaintState"]
