"""Draw offers and rematches in Chromium: the page's buttons come from the server (bot/web/actions.py),
the other player's page shows the offer live, and when a rematch starts every open page of the old match
(players and spectators) moves to the new match's page."""

from __future__ import annotations

import asyncio
from typing import Any

import games
from bot.web.security import match_token
from games.base import clickable_moves
from tests.web.conftest import Site
from tests.web.pages import ALICE, BOB, DRAWN, LIVE_MS, login, spectator, start


async def _play(site: Site, match_id: int, count: int) -> None:
    rules = games.get("paint")
    for _ in range(count):
        match = await site.service.matches.get(match_id)
        move = clickable_moves(rules, match.state)[0].notation
        await site.service.matches.play(match_id, match.seats[match.to_move].user_id, move)


async def test_a_draw_offered_on_one_page_is_accepted_on_the_other(site: Site, browser: Any) -> None:
    match_id, path = await start(site, "paint")
    await _play(site, match_id, 2)
    alice = await login(site, browser, ALICE, path)
    bob = await login(site, browser, BOB, path)
    await alice.click("#actions button[data-action='draw']")
    await bob.wait_for_function(
        "document.querySelector('#pending').textContent.includes('offers a draw')", timeout=LIVE_MS
    )
    await bob.click("#actions button[data-action='accept']")
    for page in (alice, bob):
        await page.wait_for_function("!window.tessera.state().active", timeout=LIVE_MS)
    final = await site.service.matches.get(match_id)
    assert final.outcome is not None and final.outcome.is_draw
    assert alice.errors == [] and bob.errors == []


async def test_a_rematch_moves_every_open_page_to_the_new_match(site: Site, browser: Any) -> None:
    match_id, path = await start(site, "paint")
    await _play(site, match_id, 2)
    alice = await login(site, browser, ALICE, path)
    bob = await login(site, browser, BOB, path)
    watcher = await spectator(site, browser, path)
    await site.service.matches.resign(match_id, ALICE)
    await alice.wait_for_selector("#actions button[data-action='rematch']", timeout=LIVE_MS)
    await alice.click("#actions button[data-action='rematch']")
    await bob.wait_for_function(
        "document.querySelector('#pending').textContent.includes('offers a rematch')", timeout=LIVE_MS
    )
    await bob.click("#actions button[data-action='accept']")
    record = None
    for _ in range(100):  # Bob's answer reaches the server
        record = await site.service.rematches.rematch_of(match_id)
        if record is not None and record.new_match_id is not None:
            break
        await asyncio.sleep(0.05)
    assert record is not None and record.new_match_id is not None
    new = await site.service.matches.get(record.new_match_id)
    moved_to = f"{site.base}/m/{match_token(site.board.secret, new.id)}"
    for page in (alice, bob, watcher):
        await page.wait_for_url(moved_to, timeout=LIVE_MS)
        await page.wait_for_selector(DRAWN)
        await page.wait_for_function(f"window.tessera.state().id === {new.id}")
        await page.wait_for_function(
            "document.querySelector('#pending').textContent.includes('Score: ')", timeout=LIVE_MS
        )
    assert [p.user_id for p in new.seats] == [BOB, ALICE]
    assert alice.errors == [] and bob.errors == [] and watcher.errors == []
