"""The board as a scene: one picture, as data, that Pillow paints for Discord (`renderer.painter`) and a
browser paints as SVG.

A scene is a display list of **generic primitives** in paint order (`Rect`, `Polygon`, `Circle`, `Line`,
`Ring`, `Mark`, `TextLine`: JSON types rect, polygon, circle, line, ring, mark, text), never game-specific
ones, plus the **panel as data** (`Panel`: players, scores, counters, legend, status) and the cells' click
polygons and names. Every item has

- a **stable key** ("cell:12", "stone:12", "mark:last"), unique in its scene, by which a diff and an
  animation follow it from one ply to the next;
- a **kind** (`Kind`: cell, stone, disc, piece, outline, mark, label...), what it shows;
- the **cells** it sits in (the engine's cell indices, as `games.base.ClickMove.cells`), if any;
- a **layer**: the board, or the PNG's side panel (which a browser shows as HTML from `Panel` instead);
- when it is **shown**: always, only in a theme with second cues (`Theme.second_cues`: the colour-blind
  one), or only in a theme without.

Colours are **theme tokens** (`renderer.theme.resolve`: "ink", "piece_red", "mix(tile_red,panel,0.55)"),
so one scene is drawn in every theme; its JSON carries each theme's palette of the tokens it uses, and a
browser switches themes without new scene data. Coordinates are the PNG's pixels at the scene's width
(its height is two thirds of it). A rectangle's box is (left, top, right, bottom) with right and bottom
exclusive: it covers the pixels left <= x < right. A polygon, line or text point is a pixel coordinate as
Pillow draws it.

`diff(old, new)` says what changed between two scenes (removed keys, changed items, new or moved items
with where they go, the panel), with the plies before and after; `apply(old, diff)` gives `new` exactly.
`scene_json`, `diff_json` and `scene_from_json` are the wire forms (docs/architecture.md, "The scene").
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import MISSING, dataclass, fields, replace
from enum import StrEnum
from typing import Any, TypeAlias

from renderer.theme import THEMES, Token, get_theme, hex_code, resolve

Point: TypeAlias = tuple[float, float]
Points: TypeAlias = tuple[Point, ...]
Box: TypeAlias = tuple[float, float, float, float]


class Kind(StrEnum):
    """What an item shows (a browser may style or animate by it)."""

    BACKGROUND = "background"
    FRAME = "frame"
    CELL = "cell"
    TERRITORY = "territory"
    STONE = "stone"
    DISC = "disc"
    PIECE = "piece"
    OUTLINE = "outline"
    MARK = "mark"
    LABEL = "label"
    HIGHLIGHT = "highlight"
    COORDINATE = "coordinate"
    LEGEND = "legend"
    PANEL = "panel"


class Layer(StrEnum):
    """Where an item lies: on the board, or in the PNG's side panel (the browser shows `Panel` instead)."""

    BOARD = "board"
    PANEL = "panel"


class Show(StrEnum):
    """When an item is drawn: always, only with second cues (the colour-blind theme), or only without."""

    ALWAYS = "always"
    CUES = "cues"
    PLAIN = "plain"


class Shading(StrEnum):
    """How a circle is drawn: a smooth disc with its rim; the same with a drop shadow; a sphere (shadow and
    a highlight); a dot (hard-edged, no rim)."""

    FLAT = "flat"
    SHADOW = "shadow"
    SPHERE = "sphere"
    DOT = "dot"


class Hatch(StrEnum):
    """The patterns a filled shape may carry as a second cue beside its colour (drawn only in a theme with
    second cues): rising diagonals, horizontal stripes, dots, both diagonals."""

    HATCH = "hatch"
    STRIPES = "stripes"
    DOTS = "dots"
    CROSS = "cross"


class Caps(StrEnum):
    """A line's ends: cut square at its points, or rounded (half its width past them)."""

    BUTT = "butt"
    ROUND = "round"


@dataclass(frozen=True, slots=True)
class Pattern:
    """A shape's second cue: `kind` drawn in `ink`, lines (or dots) `step` pixels apart and `width` thick
    (a dot's radius), laid from the shape's top left corner."""

    kind: Hatch
    ink: Token
    step: int
    width: int


