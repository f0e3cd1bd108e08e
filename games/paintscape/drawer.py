"""Paintscape board: tiles in five colours (each with its letter, RULES 1.9, and hatching in the colour-blind
theme), black and white stones (a stone on a tile keeps a frame of the tile around it and casts a shadow, so
stacks read at a glance), and beside the board the race for every colour: each player's stones on it out of
the six that collect it, and its free tiles. Collected colours show who took them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Sequence
from functools import lru_cache, partial
from typing import Any, NamedTuple

from PIL import Image, ImageDraw

import games
from games.base import Outcome
from games.grids import SquareGrid, bits_of
from games.paintscape import rules as engine
from games.texts import N_
from renderer import fonts
from renderer import text as wording
from renderer.canvas import (
    Box,
    Page,
    RegionCache,
    SeatChip,
    SquareLayout,
    disc_sprite,
    draw_header,
    draw_text,
    draw_wrapped,
    final_outcome,
    fit_text,
    inside_cell,
    line_pitch,
    mark_ring,
    new_canvas,
    paste_centred,
    paste_opaque,
    seat_names,
    square_layout,
    square_polygons,
    status_text,
    text_mask,
    text_width,
    wrap_text,
)
from renderer.incremental import Board
from renderer.theme import RGB, Theme, blend, game_colours

TILE_LETTERS = N_("Y R C P N")
"""The letters on the tiles (RULES 1.9 in English: yellow, red, cyan, pink, browN), in the current language:
one text of five words, so each language picks letters that differ from each other and from its stone
letters (French Noir is N, so its brown is M: `tile_letters`)."""


class Colours(NamedTuple):
    """Paintscape's colours in one theme, from its plugin (games/paintscape/colours.py)."""

    tiles: tuple[RGB, ...]
    """By tile index: yellow, red, cyan, pink, brown."""
    letters: tuple[RGB, ...]
    """The ink of each tile's letter."""
    bare_square: RGB
    stone_black: RGB
    stone_black_rim: RGB
    stone_white: RGB
    stone_white_rim: RGB


@lru_cache(maxsize=8)
def own_colours(theme: Theme) -> Colours:
    """The game's colours in `theme` (its plugin's `colours`)."""
    named = game_colours(theme, engine.RULES.id)
    return Colours(
        tiles=tuple(named[f"tile_{name}"] for name in COLOURS),
        letters=tuple(named[f"letter_{name}"] for name in COLOURS),
        bare_square=named["bare_square"],
        stone_black=named["stone_black"],
        stone_black_rim=named["stone_black_rim"],
        stone_white=named["stone_white"],
        stone_white_rim=named["stone_white_rim"],
    )


def _move_words(notation: str) -> str:
    """The last move as the images show it: a swap in words ("swapped d4 and e5"), a word move in words."""
    words = notation.split()
    if len(words) == 3 and words[0] == "swap":
        return wording.text("move.swap", stone=words[1], tile=words[2])
    return wording.move(notation)


TEXTS: dict[str, str] = {
    "move.word.done": N_("done swapping"),
    "move.word.black": N_("chose Black"),
    "move.word.white": N_("chose White"),
    "move.swap": N_("swapped {stone} and {tile}"),
    "paintscape.title": N_("Colour race"),
    "paintscape.rule": N_("{count} stones of one player on a colour collect it"),
    "paintscape.colour.yellow": N_("yellow"),
    "paintscape.colour.red": N_("red"),
    "paintscape.colour.cyan": N_("cyan"),
    "paintscape.colour.pink": N_("pink"),
    "paintscape.colour.brown": N_("brown"),
    "paintscape.stone.black": N_("Black"),
    "paintscape.stone.white": N_("White"),
    "paintscape.stone_letter.black": N_("B"),
    "paintscape.stone_letter.white": N_("W"),
    "paintscape.tile_letters": TILE_LETTERS,
    "paintscape.absent": N_("not in this game"),
    "paintscape.collected_by": N_("collected by {name}"),
    "paintscape.free.one": N_("{count} free"),
    "paintscape.free.other": N_("{count} free"),
    "paintscape.can_take": N_("{name} can take it"),
    "paintscape.progress": N_("{count}/{goal}"),
    "paintscape.swaps.one": N_("{count} of 4 swaps made"),
    "paintscape.swaps.other": N_("{count} of 4 swaps made"),
    "paintscape.picks": N_("picks Black or White"),
    "paintscape.colours.one": N_("{count} colour"),
    "paintscape.colours.other": N_("{count} colours"),
    "paintscape.note.balance": N_("balancing: swap a stone with a tile, or done"),
    "paintscape.note.choose": N_("choose: black (play first) or white (second)"),
    "paintscape.alt.game": N_("Paintscape"),
    "paintscape.alt.has.one": N_("{name} has {count} colour"),
    "paintscape.alt.has.other": N_("{name} has {count} colours"),
    "paintscape.alt.collected": N_("{colour} collected by {name}"),
    "paintscape.alt.absent": N_("{colour} not in this game"),
    "paintscape.alt.race_row": N_("{colour} Black {black}, White {white}, {free} free"),
    "paintscape.alt.race": N_("Race (6 collects): {rows}."),
    "paintscape.alt.black_stones": N_("Black stones: {cells}."),
    "paintscape.alt.white_stones": N_("White stones: {cells}."),
}
"""This game's own texts on its images and in its alt text (`renderer.text.TEXTS` gathers them)."""

