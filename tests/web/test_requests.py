"""Every request button of the web board from both sides: a takeback request and an abort vote, each
accepted, declined and withdrawn, by the player the page offers it to, and refused (with the players named,
never a raw `<@id>` mention) to the one it does not; the buttons themselves come from the server
(`bot.web.actions`), worded for what they do ("Abort now" where the abort ends the match at once)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

import games
from bot.service import Service
from bot.web.app import WebBoard
from bot.web.security import SESSION_COOKIE, match_token
from games.base import clickable_moves, resolve_options

SECRET = "r" * 40
ALICE, BOB = 11, 22
NAMES = {ALICE: "Alice", BOB: "Bob"}


async def _names(ids: Any) -> dict[int, str]:
    return {i: NAMES[i] for i in ids if i in NAMES}


@pytest.fixture
async def board(service: Service) -> WebBoard:
    return WebBoard(service, secret=SECRET, base_url="http://web.test", names=_names)


@pytest.fixture
async def client(board: WebBoard) -> AsyncIterator[TestClient[web.Request, web.Application]]:
    async with TestClient(TestServer(board.app())) as c:
        yield c


_channels = iter(range(100, 10_000))


async def _match(service: Service, moves: int, *, bot: bool = False) -> int:
    """A Paint match between Alice and Bob (or Alice and the bot) with `moves` moves played."""
    rules = games.get("paint")
    seats = [(ALICE, None), (999, "2") if bot else (BOB, None)]
    match = await service.matches.start(
        "paint",
        resolve_options(rules.options, {}),
        seats,
        seed=5,
        rated=False,
        turn_timeout=3600,
        guild_id=None,
        channel_id=next(_channels),
    )
    for _ in range(moves):
        view = await service.matches.get(match.id)
        move = clickable_moves(rules, view.state)[0].notation
        await service.matches.play(match.id, view.seats[view.to_move].user_id, move)
    return match.id


def _headers(board: WebBoard, user: int) -> dict[str, str]:
    cookie = board.signer.session_cookie(user, NAMES.get(user, "?"), "en")
    session = board.signer.session(cookie)
    assert session is not None
    return {"Cookie": f"{SESSION_COOKIE}={cookie}", "X-CSRF-Token": session.csrf}


class Page:
    """One player's page of a match: what it shows and the buttons it posts."""

    def __init__(self, client: Any, board: WebBoard, match_id: int, user: int) -> None:
        self.client, self.board, self.user = client, board, user
        self.token = match_token(SECRET, match_id)

    async def state(self) -> dict[str, Any]:
        answer = await self.client.get(f"/api/m/{self.token}", headers=_headers(self.board, self.user))
        assert answer.status == 200
        data: dict[str, Any] = await answer.json()
        return data

    async def buttons(self) -> dict[str, dict[str, Any]]:
        """The buttons the page shows, their words looked up in the page's texts as the page does."""
        state = await self.state()
        texts = state["texts"]
        shown = {}
        for button in state["actions"]:
            words = {
                k: texts[button[v]]
                for k, v in (("label", "text"), ("hint", "hint"), ("confirm", "confirm"))
                if v in button
            }
            shown[button["action"]] = {**button, **words}
        return shown

    async def press(self, action: str, request: str | None = None) -> dict[str, Any]:
        """Post `action` as the page's button does (with the kind of request it answers)."""
        body: dict[str, Any] = {"action": action}
        if request is not None:
            body["request"] = request
        answer = await self.client.post(
            f"/api/m/{self.token}/action", json=body, headers=_headers(self.board, self.user)
        )
        data: dict[str, Any] = await answer.json()
        return data

    async def click(self, action: str) -> dict[str, Any]:
        """Press the button the page shows for `action` (it must show one)."""
        button = (await self.buttons())[action]
        return await self.press(action, button.get("request"))


async def _pages(client: Any, board: WebBoard, match_id: int) -> tuple[Page, Page]:
    return Page(client, board, match_id, ALICE), Page(client, board, match_id, BOB)


