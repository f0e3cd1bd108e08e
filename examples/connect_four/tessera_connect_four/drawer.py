"""Connect Four's board image and alt text: a 7x6 board (wider than tall) in the theme's style.

The shared pieces come from the renderer (`renderer.canvas`: the page, the header with the players, the
status line, text; `renderer.text`: the shared words), the game's own words from this package's catalog
(marked with `N_`, drawn with `wording.say`), its colours from its plugin (`renderer.theme.game_colours`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from games.base import Outcome
from games.texts import N_
from renderer import text as wording
from renderer.canvas import (
    Box,
    SeatChip,
    disc_sprite,
    draw_header,
    draw_text,
    final_outcome,
    inside_cell,
    mark_polygon,
    mark_ring,
    new_canvas,
    page,
    paste_centred,
    paste_opaque,
    ring_ink,
    seat_names,
    shade,
    status_text,
)
from renderer.incremental import Board
from renderer.theme import RGB, Theme, game_colours
from tessera_connect_four.rules import COLUMNS, LETTERS, ROWS, RULES, SEAT_NAMES, FourState, winning_cells

TITLE = N_("Connect Four")
RULE = N_("Drop a disc in a column (a to g); four in a row, across, up or diagonally, wins.")
DISCS = N_("{role}: {count} on the board")
ALT_DISCS = N_("Discs of {player}: {cells}.")
MARKS = ("square", "diamond")
"""Shapes on the discs where the theme asks for a second cue beside colour (the colour-blind theme)."""


def _disc_colours(theme: Theme) -> tuple[RGB, RGB]:
    colours = game_colours(theme, RULES.id)
    return colours["red"], colours["yellow"]


@lru_cache(maxsize=8)
def _geometry(size: int) -> tuple[Any, float, float, float]:
    """The page, the cell side and the board's top-left corner: 7 cells across, 6 down, centred in the
    page's board area with room for the column letters below."""
    pg = page(size)
    x0, y0, x1, y1 = pg.board
    margin, letters = pg.px(24), pg.px(30)
    cell = min((x1 - x0 - 2 * margin) / COLUMNS, (y1 - y0 - 2 * margin - letters) / ROWS)
    left = x0 + (x1 - x0 - cell * COLUMNS) / 2
    top = y0 + (y1 - y0 - letters - cell * ROWS) / 2
    return pg, cell, left, top


def centre(size: int, column: int, row: int) -> tuple[float, float]:
    """The centre of the cell at (column, row), row 0 at the bottom, on an image `size` pixels wide."""
    _, cell, left, top = _geometry(size)
    return left + (column + 0.5) * cell, top + (ROWS - row - 0.5) * cell


def cell_polygons(state: FourState, size: int) -> list[tuple[tuple[float, float], ...]]:
    """Each cell's square in the image's pixels, indexed `row * 7 + column` (row 0 at the bottom), as the
    rules' `click_move` numbers them: the web board's clickable cells (`renderer.scene`)."""
    _, cell, left, top = _geometry(size)
    polygons: list[tuple[tuple[float, float], ...]] = []
    for row in range(ROWS):
        for column in range(COLUMNS):
            x0, y0 = left + column * cell, top + (ROWS - row - 1) * cell
            polygons.append(((x0, y0), (x0 + cell, y0), (x0 + cell, y0 + cell), (x0, y0 + cell)))
    return polygons


def cell_labels(state: FourState) -> list[str]:
    """Each cell's name, in `cell_polygons`' order: its column letter and row number ("d1" at the bottom)."""
    return [f"{LETTERS[column]}{row + 1}" for row in range(ROWS) for column in range(COLUMNS)]


def _last_cell(state: FourState, last_move: str | None) -> tuple[int, int] | None:
    if not last_move or last_move.strip().lower() not in LETTERS:
        return None
    column = LETTERS.index(last_move.strip().lower())
    height = len(state.columns[column])
    return (column, height - 1) if height else None


