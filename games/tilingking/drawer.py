"""TilingKing board: square, hex and triangle cells; neutral tiles dark; every placed piece filled in its
owner's colour with its outer boundary drawn, so two touching pieces of one player stay two pieces; captured
territory shaded in its owner's colour; the most recent piece outlined. Hex and triangle cells carry their
numbers within their row while empty, and the row letters stand outside the board at both ends of each row
(cell e10 is the 10th cell of row e). The panel lists each
player's score (covered + territory), pieces left and pass/resign state.

`pieces_scene` shows one player's remaining pieces with their ids and counts, for /pieces.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

import games
from games.base import Outcome
from games.texts import N_
from renderer import fonts
from renderer import text as wording
from renderer.builder import inclusive, label, panel_background, wrapped
from renderer.canvas import (
    Page,
    final_outcome,
    fit_name_with_role,
    fit_text,
    page,
    seat_names,
    status_text,
    text_width,
    wrap_text,
)
from renderer.geometry import BoardGeometry
from renderer.scene import (
    Caps,
    Kind,
    Layer,
    LegendEntry,
    Line,
    Mark,
    Panel,
    Polygon,
    Primitive,
    Rect,
    Scene,
    Seat,
    Show,
    TextLine,
)
from renderer.theme import RGB, Theme, Token, contrast, game_colours, mix

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


def _in_row(board: Any, i: int) -> str:
    """The part of a hex or triangle cell's label written in the cell: its number within the row."""
    return str(board.label(i))[1:]


def _row_middle(geo: BoardGeometry, i: int) -> float:
    ys = [p[1] for p in geo.polygons[i]]
    return (min(ys) + max(ys)) / 2


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


# --------------------------------------------------------------------------------------------- scene


def _piece_tokens(colour: int) -> tuple[Token, Token, Token]:
    """(fill, inner cell lines, outline) of a piece of one colour."""
    fill = f"piece_{SEAT_COLOURS[colour]}"
    return fill, mix(fill, "#ffffff", 0.3), mix(fill, "#000000", 0.7)


def _mark_ink(colour: int) -> Token:
    """Ink for a seat mark drawn on the seat's colour: dark on light colours (yellow), light otherwise."""
    return contrast(f"piece_{SEAT_COLOURS[colour]}", "ink", "empty")


_text = label


@lru_cache(maxsize=32)
def _fixed(
    size: int, board_id: str, colours: tuple[int, ...], language: Hashable, chain: fonts.FontChain
) -> tuple[Primitive, ...]:
    """Empty playable cells with their labels, neutral cells, coordinates outside the board; in the panel,
    its titles, the board's name and the key in the seats' `colours`. The texts are in the current language
    and measured in the fonts in use, which are part of the key."""
    from games.tilingking.boards import board as board_by_id

    board = board_by_id(board_id)
    pg = page(size, BOARD_SHARE)
    geo = _geometry(board.kind, tuple(board.cells), size)
    neutral = set(board.neutral)
    items: list[Primitive] = [panel_background(pg)]
    for i in range(board.size):
        items.append(
            Polygon(
                key=f"cell:{i}",
                kind=Kind.CELL,
                cells=(i,),
                fill="neutral" if i in neutral else "empty",
                stroke="grid_line",
            )
        )
    label_px = _cell_label_px(geo)
    coord_px = pg.px(18)
    left, _, _, bottom = geo.bounds

    def coordinate(key: str, at: tuple[float, float], text: str, anchor: str) -> TextLine:
        return TextLine(
            key=key, kind=Kind.COORDINATE, at=at, text=text, size=coord_px, colour="ink", anchor=anchor
        )

    if board.kind == "square":
        xs = sorted({c[0] for c in board.cells})
        ys = sorted({c[1] for c in board.cells})
        for x in xs:
            i = board.cells.index((x, ys[0]))
            items.append(
                coordinate(f"file:{x}", (geo.centres[i][0], bottom + pg.px(5)), board.label(i)[0], "mt")
            )
        for y in ys:
            i = board.cells.index((xs[0], y))
            items.append(
                coordinate(f"rank:{y}", (left - pg.px(8), geo.centres[i][1]), board.label(i)[1:], "rc")
            )
    else:
        for letter, members in _row_letters(board).items():
            first = min(members, key=lambda i: geo.centres[i][0])
            last = max(members, key=lambda i: geo.centres[i][0])
            row_y = geo.centres[first][1] if board.kind == "hex" else _row_middle(geo, first)
            x_left = min(p[0] for p in geo.polygons[first])
            x_right = max(p[0] for p in geo.polygons[last])
            items.append(coordinate(f"row:{letter}:left", (x_left - pg.px(7), row_y), letter, "rc"))
            items.append(coordinate(f"row:{letter}:right", (x_right + pg.px(7), row_y), letter, "lc"))
        for i in range(board.size):
            if i not in neutral:
                items.append(
                    TextLine(
                        key=f"label:{i}",
                        kind=Kind.LABEL,
                        cells=(i,),
                        at=geo.centres[i],
                        text=_in_row(board, i),
                        size=label_px,
                        colour="muted",
                        anchor="mc",
                    )
                )
    items.extend(_panel_frame(pg, board, colours))
    return tuple(items)


