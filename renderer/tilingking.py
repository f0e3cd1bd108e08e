"""TilingKing board: square, hex and triangle cells; neutral tiles dark; every placed piece filled in its
owner's colour with its outer boundary drawn, so two touching pieces of one player stay two pieces; captured
territory shaded in its owner's colour; the most recent piece outlined. Hex and triangle cells carry their
labels (row letter + number) while empty, and row letters stand outside the board. The panel lists each
player's score (covered + territory), pieces left and pass/resign state.

`draw_pieces` draws one player's remaining pieces with their ids and counts, for /pieces.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

import games
from renderer.canvas import (
    Page,
    SeatChip,
    draw_header,
    draw_text,
    fit_text,
    mark_polygon,
    new_canvas,
    page,
    seat_names,
    status_text,
    text_width,
    thick_line,
)
from renderer.geometry import BoardGeometry
from renderer.theme import RGB, SEAT_COLOUR_NAMES, Theme, blend

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


def _cell_label_px(geo: BoardGeometry) -> int:
    return max(8, min(14, round(geo.inner_radius * (0.62 if geo.kind == "triangle" else 0.5))))


def _row_letters(board: Any) -> dict[str, list[int]]:
    rows: dict[str, list[int]] = {}
    for i in range(board.size):
        label = board.label(i)
        rows.setdefault(label[0], []).append(i)
    return rows


@lru_cache(maxsize=32)
def _background(theme: Theme, size: int, board_id: str) -> Image.Image:
    """Empty playable cells with their labels, neutral cells, coordinates outside the board."""
    from games.tilingking.boards import board as board_by_id

    board = board_by_id(board_id)
    pg = page(size, BOARD_SHARE)
    geo = _geometry(board.kind, tuple(board.cells), size)
    img = new_canvas(pg, theme)
    draw = ImageDraw.Draw(img)
    neutral = set(board.neutral)
    for i, poly in enumerate(geo.polygons):
        fill = theme.tk_neutral if i in neutral else theme.tk_empty
        draw.polygon(poly, fill=fill, outline=theme.grid_line)
    label_px = _cell_label_px(geo)
    coord_px = pg.px(15)
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
                _cell_label(img, geo, i, board.label(i), label_px, theme.muted)
    return img


def _row_middle(geo: BoardGeometry, i: int) -> float:
    ys = [p[1] for p in geo.polygons[i]]
    return (min(ys) + max(ys)) / 2


def _cell_label(img: Image.Image, geo: BoardGeometry, i: int, label: str, px: int, colour: RGB) -> None:
    cx, cy = geo.centres[i]
    draw_text(img, cx, cy, label, px, colour, "mc")


def _piece_colours(theme: Theme, colour: int) -> tuple[RGB, RGB, RGB]:
    """(fill, inner cell lines, outline) for a piece of one colour."""
    fill = theme.seat_colours[colour]
    return fill, blend(fill, (255, 255, 255), 0.3), blend(fill, (0, 0, 0), 0.7)


def _mark_ink(theme: Theme, colour: int) -> RGB:
    """Ink for a seat mark drawn on the seat's colour: dark on light colours (yellow), light otherwise."""
    r, g, b = theme.seat_colours[colour]
    return theme.ink if 0.299 * r + 0.587 * g + 0.114 * b > 160 else theme.tk_empty


def _outline(
    draw: ImageDraw.ImageDraw, geo: BoardGeometry, indices: Sequence[int], colour: RGB, width: int
) -> None:
    for a, b in geo.outline(indices):
        thick_line(draw, a, b, colour, width)


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


