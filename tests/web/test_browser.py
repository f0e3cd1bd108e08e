"""Whole flows in a real browser: two players log in through (fake) Discord and play each game by clicking,
while a third browser spectates and sees every board within a second; the service (the same one the
Discord application uses) holds the moves; keyboard-only play; a phone-sized viewport. Screenshots go to
/tmp/tessera-web/."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from typing import Any

import aiohttp
from PIL import Image, ImageChops

import games
from bot.web.security import match_token
from games.base import ClickMove, clickable_moves
from renderer import canvas
from tests.web.conftest import SCREENSHOTS, Site

ALICE, BOB, CAROL = 101, 202, 303
LIVE_MS = 1000
"""A spectator's board must change within this many milliseconds of a move."""


async def _start(
    site: Site, game: str, options: dict[str, Any] | None = None, *, channel: int = 1
) -> tuple[int, str]:
    rules = games.get(game)
    from games.base import resolve_options

    match = await site.service.matches.start(
        game,
        resolve_options(rules.options, options or {}),
        [(ALICE, None), (BOB, None)],
        seed=7,
        rated=False,
        turn_timeout=86400,
        guild_id=None,
        channel_id=channel,
    )
    return match.id, f"/m/{match_token(site.board.secret, match.id)}"


async def _login(site: Site, browser: Any, user: int, path: str, **context: Any) -> Any:
    """A browser context logged in as `user` through the OAuth2 flow, on the match page."""
    ctx = await browser.new_context(bypass_csp=True, **context)  # lets the test evaluate its checks
    page = await ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    site.discord.next_user = user
    await page.goto(f"{site.base}/login?next={path}")
    await page.wait_for_url(f"{site.base}{path}")
    await page.wait_for_selector("polygon.cell")
    return page


async def _spectator(site: Site, browser: Any, path: str) -> Any:
    ctx = await browser.new_context(bypass_csp=True)
    page = await ctx.new_page()
    await page.goto(site.base + path)
    await page.wait_for_selector("polygon.cell")
    return page


async def _wait_ply(page: Any, ply: int) -> None:
    await page.wait_for_function(
        f"window.tessera.state() && window.tessera.state().ply === {ply}", timeout=LIVE_MS * 3
    )


async def _photo(page: Any, name: str) -> None:
    """A screenshot of the page, or of the page holding it when `page` is a frame (the Activity's tests)."""
    holder = page if hasattr(page, "screenshot") else page.page
    await holder.screenshot(path=str(SCREENSHOTS / name))


async def _click_play(page: Any, click: ClickMove) -> None:
    """Play `click` as a player does: cell after cell, or pick the piece, turn it, point and place it."""
    await page.wait_for_function("window.tessera.state().clicks.length > 0")
    if not click.group:
        for k, cell in enumerate(click.cells):
            await page.click(f"polygon[data-i='{cell}']")
            if k == 0 and len(click.cells) > 1:  # the first cell chosen: the next cells are highlighted
                assert await page.evaluate("window.tessera.selected()") == [cell]
                targets = await page.eval_on_selector_all("polygon.target", "ps => ps.map(p => +p.dataset.i)")
                assert click.cells[1] in targets
                await _photo(page, "selected.png")
        return
    await page.click(f"button[data-piece='{click.group}']")
    turn, mirrored = click.pose
    if (await page.evaluate("window.tessera.pose()"))[1] != mirrored:
        await page.click("text=Reflect")
    for _ in range(12):
        if await page.evaluate("window.tessera.pose()") == [turn, mirrored]:
            break
        await page.click("text=Rotate")
    anchor = min(click.cells)
    await page.hover(f"polygon[data-i='{anchor}']")
    ghost = await page.eval_on_selector_all("polygon.ghost", "ps => ps.map(p => Number(p.dataset.i))")
    assert sorted(ghost) == sorted(click.cells), "the ghost piece shows where the piece would go"
    await _photo(page, "ghost.png")
    await page.click(f"polygon[data-i='{anchor}']")


Choose = Callable[[Any, Any, list[ClickMove], random.Random], ClickMove]


def _any_click(rules: Any, state: Any, clicks: list[ClickMove], rng: random.Random) -> ClickMove:
    return rng.choice(clicks)


def _paintscape_collector(rules: Any, state: Any, clicks: list[ClickMove], rng: random.Random) -> ClickMove:
    """A player who heads for the end (RULES.md 1.5, 1.7): collect a colour when a placement can, else put
    the stone where the mover has most stones on one colour already (the 6th collects it); swaps at random.
    Chosen among the moves the page offers (the state's click moves)."""
    if state.phase != "play":
        return rng.choice(clicks)
    black = state.black_seat == rules.to_move(state)

    def value(click: ClickMove) -> tuple[int, int, float]:
        after = rules.apply(state, rules.parse(state, click.notation))
        mine = after.black if black else after.white
        collected = after.collected.count(0 if black else 1)
        most = max(bin(mine & tiles).count("1") for tiles in after.tiles) if any(after.tiles) else 0
        return collected, most, rng.random()

    return max(clicks, key=value)