def draw(
    state: FourState,
    *,
    last_move: str | None,
    players: Sequence[str] | None,
    theme: Theme,
    size: int,
    outcome: Outcome | None = None,
) -> Image.Image:
    """The whole image: header with both players, the board, and a panel with the disc counts."""
    pg, cell, _, top = _geometry(size)
    img = _base(theme, size).copy()
    radius = cell * 0.39
    winning = set(winning_cells(state))
    last = _last_cell(state, last_move)
    for column in range(COLUMNS):
        for row in range(ROWS):
            _draw_cell(img, state, theme, size, column, row)
    for column, row in sorted(winning):
        _mark_win(img, theme, size, column, row)
    if last is not None:
        cx, cy = centre(size, *last)
        mark_ring(img, cx, cy, radius + pg.px(2), theme, pg.k)
    label_px = pg.px(20)
    for column, letter in enumerate(LETTERS):
        cx, _ = centre(size, column, 0)
        draw_text(img, cx, top + cell * ROWS + pg.px(8) + pg.px(6), letter, label_px, theme.muted, "mt")
    _panel(img, pg, state, theme, players)
    _header(img, pg, state, theme, players, outcome)
    return img


def redraw(img: Image.Image, before: Board, after: Board) -> list[Box] | None:
    """Draw on `img` the parts of `after`'s image that may differ from `before`'s (`renderer.incremental`):
    the header, the panel, and each cell whose disc, winning mark or last-move ring changed, from nothing in
    the order `draw` paints them; their boxes. None where a cell's marks reach past it (small images)."""
    state, old, theme, size = after.state, before.state, after.theme, after.size
    pg, cell, _, _ = _geometry(size)
    last, old_last = _last_cell(state, after.last_move), _last_cell(old, before.last_move)
    winning, old_winning = set(winning_cells(state)), set(winning_cells(old))
    dirty = {
        (column, row)
        for column in range(COLUMNS)
        for row in range(ROWS)
        if state.at(column, row) != old.at(column, row)
    }
    dirty |= winning ^ old_winning
    if last != old_last:  # the ring moved: off one cell, onto another
        dirty |= {c for c in (last, old_last) if c is not None}
    radius = cell * 0.39
    hole = _hole_sprite(theme, size)  # every disc's sprite has its size
    for column, row in dirty:
        box, (cx, cy) = cell_box(size, column, row), centre(size, column, row)
        ring = ring_ink(radius + pg.px(2), theme, pg.k, cx, cy)
        if not inside_cell(hole, box, cx, cy) or not all(_within(ink, box) for ink in ring):
            return None
    base = _base(theme, size)
    for column, row in sorted(dirty):
        box = cell_box(size, column, row)
        paste_opaque(img, base.crop(box), box[0], box[1])
        _draw_cell(img, state, theme, size, column, row)
    for column, row in sorted(dirty & winning):
        _mark_win(img, theme, size, column, row)
    if last is not None and last in dirty:
        cx, cy = centre(size, *last)
        mark_ring(img, cx, cy, radius + pg.px(2), theme, pg.k)
    paste_opaque(img, base.crop(pg.panel), pg.panel[0], pg.panel[1])
    _panel(img, pg, state, theme, after.players)
    _header(img, pg, state, theme, after.players, after.outcome)
    return [pg.header, pg.panel, *(cell_box(size, column, row) for column, row in sorted(dirty))]


def cell_box(size: int, column: int, row: int) -> Box:
    """The pixels of a cell: its square rounded to whole pixels (neighbouring cells' boxes tile, never
    overlap)."""
    _, cell, left, top = _geometry(size)
    x0, y0 = left + column * cell, top + (ROWS - row - 1) * cell
    return round(x0), round(y0), round(x0 + cell), round(y0 + cell)


