"""Conventions players expect from a Discord game bot: /help (the commands and the games at a glance), the
"Challenge to a game" user menu (the same challenge as /play), and /prefs (theme and reminders)."""

from __future__ import annotations

from typing import Any

import aiosqlite
import pytest

import games
from bot.testing.simcord import (
    bot_member,
    button_labels,
    image_theme,
    last_board,
    reply_text,
    start_challenge,
    take_user_errors,
)


async def test_the_context_menu_challenges_a_member_like_play(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    menu = await alice.context_menu(channel, "Challenge to a game", bob)
    assert menu.ephemeral and "which game" in reply_text(menu)
    picker = menu.response
    offered = [o["value"] for row in picker.components for c in row["components"] for o in c["options"]]
    assert offered == [g for g, rules in games.GAMES.items() if 2 in rules.seats]

    picked = await alice.select(picker, ["paint"])
    assert picked.acknowledged
    closed = picked.response
    assert (
        closed is not None
        and closed.content == f"You challenged <@{bob.id}> to Paint."
        and not closed.components
    )
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
    assert "Tessera (level 2" in board.content and "**Paint**" in board.content, "a new player: level 2"


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


# ------------------------------------------------------------------------------------------------- /help


async def test_help_lists_every_command_menu_and_game(world: Any) -> None:
    import discord

    shown = await world.alice.slash(world.channel, "help")
    assert shown.ephemeral
    [embed] = shown.response.embeds
    text = "\n".join(f"{f.name}\n{f.value}" for f in embed.fields)
    tree = world.env.bot.tree
    for command in tree.get_commands(type=discord.AppCommandType.chat_input):
        synced = world.env.backend.find_command(command.name, None)
        assert f"</{command.name}:{synced['id']}> {command.description}" in text
    assert "**Challenge to a game**" in text
    for rules in games.GAMES.values():
        assert f"**{rules.name}**" in text
    assert "**TilingKing** (2 to 4 players)" in text and "**Paint** (2 players)" in text
    assert all(len(f.value) <= 1024 for f in embed.fields)


# ------------------------------------------------------------------------------------------------ /prefs


async def test_each_player_sees_boards_in_their_own_theme(world: Any) -> None:
    alice, bob, channel, env, admin = world.alice, world.bob, world.channel, world.env, world.admin
    shown = await alice.slash(channel, "prefs")
    assert shown.ephemeral and "Board theme: standard colours (this server's choice)" in reply_text(shown)
    assert "Turn reminders: off." in reply_text(shown)
    saved = await alice.slash(channel, "prefs", theme="colorblind")
    assert "Saved." in reply_text(saved) and "colour-blind safe (your choice)" in reply_text(saved)

    await alice.slash(
        channel, "play", game="tilingking", opponent=bob, first="challenger", options="board=sq9"
    )
    await bob.click(channel.history()[-1], label="Accept")
    assert image_theme(env, last_board(channel).attachments[0]) == "default", "Bob accepted: his theme"
    await alice.slash(channel, "board")
    assert image_theme(env, last_board(channel).attachments[0]) == "colorblind"
    pieces = await alice.slash(channel, "pieces")
    assert image_theme(env, pieces.response.attachments[0]) == "colorblind"
    await alice.slash(channel, "pass")  # a board after Alice's move: her theme
    assert image_theme(env, last_board(channel).attachments[0]) == "colorblind"
    await bob.slash(channel, "board")
    assert image_theme(env, last_board(channel).attachments[0]) == "default"

    # The server's default applies to everyone who chose nothing; Alice's own choice still wins.
    settings = await admin.slash(channel, "settings", theme="colorblind")
    prefs = env.backend.find_command("prefs", None)["id"]
    assert f"Board theme (for players who chose none with </prefs:{prefs}>): colour-blind safe" in reply_text(
        settings
    )
    await bob.slash(channel, "board")
    assert image_theme(env, last_board(channel).attachments[0]) == "colorblind"
    await alice.slash(channel, "prefs", theme="default")
    await alice.slash(channel, "board")
    assert image_theme(env, last_board(channel).attachments[0]) == "default"
    await bob.slash(channel, "prefs", theme="default")
    await bob.slash(channel, "pass")  # the end: a round of passes
    final = last_board(channel)
    assert "**Draw on score.**" in final.content and image_theme(env, final.attachments[0]) == "default"
    replay = await alice.click(final, label="Replay")
    gif = replay.followups[-1] if replay.followups else replay.response
    assert image_theme(env, gif.attachments[0]) == "default"
    await bob.slash(channel, "prefs", theme="server")  # (one replay per user every 20 s: Bob asks)
    again = await bob.slash(channel, "replay", match_id=1)
    assert image_theme(env, again.response.attachments[0]) == "colorblind"


async def test_a_damaged_preference_row_reads_as_the_defaults_not_an_apology(world: Any) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    await alice.slash(channel, "prefs", theme="colorblind", reminders="dm")
    path = env.bot.settings.database_url.removeprefix("sqlite:///")
    async with aiosqlite.connect(path) as db:  # a hand edit, or a bad disk
        await db.execute("PRAGMA ignore_check_constraints = ON")
        await db.execute("UPDATE user_prefs SET theme = 'neon', reminders = 'pigeon'")
        await db.commit()
    shown = await alice.slash(channel, "prefs")
    assert shown.ephemeral and "Board theme: standard colours (this server's choice)" in reply_text(shown)
    assert "Turn reminders: off." in reply_text(shown)
    await start_challenge(world, alice, bob, "paint", first="challenger")
    await alice.slash(channel, "move", notation="c1-c3")  # a board in the mover's theme: the default
    assert image_theme(env, last_board(channel).attachments[0]) == "default"
    saved = await alice.slash(channel, "prefs", reminders="mention")
    assert "Saved." in reply_text(saved) and "Turn reminders: a mention" in reply_text(saved)


async def test_the_bots_moves_use_the_servers_theme(world: Any) -> None:
    alice, channel, env, admin = world.alice, world.channel, world.env, world.admin
    await admin.slash(channel, "settings", theme="colorblind")
    await alice.slash(channel, "prefs", theme="default")
    await alice.slash(channel, "play", game="paint", opponent=bot_member(world), level="1", first="opponent")
    # The bot (White) moved first: its board is in the server's theme.
    board = last_board(channel)
    assert f"<@{alice.id}>, your turn as Black" in board.content
    assert image_theme(env, board.attachments[0]) == "colorblind"


def test_every_theme_has_words_and_a_choice() -> None:
    import renderer
    from cogs.admin import THEME_CHOICES, THEME_LABELS

    assert set(THEME_LABELS) == set(renderer.THEME_NAMES) == {c.value for c in THEME_CHOICES}


# --------------------------------------------------------------------------------------------- reminders

HOUR = 3600
LONG = pytest.mark.simcord(settle_timeout=120)
"""Hours of virtual time: the turn clock wakes every 5 minutes (its longest sleep), a pass each."""


@LONG
async def test_turn_reminders_by_dm_and_by_mention_once_per_long_turn(world: Any) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    await alice.slash(channel, "prefs", reminders="dm")
    saved = await bob.slash(channel, "prefs", reminders="mention")
    assert "Turn reminders: a mention in the match's channel." in reply_text(saved)
    # 12 hours per turn (the shortest reminded): the reminder comes after half of it.
    await start_challenge(world, alice, bob, "paint", first="challenger", turn_timeout=12 * 60)
    inbox = alice.user.dm_channel

    await env.advance_time(6 * HOUR - 60)
    assert inbox.history() == []
    await env.advance_time(120)
    [dm] = inbox.history()
    assert "Your turn in **Paint** match #1" in dm.content and "/channels/" in dm.content
    await alice.slash(channel, "move", notation="c1-c3")

    reminded = f"<@{bob.id}>, a reminder: it is your turn in match #1"
    await env.advance_time(6 * HOUR + 60)
    assert sum(reminded in m.content for m in channel.history()) == 1
    await env.advance_time(2 * HOUR)  # once per turn
    assert sum(reminded in m.content for m in channel.history()) == 1 and len(inbox.history()) == 1


async def test_no_reminder_in_a_short_match_or_when_off(world: Any) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    await alice.slash(channel, "prefs", reminders="mention")
    await start_challenge(world, alice, bob, "paint", first="challenger", turn_timeout=60)
    count = len(channel.history())
    await env.advance_time(50 * 60)
    assert len(channel.history()) == count, "a one-hour turn is never reminded"


@LONG
async def test_a_closed_inbox_falls_back_to_a_mention(world: Any) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    await alice.slash(channel, "prefs", reminders="dm")
    await start_challenge(world, alice, bob, "paint", first="challenger", turn_timeout=12 * 60)
    inbox = alice.user.dm_channel
    env.inject_error(
        "POST", f"/channels/{inbox.id}/messages", status=403, code=50007, message="Cannot send messages"
    )
    await env.advance_time(6 * HOUR + 60)
    assert inbox.history() == []
    assert any(f"<@{alice.id}>, a reminder" in m.content for m in channel.history())
