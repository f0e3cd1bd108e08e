"""Tessera as a Discord Activity, in a real browser (Debian's chromium through Playwright).

A test host page on http://localhost:3333 (another origin than the Activity's 127.0.0.1, and one that the
vendored SDK accepts messages from, as it does Discord's) frames the Activity and answers the SDK's
postMessage protocol as Discord's client does: it reads the handshake `[0, {v, encoding, client_id,
frame_id}]`, dispatches READY, answers the AUTHORIZE command with a code from the fake Discord OAuth2 server
on 127.0.0.1 (which Tessera's server then exchanges with the client secret), and answers AUTHENTICATE.
Two players then play each game inside the frame; a phone in portrait plays by touch; and in production
settings the page refuses to run framed by anything but Discord. Screenshots go to /tmp/tessera-web/.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

import games
from bot.service import Service
from bot.service.ai import AIRunner
from bot.web.app import WebBoard
from bot.web.discord_api import DiscordRest
from games.base import clickable_moves, resolve_options
from tests.web.conftest import BOT_TOKEN, SCREENSHOTS, USERS, FakeDiscord, code_for, free_port
from tests.web.test_browser import _click_play

ALICE, BOB = 101, 202
GUILD = 4242
HOST_PORT = 3333
HOST = f"http://localhost:{HOST_PORT}"
CLIENT_ID = "123"

HOST_PAGE = (Path(__file__).parent / "activity_host.html").read_text(encoding="utf-8")
"""Discord's client as far as the SDK sees it (the test host page)."""


@dataclass
class ActivityDiscord(FakeDiscord):
    """The fake Discord of tests/web plus what the client does for the SDK: `/rpc/authorize` gives the
    host page a code for the signed-in user (the real client asks Discord's API the same), `/rpc/me` says
    whose a token is."""

    authorized: list[dict[str, Any]] = field(default_factory=list)

    def app(self) -> web.Application:
        app = super().app()
        app.router.add_post("/rpc/authorize", self.rpc_authorize)
        app.router.add_get("/rpc/me", self.rpc_me)
        return app

    async def rpc_authorize(self, request: web.Request) -> web.Response:
        body = json.loads(await request.text())
        self.authorized.append(body)
        assert body["client_id"] == CLIENT_ID and body["scope"] == ["identify"]
        cors = {"Access-Control-Allow-Origin": "*"}
        return web.json_response({"code": code_for(int(body["user"]))}, headers=cors)

    async def rpc_me(self, request: web.Request) -> web.Response:
        user = int(request.query["token"].removeprefix("token-"))
        body = {"id": str(user), "username": USERS[user].lower(), "global_name": USERS[user]}
        return web.json_response(body, headers={"Access-Control-Allow-Origin": "*"})


@dataclass
class ActivitySite:
    service: Service
    board: WebBoard
    discord: ActivityDiscord
    base: str


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


async def _names(user_ids: Any) -> dict[int, str]:
    return {u: USERS[u] for u in user_ids if u in USERS}


async def _open_site(tmp_path: Path, *, production: bool) -> tuple[ActivitySite, list[web.AppRunner]]:
    if not _port_free(HOST_PORT):
        pytest.skip(f"port {HOST_PORT} (the test host's; the SDK accepts http://localhost:3333) is taken")
    discord = ActivityDiscord(free_port())
    runners = [web.AppRunner(discord.app())]
    await runners[0].setup()
    await web.TCPSite(runners[0], "127.0.0.1", discord.port).start()
    host = web.Application()

    async def host_page(request: web.Request) -> web.Response:
        return web.Response(text=HOST_PAGE, content_type="text/html")

    host.router.add_get("/", host_page)
    runners.append(web.AppRunner(host))
    await runners[1].setup()
    await web.TCPSite(runners[1], "127.0.0.1", HOST_PORT).start()
    service = await Service.open(f"sqlite:///{tmp_path / 'activity.sqlite3'}")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    board = WebBoard(
        service,
        secret="a" * 40,
        base_url=base,
        client_id=CLIENT_ID,
        client_secret="activity-client-secret",
        api_url=discord.url,
        names=_names,
        activity=True,
        activity_parents=None if production else (HOST,),
        rest=DiscordRest(discord.url, BOT_TOKEN),
    )
    await board.start("127.0.0.1", port)
    return ActivitySite(service, board, discord, base), runners


