"""The web board's server without a browser (aiohttp's test client): capability links, sessions and CSRF,
the OAuth2 state check, rate limits, moves and requests through the service, and live updates from
changes made elsewhere."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

import games
from bot.service import Service
from bot.web.app import WebBoard
from bot.web.security import (
    SESSION_COOKIE,
    RateLimiter,
    Signer,
    match_key,
    match_token,
    parse_token,
    safe_next,
)
from bot.web.wire import expand_clicks, unpacked
from games.base import clickable_moves, resolve_options

SECRET = "k" * 40
ALICE, BOB, EVE = 11, 22, 33


_channels = iter(range(100, 10_000))


async def _start(service: Service, game: str = "paint", guild_id: int | None = None) -> int:
    rules = games.get(game)
    match = await service.matches.start(
        game,
        resolve_options(rules.options, {}),
        [(ALICE, None), (BOB, None)],
        seed=5,
        rated=False,
        turn_timeout=3600,
        guild_id=guild_id,
        channel_id=next(_channels),
    )
    return match.id


@pytest.fixture
async def board(service: Service) -> WebBoard:
    return WebBoard(
        service,
        secret=SECRET,
        base_url="http://web.test",
        client_id="1",
        client_secret="client-secret-value",
        disabled_guilds=[666],
    )


@pytest.fixture
async def client(board: WebBoard) -> AsyncIterator[TestClient[web.Request, web.Application]]:
    async with TestClient(TestServer(board.app())) as c:
        yield c


def _as(board: WebBoard, user: int) -> tuple[dict[str, str], str]:
    cookie = board.signer.session_cookie(user, f"user{user}", "en")
    session = board.signer.session(cookie)
    assert session is not None
    return {"Cookie": f"{SESSION_COOKIE}={cookie}", "X-CSRF-Token": session.csrf}, session.csrf


# ----------------------------------------------------------------------------------------- security


def test_match_keys_are_unguessable_and_checked() -> None:
    token = match_token(SECRET, 7)
    assert parse_token(SECRET, token) == 7
    assert parse_token("another secret" * 3, token) is None
    assert parse_token(SECRET, f"8-{match_key(SECRET, 7)}") is None  # a key opens only its own match
    assert parse_token(SECRET, "7") is None and parse_token(SECRET, "7-") is None
    assert len(match_key(SECRET, 7)) == 22 and match_key(SECRET, 7) != match_key(SECRET, 8)


def test_sessions_are_signed() -> None:
    signer = Signer(SECRET)
    cookie = signer.session_cookie(5, "Ann", "fr")
    session = signer.session(cookie)
    assert session is not None and (session.user_id, session.name, session.locale) == (5, "Ann", "fr")
    assert Signer("x" * 40).session(cookie) is None
    assert signer.session(cookie[:-2] + "AA") is None
    assert signer.session("garbage") is None


def test_only_local_paths_after_login() -> None:
    assert safe_next("/m/1-abc") == "/m/1-abc"
    for bad in ("https://evil.example/", "//evil.example/m/", "/m/\\\\evil", "javascript:alert(1)"):
        assert safe_next(bad) == "/"


def test_rate_limiter_refills() -> None:
    clock = [0.0]
    limiter = RateLimiter(2.0, 3, now=lambda: clock[0])
    assert [limiter.allow("u") for _ in range(4)] == [True, True, True, False]
    assert limiter.allow("v")  # per key
    clock[0] += 0.5
    assert limiter.allow("u") and not limiter.allow("u")


# ----------------------------------------------------------------------------------------- routes


async def test_pages_need_the_right_link(service: Service, board: WebBoard, client: Any) -> None:
    match_id = await _start(service)
    token = match_token(SECRET, match_id)
    page = await client.get(f"/m/{token}")
    assert page.status == 200
    csp = page.headers["Content-Security-Policy"]
    assert "frame-ancestors" in csp and "https://discord.com" in csp and "script-src 'self'" in csp
    for wrong in (
        f"/m/{match_id}",
        f"/m/{match_id}-{'A' * 22}",
        f"/api/m/{match_id + 1}-{token.split('-')[1]}",
    ):
        assert (await client.get(wrong)).status == 404
    assert (await client.get(f"/api/m/{match_token(SECRET, 999)}")).status == 404  # a valid key, no match
    disabled = await _start(service, guild_id=666)
    assert (await client.get(f"/m/{match_token(SECRET, disabled)}")).status == 404


async def test_state_shows_clicks_only_to_the_player_to_move(
    service: Service, board: WebBoard, client: Any
) -> None:
    match_id = await _start(service)
    token = match_token(SECRET, match_id)
    match = await service.matches.get(match_id)
    mover = match.seats[match.to_move].user_id
    other = BOB if mover == ALICE else ALICE
    anonymous = await (await client.get(f"/api/m/{token}")).json()
    assert anonymous["you"] is None and anonymous["clicks"] == []
    assert len(anonymous["scene"]["cells"]) == 81 and anonymous["players"][0]["name"]
    theirs = await (await client.get(f"/api/m/{token}", headers=_as(board, mover)[0])).json()
    expected = clickable_moves(games.get("paint"), match.state)
    assert sorted(expand_clicks(theirs["clicks"], theirs["scene"]["labels"]), key=repr) == sorted(
        expected, key=repr
    )
    alone = await (await client.get(f"/api/m/{token}/clicks", headers=_as(board, mover)[0])).json()
    mine = {"ply": 0, "toMove": match.to_move, "clicks": theirs["clicks"], "actions": theirs["actions"]}
    assert alone == mine
    assert (await (await client.get(f"/api/m/{token}/clicks")).json())["clicks"] == []
    waiting = await (await client.get(f"/api/m/{token}", headers=_as(board, other)[0])).json()
    assert waiting["clicks"] == [] and waiting["you"]["seats"] == [
        match.seats.index(match.seats[1 - match.to_move])
    ]
    text = json.dumps(theirs)
    assert SECRET not in text and "client-secret-value" not in text


async def test_moves_need_a_session_a_csrf_token_and_the_turn(
    service: Service, board: WebBoard, client: Any
) -> None:
    match_id = await _start(service)
    token = match_token(SECRET, match_id)
    match = await service.matches.get(match_id)
    mover = match.seats[match.to_move].user_id
    other = BOB if mover == ALICE else ALICE
    move = clickable_moves(games.get("paint"), match.state)[0].notation
    body = {"move": move, "ply": 0}
    assert (await client.post(f"/api/m/{token}/move", json=body)).status == 401
    headers, _ = _as(board, mover)
    no_csrf = {"Cookie": headers["Cookie"], "X-CSRF-Token": "forged"}
    assert (await client.post(f"/api/m/{token}/move", json=body, headers=no_csrf)).status == 403
    foreign = dict(headers, Origin="https://evil.example")
    assert (await client.post(f"/api/m/{token}/move", json=body, headers=foreign)).status == 403
    not_yours = await client.post(f"/api/m/{token}/move", json=body, headers=_as(board, other)[0])
    assert not_yours.status == 409 and "turn" in (await not_yours.json())["error"].lower()
    outsider = await client.post(f"/api/m/{token}/move", json=body, headers=_as(board, EVE)[0])
    assert outsider.status == 409
    illegal = await client.post(f"/api/m/{token}/move", json={"move": "a1-i9", "ply": 0}, headers=headers)
    assert illegal.status == 409 and (await illegal.json())["error"]
    assert (await service.matches.get(match_id)).ply == 0
    played = await client.post(f"/api/m/{token}/move", json=body, headers=headers)
    assert (await played.json()) == {"ok": True}
    assert (await service.matches.moves(match_id))[0].notation == move
    stale = await client.post(f"/api/m/{token}/move", json=body, headers=_as(board, other)[0])
    assert stale.status == 409  # the board they saw is no longer current


async def test_moves_are_rate_limited_per_user(service: Service, board: WebBoard, client: Any) -> None:
    match_id = await _start(service)
    token = match_token(SECRET, match_id)
    headers, _ = _as(board, EVE)
    statuses = [
        (await client.post(f"/api/m/{token}/move", json={"move": "x", "ply": 0}, headers=headers)).status
        for _ in range(14)
    ]
    assert statuses[:10] == [409] * 10 and 429 in statuses[10:]
    assert (
        await client.post(f"/api/m/{token}/move", json={"move": "x", "ply": 0}, headers=_as(board, ALICE)[0])
    ).status != 429


async def test_takeback_and_abort_requests(service: Service, board: WebBoard, client: Any) -> None:
    match_id = await _start(service)
    token = match_token(SECRET, match_id)
    rules = games.get("paint")
    for _ in range(2):
        match = await service.matches.get(match_id)
        await service.matches.play(
            match_id, match.seats[match.to_move].user_id, clickable_moves(rules, match.state)[0].notation
        )
    match = await service.matches.get(match_id)
    last_mover = match.seats[1 - match.to_move].user_id
    other = match.seats[match.to_move].user_id
    asked = await client.post(
        f"/api/m/{token}/action", json={"action": "takeback"}, headers=_as(board, last_mover)[0]
    )
    assert (await asked.json())["ok"]
    state = await (await client.get(f"/api/m/{token}")).json()
    assert state["pending"]["kind"] == "takeback"
    await client.post(f"/api/m/{token}/action", json={"action": "accept"}, headers=_as(board, other)[0])
    match = await service.matches.get(match_id)
    assert match.ply == 1
    move = clickable_moves(rules, match.state)[0].notation
    await service.matches.play(match_id, match.seats[match.to_move].user_id, move)
    await client.post(f"/api/m/{token}/action", json={"action": "abort"}, headers=_as(board, ALICE)[0])
    assert (await (await client.get(f"/api/m/{token}")).json())["pending"]["kind"] == "abort"
    await client.post(f"/api/m/{token}/action", json={"action": "accept"}, headers=_as(board, BOB)[0])
    assert not (await service.matches.get(match_id)).is_active
    bad = await client.post(f"/api/m/{token}/action", json={"action": "win"}, headers=_as(board, BOB)[0])
    assert bad.status == 400


async def test_oauth_state_must_match(board: WebBoard, client: Any, caplog: pytest.LogCaptureFixture) -> None:
    start = await client.get("/login?next=/m/1-x", allow_redirects=False)
    assert start.status == 302
    location = start.headers["Location"]
    assert "scope=identify" in location and "state=" in location and "client-secret-value" not in location
    forged = await client.get("/auth/callback?code=abc&state=not-the-one", allow_redirects=False)
    assert forged.status == 403
    assert "client-secret-value" not in caplog.text and "abc" not in caplog.text


async def test_a_change_made_elsewhere_reaches_the_stream(
    service: Service, board: WebBoard, client: Any
) -> None:
    """A move through the service (a /move in Discord, the bot) reaches an open event stream, pushed by the
    service's match listener (how fast is bench/web_live.py's measure, not a test's: no test depends on the
    machine's speed)."""
    match_id = await _start(service)
    token = match_token(SECRET, match_id)
    stream = await client.get(f"/api/m/{token}/events")
    assert stream.headers["Content-Type"] == "text/event-stream"
    assert (await stream.content.readline()).startswith(b"retry:")
    await asyncio.sleep(0.05)
    match = await service.matches.get(match_id)
    move = clickable_moves(games.get("paint"), match.state)[0].notation
    await service.matches.play(match_id, match.seats[match.to_move].user_id, move)
    while True:  # (a spectator's stream first hears itself counted)
        line = await asyncio.wait_for(stream.content.readline(), 60)  # only a hang reaches it
        if line.startswith(b"data: ") and json.loads(line[6:])["ply"] == 1:
            break
    state = unpacked(line[6:])
    assert state["ply"] == 1 and state["moves"][0]["notation"] == move and state["movesFrom"] == 0
    assert "clicks" not in state and "texts" not in state  # no private moves; nothing that never changes
    assert state["scene"]["ply"] == 1  # the stream's first event: the whole scene, nothing to diff from
    match = await service.matches.get(match_id)
    second = clickable_moves(games.get("paint"), match.state)[0].notation
    await service.matches.play(match_id, match.seats[match.to_move].user_id, second)
    while True:
        line = await asyncio.wait_for(stream.content.readline(), 60)
        if line.startswith(b"data: "):
            break
    state = unpacked(line[6:])
    assert "scene" not in state and (state["diff"]["before"], state["diff"]["after"]) == (1, 2)
    assert state["movesFrom"] == 1 and [m["notation"] for m in state["moves"]] == [second]
    stream.close()


