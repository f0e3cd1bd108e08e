"""Whole games in a real browser: two players log in through (fake) Discord and play every game to its end
on the page, by mouse, by touch and with the keyboard alone, while a third browser spectates and sees
every board within moments; the service (the same one the Discord application uses) holds the moves.
Screenshots go to /tmp/tessera-web/."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

import games
from games.base import ClickMove, clickable_moves
from tests.web.conftest import SCREENSHOTS, Site
from tests.web.pages import (
    ALICE,
    BOB,
    DRAWN,
    Choose,
    any_click,
    cell,
    click_play,
    drag_play,
    key_play,
    login,
    marked,
    paintscape_collector,
    spectator,
    start,
    tap_play,
    wait_ply,
)
from tests.web.pages import (
    click_play as _click_play,  # the Activity's tests play with it too
)

__all__ = ["_click_play"]

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

Play = Callable[[Any, ClickMove], Awaitable[None]]


async def _play_game(
    site: Site,
    browser: Any,
    game: str,
    options: dict[str, Any] | None = None,
    *,
    how: str = "mouse",
    choose: Choose = any_click,
    limit: int = 300,
) -> None:
    """Play a match of `game` to its end on the page (both players in their own browsers, a third one
    watching), every move chosen by `choose` among the clicks the position offers and played `how`
    ("mouse", "touch", "keyboard"), word moves by their buttons."""
    match_id, path = await start(site, game, options)
    context = PHONE if how == "touch" else {}
    pages = {user: await login(site, browser, user, path, **context) for user in (ALICE, BOB)}
    watcher = await spectator(site, browser, path)
    rules = games.get(game)
    rng = random.Random(3)
    plays: dict[str, Play] = {"mouse": click_play, "keyboard": key_play}
    for n in range(limit):
        match = await site.service.matches.get(match_id)
        if not match.is_active:
            break
        page = pages[match.seats[match.to_move].user_id]
        await wait_ply(page, match.ply)
        clicks = clickable_moves(rules, match.state)
        if clicks:
            click = choose(rules, match.state, clicks, rng)
            if how == "touch":
                await tap_play(page, click, confirm="tap" if n % 2 else "button")
            else:
                await plays[how](page, click)
        else:
            words = rules.word_moves(match.state)
            assert words, "a position with neither clicks nor words"
            await page.click(f"#words button:has-text('{words[0].label}')")
        after = await site.service.matches.get(match_id)
        for _ in range(200):
            if after.ply > match.ply:
                break
            await page.wait_for_timeout(50)
            after = await site.service.matches.get(match_id)
        if after.ply == match.ply:
            await page.screenshot(path=str(SCREENSHOTS / f"{game}-{how}-stuck.png"))
        assert after.ply > match.ply, f"the move was not played ({await page.inner_text('#error')})"
        await wait_ply(watcher, after.ply)  # the spectator's board, live
        await wait_ply(page, after.ply)
        assert await watcher.inner_text("#status") == await page.evaluate("window.tessera.state().status")
    final = await site.service.matches.get(match_id)
    assert not final.is_active and final.outcome is not None, f"{game} did not end in {limit} moves"
    assert final.outcome.termination.value not in ("resignation", "aborted", "timeout")
    for page in (*pages.values(), watcher):  # everyone sees the result
        await page.wait_for_function("window.tessera.state() && !window.tessera.state().active")
        await wait_ply(page, final.ply)
    await pages[ALICE].screenshot(path=str(SCREENSHOTS / f"{game}-{how}-end.png"), full_page=True)
    shown = await watcher.eval_on_selector_all("#moves li", "lis => lis.length")
    assert shown == len(await site.service.matches.moves(match_id)) > 0
    assert await watcher.is_visible("#replay"), "a finished match offers its replay"
    for page in (*pages.values(), watcher):
        assert page.errors == []


SHORTER: dict[str, tuple[dict[str, Any], Choose]] = {
    "paint": ({"move_cap": 10}, any_click),
    "paintscape": ({}, paintscape_collector),
    "tilingking": ({"board": "sq9", "size": 4}, any_click),
}
"""Options and a way to choose moves that end a built-in game soon; every other registered game (a plugin)
is played with its default options by any click."""
GAMES: list[tuple[str, dict[str, Any], Choose]] = [
    (game, *SHORTER.get(game, ({}, any_click))) for game in games.GAME_IDS
]


@pytest.mark.parametrize("how", ["mouse", "touch", "keyboard"])
@pytest.mark.parametrize(("game", "options", "choose"), GAMES, ids=[g[0] for g in GAMES])
async def test_every_game_to_its_end(
    site: Site, browser: Any, game: str, options: dict[str, Any], choose: Choose, how: str
) -> None:
    await _play_game(site, browser, game, options, how=how, choose=choose)


async def test_a_drag_plays_a_move_of_two_cells(site: Site, browser: Any) -> None:
    match_id, path = await start(site, "paint")
    page = await login(site, browser, ALICE, path)
    match = await site.service.matches.get(match_id)
    click = next(c for c in clickable_moves(games.get("paint"), match.state) if len(c.cells) == 2)
    await drag_play(page, click)
    await wait_ply(page, 1)
    assert (await site.service.matches.moves(match_id))[0].notation == click.notation


async def test_a_touch_preview_waits_for_the_second_tap(site: Site, browser: Any) -> None:
    """On a phone a tap shows where the piece would go (the ghost, with Rotate and Reflect at hand) and
    plays nothing; another tap elsewhere moves the preview; Cancel drops it; the Place button plays it."""
    match_id, path = await start(site, "tilingking", {"board": "hex5"})
    page = await login(site, browser, ALICE, path, **PHONE)
    rules = games.get("tilingking")
    match = await site.service.matches.get(match_id)
    clicks = [c for c in clickable_moves(rules, match.state) if c.group == "I3" and c.pose == (0, False)]
    await page.tap("button[data-piece='I3']")
    await page.tap(cell(min(clicks[0].cells)))
    assert await marked(page, "ghost") == sorted(clicks[0].cells)
    assert await page.is_visible("#p-rotate") and await page.is_visible("#p-reflect")
    await page.tap(cell(min(clicks[1].cells)))
    assert await marked(page, "ghost") == sorted(clicks[1].cells), "the preview follows the tap"
    await page.tap("#p-rotate")
    turned = await page.evaluate("window.tessera.preview()")
    assert turned is not None and turned["move"] != clicks[1].notation, "the preview turns"
    await page.tap("#cancel")
    assert await page.evaluate("window.tessera.preview()") is None
    assert not await page.is_visible("#place")
    assert (await site.service.matches.get(match_id)).ply == 0, "nothing was played"
    await page.tap(cell(min(clicks[0].cells)))
    shown = await page.evaluate("window.tessera.preview()")  # in the pose turned to, which stays
    assert shown is not None and min(clicks[0].cells) in shown["cells"]
    await page.tap("#place")
    await wait_ply(page, 1)
    assert (await site.service.matches.moves(match_id))[0].notation == shown["move"]
    await page.screenshot(path=str(SCREENSHOTS / "phone-tilingking.png"), full_page=True)


async def test_the_tray_shows_each_pieces_shape(site: Site, browser: Any) -> None:
    _, path = await start(site, "tilingking", {"board": "sq9"})
    page = await login(site, browser, ALICE, path)
    pieces = await page.eval_on_selector_all(
        "#tools button[data-piece]",
        "bs => bs.map(b => [b.dataset.piece, b.querySelectorAll('svg.shape polygon').length])",
    )
    size = {name: int("".join(ch for ch in name if ch.isdigit()) or 1) for name, _ in pieces}
    assert pieces and all(count == size[name] for name, count in pieces), pieces


async def test_legal_move_marks_never_hide_a_discs_rank(site: Site, browser: Any) -> None:
    """Paint's targets on squares with a disc (its rank written in it) are rings round the square's edge,
    not dots on the rank."""
    _, path = await start(site, "paint")
    page = await login(site, browser, ALICE, path)
    scene = await page.evaluate("window.tessera.scene()")
    discs = [item for item in scene["items"] if item.get("text") and item["type"] == "circle"]
    ranked = {c for item in discs for c in item["cells"]}
    targets = await page.eval_on_selector_all(
        ".marks .target[data-i]", "cs => cs.map(c => [Number(c.dataset.i), c.classList.contains('ring')])"
    )
    assert targets
    assert any(i in ranked for i, _ in targets), "some disc can move"
    for i, ring in targets:
        assert ring == (i in ranked), (i, ring)


async def test_spectators_cannot_move_and_wrong_links_are_404(site: Site, browser: Any) -> None:
    match_id, path = await start(site, "paint")
    page = await spectator(site, browser, path)
    assert await page.evaluate("window.tessera.state().clicks.length") == 0
    assert await page.eval_on_selector_all("#actions button", "bs => bs.length") == 0
    answer = await page.request.post(
        f"{site.base}/api/m/{path.split('/')[-1]}/move", data={"move": "b1-b2", "ply": 0}
    )
    assert answer.status == 401
    assert (await page.request.get(f"{site.base}/m/{match_id}-AAAAAAAAAAAAAAAAAAAAAA")).status == 404
    assert (await page.request.get(f"{site.base}/api/m/{match_id}")).status == 404
    bob = await login(site, browser, BOB, path)  # seated, not to move: no clicks; a forged POST is refused
    assert await bob.evaluate("window.tessera.state().clicks.length") == 0
    no_csrf = await bob.request.post(
        f"{site.base}/api/m/{path.split('/')[-1]}/move", data={"move": "b1-b2", "ply": 0}
    )
    assert no_csrf.status == 403
    csp = (await bob.request.get(site.base + path)).headers["content-security-policy"]
    assert "frame-ancestors" in csp and "discord.com" in csp
    assert "shh-client-secret" not in await bob.content()


async def test_the_page_works_under_its_content_security_policy(site: Site, browser: Any) -> None:
    """No test hook bypasses the CSP here: the page loads its modules, draws the board and the panel and
    plays, with no violation reported."""
    match_id, path = await start(site, "paint")
    ctx = await browser.new_context()
    page = await ctx.new_page()
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    site.discord.next_user = ALICE
    await page.goto(f"{site.base}/login?next={path}")
    await page.wait_for_selector("#board.drawn .scene g[data-kind='disc']")
    await page.wait_for_selector("#players li.player")
    match = await site.service.matches.get(match_id)
    first = clickable_moves(games.get("paint"), match.state)[0]
    for c in first.cells:
        await page.click(cell(c))
    for _ in range(100):
        if (await site.service.matches.get(match_id)).ply == 1:
            break
        await page.wait_for_timeout(50)
    assert (await site.service.matches.get(match_id)).ply == 1
    assert violations == [] and errors == []


async def test_the_page_works_where_storage_is_denied(site: Site, browser: Any) -> None:
    """A third-party frame or a strict browser may throw on any use of localStorage: the page still shows
    the board, plays, and changes its theme (kept for the page's lifetime)."""
    match_id, path = await start(site, "paint")
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
    await page.wait_for_selector("#board.drawn")
    match = await site.service.matches.get(match_id)
    await click_play(page, clickable_moves(games.get("paint"), match.state)[0])
    await wait_ply(page, 1)
    await page.select_option("#theme", "colorblind")
    await page.wait_for_function("document.documentElement.dataset.theme === 'colorblind'")
    assert errors == []


async def test_log_out_everywhere_ends_the_other_browsers_session(site: Site, browser: Any) -> None:
    """Alice is logged in on two browsers; "Log out everywhere" on one logs the other out too (its cookie
    no longer signs anyone in), where a plain logout would have ended only its own."""
    _, path = await start(site, "paint", channel=40)
    laptop = await login(site, browser, ALICE, path)
    phone = await login(site, browser, ALICE, path)
    assert await phone.evaluate("window.tessera.state().you.userId") == str(ALICE)
    await laptop.screenshot(path=str(SCREENSHOTS / "logout-everywhere.png"))
    await laptop.get_by_role("button", name="Log out everywhere").click()
    await laptop.wait_for_function("window.tessera.state() && window.tessera.state().you === null")
    await phone.reload()
    await phone.wait_for_selector(DRAWN)
    assert await phone.evaluate("window.tessera.state().you") is None
    assert await phone.get_by_role("link", name="Log in with Discord to play").count() == 1
    assert not laptop.errors and not phone.errors


async def test_the_key_help_offers_r_and_f_only_with_pieces_to_turn(site: Site, browser: Any) -> None:
    """R rotates and F reflects a piece: the key help says so to a TilingKing player to move, not in Paint."""
    _, paint = await start(site, "paint", channel=41)
    page = await login(site, browser, ALICE, paint)
    await page.wait_for_function("window.tessera.state().clicks.length > 0")
    assert "R rotates" not in await page.inner_text("#keys")
    _, tiling = await start(site, "tilingking", {"board": "sq9"}, channel=42)
    page = await login(site, browser, ALICE, tiling)
    await page.wait_for_function("window.tessera.state().clicks.length > 0")
    assert "R rotates, F reflects" in await page.inner_text("#keys")
