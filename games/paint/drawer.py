"""Paint board: light (White's), dark (Black's) and neutral squares; discs carrying their rank (the number of
discs in their area); spheres; the last move's path from start to end, with a pushed sphere marked. Beside
the board: the tile count race, who leads and for how long, and the counters towards a win or a draw.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from functools import lru_cache, partial
from typing import Any, NamedTuple

from PIL import Image, ImageDraw

import games
from games.base import Outcome
from games.grids import SquareGrid, bits_of
from games.paint import rules as engine
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
    fit_name_with_role,
    fit_text,
    inside_cell,
    line_pitch,
    mark_ring,
    new_canvas,
    paste_centred,
    paste_opaque,
    ring_ink,
    seat_names,
    square_layout,
    square_polygons,
    status_text,
    text_width,
    thick_line,
    wrap_text,
)
from renderer.incremental import Board
from renderer.theme import RGB, Theme, blend, game_colours


class Colours(NamedTuple):
    """Paint's colours in one theme, from its plugin (games/paint/colours.py)."""

    neutral: RGB
    light: RGB
    """White's squares."""
    dark: RGB
    """Black's squares."""
    disc_white: RGB
    disc_white_ink: RGB
    disc_black: RGB
    disc_black_ink: RGB
    sphere: RGB
    sphere_rim: RGB


@lru_cache(maxsize=8)
def own_colours(theme: Theme) -> Colours:
    """The game's colours in `theme` (its plugin's `colours`)."""
    named = game_colours(theme, engine.RULES.id)
    return Colours(**{name: named[name] for name in Colours._fields})


TEXTS: dict[str, str] = {
    "paint.tiles": N_("Tiles"),
    "paint.seat.white": N_("White"),
    "paint.seat.black": N_("Black"),
    "paint.leads": N_("{name} leads"),
    "paint.nobody_leads": N_("Nobody leads"),
    "paint.unit.ply": N_("turns"),
    "paint.unit.own": N_("own turns"),
    "paint.lead_progress": N_("{count} of {goal} {unit} to win"),
    "paint.draw_progress": N_("{count} of {goal} {unit} to a draw"),
    "paint.no_lead_counter": N_("no lead: {count}/{goal}"),
    "paint.move_cap": N_("Move cap: {count} of {goal} moves"),
    "paint.key": N_("Key"),
    "paint.key.light": N_("White's square"),
    "paint.key.dark": N_("Black's square"),
    "paint.key.neutral": N_("neutral"),
    "paint.key.disc": N_("disc and its rank (discs in its area)"),
    "paint.key.sphere": N_("sphere (push it by stopping on it)"),
    "paint.sphere_to": N_("{move} (sphere to {cell})"),
    "paint.chip.tiles.one": N_("{count} tile"),
    "paint.chip.tiles.other": N_("{count} tiles"),
    "paint.chip.tiles_leads.one": N_("{count} tile · leads"),
    "paint.chip.tiles_leads.other": N_("{count} tiles · leads"),
    "paint.alt.game": N_("Paint"),
    "paint.alt.last_move_push": N_("Last move: {move}, sphere now on {cell}."),
    "paint.alt.tiles": N_("Tiles: {white} {white_tiles}, {black} {black_tiles}."),
    "paint.alt.led.one": N_("{seat} has led for {count} turn of {goal}."),
    "paint.alt.led.other": N_("{seat} has led for {count} of {goal} turns."),
    "paint.alt.no_lead.one": N_("Nobody leads; {count} turn of {goal} towards a draw."),
    "paint.alt.no_lead.other": N_("Nobody leads; {count} of {goal} turns towards a draw."),
    "paint.alt.disc": N_("{cell} rank {rank}"),
    "paint.alt.discs": N_("{seat} discs: {discs}."),
    "paint.alt.spheres": N_("Spheres: {cells}."),
}
"""This game's own texts on its images and in its alt text (`renderer.text.TEXTS` gathers them)."""

N = 9
GRID = SquareGrid(N, N)
SEAT_KEYS = ("paint.seat.white", "paint.seat.black")
_MOVE = re.compile(r"^\s*([a-i])\s*([1-9])\s*-?\s*([a-i])\s*([1-9])\s*$")


