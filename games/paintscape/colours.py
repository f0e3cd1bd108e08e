"""Paintscape's colours per theme (its plugin's `colours`), by the names its drawer (renderer/paintscape.py)
uses: the five tile colours (RULES 1.9: yellow, red, cyan, pink, brown), the ink of each tile's letter, the
bare square and the stones. The colour-blind theme takes the Okabe-Ito colours, with brown a dark umber
apart in lightness; its drawer hatches the tiles as a second cue beside the letters."""

from __future__ import annotations

from games.plugins import RGB


def _rgb(code: str) -> RGB:
    return int(code[1:3], 16), int(code[3:5], 16), int(code[5:7], 16)


THEME_COLOURS: dict[str, dict[str, RGB]] = {
    "default": {
        "tile_yellow": _rgb("#f6d743"),
        "tile_red": _rgb("#d7263d"),
        "tile_cyan": _rgb("#3ec1d3"),
        "tile_pink": _rgb("#f49ac2"),
        "tile_brown": _rgb("#7b4b2a"),
        "letter_yellow": _rgb("#6b5a00"),
        "letter_red": _rgb("#ffd6dc"),
        "letter_cyan": _rgb("#0b4f59"),
        "letter_pink": _rgb("#7a1f4f"),
        "letter_brown": _rgb("#f0d9c4"),
        "bare_square": _rgb("#ddd3c2"),
        "stone_black": _rgb("#1b1b1f"),
        "stone_black_rim": _rgb("#55555f"),
        "stone_white": _rgb("#fbfbf8"),
        "stone_white_rim": _rgb("#4b4b55"),
    },
    "colorblind": {
        "tile_yellow": _rgb("#f0e442"),
        "tile_red": _rgb("#d55e00"),
        "tile_cyan": _rgb("#56b4e9"),
        "tile_pink": _rgb("#cc79a7"),
        "tile_brown": _rgb("#5c3b1e"),
        "letter_yellow": _rgb("#000000"),
        "letter_red": _rgb("#000000"),
        "letter_cyan": _rgb("#000000"),
        "letter_pink": _rgb("#000000"),
        "letter_brown": _rgb("#ffffff"),
        "bare_square": _rgb("#e0e0e0"),
        "stone_black": _rgb("#000000"),
        "stone_black_rim": _rgb("#ffffff"),
        "stone_white": _rgb("#ffffff"),
        "stone_white_rim": _rgb("#000000"),
    },
    "dark": {
        "tile_yellow": _rgb("#e0c038"),
        "tile_red": _rgb("#c8283c"),
        "tile_cyan": _rgb("#38a8b8"),
        "tile_pink": _rgb("#d884ac"),
        "tile_brown": _rgb("#885838"),
        "letter_yellow": _rgb("#4c4000"),
        "letter_red": _rgb("#fcd8dc"),
        "letter_cyan": _rgb("#08343c"),
        "letter_pink": _rgb("#501034"),
        "letter_brown": _rgb("#f8e4d0"),
        "bare_square": _rgb("#383c48"),
        "stone_black": _rgb("#08080c"),
        "stone_black_rim": _rgb("#888898"),
        "stone_white": _rgb("#f0f0ec"),
        "stone_white_rim": _rgb("#9898a8"),
    },
}