async def _mover(service: Service, match_id: int) -> tuple[int, int]:
    """(the player who moved last, the other)."""
    match = await service.matches.get(match_id)
    last = match.seats[1 - match.to_move].user_id
    return last, BOB if last == ALICE else ALICE


@pytest.mark.parametrize("answer", ["accept", "decline", "withdraw"])
async def test_takeback_buttons_from_both_sides(
    service: Service, board: WebBoard, client: Any, answer: str
) -> None:
    match_id = await _match(service, 3)
    asker, other = await _mover(service, match_id)
    pages = {p.user: p for p in await _pages(client, board, match_id)}
    assert (await pages[asker].buttons())["takeback"]["label"] == "Ask to take back"
    assert (await pages[asker].click("takeback"))["ok"]
    state = await pages[other].state()
    assert state["pending"]["kind"] == "takeback" and state["pending"]["waiting"] == [
        (await service.matches.get(match_id)).seat_of(other)
    ]
    mine, theirs = await pages[asker].buttons(), await pages[other].buttons()
    assert "withdraw" in mine and "accept" not in mine and "decline" not in mine
    assert {"accept", "decline"} <= set(theirs) and "withdraw" not in theirs
    assert theirs["accept"]["main"] and "takeback" not in theirs  # no second request while one is open
    clicker = pages[asker] if answer == "withdraw" else pages[other]
    assert (await clicker.click(answer)) == {"ok": True}
    match = await service.matches.get(match_id)
    assert match.ply == (2 if answer == "accept" else 3)
    assert (await pages[other].state())["pending"] is None
    assert "withdraw" not in await pages[asker].buttons()


async def test_takeback_answers_from_the_wrong_side_name_the_players(
    service: Service, board: WebBoard, client: Any
) -> None:
    """The buttons a page does not show, posted anyway, are refused in words that name the players (the
    service's errors mention them as Discord does, `<@id>`, which a page cannot show)."""
    match_id = await _match(service, 3)
    asker, other = await _mover(service, match_id)
    pages = {p.user: p for p in await _pages(client, board, match_id)}
    await pages[asker].click("takeback")
    refused = await pages[other].press("withdraw", "takeback")
    assert not refused["ok"] and "<@" not in refused["error"]
    assert f"Only {NAMES[asker]}, who asked, can withdraw" in refused["error"]
    own = await pages[asker].press("accept", "takeback")
    assert not own["ok"] and "You asked for this yourself" in own["error"]
    own = await pages[asker].press("decline", "takeback")
    assert not own["ok"] and "You asked for this yourself" in own["error"]
    assert (await service.matches.get(match_id)).takeback is not None  # still open


@pytest.mark.parametrize("answer", ["accept", "decline", "withdraw"])
async def test_abort_vote_buttons_from_both_sides(
    service: Service, board: WebBoard, client: Any, answer: str
) -> None:
    """The abort vote's Decline button used to fail for the player it was shown to ("Only <@11>, who asked,
    can withdraw..."): the other player declines, the starter withdraws, and each closes the vote."""
    match_id = await _match(service, 2)  # both have moved: an abort needs everyone's agreement
    alice, bob = await _pages(client, board, match_id)
    button = (await alice.buttons())["abort"]
    assert button["label"] == "Ask to abort" and "once every player agrees" in button["hint"]
    assert (await alice.click("abort"))["ok"]
    assert (await bob.state())["pending"] == {
        "kind": "abort",
        "seat": 0,
        "name": "Alice",
        "waiting": [1],
    }
    mine, theirs = await alice.buttons(), await bob.buttons()
    assert "withdraw" in mine and not {"accept", "decline", "abort"} & set(mine)
    assert theirs["accept"]["label"] == "Agree to abort" and "decline" in theirs
    clicker = alice if answer == "withdraw" else bob
    assert (await clicker.click(answer)) == {"ok": True}
    match = await service.matches.get(match_id)
    assert match.is_active == (answer != "accept")
    if answer != "accept":
        assert match.abort_votes == () and (await bob.state())["pending"] is None
        assert "abort" in await bob.buttons()  # and either may ask again


