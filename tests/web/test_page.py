"""Around the board, in Chromium: the panel complete on a phone; themes (dark following the system, the
colour-blind one's patterns) switched without a fetch; placements animated, and not with reduced motion;
sounds off by default; the clickable move list and the arrow keys through the replay; turning points drawn
as an arrow; the background tab's signal; errors next to their control; spectators counted; no layout shift
while loading on a phone, and touch targets of 44 px."""

from __future__ import annotations

import json
from typing import Any

import games
from games.ai.analysis import MatchAnalysis, MoveReview
from games.base import clickable_moves, resolve_options
from tests.web.conftest import SCREENSHOTS, Site
from tests.web.pages import ALICE, BOB, DRAWN, cell, login, spectator, start, wait_ply

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


async def _play(site: Site, match_id: int, count: int, game: str = "paint") -> list[str]:
    """`count` moves through the service (as Discord or the bot plays them), the first legal ones."""
    rules = games.get(game)
    played = []
    for _ in range(count):
        match = await site.service.matches.get(match_id)
        clicks = clickable_moves(rules, match.state)
        move = clicks[0].notation if clicks else rules.word_moves(match.state)[0].notation
        await site.service.matches.play(match_id, match.seats[match.to_move].user_id, move)
        played.append(move)
    return played


async def test_the_panel_is_complete_on_a_phone(site: Site, browser: Any) -> None:
    """What the PNG's side panel shows is on the page on a phone too: players with scores and pieces left,
    Paint's tile count and lead counter, Paintscape's colour race, the key."""
    checks = (
        ("paint", {}, ["tiles", "lead"]),
        ("paintscape", {}, None),
        ("tilingking", {"board": "hex5"}, []),
    )
    for channel, (game, options, counters) in enumerate(checks, start=1):
        match_id, path = await start(site, game, options, channel=channel)
        await _play(site, match_id, 6 if game == "paintscape" else 2, game)
        page = await spectator(site, browser, path, **PHONE)
        scene = await page.evaluate("window.tessera.scene()")
        panel = scene["panel"]
        seats = await page.eval_on_selector_all("#players li.player", "lis => lis.length")
        assert seats == len(panel["players"]) == 2
        for seat in panel["players"]:
            row = f"#players li[data-seat='{seat['seat']}']"
            text = await page.inner_text(row)
            assert seat["name"] in text
            if seat.get("score") is not None:
                assert str(seat["score"]) in await page.inner_text(row + " .score")
            if seat.get("pieces") is not None:
                assert str(seat["pieces"]) in await page.inner_text(row + " .pieces")
        keys = await page.eval_on_selector_all("#counters .counter", "cs => cs.map(c => c.dataset.key)")
        assert keys == [c["key"] for c in panel.get("counters", [])]
        if counters is not None:
            assert keys == counters
        else:
            assert len(keys) >= 5, "Paintscape's race: one counter per colour"
        legend = await page.eval_on_selector_all("#legend li", "lis => lis.length")
        assert legend == len(panel.get("legend", []))
        for selector in ("#players", "#counters", "#legend"):
            box = await page.eval_on_selector(selector, "e => e.getBoundingClientRect().toJSON()")
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (game, selector, box)
        assert await page.evaluate("document.documentElement.scrollWidth") <= 390
        await page.screenshot(path=str(SCREENSHOTS / f"phone-panel-{game}.png"), full_page=True)


async def test_dark_follows_the_system_and_themes_switch_without_a_fetch(site: Site, browser: Any) -> None:
    _, path = await start(site, "paint")
    ctx = await browser.new_context(bypass_csp=True, color_scheme="dark")
    page = await ctx.new_page()
    await page.goto(site.base + path)
    await page.wait_for_selector(DRAWN)
    scene = await page.evaluate("window.tessera.scene()")
    palettes = scene["palettes"]
    paper = "document.querySelector('#board-svg rect.paper').getAttribute('fill')"
    assert await page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert await page.evaluate(paper) == palettes["dark"]["colours"][scene["background"]]
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    await page.emulate_media(color_scheme="light")
    await page.wait_for_function("document.documentElement.dataset.theme === 'default'")
    assert await page.evaluate(paper) == palettes["default"]["colours"][scene["background"]]
    await page.select_option("#theme", "colorblind")
    await page.wait_for_function("document.querySelectorAll('#board-svg defs pattern').length > 0")
    assert await page.evaluate(paper) == palettes["colorblind"]["colours"][scene["background"]]
    await page.screenshot(path=str(SCREENSHOTS / "theme-colorblind.png"))
    await page.select_option("#theme", "dark")
    await page.wait_for_function("document.documentElement.dataset.theme === 'dark'")
    await page.screenshot(path=str(SCREENSHOTS / "theme-dark.png"))
    assert [url for url in asked if "/api/" in url] == [], "a theme is drawn from the scene's palettes"
    reloaded = await ctx.new_page()
    await reloaded.goto(site.base + path)
    await reloaded.wait_for_selector(DRAWN)
    assert await reloaded.evaluate("document.documentElement.dataset.theme") == "dark", "the choice is kept"


