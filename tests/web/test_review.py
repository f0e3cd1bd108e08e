"""The analysis on the page: turning points with the cells of the move played and of the better one (the
page's arrow), and the Analyse button running the bot process's analysis, its progress and result reaching
the page; a spectator count; a stream that opens behind the match catching up at once."""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

import games
from bot.service import Service
from bot.service.ai import AIRunner
from bot.service.analysis import Analyses
from bot.web.app import WebBoard
from bot.web.security import SESSION_COOKIE, match_token
from bot.web.wire import unpacked
from games.ai.analysis import Budget, MatchAnalysis, MoveReview
from games.base import clickable_moves, resolve_options

SECRET = "a" * 40
ALICE, BOB = 11, 22


def _headers(board: WebBoard, user: int) -> dict[str, str]:
    cookie = board.signer.session_cookie(user, "someone", "en")
    session = board.signer.session(cookie)
    assert session is not None
    return {"Cookie": f"{SESSION_COOKIE}={cookie}", "X-CSRF-Token": session.csrf}


async def _finished_paint(service: Service, moves: int = 4) -> tuple[int, list[str]]:
    rules = games.get("paint")
    match = await service.matches.start(
        "paint",
        resolve_options(rules.options, {}),
        [(ALICE, None), (BOB, None)],
        seed=5,
        rated=False,
        turn_timeout=3600,
        guild_id=None,
        channel_id=1,
    )
    played = []
    for _ in range(moves):
        view = await service.matches.get(match.id)
        move = clickable_moves(rules, view.state)[0].notation
        played.append(move)
        await service.matches.play(match.id, view.seats[view.to_move].user_id, move)
    await service.matches.resign(match.id, ALICE)
    return match.id, played


async def test_turning_points_carry_the_cells_of_both_moves(service: Service) -> None:
    match_id, played = await _finished_paint(service)
    rules = games.get("paint")
    state = rules.new(2, resolve_options(rules.options, {}), 5)
    state = rules.apply(state, rules.parse(state, played[0]))
    options = clickable_moves(rules, state)
    better = next(c for c in options if c.notation != played[1])
    mine = next(c for c in options if c.notation == played[1])
    review = MoveReview(ply=1, seat=1, played=played[1], preferred=better.notation, before=0.7, after=0.2)
    analysis = MatchAnalysis(reviews=(review,), turning_points=((), (review,)), iterations=10)
    board = WebBoard(service, secret=SECRET, base_url="http://web.test", analysed={match_id: analysis}.get)
    async with TestClient(TestServer(board.app())) as client:
        state_json = await (await client.get(f"/api/m/{match_token(SECRET, match_id)}")).json()
    [point] = state_json["turningPoints"]
    assert point["playedCells"] == list(mine.cells)
    assert point["preferredCells"] == list(better.cells)
    assert point["preferredOrdered"] is True  # a slide: the page draws an arrow along it
    assert state_json["canAnalyse"] is False, "a board without the bot's analyses offers no button"


async def test_the_analyse_button_runs_the_analysis_and_the_page_hears_it(service: Service) -> None:
    runner = AIRunner(workers=1, iterations=20)
    analyses = Analyses(service.matches, runner, budget=Budget(first=20, deep=20, total=80, turning_points=1))
    board = WebBoard(service, secret=SECRET, base_url="http://web.test", analyses=lambda: analyses)
    try:
        match_id, _ = await _finished_paint(service, 3)
        token = match_token(SECRET, match_id)
        async with TestClient(TestServer(board.app())) as client:
            first = await (await client.get(f"/api/m/{token}")).json()
            assert first["canAnalyse"] is True and first["turningPoints"] == []
            anonymous = await client.post(f"/api/m/{token}/analyse", json={})
            assert anonymous.status == 401
            answer = await client.post(f"/api/m/{token}/analyse", json={}, headers=_headers(board, BOB))
            assert (await answer.json()) == {"ok": True}
            for _ in range(400):
                if analyses.cached(match_id) is not None and board.review.progress(match_id) is None:
                    break
                await asyncio.sleep(0.05)
            done = await (await client.get(f"/api/m/{token}")).json()
            assert done["analysis"] is None
            assert analyses.cached(match_id) is not None
            expected = [p.ply for seat in analyses.cached(match_id).turning_points for p in seat]
            assert sorted(p["ply"] for p in done["turningPoints"]) == sorted(expected)
    finally:
        await board.close()
        await runner.aclose()


async def test_an_active_match_is_not_analysed(service: Service) -> None:
    runner = AIRunner(workers=1, iterations=20)
    analyses = Analyses(service.matches, runner)
    board = WebBoard(service, secret=SECRET, base_url="http://web.test", analyses=lambda: analyses)
    try:
        rules = games.get("paint")
        match = await service.matches.start(
            "paint",
            resolve_options(rules.options, {}),
            [(ALICE, None), (BOB, None)],
            seed=5,
            rated=False,
            turn_timeout=3600,
            guild_id=None,
            channel_id=2,
        )
        async with TestClient(TestServer(board.app())) as client:
            answer = await client.post(
                f"/api/m/{match_token(SECRET, match.id)}/analyse", json={}, headers=_headers(board, ALICE)
            )
            data = await answer.json()
            assert answer.status == 409 and not data["ok"] and "still being played" in data["error"]
    finally:
        await runner.aclose()


async def _frame(stream: Any, wanted: Any = lambda frame: True) -> dict[str, Any]:
    """The next state event of an event stream that is `wanted`."""
    while True:
        line = await asyncio.wait_for(stream.content.readline(), 5)
        if line.startswith(b"data: "):
            frame = unpacked(line[6:])
            if wanted(frame):
                return frame


async def test_spectators_are_counted_and_a_late_stream_catches_up(service: Service) -> None:
    board = WebBoard(service, secret=SECRET, base_url="http://web.test")
    board.hub.recount_delay = 0.05
    rules = games.get("paint")
    match = await service.matches.start(
        "paint",
        resolve_options(rules.options, {}),
        [(ALICE, None), (BOB, None)],
        seed=5,
        rated=False,
        turn_timeout=3600,
        guild_id=None,
        channel_id=3,
    )
    token = match_token(SECRET, match.id)
    async with TestClient(TestServer(board.app())) as client:
        player = await client.get(f"/api/m/{token}/events?ply=0", headers=_headers(board, ALICE))
        assert (await (await client.get(f"/api/m/{token}")).json())["spectators"] == 0
        watcher = await client.get(f"/api/m/{token}/events?ply=0")
        counted = await _frame(player)
        assert counted["spectators"] == 1 and counted["ply"] == 0
        move = clickable_moves(rules, match.state)[0].notation
        await service.matches.play(match.id, ALICE, move)
        moved = await _frame(watcher, lambda f: f["ply"] == 1)
        assert moved["spectators"] == 1
        late = await client.get(f"/api/m/{token}/events?ply=0")  # a page that fetched ply 0 before the move
        caught = await _frame(late)
        assert caught["ply"] == 1, "the stream sends the newer state at once"
        current = await client.get(f"/api/m/{token}/events?ply=1", headers=_headers(board, BOB))
        watcher.close()
        late.close()
        left = await _frame(current, lambda f: f["spectators"] == 0)  # the spectators who left
        assert left["ply"] == 1
        for stream in (player, current):
            stream.close()
    await board.close()
