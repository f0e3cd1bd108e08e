"""Takebacks through the real bot in SimCord: against the bot, a rated match refuses them on Discord and on
the web board alike (its moves stand; a casual match takes back at once)."""

from __future__ import annotations

import re
from typing import Any

import aiohttp
import pytest

from bot.web.security import SESSION_COOKIE, match_token
from tests.bot.helpers import bot_member, last_board, match_id_of, reply_text, suggestions, take_user_errors
from tests.bot.test_web_flows import SECRET, links, web_board  # noqa: F401  (the web board's fixtures)

pytestmark = pytest.mark.simcord(settle_timeout=60)


async def web_takeback(board: Any, base: str, match_id: int, user_id: int) -> tuple[int, dict[str, Any]]:
    """A signed-in player's takeback from the web board, as its page asks: the status and the answer."""
    cookie = board.signer.session_cookie(user_id, "someone", "en")
    csrf = board.signer.session(cookie).csrf
    async with aiohttp.ClientSession() as http:
        answer = await http.post(
            f"{base}/api/m/{match_token(SECRET, match_id)}/action",
            json={"action": "takeback"},
            headers={"X-CSRF-Token": csrf, "Cookie": f"{SESSION_COOKIE}={cookie}"},
        )
        return answer.status, await answer.json()


async def test_a_rated_match_against_the_bot_refuses_takebacks_on_discord_and_on_the_web(
    world: Any,
    web_board: tuple[Any, str],  # noqa: F811
) -> None:
    """A rated match against level 8 (rated is the default): /takeback is refused with the rule and what to
    do instead, any number of times, and the web board's takeback gets the same answer; the board never
    goes back. The same game played casual takes back at once."""
    alice, channel = world.alice, world.channel
    await alice.slash(
        channel, "play", game="paint", opponent=bot_member(world), level="8", first="challenger"
    )
    board = last_board(channel)
    match_id = match_id_of(board)
    played = await alice.slash(channel, "move", notation=(await suggestions(alice, channel))[0])
    assert not played.ephemeral
    service = world.env.bot.parts.service
    after = (await service.matches.get(match_id)).ply
    assert after >= 2, "the bot answered"
    for _ in range(2):
        refused = await alice.slash(channel, "takeback")
        assert refused.ephemeral, reply_text(refused)
        assert re.fullmatch(
            rf"Match #{match_id} is rated, so its moves stand: against me, takebacks are for casual "
            r"matches\. Play me with </play:\d+> and set rated to False to take moves back\.",
            reply_text(refused),
        ), reply_text(refused)
    take_user_errors(world)
    status, answer = await web_takeback(*web_board, match_id, alice.id)
    assert status == 409 and answer["ok"] is False
    assert answer["error"].startswith(f"Match #{match_id} is rated, so its moves stand"), answer
    assert (await service.matches.get(match_id)).ply == after
    assert "Taken back" not in last_board(channel).content

    question = await alice.slash(channel, "resign")
    await alice.click(question.response, label="Yes, resign")
    await alice.slash(
        channel, "play", game="paint", opponent=bot_member(world), rated=False, first="challenger"
    )
    await alice.slash(channel, "move", notation=(await suggestions(alice, channel))[0])
    taken = await alice.slash(channel, "takeback")
    assert not taken.ephemeral and "Taken back" in last_board(channel).content
