"""Berserk on the web board: in a live arena's game the page offers Berserk to a player who has not moved nor
berserked yet (and to nobody elsewhere); pressing it halves their clock as Discord's button does, Discord is
told (`Berserked` reaches the announcer), and the button goes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.service import Service
from bot.service.tournaments.live import Berserked
from bot.service.tournaments.model import Format, Settings, Tournament
from bot.web.app import WebBoard
from games.base import clickable_moves
from tests.web.test_requests import ALICE, BOB, SECRET, Page, _match, _names


@pytest.fixture
async def told() -> list[tuple[Any, int]]:
    return []


@pytest.fixture
async def board(service: Service, told: list[tuple[Any, int]]) -> WebBoard:
    async def announce(result: Any, user_id: int) -> None:
        told.append((result, user_id))

    board = WebBoard(service, secret=SECRET, base_url="http://web.test", names=_names)
    board.announce = announce
    return board


@pytest.fixture
async def client(board: WebBoard) -> AsyncIterator[TestClient[web.Request, web.Application]]:
    async with TestClient(TestServer(board.app())) as c:
        yield c


async def _arena_match(service: Service) -> int:
    """The match of a running two-player Paint arena on a 3+2 clock, Alice against Bob."""
    host = service.tournaments
    channels = iter(range(5_000, 6_000))

    async def channel_for(t: Tournament, action: Any) -> int:
        return next(channels)

    host.channel_for = channel_for
    t = await host.create(1 << 22, 400, ALICE, Settings("paint", Format.ARENA, {}, clock="3+2"))
    await host.join(t.id, ALICE)
    await host.join(t.id, BOB)
    [game] = (await host.begin(t.id, ALICE)).running_games()
    assert game.match_id is not None
    return game.match_id


async def test_the_page_offers_berserk_in_a_live_arena_and_pressing_it_tells_discord(
    service: Service, board: WebBoard, client: Any, told: list[tuple[Any, int]]
) -> None:
    match_id = await _arena_match(service)
    match = await service.matches.get(match_id)
    first, second = match.seats[0].user_id, match.seats[1].user_id
    mine = Page(client, board, match_id, second)
    shown = await mine.buttons()
    assert "berserk" in shown and "half your clock" in shown["berserk"]["hint"]
    answer = await mine.click("berserk")
    assert answer["ok"], answer
    assert (await service.matches.get(match_id)).berserk == (1,)
    assert "berserk" not in await mine.buttons()
    again = await mine.press("berserk")
    assert not again["ok"] and "once per game" in again["error"]
    for task in list(board._announcing):
        await task
    assert [(type(r), u) for r, u in told] == [(Berserked, second)]
    theirs = Page(client, board, match_id, first)
    view = await service.matches.get(match_id)
    await service.matches.play(
        match_id, first, clickable_moves(service.rules("paint"), view.state)[0].notation
    )
    assert "berserk" not in await theirs.buttons()  # moved already


async def test_no_berserk_outside_a_live_arena(service: Service, board: WebBoard, client: Any) -> None:
    match_id = await _match(service, 0)
    page = Page(client, board, match_id, ALICE)
    assert "berserk" not in await page.buttons()
    answer = await page.press("berserk")
    assert not answer["ok"] and "no berserk" in answer["error"]
