"""The game registry: `games.get("paintscape")` returns that game's `Rules` object.

A game is a module or package of this package that defines `RULES`, its rules singleton; the registry finds
every one of them, so adding a game touches only the game's own files (its engine here, its drawer
`renderer/<id>.py`, its AI knowledge `games/ai/<id>.py` if it has one). Everything else derives from the
registry: the service's games, `/play`'s choices, `/rules`, the renderer's drawers (a test ties them).

The package is pure: it imports nothing from discord, PIL, aiosqlite, asyncio or the rest of the project
(a test walks it with `ast` to keep it so).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from typing import Any

from games.base import Rules


def _discover() -> dict[str, Rules[Any, Any]]:
    """Every submodule's `RULES`, keyed by its id, in the order of the display names."""
    found: dict[str, Rules[Any, Any]] = {}
    for module_info in pkgutil.iter_modules(__path__, prefix=f"{__name__}."):
        rules: Rules[Any, Any] | None = getattr(importlib.import_module(module_info.name), "RULES", None)
        if rules is None:
            continue
        if rules.id in found:
            raise RuntimeError(f"two games share the id {rules.id!r}")
        found[rules.id] = rules
    return dict(sorted(found.items(), key=lambda item: item[1].name.lower()))


GAMES: Mapping[str, Rules[Any, Any]] = _discover()
"""Every registered game by id, in the order of their display names."""

GAME_IDS: tuple[str, ...] = tuple(GAMES)


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
