"""Helpers for drawers that build scenes (`renderer.scene`): the pieces every board shares, as items.

A drawer lays its board out with `renderer.canvas` (the page, square layouts, text measures) and returns
items; these helpers turn the shared parts into items: a square board's frame, coordinates and grid, the
page's panel, wrapped text, the last-move ring, and Pillow's inclusive boxes into the scene's exclusive
ones. Every text an item holds is already in the language in use, so a drawer caches its fixed items per
language and fonts (`wording.language()`, `fonts.chain()`).
"""

from __future__ import annotations

from functools import lru_cache

from renderer.canvas import Page, SquareLayout, line_pitch, wrap_text
from renderer.scene import Box, Kind, Layer, Line, Rect, Ring, Show, TextLine
from renderer.theme import Token


def inclusive(left: float, top: float, right: float, bottom: float) -> Box:
    """The scene's box (right and bottom exclusive) of a box Pillow draws with its last pixels included."""
    return left, top, right + 1, bottom + 1


def panel_background(pg: Page) -> Rect:
    """The side panel's background (`renderer.canvas.new_canvas`'s rectangle)."""
    return Rect(key="panel", kind=Kind.PANEL, layer=Layer.PANEL, box=pg.panel, fill="panel")


def square_frame(lay: SquareLayout) -> list[Rect | TextLine]:
    """A square board's frame and its coordinates: files a.. below, ranks 1.. on the left
    (`SquareLayout.draw_frame`)."""
    pg = lay.pg
    frame = pg.px(5)
    items: list[Rect | TextLine] = [
        Rect(
            key="frame",
            kind=Kind.FRAME,
            box=(lay.left - frame, lay.top - frame, lay.right + frame, lay.bottom + frame),
            fill="board_edge",
        )
    ]
    for n in range(lay.n):
        items.append(
            TextLine(
                key=f"file:{n}",
                kind=Kind.COORDINATE,
                at=(lay.left + (n + 0.5) * lay.cell, lay.bottom + frame + pg.px(4)),
                text="abcdefghijklm"[n],
                size=lay.label_px,
                colour="ink",
                anchor="mt",
            )
        )
        items.append(
            TextLine(
                key=f"rank:{n}",
                kind=Kind.COORDINATE,
                at=(lay.left - frame - pg.px(7), lay.top + (lay.n - 1 - n + 0.5) * lay.cell),
                text=str(n + 1),
                size=lay.label_px,
                colour="ink",
                anchor="rc",
            )
        )
    return items


@lru_cache(maxsize=32)
def square_grid(lay: SquareLayout, colour: Token = "grid_line") -> tuple[Line, ...]:
    """The grid's lines, one pixel wide (`SquareLayout.draw_grid`); keys "grid:v<n>", "grid:h<n>"."""
    items = []
    for n in range(lay.n + 1):
        x = lay.left + n * lay.cell
        y = lay.top + n * lay.cell
        items.append(
            Line(key=f"grid:v{n}", kind=Kind.FRAME, points=((x, lay.top), (x, lay.bottom)), stroke=colour)
        )
        items.append(
            Line(key=f"grid:h{n}", kind=Kind.FRAME, points=((lay.left, y), (lay.right, y)), stroke=colour)
        )
    return tuple(items)


def wrapped(
    key: str,
    x: float,
    y: float,
    text: str,
    px: int,
    colour: Token,
    max_width: float,
    *,
    kind: Kind = Kind.LABEL,
    layer: Layer = Layer.PANEL,
    max_lines: int | None = None,
) -> list[TextLine]:
    """`text` wrapped to `max_width` from (x, y) down, left-aligned (`renderer.canvas.draw_wrapped`): one
    item per line, keys "<key>" then "<key>:1", "<key>:2"..."""
    lines = wrap_text(text, px, max_width, max_lines)
    return [
        TextLine(
            key=key if n == 0 else f"{key}:{n}",
            kind=kind,
            layer=layer,
            at=(x, y + n * line_pitch(px)),
            text=line,
            size=px,
            colour=colour,
        )
        for n, line in enumerate(lines)
    ]


def last_ring(key: str, cx: float, cy: float, radius: float, k: float, cells: tuple[int, ...] = ()) -> Ring:
    """The last-move ring round (cx, cy) on a page scaled by `k` (`renderer.canvas.mark_ring`)."""
    return Ring(
        key=key,
        kind=Kind.MARK,
        cells=cells,
        centre=(cx, cy),
        r=radius,
        width=3.5 * k,
        thin=max(1.0, 1.2 * k),
    )


@lru_cache(maxsize=8192)
def label(
    key: str,
    at: tuple[float, float],
    text: str,
    size: int,
    colour: Token,
    anchor: str = "lt",
    *,
    kind: Kind = Kind.LABEL,
    layer: Layer = Layer.PANEL,
    cells: tuple[int, ...] = (),
    show: Show = Show.ALWAYS,
) -> TextLine:
    """A text item (in the panel unless `layer` says otherwise), the same object for the same arguments:
    most of a board's texts recur from one move to the next, and an item made once costs nothing to make
    again, to diff or to look up."""
    return TextLine(
        key=key,
        kind=kind,
        layer=layer,
        cells=cells,
        show=show,
        at=at,
        text=text,
        size=size,
        colour=colour,
        anchor=anchor,
    )
