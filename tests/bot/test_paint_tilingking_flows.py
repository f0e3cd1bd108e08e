"""Whole matches of Paint (to a natural end: the lead held) and TilingKing (to a natural end: a round of
passes, with the Pass buttons), played through slash commands and buttons."""

from __future__ import annotations

from typing import Any

from bot.testing.simcord import button_labels, last_board, start_challenge, suggestions, take_user_errors


async def test_paint_ends_when_the_lead_is_held(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paint", first="challenger", options="lead_turns=2")
    board = last_board(channel)
    assert f"<@{alice.id}>, your turn as White" in board.content

    # White paints two squares and leads; Black answers with one square; White keeps the lead: 2 turns.
    assert "c1-c3" in await suggestions(alice, channel, "c1-c")
    await alice.slash(channel, "move", notation="c1-c3")
    board = last_board(channel)
    assert "c1-c3" in board.content.lower() or "c3" in board.content
    await bob.slash(channel, "move", notation="b9-b8")
    final = last_board(channel)
    assert f"**<@{alice.id}> wins by holding the lead.**" in final.content
    assert "Replay" in button_labels(final)

    # The match is over: the channel is free again, and /move says so.
    refused = await alice.slash(channel, "move", notation="d1-d2")
    assert refused.ephemeral and "no match in this channel" in refused.response.content.lower()
    assert len(take_user_errors(world)) == 1


async def test_paint_draws_when_nobody_leads_for_no_lead_turns(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paint", first="challenger", options="no_lead_turns=1")
    await alice.slash(channel, "move", notation="c1-c2")  # White 7 tiles, Black 6: White leads
    await bob.slash(channel, "move", notation="b9-b8")  # 7 all: nobody leads, and 1 such turn is a draw
    final = last_board(channel)
    assert "**Draw: nobody held the lead.**" in final.content
    assert "Replay" in button_labels(final)


async def test_tilingking_place_then_a_round_of_passes(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "tilingking", first="challenger", options="board=sq9")
    board = last_board(channel)
    assert f"<@{alice.id}>, your turn" in board.content
    assert "Pass" in button_labels(board)

    pieces = await alice.slash(channel, "pieces")
    assert pieces.ephemeral
    assert pieces.response is not None and pieces.response.attachments[0].filename == "pieces.png"

    placements = await suggestions(alice, channel, "a1")
    assert placements and all("a1" in p for p in placements)
    await alice.slash(channel, "move", notation=placements[0])
    board = last_board(channel)
    assert f"<@{bob.id}>, your turn" in board.content

    await bob.click(board, label="Pass")
    board = last_board(channel)
    await alice.slash(channel, "pass")
    final = last_board(channel)
    assert f"**<@{alice.id}> wins on score.**" in final.content
    assert "Score" in final.content
