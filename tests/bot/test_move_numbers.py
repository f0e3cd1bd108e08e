"""One move number everywhere (`Rules.moves_played`, `games.base.move_numbers`): the board text, the image
header, each move line, the result line, /history, /replay and the analysis agree for one match, with
resignations in and out of turn (which are not moves) included."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.testing.simcord import boards, last_board, match_id_of, reply_text, suggestions
from tests.bot.test_player_flows import three_player_tilingking, turn_of

pytestmark = pytest.mark.simcord(settle_timeout=120)


def caption_in(content: str) -> str:
    found = re.search(r"match #\d+ · ([^·]+) ·", content)
    assert found, content
    return found.group(1).strip()


def image_caption(message: Any) -> str:
    """The move count the image header shows (its alt text says the header's words)."""
    alt = str(message.attachments[0].description)  # "TilingKing board sq9 (...). Move 5 · bob to play. ..."
    parts = alt.split(". ")[1].split(" · ")  # or "alice wins by resignation · 5 moves"
    return parts[0] if parts[0].startswith("Move ") else parts[-1]


def line_numbers(content: str) -> list[int]:
    return [int(n) for n in re.findall(r"^Move (\d+): ", content, flags=re.MULTILINE)]


async def place(world: Any, channel: Any) -> Any:
    player = turn_of(world, last_board(channel))
    placements = [m for m in await suggestions(player, channel) if not m.startswith("pass")]
    await player.slash(channel, "move", notation=placements[0])
    return player


async def test_text_image_history_replay_and_analysis_count_moves_alike(world: Any) -> None:
    channel = world.channel
    await three_player_tilingking(world)
    for _ in range(4):
        await place(world, channel)
    waiting = next(
        m for m in (world.alice, world.bob, world.carol) if m.id != turn_of(world, last_board(channel)).id
    )
    question = await waiting.slash(channel, "resign")  # out of turn: the count stays at 4 moves
    await waiting.click(question.response, label="Yes, resign")
    resigned = last_board(channel)
    assert caption_in(resigned.content) == "Move 5" and "resigns" in resigned.content
    assert line_numbers(resigned.content) == [], "a resignation is no move and has no number"
    await place(world, channel)  # move 5
    mover = turn_of(world, last_board(channel))
    question = await mover.slash(channel, "resign")  # on turn: still no move; the last player wins
    await mover.click(question.response, label="Yes, resign")
    final = last_board(channel)

    numbered: list[int] = []
    for board in boards(channel):
        assert caption_in(board.content) == image_caption(board), board.content
        numbered.extend(line_numbers(board.content))
    assert numbered == [1, 2, 3, 4, 5], "each move line numbered once, in order"
    assert caption_in(final.content) == image_caption(final) == "5 moves"

    match_id = match_id_of(final)
    history = await world.alice.slash(channel, "history")
    assert f"#{match_id} TilingKing:" in reply_text(history) and "· 5 moves" in reply_text(history)
    replay = await world.alice.slash(channel, "replay", match_id=match_id)
    replayed = replay.followups[-1] if replay.followups else replay.response
    assert "(TilingKing, 5 moves)" in replayed.content

    analysis = await world.carol.slash(channel, "analyse", match_id=match_id)
    text = reply_text(analysis)
    assert "(TilingKing, 5 moves)" in text
    for number, who in re.findall(r"Move (\d+): <@(\d+)> played", text):
        before = next(b for b in boards(channel) if caption_in(b.content) == f"Move {number}")
        assert f"<@{who}>, your turn" in before.content, "the analysis names the move the board numbered"