def _draw_board(img: Image.Image, state: Any, theme: Theme, geo: BoardGeometry, last: Any | None) -> None:
    board = state.board
    draw = ImageDraw.Draw(img)
    label_px = _cell_label_px(geo)
    covered = 0
    for piece in state.placed:
        for i in piece.cells:
            covered |= 1 << i
    mark_r = max(3.0, geo.inner_radius * 0.32)
    for i, owner in enumerate(state.territory):
        if owner is None or covered >> i & 1:
            continue
        colour = seat_colour_index(state, owner)
        draw.polygon(geo.polygons[i], fill=theme.territory_colours[colour], outline=theme.grid_line)
        if theme.second_cues or board.kind == "square":
            cx, cy = geo.centres[i]
            shape = theme.seat_marks[colour]
            draw.polygon(mark_polygon(shape, cx, cy, mark_r * 0.6), fill=theme.seat_colours[colour])
        else:
            _cell_label(
                img, geo, i, board.label(i), label_px, blend(theme.territory_colours[colour], theme.ink, 0.5)
            )
    line = max(2, round(geo.scale * 0.07))
    for piece in state.placed:
        colour = seat_colour_index(state, piece.owner)
        fill, inner, edge = _piece_colours(theme, colour)
        for i in piece.cells:
            draw.polygon(geo.polygons[i], fill=fill, outline=inner)
        _outline(draw, geo, piece.cells, edge, line)
        if theme.second_cues:
            cx, cy = _piece_anchor(geo, piece.cells)
            draw.polygon(
                mark_polygon(theme.seat_marks[colour], cx, cy, mark_r), fill=_mark_ink(theme, colour)
            )
    if last is not None:
        _outline(draw, geo, last.cells, theme.highlight, line + max(2, round(geo.scale * 0.05)))
        _outline(draw, geo, last.cells, theme.highlight_ink, max(1, line // 2))


def _chips(rules: Any, state: Any, names: list[str], theme: Theme) -> list[SeatChip]:
    outcome = rules.outcome(state)
    to_move = rules.to_move(state)
    points = _engine().scores(state)
    chips = []
    for seat in range(state.seats):
        colour = seat_colour_index(state, seat)
        fill, _, edge = _piece_colours(theme, colour)
        notes = " · resigned" if state.resigned[seat] else " · passes for good" if state.passall[seat] else ""
        chips.append(
            SeatChip(
                name=names[seat],
                role=str(rules.seat_label(state, seat)),
                detail=f"{points[seat]} cells{notes}",
                fill=fill,
                rim=edge,
                mark=theme.seat_marks[colour] if theme.second_cues else "",
                mark_ink=_mark_ink(theme, colour),
                to_move=outcome is None and to_move == seat,
                winner=outcome is not None and seat in outcome.winners,
            )
        )
    return chips


def _draw_panel(
    img: Image.Image, state: Any, theme: Theme, pg: Page, names: list[str], last_move: str | None
) -> None:
    engine = _engine()
    draw = ImageDraw.Draw(img)
    px0, py0, px1, py1 = pg.panel
    left, right = px0 + pg.px(16), px1 - pg.px(16)
    y = py0 + pg.px(12)
    draw_text(img, left, y, "Score", pg.px(20), theme.ink)
    draw_text(img, right, y + pg.px(4), "covered + territory", pg.px(13), theme.muted, "rt")
    y += pg.px(32)
    points = engine.scores(state)
    leader_points = max(points) if points else 0
    row_h = pg.px(min(84, 300 // max(1, state.seats)))
    for seat in range(state.seats):
        colour = seat_colour_index(state, seat)
        fill, _, edge = _piece_colours(theme, colour)
        sw = pg.px(26)
        draw.rectangle((left, y, left + sw, y + sw), fill=fill, outline=edge, width=pg.px(2))
        shape = theme.seat_marks[colour]
        if theme.second_cues:
            draw.polygon(
                mark_polygon(shape, left + sw / 2, y + sw / 2, sw * 0.28), fill=_mark_ink(theme, colour)
            )
        covered = sum(len(p.cells) for p in state.placed if p.owner == seat)
        territory = points[seat] - covered
        name = (
            f"{names[seat]} ({SEAT_COLOUR_NAMES[colour]})"
            if names[seat] != SEAT_COLOUR_NAMES[colour]
            else names[seat]
        )
        draw_text(
            img,
            left + sw + pg.px(10),
            y - pg.px(2),
            fit_text(name, pg.px(16), right - left - pg.px(90)),
            pg.px(16),
            theme.ink,
        )
        score_colour = theme.ink if points[seat] == leader_points else theme.muted
        draw_text(img, right, y - pg.px(4), str(points[seat]), pg.px(28), score_colour, "rt")
        left_pieces = sum(engine.supply(state, seat).values())
        status = "resigned" if state.resigned[seat] else "passes every turn" if state.passall[seat] else ""
        plural = "piece" if left_pieces == 1 else "pieces"
        detail = f"{covered} + {territory} · {left_pieces} {plural} left" + (f" · {status}" if status else "")
        draw_text(
            img,
            left + sw + pg.px(10),
            y + pg.px(20),
            fit_text(detail, pg.px(13), right - left - sw),
            pg.px(13),
            theme.muted,
        )
        y += row_h
    board = state.board
    y += pg.px(6)
    draw_text(
        img,
        left,
        y,
        fit_text(f"Board {board.id}: {board.playable_count} playable cells", pg.px(14), right - left),
        pg.px(14),
        theme.muted,
    )
    y += pg.px(22)
    key = [
        ("piece", "a piece (outlined)"),
        ("territory", "captured territory"),
        ("neutral", "neutral tile (counts for every ring)"),
    ]
    sw = pg.px(18)
    for kind, text in key:
        if y + sw > py1 - pg.px(40):
            break
        fill = {
            "piece": theme.seat_colours[0],
            "territory": theme.territory_colours[0],
            "neutral": theme.tk_neutral,
        }[kind]
        draw.rectangle((left, y, left + sw, y + sw), fill=fill, outline=theme.grid_line)
        draw_text(img, left + sw + pg.px(8), y + sw / 2, text, pg.px(13), theme.ink, "lc")
        y += sw + pg.px(6)
    if last_move:
        draw_text(
            img,
            left,
            py1 - pg.px(14),
            # The bundled font's space is narrow; cell lists read better with wider gaps.
            fit_text("Last move: " + "  ".join(last_move.split()), pg.px(14), right - left),
            pg.px(14),
            theme.ink,
            "lb",
        )


def draw(
    state: Any, *, last_move: str | None, players: Sequence[str] | None, theme: Theme, size: int
) -> Image.Image:
    """The whole TilingKing image for `state`."""
    rules = games.get("tilingking")
    board = state.board
    pg = page(size, BOARD_SHARE)
    geo = _geometry(board.kind, tuple(board.cells), size)
    names = seat_names(rules, state, players, state.seats)
    img = _background(theme, size, board.id).copy()
    _draw_board(img, state, theme, geo, _last_piece(state, last_move))
    _draw_panel(img, state, theme, pg, names, last_move)
    draw_header(
        img, pg, theme, _chips(rules, state, names, theme), status_text(rules, state, names, state.ply)
    )
    return img


def describe(state: Any, *, last_move: str | None, players: Sequence[str] | None) -> str:
    """The position in words: scores, whose turn, each player's pieces and territory cells."""
    rules = games.get("tilingking")
    engine = _engine()
    names = seat_names(rules, state, players, state.seats)
    board = state.board
    points = engine.scores(state)
    parts = [
        f"TilingKing board {board.id} ({board.kind} cells). {status_text(rules, state, names, state.ply)}."
    ]
    if last_move:
        parts.append(f"Last move: {last_move}.")
    scores = ", ".join(f"{names[s]} ({rules.seat_label(state, s)}) {points[s]}" for s in range(state.seats))
    parts.append(f"Scores: {scores}.")
    for seat in range(state.seats):
        pieces = [p for p in state.placed if p.owner == seat]
        listed = "; ".join(f"{p.piece} on {' '.join(board.label(i) for i in p.cells)}" for p in pieces)
        territory = [board.label(i) for i, owner in enumerate(state.territory) if owner == seat]
        text = f"{rules.seat_label(state, seat)} pieces: {listed or 'none'}"
        if territory:
            text += f"; territory: {' '.join(territory)}"
        parts.append(text + ".")
    return " ".join(parts)


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
        role=str(rules.seat_label(state, seat)),
        detail=f"{sum(counts.values())} pieces left",
        fill=fill,
        rim=edge,
        mark=theme.seat_marks[colour] if theme.second_cues else "",
        mark_ink=_mark_ink(theme, colour),
    )
    draw_header(img, pg, theme, [chip], f"Pieces of {names[seat]}: id, name and how many are left")
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
        draw_text(img, left + cell_w - pg.px(14), top + pg.px(12), f"x{have}", pg.px(18), text_colour, "rt")
        name = fit_text(full_names.get(piece_id, ""), pg.px(13), cell_w - pg.px(110))
        draw_text(
            img,
            left + pg.px(14) + text_width(piece_id, pg.px(22)) + pg.px(8),
            top + pg.px(17),
            name,
            pg.px(13),
            theme.muted,
        )
        area = (left + pg.px(16), top + pg.px(46), area_w, area_h)
        polys, outline = _shape_polygons(kind, shapes[piece_id], area, max_scale)
        for poly in polys:
            draw.polygon(poly, fill=fill if have else grey_fill, outline=inner if have else grey_edge)
        for a, b in outline:
            thick_line(draw, a, b, edge if have else grey_edge, line)
    return img