def parse_last_move(last_move: str | None) -> tuple[int, int] | None:
    """`c1-c5` -> (from square, to square); None for anything else."""
    if not last_move:
        return None
    found = _MOVE.match(last_move.lower())
    if not found:
        return None
    f1, r1, f2, r2 = found.groups()
    return GRID.index("abcdefghi".index(f1), int(r1) - 1), GRID.index("abcdefghi".index(f2), int(r2) - 1)


def pushed_sphere(state: Any, move: tuple[int, int] | None) -> int | None:
    """The square of the sphere the last move pushed, as the engine recorded it (None without a push)."""
    if move is None or state.pushed_to < 0:
        return None
    return int(state.pushed_to)


def path_squares(move: tuple[int, int]) -> list[int]:
    """The squares from the move's start to its end, inclusive."""
    (x1, y1), (x2, y2) = GRID.xy(move[0]), GRID.xy(move[1])
    dx, dy = (x2 > x1) - (x2 < x1), (y2 > y1) - (y2 < y1)
    steps = max(abs(x2 - x1), abs(y2 - y1))
    return [GRID.index(x1 + dx * k, y1 + dy * k) for k in range(steps + 1)]


@lru_cache(maxsize=8)
def _background(
    theme: Theme, size: int, language: Hashable, chain: fonts.FontChain, progress_lines: int
) -> Image.Image:
    """The parts that never change: panel, board frame, coordinates, the panel's title and its key. Those
    texts are in the current language and drawn with the fonts in use, which are part of the key; the key
    sits below the progress line, which a language may wrap onto `progress_lines` lines."""
    lay = square_layout(size, N)
    pg = lay.pg
    img = new_canvas(pg, theme)
    lay.draw_frame(img, theme)
    left, right = pg.panel[0] + pg.px(18), pg.panel[2] - pg.px(18)
    draw_text(img, left, pg.panel[1] + pg.px(14), wording.text("paint.tiles"), pg.px(21), theme.ink)
    _draw_key(img, pg, theme, left, right, progress_lines)
    return img


def _draw_key(img: Image.Image, pg: Page, theme: Theme, left: int, right: int, progress_lines: int) -> None:
    """The key: each kind of square, a disc with its rank, a sphere; each entry's words wrap where a language
    needs the room (the first line level with the swatch, the rest below)."""
    draw = ImageDraw.Draw(img)  # below the tiles, the lead and the counters
    small = pg.px(16)
    y = pg.panel[1] + pg.px(14) + pg.px(34) + pg.px(42) + pg.px(40) + pg.px(28) + pg.px(20) + pg.px(22)
    y += (progress_lines - 1) * line_pitch(small) + pg.px(40)
    draw_text(img, left, y, wording.text("paint.key"), pg.px(18), theme.ink)
    y += pg.px(26)
    sw = pg.px(22)
    key_room = right - left - sw - pg.px(8)

    def key_text(key: str) -> int:
        """The key's words beside its swatch at `y`; the height they take."""
        lines = wrap_text(wording.text(key), small, key_room)
        pitch = line_pitch(small)
        for n, line in enumerate(lines):
            draw_text(img, left + sw + pg.px(8), y + sw / 2 + n * pitch, line, small, theme.ink, "lm")
        return round(max(sw, sw / 2 + (len(lines) - 0.5) * pitch))

    for kind in ("light", "dark", "neutral"):
        img.paste(_square_image(theme, kind, sw), (left, y))
        draw.rectangle((left, y, left + sw - 1, y + sw - 1), outline=theme.grid_line)
        y += key_text(f"paint.key.{kind}") + pg.px(6)
    r = sw * 0.55
    own = own_colours(theme)
    paste_centred(img, disc_sprite(r, own.disc_white, own.disc_black, 1.5), left + sw / 2, y + sw / 2)
    draw_text(img, left + sw / 2, y + sw / 2, "2", pg.px(12), own.disc_white_ink, "mc")
    y += key_text("paint.key.disc") + pg.px(6)
    paste_centred(img, _sphere_sprite(theme, sw * 0.4, pg.k), left + sw / 2, y + sw / 2)
    key_text("paint.key.sphere")