# --------------------------------------------------------------------------------------------- items


@dataclass(frozen=True, slots=True, kw_only=True)
class Item:
    """What every primitive has (see the module doc)."""

    key: str
    kind: Kind
    layer: Layer = Layer.BOARD
    cells: tuple[int, ...] = ()
    show: Show = Show.ALWAYS

    def tokens(self) -> Iterator[Token]:
        """The colour tokens the item uses."""
        for name in _token_fields(type(self)):
            value = getattr(self, name)
            if value is None:
                continue
            yield value.ink if isinstance(value, Pattern) else value


_TOKEN_FIELDS = frozenset({"fill", "stroke", "colour", "edge", "inner", "text_colour", "pattern"})


_TOKEN_FIELDS_OF: dict[type, tuple[str, ...]] = {}


def _token_fields(cls: type) -> tuple[str, ...]:
    """The names of a primitive's fields that hold colour tokens (or a pattern, whose ink is one)."""
    found = _TOKEN_FIELDS_OF.get(cls)
    if found is None:
        found = _TOKEN_FIELDS_OF[cls] = tuple(f.name for f in fields(cls) if f.name in _TOKEN_FIELDS)
    return found


@dataclass(frozen=True, slots=True, kw_only=True)
class Rect(Item):
    """A rectangle covering left <= x < right, top <= y < bottom, with rounded corners of `radius`; its
    outline (`stroke`, `width` pixels) lies inside the box."""

    box: Box
    fill: Token | None = None
    stroke: Token | None = None
    width: float = 1
    radius: float = 0
    pattern: Pattern | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Polygon(Item):
    """A filled polygon with a one-pixel outline. Without `points`, each of its `cells`' polygons (the
    scene's `cells`) is drawn in turn: a cell, or the cells of a piece."""

    points: Points = ()
    fill: Token | None = None
    stroke: Token | None = None
    pattern: Pattern | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Circle(Item):
    """A disc of radius `r` with a rim of `width` pixels (`stroke`) inside it, drawn as `shading` says;
    with `text`, that text written in its middle (a disc's rank)."""

    centre: Point
    r: float
    fill: Token
    stroke: Token | None = None
    width: float = 0
    shading: Shading = Shading.FLAT
    text: str = ""
    text_size: int = 0
    text_colour: Token | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Line(Item):
    """A polyline `width` pixels wide; `closed` joins its last point to its first (round joints)."""

    points: Points
    stroke: Token
    width: float = 1
    closed: bool = False
    caps: Caps = Caps.BUTT


@dataclass(frozen=True, slots=True, kw_only=True)
class Ring(Item):
    """A last-move ring: a ring of `width` pixels in `stroke` round a circle of radius `r`, edged by a thin
    line (`thin` pixels) of `edge` outside and of `inner` inside, so it shows on every colour."""

    centre: Point
    r: float
    stroke: Token = "highlight"
    edge: Token = "ink"
    inner: Token = "highlight_ink"
    width: float = 3.5
    thin: float = 1.2


@dataclass(frozen=True, slots=True, kw_only=True)
class Mark(Item):
    """A small filled shape marking a seat (its second cue beside colour): `shape` ("circle", "square",
    "triangle", "diamond") of size `r` centred on `centre` (`renderer.canvas.mark_polygon`: a square of
    half-side 0.85r; a triangle with its apex 1.1r above the centre and its base 0.75r below, r either
    side; a diamond 1.15r high and r wide each way; a circle of radius r, drawn as a 16-gon)."""

    centre: Point
    r: float
    shape: str
    fill: Token


@dataclass(frozen=True, slots=True, kw_only=True)
class TextLine(Item):
    """One line of text `size` pixels high at `at`. `anchor` is two letters: l/m/r (left, middle or right
    of the text), then t/m/b (top, middle, bottom of the line box) or c (the middle of the ink itself)."""

    at: Point
    text: str
    size: int
    colour: Token
    anchor: str = "lt"
    weight: str = "normal"


