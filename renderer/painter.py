"""The Pillow painter: any scene (`renderer.scene`) to the RGB image the bot sends, in any theme.

One painter for every game: each primitive is drawn as the game drawers drew it before the scene (smooth
supersampled discs and rings as cached sprites, text as cached stamps with font fallback, polygons and
lines as Pillow draws them), so the boards stayed pixel for pixel what they were. Colours are the scene's
tokens resolved in the theme (`renderer.theme.resolve`); items shown only with second cues (or only
without), and patterns, follow the theme's `second_cues`. The header strip is painted from the panel's
data (`renderer.canvas.draw_header`).

A scene's first `fixed` items are the same for a whole match: they are painted once per theme, size and
fonts onto the background and kept (`BASES`), and a board starts from a copy of that.

`repaint(img, old, new, theme)` paints on `img`, from nothing, every pixel that may differ between the two
scenes' images and returns their boxes (`renderer.incremental` draws a match's next board so): the boxes
of every item that changed, was added or removed, and the header if the panel changed; in them the kept
base, then every item that reaches into one of them, in paint order.

Pure and blocking, like the rest of the renderer.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderer import fonts
from renderer.canvas import (
    SUPERSAMPLE,
    SeatChip,
    disc_sprite,
    draw_header,
    draw_text,
    mark_polygon,
    page,
    paste_centred,
    ring_sprite,
    text_line,
    text_origin,
)
from renderer.scene import (
    Caps,
    Circle,
    Hatch,
    Line,
    Mark,
    Panel,
    Pattern,
    Points,
    Polygon,
    Primitive,
    Rect,
    Ring,
    Scene,
    Shading,
    Show,
    TextLine,
)
from renderer.theme import RGB, Theme, Token, blend, resolve

IntBox = tuple[int, int, int, int]

BASES_LIMIT = 24
"""Backgrounds with their fixed items kept (about 1.8 MB each at 960 pixels wide)."""


class _Bases:
    """The background with a scene's fixed items painted, per theme, size, fonts and fixed items (the
    least recently used go first). Found by the fixed items' identity (a builder makes them once per
    match setup), checked by equality (which is quick for the same objects): hashing hundreds of items
    for every board would cost more than the lookup saves. Safe to share between the threads that draw
    boards."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._kept: OrderedDict[tuple[Any, ...], tuple[tuple[Primitive, ...], Image.Image]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()

    def get(self, scene: Scene, theme: Theme) -> Image.Image:
        """The base of `scene` in `theme`: never to be drawn on (copy it)."""
        fixed = scene.items[: scene.fixed]
        first = id(fixed[0]) if fixed else 0
        key = (
            theme,
            scene.game,
            scene.width,
            scene.height,
            scene.background,
            fonts.chain(),
            len(fixed),
            first,
        )
        found = self._kept.get(key)
        if found is not None and found[0] == fixed:
            return found[1]
        img = Image.new("RGB", (scene.width, scene.height), colour(scene.background, theme, scene.game))
        brush = Brush(img, scene, theme)
        for item in fixed:
            if shown(item, theme):
                _PAINTERS[type(item)](brush, item)
        with self._lock:
            self._kept[key] = (fixed, img)  # holds the first item: its id stays its own
            while len(self._kept) > self.limit:
                self._kept.popitem(last=False)
        return img


BASES = _Bases(BASES_LIMIT)


def colour(token: Token, theme: Theme, game_id: str) -> RGB:
    return resolve(token, theme, game_id)


class Brush:
    """What painting items on one image needs at hand: the image, its drawing context, the theme, the scene,
    and each token's colour and Pillow ink once looked up."""

    __slots__ = ("core", "draw", "game", "img", "inks", "rgbs", "scene", "theme")

    def __init__(self, img: Image.Image, scene: Scene, theme: Theme) -> None:
        self.img = img
        self.draw = ImageDraw.Draw(img)
        self.core = self.draw.draw
        self.scene = scene
        self.theme = theme
        self.game = scene.game
        self.rgbs: dict[Token, RGB] = {}
        self.inks: dict[Token, int] = {}

    def rgb(self, token: Token) -> RGB:
        found = self.rgbs.get(token)
        if found is None:
            found = self.rgbs[token] = resolve(token, self.theme, self.game)
        return found

    def ink(self, token: Token) -> int:
        """The token's colour as Pillow's core drawing takes it."""
        found = self.inks.get(token)
        if found is None:
            ink = self.draw._getink(self.rgb(token))[0]
            assert ink is not None
            found = self.inks[token] = ink
        return found


