"""The game registry: `games.get("paintscape")` returns that game's `Rules` object.

A game is a plugin found through the entry point group `tessera.games` (games/plugins.py): a `GamePlugin`
that holds its rules and names its drawer, AI, catalog, colours and test fixtures, so a game can live in
its own installable package and adding one touches only that package. Everything else derives from the
registry: the service's games, `/play`'s choices, `/rules`, the renderer's drawers, the AI, the catalogs.

The package is pure: it imports nothing from discord, PIL, aiosqlite, asyncio or the rest of the project
(a test walks it with `ast` to keep it so).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Rules
from games.plugins import GamePlugin, discover

PLUGINS: Mapping[str, GamePlugin] = discover()
"""Every registered game's plugin by id, in the order of their display names."""

GAMES: Mapping[str, Rules[Any, Any]] = {game_id: plugin.rules for game_id, plugin in PLUGINS.items()}
"""Every registered game by id, in the order of their display names."""

GAME_IDS: tuple[str, ...] = tuple(GAMES)


def plugin(game_id: str) -> GamePlugin:
    """The plugin of a registered game; KeyError names the known games."""
    try:
        return PLUGINS[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known games: {', '.join(GAME_IDS)}") from None


def get(game_id: str) -> Rules[Any, Any]:
    """The rules object of a registered game; KeyError names the known games."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known games: {', '.join(GAME_IDS)}") from None


def all_games() -> dict[str, Rules[Any, Any]]:
    """Every registered game, in registry order."""
    return dict(GAMES)


def name(game_id: str) -> str:
    """The display name of a game: "tilingking" -> "TilingKing"."""
    return get(game_id).name
