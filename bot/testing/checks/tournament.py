"""A tournament of each chosen game through the real bot in SimCord: /tournament create, join and start,
each round's matches in their own threads, played with /move and /resign, to the podium and its standings
image. The helpers here are the kit's for tournament flows (tests/bot/test_tournament_flows.py uses them)."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from PIL import Image

import games
from bot.testing.simcord import last_board, reply_text, suggestions

SIMCORD = pytest.mark.simcord(settle_timeout=120)


def service_of(world: Any) -> Any:
    return world.env.bot.parts.service


def add_players(world: Any, count: int) -> list[Any]:
    """`count` members of the world's guild: its four, then new ones."""
    players = [world.alice, world.bob, world.carol, world.admin]
    for index in range(count - len(players)):
        players.append(world.guild.add_member(world.env.create_user(f"player{index}")))
    return players[:count]


async def create(world: Any, **options: Any) -> int:
    """/tournament create by the admin; the new tournament's number."""
    made = await world.admin.slash(world.channel, "tournament create", **options)
    text = reply_text(made)
    assert not made.ephemeral, text
    found = re.search(r"#(\d+)", text)
    assert found, text
    return int(found.group(1))


async def tournament(world: Any, number: int) -> Any:
    return await service_of(world).tournaments.get(number)


def thread_of(world: Any, match_channel: int) -> Any:
    return next(t for t in world.channel.threads if t.id == match_channel)


async def play_and_resign(world: Any, by_id: dict[int, Any], match_id: int) -> None:
    """Both players move once (with a move the autocomplete offers), then the player to move resigns."""
    match = await service_of(world).matches.get(match_id)
    thread = thread_of(world, match.channel_id)
    for _ in range(2):
        board = last_board(thread)
        found = re.search(r"<@(\d+)>, your turn", board.content)
        assert found, board.content
        player = by_id[int(found.group(1))]
        moves = await suggestions(player, thread)
        played = await player.slash(thread, "move", notation=moves[0])
        assert not played.ephemeral, reply_text(played)
    board = last_board(thread)
    found = re.search(r"<@(\d+)>, your turn", board.content)
    assert found, board.content
    player = by_id[int(found.group(1))]
    question = await player.slash(thread, "resign")
    await player.click(question.response, label="Yes, resign")


async def play_round(world: Any, by_id: dict[int, Any], number: int) -> None:
    t = await tournament(world, number)
    for game in t.running_games():
        assert game.match_id is not None
        await play_and_resign(world, by_id, game.match_id)


def posted(world: Any) -> list[Any]:
    return [m for m in world.channel.history() if m.author.id == world.me.id]


def image_of(world: Any, message: Any) -> Image.Image:
    (attachment,) = [a for a in message.attachments if a.filename == "standings.png"]
    return Image.open(io.BytesIO(world.env.backend.cdn.get(attachment.url)))


@SIMCORD
@pytest.mark.asyncio
async def test_a_swiss_of_the_game_runs_to_its_podium(world: Any, game_id: str) -> None:
    if 2 not in games.get(game_id).seats:
        pytest.skip(f"{game_id} is not a game for two")
    players = add_players(world, 4)
    by_id = {p.id: p for p in players}
    number = await create(world, game=game_id, format="swiss", rounds=2)
    for player in players:
        joined = await player.slash(world.channel, "tournament join", number=number)
        assert not joined.ephemeral, reply_text(joined)
    await world.admin.slash(world.channel, "tournament start", number=number)
    t = await tournament(world, number)
    assert len(t.round_games()) == 2 and len(world.channel.threads) == 2
    for _ in range(2):
        await play_round(world, by_id, number)
    t = await tournament(world, number)
    assert t.status.value == "finished", t.status
    podium = [m for m in posted(world) if "is over. The podium" in m.content]
    assert len(podium) == 1
    image = image_of(world, podium[0])
    assert image.width > image.height
    standings = await world.bob.slash(world.channel, "tournament standings", number=number)
    assert "Final standings" in reply_text(standings)
