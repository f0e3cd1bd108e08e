"""The Activity's start screen on the wire and in time (issue 44).

A board with the Activity on (a throw-away SQLite database, a fake Discord on loopback for the sign-in and the
instance check) answers what the start screen fetches:

- GET /api/activity/channel: every game's card (seats, picture path, option controls, the bot's rating per
  level), the presets, the instance's tables (all but one in the instance's channel: its main match and side
  tables, as several tables at once leave it); as sent (gzip, as every browser takes it) and as JSON, and
  how long it takes (median of `--rounds`, the instance check cached as in production);
- GET /api/activity/picture/<game>.png for each registered game: its size, and the first (drawn) and a later
  (kept) answer's time.

    python bench/activity_start.py
    python bench/activity_start.py --rounds 50 --tables 6
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

import games
from bot.service import Service
from bot.web.activity import SESSION_HEADER
from bot.web.app import WebBoard
from bot.web.discord_api import DiscordRest
from games.base import resolve_options
from tests.web.conftest import BOT_TOKEN, USERS, FakeDiscord, code_for, free_port

GUILD = 77
CHANNEL = 500


async def run(rounds: int, tables: int) -> None:
    fake = FakeDiscord(free_port())
    runner = web.AppRunner(fake.app())
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", fake.port).start()
    with tempfile.TemporaryDirectory() as folder:
        service = await Service.open(f"sqlite:///{folder}/bench.sqlite3")
        users = list(USERS)
        for n in range(tables):  # the instance's channel: its main match and side tables, and one elsewhere
            rules = games.get("paint")
            await service.matches.start(
                "paint",
                resolve_options(rules.options, {}),
                [(users[n % len(users)], None), (users[(n + 1) % len(users)], None)],
                seed=n,
                rated=False,
                turn_timeout=3600,
                guild_id=GUILD,
                channel_id=CHANNEL if n < tables - 1 else CHANNEL + 1,
                side=True,  # as the Activity starts them: the first is the channel's main match
            )
        board = WebBoard(
            service,
            secret="q" * 8 + "Hq3xZ8pL2mK9wR4tY7uB1nC6dF5gJ0sA",
            base_url="https://tessera.example",
            client_id="555",
            client_secret="secret",
            api_url=fake.url,
            rest=DiscordRest(fake.url, BOT_TOKEN),
            activity=True,
        )
        async with TestClient(TestServer(board.app())) as client:
            login = await (await client.post("/api/activity/token", json={"code": code_for(users[0])})).json()
            client.session.cookie_jar.clear()
            headers = {SESSION_HEADER: login["session"], "Accept-Encoding": "gzip"}
            query = f"channel_id={CHANNEL}&guild_id={GUILD}&instance_id=i-{CHANNEL}-{GUILD}"
            times = []
            body = b""
            for _ in range(rounds):
                started = time.perf_counter()
                answer = await client.get(f"/api/activity/channel?{query}", headers=headers)
                body = await answer.read()
                times.append((time.perf_counter() - started) * 1000)
                assert answer.status == 200, body
            sent = len(gzip.compress(body, 6))
            print(
                f"start screen ({len(games.GAME_IDS)} games, {tables} tables): {sent / 1024:.1f} KB gzip "
                f"({len(body) / 1024:.0f} KB JSON), p50 {statistics.median(times):.1f} ms, "
                f"max {max(times):.1f} ms over {rounds}"
            )
            for game in games.GAME_IDS:
                path = f"/api/activity/picture/{game}.png"
                started = time.perf_counter()
                picture = await (await client.get(path)).read()
                first = (time.perf_counter() - started) * 1000
                started = time.perf_counter()
                await (await client.get(path)).read()
                kept = (time.perf_counter() - started) * 1000
                size = len(picture) / 1024
                print(f"card picture {game}: {size:.1f} KB, first {first:.0f} ms, kept {kept:.1f} ms")
        await service.close()
    await runner.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--tables", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(run(args.rounds, args.tables))


if __name__ == "__main__":
    main()
