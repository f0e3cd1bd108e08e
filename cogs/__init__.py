"""The thin Discord layer: each cog parses an interaction, calls the match service, renders off the event
loop and replies. Shared bits for the cogs live here."""

from __future__ import annotations

from discord import app_commands

import games

GAME_NAMES: dict[str, str] = {"paintscape": "Paintscape", "paint": "Paint", "tilingking": "TilingKing"}
"""Display names, known without importing the engines (command definitions are built at import time)."""


def game_name(game_id: str) -> str:
    """The display name of a game id: "tilingking" -> "TilingKing"."""
    return GAME_NAMES.get(game_id, game_id.title())


GAME_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=game_name(game_id), value=game_id) for game_id in games.GAME_IDS
]