async def test_a_move_animates_and_not_with_reduced_motion(site: Site, browser: Any) -> None:
    match_id, path = await start(site, "paintscape", {"balance": False})
    moving = await spectator(site, browser, path)
    still = await spectator(site, browser, path, reduced_motion="reduce")
    await _play(site, match_id, 1, "paintscape")
    for page in (moving, still):
        await wait_ply(page, 1)
    assert await moving.evaluate("window.tessera.animations()") >= 1, "the new stone grows in"
    assert await still.evaluate("window.tessera.animations()") == 0
    assert await still.evaluate("document.getAnimations().length") == 0


async def test_move_sounds_are_off_until_turned_on(site: Site, browser: Any) -> None:
    match_id, path = await start(site, "paint")
    page = await spectator(site, browser, path)
    assert not await page.is_checked("#sound")
    await _play(site, match_id, 1)
    await wait_ply(page, 1)
    assert await page.evaluate("window.tessera.chimes()") == 0
    await page.check("#sound")
    before = await page.evaluate("window.tessera.chimes()")
    await _play(site, match_id, 1)
    await wait_ply(page, 2)
    assert await page.evaluate("window.tessera.chimes()") == before + 1


async def test_the_move_list_and_the_arrow_keys_walk_the_replay(site: Site, browser: Any) -> None:
    match_id, path = await start(site, "paint")
    await _play(site, match_id, 4)
    page = await spectator(site, browser, path)
    assert await page.is_hidden("#replay"), "in play, the move list opens the replay"
    await page.click("#moves button[data-ply='2']")
    await page.wait_for_function("window.tessera.replayAt() === 2")
    token = path.split("/")[-1]
    expected = await (await page.request.get(f"{site.base}/api/m/{token}/scene/2")).json()
    shown = await page.evaluate("window.tessera.shown()")
    assert [i["key"] for i in shown["items"]] == [i["key"] for i in expected["items"]]
    assert await page.inner_text("#status") == expected["panel"]["status"]
    assert await page.is_visible("#r-live")
    await page.keyboard.press("ArrowLeft")
    await page.wait_for_function("window.tessera.replayAt() === 1")
    await page.keyboard.press("Home")
    await page.wait_for_function("window.tessera.replayAt() === 0")
    await page.keyboard.press("ArrowRight")
    await page.wait_for_function("window.tessera.replayAt() === 1")
    assert await page.get_attribute("#moves li.now button", "data-ply") == "1"
    await page.click("#r-live")
    await page.wait_for_function("window.tessera.replayAt() === -1")
    await _play(site, match_id, 1)  # the live board goes on meanwhile
    await wait_ply(page, 5)
    await site.service.matches.resign(match_id, ALICE)
    await page.wait_for_function("!window.tessera.state().active")
    assert await page.is_visible("#replay")
    await page.keyboard.press("End")
    await page.keyboard.press("ArrowLeft")
    await page.wait_for_function("window.tessera.replayAt() === 4")
    assert page.errors == []


async def test_turning_points_are_drawn_as_an_arrow_for_the_better_move(site: Site, browser: Any) -> None:
    match_id, path = await start(site, "paint")
    played = await _play(site, match_id, 3)
    rules = games.get("paint")
    state = rules.new(2, resolve_options(rules.options, {}), 7)
    state = rules.apply(state, rules.parse(state, played[0]))
    better = next(c for c in clickable_moves(rules, state) if c.notation != played[1])
    review = MoveReview(ply=1, seat=1, played=played[1], preferred=better.notation, before=0.7, after=0.3)
    analysis = MatchAnalysis(reviews=(review,), turning_points=((), (review,)), iterations=1)
    site.board.review.cached = {match_id: analysis}.get
    await site.service.matches.resign(match_id, BOB)
    page = await spectator(site, browser, path)
    await page.click("#turning-list button[data-ply='1']")
    await page.wait_for_function("window.tessera.replayAt() === 1")
    assert await page.eval_on_selector_all(".marks .arrow.better", "as => as.length") == 1
    outlined = await page.eval_on_selector_all(".marks .better[data-i]", "ps => ps.map(p => +p.dataset.i)")
    assert sorted(outlined) == sorted(better.cells)
    await page.screenshot(path=str(SCREENSHOTS / "turning-point.png"), full_page=True)


async def test_a_background_tab_says_it_is_your_turn(site: Site, browser: Any) -> None:
    match_id, path = await start(site, "paint")
    ctx = await browser.new_context(bypass_csp=True)
    await ctx.add_init_script(
        "window.__hidden = false;"
        "Object.defineProperty(document, 'hidden', {get() { return window.__hidden; }});"
    )
    page = await ctx.new_page()
    site.discord.next_user = BOB
    await page.goto(f"{site.base}/login?next={path}")
    await page.wait_for_selector(DRAWN)
    await page.evaluate("window.__hidden = true; document.dispatchEvent(new Event('visibilitychange'))")
    assert not (await page.title()).startswith("●"), "Alice is to play, not Bob"
    await _play(site, match_id, 1)  # Alice moves: Bob's turn
    await page.wait_for_function("document.title.startsWith('●')")
    assert "Your turn" in await page.title()
    assert (await page.get_attribute("#favicon", "href") or "").endswith("/turn.svg")
    await page.evaluate("window.__hidden = false; document.dispatchEvent(new Event('visibilitychange'))")
    await page.wait_for_function("!document.title.startsWith('●')")
    assert (await page.get_attribute("#favicon", "href") or "").endswith("/idle.svg")


