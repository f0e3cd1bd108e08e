"""Draw offers and rematches through the real bot in SimCord (cogs/live.py): /draw offered and accepted
ends the match drawn by agreement; declined, the match goes on and the offer's buttons are gone; the
Rematch button under a finished board offers the match again, the other player accepts, and the new board
has the seats rotated and the running score; against the bot one click starts it."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
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
from bot.web.security import SESSION_COOKIE, match_token
from tests.bot.test_web_flows import SECRET, links, web_board  # noqa: F401  (the web board's fixtures)

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
    assert offered.response.message.content == "Draw agreed."
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
    assert soon.response.message.content == "The match moved on, so the draw offer lapsed."
    assert button_labels(soon.response) == []
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
    assert offered.response.message.content == "Rematch accepted: match #2."
    assert button_labels(offered.response) == []
    service = world.env.bot.parts.service
    new = await service.matches.get(2)
    assert [p.user_id for p in new.seats] == [bob.id, alice.id]
    assert new.is_active


async def test_a_draw_accepted_with_the_command_closes_the_offers_message(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await _opened(world)
    offered = await bob.slash(channel, "draw", action="offer")
    accepted = await alice.slash(channel, "draw", action="accept")
    assert not accepted.ephemeral and "Draw by agreement" in last_board(channel).content
    assert offered.response.message.content == "Draw agreed."
    assert button_labels(offered.response) == []


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


async def _web(board: Any, base: str, match_id: int, user_id: int, **body: Any) -> dict[str, Any]:
    """A signed-in player's press on the web board (its action, and the request it answers): the answer."""
    cookie = board.signer.session_cookie(user_id, "someone", "en")
    csrf = board.signer.session(cookie).csrf
    headers = {"X-CSRF-Token": csrf, "Cookie": f"{SESSION_COOKIE}={cookie}"}
    async with aiohttp.ClientSession() as http:
        url = f"{base}/api/m/{match_token(SECRET, match_id)}"
        if not body:
            return dict(await (await http.get(url, headers=headers)).json())
        return dict(await (await http.post(f"{url}/action", json=body, headers=headers)).json())


async def _posted(channel: Any, text: str) -> Any:
    """The newest message of the channel that has `text`, once the bot has posted it."""
    for _ in range(200):
        found = [m for m in channel.history() if text in (m.content or "")]
        if found:
            return found[-1]
        await asyncio.sleep(0.05)
    raise AssertionError(f"nothing posted with {text!r}")


async def test_offers_made_on_the_web_show_in_discord_and_the_other_way_round(
    world: Any,
    web_board: tuple[Any, str],  # noqa: F811
) -> None:
    """A draw offered on the web is accepted in Discord after a declined one offered in Discord shows on
    the web; a rematch offered on the web is accepted in Discord. (SimCord's clock is its own, so a
    rematch offer, which lapses, is made on the side whose clock runs ahead.)"""
    alice, bob, channel = world.alice, world.bob, world.channel
    await _opened(world)
    offered = await bob.slash(channel, "draw", action="offer")
    state = await _web(*web_board, 1, alice.id)
    assert state["pending"]["kind"] == "draw" and state["pending"]["waiting"] == [0]
    assert {(a["action"], a.get("request")) for a in state["actions"]} >= {
        ("accept", "draw"),
        ("decline", "draw"),
    }
    assert await _web(*web_board, 1, alice.id, action="decline", request="draw") == {"ok": True}
    await _posted(channel, f"<@{alice.id}> declined the draw offer.")
    assert (await _web(*web_board, 1, alice.id))["pending"] is None
    assert offered.response is not None

    assert await _web(*web_board, 1, alice.id, action="draw") == {"ok": True}
    offer = await _posted(channel, "offers a draw in match #1")
    await bob.click(offer, label="Accept draw")
    match = await world.env.bot.parts.service.matches.get(1)
    assert match.outcome is not None and match.outcome.is_draw

    assert await _web(*web_board, 1, alice.id, action="rematch") == {"ok": True}
    rematch = await _posted(channel, "offers a rematch of match #1")
    await bob.click(rematch, label="Accept rematch")
    board = await _posted(channel, "Rematch of match #1. Score:")
    assert match_id_of(board) == 2 and "½ - ½" in board.content, board.content
    assert (await _web(*web_board, 1, alice.id))["rematch"]["next"] == f"/m/{match_token(SECRET, 2)}"
