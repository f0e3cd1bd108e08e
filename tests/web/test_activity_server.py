"""The Activity's server side without a browser: the code exchange (the client secret stays on the server),
the session in a header, Discord's proxy origin for writes, the channel's match, starting and accepting with
/play's checks, and what production's headers allow to frame the page."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
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
from tests.web.conftest import BOT_TOKEN, FakeDiscord, code_for

SECRET = "q" * 8 + "Hq3xZ8pL2mK9wR4tY7uB1nC6dF5gJ0sA"  # random-looking: the settings refuse guessable ones
CLIENT_ID = "555"
GUILD = 77
ALICE, BOB = 101, 202
Client = TestClient[web.Request, web.Application]


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
    beside = await (await client.post("/api/activity/start", json=body, headers=_headers(bob))).json()
    assert beside["ok"], "the channel has its main match: the Activity starts a side table beside it"
    assert (await service.matches.get(beside["match"]["id"])).side
    assert (await service.matches.in_channel(30)).id == match.id, "the channel's commands keep the main one"
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
    assert "viewport-fit=cover" in text, (
        "the Activity takes the whole screen; activity.css keeps the safe areas"
    )
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


# ------------------------------------------------------------------------------------- issue 44


CAROL, DAVE = 303, 404


def _where(channel: int) -> dict[str, str]:
    return {"channel_id": str(channel), "guild_id": str(GUILD), "instance_id": f"i-{channel}-{GUILD}"}


async def test_the_start_screen_offers_every_game_as_cards(client: Client, service: Service) -> None:
    """Every registered game (plugins included) has a card: its seats, a picture (a PNG of a new board), its
    declared options as controls, and the bot's rating at each level; the presets and the tables come too."""
    login = await _login(client, ALICE)
    here = await _start(service, 40)
    query = "&".join(f"{k}={v}" for k, v in _where(40).items())
    data = await (await client.get(f"/api/activity/channel?{query}", headers=_headers(login))).json()
    cards = {g["id"]: g for g in data["games"]}
    assert set(cards) == set(games.GAME_IDS)
    tk = cards["tilingking"]
    assert tk["seats"] == [2, 3, 4]
    controls = {c["name"]: c for c in tk["controls"]}
    assert controls["board"]["kind"] == "select" and "hex5" in controls["board"]["choices"]
    assert controls["reflections"]["kind"] == "toggle" and controls["reflections"]["default"] is True
    assert controls["size"] == controls["size"] | {"kind": "slider", "min": 0, "max": 19}
    assert controls["first"]["kind"] == "select", "who moves first, for two"
    assert {c["name"]: c["kind"] for c in cards["paint"]["controls"]}["move_cap"] == "number"
    assert set(tk["ratings"]) == {str(n) for n in range(1, 9)}
    assert tk["ratings"]["1"] < tk["ratings"]["8"]
    assert [p["id"] for p in data["presets"]] == ["quick", "standard", "long"]
    assert [t["id"] for t in data["tables"]] == [here] and data["tables"][0]["here"] is True
    picture = await client.get(tk["picture"])
    assert picture.status == 200 and (await picture.read()).startswith(b"\x89PNG")
    assert (await client.get("/api/activity/picture/chess.png")).status == 404


async def test_picked_people_must_be_in_the_instance(
    client: Client, service: Service, discord: FakeDiscord
) -> None:
    """Only people Discord says are in the instance can be picked; one picked person gets a challenge with
    the preset's turn time, casual when asked."""
    discord.instances["i-41-77"] = {"channel_id": "41", "guild_id": "77", "users": [str(ALICE), str(BOB)]}
    alice = await _login(client, ALICE)
    body = _where(41) | {"game": "paint", "preset": "long", "rated": False}
    outside = await client.post(
        "/api/activity/start", json=body | {"opponents": [str(CAROL)]}, headers=_headers(alice)
    )
    assert outside.status == 403
    twice = await client.post(
        "/api/activity/start", json=body | {"opponents": [str(BOB), str(BOB)]}, headers=_headers(alice)
    )
    assert twice.status == 400
    bad = await client.post(
        "/api/activity/start", json=body | {"opponents": [str(BOB)], "options": [1]}, headers=_headers(alice)
    )
    assert bad.status == 400
    wrong = await client.post(
        "/api/activity/start",
        json=body | {"opponents": [str(BOB)], "options": {"move_cap": 0}},
        headers=_headers(alice),
    )
    assert wrong.status == 409 and "move_cap" in (await wrong.json())["error"]
    ok = await client.post(
        "/api/activity/start",
        json=body | {"opponents": [str(BOB)], "options": {"move_cap": 300}},
        headers=_headers(alice),
    )
    assert (await ok.json())["ok"]
    (challenge,) = await service.challenges.pending(41)
    assert challenge.opponent_id == BOB
    assert challenge.options["turn_timeout"] == 24 * 60 and challenge.options["rated"] is False
    assert challenge.options["move_cap"] == 300


