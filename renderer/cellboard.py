"""A board declared as data: a game says what its board is and what lies in each cell, and the host draws it.

A game whose board is a grid of cells with discs on them need not build a scene itself. Its drawer module
declares the board, `BOARD = CellBoard(...)` (the tiling, columns and rows or the cells' lattice
coordinates, their names, round holes in a frame or filled cells, each seat's colour and second-cue mark,
the panel's title and rule), and says what lies where in a position, `position(state, last_move) ->
Position` (a seat's disc, a cell's own colour, a label, a highlighted dot, the cells ringed as the last
move). `renderer.drawer` then gives it the host's drawer (`Declared`): the scene with its frame,
coordinates, cells, discs and marks, the side panel with a line per seat, the header, and the cells'
click polygons and names; the painter, the diff, the web board and the alt text's status come with it.
Its words stay the game's own (`N_` templates of its catalog, said with `renderer.text.say`).

    BOARD = CellBoard(columns=7, rows=6, holes=True, frame="frame", seats=(SeatLook("red", "square"), ...),
                      title=N_("Four in a row"), rule=N_("..."), count=N_("{role}: {count} on the board"))

    def position(state, last_move):
        return Position({i: Cell(seat=s) for i, s in ...}, last=(i,))
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from types import ModuleType
from typing import Any

import games
from games.base import Outcome
from renderer import fonts
from renderer import text as wording
from renderer.builder import last_ring, panel_background, wrapped
from renderer.canvas import final_outcome, page, seat_names, status_text, wrap_text
from renderer.geometry import BoardGeometry, square_cells
from renderer.scene import (
    Circle,
    Kind,
    Layer,
    Mark,
    Panel,
    Polygon,
    Primitive,
    Rect,
    Scene,
    Seat,
    Shading,
    Show,
    TextLine,
)
from renderer.theme import Token, mix

FILES = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True, slots=True)
class SeatLook:
    """How a seat's discs look: their colour, and the shape drawn on them (and on the seat's swatches) in
    a theme with second cues ("square", "triangle", "diamond", "circle"; "" for none)."""

    colour: Token
    mark: str = ""


@dataclass(frozen=True, slots=True)
class CellBoard:
    """A board of cells, declared (module doc). Cell i is `cells[i]` in `renderer.geometry`'s lattice terms;
    without `cells`, every (column, row) of a `columns` x `rows` square board, i = row * columns + column,
    row 0 at the bottom, named by its column letter and row number ("a1"). With `holes` the cells are round
    holes in a frame of `frame` (a rack of discs dropped in columns); without, filled cells of `empty` in a
    grid."""

    columns: int
    rows: int
    tiling: str = "square"
    cells: tuple[tuple[int, int], ...] = ()
    labels: tuple[str, ...] = ()
    holes: bool = False
    frame: Token = "board_edge"
    empty: Token = "panel"
    seats: tuple[SeatLook, ...] = ()
    title: str = ""
    """The panel's title (an `N_` template of the game's catalog)."""
    rule: str = ""
    """A line under the title, wrapped (an `N_` template)."""
    count: str = ""
    """Each seat's line in the panel, with {role} and {count} (its discs on the board); "" for none."""

    @property
    def lattice(self) -> tuple[tuple[int, int], ...]:
        return self.cells or square_cells(self.columns, self.rows)

    @property
    def names(self) -> tuple[str, ...]:
        return self.labels or tuple(f"{FILES[x]}{y + 1}" for x, y in self.lattice)


@dataclass(frozen=True, slots=True)
class Cell:
    """What lies in one cell: a disc of a seat's colour (None: none), the cell's own colour (None: the
    board's empty one; not with holes), words written in it, a highlighted dot on it (a winning line)."""

    seat: int | None = None
    fill: Token | None = None
    label: str = ""
    dot: bool = False


@dataclass(frozen=True, slots=True)
class Position:
    """A position as the board shows it: what lies in each cell (cells left out are empty), the cells
    ringed as the last move."""

    cells: Mapping[int, Cell] = field(default_factory=dict)
    last: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where the board goes on a page `size` wide."""

    geometry: BoardGeometry
    k: float
    radius: float
    """A disc's radius."""


@lru_cache(maxsize=16)
def _layout(board: CellBoard, size: int) -> _Layout:
    pg = page(size)
    x0, y0, x1, y1 = pg.board
    margin, coordinates = pg.px(24), pg.px(30)
    box = (
        x0 + margin + coordinates,
        y0 + margin,
        x1 - x0 - 2 * margin - 2 * coordinates,
        y1 - y0 - 2 * margin - coordinates,
    )
    geo = BoardGeometry(board.tiling, board.lattice, box)
    return _Layout(geo, pg.k, geo.inner_radius * (0.78 if board.holes else 0.72))


