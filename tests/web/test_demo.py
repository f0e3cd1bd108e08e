"""`python -m bot web-demo`: `--help` exits 0; the demo offers a match of every registered game (the
example game's package included), TilingKing for three and for four on each tiling, and a form that starts
a new match, which a browser plays at once."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import games
from bot.web.demo import DEMOS, Demo, open_demo
from tests.web.conftest import SCREENSHOTS, free_port


def test_help_exits_0() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bot", "web-demo", "--help"], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert "usage: python -m bot web-demo" in run.stdout and "--port" in run.stdout
    wrong = subprocess.run(
        [sys.executable, "-m", "bot", "web-demo", "--nonsense"], capture_output=True, text=True, timeout=60
    )
    assert wrong.returncode == 2


@pytest.fixture
async def demo(tmp_path: Path) -> AsyncIterator[tuple[Demo, str]]:
    port = free_port()
    service, board = await open_demo(tmp_path, host="127.0.0.1", port=port)
    try:
        yield DEMOS[board], f"http://127.0.0.1:{port}"
    finally:
        await board.close()
        await service.close()


async def test_every_game_and_tilingking_for_three_and_four_on_each_tiling(demo: tuple[Demo, str]) -> None:
    found, _ = demo
    kinds = []
    for match_id, _, users in found.matches:
        match = await found.service.matches.get(match_id)
        kinds.append((match.game, match.options.get("board", ""), len(users)))
    assert {game for game, _, _ in kinds} == set(games.GAME_IDS)
    many = {(board[:2], players) for game, board, players in kinds if game == "tilingking" and players > 2}
    assert many == {(tiling, n) for tiling in ("sq", "he", "tr") for n in (3, 4)}


async def test_the_start_page_starts_a_new_match(demo: tuple[Demo, str], browser: Any) -> None:
    found, base = demo
    ctx = await browser.new_context()
    page = await ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    await page.goto(base + "/")
    listed = await page.eval_on_selector_all("#matches li", "lis => lis.length")
    assert listed == len(found.matches)
    four = next(
        i for i, (_, what, users) in enumerate(reversed(found.matches)) if len(users) == 4 and "hex" in what
    )
    await page.click(f"#matches li:nth-child({four + 1}) a:has-text('Dave')")
    await page.wait_for_selector("#board.drawn")
    assert await page.eval_on_selector_all("#players li.player", "lis => lis.length") == 4
    await page.screenshot(path=str(SCREENSHOTS / "demo-four.png"), full_page=True)
    await page.goto(base + "/")
    await page.select_option("#new select[name=game]", "tilingking")
    await page.select_option("#new select[name=players]", "3")
    await page.fill("#new input[name=options]", "board=tri4")
    before = len(found.matches)
    await page.click("#new button[type=submit]")
    await page.wait_for_selector("#board.drawn")
    assert len(found.matches) == before + 1
    match = await found.service.matches.get(found.matches[-1][0])
    assert (match.game, match.options["board"], len(match.seats)) == ("tilingking", "tri4", 3)
    assert await page.evaluate("window.tessera.state().you.name") == "Alice"
    forged = await page.request.post(base + "/demo/new", form={"game": "paint", "players": "2", "key": "x"})
    assert forged.status == 403
    bad = await page.request.post(
        base + "/demo/new", form={"game": "paint", "players": "9", "key": found.form_key}
    )
    assert bad.status == 400
    assert errors == []