async def test_a_table_for_four_starts_when_the_picked_have_joined(client: Client, service: Service) -> None:
    """Three people picked: a table for four that only they may join; the last one in starts the match,
    and the end screen's data then has its players and their running score."""
    logins = {u: await _login(client, u) for u in (ALICE, BOB, CAROL, DAVE)}
    body = _where(42) | {
        "game": "tilingking",
        "preset": "quick",
        "opponents": [str(BOB), str(CAROL), str(DAVE)],
    }
    started = await (
        await client.post("/api/activity/start", json=body, headers=_headers(logins[ALICE]))
    ).json()
    lobby_id = started["lobby"]
    query = "&".join(f"{k}={v}" for k, v in _where(42).items())
    seen = await (await client.get(f"/api/activity/channel?{query}", headers=_headers(logins[BOB]))).json()
    assert [(lb["id"], lb["yours"], len(lb["players"])) for lb in seen["lobbies"]] == [(lobby_id, True, 3)]
    stranger = await client.post(
        "/api/activity/join", json={"lobby_id": lobby_id}, headers=_headers(logins[ALICE])
    )
    assert stranger.status == 403, "the host is in already; only the picked may join"
    for user in (BOB, CAROL):
        joined = await (
            await client.post(
                "/api/activity/join", json={"lobby_id": lobby_id}, headers=_headers(logins[user])
            )
        ).json()
        assert joined == {"ok": True, "lobby": lobby_id}
    last = await (
        await client.post("/api/activity/join", json={"lobby_id": lobby_id}, headers=_headers(logins[DAVE]))
    ).json()
    assert last["ok"] and last["match"]["path"].startswith("/m/")
    match = await service.matches.in_channel(42)
    assert {s.user_id for s in match.seats} == {ALICE, BOB, CAROL, DAVE} and match.turn_timeout == 120
    assert match.deadline is not None, "left by everyone, the turn runs out: the timeout rules end it"
    rules = games.get("tilingking")
    for _ in range(4):  # everyone moves once: resigning then finishes the match (before, it aborts it)
        now = await service.matches.get(match.id)
        move = rules.notation(now.state, next(iter(rules.legal_moves(now.state))))
        await service.matches.play(match.id, now.seats[now.to_move].user_id, move)
    for seat in match.seats[: len(match.seats) - 1]:
        if (await service.matches.get(match.id)).is_active:
            await service.matches.resign(match.id, seat.user_id)
    after = await client.get(
        f"/api/activity/after/{last['match']['path'][3:]}", headers=_headers(logins[BOB])
    )
    data = await after.json()
    final = await service.matches.get(match.id)
    assert not final.is_active, final
    assert {p["userId"] for p in data["players"]} == {str(u) for u in (ALICE, BOB, CAROL, DAVE)}
    assert data["score"]["played"] == 1 and sum(data["score"]["wins"].values()) == 1
    assert (await client.get("/api/activity/after/1-nope", headers=_headers(logins[BOB]))).status == 404
    assert await service.store.meta_with_prefix("activity-lobby:") == {}, "a started table's invitation goes"
    await service.store.put_meta("activity-lobby:999", "[202]")  # a table that is gone
    again = await (
        await client.post("/api/activity/start", json=body, headers=_headers(logins[ALICE]))
    ).json()
    kept = await service.store.meta_with_prefix("activity-lobby:")
    assert list(kept) == [f"activity-lobby:{again['lobby']}"], "the next table swept the gone one's"


