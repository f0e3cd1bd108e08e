"""Never a stale board, proved by breaking the network in Chromium (Playwright's `route`): a state fetch
aborted once (the bug this guards against: the page stayed on the old position saying it was the
opponent's turn, with no error and no retry), a server error, an event stream cut while the match moves
on, and a move whose request never arrives. Every time the page says so, tries again, and ends on the
match's current position."""

from __future__ import annotations

import re
from typing import Any

import games
from games.base import clickable_moves
from tests.web.conftest import Site
from tests.web.pages import ALICE, BOB, DRAWN, LIVE_MS, cell, login, start, wait_ply

RETRY_MS = 8000
"""A retry comes within this many milliseconds (the first backoff is 1 to 1.2 s)."""


async def _move(site: Site, match_id: int) -> str:
    match = await site.service.matches.get(match_id)
    move = clickable_moves(games.get("paint"), match.state)[0].notation
    await site.service.matches.play(match_id, match.seats[match.to_move].user_id, move)
    return move


def _state_url(request: Any) -> bool:
    """A GET of the match's state (not its stream, its scenes or its images)."""
    path = request.url.split("?")[0]
    return request.method == "GET" and path.split("/api/m/")[-1].count("/") == 0 and "/api/m/" in path


async def test_a_lost_state_fetch_after_the_opponents_move_is_retried(site: Site, browser: Any) -> None:
    """Bob's page hears Alice's move and asks for his legal moves; that request is lost, and so is the
    whole state it then asks for. The page says it is trying again, and then shows the new position with
    Bob to play and his moves clickable."""
    match_id, path = await start(site, "paint")
    bob = await login(site, browser, BOB, path)
    lost: list[str] = []

    async def lose_once(route: Any) -> None:
        asked = route.request.url.split("?")[0]
        if (_state_url(route.request) or asked.endswith("/clicks")) and len(lost) < 2:
            lost.append(asked)
            await route.abort()
        else:
            await route.continue_()

    await bob.route("**/api/m/**", lose_once)
    await _move(site, match_id)
    await bob.wait_for_function(
        "document.getElementById('live').dataset.kind === 'retrying'", timeout=LIVE_MS
    )
    assert "trying again" in await bob.inner_text("#live")
    assert await bob.is_visible("#retry")
    await wait_ply(bob, 1, timeout=RETRY_MS)
    assert len(lost) == 2 and lost[0].endswith("/clicks"), lost
    match = await site.service.matches.get(match_id)
    assert await bob.inner_text("#status") == await bob.evaluate("window.tessera.state().status")
    assert "Bob" in await bob.inner_text("#status") and match.seats[match.to_move].user_id == BOB
    await bob.wait_for_function("window.tessera.state().clicks.length > 0", timeout=RETRY_MS)  # his moves
    await bob.wait_for_function("document.getElementById('live').dataset.kind === 'ok'")
    assert bob.errors == []


async def test_the_first_load_fails_then_the_page_comes(site: Site, browser: Any) -> None:
    """A page that comes without its state (as inside Discord's Activity, which loads it after signing
    in): its first state fetch answers 500 and the next one is lost; the page says it is trying again (with
    a button to try now), and the board comes without a reload."""
    match_id, path = await start(site, "paint")
    await _move(site, match_id)
    ctx = await browser.new_context(bypass_csp=True)
    page = await ctx.new_page()
    failures: list[int] = []

    async def without_state(route: Any) -> None:
        response = await route.fetch()
        html = re.sub(r'<script type="application/json" id="initial">.*?</script>', "", await response.text())
        await route.fulfill(response=response, body=html)

    await page.route(site.base + path, without_state)

    async def fail_twice(route: Any) -> None:
        if _state_url(route.request) and len(failures) < 2:
            failures.append(1)
            if len(failures) == 1:
                await route.fulfill(status=500, body="database unavailable")
            else:
                await route.abort()
        else:
            await route.continue_()

    await page.route("**/api/m/**", fail_twice)
    await page.goto(site.base + path)
    await page.wait_for_function("document.getElementById('live').dataset.kind === 'retrying'")
    await page.click("#retry")  # rather than wait for the backoff
    await page.wait_for_selector(DRAWN, timeout=RETRY_MS)
    await wait_ply(page, 1)
    assert len(failures) == 2


async def test_a_cut_stream_catches_up_with_the_moves_it_missed(site: Site, browser: Any) -> None:
    """The event stream is cut and stays away while two moves are played; when it comes back the page
    fetches what it missed: never the old position."""
    match_id, path = await start(site, "paint")
    ctx = await browser.new_context(bypass_csp=True)
    page = await ctx.new_page()
    cut = {"on": False}

    async def stream(route: Any) -> None:
        if cut["on"]:
            await route.abort()
        else:
            await route.continue_()

    await page.route("**/events?*", stream)
    await page.goto(site.base + path)
    await page.wait_for_selector(DRAWN)
    cut["on"] = True
    await page.evaluate("window.tessera.live.source.close(); window.tessera.live.listen()")  # the cut
    await page.wait_for_function(
        "['retrying', 'reconnecting'].includes(document.getElementById('live').dataset.kind)"
    )
    await _move(site, match_id)
    await _move(site, match_id)
    assert await page.evaluate("window.tessera.state().ply") == 0
    cut["on"] = False
    await wait_ply(page, 2, timeout=RETRY_MS * 2)
    await page.wait_for_function("document.getElementById('live').dataset.kind === 'ok'", timeout=RETRY_MS)


async def test_a_move_that_never_arrives_says_so_next_to_the_board(site: Site, browser: Any) -> None:
    match_id, path = await start(site, "paint")
    alice = await login(site, browser, ALICE, path)
    match = await site.service.matches.get(match_id)
    click = clickable_moves(games.get("paint"), match.state)[0]
    await alice.route("**/move?*", lambda route: route.abort())
    for c in click.cells:
        await alice.click(cell(c))
    await alice.wait_for_function("document.getElementById('error').textContent !== ''")
    assert "Could not reach the server" in await alice.inner_text("#error")
    assert (await site.service.matches.get(match_id)).ply == 0
    await alice.unroute("**/move?*")
    for c in click.cells:  # the board is still live: the same move goes through now
        await alice.click(cell(c))
    await wait_ply(alice, 1)
    assert await alice.inner_text("#error") == ""