@lru_cache(maxsize=16)
def _fixed(board: CellBoard, size: int, language: Hashable, chain: fonts.FontChain) -> tuple[Primitive, ...]:
    """What never changes: the panel, the frame, the empty cells (or holes), the coordinates of a square
    board, the panel's title and rule (in the current language, measured in the fonts in use)."""
    pg = page(size)
    lay = _layout(board, size)
    geo = lay.geometry
    left, top, right, bottom = geo.bounds
    pad = pg.px(8)
    items: list[Primitive] = [panel_background(pg)]
    if board.holes or board.tiling == "square":  # hexagons and triangles stand on the page by themselves
        items.append(
            Rect(
                key="frame",
                kind=Kind.FRAME,
                box=(left - pad, top - pad, right + pad + 1, bottom + pad + 1),
                fill=board.frame,
                stroke="board_edge",
                width=max(1, pg.px(2)),
                radius=pg.px(14) if board.holes else 0,
            )
        )
    rim = max(1.0, pg.k * 2)
    for i, centre in enumerate(geo.centres):
        if board.holes:
            hole = Circle(
                key=f"cell:{i}",
                kind=Kind.CELL,
                cells=(i,),
                centre=centre,
                r=lay.radius,
                fill="background",
                stroke=mix(board.frame, "ink", 0.4),
                width=rim,
            )
            items.append(hole)
        else:
            items.append(
                Polygon(key=f"cell:{i}", kind=Kind.CELL, cells=(i,), fill=board.empty, stroke="grid_line")
            )
    if board.tiling == "square":
        items.extend(_coordinates(board, geo, pg.px(18), pg.px(8) + pad))
    x0, y0, x1, _ = pg.panel
    margin = pg.px(22)
    if board.title:
        items.append(
            TextLine(
                key="panel:title",
                kind=Kind.LABEL,
                layer=Layer.PANEL,
                at=(x0 + margin, y0 + margin),
                text=wording.say(board.title),
                size=pg.px(26),
                colour="ink",
            )
        )
    if board.rule:
        rule = wording.say(board.rule)
        items.extend(
            wrapped(
                "panel:rule",
                x0 + margin,
                y0 + margin + pg.px(44),
                rule,
                pg.px(17),
                "muted",
                x1 - x0 - 2 * margin,
            )
        )
    return tuple(items)


def _coordinates(board: CellBoard, geo: BoardGeometry, px: int, gap: float) -> list[TextLine]:
    """A square board's column letters below it and row numbers left of it."""
    left, _, _, bottom = geo.bounds
    items = []
    xs = sorted({x for x, _ in board.lattice})
    ys = sorted({y for _, y in board.lattice})
    for x in xs:
        cx = geo.to_pixel((x + 0.5, 0))[0]
        items.append(
            TextLine(
                key=f"file:{x}",
                kind=Kind.COORDINATE,
                at=(cx, bottom + gap),
                text=FILES[x],
                size=px,
                colour="muted",
                anchor="mt",
            )
        )
    for y in ys:
        cy = geo.to_pixel((0, -y - 0.5))[1]
        items.append(
            TextLine(
                key=f"rank:{y}",
                kind=Kind.COORDINATE,
                at=(left - gap, cy),
                text=str(y + 1),
                size=px,
                colour="muted",
                anchor="rc",
            )
        )
    return items


