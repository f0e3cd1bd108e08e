"""TilingKing board: square, hex and triangle cells; neutral tiles dark; every placed piece filled in its
owner's colour with its outer boundary drawn, so two touching pieces of one player stay two pieces; captured
territory shaded in its owner's colour; the most recent piece outlined. Hex and triangle cells carry their
numbers within their row while empty, and the row letters stand outside the board at both ends of each row
(cell e10 is the 10th cell of row e). The panel lists each
player's score (covered + territory), pieces left and pass/resign state.

`draw_pieces` draws one player's remaining pieces with their ids and counts, for /pieces.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache, partial
from typing import Any, NamedTuple

from PIL import Image, ImageDraw

import games
from games.base import Outcome
from games.texts import N_
from renderer import fonts
from renderer import text as wording
from renderer.canvas import (
    BASE_WIDTH,
    Box,
    Page,
    SeatChip,
    draw_header,
    draw_text,
    draw_wrapped,
    final_outcome,
    fit_name_with_role,
    fit_text,
    mark_polygon,
    new_canvas,
    page,
    seat_names,
    status_text,
    text_width,
    thick_line,
    wrap_text,
)
from renderer.geometry import BoardGeometry
from renderer.incremental import Board
from renderer.theme import RGB, Theme, blend, game_colours

SEAT_COLOURS = ("red", "blue", "green", "yellow")
"""The seat colours by the engine's colour index (the names of the plugin's `piece_*` and `territory_*`)."""
SEAT_MARKS = ("circle", "square", "triangle", "diamond")
"""The shape that marks each seat colour where the theme draws second cues; otherwise every mark is a
circle."""


class Colours(NamedTuple):
    """TilingKing's colours in one theme, from its plugin (games/tilingking/colours.py), and its marks."""

    empty: RGB
    neutral: RGB
    pieces: tuple[RGB, ...]
    """By colour index: red, blue, green, yellow."""
    territories: tuple[RGB, ...]
    marks: tuple[str, ...]
    """The shape marking each colour: `SEAT_MARKS` with second cues, circles without."""


@lru_cache(maxsize=8)
def own_colours(theme: Theme) -> Colours:
    """The game's colours in `theme` (its plugin's `colours`)."""
    named = game_colours(theme, "tilingking")
    return Colours(
        empty=named["empty"],
        neutral=named["neutral"],
        pieces=tuple(named[f"piece_{name}"] for name in SEAT_COLOURS),
        territories=tuple(named[f"territory_{name}"] for name in SEAT_COLOURS),
        marks=SEAT_MARKS if theme.second_cues else ("circle",) * len(SEAT_MARKS),
    )


TEXTS: dict[str, str] = {
    "move.word.pass": N_("passed"),
    "move.word.passall": N_("passed for good"),
    "move.word.swap": N_("swapped sides"),
    "tk.colour.0": N_("Red"),
    "tk.colour.1": N_("Blue"),
    "tk.colour.2": N_("Green"),
    "tk.colour.3": N_("Yellow"),
    "tk.score": N_("Score"),
    "tk.score_parts": N_("covered + territory"),
    "tk.cells.one": N_("{count} cell"),
    "tk.cells.other": N_("{count} cells"),
    "tk.resigned": N_("resigned"),
    "tk.passes_for_good": N_("passes for good"),
    "tk.passes_every_turn": N_("passes every turn"),
    "tk.with_note": N_("{text} · {note}"),
    "tk.pieces_left.one": N_("{covered} + {territory} · {count} piece left"),
    "tk.pieces_left.other": N_("{covered} + {territory} · {count} pieces left"),
    "tk.board": N_("Board {board}: {count} playable cells"),
    "tk.key.piece": N_("a piece (outlined)"),
    "tk.key.territory": N_("captured territory"),
    "tk.key.neutral": N_("neutral tile (counts for every ring)"),
    "tk.pieces.left.one": N_("{count} piece left"),
    "tk.pieces.left.other": N_("{count} pieces left"),
    "tk.pieces.title": N_("Pieces of {name}: id, name and how many are left"),
    "tk.pieces.count": N_("x{count}"),
    "tk.alt.board": N_("TilingKing board {board} ({kind} cells). {status}."),
    "tk.alt.kind.square": N_("square"),
    "tk.alt.kind.hex": N_("hex"),
    "tk.alt.kind.triangle": N_("triangle"),
    "tk.alt.score": N_("{player}: {points}"),
    "tk.alt.scores": N_("Scores: {scores}."),
    "tk.alt.piece": N_("{piece} on {cells}"),
    "tk.alt.pieces": N_("{role} pieces: {pieces}"),
    "tk.alt.territory": N_("{text}; territory: {cells}"),
}
"""This game's own texts on its images and in its alt text (`renderer.text.TEXTS` gathers them)."""

