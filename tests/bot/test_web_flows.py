"""The web board beside the Discord application (SimCord): board messages carry the "Open board" link to
the match's capability URL; a /move in Discord reaches a page's event stream within a second; a move made
on the web is posted in the channel as a board, as a /move would be."""

from __future__ import annotations

import asyncio
import functools
import socket
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

import games
from bot import views
from bot.settings import load_web_settings
from bot.testing.simcord import (
    boards,
    button_labels,
    last_board,
    match_id_of,
    start_challenge,
    take_user_errors,
)
from bot.web import serve
from bot.web.app import WebBoard
from bot.web.security import SESSION_COOKIE, match_token
from bot.web.wire import unpacked
from games.base import clickable_moves

SECRET = "w" * 8 + "Hq3xZ8pL2mK9wR4tY7uB1nC6dF5gJ0sA"  # random-looking: the settings refuse guessable ones
BASE = "https://tessera.example"


def _link_urls(message: Any) -> list[str]:
    return [
        child.url
        for row in message.components
        for child in getattr(row, "children", [])
        if getattr(child, "url", None)
    ]


@pytest.fixture
def links() -> Any:
    settings = load_web_settings(_env_file=None, web_secret=SECRET, web_base_url=BASE)  # type: ignore[call-arg]
    serve.configure_links(settings)
    yield settings
    views.set_board_link(None)


@pytest.fixture
async def web_board(simcord_bot: Any, world: Any, links: Any) -> AsyncIterator[tuple[WebBoard, str]]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    board = WebBoard(
        simcord_bot.runtime.service, secret=SECRET, base_url=BASE, announce=serve.announcer(simcord_bot)
    )
    await board.start("127.0.0.1", port)
    yield board, f"http://127.0.0.1:{port}"
    await board.close()


async def _next_state(
    stream: aiohttp.ClientResponse, timeout: float, ply: int | None = None
) -> dict[str, Any]:
    """The next `state` event of an event stream (inflated where it came deflated), at `ply` if given (a
    spectator's stream also hears the spectators counted)."""
    event = ""
    while True:
        line = (await asyncio.wait_for(stream.content.readline(), timeout)).decode().rstrip("\n")
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: ") and event == "state":
            data = unpacked(line[6:].encode())
            if ply is None or data["ply"] == ply:
                return data


async def web_action(board: Any, base: str, match_id: int, user_id: int, action: str) -> None:
    """A signed-in player's action (resign, takeback, abort, ...) posted to the web board, as its page does;
    the board must accept it."""
    cookie = board.signer.session_cookie(user_id, "someone", "en")
    csrf = board.signer.session(cookie).csrf
    async with aiohttp.ClientSession() as http:
        answer = await http.post(
            f"{base}/api/m/{match_token(SECRET, match_id)}/action",
            json={"action": action},
            headers={"X-CSRF-Token": csrf, "Cookie": f"{SESSION_COOKIE}={cookie}"},
        )
        assert (await answer.json()) == {"ok": True}


async def test_board_messages_link_to_the_web_board(world: Any, links: Any) -> None:
    await start_challenge(world, world.alice, world.bob, "paint")
    board = last_board(world.channel)
    match_id = match_id_of(board)
    assert _link_urls(board) == [f"{BASE}/m/{match_token(SECRET, match_id)}"]


async def test_no_link_without_a_web_secret(world: Any) -> None:
    await start_challenge(world, world.alice, world.bob, "paint")
    assert _link_urls(last_board(world.channel)) == []


async def test_a_server_can_turn_the_web_board_off(world: Any) -> None:
    settings = load_web_settings(  # type: ignore[call-arg]
        _env_file=None, web_secret=SECRET, web_base_url=BASE, web_disabled_guilds=str(world.guild.id)
    )
    serve.configure_links(settings)
    try:
        await start_challenge(world, world.alice, world.bob, "paint")
        assert _link_urls(last_board(world.channel)) == []
    finally:
        views.set_board_link(None)