async def test_board_images_of_every_ply(service: Service, board: WebBoard, client: Any) -> None:
    match_id = await _start(service)
    token = match_token(SECRET, match_id)
    match = await service.matches.get(match_id)
    await service.matches.play(
        match_id,
        match.seats[match.to_move].user_id,
        clickable_moves(games.get("paint"), match.state)[0].notation,
    )
    first = await client.get(f"/api/m/{token}/board/0.png?theme=colorblind&lang=ja")
    now = await client.get(f"/api/m/{token}/board/1.png")
    assert first.status == now.status == 200 and first.content_type == "image/png"
    assert await first.read() != await now.read()
    assert (await client.get(f"/api/m/{token}/board/2.png")).status == 404


async def test_the_move_list_follows_moves_and_takebacks(
    service: Service, board: WebBoard, client: Any
) -> None:
    """The page's move list (kept up to date move by move) is always the service's, a takeback included."""
    match_id = await _start(service, "paintscape")
    token = match_token(SECRET, match_id)
    rules = games.get("paintscape")

    async def check() -> None:
        shown = (await (await client.get(f"/api/m/{token}")).json())["moves"]
        expected = await service.matches.moves(match_id)
        assert [(m["ply"], m["notation"], m["text"], m["number"]) for m in shown] == [
            (m.ply, m.notation, m.description, m.number) for m in expected
        ]

    for _ in range(4):
        match = await service.matches.get(match_id)
        mover = match.seats[match.to_move].user_id
        await service.matches.play(match_id, mover, clickable_moves(rules, match.state)[-1].notation)
        await check()
    asker = (await service.matches.moves(match_id))[-1].user_id
    await service.agreements.request_takeback(match_id, asker)
    await service.agreements.accept_takeback(match_id, BOB if asker == ALICE else ALICE)
    await check()
    match = await service.matches.get(match_id)
    assert match.ply == 3
    await service.matches.play(match_id, match.seats[match.to_move].user_id, "done")
    await check()