async def _play_game(
    site: Site,
    browser: Any,
    game: str,
    moves: int,
    options: dict[str, Any] | None = None,
    *,
    resigns: bool,
    choose: Choose = _any_click,
) -> None:
    """Play up to `moves` moves by clicking (both players in their own browsers, a third one watching), each
    chosen by `choose` among the clicks the position offers, then resign if the game has not ended by itself
    (`resigns` says which is expected)."""
    match_id, path = await _start(site, game, options)
    pages = {ALICE: await _login(site, browser, ALICE, path), BOB: await _login(site, browser, BOB, path)}
    watcher = await _spectator(site, browser, path)
    rules = games.get(game)
    rng = random.Random(3)
    for _ in range(moves):
        match = await site.service.matches.get(match_id)
        if not match.is_active:
            break
        page = pages[match.seats[match.to_move].user_id]
        await _wait_ply(page, match.ply)
        clicks = clickable_moves(rules, match.state)
        words = rules.word_moves(match.state)
        if clicks:
            await _click_play(page, choose(rules, match.state, clicks, rng))
        else:
            label = rules.word_moves(match.state)[0].label
            assert words, "a position with neither clicks nor words"
            await page.click(f"#words button:has-text('{label}')")
        after = await site.service.matches.get(match_id)
        for _ in range(200):
            if after.ply > match.ply:
                break
            await page.wait_for_timeout(50)
            after = await site.service.matches.get(match_id)
        if after.ply == match.ply:
            await page.screenshot(path=str(SCREENSHOTS / f"{game}-stuck.png"))
        assert after.ply > match.ply, f"the click did not play a move ({await page.inner_text('#error')})"
        await _wait_ply(watcher, after.ply)  # the spectator's board, live
        assert await watcher.inner_text("#status") == (await page.evaluate("window.tessera.state().status"))
    await pages[ALICE].screenshot(path=str(SCREENSHOTS / f"{game}-alice.png"))
    logged = await site.service.matches.moves(match_id)
    shown = await watcher.eval_on_selector_all("#moves li", "lis => lis.length")
    assert shown == len(logged) > 0  # the spectator lists the moves the service stored
    final = await site.service.matches.get(match_id)
    if final.is_active:  # too long to play out here: resign, confirming in the dialog
        page = pages[ALICE]
        await page.click("#actions button:has-text('Resign')")
        await page.click("#confirm-yes")
        for _ in range(100):
            if not final.is_active:
                break
            await page.wait_for_timeout(50)
            final = await site.service.matches.get(match_id)
    assert not final.is_active and final.outcome is not None
    assert (final.outcome.termination.value == "resignation") == resigns
    await watcher.wait_for_selector("#replay:not([hidden])", timeout=LIVE_MS * 3)
    await watcher.wait_for_function(f"window.tessera.state().ply === {final.ply}")
    for page in (pages[ALICE], pages[BOB], watcher):  # everyone sees the result, as in the image's header
        await page.wait_for_function("!window.tessera.state().active")
    await watcher.screenshot(path=str(SCREENSHOTS / f"{game}-finished.png"))
    assert pages[ALICE].errors == [] and pages[BOB].errors == []


async def test_paint_by_clicks_with_a_spectator(site: Site, browser: Any) -> None:
    await _play_game(site, browser, "paint", 12, {"move_cap": 10}, resigns=False)  # a whole match


async def test_paintscape_swaps_choice_and_placements(site: Site, browser: Any) -> None:
    """The balancing (swaps, then the choice of colour in words), then placements to the natural end: a
    player collects three colours."""
    await _play_game(site, browser, "paintscape", 200, resigns=False, choose=_paintscape_collector)


async def test_tilingking_pick_turn_and_place(site: Site, browser: Any) -> None:
    await _play_game(site, browser, "tilingking", 14, {"board": "sq9", "size": 4}, resigns=False)  # whole


