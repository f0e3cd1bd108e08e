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
from functools import cache
from typing import Any

from games.base import Rules, Termination, on_unknown_termination
from games.plugins import GamePlugin, discover

PLUGINS: Mapping[str, GamePlugin]
"""Every registered game's plugin by id, in the order of their display names."""

GAMES: Mapping[str, Rules[Any, Any]]
"""Every registered game by id, in the order of their display names."""

GAME_IDS: tuple[str, ...]

_REGISTRY = ("PLUGINS", "GAMES", "GAME_IDS")


@cache
def _registry() -> tuple[Mapping[str, GamePlugin], Mapping[str, Rules[Any, Any]], tuple[str, ...]]:
    plugins = discover()
    return plugins, {game_id: entry.rules for game_id, entry in plugins.items()}, tuple(plugins)


on_unknown_termination(_registry)


def __getattr__(name: str) -> Any:
    """The registry, found on first use rather than on `import games`: a game package imports `games.base`
    while it is being imported itself, before its entry point could be loaded."""
    if name not in _REGISTRY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return _registry()[_REGISTRY.index(name)]


def plugin(game_id: str) -> GamePlugin:
    """The plugin of a registered game; KeyError names the known games."""
    try:
        return _registry()[0][game_id]
    except KeyError:
        raise _unknown(game_id) from None


def get(game_id: str) -> Rules[Any, Any]:
    """The rules object of a registered game; KeyError names the known games."""
    try:
        return _registry()[1][game_id]
    except KeyError:
        raise _unknown(game_id) from None


def _unknown(game_id: str) -> KeyError:
    return KeyError(f"unknown game {game_id!r}; known games: {', '.join(_registry()[2])}")


def all_games() -> dict[str, Rules[Any, Any]]:
    """Every registered game, in registry order."""
    return dict(_registry()[1])


def name(game_id: str) -> str:
    """The display name of a game: "tilingking" -> "TilingKing"."""
    return get(game_id).name


def terminations() -> list[Termination]:
    """Every termination: the generic ones and every registered game's (loading the registry defines them)."""
    _registry()
    return list(Termination)