def _row_height(pg: Page, seats: int) -> int:
    return pg.px(min(84, 300 // max(1, seats)))


def _panel_frame(pg: Page, board: Any, seat_colours: tuple[int, ...]) -> list[Primitive]:
    """The panel's parts that never change within a match: titles, the board's name, the key."""
    px0, py0, px1, py1 = pg.panel
    left, right = px0 + pg.px(16), px1 - pg.px(16)
    y = py0 + pg.px(12)
    small = pg.px(SMALL_PX)
    items: list[Primitive] = [
        _text("panel:title", (left, y), wording.text("tk.score"), pg.px(21), "ink"),
        _text("panel:parts", (right, y + pg.px(4)), wording.text("tk.score_parts"), small, "muted", "rt"),
    ]
    y += pg.px(32) + len(seat_colours) * _row_height(pg, len(seat_colours))
    y += pg.px(4)
    about = wording.text("tk.board", board=board.id, count=board.playable_count)
    items.append(_text("panel:board", (left, y), fit_text(about, small, right - left), small, "muted"))
    y += pg.px(26)
    sw = pg.px(20)
    line_h = pg.px(SMALL_PX + 4)
    text_left = left + sw + pg.px(8)
    for kind in ("piece", "territory", "neutral"):
        lines = wrap_text(wording.text(f"tk.key.{kind}"), small, right - text_left)
        height = max(sw, sw + (len(lines) - 1) * line_h)
        if y + height > py1 - pg.px(40):
            break
        fills = ["neutral"] if kind == "neutral" else [f"{kind}_{SEAT_COLOURS[c]}" for c in seat_colours]
        step = sw / len(fills)
        for n, fill in enumerate(fills):
            items.append(
                Rect(
                    key=f"key:{kind}:{n}",
                    kind=Kind.LEGEND,
                    layer=Layer.PANEL,
                    box=inclusive(round(left + n * step), y, round(left + (n + 1) * step), y + sw),
                    fill=fill,
                )
            )
        items.append(
            Rect(
                key=f"key:{kind}",
                kind=Kind.LEGEND,
                layer=Layer.PANEL,
                box=inclusive(left, y, left + sw, y + sw),
                stroke="grid_line",
            )
        )
        for n, line in enumerate(lines):  # the first line beside the swatch, the rest below it
            items.append(
                TextLine(
                    key=f"key:{kind}:line{n}",
                    kind=Kind.LEGEND,
                    layer=Layer.PANEL,
                    at=(text_left, y + sw / 2 + n * line_h),
                    text=line,
                    size=small,
                    colour="ink",
                    anchor="lm",
                )
            )
        y += height + pg.px(8)
    return items


def _mark(
    key: str, shape: str, at: tuple[float, float], r: float, fill: Token, cells: tuple[int, ...], show: Show
) -> Mark:
    return Mark(key=key, kind=Kind.MARK, cells=cells, show=show, centre=at, r=r, shape=shape, fill=fill)


def _board(state: Any, geo: BoardGeometry, k: float, last: Any | None) -> list[Primitive]:
    """Over the fixed cells: each territory cell not covered by a piece (its colour, with its seat mark or
    its label), each piece in the order placed (cells, inner lines, outline, mark), the outline of the last
    piece placed."""
    label_px = _cell_label_px(geo)
    covered = 0
    for piece in state.placed:
        for i in piece.cells:
            covered |= 1 << i
    mark_r = max(3.0, geo.inner_radius * 0.32)
    square = state.board.kind == "square"
    owned: dict[int, list[int]] = {}  # the territory not covered by a piece, by colour
    for i, owner in enumerate(state.territory):
        if owner is not None and not covered >> i & 1:
            owned.setdefault(seat_colour_index(state, owner), []).append(i)
    items: list[Primitive] = [
        Polygon(
            key=f"territory:{SEAT_COLOURS[colour]}",
            kind=Kind.TERRITORY,
            cells=tuple(members),
            fill=f"territory_{SEAT_COLOURS[colour]}",
            stroke="grid_line",
        )
        for colour, members in sorted(owned.items())
    ]
    for colour, members in sorted(owned.items()):  # inside each cell: its label or mark over its colour
        for i in members:
            items.extend(_territory_cell(i, colour, square, _in_row(state.board, i), geo, label_px, mark_r))
    line = piece_line_width(geo, k)
    for n, piece in enumerate(state.placed):
        items.extend(_piece(n, seat_colour_index(state, piece.owner), tuple(piece.cells), geo, line, mark_r))
    if last is not None:
        items.extend(_last_outline(tuple(last.cells), geo, line))
    return items


@lru_cache(maxsize=2048)
def _piece(
    n: int, colour: int, cells: tuple[int, ...], geo: BoardGeometry, line: int, mark_r: float
) -> tuple[Primitive, ...]:
    """The n-th piece placed: its cells (with their inner lines), its outline, its seat mark (cues)."""
    fill, inner, edge = _piece_tokens(colour)
    items: list[Primitive] = [
        Polygon(key=f"piece:{n}", kind=Kind.PIECE, cells=cells, fill=fill, stroke=inner)
    ]
    for m, loop in enumerate(geo.outline_loops(cells)):
        items.append(
            Line(
                key=f"piece:{n}:outline{m}",
                kind=Kind.OUTLINE,
                cells=cells,
                points=loop,
                stroke=edge,
                width=line,
                closed=True,
            )
        )
    anchor = _piece_anchor(geo, cells)
    items.append(
        _mark(f"piece:{n}:mark", SEAT_MARKS[colour], anchor, mark_r, _mark_ink(colour), cells, Show.CUES)
    )
    return tuple(items)


@lru_cache(maxsize=256)
def _last_outline(cells: tuple[int, ...], geo: BoardGeometry, line: int) -> tuple[Primitive, ...]:
    """The last piece placed, outlined in the highlight with a thin light line inside."""
    loops = geo.outline_loops(cells)
    wide = line + max(2, round(geo.scale * 0.05))
    outer = [
        Line(
            key=f"mark:last{m}",
            kind=Kind.HIGHLIGHT,
            cells=cells,
            points=loop,
            stroke="highlight",
            width=wide,
            closed=True,
        )
        for m, loop in enumerate(loops)
    ]
    inner = [
        Line(
            key=f"mark:last{m}:inner",
            kind=Kind.HIGHLIGHT,
            cells=cells,
            points=loop,
            stroke="highlight_ink",
            width=max(1, line // 2),
            closed=True,
        )
        for m, loop in enumerate(loops)
    ]
    return (*outer, *inner)


@lru_cache(maxsize=4096)
def _territory_cell(
    i: int, colour: int, square: bool, number: str, geo: BoardGeometry, label_px: int, mark_r: float
) -> tuple[Primitive, ...]:
    """What a territory cell shows over its owner's colour: its number (hex and triangle boards) or a
    circle (square boards), or with second cues its owner's mark."""
    name = SEAT_COLOURS[colour]
    centre = geo.centres[i]
    if square:
        plain: Primitive = _mark(
            f"territory:{i}:mark", "circle", centre, mark_r * 0.6, f"piece_{name}", (i,), Show.PLAIN
        )
    else:
        plain = TextLine(
            key=f"territory:{i}:label",
            kind=Kind.LABEL,
            cells=(i,),
            show=Show.PLAIN,
            at=centre,
            text=number,
            size=label_px,
            colour=mix(f"territory_{name}", "ink", 0.5),
            anchor="mc",
        )
    cue = _mark(
        f"territory:{i}:cue", SEAT_MARKS[colour], centre, mark_r * 0.6, f"piece_{name}", (i,), Show.CUES
    )
    return plain, cue


def _panel_items(state: Any, pg: Page, names: list[str], last_move: str | None) -> list[Primitive]:
    """The panel's rows of scores and the last move (the rest is fixed)."""
    engine = _engine()
    px0, py0, px1, py1 = pg.panel
    left, right = px0 + pg.px(16), px1 - pg.px(16)
    y = py0 + pg.px(12) + pg.px(32)
    small = pg.px(SMALL_PX)
    points = engine.scores(state)
    leader_points = max(points) if points else 0
    row_h = _row_height(pg, state.seats)
    items: list[Primitive] = []
    for seat in range(state.seats):
        colour = seat_colour_index(state, seat)
        fill, _, edge = _piece_tokens(colour)
        sw = pg.px(26)
        items.append(
            Rect(
                key=f"seat:{seat}:swatch",
                kind=Kind.LEGEND,
                layer=Layer.PANEL,
                box=inclusive(left, y, left + sw, y + sw),
                fill=fill,
                stroke=edge,
                width=pg.px(2),
            )
        )
        items.append(
            Mark(
                key=f"seat:{seat}:mark",
                kind=Kind.MARK,
                layer=Layer.PANEL,
                show=Show.CUES,
                centre=(left + sw / 2, y + sw / 2),
                r=sw * 0.28,
                shape=SEAT_MARKS[colour],
                fill=_mark_ink(colour),
            )
        )
        covered = sum(len(p.cells) for p in state.placed if p.owner == seat)
        territory = points[seat] - covered
        name = fit_name_with_role(names[seat], colour_name(colour), pg.px(18), right - left - sw - pg.px(70))
        items.append(
            _text(f"seat:{seat}:name", (left + sw + pg.px(10), y - pg.px(3)), name, pg.px(18), "ink")
        )
        score_colour = "ink" if points[seat] == leader_points else "muted"
        items.append(
            _text(
                f"seat:{seat}:score", (right, y - pg.px(4)), str(points[seat]), pg.px(28), score_colour, "rt"
            )
        )
        items.extend(
            wrapped(
                f"seat:{seat}:detail",
                left + sw + pg.px(10),
                y + pg.px(21),
                _detail(state, seat, covered, territory),
                small,
                "muted",
                right - left - sw - pg.px(10),
            )
        )
        y += row_h
    if last_move:
        text = wording.text("last_move", move=wording.move(last_move))
        items.append(
            _text(
                "last_move", (left, py1 - pg.px(14)), fit_text(text, small, right - left), small, "ink", "lb"
            )
        )
    return items


def _detail(state: Any, seat: int, covered: int, territory: int) -> str:
    """ "12 + 3 · 9 pieces left · resigned"."""
    left_pieces = sum(_engine().supply(state, seat).values())
    detail = wording.plural("tk.pieces_left", left_pieces, covered=covered, territory=territory)
    note = _note(state, seat, "tk.passes_every_turn")
    return wording.text("tk.with_note", text=detail, note=note) if note else detail


def _note(state: Any, seat: int, passing: str) -> str:
    """A seat's state in words: resigned, or passing for the rest of the game; "" for neither."""
    key = "tk.resigned" if state.resigned[seat] else passing if state.passall[seat] else ""
    return wording.text(key) if key else ""


def _panel(rules: Any, state: Any, names: list[str], outcome: Outcome | None, last_move: str | None) -> Panel:
    """The panel as data: the players (the header's chips) with their scores and pieces left, the key."""
    engine = _engine()
    to_move = rules.to_move(state)
    points = engine.scores(state)
    seats = []
    for seat in range(state.seats):
        colour = seat_colour_index(state, seat)
        fill, _, edge = _piece_tokens(colour)
        cells = wording.plural("tk.cells", points[seat])
        note = _note(state, seat, "tk.passes_for_good")
        seats.append(
            Seat(
                seat=seat,
                name=names[seat],
                role=wording.word(rules.seat_label(state, seat)),
                colour=fill,
                rim=edge,
                mark=SEAT_MARKS[colour],
                mark_ink=_mark_ink(colour),
                detail=wording.text("tk.with_note", text=cells, note=note) if note else cells,
                score=points[seat],
                pieces=sum(engine.supply(state, seat).values()),
                note=note,
                to_move=outcome is None and to_move == seat,
                winner=outcome is not None and seat in outcome.winners,
            )
        )
    colours = [seat_colour_index(state, seat) for seat in range(state.seats)]
    legend = (
        LegendEntry(
            label=wording.text("tk.key.piece"), colours=tuple(f"piece_{SEAT_COLOURS[c]}" for c in colours)
        ),
        LegendEntry(
            label=wording.text("tk.key.territory"),
            colours=tuple(f"territory_{SEAT_COLOURS[c]}" for c in colours),
        ),
        LegendEntry(label=wording.text("tk.key.neutral"), colours=("neutral",)),
    )
    board = state.board
    return Panel(
        title=wording.text("tk.score"),
        status=status_text(rules, state, names, outcome=outcome),
        move=rules.moves_played(state),
        over=outcome is not None,
        last_move=wording.text("last_move", move=wording.move(last_move)) if last_move else "",
        players=tuple(seats),
        legend=legend,
        lines=(wording.text("tk.board", board=board.id, count=board.playable_count),),
    )


def scene(
    state: Any,
    *,
    last_move: str | None,
    players: Sequence[str] | None,
    size: int,
    outcome: Outcome | None = None,
) -> Scene:
    """The TilingKing board of `state` as a scene; `outcome` (a resignation, timeout, abort) overrides the
    engine's."""
    rules = games.get("tilingking")
    outcome = final_outcome(rules, state, outcome)
    board = state.board
    pg = page(size, BOARD_SHARE)
    geo = _geometry(board.kind, tuple(board.cells), size)
    names = seat_names(rules, state, players, state.seats)
    colours = tuple(seat_colour_index(state, seat) for seat in range(state.seats))
    fixed = _fixed(size, board.id, colours, wording.language(), fonts.chain())
    items: list[Primitive] = [*fixed, *_board(state, geo, pg.k, _last_piece(state, last_move))]
    items.extend(_panel_items(state, pg, names, last_move))
    return Scene(
        game="tilingking",
        width=pg.width,
        height=pg.height,
        ply=rules.moves_played(state),
        items=tuple(items),
        panel=_panel(rules, state, names, outcome, last_move),
        cells=geo.polygons,
        labels=tuple(board.labels),
        fixed=len(fixed),
    )


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


def pieces_scene(state: Any, seat: int, *, players: Sequence[str] | None, size: int) -> Scene:
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
    colour = seat_colour_index(state, seat)
    fill, inner, edge = _piece_tokens(colour)
    grey_fill, grey_edge = mix("background", "muted", 0.25), mix("background", "muted", 0.6)
    left_count = sum(counts.values())
    chip = Seat(
        seat=seat,
        name=names[seat],
        role=wording.word(rules.seat_label(state, seat)),
        colour=fill,
        rim=edge,
        mark=SEAT_MARKS[colour],
        mark_ink=_mark_ink(colour),
        detail=wording.plural("tk.pieces.left", left_count),
        pieces=left_count,
    )
    title = wording.text("tk.pieces.title", name=names[seat])
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
    items: list[Primitive] = []
    for n, piece_id in enumerate(ids):
        col, row = n % columns, n // columns
        left, top = x0 + col * cell_w, y0 + row * cell_h
        have = counts.get(piece_id, 0)
        key = f"piece:{piece_id}"
        items.append(
            Rect(
                key=f"{key}:box",
                kind=Kind.PANEL,
                box=inclusive(
                    left + pg.px(4), top + pg.px(4), left + cell_w - pg.px(4), top + cell_h - pg.px(4)
                ),
                fill="panel",
                radius=pg.px(8),
            )
        )
        text_colour = "ink" if have else "muted"
        items.append(
            TextLine(
                key=f"{key}:id",
                kind=Kind.LABEL,
                at=(left + pg.px(14), top + pg.px(10)),
                text=piece_id,
                size=pg.px(22),
                colour=text_colour,
            )
        )
        count = wording.text("tk.pieces.count", count=have)
        items.append(
            TextLine(
                key=f"{key}:count",
                kind=Kind.LABEL,
                at=(left + cell_w - pg.px(14), top + pg.px(12)),
                text=count,
                size=pg.px(18),
                colour=text_colour,
                anchor="rt",
            )
        )
        name = fit_text(full_names.get(piece_id, ""), pg.px(SMALL_PX), cell_w - pg.px(110))
        items.append(
            TextLine(
                key=f"{key}:name",
                kind=Kind.LABEL,
                at=(left + pg.px(14) + text_width(piece_id, pg.px(22)) + pg.px(8), top + pg.px(16)),
                text=name,
                size=pg.px(SMALL_PX),
                colour="muted",
            )
        )
        area = (left + pg.px(16), top + pg.px(46), area_w, area_h)
        polys, outline = _shape_polygons(kind, shapes[piece_id], area, max_scale)
        for m, poly in enumerate(polys):
            items.append(
                Polygon(
                    key=f"{key}:cell{m}",
                    kind=Kind.PIECE,
                    points=tuple(poly),
                    fill=fill if have else grey_fill,
                    stroke=inner if have else grey_edge,
                )
            )
        for m, (a, b) in enumerate(outline):
            items.append(
                Line(
                    key=f"{key}:edge{m}",
                    kind=Kind.OUTLINE,
                    points=(a, b),
                    stroke=edge if have else grey_edge,
                    width=line,
                    caps=Caps.ROUND,
                )
            )
    return Scene(
        game="tilingking",
        width=pg.width,
        height=pg.height,
        ply=rules.moves_played(state),
        items=tuple(items),
        panel=Panel(title=title, status=title, move=rules.moves_played(state), players=(chip,)),
    )