def shown(item: Primitive, theme: Theme) -> bool:
    """Whether the theme draws the item (`Show`)."""
    return item.show is Show.ALWAYS or (item.show is Show.CUES) == theme.second_cues


def paint(scene: Scene, theme: Theme) -> Image.Image:
    """The scene as an RGB image in `theme`: the kept base, every other item in order (a run of items in
    one cell over an opaque square pasted from `RUNS` where it was painted before), the header."""
    img = BASES.get(scene, theme).copy()
    brush = Brush(img, scene, theme)
    cues = theme.second_cues
    items = scene.items[scene.fixed :]
    n, count = 0, len(items)
    while n < count:
        item = items[n]
        cells = item.cells
        if type(item) is Rect and len(cells) == 1 and n + 1 < count and items[n + 1].cells == cells:
            end = n + 2
            while end < count and items[end].cells == cells:
                end += 1
            if RUNS.paint(brush, items, n, end):
                n = end
                continue
        if item.show is Show.ALWAYS or (item.show is Show.CUES) == cues:
            _PAINTERS[type(item)](brush, item)
        n += 1
    paint_header(img, scene.panel, theme, scene.game, scene.width)
    return img


def _a_run(run: Sequence[Primitive]) -> bool:
    """Whether items make a run `_Runs` keeps: a cell's opaque rectangle on whole pixels, always shown,
    and items after it that paint inside its box alone."""
    first = run[0]
    if not isinstance(first, Rect) or first.fill is None or first.radius or first.show is not Show.ALWAYS:
        return False
    if not _whole(first.box):
        return False
    x0, y0, x1, y1 = first.box
    for item in run[1:]:
        if isinstance(item, Polygon) and not item.points:
            return False
        b = _bounds(item)
        if b[0] < x0 or b[1] < y0 or b[2] > x1 or b[3] > y1:
            return False
    return True


class _Runs:
    """Runs of items painted before: a cell's opaque rectangle (a whole-pixel box) and the items after it
    that sit in that cell alone and stay inside its box (a Paintscape tile with its letter and stone). Such
    a run's pixels depend on nothing but the run, the theme and the fonts, so the next time the same items
    come (the same objects: scene builders make recurring items once) it is one paste of its box. At most
    `limit` runs (the least recently used go first); safe to share between threads (a kept run is never
    changed)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._kept: OrderedDict[tuple[Any, ...], tuple[tuple[Primitive, ...], Image.Image]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()

    def paint(self, brush: Brush, items: Sequence[Primitive], start: int, end: int) -> bool:
        """Paint items[start:end] as a run (kept or painted and kept); False if they are not one."""
        first = items[start]
        run = tuple(items[start:end])
        key = (brush.theme, brush.game, fonts.chain(), *map(id, run))
        kept = self._kept.get(key)
        if kept is not None and all(a is b for a, b in zip(kept[0], run, strict=True)):
            box = first.box  # type: ignore[union-attr]
            brush.img.im.paste(kept[1].im, (int(box[0]), int(box[1]), int(box[2]), int(box[3])))
            return True
        if not _a_run(run):
            return False
        cues = brush.theme.second_cues
        for item in run:
            if item.show is Show.ALWAYS or (item.show is Show.CUES) == cues:
                _PAINTERS[type(item)](brush, item)
        x0, y0, x1, y1 = first.box  # type: ignore[union-attr]
        with self._lock:
            kept_run = (run, brush.img.crop((int(x0), int(y0), int(x1), int(y1))))
            self._kept[key] = kept_run  # holds the run's items: their ids stay theirs
            while len(self._kept) > self.limit:
                self._kept.popitem(last=False)
        return True


RUNS = _Runs(2048)


def clock_text(seconds: float) -> str:
    """A clock as the header shows it: "4:05", "1:02:03"."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _with_clock(detail: str, clock: float | None) -> str:
    """A chip's second line with the seat's clock after it, where it has one."""
    if clock is None:
        return detail
    return f"{detail} · {clock_text(clock)}" if detail else clock_text(clock)


