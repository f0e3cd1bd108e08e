"""Browser tests of the web board: Debian's chromium driven by Playwright (no browser download), a fake
Discord OAuth2 server on 127.0.0.1 for the login, and the web board on a temporary SQLite database."""

from __future__ import annotations

import shutil
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot.service import Service
from bot.web.app import WebBoard

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SCREENSHOTS = Path("/tmp/tessera-web")
USERS = {101: "Alice", 202: "Bob", 303: "Carol", 404: "Dave"}
BOT_TOKEN = "fake-bot-token"


def code_for(user: int) -> str:
    """The fake Discord's authorization code for `user` (shaped like Discord's: letters and digits)."""
    return f"code{user:016d}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class FakeDiscord:
    """Discord's OAuth2 and /users/@me for the login: `/oauth2/authorize` sends the browser straight back
    with a code for `next_user`; the code buys a token; the token names the user."""

    port: int
    next_user: int = 101
    tokens_asked: list[dict[str, Any]] = field(default_factory=list)
    bot_asked: list[str] = field(default_factory=list)
    """The paths asked with the bot token (names, Activity instances), in order."""
    instances: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Activity instances by id; an id `i-<channel>-<guild>` not listed here runs in that channel with
    every test user in it (the test host page makes such ids)."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/oauth2/authorize", self.authorize)
        app.router.add_post("/oauth2/token", self.token)
        app.router.add_get("/users/@me", self.me)
        app.router.add_get("/users/{user:[0-9]+}", self.user)
        app.router.add_get("/applications/{app}/activity-instances/{instance}", self.instance)
        return app

    def _bot(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {BOT_TOKEN}":
            raise web.HTTPUnauthorized(text='{"message": "401: Unauthorized"}')
        self.bot_asked.append(request.path)

    async def user(self, request: web.Request) -> web.Response:
        """`GET /users/{id}` with the bot token: a user's public profile."""
        self._bot(request)
        user = int(request.match_info["user"])
        if user not in USERS:
            return web.json_response({"message": "Unknown User", "code": 10013}, status=404)
        return web.json_response(
            {"id": str(user), "username": USERS[user].lower(), "global_name": USERS[user]}
        )

    async def instance(self, request: web.Request) -> web.Response:
        """`GET /applications/{id}/activity-instances/{instance}` (bot token): where it runs, who is in."""
        self._bot(request)
        instance = request.match_info["instance"]
        found = self.instances.get(instance)
        if found is None and instance.startswith("i-"):
            channel, _, guild = instance[2:].partition("-")
            found = {"channel_id": channel, "guild_id": guild or None, "users": [str(u) for u in USERS]}
        if found is None:
            return web.json_response({"message": "Unknown Activity Instance"}, status=404)
        location = {
            "id": "gc-x",
            "kind": "gc",
            "channel_id": found["channel_id"],
            "guild_id": found["guild_id"],
        }
        return web.json_response(
            {
                "application_id": request.match_info["app"],
                "instance_id": instance,
                "launch_id": "1",
                "location": location,
                "users": found["users"],
            }
        )

    async def authorize(self, request: web.Request) -> web.Response:
        assert request.query["scope"] == "identify" and request.query["response_type"] == "code"
        redirect = request.query["redirect_uri"]
        raise web.HTTPFound(f"{redirect}?code={code_for(self.next_user)}&state={request.query['state']}")

    async def token(self, request: web.Request) -> web.Response:
        form = await request.post()
        self.tokens_asked.append(dict(form))
        code = str(form["code"])
        if request.headers.get("Authorization", "") == "" or not (
            code.startswith("code") and code[4:].isdigit()
        ):
            return web.json_response({"error": "invalid_grant"}, status=400)
        return web.json_response({"access_token": f"token-{int(code[4:])}", "token_type": "Bearer"})

    async def me(self, request: web.Request) -> web.Response:
        user = int(request.headers["Authorization"].removeprefix("Bearer token-"))
        return web.json_response(
            {"id": str(user), "username": USERS[user].lower(), "global_name": USERS[user]}
        )


@dataclass
class Site:
    service: Service
    board: WebBoard
    discord: FakeDiscord
    base: str


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[Service]:
    """A service on a fresh SQLite file, closed after the test."""
    service = await Service.open(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    yield service
    await service.close()


@pytest.fixture
async def discord() -> AsyncIterator[FakeDiscord]:
    """The fake Discord API (`FakeDiscord`) served on a free loopback port for the test."""
    fake = FakeDiscord(free_port())
    runner = web.AppRunner(fake.app())
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", fake.port).start()
    yield fake
    await runner.cleanup()


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    discord = FakeDiscord(free_port())
    runner = web.AppRunner(discord.app())
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", discord.port).start()
    service = await Service.open(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    board = WebBoard(
        service,
        secret="s" * 40,
        base_url=base,
        client_id="123",
        client_secret="shh-client-secret",
        api_url=discord.url,
        names=_names,
    )
    await board.start("127.0.0.1", port)
    try:
        yield Site(service, board, discord, base)
    finally:
        await board.close()
        await service.close()
        await runner.cleanup()


async def _names(user_ids: Any) -> dict[int, str]:
    return {u: USERS[u] for u in user_ids if u in USERS}


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (apt-get install chromium; .ci/run installs it)")
    playwright_api = pytest.importorskip("playwright.async_api")
    SCREENSHOTS.mkdir(exist_ok=True)
    async with playwright_api.async_playwright() as p:
        chromium = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield chromium
        finally:
            await chromium.close()
