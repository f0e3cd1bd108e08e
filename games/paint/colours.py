"""Paint's colours per theme (its plugin's `colours`), by the names its drawer (renderer/paint.py) uses:
the neutral, light (White's) and dark (Black's) squares, the discs with the ink of their rank marks, and the
spheres."""

from __future__ import annotations

from games.plugins import RGB


def _rgb(code: str) -> RGB:
    return int(code[1:3], 16), int(code[3:5], 16), int(code[5:7], 16)


THEME_COLOURS: dict[str, dict[str, RGB]] = {
    "default": {
        "neutral": _rgb("#ddd3c2"),
        "light": _rgb("#fff6d8"),
        "dark": _rgb("#5a6378"),
        "disc_white": _rgb("#fbfbf8"),
        "disc_white_ink": _rgb("#22223b"),
        "disc_black": _rgb("#1b1b1f"),
        "disc_black_ink": _rgb("#fbfbf8"),
        "sphere": _rgb("#c27c3a"),
        "sphere_rim": _rgb("#6e3f14"),
    },
    "colorblind": {
        "neutral": _rgb("#c8c8c8"),
        "light": _rgb("#f0e442"),
        "dark": _rgb("#0072b2"),
        "disc_white": _rgb("#ffffff"),
        "disc_white_ink": _rgb("#000000"),
        "disc_black": _rgb("#000000"),
        "disc_black_ink": _rgb("#ffffff"),
        "sphere": _rgb("#e69f00"),
        "sphere_rim": _rgb("#000000"),
    },
    "dark": {
        "neutral": _rgb("#4c4850"),
        "light": _rgb("#e8e0bc"),
        "dark": _rgb("#304c74"),
        "disc_white": _rgb("#f4f0ec"),
        "disc_white_ink": _rgb("#20203c"),
        "disc_black": _rgb("#0c0c10"),
        "disc_black_ink": _rgb("#f4f0ec"),
        "sphere": _rgb("#d08844"),
        "sphere_rim": _rgb("#f0b878"),
    },
}
