"""Board images: any state of any game to a PNG a player enjoys looking at, plus alt text in words.

Pure and blocking: the bot calls these through `asyncio.to_thread`. One drawer per game, the module its plugin
names (`games.plugins.GamePlugin.drawer`), builds the board's scene (`renderer.scene`; or declares a cell
board, `renderer.cellboard`), and one painter paints any scene in any theme (`renderer.painter`); cell
geometry lives in `renderer.geometry`, colours in `renderer.theme` (a game's own colours in its plugin,
`renderer.theme.game_colours`).

    render("paintscape", state, last_move="d4", players=["Alice", "Bob"], theme="colorblind") -> PNG bytes
    board_scene("paintscape", state, last_move="d4", players=["Alice", "Bob"]) -> Scene (theme-free data)
    alt_text("paintscape", state, players=["Alice", "Bob"], last_move="d4") -> "Paintscape board. Move 12 ..."
    render_pieces("tilingking", state, seat=0, players=[...]) -> PNG of that seat's remaining pieces
    move_caption(ply, over) -> "Move 20" / "19 moves": the one move-number definition, for the bot's text too
    renderer.replay.replay_gif(game_id, options, seed, seats, log, players, theme=, outcome=) -> GIF bytes

`last_move` is the notation string of the move that led to `state`, as stored in the move log.
`outcome` is the result when the match service ended the game itself (resignation, timeout, abort): it
overrides the engine's in the header, the winner marks, the status line and the alt text.
`theme` is a theme name (`THEME_NAMES`: "default", "colorblind", "dark") or a `Theme`; every game and replays
take it.
`size` is the image width in pixels (the height is two thirds of it); 960 suits Discord's inline preview.
Every text drawn or written comes from `renderer.text` (one place, for a later translation layer); names in
any script are drawn with the fonts of `renderer.fonts`.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from functools import cache
from typing import Any, Protocol

from PIL import Image

import games
from games.base import Outcome
from games.texts import Translations
from renderer import painter
from renderer import text as wording
from renderer.canvas import png_bytes
from renderer.scene import Scene, with_clocks
from renderer.text import move_caption, move_number
from renderer.theme import THEME_NAMES, Theme, get_theme

__all__ = [
    "DEFAULT_SIZE",
    "THEME_NAMES",
    "alt_text",
    "board_scene",
    "clear_caches",
    "move_caption",
    "move_number",
    "render",
    "render_image",
    "render_pieces",
]

DEFAULT_SIZE = 960
MIN_SIZE, MAX_SIZE = 320, 2400
ALT_TEXT_LIMIT = 1024
"""Discord's limit on an attachment description."""


class Drawer(Protocol):
    """What each game's drawer provides: its board as a scene (`renderer.scene`), which the painter paints
    in any theme, and the alt text. (A module that declares a cell board gets `scene` from the host:
    `renderer.cellboard`.)"""

    def scene(
        self,
        state: Any,
        *,
        last_move: str | None,
        players: Sequence[str] | None,
        size: int,
        outcome: Outcome | None = None,
    ) -> Scene: ...

    def describe(
        self,
        state: Any,
        *,
        last_move: str | None,
        players: Sequence[str] | None,
        outcome: Outcome | None = None,
    ) -> str: ...


def drawer(game_id: str) -> Drawer:
    """The drawer of a registered game: the module its plugin names (`GamePlugin.drawer`, imported on first
    use)."""
    if game_id not in games.GAMES:
        raise KeyError(f"no board drawer for game {game_id!r}; known games: {', '.join(games.GAME_IDS)}")
    return _drawer(game_id, games.plugin(game_id).drawer)


@cache
def _drawer(game_id: str, path: str) -> Drawer:
    """The drawer module at `path`, or the host's drawer of the cell board it declares
    (`renderer.cellboard`)."""
    from renderer import cellboard

    module = importlib.import_module(path)
    if cellboard.declares(module):
        declared: Drawer = cellboard.Declared(module, game_id)
        return declared
    found: Drawer = module
    return found


def has_pieces(game_id: str) -> bool:
    """Whether the game's players hold pieces that `render_pieces` can show (TilingKing)."""
    return hasattr(drawer(game_id), "pieces_scene")


def _check_size(size: int) -> int:
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"image width must be between {MIN_SIZE} and {MAX_SIZE} pixels, not {size}")
    return size


