"""Paintscape board: tiles in five colours (each with its letter, RULES 1.9, and hatching in the colour-blind
theme), black and white stones (a stone on a tile keeps a frame of the tile around it and casts a shadow, so
stacks read at a glance), and beside the board the race for every colour: each player's stones on it out of
the six that collect it, and its free tiles. Collected colours show who took them.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

import games
from games.base import Outcome
from games.grids import SquareGrid, bits_of
from games.paintscape import rules as engine
from games.texts import N_
from renderer import fonts, painter
from renderer import text as wording
from renderer.builder import inclusive, label, last_ring, panel_background, square_frame, square_grid, wrapped
from renderer.canvas import (
    Page,
    SquareLayout,
    final_outcome,
    fit_text,
    line_pitch,
    seat_names,
    square_layout,
    square_polygons,
    status_text,
    text_mask,
    text_width,
    wrap_text,
)
from renderer.scene import (
    Circle,
    Counter,
    Hatch,
    Kind,
    Layer,
    Line,
    Panel,
    Part,
    Pattern,
    Primitive,
    Rect,
    Scene,
    Seat,
    Shading,
    Show,
    TextLine,
)
from renderer.theme import RGB, Theme, Token, game_colours, mix

TILE_LETTERS = ("Y", "R", "C", "P", "N")
"""Paintscape tile letters (RULES 1.9): yellow, red, cyan, pink, browN."""


class Colours(NamedTuple):
    """Paintscape's colours in one theme, from its plugin (games/paintscape_colours.py)."""

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


# --------------------------------------------------------------------------------------------- scene

PATTERNS: dict[int, Hatch] = {1: Hatch.HATCH, 2: Hatch.STRIPES, 3: Hatch.DOTS, 4: Hatch.CROSS}
"""Each tile colour's second cue: red rising diagonals, cyan stripes, pink dots, brown cross-hatch; yellow
stays plain (the lightest tile, told apart by lightness and its letter)."""


def _rule() -> str:
    return wording.text("paintscape.rule", count=COLLECT_AT)


def _rule_width(pg: Any) -> int:
    return int(pg.panel[2] - pg.panel[0] - pg.px(30))


def _rule_extra(pg: Any) -> int:
    """How far the colour rows move down for the rule's lines after the first (a longer translation)."""
    small = pg.px(SMALL_PX)
    return (len(wrap_text(_rule(), small, _rule_width(pg))) - 1) * line_pitch(small)


@lru_cache(maxsize=8)
def _fixed(size: int, language: Hashable, chain: fonts.FontChain) -> tuple[Primitive, ...]:
    """What never changes: the panel, the board's frame and coordinates, the panel's title and its rule.
    The texts are in the current language and measured in the fonts in use (both part of the key)."""
    lay = square_layout(size, 8)
    pg = lay.pg
    px0, py0, _, _ = pg.panel
    items: list[Primitive] = [panel_background(pg), *square_frame(lay)]
    items.append(
        TextLine(
            key="panel:title",
            kind=Kind.LABEL,
            layer=Layer.PANEL,
            at=(px0 + pg.px(18), py0 + pg.px(12)),
            text=wording.text("paintscape.title"),
            size=pg.px(21),
            colour="ink",
        )
    )
    small = pg.px(SMALL_PX)
    items.extend(
        wrapped("panel:rule", px0 + pg.px(18), py0 + pg.px(40), _rule(), small, "muted", _rule_width(pg))
    )
    return tuple(items)


def _fade(token: Token, fade: bool) -> Token:
    """A colour of a swatch greyed towards the panel (a colour collected or not in the game)."""
    return mix(token, "panel", 0.55) if fade else token