async def test_discord_and_the_web_see_the_same_moves(world: Any, web_board: tuple[WebBoard, str]) -> None:
    board, base = web_board
    await start_challenge(world, world.alice, world.bob, "paint")
    match_id = match_id_of(last_board(world.channel))
    service = board.service
    rules = games.get("paint")
    token = match_token(SECRET, match_id)
    async with aiohttp.ClientSession() as http, http.get(f"{base}/api/m/{token}/events") as stream:
        assert stream.headers["Content-Type"] == "text/event-stream"
        await asyncio.sleep(0.1)  # the stream is subscribed
        # a /move in Discord reaches the page
        match = await service.matches.get(match_id)
        actor = world.alice if match.seats[match.to_move].user_id == world.alice.id else world.bob
        notation = clickable_moves(rules, match.state)[0].notation
        await actor.slash(world.channel, "move", notation=notation)
        state = await _next_state(stream, timeout=1.0, ply=1)
        assert state["moves"][0]["notation"] == notation
        # a move on the web is posted in Discord
        match = await service.matches.get(match_id)
        mover = match.seats[match.to_move].user_id
        posted = len(boards(world.channel))
        cookie = board.signer.session_cookie(mover, "Mover", "en")
        csrf = board.signer.session(cookie).csrf  # type: ignore[union-attr]
        web_move = clickable_moves(rules, match.state)[0].notation
        answer = await http.post(
            f"{base}/api/m/{token}/move",
            json={"move": web_move, "ply": 1},
            headers={"X-CSRF-Token": csrf, "Cookie": f"{SESSION_COOKIE}={cookie}"},
        )
        assert (await answer.json()) == {"ok": True}
        state = await _next_state(stream, timeout=1.0, ply=2)
        assert state["ply"] == 2
    for _ in range(100):
        if len(boards(world.channel)) > posted:
            break
        await asyncio.sleep(0.05)
    newest = last_board(world.channel)
    assert len(boards(world.channel)) == posted + 1
    assert "Move 2: " in newest.content and web_move in newest.content  # the web move, in the channel


async def test_a_resignation_on_the_web_is_posted_with_the_result(
    world: Any, web_board: tuple[WebBoard, str]
) -> None:
    board, base = web_board
    await start_challenge(world, world.alice, world.bob, "paint")
    match_id = match_id_of(last_board(world.channel))
    rules = games.get("paint")
    for _ in range(2):  # both have moved: a resignation is a result, not an abort
        match = await board.service.matches.get(match_id)
        await board.service.matches.play(
            match_id, match.seats[match.to_move].user_id, clickable_moves(rules, match.state)[0].notation
        )
    posted = len(boards(world.channel))
    await web_action(board, base, match_id, world.alice.id, "resign")
    for _ in range(100):
        if len(boards(world.channel)) > posted:
            break
        await asyncio.sleep(0.05)
    assert len(boards(world.channel)) == posted + 1
    assert "resign" in last_board(world.channel).content.lower()


async def test_a_server_admin_turns_the_web_board_off_and_on(
    world: Any, web_board: tuple[WebBoard, str]
) -> None:
    """/settings web_board: off takes the links off the boards posted from then on and closes the pages
    (also to anyone holding a link); on brings both back. WEB_DISABLED_GUILDS stays the operator's."""
    _board, base = web_board
    await start_challenge(world, world.alice, world.bob, "paint")
    match_id = match_id_of(last_board(world.channel))
    page = f"{base}/m/{match_token(SECRET, match_id)}"
    try:
        refused = await world.alice.slash(world.channel, "settings", web_board=False)
        assert refused.ephemeral and "Manage Server" in refused.response.content
        take_user_errors(world)
        assert _link_urls(last_board(world.channel)) != []
        answer = await world.admin.slash(world.channel, "settings", web_board=False)
        assert "Web board (the Open board and Play in Discord buttons, the match pages): off" in (
            answer.response.content
        )
        await world.alice.slash(world.channel, "board")
        assert _link_urls(last_board(world.channel)) == []
        async with aiohttp.ClientSession() as http:
            async with http.get(page) as closed:
                assert closed.status == 404
            await world.admin.slash(world.channel, "settings", web_board=True)
            await world.alice.slash(world.channel, "board")
            assert _link_urls(last_board(world.channel)) == [page.replace(base, BASE)]
            async with http.get(page) as opened:
                assert opened.status == 200
    finally:
        views.set_web_board(world.guild.id, True)


