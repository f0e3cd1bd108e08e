"""Live clocks through the real command tree (issue 43): /play with a live control (its autocomplete offers
the game's presets), the board says the mover's time as a relative timestamp, and a flag ends the game in
Discord on time with nobody running the turn clock by hand."""

from __future__ import annotations

from typing import Any

import pytest

from bot.testing.simcord import button_labels, last_board, start_challenge, suggestions, take_user_errors
from tests.bot.test_player_flows import turn_of

pytestmark = pytest.mark.simcord(settle_timeout=10)


async def move(world: Any, channel: Any) -> Any:
    player = turn_of(world, last_board(channel))
    choices = [m for m in await suggestions(player, channel) if not m.startswith("pass")]
    await player.slash(channel, "move", notation=choices[0])
    return player


async def test_play_offers_the_games_live_presets(world: Any) -> None:
    completions = await world.alice.autocomplete(world.channel, "play", "clock", "", game="paintscape")
    assert [c["value"] for c in completions] == ["3+2", "5+3", "10+5", "none"]
    typed = await world.alice.autocomplete(world.channel, "play", "clock", "7+4", game="paintscape")
    assert typed[0]["value"] == "7+4"


async def test_a_bad_clock_is_refused_with_what_to_type(world: Any) -> None:
    result = await world.alice.slash(world.channel, "play", game="paint", opponent=world.bob, clock="soon")
    assert result.ephemeral and "minutes+seconds" in result.response.content
    assert len(take_user_errors(world)) == 1


async def test_a_flag_ends_a_live_game_on_time_in_discord(world: Any) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    asked = await alice.slash(channel, "play", game="paint", opponent=bob, first="challenger", clock="0.5+0")
    assert "live clock `0.5+0`" in asked.response.content
    await bob.click(asked.response, label="Accept")
    await move(world, channel)
    await move(world, channel)
    board = last_board(channel)
    mover = turn_of(world, board)
    assert "<t:" in board.content and ":R>" in board.content, board.content
    await env.advance_time(31)
    final = last_board(channel)
    assert f"<@{mover.id}> ran out of time." in final.content, final.content
    other = bob if mover is alice else alice
    assert f"<@{other.id}> wins on time" in final.content
    assert "Replay" in button_labels(final)
    stats = await alice.slash(channel, "stats")
    assert "live rating" in stats.response.content and " · rating " not in stats.response.content
    board = await alice.slash(channel, "leaderboard", game="paint", speed="live")
    assert board.ephemeral and "established rating" in board.response.content


async def test_a_first_move_not_made_in_time_aborts_the_live_game(world: Any) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    await start_challenge(world, alice, bob, "paint", first="challenger", clock="3+2")
    await env.advance_time(31)
    final = last_board(channel)
    assert "abort" in final.content.lower(), final.content


async def test_help_says_how_live_clocks_work(world: Any) -> None:
    shown = await world.alice.slash(world.channel, "help")
    field = next(f for f in shown.response.embeds[0].fields if f.name == "Live clocks")
    assert "5+3" in field.value and "30 seconds" in field.value and "restarts" in field.value
