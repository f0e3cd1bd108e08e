"""Themes as data: the colours every image shares (page, header, text, board frame, last-move mark), and the
fixed palette images are quantized to. A game's own colours per theme come from its plugin
(`games.plugins.GamePlugin.colours`, read with `game_colours`), so nothing here names a game.

Three themes ship: `default` (warm colours), `colorblind` (high contrast, the Okabe-Ito palette, with
shapes beside colours as a second cue: `Theme.second_cues`) and `dark` (light ink on a dark page, for a
system's dark setting; a game without dark colours of its own uses its default ones). Pick one by name
with `get_theme`.

A scene (`renderer.scene`) names colours by **token** rather than by value, so one scene is drawn in any
theme: `resolve(token, theme, game_id)` gives a token's colour. A token is a theme field ("ink",
"board_edge"), a name of the game's own colours ("piece_red"), a literal "#rrggbb", or a colour made of
others: `mix(a, b, t)` (a fraction t of the way from a to b) and `contrast(base, dark, light)` (dark on a
light base, light on a dark one).
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
    """The shared colours of one theme. Every RGB field goes into the theme's fixed palette exactly."""

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
    second_cues: bool
    """Shapes beside colours: each game's drawer adds its second cue (hatching, a mark per seat)."""

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
            if isinstance(value, tuple) and value not in out:
                out.append(value)
        return out


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
    second_cues=False,
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
    second_cues=True,
)

# Every colour of the dark theme (and the games' dark colours) has channels that are multiples of 4: Pillow
# maps a colour to the palette through a cache of 4 x 4 x 4 cells, judged from each cell's corner, so a
# colour on a corner is drawn exactly even beside a near blend in the palette.
DARK = Theme(
    name="dark",
    background=hex_rgb("#1c2028"),
    header=hex_rgb("#101018"),
    panel=hex_rgb("#282834"),
    ink=hex_rgb("#e8e8e4"),
    muted=hex_rgb("#a09ca8"),
    header_ink=hex_rgb("#f4f0f0"),
    header_muted=hex_rgb("#9c98ac"),
    turn_box=hex_rgb("#38405c"),
    win=hex_rgb("#f0c84c"),
    highlight=hex_rgb("#fc50a8"),
    highlight_ink=hex_rgb("#fcfcf8"),
    board_edge=hex_rgb("#0c0c10"),
    grid_line=hex_rgb("#484840"),
    second_cues=False,
)

THEMES: dict[str, Theme] = {DEFAULT.name: DEFAULT, COLORBLIND.name: COLORBLIND, DARK.name: DARK}
THEME_NAMES: tuple[str, ...] = tuple(THEMES)


def get_theme(name: str | Theme) -> Theme:
    """A theme by name ("default", "colorblind" or "dark"); ValueError names the choices."""
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


def shared_colours(theme: Theme) -> list[RGB]:
    """The colours of the games that share one palette (`GamePlugin.shared_palette`: the bot's own), in
    their order: every palette of the theme holds them, so those games' images do not depend on which
    other games are installed."""
    sharing = sorted((p.shared_palette, p.id) for p in games.PLUGINS.values() if p.shared_palette is not None)
    return [colour for _, game_id in sharing for colour in game_colours(theme, game_id).values()]


@cache
def palette(theme: Theme, game_id: str | None = None) -> list[RGB]:
    """The theme's fixed palette (at most 255 colours, so a GIF keeps one index free for transparency).

    The theme's own colours come first (drawn exactly), then the shared colours of the bot's own games
    (`shared_colours`), then `game_id`'s own colours if it is not one of those, then a grey ramp and blends
    of each key colour towards its neighbours for anti-aliased edges, then a coarse colour cube.
    """
    colours = theme.palette_colours()
    own = game_colours(theme, game_id).values() if game_id is not None else ()
    colours.extend(c for c in dict.fromkeys([*shared_colours(theme), *own]) if c not in colours)
    extras: list[RGB] = []
    for level in range(0, 256, 17):
        extras.append((level, level, level))
    anchors = [theme.background, theme.ink, theme.header]
    for colour in colours:
        for anchor in anchors:
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


# --------------------------------------------------------------------------------------------- tokens

Token = str
"""A colour by name, resolved per theme (module doc): "ink", "piece_red", "#ffffff", "mix(a,b,0.3)"."""

THEME_TOKENS: frozenset[str] = frozenset(
    f.name for f in fields(Theme) if f.name not in ("name", "second_cues")
)
"""The tokens a theme itself resolves (its colour fields); a game's own colour names must differ."""


def mix(a: Token, b: Token, t: float) -> Token:
    """The token of the colour a fraction `t` of the way from `a` to `b` (`blend`)."""
    return f"mix({a},{b},{t:g})"


def contrast(base: Token, dark: Token, light: Token) -> Token:
    """The token of `dark` where `base` is a light colour (luminance over 160 of 255), else `light`: ink
    that reads on `base` in every theme."""
    return f"contrast({base},{dark},{light})"


def _arguments(inner: str) -> list[str]:
    """The comma-separated arguments of a token's call, split at the top level only."""
    out, depth, start = [], 0, 0
    for n, char in enumerate(inner):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            out.append(inner[start:n])
            start = n + 1
    out.append(inner[start:])
    return out


@cache
def resolve(token: Token, theme: Theme, game_id: str | None = None) -> RGB:
    """The colour of `token` in `theme` (see the module doc); ValueError for a token that names nothing."""
    if token in THEME_TOKENS:
        value: RGB = getattr(theme, token)
        return value
    if token.startswith("#") and len(token) == 7:
        return hex_rgb(token)
    if token.endswith(")") and "(" in token:
        name, inner = token[:-1].split("(", 1)
        args = _arguments(inner)
        if name == "mix" and len(args) == 3:
            return blend(resolve(args[0], theme, game_id), resolve(args[1], theme, game_id), float(args[2]))
        if name == "contrast" and len(args) == 3:
            r, g, b = resolve(args[0], theme, game_id)
            light = 0.299 * r + 0.587 * g + 0.114 * b > 160
            return resolve(args[1] if light else args[2], theme, game_id)
    if game_id is not None:
        own = game_colours(theme, game_id)
        if token in own:
            return own[token]
    raise ValueError(f"colour token {token!r} names no colour of theme {theme.name!r} or game {game_id!r}")


def hex_code(colour: RGB) -> str:
    """(230, 159, 0) -> "#e69f00"."""
    return "#{:02x}{:02x}{:02x}".format(*colour)