async def test_turning_points_of_an_analysed_match(service: Service) -> None:
    """A finished match that was analysed shows its turning points, in move order; before the end, none."""
    from games.ai.analysis import MatchAnalysis, MoveReview

    late = MoveReview(ply=3, seat=1, played="c9-c8", preferred="d9-d7", before=0.6, after=0.3)
    early = MoveReview(ply=0, seat=0, played="b1-b2", preferred="c1-c3", before=0.5, after=0.4)
    analysis = MatchAnalysis(reviews=(early, late), turning_points=((early,), (late,)), iterations=10)
    known: dict[int, MatchAnalysis] = {}
    board = WebBoard(service, secret=SECRET, base_url="http://web.test", analysed=known.get)
    match_id = await _start(service)
    known[match_id] = analysis
    async with TestClient(TestServer(board.app())) as client:
        token = match_token(SECRET, match_id)
        assert (await (await client.get(f"/api/m/{token}")).json())["turningPoints"] == []
        await service.matches.resign(match_id, ALICE)
        points = (await (await client.get(f"/api/m/{token}")).json())["turningPoints"]
    assert [(p["ply"], p["played"], p["preferred"]) for p in points] == [
        (0, "b1-b2", "c1-c3"),
        (3, "c9-c8", "d9-d7"),
    ]
    assert points[1]["drop"] == pytest.approx(0.3)


