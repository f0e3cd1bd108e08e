"""Launching the Discord Activity from Discord (SimCord): with ACTIVITY_ENABLED, board messages carry a
"Play in Discord" button and /play without an opponent answers with the launch-activity response (callback
type 12); where Discord refuses it (an application without an Activity: SimCord has no type 12 either) the
user is told to use the board's link; without the setting everything is as before."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
import pytest

from bot import views
from bot.settings import load_web_settings
from bot.web import serve
from tests.bot.helpers import button_labels, last_board, start_challenge, take_user_errors

SECRET = "v" * 40
BASE = "https://tessera.example"


def _configure(**extra: Any) -> None:
    settings = load_web_settings(  # type: ignore[call-arg]
        _env_file=None, web_secret=SECRET, web_base_url=BASE, **extra
    )
    serve.configure_links(settings)


@pytest.fixture
def activity() -> Iterator[None]:
    _configure(activity_enabled=True)
    yield
    views.set_board_link(None)
    views.set_activity(None)


@pytest.fixture
def launches(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """Record launch-activity responses (the channel) instead of sending them: SimCord has no type 12."""
    seen: list[int | None] = []

    async def launch(self: discord.InteractionResponse[Any]) -> None:
        seen.append(self._parent.channel_id)
        self._response_type = discord.InteractionResponseType.launch_activity

    monkeypatch.setattr(discord.InteractionResponse, "launch_activity", launch)
    return seen


async def test_board_messages_offer_play_in_discord(world: Any, activity: None, launches: list[Any]) -> None:
    await start_challenge(world, world.alice, world.bob, "paint")
    board = last_board(world.channel)
    assert "Play in Discord" in button_labels(board)
    clicked = await world.bob.click(board, label="Play in Discord")
    assert clicked.acknowledged or launches
    assert launches == [world.channel.id]


async def test_play_without_an_opponent_launches_the_activity(
    world: Any, activity: None, launches: list[Any]
) -> None:
    await world.alice.slash(world.channel, "play", game="paint")
    assert launches == [world.channel.id]
    assert take_user_errors(world) == []


async def test_a_refused_launch_says_what_to_do(world: Any, activity: None) -> None:
    await start_challenge(world, world.alice, world.bob, "paint")
    clicked = await world.bob.click(last_board(world.channel), label="Play in Discord")
    assert clicked.ephemeral and "Open board" in clicked.response.content


async def test_without_the_activity_nothing_changes(world: Any, launches: list[Any]) -> None:
    _configure()
    try:
        await start_challenge(world, world.alice, world.bob, "paint")
        assert "Play in Discord" not in button_labels(last_board(world.channel))
        result = await world.alice.slash(world.channel, "play", game="paint")
        assert result.ephemeral and "Choose an opponent" in result.response.content
        assert launches == []
        take_user_errors(world)
    finally:
        views.set_board_link(None)


async def test_servers_with_the_web_board_off_get_no_activity(world: Any, launches: list[Any]) -> None:
    _configure(activity_enabled=True, web_disabled_guilds=str(world.guild.id))
    try:
        await start_challenge(world, world.alice, world.bob, "paint")
        assert "Play in Discord" not in button_labels(last_board(world.channel))
        result = await world.alice.slash(world.channel, "play", game="paint")
        assert result.ephemeral and launches == []
        take_user_errors(world)
    finally:
        views.set_board_link(None)
        views.set_activity(None)


async def test_the_global_sync_keeps_the_entry_point_command(
    world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord creates a "Launch" entry point command (type 4) when Activities are enabled and refuses a
    bulk overwrite that drops it: with the Activity on, the global sync sends it back unchanged."""
    bot = world.env.bot
    entry = {"id": "900", "name": "launch", "type": 4, "description": "Launch Tessera", "handler": 2}
    sent: list[list[dict[str, Any]]] = []
    real_upsert = bot.http.bulk_upsert_global_commands

    async def existing(app_id: int) -> list[dict[str, Any]]:
        return [entry, {"id": "901", "name": "old", "type": 1, "description": "gone"}]

    async def upsert(app_id: int, payload: list[dict[str, Any]]) -> Any:
        sent.append(payload)
        stored = await real_upsert(app_id, payload=[c for c in payload if c.get("type") != 4])
        return [*stored, entry] if any(c.get("type") == 4 for c in payload) else stored

    monkeypatch.setattr(bot.http, "get_global_commands", existing)
    monkeypatch.setattr(bot.http, "bulk_upsert_global_commands", upsert)
    monkeypatch.setattr(bot, "settings", bot.settings.model_copy(update={"activity_enabled": True}))
    synced = await bot.sync_tree(None)
    names = {c["name"] for c in sent[0]}
    assert entry in [{k: c.get(k) for k in entry} for c in sent[0]]
    assert {"play", "move"} <= names and "old" not in names
    assert "launch" not in {c.name for c in synced} and {"play", "move"} <= {c.name for c in synced}
    monkeypatch.setattr(bot, "settings", bot.settings.model_copy(update={"activity_enabled": False}))
    sent.clear()
    await bot.sync_tree(None)  # without the Activity: discord.py's own sync, no entry point
    assert sent and all(c.get("type") != 4 for c in sent[0])