GRID = SquareGrid(8, 8)
FILES = "abcdefgh"
COLOURS = ("yellow", "red", "cyan", "pink", "brown")
"""Tile colours in `state.tiles` order; their display names are `paintscape.colour.<name>` (renderer.text)."""
COLLECT_AT = 6
SMALL_PX = 16
"""The smallest text at the base width (960 px): readable when Discord shows the image 400-550 px wide."""
_SQUARE = re.compile(r"^[a-h][1-8]$")


def last_move_squares(last_move: str | None) -> list[int]:
    """The squares a move's notation names: `d4` -> [d4]; `swap c3 f6` -> [c3, f6]; others -> []."""
    if not last_move:
        return []
    words = last_move.strip().lower().split()
    squares = [w for w in words if _SQUARE.match(w)]
    if not squares or (len(words) > 1 and words[0] != "swap"):
        return []
    return [GRID.index(FILES.index(w[0]), int(w[1:]) - 1) for w in squares]


# --------------------------------------------------------------------------------------------- layout


def tile_letters() -> tuple[str, ...]:
    """The five tiles' letters in the current language (yellow, red, cyan, pink, brown); English's where a
    translation does not give five."""
    letters = tuple(wording.text("paintscape.tile_letters").split())
    return letters if len(letters) == len(COLOURS) else tuple(TILE_LETTERS.split())