@pytest.fixture
async def activity(tmp_path: Path) -> AsyncIterator[ActivitySite]:
    site, runners = await _open_site(tmp_path, production=False)
    try:
        yield site
    finally:
        await site.board.close()
        await site.service.close()
        for runner in runners:
            await runner.cleanup()


@pytest.fixture
async def production(tmp_path: Path) -> AsyncIterator[ActivitySite]:
    site, runners = await _open_site(tmp_path, production=True)
    try:
        yield site
    finally:
        await site.board.close()
        await site.service.close()
        for runner in runners:
            await runner.cleanup()


_channels = iter(range(9000, 99999))


async def _start(site: ActivitySite, game: str, options: dict[str, Any] | None = None) -> tuple[int, int]:
    rules = games.get(game)
    channel = next(_channels)
    match = await site.service.matches.start(
        game,
        resolve_options(rules.options, options or {}),
        [(ALICE, None), (BOB, None)],
        seed=11,
        rated=False,
        turn_timeout=86400,
        guild_id=GUILD,
        channel_id=channel,
    )
    return match.id, channel


def _host_url(site: ActivitySite, user: int, channel: int, platform: str = "desktop") -> str:
    from urllib.parse import urlencode

    query = {
        "activity": site.base + "/",
        "fake": site.discord.url,
        "user": str(user),
        "channel": str(channel),
        "guild": str(GUILD),
        "platform": platform,
    }
    return f"{HOST}/?{urlencode(query)}"


async def _inside(
    site: ActivitySite,
    browser: Any,
    user: int,
    channel: int,
    *,
    match: bool = True,
    csp: bool = False,
    **context: Any,
) -> tuple[Any, Any]:
    """A player's Discord (the host page) with the Activity open in `channel`: (page, the Activity's frame).
    The page's CSP is bypassed (Playwright's waits evaluate strings) unless `csp`."""
    ctx = await browser.new_context(bypass_csp=not csp, **context)
    page = await ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    await page.goto(_host_url(site, user, channel, "mobile" if context.get("is_mobile") else "desktop"))
    frame = await (await page.wait_for_selector("iframe")).content_frame()
    assert frame is not None
    await frame.wait_for_selector("body[data-activity='signed-in']")
    if match:
        await frame.wait_for_selector("polygon.cell")
        await frame.wait_for_selector("#who span")  # the name and seat: signed in on the match page
    return page, frame


async def _wait_ply(frame: Any, ply: int) -> None:
    await frame.wait_for_function(
        f"window.tessera.state() && window.tessera.state().ply === {ply}", timeout=3000
    )


