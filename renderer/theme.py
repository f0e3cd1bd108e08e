"""Themes as data: every colour the renderer paints, and the fixed palette images are quantized to.

Two themes ship: `default` (warm board colours) and `colorblind` (high contrast, the Okabe-Ito palette, with
hatching on Paintscape tiles as a second cue beside the tile letters). Pick one by name with `get_theme`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cache

import games

RGB = tuple[int, int, int]


def hex_rgb(code: str) -> RGB:
    """ "#e69f00" -> (230, 159, 0)."""
    code = code.lstrip("#")
    return int(code[0:2], 16), int(code[2:4], 16), int(code[4:6], 16)


@dataclass(frozen=True, slots=True)
class Theme:
    """The colours of one theme. Every RGB field goes into the theme's fixed palette exactly."""

    name: str
    # page and text
    background: RGB
    header: RGB
    panel: RGB
    ink: RGB
    muted: RGB
    header_ink: RGB
    header_muted: RGB
    turn_box: RGB
    win: RGB
    highlight: RGB
    """The last-move mark; drawn with a thin `highlight_ink` line inside it so it shows on any colour."""
    highlight_ink: RGB
    board_edge: RGB
    grid_line: RGB
    # Paintscape
    tile_colours: tuple[RGB, RGB, RGB, RGB, RGB]
    tile_letter_ink: tuple[RGB, RGB, RGB, RGB, RGB]
    bare_square: RGB
    stone_black: RGB
    stone_black_rim: RGB
    stone_white: RGB
    stone_white_rim: RGB
    second_cues: bool
    """Shapes beside colours: hatched Paintscape tiles and Paint squares, seat marks on TilingKing pieces."""
    # Paint
    paint_neutral: RGB
    paint_light: RGB
    paint_dark: RGB
    disc_white: RGB
    disc_white_ink: RGB
    disc_black: RGB
    disc_black_ink: RGB
    sphere: RGB
    sphere_rim: RGB
    # TilingKing
    tk_empty: RGB
    tk_neutral: RGB
    seat_colours: tuple[RGB, RGB, RGB, RGB]
    territory_colours: tuple[RGB, RGB, RGB, RGB]
    seat_marks: tuple[str, str, str, str]
    """The shape that marks each TilingKing seat: "circle", "square", "triangle" or "diamond"."""

    def __hash__(self) -> int:
        """By name alone: themes are keys of the renderer's caches, looked up dozens of times a board, and
        hashing every colour each time costs more than the lookup. Equal themes share a name, so this
        agrees with equality."""
        return hash(self.name)

    def palette_colours(self) -> list[RGB]:
        """Every distinct colour the theme names, in field order."""
        out: list[RGB] = []
        for f in fields(self):
            value = getattr(self, f.name)
            items = value if isinstance(value, tuple) and value and isinstance(value[0], tuple) else (value,)
            for item in items:
                is_rgb = isinstance(item, tuple) and len(item) == 3 and all(isinstance(c, int) for c in item)
                if is_rgb and item not in out:
                    out.append(item)
        return out


TILE_LETTERS = ("Y", "R", "C", "P", "N")
"""Paintscape tile letters (RULES 1.9): yellow, red, cyan, pink, browN."""

DEFAULT = Theme(
    name="default",
    background=hex_rgb("#f4efe6"),
    header=hex_rgb("#2b2d42"),
    panel=hex_rgb("#ebe4d8"),
    ink=hex_rgb("#22223b"),
    muted=hex_rgb("#6c6a75"),
    header_ink=hex_rgb("#f8f8f2"),
    header_muted=hex_rgb("#b8b8c8"),
    turn_box=hex_rgb("#4a4e69"),
    win=hex_rgb("#f2c94c"),
    highlight=hex_rgb("#e4007c"),
    highlight_ink=hex_rgb("#fbfbf8"),
    board_edge=hex_rgb("#5c4b37"),
    grid_line=hex_rgb("#8d7b68"),
    tile_colours=(
        hex_rgb("#f6d743"),
        hex_rgb("#d7263d"),
        hex_rgb("#3ec1d3"),
        hex_rgb("#f49ac2"),
        hex_rgb("#7b4b2a"),
    ),
    tile_letter_ink=(
        hex_rgb("#6b5a00"),
        hex_rgb("#ffd6dc"),
        hex_rgb("#0b4f59"),
        hex_rgb("#7a1f4f"),
        hex_rgb("#f0d9c4"),
    ),
    bare_square=hex_rgb("#ddd3c2"),
    stone_black=hex_rgb("#1b1b1f"),
    stone_black_rim=hex_rgb("#55555f"),
    stone_white=hex_rgb("#fbfbf8"),
    stone_white_rim=hex_rgb("#4b4b55"),
    second_cues=False,
    paint_neutral=hex_rgb("#ddd3c2"),
    paint_light=hex_rgb("#fff6d8"),
    paint_dark=hex_rgb("#5a6378"),
    disc_white=hex_rgb("#fbfbf8"),
    disc_white_ink=hex_rgb("#22223b"),
    disc_black=hex_rgb("#1b1b1f"),
    disc_black_ink=hex_rgb("#fbfbf8"),
    sphere=hex_rgb("#c27c3a"),
    sphere_rim=hex_rgb("#6e3f14"),
    tk_empty=hex_rgb("#fbfbf8"),
    tk_neutral=hex_rgb("#3a3a40"),
    seat_colours=(hex_rgb("#d62839"), hex_rgb("#1f6fd1"), hex_rgb("#2e9e44"), hex_rgb("#e8b500")),
    territory_colours=(hex_rgb("#f5c2c7"), hex_rgb("#bcd4f4"), hex_rgb("#c4e6c9"), hex_rgb("#f6e3a1")),
    seat_marks=("circle", "circle", "circle", "circle"),
)

