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
from bot.web.security import RateLimiter, match_token
from games.base import clickable_moves, resolve_options
from tests.web.conftest import BOT_TOKEN, SCREENSHOTS, USERS, FakeDiscord, code_for, free_port
from tests.web.test_browser import _click_play

ALICE, BOB, CAROL, DAVE = 101, 202, 303, 404
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
    joined: dict[str, list[int]] = field(default_factory=dict)
    """Who is in each Activity instance, in the order they opened it (the host page joins on load)."""

    def app(self) -> web.Application:
        app = super().app()
        app.router.add_post("/rpc/authorize", self.rpc_authorize)
        app.router.add_get("/rpc/me", self.rpc_me)
        app.router.add_post("/rpc/join", self.rpc_join)
        app.router.add_get("/rpc/participants", self.rpc_participants)
        return app

    async def rpc_join(self, request: web.Request) -> web.Response:
        people = self.joined.setdefault(request.query["instance"], [])
        if int(request.query["user"]) not in people:
            people.append(int(request.query["user"]))
        return web.json_response({}, headers={"Access-Control-Allow-Origin": "*"})

    async def rpc_participants(self, request: web.Request) -> web.Response:
        """The participants of an instance as the SDK's schema has them (GET_ACTIVITY_INSTANCE_CONNECTED_
        PARTICIPANTS and its update event)."""
        people = self.joined.get(request.query["instance"], [])
        body = [
            {
                "id": str(u),
                "username": USERS[u].lower(),
                "global_name": USERS[u],
                "discriminator": "0",
                "avatar": None,
                "flags": 0,
                "bot": False,
            }
            for u in people
        ]
        return web.json_response(body, headers={"Access-Control-Allow-Origin": "*"})

    async def rpc_authorize(self, request: web.Request) -> web.Response:
        body = json.loads(await request.text())
        self.authorized.append(body)
        assert body["client_id"] == CLIENT_ID and body["scope"] == ["identify", "rpc.activities.write"]
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
        await frame.wait_for_selector("#who span", state="attached")  # signed in on the match page
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


async def _pick(frame: Any, user: int | str) -> None:
    """Tap a person (or "bot") on the start screen: they show as picked."""
    await frame.click(f"button.person[data-user='{user}']")
    await frame.wait_for_selector(f"button.person[data-user='{user}'][aria-pressed='true']")


async def _preset(frame: Any, game: str, preset: str = "quick") -> None:
    await frame.click(f".card[data-game='{game}'] button[data-preset='{preset}']")


async def test_challenge_and_accept_inside_discord(activity: ActivitySite, browser: Any) -> None:
    """A channel without a match: Alice sees who is in the instance (Discord's participants), taps Bob and
    Paint's Quick preset with an option changed that the game refuses, then without it: a challenge with the
    preset's turn time; Bob, in the same instance, accepts it there and both are on the new match's board."""
    channel = next(_channels)
    bob_page, bob = await _inside(activity, browser, BOB, channel, match=False)
    alice_page, alice = await _inside(activity, browser, ALICE, channel, match=False)
    await alice.wait_for_selector(f"button.person[data-user='{BOB}']")
    await _preset(alice, "paint")
    await alice.wait_for_function("document.getElementById('error').textContent.length > 0")
    await _pick(alice, BOB)
    await alice.click(".card[data-game='paint'] details.opts summary")
    await alice.fill(".card[data-game='paint'] input[name='move_cap']", "0")
    await _preset(alice, "paint")
    await alice.wait_for_function("document.getElementById('error').textContent.includes('move_cap')")
    await alice.fill(".card[data-game='paint'] input[name='move_cap']", "300")
    await _preset(alice, "paint")
    await alice.wait_for_function("document.getElementById('status').textContent.includes('accepts')")
    assert await alice.inner_text("#error") == ""
    pending = await activity.service.challenges.pending(channel)
    assert [(c.challenger_id, c.opponent_id, c.game, c.guild_id) for c in pending] == [
        (ALICE, BOB, "paint", GUILD)
    ]
    assert pending[0].options["move_cap"] == 300 and pending[0].options["turn_timeout"] == 2
    await bob.click(f"button[data-challenge='{pending[0].id}']", timeout=8000)
    await bob.wait_for_selector("polygon.cell")
    assert await bob.query_selector("#activity-lobby") is None, "the start screen gives way to the board"
    match = await activity.service.matches.in_channel(channel)
    assert {s.user_id for s in match.seats} == {ALICE, BOB}
    await alice.wait_for_selector("polygon.cell", timeout=8000)  # her start screen follows the channel
    # Alice opens the Activity again, with the page's CSP in force: the channel now has its match
    _, alice_again = await _inside(activity, browser, ALICE, channel, csp=True)
    assert await alice_again.evaluate("window.tessera.state().id") == match.id
    await bob_page.screenshot(path=str(SCREENSHOTS / "activity-accepted.png"))
    assert alice_page.errors == [] and bob_page.errors == []


