"""Broken data and hostile users through the real bot (issue 12): a damaged match never stops the bot, games
stay inside their server, and one user cannot flood a channel."""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiosqlite
import pytest

from bot.replies import UserError
from bot.service.errors import UnknownMatch
from bot.testing.simcord import last_board, match_id_of, reply_text, start_challenge, take_user_errors
from bot.views import ButtonRef


async def test_the_bot_starts_past_a_damaged_match_and_says_so(
    world: Any, make_bot: Any, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    alice, bob, carol, channel, env = world.alice, world.bob, world.carol, world.channel, world.env
    await start_challenge(world, alice, bob, "paint", first="challenger")
    match_id = match_id_of(last_board(channel))
    async with aiosqlite.connect(Path(settings.database_path)) as db:
        await db.execute("UPDATE matches SET snapshot = 'not json' WHERE id = ?", (match_id,))
        await db.commit()

    with caplog.at_level(logging.WARNING):
        await env.restart_bot(make_bot())
    assert f"damaged matches set aside (quarantined): #{match_id} (1)" in caplog.text

    board = await alice.slash(channel, "board")
    assert board.ephemeral and "no match in this channel" in board.response.content
    take_user_errors(world)
    # The channel is free for a new match, and the bot plays on.
    await start_challenge(world, carol, alice, "paintscape", first="challenger")
    assert f"<@{carol.id}>, your turn as Balancer" in last_board(channel).content


async def test_a_replay_stays_in_its_server_unless_you_played_it(world: Any) -> None:
    alice, bob, carol, channel, env = world.alice, world.bob, world.carol, world.channel, world.env
    await start_challenge(world, alice, bob, "paint", first="challenger")
    match_id = match_id_of(last_board(channel))
    question = await alice.slash(channel, "resign")
    await alice.click(question.response, label="Yes, resign")

    other = env.create_guild("Elsewhere")
    lounge = other.create_text_channel("lounge")
    stranger = other.add_member(env.create_user("mallory"))
    alice_there = other.add_member(alice.user)

    refused = await stranger.slash(lounge, "replay", match_id=match_id)
    assert refused.ephemeral and f"There is no match #{match_id}" in refused.response.content
    take_user_errors(world)
    shown = await alice_there.slash(lounge, "replay", match_id=match_id)
    assert not shown.ephemeral and f"Replay of match #{match_id}" in reply_text(shown)
    here = await carol.slash(channel, "replay", match_id=match_id)
    assert not here.ephemeral and f"Replay of match #{match_id}" in reply_text(here), "its own server sees it"

    drawing = env.bot.runtime.drawing
    drawn = len(drawing.cache)
    again = await carol.slash(channel, "replay", match_id=match_id)
    assert f"Replay of match #{match_id}" in reply_text(again)
    assert len(drawing.cache) == drawn, "the second replay came from the cache"


async def test_one_user_cannot_flood_a_channel_with_challenges(world: Any) -> None:
    alice, bob, carol, channel = world.alice, world.bob, world.carol, world.channel
    for opponent in (bob, carol, bob, carol, bob):
        sent = await alice.slash(channel, "play", game="paint", opponent=opponent)
        assert not sent.ephemeral
    refused = await alice.slash(channel, "play", game="paint", opponent=carol)
    assert refused.ephemeral and "You already have 5 open challenges" in refused.response.content
    take_user_errors(world)


def stub_interaction(world: Any, guild_id: int) -> Any:
    """An interaction from another server than the game's, for calling a button handler directly."""
    user = SimpleNamespace(id=world.alice.id, display_name="alice")
    return SimpleNamespace(guild_id=guild_id, user=user, client=world.env.bot, extras={})


async def test_every_button_refuses_a_game_of_another_server(world: Any) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    pending = await alice.slash(channel, "play", game="paint", opponent=bob)
    challenge_id = int(pending.response.content.split("challenge #")[1].split(")")[0])
    lobby = await alice.slash(world.guild.create_text_channel("tables"), "play", game="tilingking", players=3)
    lobby_id = int(lobby.response.content.split("lobby #")[1].split("*")[0])
    await start_challenge(world, world.carol, world.admin, "paint", first="challenger")
    match_id = match_id_of(last_board(channel))

    play = env.bot.get_cog("Play")
    lobbies = env.bot.get_cog("Lobbies")
    ending = env.bot.get_cog("Ending")
    moves = env.bot.get_cog("Moves")
    info = env.bot.get_cog("Info")
    handlers = [
        (play.on_accept, challenge_id), (play.on_decline, challenge_id), (play.on_withdraw, challenge_id),
        (lobbies.on_join, lobby_id), (lobbies.on_leave, lobby_id), (lobbies.on_add_bot, lobby_id),
        (lobbies.on_start, lobby_id),
        (ending.on_resign_confirmed, match_id), (ending.on_abort_agreed, match_id),
        (moves.on_move_button, match_id), (moves.on_confirm_button, match_id),
        (moves.on_takeback_accepted, match_id), (moves.on_takeback_declined, match_id),
        (info.on_replay_button, match_id),
    ]  # fmt: skip
    for handler, ref in handlers:
        with pytest.raises((UserError, UnknownMatch), match=r"another server|no match"):
            await handler(stub_interaction(world, world.guild.id + 1), ButtonRef("x", ref, 0, "pass"))
