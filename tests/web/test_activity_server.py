"""The Activity's server side without a browser: the code exchange (the client secret stays on the server),
the session in a header, Discord's proxy origin for writes, the channel's match, starting and accepting with
/play's checks, and what production's headers allow to frame the page."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

import games
from bot.service import Service
from bot.web.activity import SESSION_HEADER
from bot.web.app import WebBoard
from bot.web.discord_api import DiscordRest
from bot.web.security import match_token
from bot.web.wire import expand_clicks
from games.base import resolve_options
from tests.web.conftest import BOT_TOKEN, FakeDiscord, code_for, free_port

SECRET = "q" * 8 + "Hq3xZ8pL2mK9wR4tY7uB1nC6dF5gJ0sA"  # random-looking: the settings refuse guessable ones
CLIENT_ID = "555"
GUILD = 77
ALICE, BOB = 101, 202
Client = TestClient[web.Request, web.Application]


@pytest.fixture
async def discord() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord(free_port())
    runner = web.AppRunner(fake.app())
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", fake.port).start()
    yield fake
    await runner.cleanup()


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[Service]:
    service = await Service.open(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    yield service
    await service.close()


def _board(service: Service, discord: FakeDiscord, **kwargs: Any) -> WebBoard:
    return WebBoard(
        service,
        secret=SECRET,
        base_url="https://tessera.example",
        client_id=CLIENT_ID,
        client_secret="the-client-secret",
        api_url=discord.url,
        disabled_guilds=[666],
        rest=DiscordRest(discord.url, BOT_TOKEN),
        **kwargs,
    )


@pytest.fixture
async def client(service: Service, discord: FakeDiscord) -> AsyncIterator[Client]:
    async with TestClient(TestServer(_board(service, discord, activity=True).app())) as c:
        yield c


async def _login(client: Client, user: int) -> dict[str, Any]:
    answer = await client.post("/api/activity/token", json={"code": code_for(user)})
    assert answer.status == 200, await answer.text()
    data: dict[str, Any] = await answer.json()
    client.session.cookie_jar.clear()  # inside Discord's frame the cookie may never come back
    return data


def _headers(login: dict[str, Any], origin: str | None = None) -> dict[str, str]:
    headers = {SESSION_HEADER: login["session"], "X-CSRF-Token": login["csrf"]}
    if origin:
        headers["Origin"] = origin
    return headers


async def _start(service: Service, channel: int, guild: int | None = GUILD) -> int:
    rules = games.get("paint")
    match = await service.matches.start(
        "paint",
        resolve_options(rules.options, {}),
        [(ALICE, None), (BOB, None)],
        seed=1,
        rated=False,
        turn_timeout=3600,
        guild_id=guild,
        channel_id=channel,
    )
    return match.id


async def test_the_code_is_exchanged_on_the_server(client: Client, discord: FakeDiscord) -> None:
    login = await _login(client, ALICE)
    assert login["user"] == {"id": str(ALICE), "name": "Alice", "locale": "en"}
    assert login["accessToken"] == f"token-{ALICE}"  # for the SDK's authenticate: the user's own token
    assert discord.tokens_asked == [{"grant_type": "authorization_code", "code": code_for(ALICE)}]
    assert "the-client-secret" not in str(login)
    config = await (await client.get("/api/activity/config")).json()
    assert config["clientId"] == CLIENT_ID and "the-client-secret" not in str(config)
    assert (await client.post("/api/activity/token", json={"code": "stolenstolenstolen"})).status == 502
    assert (await client.post("/api/activity/token", json={})).status == 400


async def test_the_session_header_is_the_browser_session(client: Client, service: Service) -> None:
    match_id = await _start(service, 10)
    token = match_token(SECRET, match_id)
    login = await _login(client, ALICE)
    anonymous = await (await client.get(f"/api/m/{token}")).json()
    assert anonymous["you"] is None
    mine = await (await client.get(f"/api/m/{token}", headers=_headers(login))).json()
    assert mine["you"]["userId"] == str(ALICE) and mine["clicks"]
    move = expand_clicks(mine["clicks"], mine["scene"]["labels"])[0].notation
    proxy = f"https://{CLIENT_ID}.discordsays.com"
    other = await client.post(
        f"/api/m/{token}/move", json={"move": move, "ply": 0}, headers=_headers(login, "https://evil.example")
    )
    assert other.status == 403
    played = await client.post(
        f"/api/m/{token}/move", json={"move": move, "ply": 0}, headers=_headers(login, proxy)
    )
    assert (await played.json()) == {"ok": True}
    assert (await service.matches.get(match_id)).ply == 1
    forged = {SESSION_HEADER: login["session"][:-2] + "xx"}
    assert (await (await client.get(f"/api/m/{token}", headers=forged)).json())["you"] is None


async def test_the_channel_selects_its_match(client: Client, service: Service) -> None:
    assert (await client.get("/api/activity/channel?channel_id=20")).status == 401
    login = await _login(client, BOB)
    here = await _start(service, 20)
    elsewhere = await _start(service, 21)
    other_guild = await _start(service, 22, guild=999)
    answer = await client.get(
        f"/api/activity/channel?channel_id=20&guild_id={GUILD}&instance_id=i-20-{GUILD}",
        headers=_headers(login),
    )
    data = await answer.json()
    assert data["match"] == {"id": here, "game": "Paint", "path": f"/m/{match_token(SECRET, here)}"}
    assert [m["id"] for m in data["mine"]] == [elsewhere]  # Bob's other match in this server
    assert {g["id"] for g in data["games"]} == set(games.GAME_IDS)
    wrong = await client.get(
        f"/api/activity/channel?channel_id=22&guild_id={GUILD}&instance_id=i-22-{GUILD}",
        headers=_headers(login),
    )
    assert (await wrong.json())["match"] is None, "a channel id from another server shows nothing"
    assert other_guild not in [m["id"] for m in (await wrong.json())["mine"]]
    off = await client.get("/api/activity/channel?channel_id=20&guild_id=666", headers=_headers(login))
    assert off.status == 404
    bad = await client.get("/api/activity/channel?channel_id=abc", headers=_headers(login))
    assert bad.status == 400


async def test_starting_follows_play(client: Client, service: Service) -> None:
    alice, bob = await _login(client, ALICE), await _login(client, BOB)
    body = {
        "channel_id": "30",
        "guild_id": str(GUILD),
        "instance_id": f"i-30-{GUILD}",
        "game": "tilingking",
        "opponent": "bot",
    }
    wrong = await client.post(
        "/api/activity/start", json=body | {"options": "colour=red"}, headers=_headers(alice)
    )
    assert wrong.status == 409 and "`colour` is not an option of TilingKing" in (await wrong.json())["error"]
    odd = await client.post("/api/activity/start", json=body | {"options": "board"}, headers=_headers(alice))
    assert odd.status == 409
    started = await client.post(
        "/api/activity/start", json=body | {"options": "board=sq9"}, headers=_headers(alice)
    )
    data = await started.json()
    assert data["ok"], data
    match = await service.matches.in_channel(30)
    assert match.options["board"] == "sq9" and {s.user_id for s in match.seats} == {ALICE, int(CLIENT_ID)}
    assert data["match"]["path"] == f"/m/{match_token(SECRET, match.id)}"
    busy = await client.post("/api/activity/start", json=body, headers=_headers(bob))
    assert busy.status == 409  # one match per channel, as /play
    # a challenge, accepted by the one challenged only
    ask = body | {"channel_id": "31", "instance_id": f"i-31-{GUILD}", "game": "paint", "opponent": str(BOB)}
    challenge = (await (await client.post("/api/activity/start", json=ask, headers=_headers(alice))).json())[
        "challenge"
    ]
    not_you = await client.post(
        "/api/activity/accept", json={"challenge_id": challenge}, headers=_headers(alice)
    )
    assert not_you.status == 409
    listed = await client.get(
        f"/api/activity/channel?channel_id=31&guild_id={GUILD}&instance_id=i-31-{GUILD}",
        headers=_headers(bob),
    )
    assert [(c["id"], c["yours"]) for c in (await listed.json())["challenges"]] == [(challenge, True)]
    accepted = await client.post(
        "/api/activity/accept", json={"challenge_id": challenge}, headers=_headers(bob)
    )
    assert (await accepted.json())["ok"]
    assert (await service.matches.in_channel(31)).game == "paint"
    no_csrf = await client.post("/api/activity/start", json=ask, headers={SESSION_HEADER: alice["session"]})
    assert no_csrf.status == 403


async def test_pages_and_frame_ancestors(client: Client, service: Service, discord: FakeDiscord) -> None:
    activity_page = await client.get("/?frame_id=f&instance_id=i&platform=desktop")
    text = await activity_page.text()
    assert 'type="module" src="/static/activity/activity.js"' in text and "/static/app.js" not in text
    assert "the-client-secret" not in text
    csp = activity_page.headers["Content-Security-Policy"]
    ancestors = csp.split("frame-ancestors ", 1)[1].split(";")[0].split()
    assert ancestors == [
        "'self'",
        "https://discord.com",
        "https://ptb.discord.com",
        "https://canary.discord.com",
        "https://*.discordsays.com",
    ]
    token = match_token(SECRET, await _start(service, 40))
    assert "activity.js" in await (await client.get(f"/m/{token}?frame_id=f")).text()
    assert "activity.js" not in await (await client.get(f"/m/{token}")).text()
    module = await client.get("/static/vendor/discord-embedded-app-sdk/index.mjs")
    assert module.status == 200 and "javascript" in module.headers["Content-Type"]
    async with TestClient(TestServer(_board(service, discord).app())) as plain:
        assert (await plain.get("/api/activity/config")).status == 404
        assert "activity.js" not in await (await plain.get("/?frame_id=f")).text()


async def test_a_forged_channel_is_refused(client: Client, service: Service, discord: FakeDiscord) -> None:
    """The page names its channel; Discord names the instance's: a page that names another channel (or a
    user outside the instance, or an instance Discord does not know) selects nothing and starts nothing."""
    here = await _start(service, 40)
    login = await _login(client, BOB)
    ok = await client.get(
        f"/api/activity/channel?channel_id=40&guild_id={GUILD}&instance_id=i-40-{GUILD}",
        headers=_headers(login),
    )
    assert (await ok.json())["match"]["id"] == here
    for query in (
        f"channel_id=40&guild_id={GUILD}&instance_id=i-41-{GUILD}",  # the instance runs in channel 41
        f"channel_id=40&guild_id={GUILD}&instance_id=i-40-78",  # ... in another server
        f"channel_id=40&guild_id={GUILD}&instance_id=unknown",  # Discord knows no such instance
    ):
        forged = await client.get(f"/api/activity/channel?{query}", headers=_headers(login))
        assert forged.status == 403, query
    missing = await client.get(
        f"/api/activity/channel?channel_id=40&guild_id={GUILD}", headers=_headers(login)
    )
    assert missing.status == 400
    discord.instances["alone"] = {"channel_id": "40", "guild_id": str(GUILD), "users": [str(ALICE)]}
    outsider = await client.get(
        f"/api/activity/channel?channel_id=40&guild_id={GUILD}&instance_id=alone", headers=_headers(login)
    )
    assert outsider.status == 403, "Bob is not in that instance"
    start = {"channel_id": "40", "guild_id": str(GUILD), "instance_id": f"i-41-{GUILD}", "game": "paint"}
    refused = await client.post(
        "/api/activity/start", json=start | {"opponent": "bot"}, headers=_headers(login)
    )
    assert refused.status == 403
    assert all("fake-bot-token" not in path for path in discord.bot_asked)


async def test_names_come_from_discord_once(discord: FakeDiscord) -> None:
    """A web process of its own names players through Discord (`GET /users/{id}`, bot token), once per user
    however many pages ask; unknown users are left out; the token is never in a repr."""
    rest = DiscordRest(discord.url, BOT_TOKEN)
    try:
        first = await rest.names([ALICE, BOB, 999])
        again = await rest.names([BOB, ALICE])
        assert first == {ALICE: "Alice", BOB: "Bob"} and again == {BOB: "Bob", ALICE: "Alice"}
        assert sorted(discord.bot_asked) == ["/users/101", "/users/202", "/users/999"]
        assert BOT_TOKEN not in repr(rest)
    finally:
        await rest.close()


async def test_a_web_process_of_its_own_shows_names(
    service: Service, discord: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    """`python -m bot web` with DISCORD_TOKEN names the players as Discord does (without it, Player 1 and
    2); the token is in no page, no answer and no log line."""
    from bot.settings import load_web_settings
    from bot.web import serve

    match_id = await _start(service, 50)
    settings = load_web_settings(  # type: ignore[call-arg]
        _env_file=None, web_secret=SECRET, discord_token=BOT_TOKEN, discord_api_url=discord.url
    )
    board = serve.board_alone(settings, service)
    try:
        async with TestClient(TestServer(board.app())) as web_client:
            token = match_token(SECRET, match_id)
            state = await (await web_client.get(f"/api/m/{token}")).json()
            assert [p["name"] for p in state["players"]] == ["Alice", "Bob"]
            page = await (await web_client.get(f"/m/{token}")).text()
            assert BOT_TOKEN not in page and BOT_TOKEN not in json.dumps(state)
    finally:
        await board.close()
    assert BOT_TOKEN not in caplog.text
    tokenless = serve.board_alone(load_web_settings(_env_file=None, web_secret=SECRET), service)  # type: ignore[call-arg]
    async with TestClient(TestServer(tokenless.app())) as web_client:
        state = await (await web_client.get(f"/api/m/{match_token(SECRET, match_id)}")).json()
        assert [p["name"] for p in state["players"]] == ["Player 1", "Player 2"]


async def test_the_activity_starts_a_live_match_with_the_games_presets(
    client: Client, service: Service
) -> None:
    """The start form offers each game's live presets; a clock chosen there makes the match live, and a
    bad one is refused with what to type (issue 43)."""
    alice = await _login(client, ALICE)
    listed = await client.get(
        f"/api/activity/channel?channel_id=40&guild_id={GUILD}&instance_id=i-40-{GUILD}",
        headers=_headers(alice),
    )
    clocks = {g["id"]: g["clocks"] for g in (await listed.json())["games"]}
    assert clocks["paintscape"] == ["3+2", "5+3", "10+5"]
    body = {"channel_id": "40", "guild_id": str(GUILD), "instance_id": f"i-40-{GUILD}", "game": "paint"}
    bad = await client.post(
        "/api/activity/start", json=body | {"opponent": "bot", "clock": "soon"}, headers=_headers(alice)
    )
    assert bad.status == 409 and "minutes+seconds" in (await bad.json())["error"]
    started = await client.post(
        "/api/activity/start", json=body | {"opponent": "bot", "clock": "3+2"}, headers=_headers(alice)
    )
    assert (await started.json())["ok"]
    match = await service.matches.in_channel(40)
    assert match.time_control is not None and match.time_control.text == "3+2"
