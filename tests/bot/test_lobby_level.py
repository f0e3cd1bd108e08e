"""A lobby keeps the bot's level chosen in /play for its whole life, through the real bot in SimCord: Join,
Leave and Add bot redraw its message with that level, and the bot joins at it."""

from __future__ import annotations

from typing import Any

import pytest

from bot.testing.simcord import button_labels

pytestmark = pytest.mark.simcord(settle_timeout=60)


async def test_the_level_chosen_in_play_holds_for_the_lobbys_whole_life(world: Any) -> None:
    alice, bob, carol, channel = world.alice, world.bob, world.carol, world.channel
    opened = await alice.slash(channel, "play", game="tilingking", players=4, level="8", thread=True)
    message = opened.response
    assert "Add bot (level 8)" in button_labels(message)
    for who, label in ((bob, "Join"), (carol, "Join"), (carol, "Leave")):
        pressed = await who.click(message, label=label)
        assert pressed.acknowledged and not pressed.ephemeral
        message = channel.history()[-1]
        assert "Add bot (level 8)" in button_labels(message), (label, button_labels(message))
    added = await alice.click(message, label="Add bot (level 8)")
    assert added.acknowledged
    message = channel.history()[-1]
    assert "Tessera (level 8)" in message.content, message.content
    assert "Add bot (level 8)" in button_labels(message)
    await alice.click(message, label="Add bot (level 8)")
    message = channel.history()[-1]
    assert message.content.count("Tessera (level 8)") == 2, message.content
    service = world.env.bot.parts.service
    [lobby] = await service.lobbies.open_in(channel.id)
    assert [m.ai_level for m in lobby.members] == [None, None, "8", "8"]
    started = await alice.click(message, label="Start")
    assert started.acknowledged
    assert any(thread.name.startswith("TilingKing #") for thread in channel.threads), "the thread choice held"