def paint_header(img: Image.Image, panel: Panel, theme: Theme, game_id: str, width: int) -> None:
    """The header strip from the panel's data: a chip per player, the status line."""
    chips = [
        SeatChip(
            name=seat.name,
            role=seat.role,
            detail=_with_clock(seat.detail, seat.clock),
            fill=colour(seat.colour, theme, game_id),
            rim=colour(seat.rim, theme, game_id),
            mark=seat.mark if theme.second_cues else "",
            mark_ink=colour(seat.mark_ink, theme, game_id) if seat.mark_ink is not None else None,
            to_move=seat.to_move,
            winner=seat.winner,
        )
        for seat in panel.players
    ]
    draw_header(img, page(width), theme, chips, panel.status)


# --------------------------------------------------------------------------------------------- items


def paint_item(img: Image.Image, item: Primitive, scene: Scene, theme: Theme) -> None:
    """Draw one item on `img` as the theme shows it."""
    if shown(item, theme):
        _PAINTERS[type(item)](Brush(img, scene, theme), item)


def _rect(brush: Brush, item: Any) -> None:
    r: Rect = item
    left, top, right, bottom = r.box
    xy = (left, top, right - 1, bottom - 1)
    if r.radius > 0:
        brush.draw.rounded_rectangle(
            xy,
            radius=r.radius,
            fill=brush.rgb(r.fill) if r.fill is not None else None,
            outline=brush.rgb(r.stroke) if r.stroke is not None else None,
            width=round(r.width),
        )
        return
    core = brush.core
    fill = None
    if r.fill is not None:
        fill = brush.ink(r.fill)
        if _whole(r.box):  # the same pixels as drawing the rectangle, a few times faster
            brush.img.im.paste(brush.rgb(r.fill), (int(left), int(top), int(right), int(bottom)))
        else:
            core.draw_rectangle(xy, fill, 1)
    if r.pattern is not None and brush.theme.second_cues:
        _hatch(brush, r.pattern, (round(left), round(top), round(right), round(bottom)))
    if r.stroke is not None:
        stroke = brush.ink(r.stroke)
        width = round(r.width)
        if stroke != fill and width:
            core.draw_rectangle(xy, stroke, 0, width)


def _whole(box: tuple[float, ...]) -> bool:
    """Whether every value is a whole number (a box whose fill is a paste)."""
    return all(v == int(v) for v in box)


def _hatch(brush: Brush, pattern: Pattern, box: IntBox) -> None:
    """The pattern's ink through its mask over `box`, laid from the box's top left corner."""
    left, top, right, bottom = box
    mask = pattern_mask(pattern.kind, right - left, bottom - top, pattern.step, pattern.width)
    brush.img.paste(brush.rgb(pattern.ink), box, mask)


