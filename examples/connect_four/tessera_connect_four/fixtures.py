"""What Tessera's shared checks need of this game (see bot/testing/fixtures.py, in the kit)."""

from __future__ import annotations

from typing import Any

OPTIONS: list[dict[str, Any]] = [{}]
"""Option sets random games are played with (the fuzzed load): the game has no options."""

MOST_MOVES = 7
"""More legal moves than any position has: one per column."""
