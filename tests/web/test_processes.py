"""Several processes on one PostgreSQL database: a move made by another process (another shard, or the bot
process while the web board runs on its own) reaches the web board's event streams through the store's
LISTEN/NOTIFY, within a second. Skipped without TESSERA_TEST_DATABASE_URL (CI sets it)."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest
from aiohttp.test_utils import TestClient, TestServer

import games
from bot.service import Service
from bot.service.store.postgres import with_search_path
from bot.web.app import WebBoard
from bot.web.security import match_token
from bot.web.wire import unpacked
from games.base import clickable_moves, resolve_options
from tests.service.conftest import postgres_server

SECRET = "p" * 40


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    server = postgres_server()
    schema = f"test_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield with_search_path(server, schema)
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await admin.close()


async def test_another_process_move_reaches_the_page(pg_url: str) -> None:
    bot_process = await Service.open(pg_url)
    web_process = await Service.open(pg_url)
    board = WebBoard(web_process, secret=SECRET, base_url="http://web.test")
    listening = asyncio.get_running_loop().create_task(board._listen())
    try:
        rules = games.get("paint")
        match = await bot_process.matches.start(
            "paint",
            resolve_options(rules.options, {}),
            [(1, None), (2, None)],
            seed=3,
            rated=False,
            turn_timeout=3600,
            guild_id=None,
            channel_id=1,
        )
        async with TestClient(TestServer(board.app())) as client:
            stream = await client.get(f"/api/m/{match_token(SECRET, match.id)}/events")
            await stream.content.readline()
            await asyncio.sleep(0.3)  # the listener's connection is up
            move = clickable_moves(rules, match.state)[0].notation
            loop = asyncio.get_running_loop()
            started = loop.time()
            await bot_process.matches.play(match.id, match.seats[match.to_move].user_id, move)
            while True:  # (the listener's connection may announce the unchanged match first)
                line = await asyncio.wait_for(stream.content.readline(), 2.0)
                if line.startswith(b"data: ") and json.loads(line[6:])["ply"] == 1:
                    break
            assert loop.time() - started < 1.0
            state = unpacked(line[6:])
            assert state["moves"][0]["notation"] == move
            stream.close()
    finally:
        listening.cancel()
        await web_process.close()
        await bot_process.close()


async def test_a_change_elsewhere_rereads_only_the_match_it_names(pg_url: str) -> None:
    """The NOTIFY names the match: a page of another match is not read again."""
    bot_process = await Service.open(pg_url)
    web_process = await Service.open(pg_url)
    board = WebBoard(web_process, secret=SECRET, base_url="http://web.test")
    listening = asyncio.get_running_loop().create_task(board._listen())
    rules = games.get("paint")
    try:
        started = [
            await bot_process.matches.start(
                "paint",
                resolve_options(rules.options, {}),
                [(1, None), (2, None)],
                seed=3,
                rated=False,
                turn_timeout=3600,
                guild_id=None,
                channel_id=channel,
            )
            for channel in (1, 2)
        ]
        moved, watched = started
        async with TestClient(TestServer(board.app())) as client:
            streams = [
                await client.get(f"/api/m/{match_token(SECRET, m.id)}/events") for m in (moved, watched)
            ]
            for stream in streams:
                await stream.content.readline()
            await asyncio.sleep(0.3)  # the listener's connection is up (and has read every page once)
            read: list[int] = []
            get = web_process.matches.get

            async def counting_get(match_id: int) -> Any:
                read.append(match_id)
                return await get(match_id)

            web_process.matches.get = counting_get  # type: ignore[method-assign]
            move = clickable_moves(rules, moved.state)[0].notation
            await bot_process.matches.play(moved.id, moved.seats[moved.to_move].user_id, move)
            while True:
                line = await asyncio.wait_for(streams[0].content.readline(), 2.0)
                if line.startswith(b"data: ") and json.loads(line[6:])["ply"] == 1:
                    break
            await asyncio.sleep(0.2)
            assert moved.id in read and watched.id not in read
            for stream in streams:
                stream.close()
    finally:
        listening.cancel()
        await web_process.close()
        await bot_process.close()