async def test_the_page_speaks_the_viewers_language(service: Service, board: WebBoard, client: Any) -> None:
    """Words, board status, move descriptions and the image's alt text in the viewer's language: asked for,
    else the session's (their Discord language), else the browser's."""
    from bot.i18n import tr_for

    match_id = await _start(service, "paintscape")
    token = match_token(SECRET, match_id)
    asked = await (await client.get(f"/api/m/{token}?lang=ja")).json()
    assert asked["texts"]["moves"] == tr_for("ja")("Moves") != "Moves"
    assert asked["locale"] == "ja" and "手目" in asked["status"]
    browser = await (
        await client.get(f"/api/m/{token}", headers={"Accept-Language": "de-DE,de;q=0.9"})
    ).json()
    assert browser["locale"] == "de" and browser["texts"]["resign"] == tr_for("de")("Resign")
    cookie = board.signer.session_cookie(ALICE, "Ann", "pl")
    session = await (
        await client.get(f"/api/m/{token}", headers={"Cookie": f"{SESSION_COOKIE}={cookie}"})
    ).json()
    assert session["locale"] == "pl"
    english = await (await client.get(f"/api/m/{token}?lang=xx")).json()
    assert english["locale"] == "en" and english["texts"]["moves"] == "Moves"


async def test_board_images_are_cached_only_while_they_cannot_change(service: Service, client: Any) -> None:
    match_id = await _start(service)
    token = match_token(SECRET, match_id)
    image = (await (await client.get(f"/api/m/{token}")).json())["image"]
    assert "immutable" in (await client.get(image)).headers["Cache-Control"]
    match = await service.matches.get(match_id)
    await service.matches.play(
        match_id,
        match.seats[match.to_move].user_id,
        clickable_moves(games.get("paint"), match.state)[0].notation,
    )
    assert (await client.get(image.replace("/0.png", "/1.png"))).headers[
        "Cache-Control"
    ] == "no-store"  # old version
    assert (await client.get(f"/api/m/{token}/board/0.png")).headers[
        "Cache-Control"
    ] == "no-store"  # a takeback may come
    fresh = (await (await client.get(f"/api/m/{token}")).json())["image"]
    assert fresh != image and "immutable" in (await client.get(fresh)).headers["Cache-Control"]


async def test_a_ply_s_board_after_takebacks_and_other_moves_is_the_new_one(
    service: Service, client: Any
) -> None:
    """The server's image cache never serves a board a takeback replaced: ply 1 drawn as a past ply, both
    moves taken back, other moves played, and the image of ply 1 is the new first move's."""
    match_id = await _start(service)
    token = match_token(SECRET, match_id)
    rules = games.get("paint")

    async def play(pick: int) -> None:
        match = await service.matches.get(match_id)
        legal = clickable_moves(rules, match.state)
        await service.matches.play(match_id, match.seats[match.to_move].user_id, legal[pick].notation)

    async def take_back() -> None:
        asker = (await service.matches.moves(match_id))[-1].user_id
        await service.agreements.request_takeback(match_id, asker)
        await service.agreements.accept_takeback(match_id, BOB if asker == ALICE else ALICE)

    await play(0)
    await play(0)
    first = await (await client.get(f"/api/m/{token}/board/1.png")).read()
    await take_back()
    await take_back()
    assert (await service.matches.get(match_id)).ply == 0
    await play(-1)
    await play(0)
    again = await (await client.get(f"/api/m/{token}/board/1.png")).read()
    assert again != first
