"""The web board's draw offers and rematches (bot/web/actions.py), as the page posts them: a draw offered,
shown to the other player with Accept and Decline, accepted (the match ends drawn) or declined; a finished
match's Rematch button, the offer shown to the other player, accepted: the old page's state points to the
new match's page and says the running score; against the bot one press starts it."""

from __future__ import annotations

from typing import Any

import games
from bot.service import Service
from bot.web.app import WebBoard
from bot.web.security import match_token
from games.base import clickable_moves
from tests.web.test_requests import (  # noqa: F401  (the fixtures)
    ALICE,
    BOB,
    SECRET,
    Page,
    _match,
    board,
    client,
)


async def _buttons(page: Page) -> dict[tuple[str, str | None], dict[str, Any]]:
    """The page's buttons by (action, request), their words looked up in the page's texts."""
    state = await page.state()
    texts = state["texts"]
    return {
        (b["action"], b.get("request")): {
            **b,
            "label": texts[b["text"]],
            "hint": texts.get(b.get("hint", "")),
        }
        for b in state["actions"]
    }


async def test_a_draw_offered_on_the_web_is_accepted_there(
    service: Service,
    board: WebBoard,  # noqa: F811
    client: Any,  # noqa: F811
) -> None:
    match_id = await _match(service, 2)
    alice, bob = Page(client, board, match_id, ALICE), Page(client, board, match_id, BOB)
    offer = (await _buttons(alice))[("draw", None)]
    assert offer["label"] == "Offer a draw" and offer["hint"].startswith("The match ends drawn")
    assert await alice.press("draw") == {"ok": True}
    state = await bob.state()
    assert state["pending"] == {"kind": "draw", "seat": 0, "name": "Alice", "waiting": [1]}
    theirs = await _buttons(bob)
    assert theirs[("accept", "draw")]["label"] == "Accept draw" and ("decline", "draw") in theirs
    assert ("withdraw", "draw") in await _buttons(alice) and ("draw", None) not in await _buttons(alice)
    again = await alice.press("draw")
    assert again["ok"] is False and "already" in again["error"]
    assert await bob.press("accept", "draw") == {"ok": True}
    match = await service.matches.get(match_id)
    assert not match.is_active and match.outcome is not None and match.outcome.is_draw


async def test_a_declined_draw_closes_the_offer_and_a_move_lapses_one(
    service: Service,
    board: WebBoard,  # noqa: F811
    client: Any,  # noqa: F811
) -> None:
    match_id = await _match(service, 2)
    alice, bob = Page(client, board, match_id, ALICE), Page(client, board, match_id, BOB)
    await alice.press("draw")
    assert await bob.press("decline", "draw") == {"ok": True}
    assert (await bob.state())["pending"] is None
    refused = await alice.press("draw")  # one offer per few moves
    assert refused["ok"] is False and "more moves" in refused["error"]
    await bob.press("draw")
    match = await service.matches.get(match_id)
    mover = match.seats[match.to_move].user_id
    move = clickable_moves(games.get("paint"), match.state)[0].notation
    await service.matches.play(match_id, mover, move)
    assert (await alice.state())["pending"] is None
    lapsed = await alice.press("accept", "draw")
    assert lapsed["ok"] is False and lapsed["error"].startswith("Nobody offered a draw here.")


async def test_a_rematch_on_the_web_moves_the_page_to_the_new_match(
    service: Service,
    board: WebBoard,  # noqa: F811
    client: Any,  # noqa: F811
) -> None:
    match_id = await _match(service, 2)
    await service.matches.resign(match_id, ALICE)
    alice, bob = Page(client, board, match_id, ALICE), Page(client, board, match_id, BOB)
    offer = (await _buttons(bob))[("rematch", None)]
    assert offer["label"] == "Rematch" and offer["hint"].startswith("The same match again, seats rotated")
    assert await bob.press("rematch") == {"ok": True}
    state = await alice.state()
    assert state["rematch"]["offer"]["name"] == "Bob" and state["rematch"]["offer"]["waiting"] == [0]
    assert state["rematch"]["next"] is None
    assert ("accept", "rematch") in await _buttons(alice) and ("withdraw", "rematch") in await _buttons(bob)
    assert await alice.press("accept", "rematch") == {"ok": True}
    new = next(m for m in await service.matches.of_user_turn_first(ALICE) if m.id != match_id)
    state = await alice.state()
    assert state["rematch"]["next"] == f"/m/{match_token(SECRET, new.id)}"
    assert state["rematch"]["score"] == "Alice 0 - 1 Bob"
    assert await _buttons(alice) == {}  # the rematch started: no more rematch buttons
    assert [p.user_id for p in new.seats] == [BOB, ALICE]
    playing = await Page(client, board, new.id, ALICE).state()
    assert playing["rematch"] == {"offer": None, "next": None, "score": "Alice 0 - 1 Bob"}
    assert (await alice.state())["rematch"]["score"] == "Alice 0 - 1 Bob"


async def test_a_rematch_against_the_bot_starts_with_one_press(
    service: Service,
    board: WebBoard,  # noqa: F811
    client: Any,  # noqa: F811
) -> None:
    match_id = await _match(service, 2, bot=True)
    await service.matches.resign(match_id, ALICE)
    alice = Page(client, board, match_id, ALICE)
    assert (await _buttons(alice))[("rematch", None)]["hint"].endswith("so it starts at once.")
    assert await alice.press("rematch") == {"ok": True}
    assert (await alice.state())["rematch"]["next"] is not None
