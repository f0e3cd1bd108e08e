"""Durability: a restart in the middle of a match (same database) keeps its buttons working and the match
going, and turn deadlines keep firing on SimCord's virtual clock."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bot.client import TesseraBot
from bot.drawing import Drawing
from bot.service.ai import AIRunner
from bot.settings import Settings
from bot.testing.simcord import button_labels, last_board, start_challenge, suggestions


async def test_restart_mid_match_keeps_buttons_moves_and_deadlines(world: Any, make_bot: Any) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    await start_challenge(world, alice, bob, "paintscape", first="challenger", turn_timeout=10)
    board_before = last_board(channel)
    assert "Done swapping" in button_labels(board_before)

    await env.restart_bot(make_bot())
    # No second sync: the command set did not change.
    syncs = [r for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert len(syncs) == 1

    # A button posted before the restart still works, and the match goes on with /move.
    await alice.click(board_before, label="Done swapping")
    await bob.click(last_board(channel), label="Play White (second)")
    board = last_board(channel)
    assert f"<@{alice.id}>, your turn as Black" in board.content
    moves = await suggestions(alice, channel)
    await alice.slash(channel, "move", notation=moves[0])
    assert f"<@{bob.id}>, your turn as White" in last_board(channel).content

    # Bob lets the clock run out (10 minutes per turn): the deadline fires once and Alice wins.
    await env.advance_time(9 * 60)
    assert "ran out of time" not in last_board(channel).content
    await env.advance_time(2 * 60)
    final = last_board(channel)
    assert f"<@{bob.id}> ran out of time. **<@{alice.id}> wins on time.**" in final.content
    await env.advance_time(60 * 60)
    assert sum("ran out of time" in m.content for m in channel.history()) == 1


async def test_a_deadline_fires_after_a_restart(world: Any, make_bot: Any) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    await start_challenge(world, alice, bob, "paint", first="challenger", turn_timeout=10)
    await env.restart_bot(make_bot())
    await env.advance_time(11 * 60)
    final = last_board(channel)
    assert f"<@{alice.id}> ran out of time" in final.content and f"<@{bob.id}>" in final.content


async def test_an_unanswered_challenge_expires(world: Any) -> None:
    await world.alice.slash(world.channel, "play", game="paint", opponent=world.bob)
    await world.env.advance_time(16 * 60)
    assert "expired" in world.channel.history()[-1].content


async def test_commands_sync_again_only_when_they_changed(world: Any, make_bot: Any) -> None:
    env = world.env

    def syncs() -> int:
        return sum(1 for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands"))

    assert syncs() == 1
    await env.restart_bot(make_bot())
    assert syncs() == 1
    fewer = ("cogs.play", "cogs.moves", "cogs.info")
    await env.restart_bot(make_bot(extensions=fewer))
    assert syncs() == 2
    assert "settings" not in world.alice.available_commands(world.channel)


async def test_commands_sync_once_per_deployment_from_the_shard_0_process(
    world: Any, settings: Settings, ai_runner: AIRunner
) -> None:
    env = world.env

    def syncs() -> int:
        return sum(1 for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands"))

    stored = await env.bot.runtime.service.store.get_meta("commands-global.sha256")
    assert stored == env.bot.command_fingerprint(), "the fingerprint of the sync is in the database"
    assert settings.database_path is not None
    assert not list(settings.database_path.parent.glob("*.sha256")), "and not in a file beside it"
    started: list[TesseraBot] = []

    async def restart_as(shard: int, extensions: tuple[str, ...]) -> None:
        sharded = settings.model_copy(update={"shard_count": 2, "shard_ids": (shard,)})
        drawing = Drawing(board_processes=False, replay_executor=ThreadPoolExecutor(1))
        bot = TesseraBot(sharded, ai_runner=ai_runner, drawing=drawing, extensions=extensions)
        started.append(bot)
        await env.restart_bot(bot)

    fewer = ("cogs.play", "cogs.moves", "cogs.info")
    try:
        await restart_as(1, fewer)  # other commands than the last sync, but shard 1 never syncs
        assert not started[-1].syncs_commands and syncs() == 1
        await restart_as(0, fewer)  # the shard 0 process syncs the change, once
        assert syncs() == 2
        await restart_as(0, fewer)
        assert syncs() == 2
    finally:
        for bot in started:
            await bot.runtime.close()