async def _play_inside(site: ActivitySite, browser: Any, game: str, moves: int, **options: Any) -> None:
    """Two players, each in their own Discord with the Activity open in the match's channel: the handshake
    and login, then `moves` moves of every kind the position offers (clicks, pieces turned and placed,
    word buttons), then a resignation that finishes the match."""
    match_id, channel = await _start(site, game, options)
    alice_page, alice = await _inside(site, browser, ALICE, channel)
    bob_page, bob = await _inside(site, browser, BOB, channel)
    frames = {ALICE: alice, BOB: bob}
    for user, page in ((ALICE, alice_page), (BOB, bob_page)):
        log = await page.evaluate("window.hostLog")
        handshake = log[0]
        assert handshake[0] == 0 and handshake[1]["client_id"] == CLIENT_ID
        assert handshake[1]["frame_id"] == f"frame-{user}" and handshake[1]["v"] == 1
        commands = [entry[1]["cmd"] for entry in log if entry[0] == 1]
        assert commands[:2] == ["AUTHORIZE", "AUTHENTICATE"]
        authenticate = next(e[1] for e in log if e[0] == 1 and e[1]["cmd"] == "AUTHENTICATE")
        assert authenticate["args"]["access_token"] == f"token-{user}"
    assert site.discord.tokens_asked and all(
        "activity-client-secret" not in str(f) for f in site.discord.tokens_asked
    )
    assert "activity-client-secret" not in await alice.content()
    rules = games.get(game)
    rng = random.Random(5)
    for _ in range(moves):
        match = await site.service.matches.get(match_id)
        if not match.is_active:
            break
        frame = frames[match.seats[match.to_move].user_id]
        await _wait_ply(frame, match.ply)
        clicks = clickable_moves(rules, match.state)
        if clicks:
            await _click_play(frame, rng.choice(clicks))
        else:
            words = rules.word_moves(match.state)
            assert words, "a position with neither clicks nor words"
            await frame.click(f"#words button:has-text('{words[0].label}')")
        for _ in range(100):
            after = await site.service.matches.get(match_id)
            if after.ply > match.ply:
                break
            await asyncio.sleep(0.05)
        assert after.ply > match.ply, f"the move was not played ({await frame.inner_text('#error')})"
        other = frames[ALICE if match.seats[match.to_move].user_id == BOB else BOB]
        await _wait_ply(other, after.ply)  # the other player's frame follows live
    await alice_page.screenshot(path=str(SCREENSHOTS / f"activity-{game}.png"))
    await alice.click("#actions button:has-text('Resign')")
    await alice.click("#confirm-yes")
    for _ in range(60):
        final = await site.service.matches.get(match_id)
        if not final.is_active:
            break
        await asyncio.sleep(0.05)
    assert not final.is_active and final.outcome is not None
    await bob.wait_for_selector("#replay:not([hidden])", timeout=3000)
    assert alice_page.errors == [] and bob_page.errors == []


async def test_paint_inside_discord(activity: ActivitySite, browser: Any) -> None:
    await _play_inside(activity, browser, "paint", 6)


async def test_paintscape_inside_discord(activity: ActivitySite, browser: Any) -> None:
    await _play_inside(activity, browser, "paintscape", 8)


async def test_tilingking_inside_discord(activity: ActivitySite, browser: Any) -> None:
    await _play_inside(activity, browser, "tilingking", 6, board="sq9")


async def test_challenge_and_accept_inside_discord(activity: ActivitySite, browser: Any) -> None:
    """A channel without a match: Alice challenges Bob from the Activity's form (the service's /play
    checks); Bob, in the same channel, accepts it there and both are on the new match's board."""
    channel = next(_channels)
    alice_page, alice = await _inside(activity, browser, ALICE, channel, match=False)
    await alice.wait_for_selector("#activity-start")
    await alice.select_option("#a-game", "paint")
    await alice.fill("#a-options", "nonsense=1")
    await alice.select_option("#a-opponent", "member")
    await alice.fill("#a-member", str(BOB))
    await alice.click("#activity-start button[type=submit]")
    await alice.wait_for_function("document.getElementById('error').textContent.includes('nonsense')")
    await alice.fill("#a-options", "")
    await alice.click("#activity-start button[type=submit]")
    await alice.wait_for_function("document.getElementById('status').textContent.includes('accepts')")
    assert await alice.inner_text("#error") == ""
    pending = await activity.service.challenges.pending(channel)
    assert [(c.challenger_id, c.opponent_id, c.game, c.guild_id) for c in pending] == [
        (ALICE, BOB, "paint", GUILD)
    ]
    bob_page, bob = await _inside(activity, browser, BOB, channel, match=False)
    await bob.click(f"button[data-challenge='{pending[0].id}']")
    await bob.wait_for_selector("polygon.cell")
    assert await bob.query_selector("#activity-lobby") is None, "the lobby gives way to the board"
    match = await activity.service.matches.in_channel(channel)
    assert {s.user_id for s in match.seats} == {ALICE, BOB}
    # Alice opens the Activity again, with the page's CSP in force: the channel now has its match
    _, alice_again = await _inside(activity, browser, ALICE, channel, csp=True)
    assert await alice_again.evaluate("window.tessera.state().id") == match.id
    await bob_page.screenshot(path=str(SCREENSHOTS / "activity-accepted.png"))
    assert alice_page.errors == [] and bob_page.errors == []


