"""A turning point of a post-game analysis as one image: the position after the move played (above) and
after the move the AI prefers (below), each a whole board at the size of any other board (readable on a
phone: Discord shows an image as wide as the screen), marked by the drawer's own last-move highlight and
under a caption with the move and the mover's estimated win chance (wrapped, never cut). Its texts are in
the language of the `translations` argument, like the other drawings (None: English)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

import games
from games.ai.analysis import percent
from games.texts import Translations
from renderer import DEFAULT_SIZE, MIN_SIZE, render_image
from renderer import text as wording
from renderer.canvas import draw_text, line_pitch, png_bytes, seat_names, wrap_text
from renderer.theme import Theme, get_theme

CAPTION_PX = 26
"""The captions' text size at the base width (a board's header uses 18-24)."""
GAP_SHARE = 0.02
"""The space between the first board and the second caption, as a share of the width."""


def turning_point(
    game_id: str,
    before: Any,
    played: str,
    preferred: str,
    *,
    chances: tuple[float, float],
    players: Sequence[str] | None = None,
    theme: str | Theme = "default",
    size: int = DEFAULT_SIZE,
    translations: Translations | None = None,
) -> bytes:
    """The PNG (`size` pixels wide, each board as big as `render` draws it at that size) of the position
    `before` a turning point, played both ways: `played` above and `preferred` below, each under its
    caption with the mover's win chance after it (`chances` = (after the preferred move, after the played
    move)); its texts in the language of `translations`."""
    with wording.using(translations):
        return _turning_point(game_id, before, played, preferred, chances, players, get_theme(theme), size)


def captions(
    game_id: str,
    before: Any,
    played: str,
    preferred: str,
    chances: tuple[float, float],
    players: Sequence[str] | None,
) -> list[str]:
    """The two captions, in the current language: who played what and their chance, then the better move."""
    rules = games.get(game_id)
    best, after = chances
    mover = rules.to_move(before)
    assert mover is not None, "a turning point is a position where someone moved"
    name = seat_names(rules, before, players, mover + 1)[mover]
    return [
        wording.text("analysis.played", name=name, move=played, chance=percent(after)),
        wording.text("analysis.preferred", move=preferred, chance=percent(best)),
    ]


def _turning_point(
    game_id: str,
    before: Any,
    played: str,
    preferred: str,
    chances: tuple[float, float],
    players: Sequence[str] | None,
    chosen: Theme,
    size: int,
) -> bytes:
    rules = games.get(game_id)
    width = max(MIN_SIZE, size)
    boards = [
        render_image(
            game_id,
            rules.apply(before, rules.parse(before, move)),
            last_move=move,
            players=players,
            theme=chosen,
            size=width,
        )
        for move in (played, preferred)
    ]
    k = width / DEFAULT_SIZE
    px = max(12, round(CAPTION_PX * k))
    pitch = line_pitch(px)
    margin = round(12 * k)
    wrapped = [
        wrap_text(caption, px, width - 2 * margin)
        for caption in captions(game_id, before, played, preferred, chances, players)
    ]
    strips = [2 * margin + len(lines) * pitch for lines in wrapped]
    gap = round(width * GAP_SHARE)
    height = sum(strips) + sum(board.height for board in boards) + gap
    img = Image.new("RGB", (width, height), chosen.background)
    top = 0
    for index, (board, lines, strip) in enumerate(zip(boards, wrapped, strips, strict=True)):
        if index:
            top += gap
        for n, line in enumerate(lines):
            draw_text(img, width / 2, top + margin + n * pitch + pitch / 2, line, px, chosen.ink, "mm")
        top += strip
        img.paste(board, (0, top))
        top += board.height
    return png_bytes(img, chosen, game_id)


def alt_text(
    played: str, preferred: str, chances: tuple[float, float], *, translations: Translations | None = None
) -> str:
    """The turning point image in words, for screen readers, in the language of `translations`."""
    best, after = chances
    with wording.using(translations):
        return wording.text(
            "analysis.alt", played=played, after=percent(after), preferred=preferred, before=percent(best)
        )
