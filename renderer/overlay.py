"""The cells a browser draws over the board's PNG, until the page paints the scene itself
(`renderer.scene`): each cell's polygon in the image's pixels, its name, and the theme's colours for marks,
so clicks, highlights and a ghost piece in the web client land exactly on the cells the PNG shows.

Pure: the polygons are the board scene's own (`renderer.board_scene`), never recomputed here, so the
picture in Discord and the page agree. A scene without cells gives none (the page then shows the image and
plays by word moves and typed moves).

    overlay("paint", state, size=960, theme="default").to_json() -> {"width": 960, "height": 640, ...}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from renderer import DEFAULT_SIZE, board_scene
from renderer.theme import RGB, Theme, game_colours, get_theme

Polygon = tuple[tuple[float, float], ...]


def _hex(colour: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


@dataclass(frozen=True, slots=True)
class Overlay:
    """What a host needs to draw on the board image: its size, each cell's polygon (index = the engine's
    cell index, as in `games.base.ClickMove.cells`) and name, and the theme's mark colours."""

    width: int
    height: int
    cells: tuple[Polygon, ...]
    labels: tuple[str, ...]
    colours: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """JSON-safe, with corners rounded to tenths of a pixel (what a browser can resolve anyway)."""
        return {
            "width": self.width,
            "height": self.height,
            "cells": [[round(v, 1) for point in poly for v in point] for poly in self.cells],
            "labels": list(self.labels),
            "colours": self.colours,
        }


def overlay(game_id: str, state: Any, *, size: int = DEFAULT_SIZE, theme: str | Theme = "default") -> Overlay:
    """The scene of `state` for an image `render(..., size=size, theme=theme)` of the same state."""
    chosen = get_theme(theme)
    built = board_scene(game_id, state, size=size)
    cells: tuple[Polygon, ...] = built.cells
    names: tuple[str, ...] = built.labels or tuple(str(i) for i in range(len(cells)))
    colours: dict[str, Any] = {
        "highlight": _hex(chosen.highlight),
        "highlight_ink": _hex(chosen.highlight_ink),
        "ink": _hex(chosen.ink),
        "background": _hex(chosen.background),
        "panel": _hex(chosen.panel),
        "win": _hex(chosen.win),
        # A game's own colours named piece_* are its seats' piece colours in colour order (the ghost piece).
        "seats": [_hex(c) for name, c in game_colours(chosen, game_id).items() if name.startswith("piece_")],
    }
    return Overlay(size, size * 2 // 3, cells, names, colours)
