"""The thin Discord layer: each cog parses an interaction, calls the service, renders off the event loop
and replies. Shared bits for the cogs live here and in cogs/common.py."""

from __future__ import annotations

from discord import app_commands

import games

GAME_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=rules.name, value=game_id) for game_id, rules in games.GAMES.items()
]
"""The game choices of every command that takes a game: the registry's games, by display name."""


def game_name(game_id: str) -> str:
    """The display name of a game id: "tilingking" -> "TilingKing"."""
    return games.name(game_id)
