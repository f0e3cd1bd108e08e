"""Paint board: light (White's), dark (Black's) and neutral squares; discs carrying their rank (the number of
discs in their area); spheres; the last move's path from start to end, with a pushed sphere marked. Beside
the board: the tile count race, who leads and for how long, and the counters towards a win or a draw.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

import games
from games.base import Outcome
from games.grids import SquareGrid, bits_of
from games.paint import rules as engine
from games.texts import N_
from renderer import fonts
from renderer import text as wording
from renderer.builder import inclusive, label, last_ring, panel_background, square_frame, square_grid, wrapped
from renderer.canvas import (
    Box,
    Page,
    SquareLayout,
    final_outcome,
    fit_name_with_role,
    fit_text,
    line_pitch,
    page,
    seat_names,
    square_layout,
    square_polygons,
    status_text,
    text_width,
    wrap_text,
)
from renderer.scene import (
    Caps,
    Circle,
    Counter,
    Hatch,
    Kind,
    Layer,
    LegendEntry,
    Line,
    Panel,
    Part,
    Pattern,
    Primitive,
    Rect,
    Scene,
    Seat,
    Shading,
    TextLine,
)
from renderer.theme import RGB, Theme, Token, game_colours, mix


class Colours(NamedTuple):
    """Paint's colours in one theme, from its plugin (games/paint_colours.py)."""

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


# --------------------------------------------------------------------------------------------- scene

SQUARE_KINDS = ("neutral", "light", "dark")


def _square_kind(state: Any, i: int) -> str:
    return "light" if state.light >> i & 1 else "dark" if state.dark >> i & 1 else "neutral"