async def test_against_the_bot_at_level_1_inside_discord(activity: ActivitySite, browser: Any) -> None:
    """A channel without a match: Alice starts one against the bot at level 1 from the Activity's form (the
    eight levels, level 2 by default as for a new player); the bot answers each move she clicks, on her
    board."""
    runner = AIRunner(workers=1, iterations=40)
    await activity.service.start(ai=runner)
    try:
        channel = next(_channels)
        page, alice = await _inside(activity, browser, ALICE, channel, match=False)
        await alice.wait_for_selector("#activity-start")
        await alice.select_option("#a-game", "paint")
        await alice.fill("#a-options", "move_cap=20")
        assert await alice.eval_on_selector("#a-level", "s => s.value") == "2"
        await alice.select_option("#a-level", "1")
        await page.screenshot(path=str(SCREENSHOTS / "activity-start-form.png"))
        await alice.click("#activity-start button[type=submit]")
        await alice.wait_for_selector("polygon.cell")
        match = await activity.service.matches.in_channel(channel)
        assert [(s.user_id, s.ai_level) for s in match.seats if s.is_ai] == [(int(CLIENT_ID), "1")]
        rules = games.get("paint")
        for _ in range(3):
            for _ in range(200):  # the bot's turn (if it opened) is played by the service
                match = await activity.service.matches.get(match.id)
                if not match.is_active or match.seats[match.to_move].user_id == ALICE:
                    break
                await asyncio.sleep(0.05)
            assert match.is_active and match.seats[match.to_move].user_id == ALICE, "the bot did not answer"
            await alice.wait_for_function(f"window.tessera.state().ply === {match.ply}")
            await _click_play(alice, clickable_moves(rules, match.state)[0])
            await alice.wait_for_function(f"window.tessera.state().ply >= {match.ply + 2}", timeout=10000)
        moves = await activity.service.matches.moves(match.id)
        assert [m.seat for m in moves[-2:]] != [moves[-1].seat] * 2, "the moves alternate: the bot answered"
        await page.screenshot(path=str(SCREENSHOTS / "activity-bot.png"))
        assert page.errors == []
    finally:  # the bot stops thinking before its runner goes (the fixture closes the service)
        service = activity.service
        if service.bot_turns is not None:
            await service.bot_turns.close()
        if service.clock is not None:
            await service.clock.stop()
        await runner.aclose()


async def test_phone_portrait_touch_inside_discord(activity: ActivitySite, browser: Any) -> None:
    """Discord's mobile client in portrait: the board fills the width, cells are big enough to tap, controls
    are touch-sized, nothing sticks out sideways, and a tap previews a piece that the Place button plays."""
    match_id, channel = await _start(activity, "tilingking", {"board": "hex5"})
    page, frame = await _inside(
        activity,
        browser,
        ALICE,
        channel,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
    )
    assert await frame.evaluate("document.documentElement.scrollWidth") <= 390
    cell = await frame.eval_on_selector("polygon[data-i='0']", "p => p.getBoundingClientRect().width")
    assert cell >= 24, f"a cell is {cell:.0f} px wide: too small to tap"
    height = await frame.eval_on_selector("#actions button", "b => b.getBoundingClientRect().height")
    assert height >= 44, "buttons are touch-sized on a phone"
    await frame.tap("button[data-piece='I3']")
    await frame.tap("polygon[data-i='30']")  # a tap previews the piece there
    assert await frame.evaluate("window.tessera.preview()") is not None
    await frame.tap("#place")  # and the Place button plays it
    await _wait_ply(frame, 1)
    assert (await activity.service.matches.get(match_id)).ply == 1
    await frame.wait_for_function("window.tessera.scene().ply === 1")  # the board follows the move
    await page.screenshot(path=str(SCREENSHOTS / "activity-phone.png"))
    assert page.errors == []


