"""The game registry: `games.get("paintscape")` returns that game's `Rules` object.

The package is pure: it imports nothing from discord, PIL, aiosqlite, asyncio or the rest of the project
(a test walks it with `ast` to keep it so).
"""

from __future__ import annotations

import importlib
from typing import Any

from games.base import Rules

# game id -> "module:attribute" of its rules singleton; loaded on first use.
_REGISTRY: dict[str, str] = {
    "paintscape": "games.paintscape:RULES",
    "paint": "games.paint:RULES",
    "tilingking": "games.tilingking:RULES",
}
_loaded: dict[str, Rules[Any, Any]] = {}

GAME_IDS: tuple[str, ...] = tuple(_REGISTRY)


def get(game_id: str) -> Rules[Any, Any]:
    """The rules object of a registered game; KeyError names the known games."""
    if game_id not in _loaded:
        if game_id not in _REGISTRY:
            raise KeyError(f"unknown game {game_id!r}; known games: {', '.join(GAME_IDS)}")
        module_name, attribute = _REGISTRY[game_id].split(":")
        _loaded[game_id] = getattr(importlib.import_module(module_name), attribute)
    return _loaded[game_id]


def all_games() -> dict[str, Rules[Any, Any]]:
    """Every registered game, in registry order."""
    return {game_id: get(game_id) for game_id in GAME_IDS}