BOARD_SHARE = 0.62
_NOT_PLACEMENTS = {"pass", "passall", "resign", "swap"}


def _engine() -> Any:
    """The TilingKing engine's module functions (`supply`, `scores`, `piece_shapes`)."""
    import games.tilingking as engine

    return engine


def seat_colour_index(state: Any, seat: int) -> int:
    """The colour a seat plays (after a pie swap, the colour it took over)."""
    colours = getattr(state, "colours", None)
    if colours is not None:
        return int(colours[seat]) % 4
    return seat % 4


@lru_cache(maxsize=32)
def _geometry(kind: str, cells: tuple[tuple[int, int], ...], size: int) -> BoardGeometry:
    pg = page(size, BOARD_SHARE)
    x0, y0, x1, y1 = pg.board
    pad, label = pg.px(12), pg.px(30)
    box = (x0 + label + pad, y0 + pad, x1 - x0 - 2 * label - 2 * pad, y1 - y0 - label - 2 * pad)
    return BoardGeometry(kind, cells, box)


SMALL_PX = 16
"""The smallest panel text at 960 px wide, readable when Discord shows the image 400-550 px wide."""


def _cell_label_px(geo: BoardGeometry) -> int:
    """The size of the in-row numbers written in hex and triangle cells: as large as fits the cell's inscribed
    circle with two digits, between 10 and 18 pixels."""
    return max(10, min(18, round(geo.inner_radius * 1.1)))


def colour_name(colour: int) -> str:
    """ "Red", "Blue", "Green", "Yellow" for colour index 0-3."""
    return wording.text(f"tk.colour.{colour}")


def _row_letters(board: Any) -> dict[str, list[int]]:
    rows: dict[str, list[int]] = {}
    for i in range(board.size):
        label = board.label(i)
        rows.setdefault(label[0], []).append(i)
    return rows


@lru_cache(maxsize=32)
def _background(
    theme: Theme,
    size: int,
    board_id: str,
    colours: tuple[int, ...],
    language: Hashable,
    chain: fonts.FontChain,
) -> Image.Image:
    """Empty playable cells with their labels, neutral cells, coordinates outside the board; in the panel,
    its titles, the board's name and the key in the seats' `colours`. The texts are in the current language
    and drawn with the fonts in use, which are part of the key."""
    from games.tilingking.boards import board as board_by_id

    board = board_by_id(board_id)
    pg = page(size, BOARD_SHARE)
    geo = _geometry(board.kind, tuple(board.cells), size)
    img = new_canvas(pg, theme)
    draw = ImageDraw.Draw(img)
    neutral = set(board.neutral)
    for i, poly in enumerate(geo.polygons):
        fill = own_colours(theme).neutral if i in neutral else own_colours(theme).empty
        draw.polygon(poly, fill=fill, outline=theme.grid_line)
    label_px = _cell_label_px(geo)
    coord_px = pg.px(18)
    left, _, _, bottom = geo.bounds
    if board.kind == "square":
        xs = sorted({c[0] for c in board.cells})
        ys = sorted({c[1] for c in board.cells})
        for x in xs:
            i = board.cells.index((x, ys[0]))
            draw_text(img, geo.centres[i][0], bottom + pg.px(5), board.label(i)[0], coord_px, theme.ink, "mt")
        for y in ys:
            i = board.cells.index((xs[0], y))
            draw_text(img, left - pg.px(8), geo.centres[i][1], board.label(i)[1:], coord_px, theme.ink, "rc")
    else:
        for letter, members in _row_letters(board).items():
            first = min(members, key=lambda i: geo.centres[i][0])
            last = max(members, key=lambda i: geo.centres[i][0])
            row_y = geo.centres[first][1] if board.kind == "hex" else _row_middle(geo, first)
            x_left = min(p[0] for p in geo.polygons[first])
            x_right = max(p[0] for p in geo.polygons[last])
            draw_text(img, x_left - pg.px(7), row_y, letter, coord_px, theme.ink, "rc")
            draw_text(img, x_right + pg.px(7), row_y, letter, coord_px, theme.ink, "lc")
        for i in range(board.size):
            if i not in neutral:
                _cell_label(img, geo, i, _in_row(board, i), label_px, theme.muted)
    _draw_panel_frame(img, theme, pg, board, colours)
    return img