async def test_against_the_bot_at_level_1_inside_discord(activity: ActivitySite, browser: Any) -> None:
    """A channel without a match: Alice taps the bot, slides its level to 1 (the slider says each level's
    rating in the game), and Paint's Quick preset; the bot answers each move she clicks, on her board."""
    runner = AIRunner(workers=1, iterations=40)
    await activity.service.start(ai=runner)
    try:
        channel = next(_channels)
        page, alice = await _inside(activity, browser, ALICE, channel, match=False)
        await alice.wait_for_selector(".card[data-game='paint']")
        await _pick(alice, "bot")
        assert await alice.eval_on_selector("#a-level", "s => s.value") == "2"
        await alice.click(".card[data-game='paint'] .card-head")
        await alice.fill("#a-level", "1")
        from games.ai.levels import level_rating

        text = await alice.inner_text("#a-level-text")
        assert str(level_rating("paint", "1")) in text, text
        await page.screenshot(path=str(SCREENSHOTS / "activity-start-bot.png"))
        await _preset(alice, "paint")
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


async def test_play_launch_opens_its_card_with_its_options(activity: ActivitySite, browser: Any) -> None:
    """/play game:paint options:move_cap=300 without an opponent opened the Activity: Paint's card comes
    first, open, with move_cap set on its control, and its preset starts the match with it."""
    from bot.web.activity import remember_launch

    channel = next(_channels)
    service = activity.service
    await remember_launch(service, channel, ALICE, "paint", {"move_cap": 300}, service.now())
    page, alice = await _inside(activity, browser, ALICE, channel, match=False)
    await alice.wait_for_selector(".card.open[data-game='paint']:first-child")
    assert await alice.input_value(".card[data-game='paint'] input[name='move_cap']") == "300"
    await _pick(alice, "bot")
    await _preset(alice, "paint", "standard")
    await alice.wait_for_selector("polygon.cell")
    match = await service.matches.in_channel(channel)
    assert match.options["move_cap"] == 300 and match.turn_timeout == 600
    assert page.errors == []


async def test_a_live_clock_from_a_game_card(activity: ActivitySite, browser: Any) -> None:
    """Each card offers its game's live clocks (issue 43's presets) beside the turn-time presets: Alice taps
    the bot and Paintscape's 3+2; the match is live, on that clock, and the board shows the clocks."""
    channel = next(_channels)
    service = activity.service
    page, alice = await _inside(activity, browser, ALICE, channel, match=False)
    await alice.wait_for_selector(".card[data-game='paintscape'] button[data-clock]")
    offered = await alice.eval_on_selector_all(
        ".card[data-game='paintscape'] button[data-clock]", "bs => bs.map(b => b.dataset.clock)"
    )
    assert offered == ["3+2", "5+3", "10+5"]
    await _pick(alice, "bot")
    await alice.click(".card[data-game='paintscape'] button[data-clock='3+2']")
    await alice.wait_for_selector("polygon.cell")
    match = await service.matches.in_channel(channel)
    assert match.time_control is not None and match.time_control.text == "3+2"
    assert page.errors == []


async def _activities(page: Any) -> list[dict[str, Any]]:
    """What the page told Discord to show as the user's activity (`setActivity`), in order."""
    found: list[dict[str, Any]] = await page.evaluate("window.activities")
    return found


