"""A match nobody has a result for yet is aborted, as on lichess: a resignation, a timeout or one player's
/abort before every seat has chosen a move of its own ends it with no result and no rating change, and the
final board says so. After that, the same acts count as usual."""

from __future__ import annotations

from typing import Any

import pytest

from bot.testing.simcord import bot_member, button_labels, last_board, reply_text, start_challenge
from tests.bot.test_player_flows import three_player_tilingking, turn_of

pytestmark = pytest.mark.simcord(settle_timeout=60)


def ratings_of(world: Any) -> Any:
    return world.env.bot.runtime.service.ratings


async def rating(world: Any, game: str, member: Any) -> Any:
    return await ratings_of(world).rating(game, member.id)


def assert_aborted_early(content: str, member: Any, how: str) -> None:
    assert f"<@{member.id}> {how} before every player had moved" in content, content
    assert "is aborted" in content and "No result, no rating change." in content, content
    assert "→" not in content, "no rating line"


def assert_asks_to_abort(question: str) -> None:
    """The resign question tells the truth about what Yes does before every player has moved."""
    assert question.startswith("Resign match #1?"), question
    assert "Not every player has moved yet, so the match is aborted instead" in question, question
    assert "no rating change" in question, question


async def test_once_everyone_moved_the_resign_question_does_not_speak_of_aborting(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paint", first="challenger")
    await alice.slash(channel, "move", notation="c1-c3")
    before = await bob.slash(channel, "resign")
    assert "aborted instead" in reply_text(before), "bob has not moved yet"
    await bob.slash(channel, "move", notation="b9-b8")
    question = await bob.slash(channel, "resign")
    assert reply_text(question) == "Resign match #1? This cannot be undone."
    await bob.click(question.response, label="Yes, resign")
    assert f"<@{alice.id}> wins by resignation" in last_board(channel).content


async def test_a_timeout_at_move_zero_aborts_the_match_unrated(world: Any) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    await start_challenge(world, alice, bob, "paint", first="challenger", turn_timeout=10)
    await env.advance_time(11 * 60)
    final = last_board(channel)
    assert_aborted_early(final.content, alice, "ran out of time")
    assert "Game aborted" in str(final.attachments[0].description)
    assert "Analyse" not in button_labels(final)
    assert await rating(world, "paint", alice) is None and await rating(world, "paint", bob) is None
    history = await alice.slash(channel, "history")
    assert "aborted" in history.response.content and "beat" not in history.response.content


async def test_the_second_player_timing_out_before_their_first_move_aborts_too(world: Any) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    await start_challenge(world, alice, bob, "paint", first="challenger", turn_timeout=10)
    await alice.slash(channel, "move", notation="c1-c3")
    await env.advance_time(11 * 60)
    assert_aborted_early(last_board(channel).content, bob, "ran out of time")
    assert await rating(world, "paint", alice) is None


async def test_once_both_have_moved_a_timeout_loses_and_is_rated(world: Any) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    await start_challenge(world, alice, bob, "paint", first="challenger", turn_timeout=10)
    await alice.slash(channel, "move", notation="c1-c3")
    await bob.slash(channel, "move", notation="b9-b8")
    await env.advance_time(11 * 60)
    final = last_board(channel).content
    assert f"<@{alice.id}> ran out of time." in final and "wins on time" in final and "→" in final
    assert await rating(world, "paint", alice) is not None


async def test_resigning_before_every_player_moved_aborts(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paintscape", first="challenger")
    await alice.click(last_board(channel), label="Done swapping")
    question = await alice.slash(channel, "resign")  # alice has moved, bob has not
    assert_asks_to_abort(reply_text(question))
    await alice.click(question.response, label="Yes, resign")
    assert_aborted_early(last_board(channel).content, alice, "resigned")
    assert await rating(world, "paintscape", bob) is None


async def test_one_abort_is_enough_before_every_player_moved(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paint", first="challenger")
    await bob.slash(channel, "abort")
    final = last_board(channel)
    assert f"aborted by <@{bob.id}>" in final.content and "Agree to abort" not in button_labels(final)


async def test_a_player_leaving_a_three_player_tilingking_before_everyone_moved_aborts_it(world: Any) -> None:
    channel = world.channel
    await three_player_tilingking(world)
    mover = turn_of(world, last_board(channel))
    waiting = next(m for m in (world.alice, world.bob, world.carol) if m.id != mover.id)
    question = await waiting.slash(channel, "move", notation="resign")  # the same question
    assert_asks_to_abort(reply_text(question))
    await waiting.click(question.response, label="Yes, resign")
    final = last_board(channel)
    assert_aborted_early(final.content, waiting, "resigned")
    assert "your turn" not in final.content


async def test_a_tilingking_timeout_before_everyone_moved_aborts_instead_of_passing_all(world: Any) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    await start_challenge(world, alice, bob, "tilingking", first="challenger", turn_timeout=10)
    await env.advance_time(11 * 60)
    assert_aborted_early(last_board(channel).content, alice, "ran out of time")


async def test_timing_out_against_the_bot_after_its_first_move_aborts(world: Any) -> None:
    alice, channel, env = world.alice, world.channel, world.env
    await alice.slash(
        channel,
        "play",
        game="paint",
        opponent=bot_member(world),
        level="1",
        first="opponent",
        turn_timeout=10,
    )
    assert f"<@{alice.id}>, your turn" in last_board(channel).content, "the bot moved first"
    await env.advance_time(11 * 60)
    assert_aborted_early(last_board(channel).content, alice, "ran out of time")
    assert await rating(world, "paint", alice) is None
