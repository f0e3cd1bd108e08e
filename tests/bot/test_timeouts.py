"""Running out of time: every timeout is announced on the board, TilingKing's follows the published rule
(pass all remaining turns) unless the match option `timeout=resign` (our proposal) makes it a resignation, and
/rules says the rule once, with the option marked as a proposal."""

from __future__ import annotations

from typing import Any

import pytest

from bot.testing.simcord import button_labels, last_board, start_challenge, suggestions
from tests.bot.test_player_flows import turn_of

pytestmark = pytest.mark.simcord(settle_timeout=60)


async def place(world: Any, channel: Any) -> None:
    player = turn_of(world, last_board(channel))
    placements = [m for m in await suggestions(player, channel) if not m.startswith("pass")]
    await player.slash(channel, "move", notation=placements[0])


async def test_both_tilingking_players_running_out_of_time_are_both_announced(world: Any) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    await start_challenge(world, alice, bob, "tilingking", first="challenger", turn_timeout=10)
    await place(world, channel)
    await place(world, channel)
    await env.advance_time(11 * 60)
    first = last_board(channel)
    assert f"<@{alice.id}> ran out of time." in first.content and f"<@{bob.id}>, your turn" in first.content
    assert "Last move: passall" not in str(first.attachments[0].description)
    await env.advance_time(11 * 60)
    final = last_board(channel)
    assert f"<@{bob.id}> ran out of time." in final.content, final.content
    assert "Replay" in button_labels(final), "two pass-alls end the game on score"


async def test_with_timeout_resign_a_tilingking_timeout_resigns_and_the_other_wins_on_time(
    world: Any,
) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    await start_challenge(
        world, alice, bob, "tilingking", first="challenger", turn_timeout=10, options="timeout=resign"
    )
    await place(world, channel)
    await place(world, channel)
    await env.advance_time(11 * 60)
    final = last_board(channel)
    assert f"<@{alice.id}> ran out of time." in final.content and "resigns" in final.content
    assert f"**<@{bob.id}> wins on time.**" in final.content, "worded as every other timeout"
    assert "by resignation" not in final.content and "wins on time" in str(final.attachments[0].description)
    assert "Replay" in button_labels(final)
    history = await alice.slash(channel, "history")
    assert f"<@{bob.id}> wins on time" in history.response.content


async def test_rules_say_the_timeout_rule_once_and_mark_the_option_a_proposal(world: Any) -> None:
    shown = await world.alice.slash(world.channel, "rules", game="tilingking")
    embed = shown.response.embeds[0]
    assert embed.description.count("time runs out") == 1
    assert "passes all remaining turns" in embed.description
    options = next(f.value for f in embed.fields if f.name == "Match options")
    assert "`timeout` (proposal)" in options
    channel = world.channel
    completions = await world.alice.autocomplete(channel, "play", "options", "timeout=", game="tilingking")
    assert [c["value"] for c in completions] == ["timeout=passall", "timeout=resign"]


async def test_with_timeout_resign_three_players_play_on_without_the_late_one(world: Any) -> None:
    alice, bob, carol, channel, env = world.alice, world.bob, world.carol, world.channel, world.env
    lobby = await alice.slash(
        channel, "play", game="tilingking", players=3, options="board=sq9 timeout=resign", turn_timeout=10
    )
    await bob.click(lobby.response, label="Join")
    await carol.click(channel.history()[-1], label="Join")
    await alice.click(channel.history()[-1], label="Start")
    for _ in range(3):
        await place(world, channel)
    late = turn_of(world, last_board(channel))
    await env.advance_time(11 * 60)
    board = last_board(channel)
    assert f"<@{late.id}> ran out of time." in board.content and "resigns" in board.content
    assert "your turn" in board.content and f"<@{late.id}>, your turn" not in board.content
    assert "wins" not in board.content, "the others play on"
    also_late = turn_of(world, board)
    await env.advance_time(11 * 60)
    final = last_board(channel)
    last = next(m for m in (alice, bob, carol) if m.id not in (late.id, also_late.id))
    assert f"<@{also_late.id}> ran out of time." in final.content, final.content
    assert f"**<@{last.id}> wins on time.**" in final.content and "by resignation" not in final.content
    assert "wins on time" in str(final.attachments[0].description)
    assert "Replay" in button_labels(final)