async def test_four_people_in_one_instance(activity: ActivitySite, browser: Any) -> None:
    """Alice, Bob and Carol open the Activity in one voice channel; Alice's start screen lists Bob and Carol
    (and Dave once he joins: Discord's participants event), and her invite button opens Discord's dialog.
    Alice challenges Bob, who accepts: both play, and Carol's start screen turns into the live board as a
    spectator; Dave joins late and watches too. Everyone's Discord status says what they do, the tables bar
    lists the table, and at the end everyone gets the result, the running score and "new game with ..."."""
    channel = next(_channels)
    pages = {}
    frames = {}
    for user in (ALICE, BOB, CAROL):
        pages[user], frames[user] = await _inside(activity, browser, user, channel, match=False)
    alice = frames[ALICE]
    await alice.wait_for_selector(f"button.person[data-user='{CAROL}']")
    assert await alice.query_selector(f"button.person[data-user='{ALICE}']") is None, "never oneself"
    await alice.click("#a-invite")
    await pages[ALICE].wait_for_function("window.invites === 1")
    await alice.wait_for_function("[...document.images].every((i) => i.complete && i.naturalWidth > 0)")
    await pages[ALICE].screenshot(path=str(SCREENSHOTS / "activity-start.png"))
    await _pick(alice, BOB)
    await _preset(alice, "paint")
    await alice.wait_for_function("document.getElementById('status').textContent.includes('accepts')")
    challenge = (await activity.service.challenges.pending(channel))[0]
    await frames[BOB].click(f"button[data-challenge='{challenge.id}']", timeout=8000)
    for user in (ALICE, BOB, CAROL):
        await frames[user].wait_for_selector("polygon.cell", timeout=8000)
    match = await activity.service.matches.in_channel(channel)
    pages[DAVE], frames[DAVE] = await _inside(activity, browser, DAVE, channel)
    carol, dave = frames[CAROL], frames[DAVE]
    for watcher in (carol, dave):
        assert await watcher.evaluate("window.tessera.state().you.seats") == []
        await watcher.wait_for_selector(
            f"#activity-tables button[data-table='{match.id}'][aria-pressed='true']"
        )
    rules = games.get("paint")
    rng = random.Random(3)
    for _ in range(3):
        match = await activity.service.matches.get(match.id)
        frame = frames[match.seats[match.to_move].user_id]
        await _wait_ply(frame, match.ply)
        await _click_play(frame, rng.choice(clickable_moves(rules, match.state)))
        for watcher in (carol, dave):
            await _wait_ply(watcher, match.ply + 1)  # the spectators follow live
    await pages[ALICE].wait_for_function("window.activities.some((a) => a.state === 'Move 4')")
    mine = await _activities(pages[ALICE])
    assert mine[-1]["details"] == "Playing Paint against Bob" and mine[-1]["party"]["size"] == [2, 2]
    watching = (await _activities(pages[CAROL]))[-1]["details"]
    assert watching in ("Watching Paint: Alice, Bob", "Watching Paint: Bob, Alice"), watching
    await pages[DAVE].screenshot(path=str(SCREENSHOTS / "activity-spectator.png"))
    await alice.click("#actions button:has-text('Resign')")
    await alice.click("#confirm-yes")
    for user in (ALICE, BOB, CAROL, DAVE):
        await frames[user].wait_for_selector("#activity-end .result", timeout=8000)
    await frames[BOB].wait_for_selector("#a-score")
    assert "Bob 1" in await frames[BOB].inner_text("#a-score")
    await pages[BOB].wait_for_function("window.activities.at(-1).state.startsWith('Game over')")
    await pages[BOB].screenshot(path=str(SCREENSHOTS / "activity-end.png"))
    await frames[BOB].click("#a-again")  # a new game with Alice: the start screen, Alice picked
    await frames[BOB].wait_for_selector(
        f"button.person[data-user='{ALICE}'][aria-pressed='true']", timeout=20000
    )
    for user in (ALICE, BOB, CAROL, DAVE):
        assert pages[user].errors == [], pages[user].errors


async def test_tilingking_for_four_from_the_participants(activity: ActivitySite, browser: Any) -> None:
    """Alice taps Bob, Carol and Dave in the participants list and TilingKing's Quick preset: a table for
    four that each of them joins from their start screen; the last one in starts it, and all four are on
    its board."""
    channel = next(_channels)
    pages, frames = {}, {}
    for user in (BOB, CAROL, DAVE, ALICE):
        pages[user], frames[user] = await _inside(activity, browser, user, channel, match=False)
    alice = frames[ALICE]
    for user in (BOB, CAROL, DAVE):
        await alice.wait_for_selector(f"button.person[data-user='{user}']")
        await _pick(alice, user)
    await _preset(alice, "paint")  # Paint is for two: the page says so instead of asking the server
    await alice.wait_for_function("document.getElementById('error').textContent.includes('Paint')")
    await _preset(alice, "tilingking")
    await alice.wait_for_function("document.getElementById('status').textContent.includes('joined')")
    for user in (BOB, CAROL, DAVE):
        await frames[user].click("button[data-lobby]", timeout=8000)
    for user in (ALICE, BOB, CAROL, DAVE):
        await frames[user].wait_for_selector("polygon.cell", timeout=10000)
    match = await activity.service.matches.in_channel(channel)
    assert match.game == "tilingking" and {s.user_id for s in match.seats} == {ALICE, BOB, CAROL, DAVE}
    await pages[CAROL].screenshot(path=str(SCREENSHOTS / "activity-tilingking-4.png"))
    for user in (ALICE, BOB, CAROL, DAVE):
        assert pages[user].errors == [], pages[user].errors


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


