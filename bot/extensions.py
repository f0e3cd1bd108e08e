"""The cogs the bot loads, by module name: the client loads them (bot/client.py) and the catalog update
reads their commands' texts (bot/i18n/__main__.py) without importing the client."""

from __future__ import annotations

EXTENSIONS: tuple[str, ...] = (
    "cogs.play",
    "cogs.lobbies",
    "cogs.moves",
    "cogs.ending",
    "cogs.live",
    "cogs.info",
    "cogs.admin",
    "cogs.analysis",
    "cogs.tournaments",
    "cogs.puzzles",
)
