"""The "my matches" page: the viewer's own matches in progress, those where it is their turn first, each a
link to its board; a spectator's or a stranger's matches are not listed, nor those of a server that turned
the web board off; logged out, it asks to log in."""

from __future__ import annotations

from typing import Any

import games
from games.base import clickable_moves
from tests.web.conftest import SCREENSHOTS, Site
from tests.web.pages import ALICE, BOB, CAROL, login, start


async def test_my_matches_list_mine_with_my_turn_first(site: Site, browser: Any) -> None:
    waiting_id, waiting_path = await start(site, "paint", channel=1)  # Alice opens, then waits for Bob
    match = await site.service.matches.get(waiting_id)
    await site.service.matches.play(
        waiting_id, ALICE, clickable_moves(games.get("paint"), match.state)[0].notation
    )
    mine_id, mine_path = await start(site, "tilingking", {"board": "hex5"}, channel=2)
    await start(site, "paint", channel=3, seats=(BOB, CAROL))  # not hers
    site.board.disabled_guilds = frozenset({666})
    await start(site, "paint", channel=4, guild=666)  # hers, in a server without the web board
    page = await login(site, browser, ALICE, mine_path)
    await page.click("#mine")
    await page.wait_for_url(f"{site.base}/me")
    await page.wait_for_selector("#turn li")
    listed = await page.eval_on_selector_all(
        "li[data-match]", "lis => lis.map(li => Number(li.dataset.match))"
    )
    assert listed == [mine_id, waiting_id]
    assert await page.get_attribute("#turn a", "href") == mine_path
    assert await page.get_attribute("#waiting a", "href") == waiting_path
    assert await page.inner_text("#turn-title") == "Your turn"
    await page.screenshot(path=str(SCREENSHOTS / "my-matches.png"))
    await page.click("#turn a")
    await page.wait_for_url(f"{site.base}{mine_path}")
    await page.wait_for_selector("#board.drawn")
    assert page.errors == []


async def test_my_matches_logged_out(site: Site, browser: Any) -> None:
    ctx = await browser.new_context()
    page = await ctx.new_page()
    answer = await page.request.get(site.base + "/api/me")
    assert (await answer.json())["matches"] == []
    await page.goto(site.base + "/me")
    await page.wait_for_function("document.getElementById('status').textContent.includes('Log in')")
