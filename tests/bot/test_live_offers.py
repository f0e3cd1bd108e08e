"""Draw offers and rematches through the real bot in SimCord (cogs/live.py): /draw offered and accepted
ends the match drawn by agreement; declined, the match goes on and the offer's buttons are gone; the
Rematch button under a finished board offers the match again, the other player accepts, and the new board
has the seats rotated and the running score; against the bot one click starts it."""

from __future__ import annotations

from typing import Any

import pytest

from bot.testing.simcord import (
    boards,
    bot_member,
    button_labels,
    last_board,
    match_id_of,
    reply_text,
    start_challenge,
    suggestions,
    take_user_errors,
)

pytestmark = pytest.mark.simcord(settle_timeout=60)


async def _opened(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paint", first="challenger")
    await alice.slash(channel, "move", notation="c1-c3")
    await bob.slash(channel, "move", notation="b9-b8")


async def test_a_draw_offered_and_accepted_ends_the_match_drawn(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await _opened(world)
    offered = await alice.slash(channel, "draw", action="offer")
    assert not offered.ephemeral
    assert offered.response.message.content == (
        f"<@{alice.id}> offers a draw in match #1. <@{bob.id}>: accept? The next move declines it."
    )
    again = await alice.slash(channel, "draw", action="offer")
    assert again.ephemeral and "already" in reply_text(again)
    take_user_errors(world)
    await bob.click(offered.response, label="Accept draw")
    assert button_labels(offered.response) == []
    board = last_board(channel)
    assert "Draw by agreement" in board.content, board.content
    match = await world.env.bot.parts.service.matches.get(1)
    assert not match.is_active and match.outcome is not None and match.outcome.is_draw


async def test_a_declined_draw_lets_the_match_go_on_and_a_move_lapses_an_offer(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await _opened(world)
    offered = await alice.slash(channel, "draw", action="offer")
    await bob.click(offered.response, label="Decline")
    assert offered.response.message.content == f"<@{bob.id}> declined the draw offer."
    assert button_labels(offered.response) == []
    soon = await bob.slash(channel, "draw", action="offer")  # Bob may: the spam limit is per player
    assert not soon.ephemeral
    await alice.slash(channel, "move", notation=(await suggestions(alice, channel))[0])
    lapsed = await alice.slash(channel, "draw", action="accept")
    assert lapsed.ephemeral and reply_text(lapsed).startswith("Nobody offered a draw here."), reply_text(
        lapsed
    )
    late = await alice.click(soon.response, label="Accept draw")
    assert late.response is not None and late.response.ephemeral
    take_user_errors(world)
    assert (await world.env.bot.parts.service.matches.get(1)).is_active


async def test_a_rematch_between_two_people_rotates_the_seats_and_shows_the_score(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await _opened(world)
    question = await alice.slash(channel, "resign")
    await alice.click(question.response, label="Yes, resign")
    final = last_board(channel)
    assert "Rematch" in button_labels(final)
    offered = await alice.click(final, label="Rematch")
    assert offered.response is not None and not offered.response.ephemeral
    text = offered.response.message.content
    assert text.startswith(f"<@{alice.id}> offers a rematch of match #1, seats rotated. <@{bob.id}>: accept?")
    twice = await alice.click(final, label="Rematch")
    assert twice.response.ephemeral and "offered already" in twice.response.content
    take_user_errors(world)
    await bob.click(offered.response, label="Accept rematch")
    board = last_board(channel)
    assert match_id_of(board) == 2
    assert "Rematch of match #1. Score: alice 0 - 1 bob" in board.content, board.content
    service = world.env.bot.parts.service
    new = await service.matches.get(2)
    assert [p.user_id for p in new.seats] == [bob.id, alice.id]
    assert new.is_active


async def test_a_rematch_against_the_bot_starts_at_once(world: Any) -> None:
    alice, channel = world.alice, world.channel
    await alice.slash(
        channel, "play", game="paint", opponent=bot_member(world), level="1", first="challenger"
    )
    await alice.slash(channel, "move", notation=(await suggestions(alice, channel))[0])
    question = await alice.slash(channel, "resign")
    await alice.click(question.response, label="Yes, resign")
    final = last_board(channel)
    first = match_id_of(final)
    await alice.click(final, label="Rematch")
    started = [b for b in boards(channel) if match_id_of(b) == first + 1]
    assert started and "Rematch of match" in started[0].content, [b.content for b in started]
    new = await world.env.bot.parts.service.matches.get(first + 1)
    assert new.seats[0].is_ai and new.seats[1].user_id == alice.id
