"""Takebacks through the real bot in SimCord: against the bot, a rated match refuses them on Discord and on
the web board alike (its moves stand; a casual match takes back at once); a request whose buttons went
without an answer says what became of it, in the server's language."""

from __future__ import annotations

import re
from typing import Any

import aiohttp
import pytest

from bot.testing.simcord import (
    bot_member,
    button_labels,
    last_board,
    match_id_of,
    reply_text,
    start_challenge,
    suggestions,
    take_user_errors,
)
from bot.web.security import SESSION_COOKIE, match_token
from tests.bot.test_i18n_flows import locales  # noqa: F401  (the fixture: each user's Discord locale)
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


async def test_a_request_whose_buttons_went_says_what_became_of_it(world: Any) -> None:
    """No request message keeps saying "Waiting for ..." once its buttons are gone: asked again, the old one
    says it is shown below; answered from one message, the other says how; a move makes it lapse; the
    match's end too."""
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paint", first="challenger")
    await alice.slash(channel, "move", notation="c1-c3")
    await bob.slash(channel, "move", notation="b9-b8")
    first = await alice.slash(channel, "takeback")
    again = await alice.slash(channel, "takeback")  # shown again: the first message gives its buttons up
    assert button_labels(first.response) == []
    assert first.response.message.content == (
        f"<@{alice.id}> asked to take back their last move in match #1; the request is shown again below."
    )
    await bob.click(again.response, label="Accept takeback")
    assert again.response.message.content == "Takeback accepted."

    await alice.slash(channel, "move", notation="c1-c3")
    await bob.slash(channel, "move", notation="b9-b8")
    asked = await bob.slash(channel, "takeback")
    assert "Waiting for" in asked.response.message.content
    await alice.slash(channel, "move", notation=(await suggestions(alice, channel))[0])
    assert button_labels(asked.response) == []
    assert asked.response.message.content == (
        f"<@{bob.id}> asked to take back their last move in match #1; the match moved on, so the request "
        "lapsed."
    )
    last = await alice.slash(channel, "takeback")
    question = await bob.slash(channel, "resign")
    await bob.click(question.response, label="Yes, resign")
    assert last.response.message.content == (
        f"<@{alice.id}> asked to take back their last move in match #1; the match is over, so the request "
        "lapsed."
    )


async def test_a_lapsed_request_says_so_in_the_servers_language(
    simcord_env: Any,
    locales: dict[int, str],  # noqa: F811
) -> None:
    guild = simcord_env.create_guild("Club", preferred_locale="fr")
    channel = guild.create_text_channel("parties")
    alice, bob = (guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob"))
    locales[alice.id], locales[bob.id] = "de", "ja"
    played = await alice.slash(channel, "play", game="paint", opponent=bob, first="challenger")
    await bob.click(played.response, label=button_labels(played.response)[0])
    await alice.slash(channel, "move", notation="c1-c3")
    await bob.slash(channel, "move", notation="b9-b8")
    asked = await bob.slash(channel, "takeback")
    await alice.slash(channel, "move", notation=(await suggestions(alice, channel))[0])
    assert "partie n°1" in asked.response.message.content and "caduque" in asked.response.message.content, (
        asked.response.message.content
    )
