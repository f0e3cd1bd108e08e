"""The final board tells the truth for every ending: the image (its alt text) shows the result, not "to play",
and the move count in the text is the image's (one definition)."""

from __future__ import annotations

import re
from typing import Any

import renderer
from bot.testing.simcord import last_board, match_id_of, start_challenge


def image_text(message: Any) -> str:
    return str(message.attachments[0].description)


def caption_in(content: str) -> str:
    found = re.search(r"match #\d+ · ([^·]+) ·", content)
    assert found, content
    return found.group(1).strip()


async def test_a_resignation_is_on_the_final_image(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paint", first="challenger")
    await alice.slash(channel, "move", notation="c1-c3")
    await bob.slash(channel, "move", notation="b9-b8")
    question = await bob.slash(channel, "resign")
    await bob.click(question.response, label="Yes, resign")
    final = last_board(channel)
    assert "alice wins by resignation" in image_text(final).lower()
    assert "to play" not in image_text(final)
    assert caption_in(final.content) == renderer.move_caption(2, over=True) == "2 moves"


async def test_a_timeout_is_on_the_final_image(world: Any) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    await start_challenge(world, alice, bob, "paint", first="challenger", turn_timeout=10)
    await alice.slash(channel, "move", notation="c1-c3")
    await bob.slash(channel, "move", notation="b9-b8")
    await env.advance_time(11 * 60)
    final = last_board(channel)
    assert "bob wins on time" in image_text(final).lower() and "to play" not in image_text(final)
    assert final.content.count("ran out of time") == 1, "the timeout is said once"


async def test_an_abort_posts_a_final_board_without_a_winner(world: Any) -> None:
    alice, bob, channel, admin = world.alice, world.bob, world.channel, world.admin
    await start_challenge(world, alice, bob, "paintscape", first="challenger")
    match_id = match_id_of(last_board(channel))
    await admin.slash(channel, "abort")
    final = last_board(channel)
    assert match_id_of(final) == match_id and "Game aborted: no result" in image_text(final)


async def test_the_text_and_the_image_give_the_same_move_number(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paintscape", first="challenger")
    await alice.click(last_board(channel), label="Done swapping")
    board = last_board(channel)
    assert caption_in(board.content) == "Move 2"
    assert image_text(board).startswith("Paintscape board. Move 2 ·"), image_text(board)