def board_scene(
    board: CellBoard,
    game_id: str,
    state: Any,
    where: Position,
    *,
    players: Sequence[str] | None,
    size: int,
    outcome: Outcome | None = None,
) -> Scene:
    """The scene of a declared board showing `where` (module doc)."""
    rules = games.get(game_id)
    shown = final_outcome(rules, state, outcome)
    pg = page(size)
    lay = _layout(board, size)
    geo = lay.geometry
    fixed = _fixed(board, size, wording.language(), fonts.chain())
    items: list[Primitive] = list(fixed)
    rim = max(1.0, pg.k * 2)
    for i in sorted(where.cells):
        cell = where.cells[i]
        centre = geo.centres[i]
        if cell.fill is not None and not board.holes:
            items.append(
                Polygon(key=f"fill:{i}", kind=Kind.TERRITORY, cells=(i,), fill=cell.fill, stroke="grid_line")
            )
        if cell.seat is not None:
            look = board.seats[cell.seat]
            items.append(
                Circle(
                    key=f"disc:{i}",
                    kind=Kind.DISC,
                    cells=(i,),
                    centre=centre,
                    r=lay.radius,
                    fill=look.colour,
                    stroke=mix(look.colour, "ink", 0.45),
                    width=rim,
                    shading=Shading.FLAT if board.holes else Shading.SHADOW,
                )
            )
            if look.mark:
                items.append(
                    Mark(
                        key=f"disc:{i}:mark",
                        kind=Kind.MARK,
                        cells=(i,),
                        show=Show.CUES,
                        centre=centre,
                        r=lay.radius * 0.35,
                        shape=look.mark,
                        fill="ink",
                    )
                )
        if cell.label:
            items.append(
                TextLine(
                    key=f"label:{i}",
                    kind=Kind.LABEL,
                    cells=(i,),
                    at=centre,
                    text=cell.label,
                    size=max(10, round(lay.radius * 0.8)),
                    colour="ink",
                    anchor="mc",
                )
            )
        if cell.dot:
            items.append(
                Circle(
                    key=f"dot:{i}",
                    kind=Kind.HIGHLIGHT,
                    cells=(i,),
                    centre=centre,
                    r=lay.radius * 0.3,
                    fill="win",
                    stroke="ink",
                    width=max(1, pg.px(2)),
                    shading=Shading.DOT,
                )
            )
    for n, i in enumerate(where.last):
        items.append(
            last_ring(
                f"mark:last{n}" if n else "mark:last", *geo.centres[i], lay.radius + pg.px(2), pg.k, (i,)
            )
        )
    names = seat_names(rules, state, players, len(board.seats))
    counts = [sum(1 for c in where.cells.values() if c.seat == s) for s in range(len(board.seats))]
    items.extend(_seat_lines(board, pg, rules, state, counts))
    to_move = rules.to_move(state)
    seats = tuple(
        Seat(
            seat=s,
            name=names[s],
            role=wording.word(rules.seat_label(state, s)),
            colour=look.colour,
            rim=mix(look.colour, "ink", 0.45),
            mark=look.mark,
            mark_ink="ink",
            score=counts[s],
            to_move=shown is None and to_move == s,
            winner=shown is not None and s in shown.winners,
        )
        for s, look in enumerate(board.seats)
    )
    panel = Panel(
        title=wording.say(board.title) if board.title else "",
        status=status_text(rules, state, names, outcome=outcome),
        move=rules.moves_played(state),
        over=shown is not None,
        players=seats,
        lines=(wording.say(board.rule),) if board.rule else (),
    )
    return Scene(
        game=game_id,
        width=pg.width,
        height=pg.height,
        ply=rules.moves_played(state),
        items=tuple(items),
        panel=panel,
        cells=geo.polygons,
        labels=board.names,
        fixed=len(fixed),
    )


def _seat_lines(board: CellBoard, pg: Any, rules: Any, state: Any, counts: Sequence[int]) -> list[Primitive]:
    """A line per seat in the panel below the rule: its disc and `board.count`."""
    if not board.count:
        return []
    x0, y0, x1, _ = pg.panel
    margin = pg.px(22)
    y = y0 + margin + pg.px(44)
    if board.rule:
        y += len(wrap_text(wording.say(board.rule), pg.px(17), x1 - x0 - 2 * margin)) * pg.px(24)
    y += pg.px(16)
    r = pg.px(12)
    items: list[Primitive] = []
    for s, look in enumerate(board.seats):
        role = wording.word(rules.seat_label(state, s))
        items.append(
            Circle(
                key=f"seat:{s}:disc",
                kind=Kind.LEGEND,
                layer=Layer.PANEL,
                centre=(x0 + margin + r, y + r),
                r=r,
                fill=look.colour,
                stroke=mix(look.colour, "ink", 0.45),
                width=max(1.0, pg.k * 2),
            )
        )
        items.append(
            TextLine(
                key=f"seat:{s}:count",
                kind=Kind.LABEL,
                layer=Layer.PANEL,
                at=(x0 + margin + 2 * r + pg.px(10), y + r),
                text=wording.say(board.count, role=role, count=counts[s]),
                size=pg.px(18),
                colour="ink",
                anchor="lm",
            )
        )
        y += pg.px(36)
    return items


class Declared:
    """The drawer the host gives a module that declares its board (`BOARD`, `position`, `describe`)."""

    def __init__(self, module: ModuleType, game_id: str) -> None:
        self.module = module
        self.game_id = game_id
        self.board: CellBoard = module.BOARD
        self.describe = module.describe

    def scene(
        self,
        state: Any,
        *,
        last_move: str | None,
        players: Sequence[str] | None,
        size: int,
        outcome: Outcome | None = None,
    ) -> Scene:
        where: Position = self.module.position(state, last_move)
        return board_scene(
            self.board, self.game_id, state, where, players=players, size=size, outcome=outcome
        )


def declares(module: ModuleType) -> bool:
    """Whether a drawer module declares a cell board rather than building scenes itself."""
    return isinstance(getattr(module, "BOARD", None), CellBoard) and not hasattr(module, "scene")
