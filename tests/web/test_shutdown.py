"""Stopping the web board ends its open event streams at once: aiohttp waits for every handler before it
stops, and an idle stream waits KEEPALIVE seconds for news (longer than a container's stop grants)."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

import games
from bot.service import Service
from bot.web import app as web_app
from bot.web.app import WebBoard
from bot.web.security import match_token
from games.base import resolve_options

SECRET = "q" * 40
HANG = 60.0
"""Seconds after which stopping counts as hung; only a stream that does not end reaches it (its wait for news
is an hour here, and so is aiohttp's wait for handlers)."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_stopping_ends_open_event_streams_without_waiting_for_news(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web_app, "KEEPALIVE", 3600.0)
    service = await Service.open(f"sqlite:///{tmp_path / 'w.sqlite3'}")
    rules = games.get("paint")
    options = resolve_options(rules.options, {})
    players = [(1, None), (2, None)]
    match = await service.matches.start(
        "paint", options, players, seed=1, rated=False, turn_timeout=3600, guild_id=None, channel_id=5
    )
    port = _free_port()
    board = WebBoard(
        service, secret=SECRET, base_url=f"http://127.0.0.1:{port}", client_id="1", client_secret="s"
    )
    runner = web.AppRunner(board.app(), shutdown_timeout=3600)  # as WebBoard.start, without its 60 s cut-off
    await runner.setup()
    try:
        await web.TCPSite(runner, "127.0.0.1", port).start()
        async with aiohttp.ClientSession() as http:
            url = f"http://127.0.0.1:{port}/api/m/{match_token(SECRET, match.id)}/events"
            async with http.get(url) as stream:
                assert (await stream.content.readline()).startswith(b"retry:")
                # The stream stays open (a browser tab left open) while the board stops.
                await asyncio.wait_for(runner.cleanup(), HANG)
                assert (await stream.content.read()).strip() == b"", "the server ended the stream"
        assert board.hub.count() == 0
    finally:
        await service.close()  # a hung stream is cancelled with the test's event loop
