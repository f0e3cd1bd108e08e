"""A live clock on the web board, in Chromium (issue 43): both clocks in the panel, the mover's ticking
down, and the flag (written by the flag timer, as the shard owner's process does) ends the game on every
open page."""

from __future__ import annotations

import time
from typing import Any

import games
from bot.service.flags import FlagTimer
from bot.service.timecontrol import TimeControl
from bot.web.security import match_token
from games.base import clickable_moves, resolve_options
from tests.web.conftest import Site
from tests.web.pages import ALICE, BOB, login, spectator


async def test_the_clock_ticks_and_the_flag_ends_the_game_on_every_page(site: Site, browser: Any) -> None:
    rules = games.get("paint")
    match = await site.service.matches.start(
        "paint", resolve_options(rules.options, {}), [(ALICE, None), (BOB, None)], seed=7, rated=False,
        turn_timeout=86400, guild_id=None, channel_id=1, time_control=TimeControl(15, 0),
    )  # fmt: skip
    for _ in range(2):  # both first moves: from now on the mover's 15 s run
        view = await site.service.matches.get(match.id)
        move = clickable_moves(rules, view.state)[0].notation
        mover = view.user_to_move
        assert mover is not None
        await site.service.matches.play(match.id, mover, move)

    async def heard(event: Any) -> None:
        return None

    timer = FlagTimer(site.service.matches, heard, now=time.time)
    await timer.start()
    try:
        path = f"/m/{match_token(site.board.secret, match.id)}"
        alice = await login(site, browser, ALICE, path)
        watcher = await spectator(site, browser, path)
        clocks = await watcher.eval_on_selector_all("#players .clock", "cs => cs.map(c => c.textContent)")
        assert len(clocks) == 2
        running = "#players .clock.running"
        first = await watcher.inner_text(running)
        await watcher.wait_for_function(
            f"document.querySelector('{running}') && document.querySelector('{running}').textContent !== "
            f"{first!r}",
            timeout=5_000,
        )
        await watcher.wait_for_selector(f"{running}.low", timeout=15_000)  # under 10 s: the warning
        for page in (alice, watcher):
            await page.wait_for_function("!window.tessera.state().active", timeout=20_000)
            await page.wait_for_selector("#replay:not([hidden])")
        final = await site.service.matches.get(match.id)
        assert not final.is_active and final.outcome is not None
        assert final.outcome.termination.value == "timeout"
        assert alice.errors == [] and watcher.errors == []
    finally:
        await timer.stop()