async def _fits(frame: Any, width: int, height: int, *, board: bool = True) -> None:
    """Phones first: nothing sticks out sideways, the board and the complete panel (players, scores,
    counters) are in view without scrolling, every visible button is 44 px or more and no text is under
    12 px (`board=False`: the start screen, which scrolls)."""
    assert await frame.evaluate("document.documentElement.scrollWidth") <= width
    for selector in ("#board-svg", "#players", "#counters") if board else ():
        box = await frame.eval_on_selector(selector, "e => e.getBoundingClientRect().toJSON()")
        assert box["bottom"] <= height + 0.5 and box["right"] <= width + 0.5, (selector, box)
    small = await frame.evaluate(
        """[...document.querySelectorAll('button, select, summary, input:not([type=checkbox]), label.opt')]
             .filter((b) => b.offsetParent !== null)
             .filter((b) => { const r = b.getBoundingClientRect(); return r.height < 44 || r.width < 44; })
             .map((b) => b.tagName + '#' + b.id + '.' + b.className + '[' + (b.name || '') + ']')"""
    )
    assert small == [], f"every control is a touch target of 44 px: {small}"
    tiny = await frame.evaluate(
        """[...document.querySelectorAll('body *')].filter((e) => e.offsetParent !== null
             && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())
             && parseFloat(getComputedStyle(e).fontSize) < 12).map((e) => e.tagName + '#' + e.id)"""
    )
    assert tiny == [], f"text under 12 px: {tiny}"


async def test_phone_both_ways_inside_discord(activity: ActivitySite, browser: Any) -> None:
    """Discord's mobile client on a 360x640 phone: in portrait and held sideways, the start screen and the
    match page fit (`_fits`); the start screen's cards take the width, nothing sticks out sideways."""
    for width, height, name in ((360, 640, "portrait"), (640, 360, "landscape")):
        _, channel = await _start(activity, "paint")
        page, frame = await _inside(
            activity,
            browser,
            ALICE,
            channel,
            viewport={"width": width, "height": height},
            is_mobile=True,
            has_touch=True,
        )
        await frame.wait_for_selector("#players li")
        await page.screenshot(path=str(SCREENSHOTS / f"activity-phone-{name}.png"))
        await _fits(frame, width, height)
        assert page.errors == []
        await page.context.close()
    channel = next(_channels)
    page, frame = await _inside(
        activity,
        browser,
        BOB,
        channel,
        match=False,
        viewport={"width": 360, "height": 640},
        is_mobile=True,
        has_touch=True,
    )
    await frame.wait_for_selector(".card[data-game='paint']")
    await frame.wait_for_function("[...document.images].every((i) => i.complete && i.naturalWidth > 0)")
    await page.screenshot(path=str(SCREENSHOTS / "activity-phone-start.png"))
    await frame.click(".card[data-game='tilingking'] details.opts summary")  # every option's control too
    await _fits(frame, 360, 640, board=False)
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