def _in_row(board: Any, i: int) -> str:
    """The part of a hex or triangle cell's label written in the cell: its number within the row."""
    return str(board.label(i))[1:]


def _row_middle(geo: BoardGeometry, i: int) -> float:
    ys = [p[1] for p in geo.polygons[i]]
    return (min(ys) + max(ys)) / 2


def _cell_label(img: Image.Image, geo: BoardGeometry, i: int, label: str, px: int, colour: RGB) -> None:
    cx, cy = geo.centres[i]
    draw_text(img, cx, cy, label, px, colour, "mc")


def _piece_colours(theme: Theme, colour: int) -> tuple[RGB, RGB, RGB]:
    """(fill, inner cell lines, outline) for a piece of one colour."""
    fill = own_colours(theme).pieces[colour]
    return fill, blend(fill, (255, 255, 255), 0.3), blend(fill, (0, 0, 0), 0.7)


def _mark_ink(theme: Theme, colour: int) -> RGB:
    """Ink for a seat mark drawn on the seat's colour: dark on light colours (yellow), light otherwise."""
    r, g, b = own_colours(theme).pieces[colour]
    return theme.ink if 0.299 * r + 0.587 * g + 0.114 * b > 160 else own_colours(theme).empty


def _outline(
    draw: ImageDraw.ImageDraw, geo: BoardGeometry, indices: Sequence[int], colour: RGB, width: int
) -> None:
    """A piece's outer boundary, one closed polyline per loop with round joints."""
    for loop in geo.outline_loops(indices):
        draw.line([*loop, loop[0], loop[1]], fill=colour, width=width, joint="curve")


def piece_line_width(geo: BoardGeometry, k: float) -> int:
    """The width of a piece's outline on a page scaled by `k`: about a quarter of a cell's inner radius, 4 to
    5 pixels at the default width, so the line between two touching pieces of one colour still shows when
    Discord shrinks the image to half its width (at 2 pixels, one player's pieces merged into blobs on the
    larger hex boards)."""
    return max(1, round(k * min(max(geo.inner_radius / k * 0.24, 4.0), 5.0)))


def _piece_anchor(geo: BoardGeometry, cells: Sequence[int]) -> tuple[float, float]:
    """The centre of the piece's cell nearest to the piece's middle (where its seat mark goes)."""
    mx = sum(geo.centres[i][0] for i in cells) / len(cells)
    my = sum(geo.centres[i][1] for i in cells) / len(cells)
    best = min(cells, key=lambda i: (geo.centres[i][0] - mx) ** 2 + (geo.centres[i][1] - my) ** 2)
    return geo.centres[best]


def _last_piece(state: Any, last_move: str | None) -> Any | None:
    """The most recently placed piece, unless the last move was a pass, resignation or swap."""
    if last_move is not None and last_move.strip().lower() in _NOT_PLACEMENTS:
        return None
    if not state.placed:
        return None
    return max(state.placed, key=lambda p: p.ply)


Op = tuple[Box, Hashable, Callable[[], None]]
"""One step of drawing the board: the box it may paint in, what it paints (a key: the same key paints the
same pixels over the same pixels), and the drawing itself."""


def _draw_board(img: Image.Image, state: Any, theme: Theme, geo: BoardGeometry, last: Any | None) -> None:
    for _, _, paint in _board_ops(img, state, theme, geo, last):
        paint()