async def test_production_refuses_other_frames(production: ActivitySite, browser: Any) -> None:
    """Production settings: the CSP allows only Discord to frame the page, so the browser refuses the test
    host's frame outright; and where that header is lost (a proxy dropping it, here a route that strips it)
    the page itself sees a foreign parent and never starts the SDK: no handshake reaches the host."""
    _, channel = await _start(production, "paint")
    answer = await (await browser.new_context()).request.get(production.base + "/?frame_id=x")
    csp = answer.headers["content-security-policy"]
    ancestors = csp.split("frame-ancestors", 1)[1].split(";")[0].split()
    assert "https://discord.com" in ancestors and HOST not in ancestors and "*" not in ancestors
    for strip in (False, True):
        ctx = await browser.new_context()
        if strip:

            async def without_csp(route: Any) -> None:
                response = await route.fetch()
                headers = {k: v for k, v in response.headers.items() if k != "content-security-policy"}
                await route.fulfill(response=response, headers=headers)

            await ctx.route(production.base + "/**", without_csp)
        page = await ctx.new_page()
        blocked: list[str] = []
        page.on(
            "console", lambda m, seen=blocked: seen.append(m.text) if "frame-ancestors" in m.text else None
        )
        await page.goto(_host_url(production, ALICE, channel))
        await page.wait_for_selector("iframe")
        frame = await (await page.query_selector("iframe")).content_frame()
        if strip:
            await frame.wait_for_selector("body[data-activity='refused']")
            assert "Discord" in await frame.inner_text("#status")
        else:
            await page.wait_for_timeout(1000)
            assert blocked, "chromium reports the frame-ancestors refusal"
        assert await page.evaluate("window.hostLog") == [], "the framed page talked to a foreign parent"
        await ctx.close()
    assert production.discord.authorized == []


async def test_a_rematch_inside_discord_moves_both_frames_to_the_new_match(
    activity: ActivitySite, browser: Any
) -> None:
    """A finished match's Rematch action in the Activity (the data-driven buttons of a finished match):
    Alice offers, Bob sees the offer and accepts, and both frames open the new match, seats rotated."""
    match_id, channel = await _start(activity, "paint")
    rules = games.get("paint")
    for _ in range(2):
        match = await activity.service.matches.get(match_id)
        move = clickable_moves(rules, match.state)[0].notation
        await activity.service.matches.play(match_id, match.seats[match.to_move].user_id, move)
    alice_page, alice = await _inside(activity, browser, ALICE, channel)
    bob_page, bob = await _inside(activity, browser, BOB, channel)
    await activity.service.matches.resign(match_id, BOB)
    await alice.wait_for_selector("#actions button[data-action='rematch']", timeout=3000)
    await alice.click("#actions button[data-action='rematch']")
    await bob.wait_for_selector("#actions button[data-action='accept']", timeout=3000)
    await bob.click("#actions button[data-action='accept']")
    record = None
    for _ in range(100):
        record = await activity.service.rematches.rematch_of(match_id)
        if record is not None and record.new_match_id is not None:
            break
        await asyncio.sleep(0.05)
    assert record is not None and record.new_match_id is not None
    new_id = record.new_match_id
    for page in (alice_page, bob_page):
        frame = await (await page.wait_for_selector("iframe")).content_frame()
        assert frame is not None
        await frame.wait_for_function(
            f"window.tessera && window.tessera.state() && window.tessera.state().id === {new_id}",
            timeout=5000,
        )
    new = await activity.service.matches.get(record.new_match_id)
    assert [p.user_id for p in new.seats] == [BOB, ALICE]
    assert alice_page.errors == [] and bob_page.errors == []