@lru_cache(maxsize=64)
def _tile_image(
    theme: Theme, colour: int, side: int, letter_px: int, chain: fonts.FontChain, letter: str
) -> Image.Image:
    """One square with a tile of `colour` on it: fill, hatching (colour-blind theme), `letter` in the corner
    (in the fonts of `chain`, the chain in use)."""
    own = own_colours(theme)
    fill = own.tiles[colour]
    img = Image.new("RGB", (side, side), fill)
    draw = ImageDraw.Draw(img)
    if theme.second_cues:
        ink = blend(fill, own.letters[colour], 0.45)
        step = max(4, side // 6)
        width = max(1, side // 40)
        if colour == 1:  # red: rising diagonals
            for o in range(-side, side, step):
                draw.line(((o, side), (o + side, 0)), fill=ink, width=width)
        elif colour == 2:  # cyan: horizontal stripes
            for o in range(step // 2, side, step):
                draw.line(((0, o), (side, o)), fill=ink, width=width)
        elif colour == 3:  # pink: dots
            for ox in range(step // 2, side, step):
                for oy in range(step // 2, side, step):
                    draw.ellipse((ox - width, oy - width, ox + width, oy + width), fill=ink)
        elif colour == 4:  # brown: cross-hatch
            for o in range(-side, side, step):
                draw.line(((o, side), (o + side, 0)), fill=ink, width=width)
                draw.line(((o, 0), (o + side, side)), fill=ink, width=width)
        # yellow stays plain: the lightest tile, told apart by lightness and its letter.
    x, y = max(2, side // 14), max(1, side // 24)
    if theme.second_cues:  # a plain patch behind the letter keeps it readable over the hatching
        mask = text_mask(letter, letter_px)
        ink_box = mask.getbbox() or (0, 0, mask.width, mask.height)
        draw.rectangle((x - 1, y + ink_box[1] - 2, x + ink_box[2] + 2, y + ink_box[3] + 1), fill=fill)
    draw_text(img, x, y, letter, letter_px, own.letters[colour])
    return img


@lru_cache(maxsize=8)
def _background(theme: Theme, size: int, language: Hashable, chain: fonts.FontChain) -> Image.Image:
    """The parts that never change: panel, board frame, coordinates, panel title. The title is in the current
    language and drawn with the fonts in use, so `language` (`wording.language()`) and `chain` are part of
    the cache key."""
    lay = square_layout(size, 8)
    pg = lay.pg
    img = new_canvas(pg, theme)
    lay.draw_frame(img, theme)
    px0, py0, _, _ = pg.panel
    draw_text(img, px0 + pg.px(18), py0 + pg.px(12), wording.text("paintscape.title"), pg.px(21), theme.ink)
    small = pg.px(SMALL_PX)
    draw_wrapped(img, px0 + pg.px(18), py0 + pg.px(40), _rule(), small, theme.muted, _rule_width(pg))
    return img


def _rule() -> str:
    return wording.text("paintscape.rule", count=COLLECT_AT)


def _rule_width(pg: Any) -> int:
    return int(pg.panel[2] - pg.panel[0] - pg.px(30))


def _rule_extra(pg: Any) -> int:
    """How far the colour rows move down for the rule's lines after the first (a longer translation)."""
    small = pg.px(SMALL_PX)
    return (len(wrap_text(_rule(), small, _rule_width(pg))) - 1) * line_pitch(small)


# --------------------------------------------------------------------------------------------- drawing


def _stone_colours(theme: Theme, colour: int) -> tuple[RGB, RGB]:
    return (
        (own_colours(theme).stone_black, own_colours(theme).stone_black_rim)
        if colour == 0
        else (own_colours(theme).stone_white, own_colours(theme).stone_white_rim)
    )


def _tile_map(tiles: Sequence[int]) -> list[int]:
    """The tile colour on each square, -1 for a bare square."""
    tile_of = [-1] * 64
    for colour, bits in enumerate(tiles):
        for i in bits_of(bits):
            tile_of[i] = colour
    return tile_of


@lru_cache(maxsize=8)
def _tiles_layer(
    theme: Theme, size: int, tiles: tuple[int, ...], chain: fonts.FontChain, letters: tuple[str, ...]
) -> Image.Image:
    """The squares and their tiles (with the tile `letters` of the language in use) with the grid, as a crop
    of the board area. Tiles move only while the balancer swaps, so one match (or one replay) draws this once
    and pastes it for every later position."""
    lay = square_layout(size, 8)
    tile_of = _tile_map(tiles)
    layer = Image.new(
        "RGB", (lay.right - lay.left + 1, lay.bottom - lay.top + 1), own_colours(theme).bare_square
    )
    letter_px = lay.pg.px(16)
    for i in range(64):
        if tile_of[i] >= 0:
            left, top, _, _ = lay.box(i)
            layer.paste(
                _tile_image(theme, tile_of[i], lay.cell, letter_px, fonts.chain(), letters[tile_of[i]]),
                (left - lay.left, top - lay.top),
            )
    draw = ImageDraw.Draw(layer)
    for n in range(9):
        x = y = n * lay.cell
        draw.line(((x, 0), (x, 8 * lay.cell)), fill=theme.grid_line, width=1)
        draw.line(((0, y), (8 * lay.cell, y)), fill=theme.grid_line, width=1)
    return layer


def _squares(
    state: Any, theme: Theme, lay: SquareLayout
) -> tuple[list[int], list[int], list[Image.Image | None]]:
    """Each square's tile colour (-1: bare), stone colour (-1: none) and stone sprite."""
    tile_of = _tile_map(tuple(state.tiles))
    stone_of = [-1] * 64
    for colour, bits in ((0, state.black), (1, state.white)):
        for i in bits_of(bits):
            stone_of[i] = colour
    return tile_of, stone_of, [_stone_sprite(theme, lay, tile_of[i], stone_of[i]) for i in range(64)]


def _stones_inside(sprites: list[Image.Image | None], lay: SquareLayout) -> bool:
    """Whether every stone stays inside its square (a stone larger than its square, on small images,
    overlaps its neighbours)."""
    return all(sprite is None or _fits(lay, i, sprite.size) for i, sprite in enumerate(sprites))


@lru_cache(maxsize=4096)
def _fits(lay: SquareLayout, i: int, size: tuple[int, int]) -> bool:
    """Whether a sprite of `size` pasted centred on square i stays inside it (`inside_cell`)."""
    return inside_cell(Image.new("L", size), lay.box(i), *lay.centre(i))


def _draw_board(
    img: Image.Image,
    state: Any,
    theme: Theme,
    lay: SquareLayout,
    only: set[int] | None = None,
) -> None:
    """The squares with their tiles and stones, and the grid. Each square comes from `SQUARES` as drawn
    before with the same tile and stone; where a stone is larger than its square (small images), the whole
    board is drawn in layers as before: tiles and grid, then the stones. With `only`, those squares alone
    (without the grid's right and bottom edges)."""
    tile_of, stone_of, sprites = _squares(state, theme, lay)
    letters = tile_letters()
    if only is None and not _stones_inside(sprites, lay):
        layer = _tiles_layer(theme, lay.pg.width, tuple(state.tiles), fonts.chain(), letters)
        img.paste(layer, (lay.left, lay.top))
        for i, sprite in enumerate(sprites):
            if sprite is not None:
                paste_centred(img, sprite, *lay.centre(i))
        return
    letter_px = lay.pg.px(16)
    for i, sprite in enumerate(sprites):
        if only is not None and i not in only:
            continue
        letter = letters[tile_of[i]] if tile_of[i] >= 0 else ""
        paint = partial(_draw_square, img, theme, lay, i, tile_of[i], letter_px, sprite, letter)
        SQUARES.draw(img, lay.box(i), (theme, lay.pg.width, tile_of[i], stone_of[i], letter), paint)
    if only is None:
        _draw_edges(img, theme, lay)


def _draw_edges(img: Image.Image, theme: Theme, lay: SquareLayout) -> None:
    """The grid's right and bottom edges (each square holds its left and top ones)."""
    draw = ImageDraw.Draw(img)
    draw.line(((lay.right, lay.top), (lay.right, lay.bottom)), fill=theme.grid_line, width=1)
    draw.line(((lay.left, lay.bottom), (lay.right, lay.bottom)), fill=theme.grid_line, width=1)


def _stone_sprite(theme: Theme, lay: SquareLayout, tile: int, stone: int) -> Image.Image | None:
    """The stone of colour `stone` (-1: none) as drawn on a tile (with a shadow) or on a bare square."""
    if stone < 0:
        return None
    fill, edge = _stone_colours(theme, stone)
    radius = lay.cell * (0.33 if tile >= 0 else 0.40)
    return disc_sprite(radius, fill, edge, max(1.0, lay.pg.k * 2), tile >= 0)


def _draw_square(
    img: Image.Image,
    theme: Theme,
    lay: SquareLayout,
    i: int,
    tile: int,
    letter_px: int,
    stone: Image.Image | None,
    letter: str,
) -> None:
    """One square as `_tiles_layer` and the stones draw it: its tile (with its `letter`; or the bare
    colour), the grid lines on its left and top edges, its stone."""
    left, top, right, bottom = lay.box(i)
    if tile >= 0:
        paste_opaque(img, _tile_image(theme, tile, lay.cell, letter_px, fonts.chain(), letter), left, top)
    else:
        img.paste(own_colours(theme).bare_square, (left, top, right, bottom))
    draw = ImageDraw.Draw(img)
    draw.line(((left, top), (left, bottom - 1)), fill=theme.grid_line, width=1)
    draw.line(((left, top), (right - 1, top)), fill=theme.grid_line, width=1)
    if stone is not None:
        paste_centred(img, stone, *lay.centre(i))


SQUARES = RegionCache(1024)
"""Squares as drawn, by theme, size, square, the tile on it (and its letter) and the stone on that."""


def _mark_last_move(img: Image.Image, squares: list[int], theme: Theme, lay: SquareLayout) -> None:
    draw = ImageDraw.Draw(img)
    width = lay.pg.px(4)
    for n, i in enumerate(squares):
        left, top, right, bottom = lay.box(i)
        edge = max(1, lay.pg.px(2))
        draw.rectangle((left, top, right, bottom), outline=theme.ink, width=edge)
        draw.rectangle(
            (left + edge, top + edge, right - edge, bottom - edge), outline=theme.highlight, width=width
        )
        inner = edge + width
        draw.rectangle(
            (left + inner, top + inner, right - inner, bottom - inner),
            outline=theme.highlight_ink,
            width=edge,
        )
        if n == len(squares) - 1:
            cx, cy = lay.centre(i)
            mark_ring(img, cx, cy, lay.cell * 0.41, theme, lay.pg.k)
    if len(squares) == 2:
        a, b = lay.centre(squares[0]), lay.centre(squares[1])
        draw.line((a, b), fill=theme.highlight, width=max(2, lay.pg.px(3)))


def _adjacent_free(state: Any, colour: int, tile_bits: int) -> int:
    """Free tiles of a colour next to the stones of one stone colour (where it could play now)."""
    own = state.black if colour == 0 else state.white
    reachable: int = GRID.grow(own) & tile_bits & ~(state.black | state.white)
    return reachable


def _draw_panel(
    img: Image.Image,
    state: Any,
    theme: Theme,
    lay: SquareLayout,
    colour_names: list[str],
    last_move: str | None,
    over: bool,
) -> None:
    pg = lay.pg
    race = engine.race(state)
    draw = ImageDraw.Draw(img)
    px0, py0, px1, py1 = pg.panel
    row_h = pg.px(84)
    swatch = pg.px(46)
    pip_r = pg.px(8)
    pip_step = pg.px(21)
    for colour in range(5):
        top = py0 + pg.px(70) + _rule_extra(pg) + colour * row_h
        left = px0 + pg.px(18)
        collector = state.collected[colour]
        left_out = collector is None and not state.tiles[colour]
        tile = _tile_image(theme, colour, swatch, pg.px(16), fonts.chain(), tile_letters()[colour])
        if collector is not None or left_out:
            tile = Image.blend(tile, Image.new("RGB", tile.size, theme.panel), 0.55)
        img.paste(tile, (left, top))
        draw.rectangle((left, top, left + swatch - 1, top + swatch - 1), outline=theme.grid_line)
        text_left = left + swatch + pg.px(12)
        name_px, small_px = pg.px(18), pg.px(SMALL_PX)
        draw_text(img, text_left, top - pg.px(3), _colour_name(colour), name_px, theme.ink)
        if left_out:
            absent = wording.text("paintscape.absent")
            draw_text(img, text_left, top + pg.px(35), absent, small_px, theme.muted, "lc")
            continue
        if collector is not None:
            fill, edge = _stone_colours(theme, collector)
            cy = top + pg.px(35)
            paste_centred(img, disc_sprite(pip_r, fill, edge, max(1.0, pg.k * 1.5)), text_left + pip_r, cy)
            who = colour_names[collector]
            draw_text(
                img,
                text_left + 2 * pip_r + pg.px(8),
                cy,
                fit_text(
                    wording.text("paintscape.collected_by", name=who), small_px, px1 - text_left - pg.px(40)
                ),
                small_px,
                theme.ink,
                "lc",
            )
            draw.line((left, top + swatch, left + swatch, top), fill=theme.ink, width=pg.px(2))
            continue
        black_n, white_n, free_n = race[colour]
        free = wording.plural("paintscape.free", free_n)
        draw_text(img, px1 - pg.px(18), top - pg.px(3), free, small_px, theme.muted, "rt")
        tile_bits = state.tiles[colour]
        below: list[str] = []  # "can take" notes too long for their place: one line under the rows
        for row, (stone_colour, count) in enumerate(((0, black_n), (1, white_n))):
            cy = top + pg.px(29) + row * pg.px(23)
            letter = wording.text(
                ("paintscape.stone_letter.black", "paintscape.stone_letter.white")[stone_colour]
            )
            half = math.ceil(pip_r) + 1  # a pip sprite reaches this far from its centre
            right = text_left + pg.px(22) + pip_r + (COLLECT_AT - 1) * pip_step + half
            box = (text_left, cy - half, right, cy + half)  # left of the note; the texts above are in the key
            key = (theme, pg.width, _colour_name(colour), free, stone_colour, count, letter, fonts.chain())
            PIPS.draw(
                img, box, key, partial(_draw_pips, img, pg, theme, text_left, cy, letter, stone_colour, count)
            )
            note_left = text_left + pg.px(22) + COLLECT_AT * pip_step + pg.px(6)
            reachable = _adjacent_free(state, stone_colour, tile_bits)
            progress = wording.text("paintscape.progress", count=count, goal=COLLECT_AT)
            if count == COLLECT_AT - 1 and reachable and state.phase == "play" and not over:
                note = wording.text("paintscape.can_take", name=colour_names[stone_colour])
                if text_width(note, small_px) <= px1 - note_left - pg.px(12):
                    draw_text(img, note_left, cy, note, small_px, theme.highlight, "lc")
                    continue
                below.append(note)
                draw_text(img, note_left, cy, progress, small_px, theme.highlight, "lc")
            else:
                draw_text(img, note_left, cy, progress, small_px, theme.muted, "lc")
        if below:
            draw_wrapped(
                img,
                text_left,
                top + pg.px(62),
                " · ".join(below),
                small_px,
                theme.highlight,
                px1 - text_left - pg.px(12),
            )
    if last_move:
        draw_text(
            img,
            px0 + pg.px(18),
            py1 - pg.px(16),
            fit_text(
                wording.text("last_move", move=_move_words(last_move)),
                pg.px(SMALL_PX),
                px1 - px0 - pg.px(36),
            ),
            pg.px(SMALL_PX),
            theme.ink,
            "lb",
        )


PIPS = RegionCache(512)
"""A race row's letter and pips as drawn, by theme, size, row, count and language (the colour's name above
them is part of the key): one paste instead of six."""


def _draw_pips(
    img: Image.Image,
    pg: Page,
    theme: Theme,
    text_left: int,
    cy: int,
    letter: str,
    stone_colour: int,
    count: int,
) -> None:
    """One stone colour's letter and its stones on a tile colour: `count` of the six that collect it."""
    draw = ImageDraw.Draw(img)
    pip_r, pip_step = pg.px(8), pg.px(21)
    fill, edge = _stone_colours(theme, stone_colour)
    draw_text(img, text_left, cy, letter, pg.px(SMALL_PX), theme.muted, "lc")
    slot = blend(theme.panel, theme.muted, 0.3)
    for n in range(COLLECT_AT):
        cx = text_left + pg.px(22) + pip_r + n * pip_step
        if n < count:
            paste_centred(img, disc_sprite(pip_r, fill, edge, max(1.0, pg.k * 1.5)), cx, cy)
        else:
            dot = pip_r * 0.45
            draw.ellipse((cx - dot, cy - dot, cx + dot, cy + dot), fill=slot)


def _colour_name(colour: int) -> str:
    return wording.text(f"paintscape.colour.{COLOURS[colour]}")


def _stone_name(colour: int) -> str:
    return wording.text(("paintscape.stone.black", "paintscape.stone.white")[colour])


def _names_by_colour(state: Any, names: list[str]) -> list[str]:
    """Display names for the Black and White stone colours ("Alice (Black)"), or just the colour."""
    if state.black_seat is None:
        return [_stone_name(0), _stone_name(1)]
    seat_of = (state.black_seat, 1 - state.black_seat)
    return [wording.with_role(names[seat_of[c]], _stone_name(c)) for c in (0, 1)]


def _player_by_colour(state: Any, names: list[str]) -> list[str]:
    """The player's name for each stone colour, or the colour's name before colours are chosen."""
    if state.black_seat is None:
        return [_stone_name(0), _stone_name(1)]
    return [names[state.black_seat], names[1 - state.black_seat]]


def _chips(rules: Any, state: Any, names: list[str], theme: Theme, outcome: Outcome | None) -> list[SeatChip]:
    to_move = rules.to_move(state)
    chips = []
    for seat in range(2):
        if state.black_seat is None:
            fill, rim = blend(theme.header, theme.header_ink, 0.35), theme.header_muted
            swaps = state.swapped.bit_count()
            detail = (
                wording.plural("paintscape.swaps", swaps) if seat == 0 else wording.text("paintscape.picks")
            )
        else:
            colour = 0 if seat == state.black_seat else 1
            fill, rim = _stone_colours(theme, colour)
            got = sum(1 for c in state.collected if c == colour)
            detail = wording.plural("paintscape.colours", got)
        chips.append(
            SeatChip(
                name=names[seat],
                role=wording.word(rules.seat_label(state, seat)),
                detail=detail,
                fill=fill,
                rim=rim,
                to_move=outcome is None and to_move == seat,
                winner=outcome is not None and seat in outcome.winners,
            )
        )
    return chips


def _phase_note(state: Any) -> str:
    if state.phase in ("balance", "choose"):
        return wording.text(f"paintscape.note.{state.phase}")
    return ""


def draw(
    state: Any,
    *,
    last_move: str | None,
    players: Sequence[str] | None,
    theme: Theme,
    size: int,
    outcome: Outcome | None = None,
) -> Image.Image:
    """The whole Paintscape image for `state`; `outcome` (a resignation, timeout, abort) overrides the
    engine's."""
    rules = games.get("paintscape")
    outcome = final_outcome(rules, state, outcome)
    lay = square_layout(size, 8)
    names = seat_names(rules, state, players, 2)
    img = _background(theme, size, wording.language(), fonts.chain()).copy()
    _draw_board(img, state, theme, lay)
    _mark_last_move(img, last_move_squares(last_move), theme, lay)
    _draw_panel(img, state, theme, lay, _player_by_colour(state, names), last_move, outcome is not None)
    note = "" if outcome is not None else _phase_note(state)
    status = status_text(rules, state, names, note, outcome)
    draw_header(img, lay.pg, theme, _chips(rules, state, names, theme, outcome), status)
    return img


def describe(
    state: Any, *, last_move: str | None, players: Sequence[str] | None, outcome: Outcome | None = None
) -> str:
    """The position in words: players and scores, whose turn or the result, the race per colour, where the
    stones are."""
    rules = games.get("paintscape")
    names = seat_names(rules, state, players, 2)
    race = engine.race(state)
    colour_names = _names_by_colour(state, names)
    over = final_outcome(rules, state, outcome) is not None
    status = status_text(rules, state, names, "" if over else _phase_note(state), outcome)
    parts = [wording.text("alt.board", game=wording.text("paintscape.alt.game"), status=status)]
    if last_move:
        parts.append(wording.text("alt.last_move", move=_move_words(last_move)))
    scores = []
    for c in (0, 1):
        got = sum(1 for k in state.collected if k == c)
        scores.append(wording.plural("paintscape.alt.has", got, name=colour_names[c]))
    parts.append(wording.sentence(wording.items(scores)))
    races = []
    for k in range(5):
        colour = _colour_name(k)
        if state.collected[k] is not None:
            races.append(
                wording.text("paintscape.alt.collected", colour=colour, name=colour_names[state.collected[k]])
            )
        elif not state.tiles[k]:
            races.append(wording.text("paintscape.alt.absent", colour=colour))
        else:
            b, w, free = race[k]
            races.append(wording.text("paintscape.alt.race_row", colour=colour, black=b, white=w, free=free))
    parts.append(wording.text("paintscape.alt.race", rows=wording.items(races)))
    none = wording.text("alt.none")
    black = " ".join(GRID.label(i) for i in bits_of(state.black)) or none
    white = " ".join(GRID.label(i) for i in bits_of(state.white)) or none
    parts.append(wording.text("paintscape.alt.black_stones", cells=black))
    parts.append(wording.text("paintscape.alt.white_stones", cells=white))
    return wording.sentences(parts)


def cell_polygons(state: Any, size: int) -> tuple[tuple[tuple[float, float], ...], ...]:
    """Each square's corners in the pixels of `draw(size=size)` (square i is `GRID`'s square i), for hosts
    that draw on the image (`renderer.scene`)."""
    return square_polygons(square_layout(size, 8))


def cell_labels(state: Any) -> tuple[str, ...]:
    """Each square's name as a player types it (a1...h8)."""
    return GRID.labels


@lru_cache(maxsize=8)
def _board_base(theme: Theme, size: int, language: Hashable, chain: fonts.FontChain) -> Image.Image:
    """`_background` with the grid's right and bottom edges: the pixels round the squares as `draw` leaves
    them under the last move's marks (which reach a pixel or so past their squares)."""
    img = _background(theme, size, language, chain).copy()
    _draw_edges(img, theme, square_layout(size, 8))
    return img


@lru_cache(maxsize=8)
def _panel_background(theme: Theme, size: int, language: Hashable, chain: fonts.FontChain) -> Image.Image:
    """The panel's box of `_background`: what the panel is drawn over."""
    return _background(theme, size, language, chain).crop(square_layout(size, 8).pg.panel)


def _marked(squares: list[int], lay: SquareLayout) -> tuple[set[int], list[Box]]:
    """What the last move's marks (`_mark_last_move`) may touch: the squares from the first marked one to
    the last (a swap's line runs between them) with every square beside them, and round each marked
    square a box a quarter of a square wider on every side, inside the board's area (its frames reach
    the next square's edge and past the grid's edges)."""
    if not squares:
        return set(), []
    files = [GRID.xy(i)[0] for i in squares]
    ranks = [GRID.xy(i)[1] for i in squares]
    near = {
        GRID.index(x, y)
        for x in range(max(0, min(files) - 1), min(7, max(files) + 1) + 1)
        for y in range(max(0, min(ranks) - 1), min(7, max(ranks) + 1) + 1)
    }
    area, reach = lay.pg.board, lay.cell // 4
    boxes = []
    for i in squares:
        left, top, right, bottom = lay.box(i)
        boxes.append(
            (
                max(area[0], left - reach),
                max(area[1], top - reach),
                min(area[2], right + reach),
                min(area[3], bottom + reach),
            )
        )
    return near, boxes


def redraw(img: Image.Image, before: Board, after: Board) -> list[Box] | None:
    """Draw on `img` the parts of `after`'s image that may differ from `before`'s (see
    `renderer.incremental`): the header, the panel, and the squares whose tile or stone changed or that
    either move's marks touch, each from nothing in the order `draw` paints them; returns their boxes.
    None where stones overlap their neighbours (small images)."""
    theme, size = after.theme, after.size
    rules = games.get("paintscape")
    lay = square_layout(size, 8)
    pg = lay.pg
    state, old = after.state, before.state
    tiles, stones, sprites = _squares(state, theme, lay)
    old_tiles, old_stones, old_sprites = _squares(old, theme, lay)
    if not (_stones_inside(sprites, lay) and _stones_inside(old_sprites, lay)):
        return None
    marked, marks = last_move_squares(after.last_move), last_move_squares(before.last_move)
    near, boxes = _marked(marked, lay)
    old_near, old_boxes = _marked(marks, lay)
    dirty = near | old_near
    dirty.update(i for i in range(64) if tiles[i] != old_tiles[i] or stones[i] != old_stones[i])
    language, chain = wording.language(), fonts.chain()
    base = _board_base(theme, size, language, chain)
    for box in boxes + old_boxes:  # what lies past the squares under a mark; the squares come next
        paste_opaque(img, base.crop(box), box[0], box[1])
    _draw_board(img, state, theme, lay, only=dirty)
    _mark_last_move(img, marked, theme, lay)
    outcome = final_outcome(rules, state, after.outcome)
    names = seat_names(rules, state, after.players, 2)
    paste_opaque(img, _panel_background(theme, size, language, chain), pg.panel[0], pg.panel[1])
    _draw_panel(img, state, theme, lay, _player_by_colour(state, names), after.last_move, outcome is not None)
    note = "" if outcome is not None else _phase_note(state)
    status = status_text(rules, state, names, note, outcome)
    draw_header(img, pg, theme, _chips(rules, state, names, theme, outcome), status)
    drawn: list[Box] = [pg.header, pg.panel, *boxes, *old_boxes]
    for i in sorted(dirty):  # one box per run of squares drawn along a row (never one not drawn)
        box = lay.box(i)
        if i % 8 and i - 1 in dirty:
            drawn[-1] = (drawn[-1][0], box[1], box[2], box[3])
        else:
            drawn.append(box)
    return drawn
