"""A turning point of a post-game analysis as one image: two boards side by side, the position after the
move played (left) and after the move the AI prefers (right), each marked by the drawer's own last-move
highlight and captioned with the move and the mover's estimated win chance. Its texts are in the language of
the `translations` argument, like the other drawings (None: English)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

import games
from games.ai.analysis import percent
from games.texts import Translations
from renderer import DEFAULT_SIZE, MIN_SIZE, render_image
from renderer import text as wording
from renderer.canvas import draw_text, fit_text, png_bytes, seat_names
from renderer.theme import Theme, get_theme

CAPTION_SHARE = 0.06
"""The caption strip's height as a share of one board's width."""
GAP_SHARE = 0.02
"""The gap between the two boards, as a share of one board's width."""


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
    """The PNG (`size` pixels wide in all) of the position `before` a turning point, played both ways:
    `played` on the left and `preferred` on the right, with the mover's win chance after each
    (`chances` = (after the preferred move, after the played move)); its texts in the language of
    `translations`."""
    with wording.using(translations):
        return _turning_point(game_id, before, played, preferred, chances, players, get_theme(theme), size)


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
    half = max(MIN_SIZE, round(size / (2 + GAP_SHARE)))
    gap = round(half * GAP_SHARE)
    strip = round(half * CAPTION_SHARE)
    boards = [
        render_image(
            game_id,
            rules.apply(before, rules.parse(before, move)),
            last_move=move,
            players=players,
            theme=chosen,
            size=half,
        )
        for move in (played, preferred)
    ]
    best, after = chances
    mover = rules.to_move(before)
    assert mover is not None, "a turning point is a position where someone moved"
    name = seat_names(rules, before, players, mover + 1)[mover]
    captions = [
        wording.text("analysis.played", name=name, move=played, chance=percent(after)),
        wording.text("analysis.preferred", move=preferred, chance=percent(best)),
    ]
    height = strip + max(board.height for board in boards)
    img = Image.new("RGB", (2 * half + gap, height), chosen.background)
    px = max(12, round(strip * 0.55))
    for index, (board, caption) in enumerate(zip(boards, captions, strict=True)):
        left = index * (half + gap)
        img.paste(board, (left, strip))
        draw_text(img, left + half / 2, strip / 2, fit_text(caption, px, half * 0.95), px, chosen.ink, "mm")
    return png_bytes(img, chosen)


def alt_text(
    played: str, preferred: str, chances: tuple[float, float], *, translations: Translations | None = None
) -> str:
    """The turning point image in words, for screen readers, in the language of `translations`."""
    best, after = chances
    with wording.using(translations):
        return wording.text(
            "analysis.alt", played=played, after=percent(after), preferred=preferred, before=percent(best)
        )
