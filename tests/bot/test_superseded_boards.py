"""Only the newest board of a match has live buttons: each new board takes them off the one before (also
across a restart: the newest board's id is in the database), a board that is gone does not get in the way,
and an expired challenge is edited in place instead of a second message."""

from __future__ import annotations

from typing import Any

from bot.testing.simcord import boards, button_labels, last_board, start_challenge, take_user_errors


def current(channel: Any, message: Any) -> Any:
    """The message as it is now (after edits)."""
    return next(m for m in channel.history() if m.id == message.id)


async def test_each_new_board_takes_the_buttons_off_the_previous_one(world: Any, make_bot: Any) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    await start_challenge(world, alice, bob, "paintscape", first="challenger")
    first = last_board(channel)
    assert button_labels(first) == ["Done swapping"]

    await alice.click(first, label="Done swapping")  # a button: the board is posted in the channel
    second = last_board(channel)
    assert button_labels(current(channel, first)) == [], "the balancer's old Done button is gone"
    assert "Play Black (first)" in button_labels(second)

    await bob.slash(channel, "board")  # a command: the board is the command's reply
    third = last_board(channel)
    assert third.id != second.id and button_labels(current(channel, second)) == []
    assert "Play Black (first)" in button_labels(third)

    await env.restart_bot(make_bot())  # the newest board is remembered in the database
    await bob.click(third, label="Play Black (first)")
    assert button_labels(current(channel, third)) == []
    with_buttons = [m for m in boards(channel) if button_labels(m)]
    assert with_buttons == [], "in play nobody has one-word moves: no board keeps buttons"


async def test_the_final_board_keeps_only_its_replay_analyse_and_rematch_buttons(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "tilingking", first="challenger", options="board=sq9")
    before = last_board(channel)
    assert "Pass" in button_labels(before)
    await alice.slash(channel, "pass")
    await bob.slash(channel, "pass")
    final = last_board(channel)
    assert button_labels(final) == ["Replay", "Analyse", "Rematch"]
    assert [m.id for m in boards(channel) if button_labels(m)] == [final.id]


async def test_a_board_that_is_gone_does_not_stop_the_game(world: Any) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    await start_challenge(world, alice, bob, "paint", first="challenger")
    # The previous board was deleted meanwhile: taking its buttons off answers 404 Unknown Message.
    env.inject_error("PATCH", "/channels/*/messages/*", status=404, code=10008, message="Unknown Message")
    await alice.slash(channel, "move", notation="c1-c3")
    assert f"<@{bob.id}>, your turn as Black" in last_board(channel).content
    await bob.slash(channel, "move", notation="b9-b8")
    assert f"<@{alice.id}>, your turn as White" in last_board(channel).content
    assert take_user_errors(world) == []


async def test_an_expired_challenge_is_edited_in_place(world: Any, make_bot: Any) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    asked = await alice.slash(channel, "play", game="paint", opponent=bob)
    challenge = asked.response
    assert button_labels(challenge) == ["Accept", "Decline", "Withdraw"]
    await env.restart_bot(make_bot())  # the challenge's message id is in the database
    count = len(channel.history())
    await env.advance_time(16 * 60)
    assert len(channel.history()) == count, "no second message"
    expired = current(channel, challenge)
    assert "expired" in expired.content and f"<@{bob.id}>" in expired.content
    assert button_labels(expired) == []
