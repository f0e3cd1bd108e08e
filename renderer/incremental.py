"""Boards drawn from the last board of the same match: only what changed is painted and mapped to the palette.

A match's next board differs from its last in a few cells, the header and the panel. `Boards` remembers,
per key (a match), the last board's scene (`renderer.scene`) and its palette indices; the next board of
that key is diffed against it, item by item, and the painter (`renderer.painter.repaint`) paints, on a
scratch RGB image, only the boxes of the items that changed (with the kept fixed items under them and
every item that reaches into them, in paint order), and the header when the panel changed. Only those
boxes are mapped to the palette and pasted into the remembered indices. The PNG is byte for byte the one a
full draw gives (tests/renderer/test_incremental.py plays random games and compares after every move,
through theme and language changes, takebacks and cache misses). Nothing of this is per game: every
drawer builds a scene.

Pure and blocking, like the rest of the renderer; one `Boards` per board process (not shared by threads).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from games.base import Outcome
from games.texts import Translations
from renderer import _check_size, board_scene, fonts, painter, png
from renderer import text as wording
from renderer.canvas import palette_bytes, palette_image
from renderer.scene import Scene
from renderer.theme import Theme, get_theme

LIMIT_BYTES = 80 * 2**20
"""What `Boards` keeps at most: a board's palette indices are one byte a pixel (600 KB at 960 pixels wide),
so about 130 matches' last boards."""


@dataclass(slots=True)
class _Last:
    """A key's last board: its scene, theme, language, fonts and palette indices (an `Image.im` core)."""

    scene: Scene
    theme: Theme
    language: Hashable
    chain: fonts.FontChain
    indices: Any


class Boards:
    """The last board drawn per key, bounded in bytes (least recently used go first); see the module doc."""

    def __init__(self, limit_bytes: int = LIMIT_BYTES) -> None:
        self.limit_bytes = limit_bytes
        self.size = 0
        self._last: OrderedDict[Hashable, _Last] = OrderedDict()
        self._scratch: dict[tuple[int, int], Image.Image] = {}
        self.redrawn = 0
        """Boards drawn from their key's last board (the rest were drawn in full)."""

    def __len__(self) -> int:
        return len(self._last)

    def clear(self) -> None:
        self._last.clear()
        self.size = 0

    def render(
        self,
        key: Hashable,
        game_id: str,
        state: Any,
        *,
        last_move: str | None = None,
        players: Sequence[str] | None = None,
        theme: str | Theme = "default",
        size: int,
        outcome: Outcome | None = None,
        translations: Translations | None = None,
        clocks: Sequence[float] | None = None,
    ) -> bytes:
        """The PNG `renderer.render` gives for these arguments, drawn from `key`'s last board where the
        game's drawer can."""
        chosen = get_theme(theme)
        size = _check_size(size)
        last = self._last.pop(key, None)  # out while it is changed: an error leaves nothing half-drawn
        if last is not None:
            self.size -= _bytes(last.indices)
        with wording.using(translations):
            language, chain = wording.language(), fonts.chain()
            built = board_scene(
                game_id,
                state,
                last_move=last_move,
                players=players,
                size=size,
                outcome=outcome,
                clocks=clocks,
            )
            boxes = None
            if (
                last is not None
                and last.language == language
                and last.chain == chain
                and last.theme == chosen
            ):
                boxes = painter.repaint(self._canvas(built.width, built.height), last.scene, built, chosen)
            holder = palette_image(chosen, game_id).im
            if last is not None and boxes is not None:
                scratch = self._scratch[(built.width, built.height)].im
                indices = last.indices
                for box in boxes:
                    indices.paste(scratch.crop(box).convert("P", 0, holder), box)
                self.redrawn += 1
            else:
                image = painter.paint(built, chosen)
                image.load()
                indices = image.im.convert("P", 0, holder)
        self._keep(key, _Last(built, chosen, language, chain, indices))
        return png.encode_indices(indices, palette_bytes(chosen, game_id))

    def _canvas(self, width: int, height: int) -> Image.Image:
        """The scratch RGB image boards of this size are redrawn on (its old pixels are never read)."""
        scratch = self._scratch.get((width, height))
        if scratch is None:
            scratch = self._scratch[(width, height)] = Image.new("RGB", (width, height))
        return scratch

    def _keep(self, key: Hashable, last: _Last) -> None:
        held = _bytes(last.indices)
        if held > self.limit_bytes:
            return
        self._last[key] = last
        self.size += held
        while self.size > self.limit_bytes:
            _, dropped = self._last.popitem(last=False)
            self.size -= _bytes(dropped.indices)


def _bytes(indices: Any) -> int:
    width, height = indices.size
    return int(width * height)