async def test_three_tables_at_once_in_one_instance(activity: ActivitySite, browser: Any) -> None:
    """One instance, four people, three tables at once (issue 44): Dave challenges Carol and withdraws it;
    Alice starts Paint against the bot (the channel's main match), Bob a second Paint against the bot beside
    it ("+ New game": a side table), and Carol a TilingKing table for four that the others join from their
    start screens. Everyone's tables bar lists all three, and Carol switches between them."""
    channel = next(_channels)
    service = activity.service
    # Every page signs in again when it goes to another table; four people behind one test address would
    # pass the logins allowed per address (five at once), which four people on their own addresses never do.
    activity.board.exchange.per_client = RateLimiter(10.0, 50)
    pages, frames = {}, {}
    for user in (DAVE, CAROL, BOB, ALICE):
        pages[user], frames[user] = await _inside(activity, browser, user, channel, match=False)
    alice, bob, carol, dave = (frames[u] for u in (ALICE, BOB, CAROL, DAVE))
    # Dave's own challenge waits with a Withdraw button: tapped, it no longer waits.
    await dave.wait_for_selector(f"button.person[data-user='{CAROL}']")
    await _pick(dave, CAROL)
    await _preset(dave, "paint")
    await dave.wait_for_selector("button[data-withdraw-challenge]", timeout=8000)
    (challenge,) = await service.challenges.pending(channel)
    await dave.click(f"button[data-withdraw-challenge='{challenge.id}']")
    await dave.wait_for_function("!document.querySelector('button[data-withdraw-challenge]')")
    assert (await service.challenges.get(challenge.id)).status == "withdrawn"
    # Alice: Paint against the bot, the channel's main match.
    await _pick(alice, "bot")
    await _preset(alice, "paint")
    await alice.wait_for_selector("polygon.cell", timeout=8000)
    main = await service.matches.in_channel(channel)
    # Bob's start screen goes to it as a spectator; "+ New game" starts a second Paint beside it.
    await bob.wait_for_selector("#a-new-table", timeout=8000)
    await bob.click("#a-new-table")
    await bob.wait_for_selector("#a-games .card[data-game='paint']", timeout=8000)
    await _pick(bob, "bot")
    await _preset(bob, "paint")
    await bob.wait_for_function("location.pathname.startsWith('/m/') && !!window.tessera", timeout=8000)
    await bob.wait_for_selector("polygon.cell", timeout=8000)
    # Carol: from the spectator's "+ New game", a TilingKing table for the four of them.
    await carol.wait_for_selector("#a-new-table", timeout=8000)
    await carol.click("#a-new-table")
    for user in (ALICE, BOB, DAVE):
        await carol.wait_for_selector(f"button.person[data-user='{user}']", timeout=8000)
        await _pick(carol, user)
    await _preset(carol, "tilingking")
    await carol.wait_for_selector("button[data-withdraw-lobby]", timeout=8000)
    for user in (ALICE, BOB):  # from their boards to the start screen, where the invitation waits
        await frames[user].click("#a-new-table")
    for user in (DAVE, ALICE, BOB):
        await frames[user].click("button[data-lobby]", timeout=10000)
    for user in (ALICE, BOB, CAROL, DAVE):
        await frames[user].wait_for_function(
            "document.querySelectorAll('#activity-tables button[data-table]').length === 3", timeout=15000
        )
        await frames[user].wait_for_selector("polygon.cell", timeout=10000)
    tables = {m.id: m for m in await service.matches.of_user(ALICE)} | {
        m.id: m for m in await service.matches.of_user(BOB)
    }
    assert len(tables) == 3 and sorted(m.game for m in tables.values()) == ["paint", "paint", "tilingking"]
    assert [m.id for m in tables.values() if not m.side] == [main.id], "one main match; two side tables"
    assert (await service.matches.in_channel(channel)).id == main.id
    tk = next(m for m in tables.values() if m.game == "tilingking")
    assert len(tk.seats) == 4
    side_paint = next(m for m in tables.values() if m.game == "paint" and m.side)
    # Carol, at the TilingKing table, switches to Alice's game and to Bob's: a spectator of each.
    await carol.wait_for_selector(f"#activity-tables button[data-table='{tk.id}'][aria-pressed='true']")
    for table in (main, side_paint):
        await carol.click(f"#activity-tables button[data-table='{table.id}']")
        # the page loads again at the table's path, inside the same frame
        await carol.wait_for_url(f"**/m/{match_token(activity.board.secret, table.id)}?*", timeout=8000)
        await carol.wait_for_selector(
            f"#activity-tables button[data-table='{table.id}'][aria-pressed='true']", timeout=10000
        )
        await carol.wait_for_selector("polygon.cell", timeout=8000)
        await carol.wait_for_function(
            "window.tessera && window.tessera.state() && window.tessera.state().you"
        )
        assert await carol.evaluate("window.tessera.state().you.seats") == []
        assert await carol.evaluate("window.tessera.state().id") == table.id
    await pages[CAROL].screenshot(path=str(SCREENSHOTS / "activity-three-tables.png"))
    for user in (ALICE, BOB, CAROL, DAVE):
        assert pages[user].errors == [], pages[user].errors