@lru_cache(maxsize=256)
def pattern_mask(kind: Hatch, width: int, height: int, step: int, line: int) -> Image.Image:
    """A pattern as an "L" mask of `width` x `height` (255: ink)."""
    mask = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(mask)
    side = max(width, height)
    if kind in (Hatch.HATCH, Hatch.CROSS):
        for o in range(-side, side, step):
            draw.line(((o, side), (o + side, 0)), fill=255, width=line)
            if kind is Hatch.CROSS:
                draw.line(((o, 0), (o + side, side)), fill=255, width=line)
    elif kind is Hatch.STRIPES:
        for o in range(step // 2, height, step):
            draw.line(((0, o), (width, o)), fill=255, width=line)
    else:  # dots
        for ox in range(step // 2, width, step):
            for oy in range(step // 2, height, step):
                draw.ellipse((ox - line, oy - line, ox + line, oy + line), fill=255)
    return mask


def _polygon(brush: Brush, item: Any) -> None:
    p: Polygon = item
    polygons: Sequence[Points] = (p.points,) if p.points else [brush.scene.cells[i] for i in p.cells]
    fill = brush.ink(p.fill) if p.fill is not None else None
    stroke = brush.ink(p.stroke) if p.stroke is not None else None
    core = brush.core
    cues = p.pattern if brush.theme.second_cues else None
    for polygon in polygons:
        if fill is not None:
            core.draw_polygon(polygon, fill, 1)
        if cues is not None:
            box = _int_bounds(polygon)
            mask = pattern_mask(cues.kind, box[2] - box[0], box[3] - box[1], cues.step, cues.width)
            inside = Image.new("L", mask.size, 0)
            ImageDraw.Draw(inside).polygon([(x - box[0], y - box[1]) for x, y in polygon], fill=255)
            clipped = Image.new("L", mask.size, 0)
            clipped.paste(mask, (0, 0), inside)
            brush.img.paste(brush.rgb(cues.ink), box, clipped)
        if stroke is not None and stroke != fill:
            core.draw_polygon(polygon, stroke, 0, 1)


def _int_bounds(points: Points) -> IntBox:
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return math.floor(min(xs)), math.floor(min(ys)), math.ceil(max(xs)) + 1, math.ceil(max(ys)) + 1


def _circle(brush: Brush, item: Any) -> None:
    c: Circle = item
    fill = brush.rgb(c.fill)
    cx, cy = c.centre
    if c.shading is Shading.DOT:
        r = c.r
        brush.draw.ellipse(
            (cx - r, cy - r, cx + r, cy + r),
            fill=fill,
            outline=brush.rgb(c.stroke) if c.stroke is not None else None,
            width=round(c.width),
        )
        return
    rim = brush.rgb(c.stroke) if c.stroke is not None else fill
    if c.text:
        ink = brush.rgb(c.text_colour or "ink")
        sprite = labelled_disc(c.r, fill, rim, c.width, c.shading, c.text, c.text_size, ink, fonts.chain())
    elif c.shading is Shading.SPHERE:
        sprite = sphere_sprite(c.r, fill, rim, c.width)
    else:
        sprite = disc_sprite(c.r, fill, rim, c.width, c.shading is Shading.SHADOW)
    paste_centred(brush.img, sprite, cx, cy)


SPHERE_SHINE = (7 / 27, 8 / 27)
"""A sphere's highlight: its radius and its offset up and left from the centre, as fractions of the
sphere's radius."""


@lru_cache(maxsize=64)
def sphere_sprite(r: float, fill: RGB, rim: RGB, width: float) -> Image.Image:
    """A sphere: a disc with its shadow and a highlight up and to the left, as one sprite."""
    sprite = disc_sprite(r, fill, rim, width, True).copy()
    light = blend(fill, (255, 255, 255), 0.6)
    shine = disc_sprite(r * SPHERE_SHINE[0], light, light, 0.0)
    middle = sprite.width / 2
    paste_centred(sprite, shine, middle - r * SPHERE_SHINE[1], middle - r * SPHERE_SHINE[1])
    return sprite


@lru_cache(maxsize=256)
def labelled_disc(
    r: float,
    fill: RGB,
    rim: RGB,
    width: float,
    shading: Shading,
    text: str,
    px: int,
    ink: RGB,
    chain: fonts.FontChain,
) -> Image.Image:
    """A disc with a text in its middle (a rank), as one sprite (in the fonts of `chain`, those in use)."""
    if shading is Shading.SPHERE:
        sprite = sphere_sprite(r, fill, rim, width).copy()
    else:
        sprite = disc_sprite(r, fill, rim, width, shading is Shading.SHADOW).copy()
    middle = sprite.width / 2
    draw_text(sprite, middle, middle, text, px, ink, "mc")
    return sprite


def _line(brush: Brush, item: Any) -> None:
    line: Line = item
    ink = brush.rgb(line.stroke)
    width = round(line.width)
    draw = brush.draw
    points = line.points
    if line.closed:
        draw.line([*points, points[0], points[1]], fill=ink, width=width, joint="curve")
    else:
        draw.line(points, fill=ink, width=width)
    if line.caps is Caps.ROUND:
        r = width / 2 - 0.5
        if r >= 1:
            for x, y in (points[0], points[-1]):
                draw.ellipse((x - r, y - r, x + r, y + r), fill=ink)


def _ring(brush: Brush, item: Any) -> None:
    ring: Ring = item
    cx, cy = ring.centre
    for sprite in ring_sprites(ring, brush):
        paste_centred(brush.img, sprite, cx, cy)


def ring_sprites(ring: Ring, brush: Brush) -> tuple[Image.Image, ...]:
    """The last-move ring's sprites, outermost first: a thin edge, the ring, a thin inner line."""
    width, thin = ring.width, ring.thin
    return (
        ring_sprite(ring.r + width / 2 + thin / 2, brush.rgb(ring.edge), thin),
        ring_sprite(ring.r, brush.rgb(ring.stroke), width),
        ring_sprite(ring.r - thin, brush.rgb(ring.inner), thin),
    )


def _mark(brush: Brush, item: Any) -> None:
    mark: Mark = item
    polygon = mark_polygon(mark.shape, mark.centre[0], mark.centre[1], mark.r)
    brush.core.draw_polygon(polygon, brush.ink(mark.fill), 1)


def _text(brush: Brush, item: Any) -> None:
    t: TextLine = item
    draw_text(brush.img, t.at[0], t.at[1], t.text, t.size, brush.rgb(t.colour), t.anchor)


_PAINTERS: dict[type, Callable[[Brush, Any], None]] = {
    Rect: _rect,
    Polygon: _polygon,
    Circle: _circle,
    Line: _line,
    Ring: _ring,
    Mark: _mark,
    TextLine: _text,
}


# --------------------------------------------------------------------------------------------- bounds


def bounds(item: Primitive, scene: Scene | None) -> IntBox:
    """A box holding every pixel the item may paint (in any theme); `scene` gives the polygons of an item
    drawn as its cells' (and only those need it)."""
    if isinstance(item, Polygon) and not item.points:
        assert scene is not None, "a polygon of cells needs its scene's cells"
        boxes = [_cell_bounds(scene.cells[i]) for i in item.cells]
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )
    return _bounds(item)


@lru_cache(maxsize=4096)
def _cell_bounds(polygon: Points) -> IntBox:
    box = _int_bounds(polygon)
    return box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1


_KNOWN_BOUNDS: dict[int, tuple[Primitive, IntBox]] = {}
"""`_bounds` of the items met lately, by identity (scene builders make recurring items once; hashing an item
costs more than its bounds)."""
KNOWN_BOUNDS_LIMIT = 16384


def _bounds(item: Primitive) -> IntBox:
    """`bounds` of an item that needs nothing of its scene, remembered for the same item object."""
    known = _KNOWN_BOUNDS.get(id(item))
    if known is not None and known[0] is item:
        return known[1]
    box = _measured(item)
    if len(_KNOWN_BOUNDS) >= KNOWN_BOUNDS_LIMIT:
        _KNOWN_BOUNDS.clear()
    _KNOWN_BOUNDS[id(item)] = (item, box)  # holds the item: its id stays its own
    return box


def _measured(item: Primitive) -> IntBox:
    """`_bounds`, worked out."""
    if isinstance(item, Rect):
        x0, y0, x1, y1 = item.box
        return math.floor(x0) - 1, math.floor(y0) - 1, math.ceil(x1) + 1, math.ceil(y1) + 1
    if isinstance(item, Polygon):
        return _cell_bounds(item.points)
    if isinstance(item, Circle):
        r, (cx, cy) = item.r, item.centre
        if item.shading is Shading.DOT:
            reach = r + item.width + 1
            return (
                math.floor(cx - reach),
                math.floor(cy - reach),
                math.ceil(cx + reach) + 1,
                math.ceil(cy + reach) + 1,
            )
        pad = math.ceil(r * 0.12) if item.shading is not Shading.FLAT else 0
        half = math.ceil(r) + 1 + pad
        left, top = round(cx - half), round(cy - half)
        return left - 1, top - 1, left + 2 * half + 1, top + 2 * half + 1
    if isinstance(item, Line):
        reach = item.width / 2 + 2
        xs, ys = [x for x, _ in item.points], [y for _, y in item.points]
        return (
            math.floor(min(xs) - reach),
            math.floor(min(ys) - reach),
            math.ceil(max(xs) + reach) + 1,
            math.ceil(max(ys) + reach) + 1,
        )
    if isinstance(item, Mark):
        return _cell_bounds(tuple(mark_polygon(item.shape, item.centre[0], item.centre[1], item.r)))
    if isinstance(item, Ring):
        outer = item.r + item.width / 2 + item.thin / 2
        half = math.ceil(outer + item.thin) + 1
        left, top = round(item.centre[0] - half), round(item.centre[1] - half)
        return left - 1, top - 1, left + 2 * half + 1, top + 2 * half + 1
    assert isinstance(item, TextLine)
    if not item.text:
        return 0, 0, 0, 0
    line = text_line(item.text, item.size)
    left, top = text_origin(line, item.at[0], item.at[1], item.anchor)
    return left - 1, top - 1, left + line.mask.width + 1, top + line.mask.height + 1


# --------------------------------------------------------------------------------------------- repaint


def _overlaps(box: IntBox, boxes: Iterable[IntBox]) -> bool:
    return any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in boxes)


def _clip(box: IntBox, width: int, height: int) -> IntBox | None:
    clipped = (max(0, box[0]), max(0, box[1]), min(width, box[2]), min(height, box[3]))
    return clipped if clipped[0] < clipped[2] and clipped[1] < clipped[3] else None


def merged(boxes: Iterable[IntBox]) -> list[IntBox]:
    """The boxes with every two that overlap replaced by the box round both, until none overlap."""
    out: list[IntBox] = []
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


def repaint(img: Image.Image, old: Scene, new: Scene, theme: Theme) -> list[IntBox] | None:
    """Paint on `img` (its old pixels never read) every pixel that may differ between `old`'s and
    `new`'s images in `theme`, and return the boxes that hold them (module doc); None where the two cannot
    be compared so (another game, size, background, cells or fixed items, or items in another order: draw
    `new` in full)."""
    if (
        old.game != new.game
        or (old.width, old.height) != (new.width, new.height)
        or old.background != new.background
        or old.fixed != new.fixed
        or (old.cells is not new.cells and old.cells != new.cells)
        or old.items[: old.fixed] != new.items[: new.fixed]
    ):
        return None
    width, height = new.width, new.height
    cues = theme.second_cues
    before = {
        item.key: item
        for item in old.items[old.fixed :]
        if item.show is Show.ALWAYS or (item.show is Show.CUES) == cues
    }
    after = [
        item
        for item in new.items[new.fixed :]
        if item.show is Show.ALWAYS or (item.show is Show.CUES) == cues
    ]
    boxes: list[IntBox] = []
    kept: list[str] = []
    for item in after:
        was = before.get(item.key)
        if was is None:
            boxes.append(bounds(item, new))
            continue
        kept.append(item.key)
        if was is not item and was != item:
            boxes.append(bounds(item, new))
            boxes.append(bounds(was, old))
    now = {item.key for item in after}
    boxes.extend(bounds(item, old) for key, item in before.items() if key not in now)
    if kept != [key for key in before if key in now]:  # the items kept are in another order
        return None
    header = page(width).header
    changed_panel = old.panel != new.panel
    damaged = merged(b for box in boxes if (b := _clip(box, width, height)) is not None)
    base = BASES.get(new, theme)
    for box in damaged:
        img.paste(base.crop(box), box[:2])
    brush = Brush(img, new, theme)
    for item in after:
        x0, y0, x1, y1 = bounds(item, new)
        for b in damaged:
            if x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1:
                _PAINTERS[type(item)](brush, item)
                break
    if changed_panel or _overlaps(header, damaged):
        paint_header(img, new.panel, theme, new.game, width)
        damaged.append(header)  # whole: the header is drawn over everything in its box
    return damaged


def clear() -> None:
    """Forget the kept bases, sprites and resolved colours (tests compare kept and fresh drawings, and give
    a game other colours)."""
    BASES.clear()
    RUNS.clear()
    _KNOWN_BOUNDS.clear()
    for cached in (pattern_mask, sphere_sprite, labelled_disc, resolve, _cell_bounds):
        cached.cache_clear()


__all__ = [
    "BASES",
    "SUPERSAMPLE",
    "bounds",
    "clear",
    "merged",
    "paint",
    "paint_header",
    "paint_item",
    "repaint",
    "shown",
]