def _box_of(points: Sequence[tuple[float, float]], reach: float) -> Box:
    """The pixels within `reach` of the points' bounding box (and a pixel more for rounding)."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    margin = math.ceil(reach) + 2
    return (
        math.floor(min(xs)) - margin,
        math.floor(min(ys)) - margin,
        math.ceil(max(xs)) + margin + 1,
        math.ceil(max(ys)) + margin + 1,
    )


def _board_ops(img: Image.Image, state: Any, theme: Theme, geo: BoardGeometry, last: Any | None) -> list[Op]:
    """The board's drawing over `_background`, step by step in order: each territory cell not covered by
    a piece (its colour, with its seat mark or its label), each piece in the order placed (cells, inner
    lines, outline, mark), the outline of the last piece placed."""
    draw = ImageDraw.Draw(img)
    label_px = _cell_label_px(geo)
    covered = 0
    for piece in state.placed:
        for i in piece.cells:
            covered |= 1 << i
    mark_r = max(3.0, geo.inner_radius * 0.32)
    ops: list[Op] = []
    for i, owner in enumerate(state.territory):
        if owner is None or covered >> i & 1:
            continue
        colour = seat_colour_index(state, owner)
        ops.append(
            (
                _box_of(geo.polygons[i], 1),
                ("territory", i, colour),
                partial(_territory, img, draw, state, theme, geo, i, colour, label_px, mark_r),
            )
        )
    line = piece_line_width(geo, img.width / BASE_WIDTH)
    for n, piece in enumerate(state.placed):
        colour = seat_colour_index(state, piece.owner)
        cells = tuple(piece.cells)
        points = [p for i in cells for p in geo.polygons[i]]
        ops.append(
            (
                _box_of(points, line / 2 + 1),
                ("piece", n, colour, cells),
                partial(_piece, draw, theme, geo, cells, colour, line, mark_r),
            )
        )
    if last is not None:
        cells = tuple(last.cells)
        width = line + max(2, round(geo.scale * 0.05))
        points = [p for i in cells for p in geo.polygons[i]]
        ops.append(
            (
                _box_of(points, width / 2 + 1),
                ("last", cells),
                partial(_last_outline, draw, theme, geo, cells, line),
            )
        )
    return ops


def _territory(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    state: Any,
    theme: Theme,
    geo: BoardGeometry,
    i: int,
    colour: int,
    label_px: int,
    mark_r: float,
) -> None:
    draw.polygon(geo.polygons[i], fill=own_colours(theme).territories[colour], outline=theme.grid_line)
    if theme.second_cues or state.board.kind == "square":
        cx, cy = geo.centres[i]
        shape = own_colours(theme).marks[colour]
        draw.polygon(mark_polygon(shape, cx, cy, mark_r * 0.6), fill=own_colours(theme).pieces[colour])
    else:
        _cell_label(
            img,
            geo,
            i,
            _in_row(state.board, i),
            label_px,
            blend(own_colours(theme).territories[colour], theme.ink, 0.5),
        )


def _piece(
    draw: ImageDraw.ImageDraw,
    theme: Theme,
    geo: BoardGeometry,
    cells: tuple[int, ...],
    colour: int,
    line: int,
    mark_r: float,
) -> None:
    fill, inner, edge = _piece_colours(theme, colour)
    _fill_cells(draw, [geo.polygons[i] for i in cells], fill, inner)
    _outline(draw, geo, cells, edge, line)
    if theme.second_cues:
        cx, cy = _piece_anchor(geo, cells)
        draw.polygon(
            mark_polygon(own_colours(theme).marks[colour], cx, cy, mark_r), fill=_mark_ink(theme, colour)
        )


def _last_outline(
    draw: ImageDraw.ImageDraw, theme: Theme, geo: BoardGeometry, cells: tuple[int, ...], line: int
) -> None:
    _outline(draw, geo, cells, theme.highlight, line + max(2, round(geo.scale * 0.05)))
    _outline(draw, geo, cells, theme.highlight_ink, max(1, line // 2))


def _fill_cells(
    draw: ImageDraw.ImageDraw, polygons: Sequence[Sequence[tuple[float, float]]], fill: RGB, outline: RGB
) -> None:
    """`draw.polygon(polygon, fill=fill, outline=outline)` for every polygon, the same pixels with the inks
    looked up once (a mid-game board has a hundred covered cells)."""
    line_ink, fill_ink = draw._getink(outline, fill)
    core = draw.draw
    for polygon in polygons:
        core.draw_polygon(polygon, fill_ink, 1)
        if line_ink != fill_ink:
            core.draw_polygon(polygon, line_ink, 0, 1)


def _chips(rules: Any, state: Any, names: list[str], theme: Theme, outcome: Outcome | None) -> list[SeatChip]:
    to_move = rules.to_move(state)
    points = _engine().scores(state)
    chips = []
    for seat in range(state.seats):
        colour = seat_colour_index(state, seat)
        fill, _, edge = _piece_colours(theme, colour)
        cells = wording.plural("tk.cells", points[seat])
        note = "tk.resigned" if state.resigned[seat] else "tk.passes_for_good" if state.passall[seat] else ""
        chips.append(
            SeatChip(
                name=names[seat],
                role=wording.word(rules.seat_label(state, seat)),
                detail=wording.text("tk.with_note", text=cells, note=wording.text(note)) if note else cells,
                fill=fill,
                rim=edge,
                mark=own_colours(theme).marks[colour] if theme.second_cues else "",
                mark_ink=_mark_ink(theme, colour),
                to_move=outcome is None and to_move == seat,
                winner=outcome is not None and seat in outcome.winners,
            )
        )
    return chips


def _row_height(pg: Page, seats: int) -> int:
    return pg.px(min(84, 300 // max(1, seats)))


def _draw_panel_frame(
    img: Image.Image, theme: Theme, pg: Page, board: Any, seat_colours: tuple[int, ...]
) -> None:
    """The panel's parts that never change within a match: titles, the board's name, the key."""
    draw = ImageDraw.Draw(img)
    px0, py0, px1, py1 = pg.panel
    left, right = px0 + pg.px(16), px1 - pg.px(16)
    y = py0 + pg.px(12)
    small = pg.px(SMALL_PX)
    draw_text(img, left, y, wording.text("tk.score"), pg.px(21), theme.ink)
    draw_text(img, right, y + pg.px(4), wording.text("tk.score_parts"), small, theme.muted, "rt")
    y += pg.px(32) + len(seat_colours) * _row_height(pg, len(seat_colours))
    y += pg.px(4)
    about = wording.text("tk.board", board=board.id, count=board.playable_count)
    draw_text(img, left, y, fit_text(about, small, right - left), small, theme.muted)
    y += pg.px(26)
    sw = pg.px(20)
    line_h = pg.px(SMALL_PX + 4)
    text_left = left + sw + pg.px(8)
    for kind in ("piece", "territory", "neutral"):
        lines = wrap_text(wording.text(f"tk.key.{kind}"), small, right - text_left)
        height = max(sw, sw + (len(lines) - 1) * line_h)
        if y + height > py1 - pg.px(40):
            break
        if kind == "neutral":
            fills = [own_colours(theme).neutral]
        else:
            fills = [
                (own_colours(theme).pieces if kind == "piece" else own_colours(theme).territories)[c]
                for c in seat_colours
            ]
        _legend_swatch(draw, (left, y, left + sw, y + sw), fills, theme.grid_line)
        for n, line in enumerate(lines):  # the first line beside the swatch, the rest below it
            draw_text(img, text_left, y + sw / 2 + n * line_h, line, small, theme.ink, "lm")
        y += height + pg.px(8)


def _draw_panel(
    img: Image.Image, state: Any, theme: Theme, pg: Page, names: list[str], last_move: str | None
) -> None:
    """The panel's rows of scores and the last move (the rest is in `_background`)."""
    engine = _engine()
    draw = ImageDraw.Draw(img)
    px0, py0, px1, py1 = pg.panel
    left, right = px0 + pg.px(16), px1 - pg.px(16)
    y = py0 + pg.px(12) + pg.px(32)
    small = pg.px(SMALL_PX)
    points = engine.scores(state)
    leader_points = max(points) if points else 0
    row_h = _row_height(pg, state.seats)
    for seat in range(state.seats):
        colour = seat_colour_index(state, seat)
        fill, _, edge = _piece_colours(theme, colour)
        sw = pg.px(26)
        draw.rectangle((left, y, left + sw, y + sw), fill=fill, outline=edge, width=pg.px(2))
        shape = own_colours(theme).marks[colour]
        if theme.second_cues:
            draw.polygon(
                mark_polygon(shape, left + sw / 2, y + sw / 2, sw * 0.28), fill=_mark_ink(theme, colour)
            )
        covered = sum(len(p.cells) for p in state.placed if p.owner == seat)
        territory = points[seat] - covered
        colour_word = colour_name(colour)
        draw_text(
            img,
            left + sw + pg.px(10),
            y - pg.px(3),
            fit_name_with_role(names[seat], colour_word, pg.px(18), right - left - sw - pg.px(70)),
            pg.px(18),
            theme.ink,
        )
        score_colour = theme.ink if points[seat] == leader_points else theme.muted
        draw_text(img, right, y - pg.px(4), str(points[seat]), pg.px(28), score_colour, "rt")
        left_pieces = sum(engine.supply(state, seat).values())
        detail = wording.plural("tk.pieces_left", left_pieces, covered=covered, territory=territory)
        note = (
            "tk.resigned" if state.resigned[seat] else "tk.passes_every_turn" if state.passall[seat] else ""
        )
        if note:
            detail = wording.text("tk.with_note", text=detail, note=wording.text(note))
        room = right - left - sw - pg.px(10)
        draw_wrapped(img, left + sw + pg.px(10), y + pg.px(21), detail, small, theme.muted, room)
        y += row_h
    if last_move:
        text = wording.text("last_move", move=wording.move(last_move))
        draw_text(img, left, py1 - pg.px(14), fit_text(text, small, right - left), small, theme.ink, "lb")