@lru_cache(maxsize=512)
def _tile(
    key: str,
    colour: int,
    left: int,
    top: int,
    side: int,
    letter_px: int,
    *,
    cells: tuple[int, ...] = (),
    layer: Layer = Layer.BOARD,
    kind: Kind = Kind.CELL,
    faded: bool = False,
    outline: bool = False,
) -> tuple[Primitive, ...]:
    """A tile of `colour` filling the square at (left, top): its fill, its pattern (second cues), its
    letter in the corner (RULES 1.9) on a plain patch where the pattern would cross it."""
    name = COLOURS[colour]
    fill, letter_ink = _fade(f"tile_{name}", faded), _fade(f"letter_{name}", faded)
    pattern = None
    if colour in PATTERNS:
        ink = _fade(mix(f"tile_{name}", f"letter_{name}", 0.45), faded)
        pattern = Pattern(PATTERNS[colour], ink, max(4, side // 6), max(1, side // 40))
    items: list[Primitive] = [
        Rect(
            key=key,
            kind=kind,
            layer=layer,
            cells=cells,
            box=(left, top, left + side, top + side),
            fill=fill,
            stroke="grid_line" if outline else None,
            pattern=pattern,
        )
    ]
    letter = TILE_LETTERS[colour]
    x, y = left + max(2, side // 14), top + max(1, side // 24)
    mask = text_mask(letter, letter_px)
    ink_box = mask.getbbox() or (0, 0, mask.width, mask.height)
    items.append(
        Rect(
            key=f"{key}:patch",
            kind=kind,
            layer=layer,
            cells=cells,
            show=Show.CUES,
            box=inclusive(x - 1, y + ink_box[1] - 2, x + ink_box[2] + 2, y + ink_box[3] + 1),
            fill=fill,
        )
    )
    items.append(
        TextLine(
            key=f"{key}:letter",
            kind=Kind.LABEL,
            layer=layer,
            cells=cells,
            at=(x, y),
            text=letter,
            size=letter_px,
            colour=letter_ink,
        )
    )
    return tuple(items)


@lru_cache(maxsize=64)
def _tiles(size: int, tiles: tuple[int, ...], chain: fonts.FontChain) -> tuple[tuple[Primitive, ...], ...]:
    """Each square with its tile (its colour, pattern and letter) or bare. Tiles move only while the
    balancer swaps: one match builds these once."""
    lay = square_layout(size, 8)
    tile_of = _tile_map(tiles)
    letter_px = lay.pg.px(16)
    squares: list[tuple[Primitive, ...]] = []
    for i in range(64):
        left, top, right, bottom = lay.box(i)
        if tile_of[i] >= 0:
            squares.append(_tile(f"cell:{i}", tile_of[i], left, top, lay.cell, letter_px, cells=(i,)))
        else:
            bare = Rect(
                key=f"cell:{i}",
                kind=Kind.CELL,
                cells=(i,),
                box=(left, top, right, bottom),
                fill="bare_square",
            )
            squares.append((bare,))
    return tuple(squares)


def _board(state: Any, lay: SquareLayout) -> list[Primitive]:
    """The squares, the grid and the stones. Where every stone stays inside its square each square comes
    with its stone (a run the painter keeps drawn: `renderer.painter.RUNS`), then the grid; where stones
    are larger than their squares (small images), the squares, the grid, then the stones over them."""
    squares = _tiles(lay.pg.width, tuple(state.tiles), fonts.chain())
    stones = _stones(state, lay)
    items: list[Primitive] = []
    if all(_inside(stone, lay) for stone in stones):
        on = {stone.cells[0]: stone for stone in stones}
        for i, square in enumerate(squares):
            items.extend(square)
            if i in on:
                items.append(on[i])
        items.extend(square_grid(lay))
    else:
        for square in squares:
            items.extend(square)
        items.extend(square_grid(lay))
        items.extend(stones)
    return items


@lru_cache(maxsize=2048)
def _inside(stone: Circle, lay: SquareLayout) -> bool:
    """Whether everything the stone paints lies inside its square."""
    x0, y0, x1, y1 = painter.bounds(stone, None)
    left, top, right, bottom = lay.box(stone.cells[0])
    return x0 >= left and y0 >= top and x1 <= right and y1 <= bottom


def _stone_tokens(colour: int) -> tuple[Token, Token]:
    return ("stone_black", "stone_black_rim") if colour == 0 else ("stone_white", "stone_white_rim")


def _tile_map(tiles: Sequence[int]) -> list[int]:
    """The tile colour on each square, -1 for a bare square."""
    tile_of = [-1] * 64
    for colour, bits in enumerate(tiles):
        for i in bits_of(bits):
            tile_of[i] = colour
    return tile_of


def _stones(state: Any, lay: SquareLayout) -> list[Circle]:
    """The stones, in square order: on a tile smaller, with a shadow and a frame of the tile round it; on a
    bare square larger."""
    tile_of = _tile_map(tuple(state.tiles))
    stone_of = dict.fromkeys(bits_of(state.black), 0) | dict.fromkeys(bits_of(state.white), 1)
    return [_stone(i, stone_of[i], tile_of[i] >= 0, lay) for i in sorted(stone_of)]


@lru_cache(maxsize=1024)
def _stone(i: int, colour: int, on_tile: bool, lay: SquareLayout) -> Circle:
    fill, edge = _stone_tokens(colour)
    return Circle(
        key=f"stone:{i}",
        kind=Kind.STONE,
        cells=(i,),
        centre=lay.centre(i),
        r=lay.cell * (0.33 if on_tile else 0.40),
        fill=fill,
        stroke=edge,
        width=max(1.0, lay.pg.k * 2),
        shading=Shading.SHADOW if on_tile else Shading.FLAT,
    )


@lru_cache(maxsize=256)
def _marks(squares: tuple[int, ...], lay: SquareLayout) -> tuple[Primitive, ...]:
    """The last move's marks: each square framed (ink, highlight, a light inner line), a ring on the last
    one, and a swap's line between its two squares."""
    pg = lay.pg
    width = pg.px(4)
    edge = max(1, pg.px(2))
    inner = edge + width
    items: list[Primitive] = []
    for n, i in enumerate(squares):
        left, top, right, bottom = lay.box(i)
        items.append(
            Rect(
                key=f"mark:{n}:edge",
                kind=Kind.HIGHLIGHT,
                cells=(i,),
                box=inclusive(left, top, right, bottom),
                stroke="ink",
                width=edge,
            )
        )
        items.append(
            Rect(
                key=f"mark:{n}",
                kind=Kind.HIGHLIGHT,
                cells=(i,),
                box=inclusive(left + edge, top + edge, right - edge, bottom - edge),
                stroke="highlight",
                width=width,
            )
        )
        items.append(
            Rect(
                key=f"mark:{n}:inner",
                kind=Kind.HIGHLIGHT,
                cells=(i,),
                box=inclusive(left + inner, top + inner, right - inner, bottom - inner),
                stroke="highlight_ink",
                width=edge,
            )
        )
        if n == len(squares) - 1:
            items.append(last_ring("mark:last", *lay.centre(i), lay.cell * 0.41, pg.k, (i,)))
    if len(squares) == 2:
        items.append(
            Line(
                key="mark:swap",
                kind=Kind.HIGHLIGHT,
                cells=tuple(squares),
                points=(lay.centre(squares[0]), lay.centre(squares[1])),
                stroke="highlight",
                width=max(2, pg.px(3)),
            )
        )
    return tuple(items)


def _panel_items(
    state: Any, lay: SquareLayout, colour_names: list[str], last_move: str | None, over: bool
) -> list[Primitive]:
    """The race for every colour (a row each: its swatch, its name, each stone colour's stones on it out
    of the six that collect it, its free tiles or who collected it) and the last move."""
    pg = lay.pg
    race = engine.race(state)
    px0, py0, px1, py1 = pg.panel
    row_h = pg.px(84)
    swatch = pg.px(46)
    pip_r = pg.px(8)
    pip_step = pg.px(21)
    name_px, small_px = pg.px(18), pg.px(SMALL_PX)
    items: list[Primitive] = []

    def text(
        key: str, at: tuple[float, float], words: str, px: int, colour: Token, anchor: str = "lt"
    ) -> None:
        items.append(label(key, at, words, px, colour, anchor))

    for colour in range(5):
        name = COLOURS[colour]
        top = py0 + pg.px(70) + _rule_extra(pg) + colour * row_h
        left = px0 + pg.px(18)
        collector = state.collected[colour]
        left_out = collector is None and not state.tiles[colour]
        items.extend(
            _tile(
                f"race:{name}",
                colour,
                left,
                top,
                swatch,
                pg.px(16),
                layer=Layer.PANEL,
                kind=Kind.LEGEND,
                faded=collector is not None or left_out,
                outline=True,
            )
        )
        text_left = left + swatch + pg.px(12)
        text(f"race:{name}:name", (text_left, top - pg.px(3)), _colour_name(colour), name_px, "ink")
        if left_out:
            text(
                f"race:{name}:absent",
                (text_left, top + pg.px(35)),
                wording.text("paintscape.absent"),
                small_px,
                "muted",
                "lc",
            )
            continue
        if collector is not None:
            fill, edge = _stone_tokens(collector)
            cy = top + pg.px(35)
            items.append(
                Circle(
                    key=f"race:{name}:collector",
                    kind=Kind.LEGEND,
                    layer=Layer.PANEL,
                    centre=(text_left + pip_r, cy),
                    r=pip_r,
                    fill=fill,
                    stroke=edge,
                    width=max(1.0, pg.k * 1.5),
                )
            )
            who = colour_names[collector]
            note = fit_text(
                wording.text("paintscape.collected_by", name=who), small_px, px1 - text_left - pg.px(40)
            )
            text(
                f"race:{name}:collected", (text_left + 2 * pip_r + pg.px(8), cy), note, small_px, "ink", "lc"
            )
            items.append(
                Line(
                    key=f"race:{name}:struck",
                    kind=Kind.LEGEND,
                    layer=Layer.PANEL,
                    points=((left, top + swatch), (left + swatch, top)),
                    stroke="ink",
                    width=pg.px(2),
                )
            )
            continue
        black_n, white_n, free_n = race[colour]
        free = wording.plural("paintscape.free", free_n)
        text(f"race:{name}:free", (px1 - pg.px(18), top - pg.px(3)), free, small_px, "muted", "rt")
        tile_bits = state.tiles[colour]
        below: list[str] = []  # "can take" notes too long for their place: one line under the rows
        for row, (stone_colour, count) in enumerate(((0, black_n), (1, white_n))):
            cy = top + pg.px(29) + row * pg.px(23)
            key = f"race:{name}:{row}"
            letter = wording.text(
                ("paintscape.stone_letter.black", "paintscape.stone_letter.white")[stone_colour]
            )
            items.extend(_pips(key, pg, text_left, cy, letter, stone_colour, count))
            note_left = text_left + pg.px(22) + COLLECT_AT * pip_step + pg.px(6)
            reachable = _adjacent_free(state, stone_colour, tile_bits)
            progress = wording.text("paintscape.progress", count=count, goal=COLLECT_AT)
            if count == COLLECT_AT - 1 and reachable and state.phase == "play" and not over:
                note = wording.text("paintscape.can_take", name=colour_names[stone_colour])
                if text_width(note, small_px) <= px1 - note_left - pg.px(12):
                    text(f"{key}:note", (note_left, cy), note, small_px, "highlight", "lc")
                    continue
                below.append(note)
                text(f"{key}:note", (note_left, cy), progress, small_px, "highlight", "lc")
            else:
                text(f"{key}:note", (note_left, cy), progress, small_px, "muted", "lc")
        if below:
            items.extend(
                wrapped(
                    f"race:{name}:below",
                    text_left,
                    top + pg.px(62),
                    " · ".join(below),
                    small_px,
                    "highlight",
                    px1 - text_left - pg.px(12),
                )
            )
    if last_move:
        words = fit_text(
            wording.text("last_move", move=_move_words(last_move)), pg.px(SMALL_PX), px1 - px0 - pg.px(36)
        )
        text("last_move", (px0 + pg.px(18), py1 - pg.px(16)), words, pg.px(SMALL_PX), "ink", "lb")
    return items


@lru_cache(maxsize=1024)
def _pips(
    key: str, pg: Page, text_left: int, cy: int, letter: str, stone_colour: int, count: int
) -> tuple[Primitive, ...]:
    """One stone colour's letter and its stones on a tile colour: `count` of the six that collect it."""
    pip_r, pip_step = pg.px(8), pg.px(21)
    fill, edge = _stone_tokens(stone_colour)
    items: list[Primitive] = [
        TextLine(
            key=f"{key}:letter",
            kind=Kind.LEGEND,
            layer=Layer.PANEL,
            at=(text_left, cy),
            text=letter,
            size=pg.px(SMALL_PX),
            colour="muted",
            anchor="lc",
        )
    ]
    for n in range(COLLECT_AT):
        cx = text_left + pg.px(22) + pip_r + n * pip_step
        if n < count:
            items.append(
                Circle(
                    key=f"{key}:pip{n}",
                    kind=Kind.LEGEND,
                    layer=Layer.PANEL,
                    centre=(cx, cy),
                    r=pip_r,
                    fill=fill,
                    stroke=edge,
                    width=max(1.0, pg.k * 1.5),
                )
            )
        else:
            items.append(
                Circle(
                    key=f"{key}:pip{n}",
                    kind=Kind.LEGEND,
                    layer=Layer.PANEL,
                    centre=(cx, cy),
                    r=pip_r * 0.45,
                    fill=mix("panel", "muted", 0.3),
                    shading=Shading.DOT,
                )
            )
    return tuple(items)


def _adjacent_free(state: Any, colour: int, tile_bits: int) -> int:
    """Free tiles of a colour next to the stones of one stone colour (where it could play now)."""
    own = state.black if colour == 0 else state.white
    reachable: int = GRID.grow(own) & tile_bits & ~(state.black | state.white)
    return reachable


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


def _phase_note(state: Any) -> str:
    if state.phase in ("balance", "choose"):
        return wording.text(f"paintscape.note.{state.phase}")
    return ""


def _panel(rules: Any, state: Any, names: list[str], outcome: Outcome | None, last_move: str | None) -> Panel:
    """The panel as data: the players (the header's chips), the race for every colour."""
    to_move = rules.to_move(state)
    seats = []
    for seat in range(2):
        if state.black_seat is None:
            fill, rim = mix("header", "header_ink", 0.35), "header_muted"
            swaps = state.swapped.bit_count()
            detail = (
                wording.plural("paintscape.swaps", swaps) if seat == 0 else wording.text("paintscape.picks")
            )
            score = None
        else:
            colour = 0 if seat == state.black_seat else 1
            fill, rim = _stone_tokens(colour)
            score = sum(1 for c in state.collected if c == colour)
            detail = wording.plural("paintscape.colours", score)
        seats.append(
            Seat(
                seat=seat,
                name=names[seat],
                role=wording.word(rules.seat_label(state, seat)),
                colour=fill,
                rim=rim,
                detail=detail,
                score=score,
                to_move=outcome is None and to_move == seat,
                winner=outcome is not None and seat in outcome.winners,
            )
        )
    race = engine.race(state)
    by_colour = _player_by_colour(state, names)
    counters = []
    for colour, name in enumerate(COLOURS):
        collector = state.collected[colour]
        black_n, white_n, free_n = race[colour]
        if collector is not None:
            note = wording.text("paintscape.collected_by", name=by_colour[collector])
        elif not state.tiles[colour]:
            note = wording.text("paintscape.absent")
        else:
            note = wording.plural("paintscape.free", free_n)
        counters.append(
            Counter(
                key=f"race:{name}",
                label=_colour_name(colour),
                parts=(
                    Part(label=by_colour[0], value=black_n, colour="stone_black", seat=_seat_of(state, 0)),
                    Part(label=by_colour[1], value=white_n, colour="stone_white", seat=_seat_of(state, 1)),
                ),
                goal=COLLECT_AT,
                note=note,
                colour=f"tile_{name}",
                done=collector is not None or not state.tiles[colour],
            )
        )
    note = "" if outcome is not None else _phase_note(state)
    return Panel(
        title=wording.text("paintscape.title"),
        status=status_text(rules, state, names, note, outcome),
        move=rules.moves_played(state),
        over=outcome is not None,
        last_move=wording.text("last_move", move=_move_words(last_move)) if last_move else "",
        players=tuple(seats),
        counters=tuple(counters),
        lines=(_rule(),),
    )


def _seat_of(state: Any, colour: int) -> int | None:
    """The seat playing a stone colour (None before colours are chosen)."""
    if state.black_seat is None:
        return None
    return int(state.black_seat) if colour == 0 else 1 - int(state.black_seat)


def scene(
    state: Any,
    *,
    last_move: str | None,
    players: Sequence[str] | None,
    size: int,
    outcome: Outcome | None = None,
) -> Scene:
    """The Paintscape board of `state` as a scene; `outcome` (a resignation, timeout, abort) overrides the
    engine's."""
    rules = games.get("paintscape")
    outcome = final_outcome(rules, state, outcome)
    lay = square_layout(size, 8)
    pg = lay.pg
    names = seat_names(rules, state, players, 2)
    fixed = _fixed(size, wording.language(), fonts.chain())
    items: list[Primitive] = [*fixed, *_board(state, lay)]
    items.extend(_marks(tuple(last_move_squares(last_move)), lay))
    items.extend(_panel_items(state, lay, _player_by_colour(state, names), last_move, outcome is not None))
    return Scene(
        game="paintscape",
        width=pg.width,
        height=pg.height,
        ply=state.ply,
        items=tuple(items),
        panel=_panel(rules, state, names, outcome, last_move),
        cells=square_polygons(lay),
        labels=GRID.labels,
        fixed=len(fixed),
    )


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
