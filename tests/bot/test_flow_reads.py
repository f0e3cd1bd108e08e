"""Each row is read once per flow: a /move (or a move button) reads its match once, also when the move ends
the match; an Accept reads its challenge once and the server's settings once; a lobby's Start reads the
lobby once and the settings once. Counted at the store (tests/service/reads.py), with the settings cache off,
through the real command tree (SimCord: cogs -> service -> store).

Every change is still guarded by the ply (or the challenge's or lobby's status) in the store's write: a row
handed along inside one flow is never trusted across flows (see the service's stale-check tests)."""

from __future__ import annotations

from typing import Any

from bot.service import Service
from bot.testing.simcord import bot_member, last_board, reply_text
from tests.service.reads import CHALLENGE_ROW, GUILD_SETTINGS, LOBBY_ROW, MATCH_ROW, counting_reads


def service_of(world: Any) -> Service:
    service: Service = world.env.bot.runtime.service
    return service


async def test_a_move_reads_its_match_once(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await alice.slash(channel, "play", game="paint", opponent=bob, first="challenger", options="lead_turns=2")
    await bob.click(channel.history()[-1], label="Accept")
    with counting_reads(service_of(world)) as reads:
        moved = await alice.slash(channel, "move", notation="c1-c3")
    assert not moved.ephemeral, moved.response
    assert reads.of(MATCH_ROW) == 1, reads.reads
    assert reads.of(GUILD_SETTINGS) == 1, reads.reads

    with counting_reads(service_of(world)) as reads:  # this move ends the match (White held the lead)
        await bob.slash(channel, "move", notation="b9-b8")
    assert "wins by holding the lead" in last_board(channel).content
    assert reads.of(MATCH_ROW) == 1, reads.reads
    assert reads.of(GUILD_SETTINGS) == 1, reads.reads


async def test_a_move_button_reads_its_match_once(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await alice.slash(
        channel, "play", game="tilingking", opponent=bob, first="challenger", options="board=sq9"
    )
    await bob.click(channel.history()[-1], label="Accept")
    with counting_reads(service_of(world)) as reads:
        await alice.click(last_board(channel), label="Pass")
    assert f"<@{bob.id}>, your turn" in last_board(channel).content
    assert reads.of(MATCH_ROW) == 1, reads.reads


async def test_accept_reads_the_challenge_and_the_settings_once(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    asked = await alice.slash(channel, "play", game="paint", opponent=bob)
    with counting_reads(service_of(world)) as reads:
        accepted = await bob.click(asked.response, label="Accept")
    assert accepted.acknowledged
    assert "The match begins." in last_board(channel).content
    assert reads.of(CHALLENGE_ROW) == 1, reads.reads
    assert reads.of(GUILD_SETTINGS) == 1, reads.reads


async def test_accept_in_a_thread_reads_the_challenge_and_the_settings_once(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    asked = await alice.slash(channel, "play", game="paint", opponent=bob, thread=True, turn_timeout=60)
    with counting_reads(service_of(world)) as reads:
        accepted = await bob.click(asked.response, label="Accept")
    assert accepted.acknowledged
    assert reads.of(CHALLENGE_ROW) == 1, reads.reads
    assert reads.of(GUILD_SETTINGS) == 1, reads.reads


async def test_a_lobby_start_reads_the_lobby_and_the_settings_once(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    opened = await alice.slash(channel, "play", game="tilingking", players=3, options="board=sq9")
    await bob.click(opened.response, label="Join")
    with counting_reads(service_of(world)) as reads:
        started = await alice.click(channel.history()[-1], label="Start")
    assert started.acknowledged
    lobby_message = next(m for m in reversed(channel.history()) if "lobby #" in m.content)
    assert "The match has started" in lobby_message.content
    assert "The match begins." in last_board(channel).content
    assert reads.of(LOBBY_ROW) == 1, reads.reads
    assert reads.of(GUILD_SETTINGS) == 1, reads.reads


async def test_play_reads_the_settings_once(world: Any) -> None:
    """/play reads the server's settings for threads, the allowed channels, the time per turn and the
    language of its reply: once."""
    alice, bob, channel = world.alice, world.bob, world.channel
    with counting_reads(service_of(world)) as reads:
        asked = await alice.slash(channel, "play", game="paint", opponent=bob)
    assert "challenges you to **Paint**" in asked.response.content
    assert reads.of(GUILD_SETTINGS) == 1, reads.reads

    bots = world.guild.create_text_channel("bots")
    with counting_reads(service_of(world)) as reads:  # Alice is White and moves first: the bot waits
        played = await alice.slash(bots, "play", game="paint", opponent=bot_member(world), first="challenger")
    assert not played.ephemeral
    assert reads.of(GUILD_SETTINGS) == 1, reads.reads
    assert reads.of(MATCH_ROW) == 1, reads.reads  # is the channel free?


async def test_decline_and_withdraw_read_the_challenge_once(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    asked = await alice.slash(channel, "play", game="paint", opponent=bob)
    with counting_reads(service_of(world)) as reads:
        declined = await bob.click(asked.response, label="Decline")
    assert declined.acknowledged
    assert reads.of(CHALLENGE_ROW) == 1, reads.reads

    again = await alice.slash(channel, "play", game="paint", opponent=bob)
    with counting_reads(service_of(world)) as reads:
        withdrawn = await alice.click(again.response, label="Withdraw")
    assert withdrawn.acknowledged
    assert reads.of(CHALLENGE_ROW) == 1, reads.reads


async def test_board_reads_its_match_once(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await alice.slash(channel, "play", game="paint", opponent=bob, first="challenger")
    await bob.click(channel.history()[-1], label="Accept")
    await alice.slash(channel, "move", notation="c1-c3")
    with counting_reads(service_of(world)) as reads:
        shown = await bob.slash(channel, "board")
    assert "Move 2" in reply_text(shown) and "your turn as Black" in reply_text(shown)
    assert reads.of(MATCH_ROW) == 1, reads.reads


async def test_join_and_leave_read_the_lobby_once_before_they_change_it(world: Any) -> None:
    """The lobby is read once to check the button and the join, and once after the change (with whoever
    joined meanwhile): two reads, where there were three."""
    alice, bob, channel = world.alice, world.bob, world.channel
    opened = await alice.slash(channel, "play", game="tilingking", players=3, options="board=sq9")
    with counting_reads(service_of(world)) as reads:
        await bob.click(opened.response, label="Join")
    assert reads.of(LOBBY_ROW) == 2, reads.reads
    with counting_reads(service_of(world)) as reads:
        await bob.click(channel.history()[-1], label="Leave")
    assert reads.of(LOBBY_ROW) == 2, reads.reads
    assert f"<@{bob.id}>" not in channel.history()[-1].content
