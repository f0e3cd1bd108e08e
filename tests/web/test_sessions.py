"""Logins and sessions (issue 40, item 4): an OAuth2 state works once, a logout revokes the session (a copied
cookie dies with it), "log out everywhere" ends every session of the user, a login rotates the session, and
all of it holds across processes over one database."""

from __future__ import annotations

from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

import games
from bot.service import Service
from bot.web.activity import SESSION_HEADER
from bot.web.app import WebBoard
from bot.web.security import SESSION_COOKIE, STATE_COOKIE, match_token
from games.base import resolve_options
from tests.web.conftest import FakeDiscord, code_for

SECRET = "Hq3xZ8pL2mK9wR4tY7uB1nC6dF5gJ0sAe4"
ALICE, BOB = 101, 202
Client = TestClient[web.Request, web.Application]


def _board(service: Service, discord: FakeDiscord) -> WebBoard:
    return WebBoard(
        service,
        secret=SECRET,
        base_url="http://127.0.0.1",
        client_id="555",
        client_secret="the-client-secret",
        api_url=discord.url,
        activity=True,
    )


async def _match(service: Service) -> str:
    rules = games.get("paint")
    match = await service.matches.start(
        "paint",
        resolve_options(rules.options, {}),
        [(ALICE, None), (BOB, None)],
        seed=1,
        rated=False,
        turn_timeout=3600,
        guild_id=None,
        channel_id=1,
    )
    return match_token(SECRET, match.id)


async def _login(client: Client, user: int, discord: FakeDiscord) -> tuple[str, str]:
    """The browser login through the fake Discord: (the session cookie, the callback URL it used)."""
    discord.next_user = user
    start = await client.get("/login?next=/", allow_redirects=False)
    authorize = await client.session.get(start.headers["Location"], allow_redirects=False)
    callback = authorize.headers["Location"].split("/auth/callback", 1)[1]
    done = await client.get("/auth/callback" + callback, allow_redirects=False)
    assert done.status == 302, await done.text()
    client.session.cookie_jar.clear()  # each request below names its session itself
    return done.cookies[SESSION_COOKIE].value, callback


async def _you(client: Client, token: str, cookie: str) -> Any:
    client.session.cookie_jar.clear()
    state = await (
        await client.get(f"/api/m/{token}", headers={"Cookie": f"{SESSION_COOKIE}={cookie}"})
    ).json()
    return state["you"]


def _write_headers(board: WebBoard, cookie: str) -> dict[str, str]:
    session = board.signer.session(cookie)
    assert session is not None
    return {"Cookie": f"{SESSION_COOKIE}={cookie}", "X-CSRF-Token": session.csrf}


async def test_an_oauth_state_is_accepted_once(service: Service, discord: FakeDiscord) -> None:
    board = _board(service, discord)
    async with TestClient(TestServer(board.app())) as client:
        state_cookie = None
        discord.next_user = ALICE
        start = await client.get("/login?next=/", allow_redirects=False)
        state_cookie = start.cookies[STATE_COOKIE].value
        authorize = await client.session.get(start.headers["Location"], allow_redirects=False)
        callback = "/auth/callback" + authorize.headers["Location"].split("/auth/callback", 1)[1]
        headers = {"Cookie": f"{STATE_COOKIE}={state_cookie}"}
        first = await client.get(callback, headers=headers, allow_redirects=False)
        assert first.status == 302
        client.session.cookie_jar.clear()
        replayed = await client.get(callback, headers=headers, allow_redirects=False)
        assert replayed.status == 403 and "already used" in await replayed.text()
        assert len(discord.tokens_asked) == 1  # the replay never reached Discord


async def test_logout_revokes_the_session_and_its_copies(service: Service, discord: FakeDiscord) -> None:
    board = _board(service, discord)
    token = await _match(service)
    async with TestClient(TestServer(board.app())) as client:
        cookie, _ = await _login(client, ALICE, discord)
        assert (await _you(client, token, cookie))["userId"] == str(ALICE)
        copied = cookie
        out = await client.post("/logout", headers=_write_headers(board, cookie))
        assert out.status == 200
        assert await _you(client, token, copied) is None
        move = await client.post(
            f"/api/m/{token}/move", json={"move": "x", "ply": 0}, headers=_write_headers(board, copied)
        )
        assert move.status == 401
        # the Activity's header carries the same session: revoked there too
        header = await client.get(f"/api/m/{token}", headers={SESSION_HEADER: copied})
        assert (await header.json())["you"] is None


async def test_log_out_everywhere_ends_every_session_of_the_user(
    service: Service, discord: FakeDiscord
) -> None:
    board = _board(service, discord)
    token = await _match(service)
    async with TestClient(TestServer(board.app())) as client:
        laptop, _ = await _login(client, ALICE, discord)
        client.session.cookie_jar.clear()
        phone, _ = await _login(client, ALICE, discord)
        client.session.cookie_jar.clear()
        bob, _ = await _login(client, BOB, discord)
        assert laptop != phone
        out = await client.post("/logout/everywhere", headers=_write_headers(board, phone))
        assert out.status == 200
        assert await _you(client, token, laptop) is None and await _you(client, token, phone) is None
        assert (await _you(client, token, bob))["userId"] == str(BOB)  # only Alice's
        client.session.cookie_jar.clear()
        again, _ = await _login(client, ALICE, discord)  # a new login works at once
        assert (await _you(client, token, again))["userId"] == str(ALICE)


async def test_a_login_rotates_the_session(service: Service, discord: FakeDiscord) -> None:
    """A session held (or planted) before a login is revoked by it; the new one has a new id and CSRF
    token."""
    board = _board(service, discord)
    token = await _match(service)
    async with TestClient(TestServer(board.app())) as client:
        planted = board.signer.session_cookie(BOB, "bob", "en")
        client.session.cookie_jar.update_cookies({SESSION_COOKIE: planted})
        fresh, _ = await _login(client, ALICE, discord)
        assert fresh != planted
        old, new = board.signer.session(planted), board.signer.session(fresh)
        assert old is not None and new is not None and (old.sid, old.csrf) != (new.sid, new.csrf)
        assert await _you(client, token, planted) is None
        assert (await _you(client, token, fresh))["userId"] == str(ALICE)
        # the Activity's login rotates as well
        login = await client.post(
            "/api/activity/token", json={"code": code_for(BOB)}, headers={SESSION_HEADER: fresh}
        )
        assert login.status == 200
        assert await _you(client, token, fresh) is None


async def test_a_logout_in_one_process_holds_in_another(service: Service, discord: FakeDiscord) -> None:
    """Two web processes over one database (here two boards over one store): a logout in one, and the
    session is refused by the other; a state used in one cannot be used in the other."""
    one, two = _board(service, discord), _board(service, discord)
    token = await _match(service)
    async with TestClient(TestServer(one.app())) as first, TestClient(TestServer(two.app())) as second:
        cookie, _ = await _login(first, ALICE, discord)
        assert (await _you(second, token, cookie))["userId"] == str(ALICE)
        assert (await first.post("/logout", headers=_write_headers(one, cookie))).status == 200
        assert await _you(second, token, cookie) is None
    assert await one.sessions.use_state("the-state") and not await two.sessions.use_state("the-state")
