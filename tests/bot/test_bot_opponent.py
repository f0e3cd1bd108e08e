"""Playing against the bot: no challenge to accept; after each human move the bot thinks in its AI worker
process (a tiny budget here) and plays through the service like a player."""

from __future__ import annotations

from typing import Any

import pytest

from bot.testing.simcord import bot_member, button_labels, last_board, suggestions

pytestmark = pytest.mark.simcord(settle_timeout=60)


async def test_paintscape_against_the_bot_through_balancing_and_play(world: Any) -> None:
    alice, channel = world.alice, world.channel
    result = await alice.slash(
        channel,
        "play",
        game="paintscape",
        opponent=bot_member(world),
        level="1",
        first="challenger",
        rated=False,
    )
    assert not result.ephemeral
    board = last_board(channel)
    assert f"<@{alice.id}>, your turn as Balancer" in board.content

    await alice.click(board, label="Done swapping")
    # The bot, as chooser, picked a colour by itself and (if Black) already placed a stone.
    board = last_board(channel)
    assert "Tessera" in board.content
    assert f"<@{alice.id}>, your turn as" in board.content
    for _ in range(3):
        moves = await suggestions(alice, channel)
        await alice.slash(channel, "move", notation=moves[0])
        board = last_board(channel)
        assert f"<@{alice.id}>, your turn as" in board.content, board.content
    # Against the bot a takeback happens at once (in a casual match: tests/bot/test_takebacks.py).
    taken = await alice.slash(channel, "takeback")
    assert not taken.ephemeral and "Taken back" in last_board(channel).content


async def test_the_bot_fills_a_tilingking_lobby_seat(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    lobby = await alice.slash(
        channel, "play", game="tilingking", players=3, opponent=bot_member(world), level="1"
    )
    message = lobby.response
    assert "Tessera (level 1)" in message.content and "Join" in button_labels(message)
    joined = await bob.click(message, label="Join")
    assert joined.acknowledged
    started = await alice.click(channel.history()[-1], label="Start")
    assert started.acknowledged
    # Whoever sits first, the board now waits for a human (the bot moved if it was its turn).
    board = last_board(channel)
    assert "your turn" in board.content


async def test_a_match_against_the_bot_can_live_in_its_own_thread(world: Any) -> None:
    alice, channel = world.alice, world.channel
    await world.admin.slash(channel, "settings", allow_channel=channel)
    result = await alice.slash(
        channel,
        "play",
        game="paint",
        opponent=bot_member(world),
        level="1",
        first="challenger",
        thread=True,
    )
    assert not result.ephemeral
    (thread,) = channel.threads
    assert any(f"<#{thread.id}>" in m.content for m in channel.history()), "the channel points to the thread"
    board = last_board(thread)
    assert f"<@{alice.id}>, your turn as White" in board.content and board.attachments
    await alice.slash(thread, "move", notation="c1-c3")
    board = last_board(thread)
    assert f"<@{alice.id}>, your turn as White" in board.content, "the bot answered in the thread"