def _legend_swatch(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], fills: Sequence[RGB], outline: RGB
) -> None:
    """A key swatch striped with one colour per seat in the game (not always Red's), outlined."""
    left, top, right, bottom = box
    step = (right - left) / len(fills)
    for n, fill in enumerate(fills):
        draw.rectangle((round(left + n * step), top, round(left + (n + 1) * step), bottom), fill=fill)
    draw.rectangle(box, outline=outline)


def draw(
    state: Any,
    *,
    last_move: str | None,
    players: Sequence[str] | None,
    theme: Theme,
    size: int,
    outcome: Outcome | None = None,
) -> Image.Image:
    """The whole TilingKing image for `state`; `outcome` (a resignation, timeout, abort) overrides the
    engine's."""
    rules = games.get("tilingking")
    outcome = final_outcome(rules, state, outcome)
    board = state.board
    pg = page(size, BOARD_SHARE)
    geo = _geometry(board.kind, tuple(board.cells), size)
    names = seat_names(rules, state, players, state.seats)
    colours = tuple(seat_colour_index(state, seat) for seat in range(state.seats))
    img = _background(theme, size, board.id, colours, wording.language(), fonts.chain()).copy()
    _draw_board(img, state, theme, geo, _last_piece(state, last_move))
    _draw_panel(img, state, theme, pg, names, last_move)
    status = status_text(rules, state, names, outcome=outcome)
    draw_header(img, pg, theme, _chips(rules, state, names, theme, outcome), status)
    return img