async def test_takeback_and_abort_requests_on_the_web_are_posted_with_their_buttons(
    world: Any, web_board: tuple[WebBoard, str]
) -> None:
    """A takeback asked on the web is posted in the channel with the Discord flow's buttons, which answer
    it; so is an abort request."""
    board, base = web_board
    await start_challenge(world, world.alice, world.bob, "paint")
    match_id = match_id_of(last_board(world.channel))
    rules = games.get("paint")
    for _ in range(2):
        match = await board.service.matches.get(match_id)
        await board.service.matches.play(
            match_id, match.seats[match.to_move].user_id, clickable_moves(rules, match.state)[0].notation
        )
    match = await board.service.matches.get(match_id)
    mover = match.seats[1 - match.to_move].user_id
    other = world.bob if mover == world.alice.id else world.alice

    act = functools.partial(web_action, board, base, match_id)

    async def posted_with(label: str) -> Any:
        for _ in range(100):
            for message in reversed(list(world.channel.history())):
                if label in button_labels(message):
                    return message
            await asyncio.sleep(0.05)
        raise AssertionError(f"no message with {label!r}")

    await act(mover, "takeback")
    request = await posted_with("Accept takeback")
    assert f"<@{mover}> asks to take back" in request.content
    await other.click(request, label="Accept takeback")
    match = await board.service.matches.get(match_id)
    assert match.ply == 1
    await board.service.matches.play(  # both have moved again: an abort needs everyone's agreement
        match_id, match.seats[match.to_move].user_id, clickable_moves(rules, match.state)[0].notation
    )
    await act(world.alice.id, "abort")
    vote = await posted_with("Agree to abort")
    await world.bob.click(vote, label="Agree to abort")
    assert not (await board.service.matches.get(match_id)).is_active


async def test_a_request_declined_or_withdrawn_on_the_web_closes_the_discord_request(
    world: Any, web_board: tuple[WebBoard, str]
) -> None:
    """Declining or withdrawing a takeback or an abort vote on the web rewords the request message in
    Discord and takes its buttons off, as its own Decline or Withdraw button does (they would refuse to
    act)."""
    board, base = web_board
    await start_challenge(world, world.alice, world.bob, "paint")
    match_id = match_id_of(last_board(world.channel))
    rules = games.get("paint")
    for _ in range(2):  # both have moved: an abort needs everyone's agreement
        match = await board.service.matches.get(match_id)
        await board.service.matches.play(
            match_id, match.seats[match.to_move].user_id, clickable_moves(rules, match.state)[0].notation
        )
    match = await board.service.matches.get(match_id)
    mover = match.seats[1 - match.to_move].user_id
    other = world.bob.id if mover == world.alice.id else world.alice.id

    act = functools.partial(web_action, board, base, match_id)

    async def message_with(text: str) -> Any:
        for _ in range(100):
            for message in reversed(list(world.channel.history())):
                if text in message.content:
                    return message
            await asyncio.sleep(0.05)
        raise AssertionError(f"no message saying {text!r}")

    await act(mover, "takeback")
    request = await message_with("asks to take back")
    assert "Decline" in button_labels(request)
    await act(other, "decline")
    closed = await message_with(f"<@{other}> declined the takeback.")
    assert closed.id == request.id and button_labels(closed) == []
    await act(world.alice.id, "abort")
    vote = await message_with("wants to abort")
    assert "Withdraw request" in button_labels(vote)
    await act(world.alice.id, "withdraw")  # the starter withdraws it
    withdrawn = await message_with(f"<@{world.alice.id}> withdrew their abort request.")
    assert withdrawn.id == vote.id and button_labels(withdrawn) == []
    await act(world.alice.id, "abort")
    vote = await message_with("wants to abort")
    assert vote.id != withdrawn.id
    await act(world.bob.id, "decline")  # the other player refuses it
    declined = await message_with(f"<@{world.bob.id}> declined to abort the match.")
    assert declined.id == vote.id and button_labels(declined) == []
    await act(mover, "takeback")
    request = await message_with("asks to take back")
    await act(mover, "withdraw")
    withdrawn = await message_with(f"<@{mover}> withdrew their takeback request.")
    assert withdrawn.id == request.id and button_labels(withdrawn) == []
    assert (await board.service.matches.get(match_id)).is_active