async def test_replay_viewer_steps_through_a_finished_match(site: Site, browser: Any) -> None:
    match_id, path = await _start(site, "paint")
    rules = games.get("paint")
    for user in (ALICE, BOB, ALICE):
        match = await site.service.matches.get(match_id)
        await site.service.matches.play(match_id, user, clickable_moves(rules, match.state)[0].notation)
    await site.service.matches.resign(match_id, BOB)
    page = await _spectator(site, browser, path)
    assert await page.get_attribute("#r-slider", "max") == "3"
    await page.click("#r-first")
    assert "/board/0.png" in (await page.get_attribute("#img", "href") or "")
    await page.click("#r-next")
    assert "/board/1.png" in (await page.get_attribute("#img", "href") or "")
    await page.click("#r-play")
    await page.wait_for_function(
        "document.getElementById('img').getAttribute('href').includes('/board/3.png')"
    )
    image = await page.request.get(site.base + (await page.get_attribute("#img", "href")))
    assert image.ok and image.headers["content-type"] == "image/png"


async def test_keyboard_only_play(site: Site, browser: Any) -> None:
    """Arrow keys walk the cells, Enter clicks: a Paint move without the mouse. The key help offers no
    R and F, which turn pieces: Paint has none."""
    match_id, path = await _start(site, "paint")
    page = await _login(site, browser, ALICE, path)
    await page.wait_for_function("window.tessera.state().clicks.length > 0")
    help_text = await page.inner_text("#keys")
    assert help_text == "Arrow keys move between cells, Enter or Space clicks, Escape clears."
    match = await site.service.matches.get(match_id)
    click = clickable_moves(games.get("paint"), match.state)[0]
    await page.focus("#overlay")
    at = 0  # focus starts on a1
    for cell in click.cells:
        x0, y0, x1, y1 = at % 9, at // 9, cell % 9, cell // 9
        for _ in range(abs(x1 - x0)):
            await page.keyboard.press("ArrowRight" if x1 > x0 else "ArrowLeft")
        for _ in range(abs(y1 - y0)):
            await page.keyboard.press("ArrowUp" if y1 > y0 else "ArrowDown")
        assert await page.inner_text("#focusname") != ""
        await page.keyboard.press("Enter")
        at = cell
    await _wait_ply(page, 1)
    assert (await site.service.matches.moves(match_id))[0].notation == click.notation