async def test_errors_appear_next_to_their_control(site: Site, browser: Any) -> None:
    """A refused move is said under the board, a refused request under the buttons."""
    match_id, path = await start(site, "paint")
    page = await login(site, browser, ALICE, path)

    async def refuse(route: Any) -> None:
        await route.fulfill(
            status=409, content_type="application/json", body=json.dumps({"ok": False, "error": "No."})
        )

    await page.route("**/move?*", refuse)
    await page.route("**/action?*", refuse)
    match = await site.service.matches.get(match_id)
    click = clickable_moves(games.get("paint"), match.state)[0]
    for c in click.cells:
        await page.click(cell(c))
    await page.wait_for_function("document.getElementById('error').textContent === 'No.'")
    assert await page.inner_text("#action-error") == ""
    await page.click("#actions button[data-action='abort']")
    await page.wait_for_function("document.getElementById('action-error').textContent === 'No.'")
    box = await page.eval_on_selector("#action-error", "e => e.getBoundingClientRect().toJSON()")
    button = await page.eval_on_selector("#actions", "e => e.getBoundingClientRect().toJSON()")
    assert 0 <= box["y"] - (button["y"] + button["height"]) < 40, "said right under the buttons"


async def test_spectators_are_counted_on_the_page(site: Site, browser: Any) -> None:
    site.board.hub.recount_delay = 0.1
    _, path = await start(site, "paint")
    player = await login(site, browser, ALICE, path)
    for _ in range(2):
        await spectator(site, browser, path)
    await player.wait_for_function("document.getElementById('live').textContent.includes('2')")
    assert await player.inner_text("#live") == "Spectators: 2"


async def test_no_layout_shift_while_a_phone_loads(site: Site, browser: Any) -> None:
    """Cumulative layout shift of the page loading on a phone, as Chromium measures it (layout-shift
    entries without recent input): at most 0.1."""
    match_id, path = await start(site, "tilingking", {"board": "hex6b"})
    await _play(site, match_id, 2, "tilingking")
    for user in (None, ALICE):  # a spectator, and the player to move (her name, her pieces, her buttons)
        ctx = await browser.new_context(bypass_csp=True, **PHONE)
        await ctx.add_init_script(
            "window.__cls = 0; new PerformanceObserver((list) => { for (const e of list.getEntries())"
            " if (!e.hadRecentInput) window.__cls += e.value; })"
            ".observe({type: 'layout-shift', buffered: true});"
        )
        page = await ctx.new_page()
        if user is not None:
            site.discord.next_user = user
            await page.goto(f"{site.base}/login?next={path}")
            await page.wait_for_url(site.base + path)
        else:
            await page.goto(site.base + path)
        await page.wait_for_selector(DRAWN)
        await page.wait_for_selector("#players li.player")
        await page.wait_for_timeout(300)
        shift = await page.evaluate("window.__cls")
        assert shift <= 0.1, f"CLS {shift:.3f} ({'a player' if user else 'a spectator'})"
        await ctx.close()


async def test_touch_targets_are_44_px_on_a_phone(site: Site, browser: Any) -> None:
    match_id, path = await start(site, "tilingking", {"board": "hex5"})
    await _play(site, match_id, 2, "tilingking")
    page = await login(site, browser, ALICE, path, **PHONE)
    small = await page.evaluate(
        """() => [...document.querySelectorAll('button, select, a, input:not([type=checkbox]), label')]
             .filter(e => e.offsetParent !== null)
             .map(e => [e.id || e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
             .filter(([, r]) => r.width < 44 || r.height < 44)
             .map(([name, r]) => name + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))"""
    )
    assert small == []
    cell_size = await page.eval_on_selector(cell(0), "p => p.getBoundingClientRect().width")
    assert cell_size >= 24, f"a cell is {cell_size:.0f} px wide: too small to tap"


async def test_a_resignation_ends_the_match_on_both_pages(site: Site, browser: Any) -> None:
    """Alice resigns with her button (confirmed in the dialog); both pages show the end: no buttons left
    but Rematch, the replay offered."""
    match_id, path = await start(site, "paint")
    await _play(site, match_id, 2)
    alice = await login(site, browser, ALICE, path)
    bob = await login(site, browser, BOB, path)
    await alice.click("#actions button[data-action='resign']")
    await alice.click("#confirm-yes")
    for page in (alice, bob):
        await page.wait_for_function("!window.tessera.state().active")
        await page.wait_for_function(
            "[...document.querySelectorAll('#actions button')].map((b) => b.dataset.action).join()"
            " === 'rematch'"
        )
        await page.wait_for_selector("#replay:not([hidden])")
    final = await site.service.matches.get(match_id)
    assert not final.is_active and final.outcome is not None
    assert alice.errors == [] and bob.errors == []