def _progress(state: Any, pg: Page) -> tuple[str, str | None, float]:
    """The progress line under the lead bar ("28 of 50 turns to win"), the no-lead counter beside it while
    someone leads, and the room the line has: its words wrap within that room."""
    small = pg.px(16)
    left, right = pg.panel[0] + pg.px(18), pg.panel[2] - pg.px(18)
    if state.leader is not None:
        count, goal, key = state.lead_count, state.lead_turns, "paint.lead_progress"
    else:
        count, goal, key = state.no_lead_count, state.no_lead_turns, "paint.draw_progress"
    unit = wording.text("paint.unit.ply" if state.turn_unit == "ply" else "paint.unit.own")
    room: float = right - left
    counter = None
    if state.leader is not None:
        counter = wording.text("paint.no_lead_counter", count=state.no_lead_count, goal=state.no_lead_turns)
        room -= text_width(counter, small) + pg.px(12)
    return wording.text(key, count=count, goal=goal, unit=unit), counter, room


@lru_cache(maxsize=64)
def _square_image(theme: Theme, kind: str, side: int) -> Image.Image:
    """One empty square: neutral, light or dark (dark is dotted in the colour-blind theme as a second cue)."""
    own = own_colours(theme)
    fill = {"neutral": own.neutral, "light": own.light, "dark": own.dark}[kind]
    img = Image.new("RGB", (side, side), fill)
    if theme.second_cues and kind != "neutral":
        draw = ImageDraw.Draw(img)
        ink = blend(fill, (255, 255, 255) if kind == "dark" else (0, 0, 0), 0.35)
        step = max(4, side // 5)
        width = max(1, side // 40)
        if kind == "dark":
            for ox in range(step // 2, side, step):
                for oy in range(step // 2, side, step):
                    draw.ellipse((ox - width, oy - width, ox + width, oy + width), fill=ink)
        else:
            for o in range(-side, side, step):
                draw.line(((o, side), (o + side, 0)), fill=ink, width=width)
    return img


def _sphere_sprite(theme: Theme, radius: float, k: float) -> Image.Image:
    own = own_colours(theme)
    return disc_sprite(radius, own.sphere, own.sphere_rim, max(1.0, k * 2), True)


@lru_cache(maxsize=8)
def _shiny_sphere(theme: Theme, cell: int, k: float) -> Image.Image:
    """A sphere with its highlight, as one sprite."""
    sprite = _sphere_sprite(theme, cell * 0.27, k).copy()
    light = blend(own_colours(theme).sphere, (255, 255, 255), 0.6)
    shine = disc_sprite(cell * 0.07, light, light, 0.0)
    middle = sprite.width / 2
    paste_centred(sprite, shine, middle - cell * 0.08, middle - cell * 0.08)
    return sprite


@lru_cache(maxsize=256)
def _ranked_disc(
    radius: float, fill: RGB, edge: RGB, rim: float, rank: int, px: int, ink: RGB, chain: fonts.FontChain
) -> Image.Image:
    """A disc with its rank written on it, as one sprite (in the fonts of `chain`, the chain in use)."""
    sprite = disc_sprite(radius, fill, edge, rim, True).copy()
    middle = sprite.width / 2
    draw_text(sprite, middle, middle, str(rank), px, ink, "mc")
    return sprite


@lru_cache(maxsize=64)
def _square_strip(theme: Theme, kind: str, side: int, count: int) -> Image.Image:
    """`count` squares of one kind side by side, pasted at once where a row has a run of them."""
    square = _square_image(theme, kind, side)
    strip = Image.new("RGB", (side * count, side))
    for n in range(count):
        strip.paste(square, (n * side, 0))
    return strip


def _draw_board(img: Image.Image, state: Any, theme: Theme, lay: SquareLayout) -> None:
    """The squares, row by row, one paste per run of squares of the same kind."""
    for y in range(N):
        x = 0
        while x < N:
            kind = _square_kind(state, GRID.index(x, y))
            end = x + 1
            while end < N and _square_kind(state, GRID.index(end, y)) == kind:
                end += 1
            paste_opaque(img, _square_strip(theme, kind, lay.cell, end - x), *lay.box(GRID.index(x, y))[:2])
            x = end
    lay.draw_grid(img, theme.grid_line)


def _square_kind(state: Any, i: int) -> str:
    return "light" if state.light >> i & 1 else "dark" if state.dark >> i & 1 else "neutral"


CELLS = RegionCache(2048)
"""Squares with their disc or sphere as drawn, by theme, size, square, its kind and the piece on it: a piece
whose square is as it was is one opaque paste."""


Piece = tuple[int, Image.Image, tuple[object, ...]]
"""A piece on the board: its square, its sprite, and what it is (kind, colour, rank) as a cache key."""


def _pieces(state: Any, theme: Theme, lay: SquareLayout) -> list[Piece]:
    """The discs with their ranks and the spheres, each with its sprite."""
    ranks = engine.disc_ranks(state)
    rim = max(1.0, lay.pg.k * 2)
    radius = lay.cell * 0.39
    rank_px = lay.pg.px(max(12, round(lay.cell * 0.42)))
    pieces: list[Piece] = []
    own = own_colours(theme)
    for discs, fill, edge, ink in (
        (state.white_discs, own.disc_white, own.disc_black, own.disc_white_ink),
        (state.black_discs, own.disc_black, own.disc_white, own.disc_black_ink),
    ):
        for i in bits_of(discs):
            sprite = _ranked_disc(radius, fill, edge, rim, ranks.get(i, 0), rank_px, ink, fonts.chain())
            pieces.append((i, sprite, ("disc", fill, ranks.get(i, 0))))
    sphere = _shiny_sphere(theme, lay.cell, lay.pg.k)
    pieces.extend((i, sphere, ("sphere",)) for i in bits_of(state.spheres))
    return pieces


def _inside_squares(pieces: list[Piece], lay: SquareLayout) -> bool:
    """Whether every piece stays inside its square (a piece larger than its square, on small images,
    overlaps its neighbours)."""
    return all(_fits(lay, i, sprite.size) for i, sprite, _ in pieces)


@lru_cache(maxsize=4096)
def _fits(lay: SquareLayout, i: int, size: tuple[int, int]) -> bool:
    """Whether a sprite of `size` pasted centred on square i stays inside it (`inside_cell`)."""
    return inside_cell(Image.new("L", size), lay.box(i), *lay.centre(i))


def _draw_pieces(
    img: Image.Image,
    state: Any,
    theme: Theme,
    lay: SquareLayout,
    move: tuple[int, int] | None,
    only: set[int] | None = None,
    pieces: list[Piece] | None = None,
) -> None:
    """The discs with their ranks and the spheres (`pieces`, if known; with `only`, those on these
    squares alone). A square near the last move's path is drawn afresh (the path lies under its piece);
    any other comes from `CELLS`."""
    near_path = _near(path_squares(move)) if move is not None else set()
    if pieces is None:
        pieces = _pieces(state, theme, lay)
    # a piece larger than its square overlaps its neighbours: then all are drawn as they are
    cached = _inside_squares(pieces, lay)
    for i, sprite, what in pieces:
        if only is not None and i not in only:
            continue
        if cached and i not in near_path:
            key = (theme, lay.pg.width, _square_kind(state, i), what)
            CELLS.draw(img, lay.box(i), key, partial(paste_centred, img, sprite, *lay.centre(i)))
        else:
            paste_centred(img, sprite, *lay.centre(i))


def _near(squares: Sequence[int]) -> set[int]:
    """The squares and every square touching one of them."""
    out = set()
    for i in squares:
        x, y = GRID.xy(i)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if 0 <= x + dx < N and 0 <= y + dy < N:
                    out.add(GRID.index(x + dx, y + dy))
    return out


def _mark_path(img: Image.Image, move: tuple[int, int], theme: Theme, lay: SquareLayout) -> None:
    """Under the pieces: the path the disc travelled, a line from a hollow dot on the square it left."""
    draw = ImageDraw.Draw(img)
    start, end = lay.centre(move[0]), lay.centre(move[1])
    thick_line(draw, start, end, theme.highlight, lay.pg.px(6))
    r = lay.cell * 0.17
    draw.ellipse((start[0] - r, start[1] - r, start[0] + r, start[1] + r), fill=theme.highlight)
    r2 = r * 0.5
    draw.ellipse((start[0] - r2, start[1] - r2, start[0] + r2, start[1] + r2), fill=theme.highlight_ink)


def _mark_end(img: Image.Image, state: Any, move: tuple[int, int], theme: Theme, lay: SquareLayout) -> None:
    """Over the pieces: a ring round the disc that moved, and a ring round the sphere it pushed."""
    mark_ring(img, *lay.centre(move[1]), lay.cell * 0.42, theme, lay.pg.k)
    beyond = pushed_sphere(state, move)
    if beyond is not None:
        mark_ring(img, *lay.centre(beyond), lay.cell * 0.31, theme, lay.pg.k)


def _bar(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    fraction: float,
    fill: RGB,
    empty: RGB,
    edge: RGB,
) -> None:
    left, top, right, bottom = box
    draw.rectangle(box, fill=empty)
    cut = left + (right - left) * max(0.0, min(1.0, fraction))
    if cut > left:
        draw.rectangle((left, top, cut, bottom), fill=fill)
    draw.rectangle(box, outline=edge, width=1)


def _lead_colour(theme: Theme, leader: int) -> RGB:
    """The lead bar's fill: the leader's square colour (White's light squares, Black's dark ones), as on the
    tile bar above it."""
    return own_colours(theme).light if leader == 0 else own_colours(theme).dark


def _draw_panel(
    img: Image.Image, state: Any, theme: Theme, lay: SquareLayout, names: list[str], last_move: str | None
) -> None:
    """The panel over its background (the title and the key come with it): the tiles, the lead, the
    counters and the last move, all inside `_panel_parts`."""
    pg = lay.pg
    draw = ImageDraw.Draw(img)
    px0, py0, px1, py1 = pg.panel
    left, right = px0 + pg.px(18), px1 - pg.px(18)
    white_tiles, black_tiles = engine.tiles(state)
    small = pg.px(16)
    y = py0 + pg.px(14)  # the title "Tiles" and the key are drawn once, in `_background`
    y += pg.px(34)
    big = pg.px(30)
    draw_text(img, left, y, str(white_tiles), big, theme.ink)
    draw_text(img, right, y, str(black_tiles), big, theme.ink, "rt")
    draw_text(
        img,
        left + pg.px(52),
        y + pg.px(12),
        fit_name_with_role(names[0], wording.text(SEAT_KEYS[0]), small, pg.px(120)),
        small,
        theme.muted,
    )
    draw_text(
        img,
        right - pg.px(52),
        y + pg.px(12),
        fit_name_with_role(names[1], wording.text(SEAT_KEYS[1]), small, pg.px(120)),
        small,
        theme.muted,
        "rt",
    )
    y += pg.px(42)
    total = max(1, white_tiles + black_tiles)
    _bar(
        draw,
        (left, y, right, y + pg.px(18)),
        white_tiles / total,
        own_colours(theme).light,
        own_colours(theme).dark,
        theme.ink,
    )
    middle = (left + right) / 2
    draw.line(((middle, y - pg.px(4)), (middle, y + pg.px(22))), fill=theme.ink, width=1)
    y += pg.px(40)

    leader = state.leader
    if leader is not None:
        title = _lead_title(names, leader, pg.px(19), right - left)
        count, goal = state.lead_count, state.lead_turns
        fill = _lead_colour(theme, leader)
    else:
        title = wording.text("paint.nobody_leads")
        count, goal = state.no_lead_count, state.no_lead_turns
        fill = theme.muted
    draw_text(img, left, y, fit_text(title, pg.px(19), right - left), pg.px(19), theme.ink)
    y += pg.px(28)
    _bar(
        draw,
        (left, y, right, y + pg.px(14)),
        count / max(1, goal),
        fill,
        own_colours(theme).neutral,
        theme.ink,
    )
    y += pg.px(20)
    progress_text, counter, room = _progress(state, pg)  # a translation may be longer: the line wraps
    if counter is not None:
        draw_text(img, right, y, counter, small, theme.muted, "rt")
    lines = draw_wrapped(img, left, y, progress_text, small, theme.muted, room)
    y += pg.px(22) + (lines - 1) * line_pitch(small)
    draw_text(
        img, left, y, wording.text("paint.move_cap", count=state.ply, goal=state.move_cap), small, theme.muted
    )
    if last_move:
        move = parse_last_move(last_move)
        beyond = pushed_sphere(state, move)
        shown = (
            wording.move(last_move)
            if beyond is None
            else wording.text("paint.sphere_to", move=last_move, cell=GRID.label(beyond))
        )
        text = wording.text("last_move", move=shown)
        draw_text(img, left, py1 - pg.px(14), fit_text(text, small, right - left), small, theme.ink, "lb")


def _progress_lines(state: Any, pg: Page) -> int:
    """How many lines the progress line takes (the key below it moves down for each)."""
    progress_text, _, room = _progress(state, pg)
    return len(wrap_text(progress_text, pg.px(16), room))


def _panel_parts(pg: Page, progress_lines: int) -> tuple[Box, Box]:
    """The two boxes `_draw_panel` draws in: from the panel's top to below the move cap line, and round the
    last move's line at the bottom (a line's ink stays within twice its pitch of where it is put); the
    title and the key between them are the background's."""
    px0, py0, px1, py1 = pg.panel
    small = pg.px(16)
    y = py0 + pg.px(14) + pg.px(34) + pg.px(42) + pg.px(40) + pg.px(28) + pg.px(20)  # as `_draw_panel`
    y += pg.px(22) + (progress_lines - 1) * line_pitch(small)  # the move cap line
    reach = 2 * line_pitch(small)
    return (px0, py0, px1, min(py1, y + reach)), (px0, max(py0, py1 - pg.px(14) - reach), px1, py1)


def _name_with_seat(names: list[str], seat: int) -> str:
    return wording.with_role(names[seat], wording.text(SEAT_KEYS[seat]))


def _lead_title(names: list[str], leader: int, px: int, room: float) -> str:
    """ "Alice (White) leads"; where that does not fit, the role (the bar's colour) gives way first."""
    title = wording.text("paint.leads", name=_name_with_seat(names, leader))
    return title if text_width(title, px) <= room else wording.text("paint.leads", name=names[leader])


def _chips(rules: Any, state: Any, names: list[str], theme: Theme, outcome: Outcome | None) -> list[SeatChip]:
    to_move = rules.to_move(state)
    counts = engine.tiles(state)
    chips = []
    own = own_colours(theme)
    for seat in range(2):
        fill, rim = (own.disc_white, own.disc_black) if seat == 0 else (own.disc_black, own.disc_white)
        tiles = "paint.chip.tiles_leads" if state.leader == seat else "paint.chip.tiles"
        chips.append(
            SeatChip(
                name=names[seat],
                role=wording.word(rules.seat_label(state, seat)),
                detail=wording.plural(tiles, counts[seat]),
                fill=fill,
                rim=rim,
                to_move=outcome is None and to_move == seat,
                winner=outcome is not None and seat in outcome.winners,
            )
        )
    return chips


def draw(
    state: Any,
    *,
    last_move: str | None,
    players: Sequence[str] | None,
    theme: Theme,
    size: int,
    outcome: Outcome | None = None,
) -> Image.Image:
    """The whole Paint image for `state`; `outcome` (a resignation, timeout, abort) overrides the engine's."""
    rules = games.get("paint")
    outcome = final_outcome(rules, state, outcome)
    lay = square_layout(size, N)
    names = seat_names(rules, state, players, 2)
    progress_lines = _progress_lines(state, lay.pg)
    img = _background(theme, size, wording.language(), fonts.chain(), progress_lines).copy()
    _draw_board(img, state, theme, lay)
    move = parse_last_move(last_move)
    if move is not None:
        _mark_path(img, move, theme, lay)
    _draw_pieces(img, state, theme, lay, move)
    if move is not None:
        _mark_end(img, state, move, theme, lay)
    _draw_panel(img, state, theme, lay, names, last_move)
    status = status_text(rules, state, names, outcome=outcome)
    draw_header(img, lay.pg, theme, _chips(rules, state, names, theme, outcome), status)
    return img


def describe(
    state: Any, *, last_move: str | None, players: Sequence[str] | None, outcome: Outcome | None = None
) -> str:
    """The position in words: tiles, lead, whose turn or the result, every disc with its rank, the spheres."""
    rules = games.get("paint")
    names = seat_names(rules, state, players, 2)
    white_tiles, black_tiles = engine.tiles(state)
    ranks = engine.disc_ranks(state)
    status = status_text(rules, state, names, outcome=outcome)
    parts = [wording.text("alt.board", game=wording.text("paint.alt.game"), status=status)]
    if last_move:
        beyond = pushed_sphere(state, parse_last_move(last_move))
        if beyond is None:
            parts.append(wording.text("alt.last_move", move=last_move))
        else:
            parts.append(wording.text("paint.alt.last_move_push", move=last_move, cell=GRID.label(beyond)))
    parts.append(
        wording.text(
            "paint.alt.tiles",
            white=wording.with_role(names[0], wording.text(SEAT_KEYS[0])),
            white_tiles=white_tiles,
            black=wording.with_role(names[1], wording.text(SEAT_KEYS[1])),
            black_tiles=black_tiles,
        )
    )
    if state.leader is not None:
        leader = wording.text(SEAT_KEYS[state.leader])
        led = wording.plural("paint.alt.led", state.lead_count, seat=leader, goal=state.lead_turns)
        parts.append(led)
    else:
        parts.append(wording.plural("paint.alt.no_lead", state.no_lead_count, goal=state.no_lead_turns))
    none = wording.text("alt.none")
    for seat, discs in ((0, state.white_discs), (1, state.black_discs)):
        listed = wording.pairs(
            [wording.text("paint.alt.disc", cell=GRID.label(i), rank=ranks.get(i, 0)) for i in bits_of(discs)]
        )
        parts.append(
            wording.text("paint.alt.discs", seat=wording.text(SEAT_KEYS[seat]), discs=listed or none)
        )
    spheres = " ".join(GRID.label(i) for i in bits_of(state.spheres)) or none
    parts.append(wording.text("paint.alt.spheres", cells=spheres))
    return wording.sentences(parts)


def cell_polygons(state: Any, size: int) -> tuple[tuple[tuple[float, float], ...], ...]:
    """Each square's corners in the pixels of `draw(size=size)` (square i is `GRID`'s square i), for hosts
    that draw on the image (`renderer.scene`)."""
    return square_polygons(square_layout(size, N))


def cell_labels(state: Any) -> tuple[str, ...]:
    """Each square's name as a player types it (a1...i9)."""
    return GRID.labels


def _marked(state: Any, move: tuple[int, int] | None) -> set[int]:
    """The squares the last move's marks may touch: its path with every square beside it (a diagonal
    line crosses their corners), and the pushed sphere's ring with the squares beside it."""
    if move is None:
        return set()
    return set(_marks(move, pushed_sphere(state, move)))


@lru_cache(maxsize=4096)
def _marks(move: tuple[int, int], beyond: int | None) -> frozenset[int]:
    return frozenset(_near(path_squares(move)) | (_near([beyond]) if beyond is not None else set()))


@lru_cache(maxsize=64)
def _lined_square(theme: Theme, kind: str, side: int) -> Image.Image:
    """A square as `_draw_board` leaves it: the square with the grid's lines on its left and top edges."""
    img = _square_image(theme, kind, side).copy()
    draw = ImageDraw.Draw(img)
    draw.line(((0, 0), (0, side - 1)), fill=theme.grid_line, width=1)
    draw.line(((0, 0), (side - 1, 0)), fill=theme.grid_line, width=1)
    return img


@lru_cache(maxsize=8)
def _board_base(
    theme: Theme, size: int, language: Hashable, chain: fonts.FontChain, progress_lines: int
) -> Image.Image:
    """`_background` with the grid drawn: the pixels round the squares as `draw` leaves them under the
    last-move rings (a ring on an edge square reaches a pixel or so past it)."""
    img = _background(theme, size, language, chain, progress_lines).copy()
    square_layout(size, N).draw_grid(img, theme.grid_line)
    return img


def _ring_boxes(
    state: Any, move: tuple[int, int] | None, theme: Theme, lay: SquareLayout
) -> list[Box] | None:
    """The boxes of the last-move rings' ink (`_mark_end`); None if one reaches further than the squares
    beside its own or leaves the board's area."""
    if move is None:
        return []
    rings = [(move[1], lay.cell * 0.42)]
    beyond = pushed_sphere(state, move)
    if beyond is not None:
        rings.append((beyond, lay.cell * 0.31))
    boxes = []
    area = lay.pg.board
    for i, radius in rings:
        cell = lay.box(i)
        for box in ring_ink(radius, theme, lay.pg.k, *lay.centre(i)):
            if not (
                box[0] > cell[0] - lay.cell
                and box[1] > cell[1] - lay.cell
                and box[2] < cell[2] + lay.cell
                and box[3] < cell[3] + lay.cell
                and box[0] >= area[0]
                and box[1] >= area[1]
                and box[2] <= area[2]
                and box[3] <= area[3]
            ):
                return None
            boxes.append(box)
    return boxes


def redraw(img: Image.Image, before: Board, after: Board) -> list[Box] | None:
    """Draw on `img` the parts of `after`'s image that may differ from `before`'s (see
    `renderer.incremental`): the header, the panel, and the squares whose kind or piece changed or that
    either move's marks touch, each from nothing in the order `draw` paints them; returns their boxes.
    None where pieces overlap their neighbours (small images)."""
    theme, size = after.theme, after.size
    rules = games.get("paint")
    lay = square_layout(size, N)
    pg = lay.pg
    state, old = after.state, before.state
    pieces, old_pieces = _pieces(state, theme, lay), _pieces(old, theme, lay)
    move, old_move = parse_last_move(after.last_move), parse_last_move(before.last_move)
    rings, old_rings = _ring_boxes(state, move, theme, lay), _ring_boxes(old, old_move, theme, lay)
    if rings is None or old_rings is None:
        return None
    if not (_inside_squares(pieces, lay) and _inside_squares(old_pieces, lay)):
        return None
    now = {i: what for i, _, what in pieces}
    then = {i: what for i, _, what in old_pieces}
    dirty = _marked(state, move) | _marked(old, old_move)
    dirty.update(bits_of((state.light ^ old.light) | (state.dark ^ old.dark)))
    dirty.update(i for i in now.keys() | then.keys() if now.get(i) != then.get(i))
    progress_lines = _progress_lines(state, pg)
    language, chain = wording.language(), fonts.chain()
    base = _board_base(theme, size, language, chain, progress_lines)
    for box in rings + old_rings:  # what lies past the squares under a ring; the squares come next
        paste_opaque(img, base.crop(box), box[0], box[1])
    for i in dirty:
        paste_opaque(img, _lined_square(theme, _square_kind(state, i), lay.cell), *lay.box(i)[:2])
    if move is not None:
        _mark_path(img, move, theme, lay)
    _draw_pieces(img, state, theme, lay, move, only=dirty, pieces=pieces)
    if move is not None:
        _mark_end(img, state, move, theme, lay)
    outcome = final_outcome(rules, state, after.outcome)
    names = seat_names(rules, state, after.players, 2)
    under = _background(theme, size, language, chain, progress_lines)
    parts: tuple[Box, ...] = (pg.panel,)  # the key moves down for a progress line that wraps
    if _progress_lines(old, pg) == progress_lines:  # else the panel's title and key stay as they are
        parts = _panel_parts(pg, progress_lines)
    for box in parts:
        paste_opaque(img, under.crop(box), box[0], box[1])
    _draw_panel(img, state, theme, lay, names, after.last_move)
    draw_header(
        img,
        pg,
        theme,
        _chips(rules, state, names, theme, outcome),
        status_text(rules, state, names, outcome=outcome),
    )
    boxes: list[Box] = [pg.header, *parts, *rings, *old_rings]
    for i in sorted(dirty):  # one box per run of squares drawn along a row (never one not drawn)
        box = lay.box(i)
        if i % N and i - 1 in dirty:
            boxes[-1] = (boxes[-1][0], box[1], box[2], box[3])
        else:
            boxes.append(box)
    return boxes