def _within(inner: Box, outer: Box) -> bool:
    return inner[0] >= outer[0] and inner[1] >= outer[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


@lru_cache(maxsize=8)
def _base(theme: Theme, size: int) -> Image.Image:
    """What `draw` paints before the cells, the same for every position: the page and the board's frame."""
    pg, cell, left, top = _geometry(size)
    img = new_canvas(pg, theme)
    pad = pg.px(8)
    ImageDraw.Draw(img).rounded_rectangle(
        (left - pad, top - pad, left + cell * COLUMNS + pad, top + cell * ROWS + pad),
        radius=pg.px(14),
        fill=game_colours(theme, RULES.id)["frame"],
        outline=theme.board_edge,
        width=max(1, pg.px(2)),
    )
    return img


def _draw_cell(img: Image.Image, state: FourState, theme: Theme, size: int, column: int, row: int) -> None:
    """A cell's hole, or its disc (with the seat's mark where the theme asks for a second cue)."""
    pg, cell, _, _ = _geometry(size)
    radius, rim = cell * 0.39, max(1.0, pg.k * 2)
    cx, cy = centre(size, column, row)
    seat = state.at(column, row)
    if seat is None:
        paste_centred(img, _hole_sprite(theme, size), cx, cy)
        return
    fill = _disc_colours(theme)[seat]
    paste_centred(img, disc_sprite(radius, fill, shade(fill, theme.ink, 0.45), rim), cx, cy)
    if theme.second_cues:
        ImageDraw.Draw(img).polygon(mark_polygon(MARKS[seat], cx, cy, radius * 0.35), fill=theme.ink)


def _hole_sprite(theme: Theme, size: int) -> Image.Image:
    """An empty cell: a disc of the page's colour with a rim shaded from the frame's."""
    pg, cell, _, _ = _geometry(size)
    frame = game_colours(theme, RULES.id)["frame"]
    return disc_sprite(cell * 0.39, theme.background, shade(frame, theme.ink, 0.4), max(1.0, pg.k * 2))


def _mark_win(img: Image.Image, theme: Theme, size: int, column: int, row: int) -> None:
    """The dot on a disc of the winning line."""
    pg, cell, _, _ = _geometry(size)
    r = cell * 0.39 * 0.3
    cx, cy = centre(size, column, row)
    ImageDraw.Draw(img).ellipse(
        (cx - r, cy - r, cx + r, cy + r), fill=theme.win, outline=theme.ink, width=max(1, pg.px(2))
    )


def _header(
    img: Image.Image,
    pg: Any,
    state: FourState,
    theme: Theme,
    players: Sequence[str] | None,
    outcome: Outcome | None,
) -> None:
    fills = _disc_colours(theme)
    names = seat_names(RULES, state, players, 2)
    shown = final_outcome(RULES, state, outcome)
    to_move = RULES.to_move(state)
    chips = [
        SeatChip(
            name=names[seat],
            role=wording.word(RULES.seat_label(state, seat)),
            detail="",
            fill=fills[seat],
            rim=shade(fills[seat], theme.ink, 0.45),
            mark=MARKS[seat] if theme.second_cues else "",
            mark_ink=theme.ink,
            to_move=shown is None and to_move == seat,
            winner=shown is not None and seat in shown.winners,
        )
        for seat in range(2)
    ]
    draw_header(img, pg, theme, chips, status_text(RULES, state, names, outcome=outcome))


def _panel(img: Image.Image, pg: Any, state: FourState, theme: Theme, players: Sequence[str] | None) -> None:
    x0, y0, x1, _ = pg.panel
    margin = pg.px(22)
    width = x1 - x0 - 2 * margin
    y = y0 + margin
    draw_text(img, x0 + margin, y, wording.say(TITLE), pg.px(26), theme.ink)
    y += pg.px(44)
    for line in _wrapped_rule(width, pg.px(17)):
        draw_text(img, x0 + margin, y, line, pg.px(17), theme.muted)
        y += pg.px(24)
    y += pg.px(16)
    fills = _disc_colours(theme)
    for seat in range(2):
        count = sum(column.count(seat) for column in state.columns)
        r = pg.px(12)
        paste_centred(
            img,
            disc_sprite(r, fills[seat], shade(fills[seat], theme.ink, 0.45), max(1.0, pg.k * 2)),
            x0 + margin + r,
            y + r,
        )
        role = wording.word(RULES.seat_label(state, seat))
        draw_text(
            img,
            x0 + margin + 2 * r + pg.px(10),
            y + r,
            wording.say(DISCS, role=role, count=count),
            pg.px(18),
            theme.ink,
            "lm",
        )
        y += pg.px(36)


def _wrapped_rule(width: float, px: int) -> list[str]:
    from renderer.canvas import wrap_text

    return wrap_text(wording.say(RULE), px, width)


def describe(
    state: FourState, *, last_move: str | None, players: Sequence[str] | None, outcome: Outcome | None = None
) -> str:
    """The position in words: whose turn or the result, the last move, every disc by colour."""
    names = seat_names(RULES, state, players, 2)
    status = status_text(RULES, state, names, outcome=outcome)
    parts = [wording.text("alt.board", game=wording.say(TITLE), status=status)]
    if last_move:
        parts.append(wording.text("alt.last_move", move=last_move))
    none = wording.text("alt.none")
    for seat in range(2):
        cells = [
            f"{LETTERS[c]}{r + 1}" for c in range(COLUMNS) for r in range(ROWS) if state.at(c, r) == seat
        ]
        player = wording.with_role(names[seat], RULES.seat_label(state, seat))
        parts.append(wording.say(ALT_DISCS, player=player, cells=wording.pairs(cells) or none))
    return wording.sentences(parts)


__all__ = ["SEAT_NAMES", "centre", "describe", "draw", "redraw"]
