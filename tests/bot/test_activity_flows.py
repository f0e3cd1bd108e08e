"""Launching the Discord Activity from Discord (SimCord): with ACTIVITY_ENABLED, board messages carry a
"Play in Discord" button and /play without an opponent answers with the launch-activity response (callback
type 12); where Discord refuses it (an application without an Activity: SimCord has no type 12 either) the
user is told to use the board's link; without the setting everything is as before."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from typing import Any

import aiohttp
import discord
import pytest

import games
from bot import views
from bot.settings import load_web_settings
from bot.testing.simcord import boards, button_labels, last_board, start_challenge, take_user_errors
from bot.web import serve
from bot.web.activity import LAUNCH_FRESH, LAUNCH_KEY, SESSION_HEADER
from bot.web.app import WebBoard
from bot.web.discord_api import ActivityInstance, DiscordRest
from games.base import clickable_moves

SECRET = "v" * 8 + "Hq3xZ8pL2mK9wR4tY7uB1nC6dF5gJ0sA"  # random-looking: the settings refuse guessable ones
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


async def _activity_board(world: Any, member: Any) -> tuple[WebBoard, str]:
    """The bot's web board with the Activity on, on a free loopback port, its instances seen with `member`
    in them; the board and its base URL (the caller closes it)."""
    bot = world.env.bot
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    board = WebBoard(
        bot.runtime.service,
        secret=SECRET,
        base_url=BASE,
        client_id=str(bot.user.id),
        client_secret="activity-secret",
        announce=serve.announcer(bot),
        activity=True,
        rest=_Instances(world.guild.id, frozenset({member.id})),
    )
    await board.start("127.0.0.1", port)
    return board, f"http://127.0.0.1:{port}"


class _Instances(DiscordRest):
    """Discord's answer about Activity instances: every instance runs in the channel its id names."""

    def __init__(self, guild_id: int, users: frozenset[int]) -> None:
        super().__init__("http://127.0.0.1:9", "unused")
        self.guild_id, self.users = guild_id, users

    async def activity_instance(self, application_id: str, instance_id: str) -> ActivityInstance | None:
        return ActivityInstance(instance_id, int(instance_id.removeprefix("i-")), self.guild_id, self.users)


async def test_a_match_started_in_the_activity_is_played_in_the_channel(
    world: Any, activity: None, launches: list[Any]
) -> None:
    """/play game:X without an opponent carries the game and its options into the Activity; the match started
    there against the bot gets its first board in the channel at once, as /play's does, and the bot's answer
    to a move made in the Activity follows that move's board."""
    board, base = await _activity_board(world, world.alice)
    try:
        await world.alice.slash(world.channel, "play", game="paint", options="move_cap=40")
        assert launches == [world.channel.id]
        cookie = board.signer.session_cookie(world.alice.id, "alice", "en")
        headers = {SESSION_HEADER: cookie, "X-CSRF-Token": board.signer.session(cookie).csrf}  # type: ignore[union-attr]
        place = {"channel_id": str(world.channel.id), "guild_id": str(world.guild.id)}
        instance = f"i-{world.channel.id}"
        posted = len(boards(world.channel))
        async with aiohttp.ClientSession() as http:
            query = "&".join(f"{k}={v}" for k, v in (place | {"instance_id": instance}).items())
            async with http.get(f"{base}/api/activity/channel?{query}", headers=headers) as answer:
                offered = await answer.json()
            assert offered["match"] is None and offered["asked"] == {
                "game": "paint",
                "options": "move_cap=40",
            }
            start = place | {"instance_id": instance, "game": "paint", "options": "move_cap=40"}
            async with http.post(
                f"{base}/api/activity/start",
                json=start | {"opponent": "bot", "level": "1"},
                headers=headers,
            ) as answer:
                started = await answer.json()
            assert started["ok"], started
            match_id = started["match"]["id"]
            # the suggestion, used, is no longer offered nor kept
            assert await board.service.store.get_meta(LAUNCH_KEY.format(channel_id=world.channel.id)) is None
            await _wait_for(lambda: len(boards(world.channel)) > posted)
            first = boards(world.channel)[posted]
            assert "The match begins." in first.content and f"match #{match_id}" in first.content
            service = board.service
            match = await service.matches.get(match_id)
            if match.seats[match.to_move].user_id != world.alice.id:  # the bot opened: its board follows
                await _wait_for(lambda: len(boards(world.channel)) > posted + 1)
                match = await service.matches.get(match_id)
            assert match.seats[match.to_move].user_id == world.alice.id
            token = started["match"]["path"].split("/")[-1]
            before = len(boards(world.channel))
            move = clickable_moves(games.get("paint"), match.state)[0].notation
            async with http.post(
                f"{base}/api/m/{token}/move", json={"move": move, "ply": match.ply}, headers=headers
            ) as answer:
                assert (await answer.json()) == {"ok": True}
            await _wait_for(lambda: len(boards(world.channel)) >= before + 2)
        mine, answer_board = boards(world.channel)[before : before + 2]
        assert move in mine.content and f"<@{world.alice.id}>, your turn" in answer_board.content
        assert (await service.matches.get(match_id)).ply == match.ply + 2
    finally:
        await board.close()


