"""The page's SVG, rasterised by Chromium, agrees with the PNG Discord gets of the same position, for every
game and board kind, in the light, dark and colour-blind themes.

Tolerance, stated: both pictures of the board's part (the page shows the header and the side panel as HTML)
are blurred with a 3x3 box blur, and at most `TOLERANCE` of the pixels may differ by more than `CHANNEL`
in any colour channel; texts are included (Chromium's and FreeType's antialiasing of the same font differ
at glyph edges, which is most of what differs). A picture that differs anywhere by more than `CHANNEL` over
a `BLOB` pixels wide square is a missing or misplaced item, and fails whatever the share."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageFilter

import games
import renderer
from games.base import clickable_moves
from tests.web.conftest import SCREENSHOTS, Site
from tests.web.pages import DRAWN, start

CHANNEL = 48
"""A pixel differs when a channel differs by more than this (of 255), after the blur."""
TOLERANCE = 0.03
"""The share of the board's pixels that may differ."""
BLOB = 12
"""No square of this many pixels a side may differ everywhere."""

POSITIONS: list[tuple[str, dict[str, Any], int]] = [
    ("paint", {}, 14),
    ("paintscape", {}, 12),
    ("tilingking", {"board": "sq9"}, 6),
    ("tilingking", {"board": "hex5"}, 6),
    ("tilingking", {"board": "tri5b"}, 6),
    *[(game, {}, 9) for game in games.GAME_IDS if game not in ("paint", "paintscape", "tilingking")],
]
"""Each built-in game (TilingKing on each tiling), and every other registered game (a plugin) after nine
moves."""


async def _position(
    site: Site, game: str, options: dict[str, Any], plies: int, channel: int
) -> tuple[int, str]:
    """A match of `game` after `plies` moves (random legal ones, the same every run)."""
    match_id, path = await start(site, game, options, channel=channel)
    rules = games.get(game)
    rng = random.Random(plies)
    for _ in range(plies):
        match = await site.service.matches.get(match_id)
        if not match.is_active:
            break
        clicks = clickable_moves(rules, match.state)
        move = rng.choice(clicks).notation if clicks else rules.word_moves(match.state)[0].notation
        await site.service.matches.play(match_id, match.seats[match.to_move].user_id, move)
    return match_id, path


def difference(png: Image.Image, svg: Image.Image) -> tuple[float, int]:
    """(the share of pixels that differ, the side of the largest square that differs everywhere)."""
    a = png.convert("RGB").filter(ImageFilter.BoxBlur(1))
    b = svg.convert("RGB").filter(ImageFilter.BoxBlur(1))
    channels = ImageChops.difference(a, b).split()
    worst = ImageChops.lighter(ImageChops.lighter(channels[0], channels[1]), channels[2])
    mask = worst.point(lambda v: 255 if v > CHANNEL else 0)
    share = mask.histogram()[255] / (mask.width * mask.height)
    # the largest square of differing pixels: erode the mask until nothing is left
    side, shrunk = 0, mask
    while shrunk.getbbox() is not None and side < BLOB * 4:
        shrunk = shrunk.filter(ImageFilter.MinFilter(3))
        side += 2
    return share, side


@pytest.mark.parametrize("theme", ["default", "dark", "colorblind"])
async def test_the_svg_agrees_with_the_png(site: Site, browser: Any, theme: str) -> None:
    ctx = await browser.new_context(bypass_csp=True, viewport={"width": 1400, "height": 1000})
    page = await ctx.new_page()
    await page.add_init_script(f"localStorage.setItem('tessera.theme', '{theme}')")
    worst: list[str] = []
    for channel, (game, options, plies) in enumerate(POSITIONS, start=1):
        if game not in games.GAME_IDS:
            continue
        match_id, path = await _position(site, game, options, plies, channel)
        await page.goto(site.base + path)
        await page.wait_for_selector(DRAWN)
        x, y, w, h = (float(v) for v in (await page.get_attribute("#board-svg", "viewBox") or "").split())
        # the board's own SVG, one unit a pixel, on whole pixels at the page's corner
        await page.evaluate(
            f"() => {{ const s = document.getElementById('board-svg'); Object.assign(s.style, {{"
            f" position: 'fixed', left: '0px', top: '0px', width: '{w}px', height: '{h}px',"
            f" maxHeight: 'none', zIndex: '10' }}); }}"
        )
        clip = {"x": 0, "y": 0, "width": w, "height": h}
        shot = Image.open(io.BytesIO(await page.screenshot(clip=clip)))
        match = await site.service.matches.get(match_id)
        names = [seat["name"] for seat in (await page.evaluate("window.tessera.scene()"))["panel"]["players"]]
        log = await site.service.matches.log(match_id)
        png = renderer.render_image(
            game,
            match.state,
            last_move=log[-1].notation if log else None,
            players=names,
            theme=theme,
            size=960,
            outcome=match.outcome,
        )
        board = png.crop((round(x), round(y), round(x + w), round(y + h)))
        assert shot.size == board.size, (game, shot.size, board.size)
        share, blob = difference(board, shot)
        name = f"{game}-{options.get('board', '')}-{theme}"
        worst.append(f"{name}: {share:.2%} differ, largest square {blob}px")
        sheet = Image.new("RGB", (board.width * 2, board.height))
        sheet.paste(board, (0, 0))
        sheet.paste(shot.convert("RGB"), (board.width, 0))
        sheet.save(SCREENSHOTS / f"pixels-{name}.png")
        assert share <= TOLERANCE and blob < BLOB, worst[-1]
    print("\n".join(worst))
    await ctx.close()