Primitive: TypeAlias = Rect | Polygon | Circle | Line | Ring | Mark | TextLine
PRIMITIVES: dict[str, type[Primitive]] = {
    "rect": Rect,
    "polygon": Polygon,
    "circle": Circle,
    "line": Line,
    "ring": Ring,
    "mark": Mark,
    "text": TextLine,
}
_TYPE_NAMES = {cls: name for name, cls in PRIMITIVES.items()}


# --------------------------------------------------------------------------------------------- panel


@dataclass(frozen=True, slots=True, kw_only=True)
class Seat:
    """One player as the header chip and the panel show them. `colour`/`rim` are the seat's swatch; `mark`
    a shape drawn on it in a theme with second cues ("circle", "square", "triangle", "diamond"; "" for
    none); `detail` the chip's second line ("24 cells"); `clock` the seconds left on the seat's clock, for
    a game played with one (None: no clock shown)."""

    seat: int
    name: str
    role: str
    colour: Token
    rim: Token
    mark: str = ""
    mark_ink: Token | None = None
    detail: str = ""
    score: int | None = None
    pieces: int | None = None
    """Pieces left to place (None: a game without a supply)."""
    note: str = ""
    """A state in words ("resigned", "passes every turn"), or ""."""
    to_move: bool = False
    winner: bool = False
    clock: float | None = None
    clock_low: float | None = None
    """Under this many seconds the clock is low (shown as a warning); None with no clock."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Part:
    """One share of a counter: its words, its value and colour, and the seat it belongs to (if any)."""

    label: str
    value: int
    colour: Token
    seat: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Counter:
    """A count the game races on: Paint's tiles and its lead counter, one of Paintscape's colours. Its
    `parts` out of `goal` (None: a share of their sum), and a line of words (`note`: "28 of 50 turns to
    win", "collected by Alice")."""

    key: str
    label: str
    parts: tuple[Part, ...] = ()
    goal: int | None = None
    note: str = ""
    colour: Token | None = None
    """The counter's own colour (a tile colour in Paintscape's race), or None."""
    done: bool = False
    """Decided: the colour collected, the counter run out."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LegendEntry:
    """One line of the key: a swatch (`colours`, striped when several; with `pattern` as its second cue)
    drawn as `shape` ("square", "disc", "sphere"), and its words."""

    label: str
    colours: tuple[Token, ...]
    shape: str = "square"
    pattern: Pattern | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Panel:
    """What beside the board is data: the players (the PNG's header chips are drawn from them), the status
    line, the move number, the last move in words, counters, the key, and any lines the game adds."""

    title: str
    status: str
    move: int
    """Moves played (`Rules.moves_played`)."""
    over: bool = False
    last_move: str = ""
    players: tuple[Seat, ...] = ()
    counters: tuple[Counter, ...] = ()
    legend: tuple[LegendEntry, ...] = ()
    lines: tuple[str, ...] = ()
    """Other lines of words the panel shows ("Board hex8bi: 127 playable cells")."""

    def tokens(self) -> Iterator[Token]:
        for seat in self.players:
            yield seat.colour
            yield seat.rim
            if seat.mark_ink is not None:
                yield seat.mark_ink
        for counter in self.counters:
            if counter.colour is not None:
                yield counter.colour
            for part in counter.parts:
                yield part.colour
        for entry in self.legend:
            yield from entry.colours
            if entry.pattern is not None:
                yield entry.pattern.ink


# --------------------------------------------------------------------------------------------- scene


@dataclass(frozen=True, slots=True)
class Scene:
    """A board as data (module doc). The first `fixed` items are the same for every position of a match
    (frame, coordinates, empty cells, the panel's titles and key): a painter may keep them drawn."""

    game: str
    width: int
    height: int
    ply: int
    items: tuple[Primitive, ...]
    panel: Panel
    cells: tuple[Points, ...] = ()
    """Each cell's polygon in the image's pixels (index: the engine's cell index), for clicks."""
    labels: tuple[str, ...] = ()
    """Each cell's name as a player types it."""
    fixed: int = 0
    background: Token = "background"

    def keyed(self) -> dict[str, Primitive]:
        return {item.key: item for item in self.items}

    def tokens(self) -> set[Token]:
        """Every colour token the scene uses (its palette)."""
        found = {self.background, *self.panel.tokens()}
        for item in self.items:
            found.update(item.tokens())
        return found


def check(scene: Scene) -> None:
    """ValueError unless the scene is well formed: unique keys, cells that exist, `fixed` in range."""
    seen: set[str] = set()
    for item in scene.items:
        if item.key in seen:
            raise ValueError(f"two items of the scene have the key {item.key!r}")
        seen.add(item.key)
        bad = [c for c in item.cells if not 0 <= c < len(scene.cells)] if scene.cells else []
        if bad:
            raise ValueError(f"item {item.key!r} sits in cells {bad} the scene does not have")
        if isinstance(item, Polygon) and not item.points and not item.cells:
            raise ValueError(f"polygon {item.key!r} has neither points nor cells")
    if not 0 <= scene.fixed <= len(scene.items):
        raise ValueError(f"fixed {scene.fixed} is not within the scene's {len(scene.items)} items")
    if scene.labels and len(scene.labels) != len(scene.cells):
        raise ValueError("a scene names as many cells as it has")


# --------------------------------------------------------------------------------------------- diff


@dataclass(frozen=True, slots=True)
class SceneDiff:
    """What changed from one scene to the next of a match: the keys removed, the items changed in place,
    the items new or moved (each placed right after the item of its anchor key, None: first; placed in
    order), and the panel, cells, labels and fixed count where they changed (None: as they were)."""

    game: str
    before: int
    """The ply of the scene it applies to."""
    after: int
    """The ply of the scene it makes."""
    removed: tuple[str, ...] = ()
    changed: tuple[Primitive, ...] = ()
    placed: tuple[tuple[str | None, Primitive], ...] = ()
    panel: Panel | None = None
    cells: tuple[Points, ...] | None = None
    labels: tuple[str, ...] | None = None
    fixed: int | None = None
    size: tuple[int, int] | None = None

    @property
    def empty(self) -> bool:
        return not (
            self.removed
            or self.changed
            or self.placed
            or self.panel is not None
            or self.cells is not None
            or self.labels is not None
            or self.fixed is not None
            or self.size is not None
        )

    def items(self) -> Iterator[Primitive]:
        """The items the diff brings (changed and placed)."""
        yield from self.changed
        for _, item in self.placed:
            yield item

    def tokens(self) -> set[Token]:
        """The colour tokens of what the diff brings (its items, its panel)."""
        brought = {token for item in self.items() for token in item.tokens()}
        if self.panel is not None:
            brought.update(self.panel.tokens())
        return brought


def diff(old: Scene, new: Scene) -> SceneDiff:
    """What turns `old` into `new` (`apply(old, diff(old, new)) == new`). Items are matched by key; the
    order of the keys both keep is matched as a longest common run (difflib), and every other item of
    `new` is placed after its predecessor."""
    if old.game != new.game:
        raise ValueError(f"a diff joins scenes of one game, not {old.game!r} and {new.game!r}")
    old_keys = [item.key for item in old.items]
    new_keys = [item.key for item in new.items]
    new_set = set(new_keys)
    removed = tuple(k for k in old_keys if k not in new_set)
    kept = [k for k in old_keys if k in new_set]
    old_set = set(old_keys)
    stay: set[str] = set(kept)
    if kept != [k for k in new_keys if k in old_set]:  # some kept items changed places: the longest runs stay
        stay.clear()
        matcher = difflib.SequenceMatcher(None, kept, new_keys, autojunk=False)
        for block in matcher.get_matching_blocks():
            stay.update(new_keys[block.b : block.b + block.size])
    moved = tuple(k for k in kept if k not in stay)
    before = old.keyed()
    changed: list[Primitive] = []
    placed: list[tuple[str | None, Primitive]] = []
    previous: str | None = None
    for item in new.items:
        if item.key in stay:
            if before[item.key] != item:
                changed.append(item)
        else:
            placed.append((previous, item))
        previous = item.key
    return SceneDiff(
        game=new.game,
        before=old.ply,
        after=new.ply,
        removed=removed + moved,
        changed=tuple(changed),
        placed=tuple(placed),
        panel=new.panel if new.panel != old.panel else None,
        cells=new.cells if new.cells != old.cells else None,
        labels=new.labels if new.labels != old.labels else None,
        fixed=new.fixed if new.fixed != old.fixed else None,
        size=(new.width, new.height) if (new.width, new.height) != (old.width, old.height) else None,
    )


def apply(old: Scene, change: SceneDiff) -> Scene:
    """The scene `change` makes of `old`; ValueError if it was made for another scene (ply or game)."""
    if change.game != old.game or change.before != old.ply:
        raise ValueError(
            f"the diff goes from {change.game} ply {change.before}, not from {old.game} ply {old.ply}"
        )
    gone = set(change.removed)
    updated = {item.key: item for item in change.changed}
    order: list[Primitive] = [updated.get(item.key, item) for item in old.items if item.key not in gone]
    if change.placed:
        chains: dict[str | None, list[Primitive]] = {}
        for anchor, item in change.placed:
            chains.setdefault(anchor, []).append(item)
        order = _woven(order, chains)
    width, height = change.size if change.size is not None else (old.width, old.height)
    return Scene(
        game=old.game,
        width=width,
        height=height,
        ply=change.after,
        items=tuple(order),
        panel=change.panel if change.panel is not None else old.panel,
        cells=change.cells if change.cells is not None else old.cells,
        labels=change.labels if change.labels is not None else old.labels,
        fixed=change.fixed if change.fixed is not None else old.fixed,
        background=old.background,
    )


def _woven(kept: list[Primitive], chains: Mapping[str | None, list[Primitive]]) -> list[Primitive]:
    """`kept` with each placed item after its anchor: an anchor's items follow it in order, and an item
    placed after a placed item follows that one (so runs of new items come out as they were placed)."""
    out: list[Primitive] = []

    def put(anchor: str | None) -> None:
        for item in chains.get(anchor, ()):
            out.append(item)
            put(item.key)

    put(None)
    for item in kept:
        out.append(item)
        put(item.key)
    return out


# --------------------------------------------------------------------------------------------- JSON

ROUND = 1
"""Decimals of a coordinate in JSON (a tenth of a pixel: what a browser can resolve at the PNG's size)."""


def _num(value: float) -> float | int:
    rounded = round(value, ROUND)
    return int(rounded) if rounded == int(rounded) else rounded


def _flat(points: Iterable[Point]) -> list[float | int]:
    return [_num(v) for point in points for v in point]


def _points(flat: Sequence[float]) -> Points:
    return tuple((float(flat[n]), float(flat[n + 1])) for n in range(0, len(flat), 2))


_ITEM_DEFAULTS = {"layer": Layer.BOARD, "cells": (), "show": Show.ALWAYS}


def item_json(item: Primitive) -> dict[str, Any]:
    """An item as JSON: {"type": "rect"|"polygon"|"circle"|"line"|"ring"|"text", "key", "kind", ...its
    fields}, leaving out fields at their defaults; points as flat [x, y, x, y...] lists; a pattern as
    {"kind", "ink", "step", "width"}."""
    out: dict[str, Any] = {"type": _TYPE_NAMES[type(item)]}
    for f in fields(item):
        value = getattr(item, f.name)
        if value == f.default or (f.name in _ITEM_DEFAULTS and value == _ITEM_DEFAULTS[f.name]):
            continue
        if f.name in ("points",):
            out[f.name] = _flat(value)
        elif f.name in ("centre", "at"):
            out[f.name] = [_num(value[0]), _num(value[1])]
        elif f.name == "box":
            out[f.name] = [_num(v) for v in value]
        elif isinstance(value, Pattern):
            out[f.name] = {
                "kind": str(value.kind),
                "ink": value.ink,
                "step": value.step,
                "width": value.width,
            }
        elif isinstance(value, float):
            out[f.name] = _num(value)
        elif isinstance(value, tuple):
            out[f.name] = list(value)
        else:
            out[f.name] = str(value) if isinstance(value, StrEnum) else value
    return out


def item_from_json(data: Mapping[str, Any]) -> Primitive:
    """The item `item_json` wrote (with coordinates as rounded there)."""
    cls = PRIMITIVES[data["type"]]
    values: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        value = data[f.name]
        if f.name == "points":
            value = _points(value)
        elif f.name in ("centre", "at"):
            value = (float(value[0]), float(value[1]))
        elif f.name == "box":
            value = tuple(float(v) for v in value)
        elif f.name == "cells":
            value = tuple(int(v) for v in value)
        elif f.name == "pattern":
            value = Pattern(Hatch(value["kind"]), value["ink"], int(value["step"]), int(value["width"]))
        elif f.name in ("kind", "layer", "show", "shading", "caps"):
            value = {"kind": Kind, "layer": Layer, "show": Show, "shading": Shading, "caps": Caps}[f.name](
                value
            )
        elif f.name in ("r", "width", "radius", "thin"):
            value = float(value)
        values[f.name] = value
    return cls(**values)


def _plain(value: Any) -> Any:
    """A panel dataclass as JSON (defaults left out, tuples as lists, patterns as objects)."""
    if isinstance(value, Pattern):
        return {"kind": str(value.kind), "ink": value.ink, "step": value.step, "width": value.width}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        out = {}
        for f in fields(value):
            item = getattr(value, f.name)
            if f.default is not MISSING and item == f.default:
                continue
            out[f.name] = _plain(item)
        return out
    return value


def panel_json(panel: Panel) -> dict[str, Any]:
    """The panel as JSON: its fields, those at their defaults left out."""
    data: dict[str, Any] = _plain(panel)
    return data


def panel_from_json(data: Mapping[str, Any]) -> Panel:
    def pattern(value: Any) -> Pattern | None:
        if value is None:
            return None
        return Pattern(Hatch(value["kind"]), value["ink"], int(value["step"]), int(value["width"]))

    return Panel(
        title=data["title"],
        status=data["status"],
        move=data["move"],
        over=data.get("over", False),
        last_move=data.get("last_move", ""),
        players=tuple(Seat(**seat) for seat in data.get("players", ())),
        counters=tuple(
            Counter(
                **{k: v for k, v in counter.items() if k != "parts"},
                parts=tuple(Part(**part) for part in counter.get("parts", ())),
            )
            for counter in data.get("counters", ())
        ),
        legend=tuple(
            LegendEntry(
                label=entry["label"],
                colours=tuple(entry["colours"]),
                shape=entry.get("shape", "square"),
                pattern=pattern(entry.get("pattern")),
            )
            for entry in data.get("legend", ())
        ),
        lines=tuple(data.get("lines", ())),
    )


def palettes(tokens: Iterable[Token], game_id: str, themes: Iterable[str] | None = None) -> dict[str, Any]:
    """Each theme's colours of `tokens`, as a browser switches them: {theme: {"cues": bool, "colours":
    {token: "#rrggbb"}}} (`cues`: the theme draws the items shown with second cues, and patterns)."""
    names = sorted(tokens)
    out: dict[str, Any] = {}
    for name in themes if themes is not None else THEMES:
        theme = get_theme(name)
        out[name] = {
            "cues": theme.second_cues,
            "colours": {token: hex_code(resolve(token, theme, game_id)) for token in names},
        }
    return out


def scene_json(scene: Scene, *, themes: Iterable[str] | None = None) -> dict[str, Any]:
    """The scene as JSON, with every theme's palette of its tokens (`palettes`)."""
    return {
        "game": scene.game,
        "width": scene.width,
        "height": scene.height,
        "ply": scene.ply,
        "fixed": scene.fixed,
        "background": scene.background,
        "items": [item_json(item) for item in scene.items],
        "panel": panel_json(scene.panel),
        "cells": [_flat(poly) for poly in scene.cells],
        "labels": list(scene.labels),
        "palettes": palettes(scene.tokens(), scene.game, themes),
    }


def scene_from_json(data: Mapping[str, Any]) -> Scene:
    """The scene `scene_json` wrote (coordinates as rounded there; the palettes are left out)."""
    return Scene(
        game=data["game"],
        width=data["width"],
        height=data["height"],
        ply=data["ply"],
        items=tuple(item_from_json(item) for item in data["items"]),
        panel=panel_from_json(data["panel"]),
        cells=tuple(_points(flat) for flat in data["cells"]),
        labels=tuple(data["labels"]),
        fixed=data["fixed"],
        background=data.get("background", "background"),
    )


def diff_json(
    change: SceneDiff, *, known: Iterable[Token] = (), themes: Iterable[str] | None = None
) -> dict[str, Any]:
    """The diff as JSON: {"game", "before", "after", "removed": [keys], "changed": [items], "placed":
    [[anchor key or null, item]...], and "panel", "cells", "labels", "fixed", "size" where they changed,
    and "palettes" for the tokens it brings that are not in `known` (the old scene's)}."""
    out: dict[str, Any] = {"game": change.game, "before": change.before, "after": change.after}
    if change.removed:
        out["removed"] = list(change.removed)
    if change.changed:
        out["changed"] = [item_json(item) for item in change.changed]
    if change.placed:
        out["placed"] = [[anchor, item_json(item)] for anchor, item in change.placed]
    if change.panel is not None:
        out["panel"] = panel_json(change.panel)
    if change.cells is not None:
        out["cells"] = [_flat(poly) for poly in change.cells]
    if change.labels is not None:
        out["labels"] = list(change.labels)
    if change.fixed is not None:
        out["fixed"] = change.fixed
    if change.size is not None:
        out["size"] = list(change.size)
    new = change.tokens() - set(known)
    if new:
        out["palettes"] = palettes(new, change.game, themes)
    return out


def diff_from_json(data: Mapping[str, Any]) -> SceneDiff:
    """The diff `diff_json` wrote."""
    return SceneDiff(
        game=data["game"],
        before=data["before"],
        after=data["after"],
        removed=tuple(data.get("removed", ())),
        changed=tuple(item_from_json(item) for item in data.get("changed", ())),
        placed=tuple((anchor, item_from_json(item)) for anchor, item in data.get("placed", ())),
        panel=panel_from_json(data["panel"]) if "panel" in data else None,
        cells=tuple(_points(flat) for flat in data["cells"]) if "cells" in data else None,
        labels=tuple(data["labels"]) if "labels" in data else None,
        fixed=data.get("fixed"),
        size=(data["size"][0], data["size"][1]) if "size" in data else None,
    )


def rounded(scene: Scene) -> Scene:
    """The scene as its JSON carries it (coordinates rounded): `scene_from_json(scene_json(s))`."""
    return scene_from_json(scene_json(scene, themes=()))


__all__ = [
    "Box",
    "Caps",
    "Circle",
    "Counter",
    "Hatch",
    "Item",
    "Kind",
    "Layer",
    "LegendEntry",
    "Line",
    "Mark",
    "Panel",
    "Part",
    "Pattern",
    "Point",
    "Points",
    "Polygon",
    "Primitive",
    "Rect",
    "Ring",
    "Scene",
    "SceneDiff",
    "Seat",
    "Shading",
    "Show",
    "TextLine",
    "apply",
    "check",
    "diff",
    "diff_from_json",
    "diff_json",
    "item_from_json",
    "item_json",
    "palettes",
    "panel_json",
    "rounded",
    "scene_from_json",
    "scene_json",
]


def with_clocks(scene: Scene, clocks: Sequence[float] | None, low: float | None = None) -> Scene:
    """`scene` with each seat's clock in its panel (seconds left, by seat; `low` the seconds under which a
    clock warns); the scene itself where there are none (a match without a live clock)."""
    if not clocks:
        return scene
    players = tuple(
        replace(seat, clock=clocks[seat.seat], clock_low=low) if 0 <= seat.seat < len(clocks) else seat
        for seat in scene.panel.players
    )
    return replace(scene, panel=replace(scene.panel, players=players))