def render_image(
    game_id: str,
    state: Any,
    *,
    last_move: str | None = None,
    players: Sequence[str] | None = None,
    theme: str | Theme = "default",
    size: int = DEFAULT_SIZE,
    outcome: Outcome | None = None,
    translations: Translations | None = None,
    clocks: Sequence[float] | None = None,
) -> Image.Image:
    """The board as an RGB Pillow image (before palette quantization); `render` encodes it. Its texts are
    in the language of `translations` (a gettext catalog; None: English); `clocks` the seats' clocks in
    seconds, for a live match (shown in the header)."""
    with wording.using(translations):
        module: Any = drawer(game_id)
        if not hasattr(module, "scene"):
            image: Image.Image = module.draw(
                state,
                last_move=last_move,
                players=players,
                theme=get_theme(theme),
                size=_check_size(size),
                outcome=outcome,
            )
            return image
        built = module.scene(
            state, last_move=last_move, players=players, size=_check_size(size), outcome=outcome
        )
        return painter.paint(with_clocks(built, clocks), get_theme(theme))


def board_scene(
    game_id: str,
    state: Any,
    *,
    last_move: str | None = None,
    players: Sequence[str] | None = None,
    size: int = DEFAULT_SIZE,
    outcome: Outcome | None = None,
    translations: Translations | None = None,
    clocks: Sequence[float] | None = None,
    clock_low: float | None = None,
) -> Scene:
    """The board of `state` as a scene (`renderer.scene`): what `render` paints, in any theme; its texts
    in the language of `translations` (None: English); `clocks` the seats' clocks (`scene.with_clocks`)."""
    with wording.using(translations):
        built: Scene = drawer(game_id).scene(
            state, last_move=last_move, players=players, size=_check_size(size), outcome=outcome
        )
        return with_clocks(built, clocks, clock_low)


def render(
    game_id: str,
    state: Any,
    *,
    last_move: str | None = None,
    players: Sequence[str] | None = None,
    theme: str | Theme = "default",
    size: int = DEFAULT_SIZE,
    outcome: Outcome | None = None,
    translations: Translations | None = None,
    clocks: Sequence[float] | None = None,
) -> bytes:
    """The board of `state` as a palette PNG `size` pixels wide, with the last move marked and, once the game
    is over (by the rules, or by `outcome`), the result instead of whose turn it is; its texts in the
    language of `translations` (None: English)."""
    chosen = get_theme(theme)
    image = render_image(
        game_id,
        state,
        last_move=last_move,
        players=players,
        theme=chosen,
        size=size,
        outcome=outcome,
        translations=translations,
        clocks=clocks,
    )
    return png_bytes(image, chosen, game_id)


def alt_text(
    game_id: str,
    state: Any,
    *,
    players: Sequence[str] | None = None,
    last_move: str | None = None,
    outcome: Outcome | None = None,
    translations: Translations | None = None,
) -> str:
    """The position in words for screen readers (Discord attachment description, at most 1024 characters),
    in the language of `translations` (None: English)."""
    with wording.using(translations):
        text = drawer(game_id).describe(state, last_move=last_move, players=players, outcome=outcome)
    if len(text) > ALT_TEXT_LIMIT:
        text = text[: ALT_TEXT_LIMIT - 3].rstrip() + "..."
    return text


def clear_caches() -> None:
    """Forget every drawing, text and layout the renderer remembers (tests compare a board drawn from its
    caches with one drawn from scratch)."""
    from renderer import canvas

    painter.clear()
    for module in (canvas, *(importlib.import_module(games.plugin(g).drawer) for g in games.GAME_IDS)):
        for value in list(vars(module).values()):
            if isinstance(value, canvas.RegionCache):
                value.clear()
            elif callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def render_pieces(
    game_id: str,
    state: Any,
    seat: int,
    *,
    players: Sequence[str] | None = None,
    theme: str | Theme = "default",
    size: int = DEFAULT_SIZE,
    translations: Translations | None = None,
) -> bytes:
    """An image of one seat's remaining pieces with their ids and counts (TilingKing's /pieces), its texts
    in the language of `translations` (None: English)."""
    if not has_pieces(game_id):
        raise ValueError(f"{game_id} has no pieces to show")
    chosen = get_theme(theme)
    pieces_scene = drawer(game_id).pieces_scene  # type: ignore[attr-defined]
    with wording.using(translations):
        built = pieces_scene(state, seat, players=players, size=_check_size(size))
        image = painter.paint(built, chosen)
    return png_bytes(image, chosen, game_id)
