"""Connect Four as a Tessera game plugin: everything the bot needs of the game comes from this package.

Registered through the entry point group `tessera.games` (pyproject.toml): `PLUGIN` holds the rules and
names the drawer, the catalog of the game's words in every language, its colours and the test fixtures.
It has no AI module: the bot plays it with the generic search.
"""

from __future__ import annotations

from pathlib import Path

from games.plugins import Catalog, GamePlugin
from tessera_connect_four.rules import RULES

HERE = Path(__file__).resolve().parent

PLUGIN = GamePlugin(
    RULES,
    drawer="tessera_connect_four.drawer",
    catalog=Catalog("tessera_connect_four", HERE / "locales", HERE),
    colours={
        "default": {"frame": (31, 95, 191), "red": (214, 40, 57), "yellow": (242, 194, 48)},
        "colorblind": {"frame": (0, 114, 178), "red": (213, 94, 0), "yellow": (240, 228, 66)},
        "dark": {"frame": (28, 60, 120), "red": (228, 72, 76), "yellow": (240, 196, 52)},
    },
    fixtures="tessera_connect_four.fixtures",
)

__all__ = ["PLUGIN", "RULES"]