async def _wait_for(predicate: Any, timeout: float = 60.0) -> None:
    """Wait for what the web side sets off in the bot (a board, the bot's move in a worker process); the
    limit is one only a hang reaches, so a busy machine only takes longer."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        assert loop.time() < end, "nothing came"
        await asyncio.sleep(0.05)


async def test_a_challenge_accepted_in_the_activity_updates_its_message_in_the_channel(
    world: Any, activity: None
) -> None:
    """A /play challenge accepted inside the Activity: its message in the channel says it was accepted and
    loses its buttons, as its Accept button leaves it, and the match's first board follows."""
    board, base = await _activity_board(world, world.bob)
    try:
        asked = await world.alice.slash(world.channel, "play", game="paint", opponent=world.bob)
        message_id = asked.response.id
        challenge_id = (await board.service.challenges.pending(world.channel.id))[0].id
        posted = len(boards(world.channel))
        cookie = board.signer.session_cookie(world.bob.id, "bob", "en")
        headers = {SESSION_HEADER: cookie, "X-CSRF-Token": board.signer.session(cookie).csrf}  # type: ignore[union-attr]
        async with (
            aiohttp.ClientSession() as http,
            http.post(
                f"{base}/api/activity/accept",
                json={"challenge_id": challenge_id},
                headers=headers,
            ) as answer,
        ):
            accepted = await answer.json()
        assert accepted["ok"], accepted
        match_id = accepted["match"]["id"]
        await _wait_for(lambda: len(boards(world.channel)) > posted)

        def challenge_message() -> Any:
            return next(m for m in world.channel.history() if m.id == message_id)

        await _wait_for(lambda: f"Accepted: match #{match_id}." in challenge_message().content)
        assert challenge_message().content.startswith(
            f"<@{world.bob.id}>, <@{world.alice.id}> challenges you"
        )
        assert button_labels(challenge_message()) == []
    finally:
        await board.close()


async def test_play_suggestions_for_the_activity_expire_from_the_database(
    world: Any, activity: None, launches: list[Any]
) -> None:
    """/play game:X without an opponent keeps its game for the Activity one quarter-hour: a later launch in
    any channel deletes the stale ones, so the meta table does not keep a row per channel for ever."""
    store = world.env.bot.runtime.service.store
    other = world.guild.create_text_channel("more-games")
    await world.alice.slash(world.channel, "play", game="paint")
    await world.env.advance_time(LAUNCH_FRESH / 2)
    await world.bob.slash(other, "play", game="paint")
    prefix = LAUNCH_KEY.split("{")[0]
    kept = {LAUNCH_KEY.format(channel_id=c.id) for c in (world.channel, other)}
    assert set(await store.meta_with_prefix(prefix)) == kept
    await world.env.advance_time(LAUNCH_FRESH / 2 + 1)
    await world.carol.slash(other, "play", game="tilingking")
    assert set(await store.meta_with_prefix(prefix)) == {LAUNCH_KEY.format(channel_id=other.id)}
    await world.env.advance_time(LAUNCH_FRESH + 1)
    await world.alice.slash(world.channel, "play", game="paint")
    assert set(await store.meta_with_prefix(prefix)) == {LAUNCH_KEY.format(channel_id=world.channel.id)}
    assert len(launches) == 4


async def test_a_challenge_withdrawn_in_the_activity_says_so_in_the_channel(
    world: Any, activity: None
) -> None:
    """A /play challenge withdrawn inside the Activity: its message in the channel says it was withdrawn and
    loses its buttons, as its Withdraw button leaves it."""
    board, base = await _activity_board(world, world.alice)
    try:
        asked = await world.alice.slash(world.channel, "play", game="paint", opponent=world.bob)
        message_id = asked.response.id
        challenge_id = (await board.service.challenges.pending(world.channel.id))[0].id
        cookie = board.signer.session_cookie(world.alice.id, "alice", "en")
        headers = {SESSION_HEADER: cookie, "X-CSRF-Token": board.signer.session(cookie).csrf}  # type: ignore[union-attr]
        async with (
            aiohttp.ClientSession() as http,
            http.post(
                f"{base}/api/activity/withdraw", json={"challenge_id": challenge_id}, headers=headers
            ) as answer,
        ):
            assert (await answer.json()) == {"ok": True, "challenge": challenge_id}

        def challenge_message() -> Any:
            return next(m for m in world.channel.history() if m.id == message_id)

        await _wait_for(lambda: "withdrew the Paint challenge" in challenge_message().content)
        assert button_labels(challenge_message()) == []
    finally:
        await board.close()


async def test_a_side_table_beside_the_channels_match(world: Any, activity: None) -> None:
    """A match runs in the channel; a second one started in the Activity is a side table: its first board is
    posted in the channel too (its buttons name it), and the channel's /move still plays the main match."""
    board, base = await _activity_board(world, world.alice)
    try:
        await start_challenge(world, world.bob, world.alice, "paint")
        main = await board.service.matches.in_channel(world.channel.id)
        cookie = board.signer.session_cookie(world.alice.id, "alice", "en")
        headers = {SESSION_HEADER: cookie, "X-CSRF-Token": board.signer.session(cookie).csrf}  # type: ignore[union-attr]
        place = {"channel_id": str(world.channel.id), "guild_id": str(world.guild.id)}
        start = place | {
            "instance_id": f"i-{world.channel.id}",
            "game": "paint",
            "opponent": "bot",
            "level": "1",
        }
        posted = len(boards(world.channel))
        async with (
            aiohttp.ClientSession() as http,
            http.post(f"{base}/api/activity/start", json=start, headers=headers) as answer,
        ):
            started = await answer.json()
        assert started["ok"], started
        side = await board.service.matches.get(started["match"]["id"])
        assert side.side and side.channel_id == world.channel.id
        await _wait_for(lambda: len(boards(world.channel)) > posted)
        assert f"match #{side.id}" in boards(world.channel)[posted].content
        assert (await board.service.matches.in_channel(world.channel.id)).id == main.id
    finally:
        await board.close()
