"""What a viewer of a match page may do besides moving, as data the page turns into buttons: the match's
actions (resign, take back, abort) and the answers to an open request (accept, decline, withdraw).

The server decides which buttons a viewer gets and words them: "Ask to abort" becomes "Abort now" where an
abort ends the match at once (before every seat has moved once, or when the other seats are the bot's, which
agree by themselves), and "Ask to take back" becomes "Take back" against the bot. Every answer goes to the
request that is open: a takeback request or an abort vote, whichever the page showed (`expected`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.service import Service
from bot.service.agreements import takeback_target
from bot.service.errors import NoAbortVote
from bot.service.matches import everyone_moved
from bot.service.records import (
    DrawDeclined,
    DrawOffered,
    MatchStatus,
    MatchView,
    MoveRecord,
    RematchDeclined,
    RematchOffered,
    RematchRecord,
    RematchStarted,
    RematchStatus,
)
from bot.service.timecontrol import has_chosen, stamps

ANSWERS = ("accept", "decline", "withdraw")
"""The answers to an open request."""
MATCH_ACTIONS = ("resign", "takeback", "abort", "berserk")


@dataclass(frozen=True, slots=True)
class RequestClosed:
    """A takeback or an abort vote (`kind`) closed on the web, `how` ("declined" by another player or
    "withdrawn" by its asker): Discord's request message says so and loses its buttons, as the request's own
    Decline or Withdraw button does."""

    match: MatchView
    kind: str
    how: str = "declined"


def pending(match: MatchView, names: Sequence[str]) -> dict[str, Any] | None:
    """The open request of an active match: its kind, who asked (seat and name) and the seats still to
    answer; None when there is none."""
    if not match.is_active:
        return None
    if match.takeback is not None and match.takeback.ply == match.ply:
        request = match.takeback
        answered = {request.seat, *request.accepted}
        waiting = [p.seat for p in match.seats if p.seat not in answered and not p.is_ai]
        waiting = [s for s in waiting if match.seats[s].user_id != request.user_id]
        return {"kind": "takeback", "seat": request.seat, "name": names[request.seat], "waiting": waiting}
    if match.abort_votes:
        first = match.abort_votes[0]
        waiting = [p.seat for p in match.seats if p.seat not in match.abort_votes]
        return {"kind": "abort", "seat": first, "name": names[first], "waiting": waiting}
    return None


def _button(action: str, text: str, **extra: Any) -> dict[str, Any]:
    return {"action": action, "text": text, **extra}


def viewer_actions(
    match: MatchView,
    user_id: int | None,
    log: Sequence[MoveRecord],
    names: Sequence[str],
    *,
    berserk: bool = False,
) -> list[dict[str, Any]]:
    """The buttons `user_id` gets on the page of `match` (none for a spectator or a finished match): each
    {"action", "text"} with, where it applies, "hint" (a line that says what it does), "confirm" (a question
    asked first), "main" (the expected answer), "danger" and "request" (the kind of request it answers).
    Texts are keys of the page's words (`bot.web.texts.PAGE_TEXTS`), which the page has in its language:
    the buttons cost a few bytes on every update. With `berserk` (a live arena's game), a seat that has
    not moved nor berserked yet gets Berserk (bot/service/tournaments/live.py)."""
    if user_id is None or not match.is_active:
        return []
    seats = [p.seat for p in match.seats if p.user_id == user_id and not p.is_ai]
    if not seats:
        return []
    buttons: list[dict[str, Any]] = []
    request = pending(match, names)
    if request is not None:
        asker = match.seats[request["seat"]].user_id
        kind = request["kind"]
        if asker == user_id:
            buttons.append(_button("withdraw", "withdraw", request=kind))
        elif any(s in request["waiting"] for s in seats):
            text = "accept" if kind == "takeback" else "agree_abort"
            buttons.append(_button("accept", text, request=kind, main=True))
            buttons.append(_button("decline", "decline", request=kind))
    others = [p for p in match.seats if p.user_id != user_id]
    humans = [p for p in others if not p.is_ai]
    if any(takeback_target(log, seat) is not None for seat in seats) and (
        request is None or request["kind"] != "takeback"
    ):
        if humans:
            buttons.append(_button("takeback", "takeback"))
        else:
            buttons.append(_button("takeback", "takeback_now", hint="takeback_now_hint"))
    if request is None or request["kind"] != "abort":
        if not everyone_moved(len(match.seats), log):
            buttons.append(_button("abort", "abort_now", hint="abort_now_hint", danger=True))
        elif not humans:
            buttons.append(_button("abort", "abort_now", hint="abort_bot_hint", danger=True))
        else:
            buttons.append(_button("abort", "abort", hint="abort_hint"))
    if berserk and any(s not in match.berserk and not has_chosen(s, stamps(log)) for s in seats):
        buttons.append(_button("berserk", "berserk", hint="berserk_hint", danger=True))
    buttons.append(_button("resign", "resign", confirm="confirm_resign", danger=True))
    return buttons


async def perform(service: Service, match: MatchView, user_id: int, action: str, expected: str | None) -> Any:
    """Do `action` for `user_id` through the service; an answer goes to the open request of the kind the
    page showed (`expected`: "takeback" or "abort"; None: whichever is open), so a request that closed
    meanwhile is never mistaken for another (NoTakebackRequest, NoAbortVote)."""
    agreements = service.agreements
    if action == "resign":
        return await service.matches.resign(match.id, user_id)
    if action == "takeback":
        return await agreements.request_takeback(match.id, user_id)
    if action == "abort":
        return await agreements.request_abort(match.id, user_id)
    if action == "berserk":
        return await service.tournaments.berserk(match.id, user_id)
    open_takeback = match.takeback is not None and match.takeback.ply == match.ply
    kind = expected or ("takeback" if open_takeback else "abort")
    calls: dict[tuple[str, str], Callable[[], Awaitable[Any]]] = {
        ("takeback", "accept"): lambda: agreements.accept_takeback(match.id, user_id),
        ("takeback", "decline"): lambda: agreements.decline_takeback(match.id, user_id),
        ("takeback", "withdraw"): lambda: agreements.withdraw_takeback(match.id, user_id),
        ("abort", "accept"): lambda: _agree_abort(service, match, user_id),
        ("abort", "decline"): lambda: agreements.decline_abort(match.id, user_id),
        ("abort", "withdraw"): lambda: agreements.withdraw_abort(match.id, user_id),
    }
    result = await calls[(kind, action)]()
    if action in ("decline", "withdraw"):
        return RequestClosed(result, kind, "declined" if action == "decline" else "withdrawn")
    return result


async def _agree_abort(service: Service, match: MatchView, user_id: int) -> Any:
    """Agree to the open abort vote (never start one: an answer to a vote that closed meanwhile fails)."""
    if not match.abort_votes:
        raise NoAbortVote()
    return await service.agreements.request_abort(match.id, user_id, seat=match.abort_votes[0])


# ------------------------------------------------------------------------ draw offers and rematches

LIVE_ACTIONS = ("draw", "rematch")
"""Offering a draw (an active match) and a rematch (a finished one); their answers are ANSWERS with the
request "draw" or "rematch"."""
REQUESTS = ("takeback", "abort", "draw", "rematch")
"""The kinds of request an answer may go to."""
DRAWS_AND_REMATCHES = (DrawOffered, DrawDeclined, RematchOffered, RematchStarted, RematchDeclined)
"""The results of draw offers and rematches (besides a draw's Finished), which Discord is told of (the
Live cog posts them)."""


def draw_pending(offer: DrawOffered | None, names: Sequence[str]) -> dict[str, Any] | None:
    """The open draw offer as the page shows it (as `pending`): who offered and the seats still to agree."""
    if offer is None:
        return None
    seat = offer.match.seat_of(offer.by_user)
    if seat is None:
        return None
    waiting = [p.seat for p in offer.match.seats if p.user_id in offer.waiting_for and not p.is_ai]
    return {"kind": "draw", "seat": seat, "name": names[seat], "waiting": waiting}


def draw_actions(
    match: MatchView, user_id: int, offer: DrawOffered | None, *, can_draw: bool, log: Sequence[MoveRecord]
) -> list[dict[str, Any]]:
    """A player's draw buttons: Offer a draw where one may be offered (a game that can end drawn, every
    seat has moved, no bot seat; the service judges the rest), else the answers to the open offer."""
    if offer is not None:
        if offer.by_user == user_id:
            return [_button("withdraw", "withdraw_draw", request="draw")]
        if user_id in offer.waiting_for:
            return [
                _button("accept", "accept_draw", request="draw", main=True),
                _button("decline", "decline", request="draw"),
            ]
        return []
    if not can_draw or any(p.is_ai for p in match.seats) or not everyone_moved(len(match.seats), log):
        return []
    return [_button("draw", "offer_draw", hint="offer_draw_hint")]


def rematch_actions(
    match: MatchView, user_id: int, record: RematchRecord | None, now: float, *, offered: bool = True
) -> list[dict[str, Any]]:
    """A person's rematch buttons on a finished match that `offered` one (not a tournament's game):
    Rematch (against the bot: starts at once), or the answers to the open offer; none once the rematch
    started."""
    if not offered or match.status is not MatchStatus.FINISHED or user_id not in match.human_user_ids:
        return []
    if record is not None and record.status in (RematchStatus.STARTING, RematchStatus.STARTED):
        return []
    if record is not None and record.is_open(now):
        if record.by_user == user_id:
            return [_button("withdraw", "withdraw_rematch", request="rematch")]
        if user_id in record.accepted:
            return []
        return [
            _button("accept", "accept_rematch", request="rematch", main=True),
            _button("decline", "decline", request="rematch"),
        ]
    alone = all(p.is_ai for p in match.seats if p.user_id != user_id)
    return [_button("rematch", "rematch", hint="rematch_bot_hint" if alone else "rematch_hint", main=True)]


async def perform_live(
    service: Service, match: MatchView, user_id: int, action: str, kind: str | None
) -> Any:
    """Offer a draw or a rematch, or answer the open offer (`kind` "draw" or "rematch")."""
    if action == "draw":
        return await service.draws.offer(match.id, user_id)
    if action == "rematch":
        return await service.rematches.offer(match.id, user_id)
    if kind == "draw":
        draws = service.draws
        return await (draws.accept if action == "accept" else draws.decline)(match.id, user_id)
    rematches = service.rematches
    return await (rematches.accept if action == "accept" else rematches.decline)(match.id, user_id)