def describe(
    state: Any, *, last_move: str | None, players: Sequence[str] | None, outcome: Outcome | None = None
) -> str:
    """The position in words: scores, whose turn or the result, each player's pieces and territory cells."""
    rules = games.get("tilingking")
    engine = _engine()
    names = seat_names(rules, state, players, state.seats)
    board = state.board
    points = engine.scores(state)
    status = status_text(rules, state, names, outcome=outcome)
    kind = wording.text(f"tk.alt.kind.{board.kind}")
    parts = [wording.text("tk.alt.board", board=board.id, kind=kind, status=status)]
    if last_move:
        parts.append(wording.text("alt.last_move", move=wording.move(last_move)))
    scores = wording.pairs(
        [
            wording.text(
                "tk.alt.score",
                player=wording.with_role(names[s], rules.seat_label(state, s)),
                points=points[s],
            )
            for s in range(state.seats)
        ]
    )
    parts.append(wording.text("tk.alt.scores", scores=scores))
    for seat in range(state.seats):
        pieces = [p for p in state.placed if p.owner == seat]
        listed = wording.items(
            [
                wording.text("tk.alt.piece", piece=p.piece, cells=" ".join(board.label(i) for i in p.cells))
                for p in pieces
            ]
        )
        territory = [board.label(i) for i, owner in enumerate(state.territory) if owner == seat]
        role = rules.seat_label(state, seat)
        text = wording.text("tk.alt.pieces", role=role, pieces=listed or wording.text("alt.none"))
        if territory:
            text = wording.text("tk.alt.territory", text=text, cells=" ".join(territory))
        parts.append(wording.sentence(text))
    return wording.sentences(parts)