def _square_pattern(kind: str, side: int) -> Pattern | None:
    """A square's second cue: White's squares hatched, Black's dotted (only where the theme draws cues)."""
    if kind == "neutral":
        return None
    ink = mix(kind, "#ffffff" if kind == "dark" else "#000000", 0.35)
    return Pattern(Hatch.DOTS if kind == "dark" else Hatch.HATCH, ink, max(4, side // 5), max(1, side // 40))


@lru_cache(maxsize=256)
def _square(i: int, kind: str, box: Box) -> Rect:
    return Rect(
        key=f"cell:{i}",
        kind=Kind.CELL,
        cells=(i,),
        box=box,
        fill=kind,
        pattern=_square_pattern(kind, int(box[2] - box[0])),
    )


@lru_cache(maxsize=8)
def _fixed(
    size: int, language: Hashable, chain: fonts.FontChain, progress_lines: int
) -> tuple[Primitive, ...]:
    """What never changes in a match: the panel, the board's frame and coordinates, the panel's title and
    its key. Their texts are in the current language, measured in the fonts in use (part of the key); the
    key sits below the progress line, which a language may wrap onto `progress_lines` lines."""
    lay = square_layout(size, N)
    pg = lay.pg
    left, right = pg.panel[0] + pg.px(18), pg.panel[2] - pg.px(18)
    items: list[Primitive] = [panel_background(pg), *square_frame(lay)]
    items.append(
        TextLine(
            key="panel:title",
            kind=Kind.LABEL,
            layer=Layer.PANEL,
            at=(left, pg.panel[1] + pg.px(14)),
            text=wording.text("paint.tiles"),
            size=pg.px(21),
            colour="ink",
        )
    )
    items.extend(_key(pg, left, right, progress_lines))
    return tuple(items)


def _key(pg: Page, left: int, right: int, progress_lines: int) -> list[Primitive]:
    """The key: each kind of square, a disc with its rank, a sphere; each entry's words wrap where a language
    needs the room (the first line level with the swatch, the rest below)."""
    small = pg.px(16)
    y = pg.panel[1] + pg.px(14) + pg.px(34) + pg.px(42) + pg.px(40) + pg.px(28) + pg.px(20) + pg.px(22)
    y += (progress_lines - 1) * line_pitch(small) + pg.px(40)
    items: list[Primitive] = [
        TextLine(
            key="key:title",
            kind=Kind.LEGEND,
            layer=Layer.PANEL,
            at=(left, y),
            text=wording.text("paint.key"),
            size=pg.px(18),
            colour="ink",
        )
    ]
    y += pg.px(26)
    sw = pg.px(22)
    key_room = right - left - sw - pg.px(8)

    def key_text(key: str) -> int:
        """The key's words beside its swatch at `y`; the height they take."""
        lines = wrap_text(wording.text(key), small, key_room)
        pitch = line_pitch(small)
        for n, line in enumerate(lines):
            items.append(
                TextLine(
                    key=f"{key}:{n}",
                    kind=Kind.LEGEND,
                    layer=Layer.PANEL,
                    at=(left + sw + pg.px(8), y + sw / 2 + n * pitch),
                    text=line,
                    size=small,
                    colour="ink",
                    anchor="lm",
                )
            )
        return round(max(sw, sw / 2 + (len(lines) - 0.5) * pitch))

    for kind in ("light", "dark", "neutral"):
        items.append(
            Rect(
                key=f"key:{kind}",
                kind=Kind.LEGEND,
                layer=Layer.PANEL,
                box=(left, y, left + sw, y + sw),
                fill=kind,
                stroke="grid_line",
                pattern=_square_pattern(kind, sw),
            )
        )
        y += key_text(f"paint.key.{kind}") + pg.px(6)
    items.append(
        Circle(
            key="key:disc",
            kind=Kind.LEGEND,
            layer=Layer.PANEL,
            centre=(left + sw / 2, y + sw / 2),
            r=sw * 0.55,
            fill="disc_white",
            stroke="disc_black",
            width=1.5,
        )
    )
    items.append(
        TextLine(
            key="key:disc:rank",
            kind=Kind.LEGEND,
            layer=Layer.PANEL,
            at=(left + sw / 2, y + sw / 2),
            text="2",
            size=pg.px(12),
            colour="disc_white_ink",
            anchor="mc",
        )
    )
    y += key_text("paint.key.disc") + pg.px(6)
    items.append(
        Circle(
            key="key:sphere",
            kind=Kind.LEGEND,
            layer=Layer.PANEL,
            centre=(left + sw / 2, y + sw / 2),
            r=sw * 0.4,
            fill="sphere",
            stroke="sphere_rim",
            width=max(1.0, pg.k * 2),
            shading=Shading.SHADOW,
        )
    )
    key_text("paint.key.sphere")
    return items


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


def _progress_lines(state: Any, pg: Page) -> int:
    """How many lines the progress line takes (the key below it moves down for each)."""
    progress_text, _, room = _progress(state, pg)
    return len(wrap_text(progress_text, pg.px(16), room))


def _board(state: Any, lay: SquareLayout) -> list[Primitive]:
    """The squares and the grid."""
    items: list[Primitive] = [_square(i, _square_kind(state, i), lay.box(i)) for i in range(N * N)]
    items.extend(square_grid(lay))
    return items


def _pieces(state: Any, lay: SquareLayout) -> list[Primitive]:
    """The discs with their ranks (the number of discs in their area) and the spheres."""
    ranks = engine.disc_ranks(state)
    items: list[Primitive] = [_disc(i, 0, ranks.get(i, 0), lay) for i in bits_of(state.white_discs)]
    items.extend(_disc(i, 1, ranks.get(i, 0), lay) for i in bits_of(state.black_discs))
    items.extend(_sphere(i, lay) for i in bits_of(state.spheres))
    return items


@lru_cache(maxsize=2048)
def _disc(i: int, seat: int, rank: int, lay: SquareLayout) -> Circle:
    fill, edge, ink = (
        ("disc_white", "disc_black", "disc_white_ink")
        if seat == 0
        else ("disc_black", "disc_white", "disc_black_ink")
    )
    return Circle(
        key=f"disc:{i}",
        kind=Kind.DISC,
        cells=(i,),
        centre=lay.centre(i),
        r=lay.cell * 0.39,
        fill=fill,
        stroke=edge,
        width=max(1.0, lay.pg.k * 2),
        shading=Shading.SHADOW,
        text=str(rank),
        text_size=lay.pg.px(max(12, round(lay.cell * 0.42))),
        text_colour=ink,
    )


@lru_cache(maxsize=512)
def _sphere(i: int, lay: SquareLayout) -> Circle:
    return Circle(
        key=f"sphere:{i}",
        kind=Kind.STONE,
        cells=(i,),
        centre=lay.centre(i),
        r=lay.cell * 0.27,
        fill="sphere",
        stroke="sphere_rim",
        width=max(1.0, lay.pg.k * 2),
        shading=Shading.SPHERE,
    )


@lru_cache(maxsize=512)
def _path(move: tuple[int, int], lay: SquareLayout) -> tuple[Primitive, ...]:
    """Under the pieces: the path the disc travelled, a line from a hollow dot on the square it left."""
    start, end = lay.centre(move[0]), lay.centre(move[1])
    r = lay.cell * 0.17
    cells = tuple(path_squares(move))
    return (
        Line(
            key="mark:path",
            kind=Kind.HIGHLIGHT,
            cells=cells,
            points=(start, end),
            stroke="highlight",
            width=lay.pg.px(6),
            caps=Caps.ROUND,
        ),
        Circle(
            key="mark:from",
            kind=Kind.HIGHLIGHT,
            cells=(move[0],),
            centre=start,
            r=r,
            fill="highlight",
            shading=Shading.DOT,
        ),
        Circle(
            key="mark:from:hole",
            kind=Kind.HIGHLIGHT,
            cells=(move[0],),
            centre=start,
            r=r * 0.5,
            fill="highlight_ink",
            shading=Shading.DOT,
        ),
    )


def _ends(state: Any, move: tuple[int, int], lay: SquareLayout) -> tuple[Primitive, ...]:
    """Over the pieces: a ring round the disc that moved, and a ring round the sphere it pushed."""
    return _rings(move, pushed_sphere(state, move), lay)


@lru_cache(maxsize=512)
def _rings(move: tuple[int, int], beyond: int | None, lay: SquareLayout) -> tuple[Primitive, ...]:
    k = lay.pg.k
    items: list[Primitive] = [last_ring("mark:last", *lay.centre(move[1]), lay.cell * 0.42, k, (move[1],))]
    if beyond is not None:
        items.append(last_ring("mark:pushed", *lay.centre(beyond), lay.cell * 0.31, k, (beyond,)))
    return tuple(items)


@lru_cache(maxsize=1024)
def _bar(
    key: str, box: tuple[float, float, float, float], fraction: float, fill: Token, empty: Token
) -> tuple[Primitive, ...]:
    """A bar filled a `fraction` of the way from its left, edged in ink (boxes as Pillow draws them)."""
    left, top, right, bottom = box
    items: list[Primitive] = [
        Rect(key=f"{key}:empty", kind=Kind.LEGEND, layer=Layer.PANEL, box=inclusive(*box), fill=empty)
    ]
    cut = left + (right - left) * max(0.0, min(1.0, fraction))
    if cut > left:
        items.append(
            Rect(
                key=f"{key}:fill",
                kind=Kind.LEGEND,
                layer=Layer.PANEL,
                box=inclusive(left, top, cut, bottom),
                fill=fill,
            )
        )
    items.append(
        Rect(key=f"{key}:edge", kind=Kind.LEGEND, layer=Layer.PANEL, box=inclusive(*box), stroke="ink")
    )
    return tuple(items)


def _panel_items(state: Any, lay: SquareLayout, names: list[str], last_move: str | None) -> list[Primitive]:
    """The panel over its fixed parts: the tiles, the lead, the counters and the last move."""
    pg = lay.pg
    px0, py0, px1, py1 = pg.panel
    left, right = px0 + pg.px(18), px1 - pg.px(18)
    white_tiles, black_tiles = engine.tiles(state)
    small = pg.px(16)
    y = py0 + pg.px(14) + pg.px(34)  # below the title "Tiles"
    big = pg.px(30)

    text = label

    items: list[Primitive] = [
        text("tiles:0", (left, y), str(white_tiles), big, "ink"),
        text("tiles:1", (right, y), str(black_tiles), big, "ink", "rt"),
        text(
            "tiles:0:name",
            (left + pg.px(52), y + pg.px(12)),
            fit_name_with_role(names[0], wording.text(SEAT_KEYS[0]), small, pg.px(120)),
            small,
            "muted",
        ),
        text(
            "tiles:1:name",
            (right - pg.px(52), y + pg.px(12)),
            fit_name_with_role(names[1], wording.text(SEAT_KEYS[1]), small, pg.px(120)),
            small,
            "muted",
            "rt",
        ),
    ]
    y += pg.px(42)
    total = max(1, white_tiles + black_tiles)
    items.extend(_bar("tiles:bar", (left, y, right, y + pg.px(18)), white_tiles / total, "light", "dark"))
    middle = (left + right) / 2
    items.append(
        Line(
            key="tiles:middle",
            kind=Kind.LEGEND,
            layer=Layer.PANEL,
            points=((middle, y - pg.px(4)), (middle, y + pg.px(22))),
            stroke="ink",
        )
    )
    y += pg.px(40)
    leader = state.leader
    if leader is not None:
        title = _lead_title(names, leader, pg.px(19), right - left)
        count, goal = state.lead_count, state.lead_turns
        fill: Token = _lead_colour(leader)
    else:
        title = wording.text("paint.nobody_leads")
        count, goal = state.no_lead_count, state.no_lead_turns
        fill = "muted"
    items.append(text("lead:title", (left, y), fit_text(title, pg.px(19), right - left), pg.px(19), "ink"))
    y += pg.px(28)
    items.extend(_bar("lead:bar", (left, y, right, y + pg.px(14)), count / max(1, goal), fill, "neutral"))
    y += pg.px(20)
    progress_text, counter, room = _progress(state, pg)  # a translation may be longer: the line wraps
    if counter is not None:
        items.append(text("lead:counter", (right, y), counter, small, "muted", "rt"))
    lines = wrapped("lead:progress", left, y, progress_text, small, "muted", room)
    items.extend(lines)
    y += pg.px(22) + (len(lines) - 1) * line_pitch(small)
    cap = wording.text("paint.move_cap", count=state.ply, goal=state.move_cap)
    items.append(text("move_cap", (left, y), cap, small, "muted"))
    if last_move:
        text_last = _last_move_words(state, last_move)
        items.append(
            text(
                "last_move",
                (left, py1 - pg.px(14)),
                fit_text(text_last, small, right - left),
                small,
                "ink",
                "lb",
            )
        )
    return items


def _last_move_words(state: Any, last_move: str) -> str:
    """ "Last move: c1-c5 (sphere to c6)"."""
    beyond = pushed_sphere(state, parse_last_move(last_move))
    shown = (
        wording.move(last_move)
        if beyond is None
        else wording.text("paint.sphere_to", move=last_move, cell=GRID.label(beyond))
    )
    return wording.text("last_move", move=shown)


def _lead_colour(leader: int) -> Token:
    """The lead bar's fill: the leader's square colour (White's light squares, Black's dark ones), as on the
    tile bar above it."""
    return "light" if leader == 0 else "dark"


def _name_with_seat(names: list[str], seat: int) -> str:
    return wording.with_role(names[seat], wording.text(SEAT_KEYS[seat]))


def _lead_title(names: list[str], leader: int, px: int, room: float) -> str:
    """ "Alice (White) leads"; where that does not fit, the role (the bar's colour) gives way first."""
    title = wording.text("paint.leads", name=_name_with_seat(names, leader))
    return title if text_width(title, px) <= room else wording.text("paint.leads", name=names[leader])


def _panel(rules: Any, state: Any, names: list[str], outcome: Outcome | None, last_move: str | None) -> Panel:
    """The panel as data: the players (the header's chips), the tile count and the lead counter, the key."""
    to_move = rules.to_move(state)
    counts = engine.tiles(state)
    seats = []
    for seat in range(2):
        fill, rim = ("disc_white", "disc_black") if seat == 0 else ("disc_black", "disc_white")
        tiles = "paint.chip.tiles_leads" if state.leader == seat else "paint.chip.tiles"
        seats.append(
            Seat(
                seat=seat,
                name=names[seat],
                role=wording.word(rules.seat_label(state, seat)),
                colour=fill,
                rim=rim,
                detail=wording.plural(tiles, counts[seat]),
                score=counts[seat],
                to_move=outcome is None and to_move == seat,
                winner=outcome is not None and seat in outcome.winners,
            )
        )
    parts = tuple(
        Part(
            label=_name_with_seat(names, seat), value=counts[seat], colour=("light", "dark")[seat], seat=seat
        )
        for seat in range(2)
    )
    progress_text, counter, _ = _progress(state, page(960))
    if state.leader is not None:
        lead = Counter(
            key="lead",
            label=wording.text("paint.leads", name=_name_with_seat(names, state.leader)),
            parts=(
                Part(
                    label=names[state.leader],
                    value=state.lead_count,
                    colour=_lead_colour(state.leader),
                    seat=state.leader,
                ),
            ),
            goal=state.lead_turns,
            note=progress_text,
        )
    else:
        lead = Counter(
            key="lead",
            label=wording.text("paint.nobody_leads"),
            parts=(Part(label="", value=state.no_lead_count, colour="muted"),),
            goal=state.no_lead_turns,
            note=progress_text,
        )
    lines = [wording.text("paint.move_cap", count=state.ply, goal=state.move_cap)]
    if counter is not None:
        lines.append(counter)
    return Panel(
        title=wording.text("paint.tiles"),
        status=status_text(rules, state, names, outcome=outcome),
        move=rules.moves_played(state),
        over=outcome is not None,
        last_move=_last_move_words(state, last_move) if last_move else "",
        players=tuple(seats),
        counters=(Counter(key="tiles", label=wording.text("paint.tiles"), parts=parts), lead),
        legend=_legend(wording.language()),
        lines=tuple(lines),
    )


@lru_cache(maxsize=16)
def _legend(language: Hashable) -> tuple[LegendEntry, ...]:
    """The key as data, in the current language (`language` is part of the cache key)."""
    squares = [
        LegendEntry(
            label=wording.text(f"paint.key.{kind}"), colours=(kind,), pattern=_square_pattern(kind, 22)
        )
        for kind in ("light", "dark", "neutral")
    ]
    return (
        *squares,
        LegendEntry(label=wording.text("paint.key.disc"), colours=("disc_white", "disc_black"), shape="disc"),
        LegendEntry(label=wording.text("paint.key.sphere"), colours=("sphere", "sphere_rim"), shape="sphere"),
    )


def scene(
    state: Any,
    *,
    last_move: str | None,
    players: Sequence[str] | None,
    size: int,
    outcome: Outcome | None = None,
) -> Scene:
    """The Paint board of `state` as a scene; `outcome` (a resignation, timeout, abort) overrides the
    engine's."""
    rules = games.get("paint")
    outcome = final_outcome(rules, state, outcome)
    lay = square_layout(size, N)
    pg = lay.pg
    names = seat_names(rules, state, players, 2)
    fixed = _fixed(size, wording.language(), fonts.chain(), _progress_lines(state, pg))
    items: list[Primitive] = [*fixed, *_board(state, lay)]
    move = parse_last_move(last_move)
    if move is not None:
        items.extend(_path(move, lay))
    items.extend(_pieces(state, lay))
    if move is not None:
        items.extend(_ends(state, move, lay))
    items.extend(_panel_items(state, lay, names, last_move))
    return Scene(
        game="paint",
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
