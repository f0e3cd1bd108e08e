"""Boards drawn from the last board of the same match: only what changed is drawn and mapped to the palette.

A match's next board differs from its last in a few cells, the header and the panel. `Boards` remembers,
per key (a match), the last board's inputs and its palette indices; the next board of that key is drawn by
the game's drawer's `redraw`, which repaints only the regions that differ, on a scratch RGB image, and says
which boxes it repainted. Only those boxes are mapped to the palette and pasted into the remembered indices.
The PNG is byte for byte the one a full draw gives (tests/renderer/test_incremental.py plays random games
and compares after every move, through theme and language changes, takebacks and cache misses).

What `redraw(img, before, after)` promises (a drawer without it is always drawn in full): `before` is the
board whose pixels the caller holds, `after` the board wanted; it repaints, on `img`, every pixel whose
colour may differ between the two full draws, from nothing (never reading what `img` held there before: the
scratch image is shared by every match), and returns the boxes that hold them; or None where it cannot
(then the board is drawn in full). Theme, size, language and fonts are the same on both sides (checked here).

Pure and blocking, like the rest of the renderer; one `Boards` per board process (not shared by threads).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from PIL import Image

from games.base import Outcome
from games.texts import Translations
from renderer import _check_size, drawer, fonts, png
from renderer import text as wording
from renderer.canvas import Box, page, palette_bytes, palette_image, png_bytes
from renderer.theme import Theme, get_theme

LIMIT_BYTES = 80 * 2**20
"""What `Boards` keeps at most: a board's palette indices are one byte a pixel (600 KB at 960 pixels wide),
so about 130 matches' last boards."""


@dataclass(frozen=True, slots=True)
class Board:
    """What a board is drawn from (the drawer's `draw` arguments)."""

    state: Any
    last_move: str | None
    players: tuple[str, ...] | None
    outcome: Outcome | None
    theme: Theme
    size: int


class Redraw(Protocol):
    """A drawer's `redraw` (see the module doc)."""

    def __call__(self, img: Image.Image, before: Board, after: Board) -> Sequence[Box] | None: ...


@dataclass(slots=True)
class _Last:
    """A key's last board: its game, inputs, language, fonts and palette indices (an `Image.im` core)."""

    game_id: str
    board: Board
    language: Hashable
    chain: fonts.FontChain
    indices: Any


class Boards:
    """The last board drawn per key, bounded in bytes (least recently used go first); see the module doc."""

    def __init__(self, limit_bytes: int = LIMIT_BYTES) -> None:
        self.limit_bytes = limit_bytes
        self.size = 0
        self._last: OrderedDict[Hashable, _Last] = OrderedDict()
        self._scratch: dict[int, Image.Image] = {}
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
    ) -> bytes:
        """The PNG `renderer.render` gives for these arguments, drawn from `key`'s last board where the
        game's drawer can."""
        chosen = get_theme(theme)
        size = _check_size(size)
        board = Board(
            state, last_move, tuple(players) if players is not None else None, outcome, chosen, size
        )
        module: Any = drawer(game_id)
        last = self._last.pop(key, None)  # out while it is changed: an error leaves nothing half-drawn
        if last is not None:
            self.size -= _bytes(last.indices)
        with wording.using(translations):
            language, chain = wording.language(), fonts.chain()
            boxes = None
            redraw: Redraw | None = getattr(module, "redraw", None)
            if (
                last is not None
                and redraw is not None
                and last.game_id == game_id
                and last.language == language
                and last.chain == chain
                and last.board.theme == chosen
                and last.board.size == size
            ):
                boxes = redraw(self._canvas(size, chosen), last.board, board)
            holder = palette_image(chosen, game_id).im
            if last is not None and boxes is not None:
                scratch = self._scratch[size].im
                indices = last.indices
                for box in boxes:
                    indices.paste(scratch.crop(box).convert("P", 0, holder), box)
                self.redrawn += 1
            else:
                image = module.draw(
                    state, last_move=last_move, players=players, theme=chosen, size=size, outcome=outcome
                )
                if image.mode != "RGB":  # a drawer of another mode: encoded as `renderer.render` does
                    return png_bytes(image, chosen, game_id)
                image.load()
                indices = image.im.convert("P", 0, holder)
        self._keep(key, _Last(game_id, board, language, chain, indices))
        return png.encode_indices(indices, palette_bytes(chosen, game_id))

    def _canvas(self, size: int, theme: Theme) -> Image.Image:
        """The scratch RGB image boards of `size` are redrawn on (its old pixels are never read)."""
        scratch = self._scratch.get(size)
        if scratch is None:
            pg = page(size)
            scratch = self._scratch[size] = Image.new("RGB", (pg.width, pg.height), theme.background)
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