# --------------------------------------------------------------------------------------------- /pieces


def _shape_polygons(
    kind: str, shape: Sequence[tuple[int, int]], box: tuple[float, float, float, float], max_scale: float
) -> tuple[list[list[tuple[float, float]]], list[tuple[tuple[float, float], tuple[float, float]]]]:
    """A piece's cell polygons and outline fitted into `box`, no larger than `max_scale` pixels a unit."""
    geo = BoardGeometry(kind, tuple(shape), box)
    if geo.scale > max_scale:
        x0, y0, w, h = box
        shrink = max_scale / geo.scale
        nw, nh = w * shrink, h * shrink
        geo = BoardGeometry(kind, tuple(shape), (x0 + (w - nw) / 2, y0 + (h - nh) / 2, nw, nh))
    polys = [list(p) for p in geo.polygons]
    return polys, geo.outline(range(len(shape)))


def draw_pieces(
    state: Any, seat: int, *, players: Sequence[str] | None, theme: Theme, size: int
) -> Image.Image:
    """One seat's remaining pieces, each drawn with its id and how many are left (greyed out when none)."""
    rules = games.get("tilingking")
    engine = _engine()
    if not 0 <= seat < state.seats:
        raise ValueError(f"seat {seat} is not in this game (seats 0-{state.seats - 1})")
    names = seat_names(rules, state, players, state.seats)
    kind = state.board.kind
    shapes = engine.piece_shapes(kind)
    counts = engine.supply(state, seat)
    pg = page(size)
    img = Image.new("RGB", (pg.width, pg.height), theme.background)
    draw = ImageDraw.Draw(img)
    colour = seat_colour_index(state, seat)
    fill, inner, edge = _piece_colours(theme, colour)
    grey_fill, grey_edge = (
        blend(theme.background, theme.muted, 0.25),
        blend(theme.background, theme.muted, 0.6),
    )
    chip = SeatChip(
        name=names[seat],
        role=wording.word(rules.seat_label(state, seat)),
        detail=wording.plural("tk.pieces.left", sum(counts.values())),
        fill=fill,
        rim=edge,
        mark=own_colours(theme).marks[colour] if theme.second_cues else "",
        mark_ink=_mark_ink(theme, colour),
    )
    draw_header(img, pg, theme, [chip], wording.text("tk.pieces.title", name=names[seat]))
    ids = list(shapes)
    columns = 4 if len(ids) <= 12 else 5
    rows = math.ceil(len(ids) / columns)
    x0, y0 = pg.px(12), pg.header[3] + pg.px(10)
    cell_w = (pg.width - 2 * x0) / columns
    cell_h = (pg.height - y0 - pg.px(10)) / rows
    area_w, area_h = cell_w - pg.px(32), cell_h - pg.px(58)
    max_scale = min(
        BoardGeometry(kind, tuple(shape), (0, 0, area_w, area_h)).scale for shape in shapes.values()
    )
    max_scale = min(max_scale, pg.px(44))
    full_names = {p.id: p.name for p in engine.pieces(kind)}
    line = max(2, pg.px(3))
    for n, piece_id in enumerate(ids):
        col, row = n % columns, n // columns
        left, top = x0 + col * cell_w, y0 + row * cell_h
        have = counts.get(piece_id, 0)
        box_fill = theme.panel
        draw.rounded_rectangle(
            (left + pg.px(4), top + pg.px(4), left + cell_w - pg.px(4), top + cell_h - pg.px(4)),
            radius=pg.px(8),
            fill=box_fill,
        )
        text_colour = theme.ink if have else theme.muted
        draw_text(img, left + pg.px(14), top + pg.px(10), piece_id, pg.px(22), text_colour)
        count = wording.text("tk.pieces.count", count=have)
        draw_text(img, left + cell_w - pg.px(14), top + pg.px(12), count, pg.px(18), text_colour, "rt")
        name = fit_text(full_names.get(piece_id, ""), pg.px(SMALL_PX), cell_w - pg.px(110))
        draw_text(
            img,
            left + pg.px(14) + text_width(piece_id, pg.px(22)) + pg.px(8),
            top + pg.px(16),
            name,
            pg.px(SMALL_PX),
            theme.muted,
        )
        area = (left + pg.px(16), top + pg.px(46), area_w, area_h)
        polys, outline = _shape_polygons(kind, shapes[piece_id], area, max_scale)
        for poly in polys:
            draw.polygon(poly, fill=fill if have else grey_fill, outline=inner if have else grey_edge)
        for a, b in outline:
            thick_line(draw, a, b, edge if have else grey_edge, line)
    return img