COLORBLIND = Theme(
    name="colorblind",
    background=hex_rgb("#ffffff"),
    header=hex_rgb("#000000"),
    panel=hex_rgb("#f0f0f0"),
    ink=hex_rgb("#000000"),
    muted=hex_rgb("#505050"),
    header_ink=hex_rgb("#ffffff"),
    header_muted=hex_rgb("#c8c8c8"),
    turn_box=hex_rgb("#0072b2"),
    win=hex_rgb("#f0e442"),
    highlight=hex_rgb("#000000"),
    highlight_ink=hex_rgb("#ffffff"),
    board_edge=hex_rgb("#000000"),
    grid_line=hex_rgb("#303030"),
    # Okabe-Ito: yellow, vermillion, sky blue, reddish purple; brown is a dark umber apart in lightness.
    tile_colours=(
        hex_rgb("#f0e442"),
        hex_rgb("#d55e00"),
        hex_rgb("#56b4e9"),
        hex_rgb("#cc79a7"),
        hex_rgb("#5c3b1e"),
    ),
    tile_letter_ink=(
        hex_rgb("#000000"),
        hex_rgb("#000000"),
        hex_rgb("#000000"),
        hex_rgb("#000000"),
        hex_rgb("#ffffff"),
    ),
    bare_square=hex_rgb("#e0e0e0"),
    stone_black=hex_rgb("#000000"),
    stone_black_rim=hex_rgb("#ffffff"),
    stone_white=hex_rgb("#ffffff"),
    stone_white_rim=hex_rgb("#000000"),
    second_cues=True,
    paint_neutral=hex_rgb("#c8c8c8"),
    paint_light=hex_rgb("#f0e442"),
    paint_dark=hex_rgb("#0072b2"),
    disc_white=hex_rgb("#ffffff"),
    disc_white_ink=hex_rgb("#000000"),
    disc_black=hex_rgb("#000000"),
    disc_black_ink=hex_rgb("#ffffff"),
    sphere=hex_rgb("#e69f00"),
    sphere_rim=hex_rgb("#000000"),
    tk_empty=hex_rgb("#ffffff"),
    tk_neutral=hex_rgb("#000000"),
    seat_colours=(hex_rgb("#d55e00"), hex_rgb("#0072b2"), hex_rgb("#009e73"), hex_rgb("#f0e442")),
    territory_colours=(hex_rgb("#f5cfb2"), hex_rgb("#b2d4e8"), hex_rgb("#b2e2d5"), hex_rgb("#faf5c6")),
    seat_marks=("circle", "square", "triangle", "diamond"),
)

THEMES: dict[str, Theme] = {DEFAULT.name: DEFAULT, COLORBLIND.name: COLORBLIND}
THEME_NAMES: tuple[str, ...] = tuple(THEMES)


def get_theme(name: str | Theme) -> Theme:
    """A theme by name ("default" or "colorblind"); ValueError names the choices."""
    if isinstance(name, Theme):
        return name
    try:
        return THEMES[name]
    except KeyError:
        raise ValueError(f"unknown theme {name!r}; choose one of: {', '.join(THEME_NAMES)}") from None


def blend(a: RGB, b: RGB, t: float) -> RGB:
    """The colour a fraction t of the way from a to b."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def game_colours(theme: Theme, game_id: str) -> Mapping[str, RGB]:
    """A game's own colours in `theme`, by the names its drawer uses (`GamePlugin.colours`; its "default"
    entry for a theme it does not list). Every theme's palette holds them, so they are drawn exactly."""
    colours = games.plugin(game_id).colours
    return colours.get(theme.name) or colours.get("default") or {}


@cache
def palette(theme: Theme, game_id: str | None = None) -> list[RGB]:
    """The theme's fixed palette (at most 255 colours, so a GIF keeps one index free for transparency).

    The theme's own colours come first (drawn exactly), then the game's own (`game_colours`; the built-in
    games have none, so their images do not depend on which games are installed), then a grey ramp and
    blends of each key colour towards its neighbours for anti-aliased edges, then a coarse colour cube.
    """
    colours = theme.palette_colours()
    if game_id is not None:
        colours.extend(c for c in game_colours(theme, game_id).values() if c not in colours)
    extras: list[RGB] = []
    for level in range(0, 256, 17):
        extras.append((level, level, level))
    anchors = [theme.background, theme.ink, theme.header, theme.board_edge, theme.bare_square, theme.tk_empty]
    for colour in colours:
        for anchor in anchors[:3]:
            extras.append(blend(colour, anchor, 0.5))
    for r in (0, 128, 255):
        for g in (0, 128, 255):
            for b in (0, 128, 255):
                extras.append((r, g, b))
    for colour in extras:
        if colour not in colours:
            colours.append(colour)
        if len(colours) >= 255:
            break
    return colours[:255]
