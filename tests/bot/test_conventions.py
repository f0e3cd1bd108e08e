"""Conventions players expect from a Discord game bot: /help (the commands and the games at a glance), the
"Challenge to a game" user menu (the same challenge as /play), and /prefs (theme and reminders)."""

from __future__ import annotations

from typing import Any

import pytest

import games
from tests.bot.helpers import bot_member, button_labels, last_board, reply_text, take_user_errors


async def test_the_context_menu_challenges_a_member_like_play(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    menu = await alice.context_menu(channel, "Challenge to a game", bob)
    assert menu.ephemeral and "which game" in reply_text(menu)
    picker = menu.response
    offered = [o["value"] for row in picker.components for c in row["components"] for o in c["options"]]
    assert offered == [g for g, rules in games.GAMES.items() if 2 in rules.seats]

    picked = await alice.select(picker, ["paint"])
    assert picked.acknowledged
    challenge = channel.history()[-1]
    assert not challenge.flags.ephemeral
    assert f"<@{bob.id}>, <@{alice.id}> challenges you to **Paint**" in challenge.content
    assert button_labels(challenge) == ["Accept", "Decline", "Withdraw"]
    await bob.click(challenge, label="Accept")
    board = last_board(channel)
    assert "**Paint** · match #1" in board.content and "your turn as White" in board.content


async def test_the_context_menu_on_me_starts_a_match_against_the_bot(world: Any) -> None:
    alice, channel = world.alice, world.channel
    menu = await alice.context_menu(channel, "Challenge to a game", bot_member(world))
    await alice.select(menu.response, ["paint"])
    board = last_board(channel)
    assert "Tessera (medium" in board.content and "**Paint**" in board.content


@pytest.mark.parametrize("target", ["self", "other bot"])
async def test_the_context_menu_refuses_yourself_and_other_bots(world: Any, target: str) -> None:
    alice, channel = world.alice, world.channel
    if target == "self":
        member = alice
    else:
        robot = world.env.create_user("robot", bot=True)
        member = world.guild.add_member(robot)
    refused = await alice.context_menu(channel, "Challenge to a game", member)
    assert refused.ephemeral and ("yourself" in reply_text(refused) or "is a bot" in reply_text(refused))
    assert len(take_user_errors(world)) == 1


async def test_the_picker_refuses_a_busy_channel_before_asking(world: Any) -> None:
    alice, bob, carol, channel = world.alice, world.bob, world.carol, world.channel
    await alice.slash(channel, "play", game="paint", opponent=bob)
    await bob.click(channel.history()[-1], label="Accept")
    refused = await carol.context_menu(channel, "Challenge to a game", alice)
    assert refused.ephemeral and "already has a match" in reply_text(refused)
    take_user_errors(world)