async def test_several_tables_at_once_in_one_instance(client: Client, service: Service) -> None:
    """One instance, three tables at once: two Paint games against the bot and a TilingKing table for four,
    all listed for everyone in it; the channel's main match stays the first one."""
    logins = {u: await _login(client, u) for u in (ALICE, BOB, CAROL, DAVE)}
    base = _where(60) | {"preset": "quick"}
    paths = []
    for user in (ALICE, BOB):
        body = base | {"game": "paint", "opponent": "bot"}
        started = await (
            await client.post("/api/activity/start", json=body, headers=_headers(logins[user]))
        ).json()
        assert started["ok"], started
        paths.append(started["match"]["path"])
    body = base | {"game": "tilingking", "opponents": [str(BOB), str(DAVE), str(ALICE)]}
    lobby = await (
        await client.post("/api/activity/start", json=body, headers=_headers(logins[CAROL]))
    ).json()
    for user in (BOB, DAVE, ALICE):
        joined = await client.post(
            "/api/activity/join", json={"lobby_id": lobby["lobby"]}, headers=_headers(logins[user])
        )
        answer = await joined.json()
    paths.append(answer["match"]["path"])
    query = "&".join(f"{k}={v}" for k, v in _where(60).items())
    for user in (ALICE, DAVE):
        seen = await (
            await client.get(f"/api/activity/channel?{query}", headers=_headers(logins[user]))
        ).json()
        assert sorted(t["path"] for t in seen["tables"]) == sorted(paths)
        assert [t["side"] for t in seen["tables"] if t["path"] == paths[0]] == [False]
        assert sum(t["side"] for t in seen["tables"]) == 2
        assert seen["match"]["path"] == paths[0]
    main = await service.matches.in_channel(60)
    assert f"/m/{match_token(SECRET, main.id)}" == paths[0] and main.game == "paint"


async def test_the_maker_withdraws_a_waiting_challenge_or_table(client: Client, service: Service) -> None:
    """Withdraw: only whoever made the challenge (or table for more) may, and then it no longer waits."""
    alice, bob = await _login(client, ALICE), await _login(client, BOB)
    await _start(service, 61)  # the channel is busy: what the Activity starts is a side table
    body = _where(61) | {"game": "paint", "opponents": [str(BOB)]}
    challenge = (await (await client.post("/api/activity/start", json=body, headers=_headers(alice))).json())[
        "challenge"
    ]
    query = "&".join(f"{k}={v}" for k, v in _where(61).items())
    seen = await (await client.get(f"/api/activity/channel?{query}", headers=_headers(alice))).json()
    assert [(c["id"], c["mine"], c["yours"]) for c in seen["challenges"]] == [(challenge, True, False)]
    not_yours = await client.post(
        "/api/activity/withdraw", json={"challenge_id": challenge}, headers=_headers(bob)
    )
    assert not_yours.status == 409 and "sent this challenge" in (await not_yours.json())["error"]
    gone = await client.post(
        "/api/activity/withdraw", json={"challenge_id": challenge}, headers=_headers(alice)
    )
    assert (await gone.json()) == {"ok": True, "challenge": challenge}
    assert (await service.challenges.get(challenge)).status == "withdrawn"
    table = body | {"game": "tilingking", "opponents": [str(BOB), str(CAROL)]}
    lobby = (await (await client.post("/api/activity/start", json=table, headers=_headers(alice))).json())[
        "lobby"
    ]
    seen = await (await client.get(f"/api/activity/channel?{query}", headers=_headers(bob))).json()
    assert [(lb["id"], lb["mine"], lb["yours"]) for lb in seen["lobbies"]] == [(lobby, False, True)]
    refused = await client.post("/api/activity/withdraw", json={"lobby_id": lobby}, headers=_headers(bob))
    assert refused.status == 409
    closed = await client.post("/api/activity/withdraw", json={"lobby_id": lobby}, headers=_headers(alice))
    assert (await closed.json()) == {"ok": True, "lobby": lobby}
    assert (await service.lobbies.get(lobby)).status == "closed"
    assert await service.store.meta_with_prefix("activity-lobby:") == {}, "its invitation goes with it"
    seen = await (await client.get(f"/api/activity/channel?{query}", headers=_headers(bob))).json()
    assert seen["challenges"] == [] and seen["lobbies"] == []
    odd = await client.post("/api/activity/withdraw", json={"lobby_id": "x"}, headers=_headers(alice))
    assert odd.status == 400


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
    body = {
        "channel_id": "40",
        "guild_id": str(GUILD),
        "instance_id": f"i-40-{GUILD}",
        "game": "paint",
        "preset": "quick",
    }
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