async def test_phone_viewport(site: Site, browser: Any) -> None:
    _, path = await _start(site, "tilingking", {"board": "hex5"})
    page = await _login(
        site, browser, ALICE, path, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "nothing sticks out sideways on a phone"
    cell = await page.eval_on_selector("polygon[data-i='0']", "p => p.getBoundingClientRect().width")
    assert cell >= 24, f"a cell is {cell:.0f} px wide: too small to tap (the phone view crops to the board)"
    before = await page.get_attribute("#img", "href")
    await page.click("button[data-piece='I3']")
    await page.tap("polygon[data-i='30']")
    await _wait_ply(page, 1)
    # the board image follows the move (its address changes once the page has drawn the new state)
    changed = "b => document.getElementById('img').getAttribute('href') !== b"
    await page.wait_for_function(changed, arg=before)
    await page.wait_for_load_state("networkidle")  # the new image drawn before the picture is taken
    await page.screenshot(path=str(SCREENSHOTS / "phone-tilingking.png"), full_page=True)


async def test_the_phone_view_keeps_the_boards_coordinates(site: Site, browser: Any) -> None:
    """The phone view crops the image to the board: the row letters and numbers drawn beside the cells (hex
    and triangle rows on both sides, square ranks on the left and files below) stay inside it. Checked on the
    PNG the page shows: every pixel of the board area that is not background lies in the view."""
    ctx = await browser.new_context(
        bypass_csp=True, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = await ctx.new_page()
    header = canvas.page(960).header[3]
    boards = (
        ("tilingking", {"board": "hex5"}),
        ("tilingking", {"board": "tri4"}),
        ("tilingking", {"board": "sq13bi"}),
        ("paint", {}),
    )
    for channel, (game, options) in enumerate(boards, start=1):
        _, path = await _start(site, game, options, channel=channel)
        await page.goto(site.base + path)
        await page.wait_for_selector("polygon.cell")
        x, y, w, h = (float(v) for v in (await page.get_attribute("#overlay", "viewBox") or "").split())
        async with aiohttp.ClientSession() as http, http.get(site.base + await _image_href(page)) as answer:
            image = Image.open(io.BytesIO(await answer.read())).convert("RGB")
        paper = image.getpixel((2, image.height - 2))
        board_right = next(i for i in range(image.width) if image.getpixel((i, image.height - 2)) != paper)
        area = image.crop((0, header + 2, board_right, image.height))  # the board's part of the image
        background = Image.new("RGB", area.size, paper)
        left, top, right, bottom = ImageChops.difference(area, background).getbbox() or (0, 0, 0, 0)
        top, bottom = top + header + 2, bottom + header + 2
        seen = (game, options, (left, top, right, bottom), (x, y, w, h))
        assert x <= left and right <= x + w and y <= top and bottom <= y + h, seen
        assert y >= header and x + w <= board_right, "neither the header nor the side panel shows"
        await page.screenshot(path=str(SCREENSHOTS / f"phone-{game}-{options.get('board', '')}.png"))
    await ctx.close()


async def _image_href(page: Any) -> str:
    href = await page.get_attribute("#img", "href")
    assert href is not None
    return str(href)


async def test_spectators_cannot_move_and_wrong_links_are_404(site: Site, browser: Any) -> None:
    match_id, path = await _start(site, "paint")
    page = await _spectator(site, browser, path)
    assert await page.evaluate("window.tessera.state().clicks.length") == 0
    answer = await page.request.post(
        f"{site.base}/api/m/{path.split('/')[-1]}/move", data={"move": "b1-b2", "ply": 0}
    )
    assert answer.status == 401
    assert (await page.request.get(f"{site.base}/m/{match_id}-AAAAAAAAAAAAAAAAAAAAAA")).status == 404
    assert (await page.request.get(f"{site.base}/api/m/{match_id}")).status == 404
    bob = await _login(
        site, browser, BOB, path
    )  # seated, but not to move: no clicks; a forged POST is refused
    assert await bob.evaluate("window.tessera.state().clicks.length") == 0
    no_csrf = await bob.request.post(
        f"{site.base}/api/m/{path.split('/')[-1]}/move", data={"move": "b1-b2", "ply": 0}
    )
    assert no_csrf.status == 403
    csp = (await bob.request.get(site.base + path)).headers["content-security-policy"]
    assert "frame-ancestors" in csp and "discord.com" in csp
    assert "shh-client-secret" not in await bob.content()


async def test_keyboard_only_tilingking(site: Site, browser: Any) -> None:
    """A piece picked with Enter on its button, turned with R, walked with the arrow keys and placed with
    Enter: no mouse at all."""
    match_id, path = await _start(site, "tilingking", {"board": "sq9"})
    page = await _login(site, browser, ALICE, path)
    await page.wait_for_function("window.tessera.state().clicks.length > 0")
    assert "R rotates, F reflects" in await page.inner_text("#keys")
    await page.focus("button[data-piece='L4']")
    await page.keyboard.press("Enter")
    await page.focus("#overlay")
    await page.keyboard.press("r")
    for key in ("ArrowRight", "ArrowRight", "ArrowUp", "ArrowUp"):
        await page.keyboard.press(key)
    ghost = await page.eval_on_selector_all("polygon.ghost", "ps => ps.map(p => +p.dataset.i)")
    assert len(ghost) == 4, "the L piece is shown where Enter would place it"
    await page.keyboard.press("Enter")
    await _wait_ply(page, 1)
    match = await site.service.matches.get(match_id)
    assert sorted(match.state.placed[0].cells) == sorted(ghost)


async def test_the_page_works_where_storage_is_denied(site: Site, browser: Any) -> None:
    """A third-party frame or a strict browser may throw on any use of localStorage: the page still shows
    the board, plays, and changes its theme (kept for the page's lifetime)."""
    match_id, path = await _start(site, "paint")
    ctx = await browser.new_context(bypass_csp=True)
    await ctx.add_init_script(
        "Object.defineProperty(window, 'localStorage', "
        "{get() { throw new DOMException('denied', 'SecurityError'); }});"
    )
    page = await ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    site.discord.next_user = ALICE
    await page.goto(f"{site.base}/login?next={path}")
    await page.wait_for_selector("polygon.cell")
    match = await site.service.matches.get(match_id)
    await _click_play(page, clickable_moves(games.get("paint"), match.state)[0])
    await _wait_ply(page, 1)
    await page.select_option("#theme", "colorblind")
    await page.wait_for_function("window.tessera.state().theme === 'colorblind'")
    assert errors == []


async def test_log_out_everywhere_ends_the_other_browsers_session(site: Site, browser: Any) -> None:
    """Alice is logged in on two browsers; "Log out everywhere" on one logs the other out too (its cookie
    no longer signs anyone in), where a plain logout would have ended only its own."""
    _, path = await _start(site, "paint", channel=40)
    laptop = await _login(site, browser, ALICE, path)
    phone = await _login(site, browser, ALICE, path)
    assert await phone.evaluate("window.tessera.state().you.userId") == str(ALICE)
    await laptop.screenshot(path=str(SCREENSHOTS / "logout-everywhere.png"))
    await laptop.get_by_role("button", name="Log out everywhere").click()
    await laptop.wait_for_function("window.tessera.state() && window.tessera.state().you === null")
    await phone.reload()
    await phone.wait_for_selector("polygon.cell")
    assert await phone.evaluate("window.tessera.state().you") is None
    assert await phone.get_by_role("link", name="Log in with Discord to play").count() == 1
    assert not laptop.errors and not phone.errors
