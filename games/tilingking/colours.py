"""TilingKing's colours per theme (its plugin's `colours`), by the names its drawer (renderer/tilingking.py)
uses: empty and neutral cells, then each seat colour's pieces and territory (red, blue, green, yellow: the
engine's colour index 0-3). The colour-blind theme takes the Okabe-Ito colours; its drawer adds a shape per
colour as a second cue."""

from __future__ import annotations

from games.plugins import RGB


def _rgb(code: str) -> RGB:
    return int(code[1:3], 16), int(code[3:5], 16), int(code[5:7], 16)


COLOUR_NAMES = ("red", "blue", "green", "yellow")
"""The seat colours in the engine's order (colour index 0-3)."""

THEME_COLOURS: dict[str, dict[str, RGB]] = {
    "default": {
        "empty": _rgb("#fbfbf8"),
        "neutral": _rgb("#3a3a40"),
        "piece_red": _rgb("#d62839"),
        "piece_blue": _rgb("#1f6fd1"),
        "piece_green": _rgb("#2e9e44"),
        "piece_yellow": _rgb("#e8b500"),
        "territory_red": _rgb("#f5c2c7"),
        "territory_blue": _rgb("#bcd4f4"),
        "territory_green": _rgb("#c4e6c9"),
        "territory_yellow": _rgb("#f6e3a1"),
    },
    "colorblind": {
        "empty": _rgb("#ffffff"),
        "neutral": _rgb("#000000"),
        "piece_red": _rgb("#d55e00"),
        "piece_blue": _rgb("#0072b2"),
        "piece_green": _rgb("#009e73"),
        "piece_yellow": _rgb("#f0e442"),
        "territory_red": _rgb("#f5cfb2"),
        "territory_blue": _rgb("#b2d4e8"),
        "territory_green": _rgb("#b2e2d5"),
        "territory_yellow": _rgb("#faf5c6"),
    },
    "dark": {
        "empty": _rgb("#303440"),
        "neutral": _rgb("#0c0c10"),
        "piece_red": _rgb("#e4484c"),
        "piece_blue": _rgb("#3c88f0"),
        "piece_green": _rgb("#38b85c"),
        "piece_yellow": _rgb("#f0c030"),
        "territory_red": _rgb("#643038"),
        "territory_blue": _rgb("#284068"),
        "territory_green": _rgb("#284c34"),
        "territory_yellow": _rgb("#5c5020"),
    },
}