def cell_polygons(state: Any, size: int) -> tuple[tuple[tuple[float, float], ...], ...]:
    """Each cell's corners in the pixels of `draw(size=size)`, in the board's cell order, for hosts that draw
    on the image (`renderer.scene`)."""
    board = state.board
    return _geometry(board.kind, tuple(board.cells), size).polygons


def cell_labels(state: Any) -> tuple[str, ...]:
    """Each cell's name as a player types it."""
    return tuple(state.board.labels)


def _overlaps(box: Box, boxes: Sequence[Box]) -> bool:
    return any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in boxes)


def _merged(boxes: list[Box]) -> list[Box]:
    """`boxes` with every two that overlap replaced by the box round both, until none overlap."""
    out: list[Box] = []
    for box in boxes:
        while True:
            joined = next((b for b in out if _overlaps(box, [b])), None)
            if joined is None:
                break
            out.remove(joined)
            box = (
                min(box[0], joined[0]),
                min(box[1], joined[1]),
                max(box[2], joined[2]),
                max(box[3], joined[3]),
            )
        out.append(box)
    return out


def redraw(img: Image.Image, before: Board, after: Board) -> list[Box] | None:
    """Draw on `img` the parts of `after`'s image that may differ from `before`'s (see
    `renderer.incremental`): the header, the panel, and round every step of the board's drawing that
    differs between the two (a cell's territory, a piece, the last piece's outline) the background and
    every step that paints there, in `draw`'s order; returns their boxes. None for another board or when
    the seats' colours changed (a swap)."""
    theme, size = after.theme, after.size
    rules = games.get("tilingking")
    state, old = after.state, before.state
    board = state.board
    colours = tuple(seat_colour_index(state, seat) for seat in range(state.seats))
    if old.board.id != board.id or tuple(seat_colour_index(old, s) for s in range(old.seats)) != colours:
        return None
    pg = page(size, BOARD_SHARE)
    geo = _geometry(board.kind, tuple(board.cells), size)
    ops = _board_ops(img, state, theme, geo, _last_piece(state, after.last_move))
    old_ops = _board_ops(img, old, theme, geo, _last_piece(old, before.last_move))
    keys, old_keys = {key for _, key, _ in ops}, {key for _, key, _ in old_ops}
    width, height = img.size
    changed = [box for box, key, _ in ops if key not in old_keys]
    changed += [box for box, key, _ in old_ops if key not in keys]
    damaged = _merged([(max(0, b[0]), max(0, b[1]), min(width, b[2]), min(height, b[3])) for b in changed])
    language, chain = wording.language(), fonts.chain()
    under = _background(theme, size, board.id, colours, language, chain)
    for box in damaged:
        img.paste(under.crop(box), box[:2])
    for box, _, paint in ops:
        if _overlaps(box, damaged):
            paint()
    img.paste(under.crop(pg.panel), pg.panel[:2])
    outcome = final_outcome(rules, state, after.outcome)
    names = seat_names(rules, state, after.players, state.seats)
    _draw_panel(img, state, theme, pg, names, after.last_move)
    status = status_text(rules, state, names, outcome=outcome)
    draw_header(img, pg, theme, _chips(rules, state, names, theme, outcome), status)
    return [pg.header, pg.panel, *damaged]
