"""The board on the wire: a page gets the board's scene once and a scene diff per move, and a player the
legal moves as cells to click, compactly.

- `web_scene`: what a browser paints of a board scene (`renderer.scene`): the board's items, the panel as
  data (the page shows it as HTML), the cells and their names; the PNG's own drawing of the panel (its
  `panel` layer) stays out.
- `Sent`: per match and group of viewers (language and theme), the last scene and move list sent, so the
  next update carries only the diff from it (`renderer.scene.diff_json`) and the moves added since, each
  with its ply: a page whose scene is not at the diff's `before` ply (it missed an update) fetches the
  whole state again.
- `compact_clicks`: the legal moves as cells (`games.base.ClickMove`) grouped by piece and pose and by the
  shape of their cells: each group a shape (offsets of its cells from the first) and the first cells
  (anchors, as steps from the previous one), and a move's notation only where it is not its cells' names
  in order (`expand_clicks` is what the page does with them). A TilingKing player's thousands of
  placements are a few kilobytes.
- `packed`: an event as sent on the stream: its JSON, or, where that is longer than `DEFLATE_OVER` bytes
  (a large capture, a long game's last move), {"ply": n, "deflated": base64 of its raw deflate}, which the
  page inflates (`DecompressionStream("deflate-raw")`): an event stream is not compressed as a whole.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.base import ClickMove
from renderer.scene import Layer, Scene, diff, diff_json, palettes, scene_json
from renderer.theme import THEME_TOKENS

DEFLATE_OVER = 2048
"""Events whose JSON is longer than this many bytes are sent deflated (`packed`)."""
SCENES_KEPT = 512
"""(match, language) pairs whose last sent scene is kept for the next diff."""


def web_scene(scene: Scene) -> Scene:
    """The scene less its PNG panel drawing (the page shows the panel's data instead)."""
    items = tuple(item for item in scene.items if item.layer is not Layer.PANEL)
    fixed = sum(1 for item in scene.items[: scene.fixed] if item.layer is not Layer.PANEL)
    return replace(scene, items=items, fixed=fixed)


def scene_payload(scene: Scene) -> dict[str, Any]:
    """A web scene as JSON, its palettes covering the theme's own colours too (the page's highlights)."""
    data = scene_json(scene, themes=())
    data["palettes"] = palettes(scene.tokens() | THEME_TOKENS, scene.game)
    return data


@dataclass(slots=True)
class _Last:
    scene: Scene
    moves: list[tuple[Any, ...]]


class Sent:
    """The last scene and moves sent per match and group of viewers (language and theme): each update is
    a diff from them."""

    def __init__(self, kept: int = SCENES_KEPT) -> None:
        self.kept = kept
        self._last: OrderedDict[tuple[int, Any], _Last] = OrderedDict()

    def __len__(self) -> int:
        return len(self._last)

    def update(
        self, match_id: int, group: Any, scene: Scene, moves: Sequence[dict[str, Any]]
    ) -> dict[str, Any]:
        """The update that brings a page from the last state sent to this one: {"scene": ...} the first
        time, else {"diff": ...}; and "movesFrom" with "moves", the moves from that index on (all of them
        the first time and after a takeback that removed moves the page has)."""
        key = (match_id, group)
        marks = [(m["ply"], m["notation"], m["text"]) for m in moves]
        last = self._last.pop(key, None)
        out: dict[str, Any] = {}
        if last is None or last.scene.game != scene.game:
            out["scene"] = scene_payload(scene)
            start = 0
        else:
            out["diff"] = diff_json(diff(last.scene, scene), known=last.scene.tokens() | THEME_TOKENS)
            start = 0
            for old, new in zip(last.moves, marks, strict=False):
                if old != new:
                    break
                start += 1
        out["movesFrom"] = start
        out["moves"] = list(moves[start:])
        self._last[key] = _Last(scene, marks)
        while len(self._last) > self.kept:
            self._last.popitem(last=False)
        return out

    def forget(self, match_id: int) -> None:
        for key in [k for k in self._last if k[0] == match_id]:
            del self._last[key]


# --------------------------------------------------------------------------------------------- clicks


def _in_notation_order(click: ClickMove, labels: Sequence[str]) -> tuple[tuple[int, ...], bool]:
    """The move's cells, reordered (where their order is free) so that their names in order are its
    notation; and whether they are."""
    names = [labels[c] for c in click.cells]
    if " ".join(names) == click.notation:
        return click.cells, True
    if not click.ordered:
        words = click.notation.split(" ")
        if sorted(words) == sorted(names) and len(set(words)) == len(words):
            place = {word: n for n, word in enumerate(words)}
            return tuple(sorted(click.cells, key=lambda c: place[labels[c]])), True
    return click.cells, False


def compact_clicks(clicks: Iterable[ClickMove], labels: Sequence[str]) -> list[list[Any]]:
    """The legal moves as cells, grouped (module doc): a list of [group, turn, mirrored (0/1), ordered
    (0/1), shape, anchors, notations or nothing], where each anchor (the steps from the previous anchor
    summed, starting from 0) with the shape's offsets added gives a move's cells, and its notation is
    their names joined by spaces unless `notations` lists it (aligned with the anchors)."""
    groups: OrderedDict[tuple[Any, ...], list[tuple[int, str | None]]] = OrderedDict()
    for click in clicks:
        cells, named = _in_notation_order(click, labels)
        shape = tuple(c - cells[0] for c in cells)
        key = (click.group, click.pose[0], int(click.pose[1]), int(click.ordered), shape, named)
        groups.setdefault(key, []).append((cells[0], None if named else click.notation))
    out: list[list[Any]] = []
    for (group, turn, mirrored, ordered, shape, named), moves in groups.items():
        moves.sort(key=lambda m: m[0])
        anchors, previous = [], 0
        for anchor, _ in moves:
            anchors.append(anchor - previous)
            previous = anchor
        entry: list[Any] = [group, turn, mirrored, ordered, list(shape), anchors]
        if not named:
            entry.append([notation for _, notation in moves])
        out.append(entry)
    return out


def expand_clicks(entries: Sequence[Sequence[Any]], labels: Sequence[str]) -> list[ClickMove]:
    """The click moves `compact_clicks` wrote (what the page's script does with them)."""
    out = []
    for entry in entries:
        group, turn, mirrored, ordered, shape, anchors = entry[:6]
        notations = entry[6] if len(entry) > 6 else None
        anchor = 0
        for n, step in enumerate(anchors):
            anchor += step
            cells = tuple(anchor + d for d in shape)
            notation = notations[n] if notations is not None else " ".join(labels[c] for c in cells)
            out.append(ClickMove(notation, cells, bool(ordered), group, (turn, bool(mirrored))))
    return out


def packed(event: dict[str, Any]) -> bytes:
    """An event as the stream sends it (module doc): its JSON, or its deflated JSON in base64 with its ply
    beside it."""
    data = json.dumps(event, separators=(",", ":")).encode()
    if len(data) <= DEFLATE_OVER:
        return data
    squeeze = zlib.compressobj(6, zlib.DEFLATED, -15)
    raw = squeeze.compress(data) + squeeze.flush()
    wrapped = {"ply": event.get("ply"), "deflated": base64.b64encode(raw).decode("ascii")}
    return json.dumps(wrapped, separators=(",", ":")).encode()


def unpacked(data: bytes) -> dict[str, Any]:
    """The event `packed` made of it (what the page does)."""
    event: dict[str, Any] = json.loads(data)
    if "deflated" in event:
        event = json.loads(zlib.decompress(base64.b64decode(event["deflated"]), -15))
    return event
