"""The kit's fixtures: the real TesseraBot on a temporary database, driven through the real command tree
in SimCord (`simcord_env`, from SimCord's own pytest plugin, starts the bot `simcord_bot` builds); `world`
adds a guild, a channel and three members. The AI runner thinks with a tiny budget so bot-opponent tests
stay fast. Registered by the kit's plugin (bot/testing/plugin.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import pytest_asyncio

if TYPE_CHECKING:
    from bot.client import TesseraBot
    from bot.service.ai import AIRunner
    from bot.settings import Settings

FAKE_TOKEN = "MTAxMjM0NTY3ODkwMTIzNDU2.GaBcDe.abcdefghijklmnopqrstuvwxyz0123"


def make_settings(data_dir: Path, **overrides: Any) -> Settings:
    """Settings for a test: a database in `data_dir`, and no .env file read from the working folder."""
    from bot.settings import Settings

    values: dict[str, Any] = {
        "discord_token": FAKE_TOKEN,
        "database_url": f"sqlite:///{data_dir / 'tessera.sqlite3'}",
        "shard_count": 1,
        "puzzle_mining": False,  # a test that mines turns it on
        "puzzle_starters": False,  # likewise a test that serves the starter pools
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path / "data")


@pytest_asyncio.fixture
async def ai_runner() -> AsyncIterator[AIRunner]:
    from bot.service.ai import AIRunner

    runner = AIRunner(workers=1, iterations=40)
    yield runner
    await runner.aclose()


BotFactory = Callable[..., "TesseraBot"]


@pytest_asyncio.fixture
async def make_bot(settings: Settings, ai_runner: AIRunner) -> AsyncIterator[BotFactory]:
    """Build TesseraBots on the test's database (one per start or restart); all are closed at teardown.

    SimCord detaches a bot on shutdown and restart without closing it, so the bot's store would stay open
    (and aiosqlite's worker threads would keep the interpreter alive): closing them here is the same
    `bot.close()` that SIGINT/SIGTERM runs in production.
    """
    from concurrent.futures import ThreadPoolExecutor

    from bot.client import TesseraBot
    from bot.drawing import Drawing

    built: list[TesseraBot] = []

    def build(**overrides: Any) -> TesseraBot:
        # Boards and replays on threads rather than worker processes: no process start-up in every bot
        # test (tests/bot/test_drawing.py runs the real process pools).
        drawing = Drawing(board_processes=False, replay_executor=ThreadPoolExecutor(1))
        bot = TesseraBot(settings, ai_runner=ai_runner, drawing=drawing, **overrides)
        built.append(bot)
        return bot

    yield build
    for bot in built:
        runtime = getattr(bot, "runtime", None)
        if runtime is not None:
            await runtime.close()


@pytest.fixture
def simcord_bot(make_bot: BotFactory) -> TesseraBot:
    return make_bot()


@dataclass
class World:
    env: Any
    guild: Any
    channel: Any
    alice: Any
    bob: Any
    carol: Any
    admin: Any
    me: Any


@pytest.fixture
def world(simcord_env: Any) -> World:
    import discord

    guild = simcord_env.create_guild("Tessera Club")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    carol = guild.add_member(simcord_env.create_user("carol"))
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(simcord_env.create_user("ada"), roles=[admins])
    me = simcord_env.bot.user
    return World(simcord_env, guild, channel, alice, bob, carol, admin, me)
