"""Each chosen game, whichever package it comes from, through the real bot in SimCord: /rules, a match
through /play, Accept and /move with its board image and alt text, and a match against the bot at level 1.
Nothing here names a game: each comes from the registry."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from PIL import Image

import games
from bot.testing.simcord import bot_member, last_board, start_challenge, suggestions

SIMCORD = pytest.mark.simcord(settle_timeout=60)


def two_player(game_id: str) -> None:
    """Skip a game that is not played by two (the flows challenge one opponent)."""
    if 2 not in games.get(game_id).seats:
        pytest.skip(f"{game_id} is not a game for two")


def turn_of(world: Any, board: Any) -> Any:
    found = re.search(r"<@(\d+)>, your turn", board.content)
    assert found, board.content
    return next(m for m in (world.alice, world.bob) if m.id == int(found.group(1)))


def board_image(world: Any, board: Any) -> Image.Image:
    (attachment,) = [a for a in board.attachments if a.filename == "board.png"]
    assert attachment.description, "every board has alt text"
    return Image.open(io.BytesIO(world.env.backend.cdn.get(attachment.url)))


@SIMCORD
@pytest.mark.asyncio
async def test_rules_shows_the_games_own_summary(world: Any, game_id: str) -> None:
    rules = games.get(game_id)
    shown = await world.alice.slash(world.channel, "rules", game=game_id)
    [embed] = shown.response.embeds
    assert rules.name in embed.title
    assert embed.description.startswith(rules.summary[:40])


@SIMCORD
@pytest.mark.asyncio
async def test_a_match_through_play_accept_and_move_with_its_board_image(world: Any, game_id: str) -> None:
    two_player(game_id)
    await start_challenge(world, world.alice, world.bob, game_id, first="challenger")
    board = last_board(world.channel)
    image = board_image(world, board)
    assert image.format == "PNG" and image.width > image.height
    seen = {board.id}
    for _ in range(4):
        player = turn_of(world, board)
        moves = await suggestions(player, world.channel)
        assert moves, "autocomplete offers the legal moves"
        played = await player.slash(world.channel, "move", notation=moves[0])
        assert not played.ephemeral, played.response.content if played.response else played
        board = last_board(world.channel)
        assert board.id not in seen, "each move posts a new board"
        seen.add(board.id)
        board_image(world, board)
        if "your turn" not in board.content:
            break


@SIMCORD
@pytest.mark.asyncio
async def test_a_match_against_the_bot_at_level_1(world: Any, game_id: str) -> None:
    two_player(game_id)
    alice, channel = world.alice, world.channel
    result = await alice.slash(
        channel, "play", game=game_id, opponent=bot_member(world), level="1", first="opponent"
    )
    assert not result.ephemeral
    board = last_board(channel)
    assert f"<@{alice.id}>, your turn" in board.content, "the bot moved first and handed the turn over"
    for _ in range(2):
        moves = await suggestions(alice, channel)
        await alice.slash(channel, "move", notation=moves[0])
        board = last_board(channel)
        if f"<@{alice.id}>, your turn" not in board.content:
            break
    assert board.attachments