async def test_abort_answers_from_the_wrong_side(service: Service, board: WebBoard, client: Any) -> None:
    match_id = await _match(service, 2)
    alice, bob = await _pages(client, board, match_id)
    await alice.click("abort")
    refused = await bob.press("withdraw", "abort")
    assert not refused["ok"] and refused["error"].startswith("Only Alice, who asked, can withdraw")
    own = await alice.press("decline", "abort")
    assert not own["ok"] and "You asked for this yourself" in own["error"]
    assert (await service.matches.get(match_id)).abort_votes == (0,)


async def test_an_answer_to_a_closed_request_never_opens_a_new_one(
    service: Service, board: WebBoard, client: Any
) -> None:
    """A page that still shows a withdrawn vote: its Agree button fails instead of starting a vote of its
    own, and a takeback answer never lands on an abort vote."""
    match_id = await _match(service, 2)
    alice, bob = await _pages(client, board, match_id)
    await alice.click("abort")
    stale = await bob.buttons()
    await alice.click("withdraw")
    late = await bob.press("accept", stale["accept"]["request"])
    assert not late["ok"] and "No abort vote is open" in late["error"]
    assert (await service.matches.get(match_id)).abort_votes == ()
    await alice.click("abort")
    wrong = await bob.press("decline", "takeback")
    assert not wrong["ok"] and (await service.matches.get(match_id)).abort_votes == (0,)


async def test_abort_says_when_it_ends_the_match_at_once(
    service: Service, board: WebBoard, client: Any
) -> None:
    match_id = await _match(service, 1)  # Bob has not moved yet: an abort ends the match at once
    alice, bob = await _pages(client, board, match_id)
    for page in (alice, bob):
        button = (await page.buttons())["abort"]
        assert button["label"] == "Abort now" and "at once" in button["hint"] and button["danger"]
    assert (await bob.click("abort"))["ok"]
    assert not (await service.matches.get(match_id)).is_active


async def test_against_the_bot_takeback_and_abort_happen_at_once(
    service: Service, board: WebBoard, client: Any
) -> None:
    match_id = await _match(service, 2, bot=True)
    page = Page(client, board, match_id, ALICE)
    buttons = await page.buttons()
    assert buttons["takeback"]["label"] == "Take back" and "the bot agrees" in buttons["takeback"]["hint"]
    assert buttons["abort"]["label"] == "Abort now" and "The bot agrees" in buttons["abort"]["hint"]
    assert buttons["resign"]["confirm"].startswith("Resign this match?")
    assert (await page.click("takeback"))["ok"]
    assert (await service.matches.get(match_id)).ply == 0


async def test_spectators_have_no_buttons_and_finished_matches_only_rematch(
    service: Service, board: WebBoard, client: Any
) -> None:
    match_id = await _match(service, 2)
    watcher = Page(client, board, match_id, 77)
    assert (await watcher.state())["actions"] == []
    anonymous = await client.get(f"/api/m/{match_token(SECRET, match_id)}")
    assert (await anonymous.json())["actions"] == []
    await service.matches.resign(match_id, ALICE)
    assert [b["action"] for b in (await Page(client, board, match_id, BOB).state())["actions"]] == ["rematch"]
    assert (await watcher.state())["actions"] == []


async def test_unknown_actions_and_requests_are_refused(
    service: Service, board: WebBoard, client: Any
) -> None:
    match_id = await _match(service, 2)
    alice = Page(client, board, match_id, ALICE)
    for body in ({"action": "win"}, {"action": "accept", "request": "surrender"}):
        answer = await client.post(f"/api/m/{alice.token}/action", json=body, headers=_headers(board, ALICE))
        assert answer.status == 400
