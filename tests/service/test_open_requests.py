"""An open takeback request or abort vote as the players see it again (`open_takeback`, `open_abort`) and
its asker withdrawing it (`withdraw_takeback`, `withdraw_abort`), another player declining an abort vote
(`decline_abort`), on every store."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.service import Service
from bot.service.errors import NoAbortVote, NoTakebackRequest, NotSeated, NotYourRequest, OwnRequest
from bot.service.records import (
    AbortRequested,
    Finished,
    PostedMessage,
    RequestMessage,
    TakebackRecord,
    TakebackRequested,
    TakenBack,
)
from tests.service.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, everyone_moves, start_match


async def test_only_the_asker_withdraws_and_then_the_request_is_gone(service: Service) -> None:
    match = await start_match(service)
    await service.matches.play(match.id, ALICE, "1")
    assert await service.agreements.open_takeback(match.id) is None
    with pytest.raises(NoTakebackRequest):
        await service.agreements.withdraw_takeback(match.id, ALICE)
    await service.agreements.request_takeback(match.id, ALICE)
    shown = await service.agreements.open_takeback(match.id)
    assert isinstance(shown, TakebackRequested) and (shown.by_user, shown.waiting_for) == (ALICE, (BOB,))
    with pytest.raises(NotYourRequest) as refused:
        await service.agreements.withdraw_takeback(match.id, BOB)
    assert str(refused.value) == f"Only <@{ALICE}>, who asked, can withdraw this request."
    with pytest.raises(NotYourRequest):  # from a button bound to Alice's seat too
        await service.agreements.withdraw_takeback(match.id, BOB, seat=0)
    with pytest.raises(NoTakebackRequest):  # a button bound to another seat's request
        await service.agreements.withdraw_takeback(match.id, ALICE, seat=1)

    view = await service.agreements.withdraw_takeback(match.id, ALICE, seat=0)
    assert view.takeback is None and view.ply == match.ply + 1
    assert await service.agreements.open_takeback(match.id) is None
    with pytest.raises(NoTakebackRequest):
        await service.agreements.accept_takeback(match.id, BOB)
    again = await service.agreements.request_takeback(match.id, ALICE)  # a new one may be asked
    assert isinstance(again, TakebackRequested)
    done = await service.agreements.accept_takeback(match.id, BOB)
    assert isinstance(done, TakenBack) and done.match.ply == 0


async def test_a_move_makes_the_request_stale_for_showing_and_withdrawing(service: Service) -> None:
    match = await start_match(service)
    await service.matches.play(match.id, ALICE, "1")
    await service.agreements.request_takeback(match.id, ALICE)
    await service.matches.play(match.id, BOB, "1")
    assert await service.agreements.open_takeback(match.id) is None
    with pytest.raises(NoTakebackRequest):
        await service.agreements.withdraw_takeback(match.id, ALICE)


async def test_shown_again_it_waits_only_for_those_who_have_not_accepted(service: Service) -> None:
    lobby = await service.lobbies.create(
        "hoard", {}, ALICE, guild_id=GUILD, channel_id=CHANNEL, seat_order="joined"
    )
    await service.lobbies.join(lobby.id, BOB)
    await service.lobbies.join(lobby.id, CAROL)
    match = await service.lobbies.start(lobby.id, ALICE)
    await service.matches.play(match.id, ALICE, "1")
    await service.agreements.request_takeback(match.id, ALICE)
    await service.agreements.accept_takeback(match.id, BOB)
    shown = await service.agreements.open_takeback(match.id)
    assert shown is not None and shown.waiting_for == (CAROL,)
    with pytest.raises(OwnRequest):
        await service.agreements.accept_takeback(match.id, ALICE)
    await service.agreements.withdraw_takeback(match.id, ALICE)
    with pytest.raises(NoTakebackRequest):
        await service.agreements.accept_takeback(match.id, CAROL)


async def three_players_who_moved(service: Service) -> int:
    lobby = await service.lobbies.create(
        "hoard", {}, ALICE, guild_id=GUILD, channel_id=CHANNEL, seat_order="joined"
    )
    await service.lobbies.join(lobby.id, BOB)
    await service.lobbies.join(lobby.id, CAROL)
    match = await service.lobbies.start(lobby.id, ALICE)
    await everyone_moves(service, match.id)
    return match.id


async def test_the_abort_vote_is_shown_as_its_starter_asked_and_only_they_withdraw_it(
    service: Service,
) -> None:
    match_id = await three_players_who_moved(service)
    assert await service.agreements.open_abort(match_id) is None
    with pytest.raises(NoAbortVote):
        await service.agreements.withdraw_abort(match_id, CAROL)
    await service.agreements.request_abort(match_id, CAROL)  # Carol (the third seat) starts it
    joined = await service.agreements.request_abort(match_id, ALICE, seat=2)  # from Carol's vote's button
    assert isinstance(joined, AbortRequested) and (joined.by_user, joined.waiting_for) == (CAROL, (BOB,))
    shown = await service.agreements.open_abort(match_id)
    assert shown is not None and (shown.by_user, shown.waiting_for) == (CAROL, (BOB,))
    with pytest.raises(NotYourRequest) as refused:
        await service.agreements.withdraw_abort(match_id, ALICE)
    assert str(refused.value) == f"Only <@{CAROL}>, who asked, can withdraw this request."
    with pytest.raises(NoAbortVote):  # a button bound to a vote someone else started
        await service.agreements.withdraw_abort(match_id, CAROL, seat=0)

    view = await service.agreements.withdraw_abort(match_id, CAROL, seat=2)
    assert view.abort_votes == () and view.is_active, "withdrawn with Alice's agreement"
    assert await service.agreements.open_abort(match_id) is None
    with pytest.raises(NoAbortVote):  # the old vote's button no longer agrees to anything
        await service.agreements.request_abort(match_id, BOB, seat=2)
    again = await service.agreements.request_abort(match_id, BOB)  # a new vote, Bob's
    assert isinstance(again, AbortRequested) and (again.by_user, again.waiting_for) == (BOB, (ALICE, CAROL))
    await service.agreements.request_abort(match_id, ALICE, seat=1)
    done = await service.agreements.request_abort(match_id, CAROL, seat=1)
    assert isinstance(done, Finished) and done.match.status == "aborted"


async def test_any_other_player_declines_the_abort_vote_and_its_starter_cannot(service: Service) -> None:
    """A player who did not start the vote refuses it: the vote closes with every agreement so far (its
    starter withdraws it instead); a spectator, a button of another vote, or no vote at all is refused."""
    match_id = await three_players_who_moved(service)
    with pytest.raises(NoAbortVote):
        await service.agreements.decline_abort(match_id, BOB)
    await service.agreements.request_abort(match_id, CAROL)
    await service.agreements.request_abort(match_id, ALICE, seat=2)
    with pytest.raises(OwnRequest):
        await service.agreements.decline_abort(match_id, CAROL)
    with pytest.raises(NotSeated):
        await service.agreements.decline_abort(match_id, 999)
    with pytest.raises(NoAbortVote):  # a button bound to a vote someone else started
        await service.agreements.decline_abort(match_id, BOB, seat=0)
    view = await service.agreements.decline_abort(match_id, BOB, seat=2)
    assert view.abort_votes == () and view.is_active
    assert (await service.matches.get(match_id)).abort_votes == ()
    assert await service.agreements.open_abort(match_id) is None
    with pytest.raises(NoAbortVote):  # the closed vote's buttons agree to nothing
        await service.agreements.request_abort(match_id, BOB, seat=2)
    again = await service.agreements.request_abort(match_id, ALICE)  # Alice's agreement went with it
    assert isinstance(again, AbortRequested) and again.waiting_for == (BOB, CAROL)


async def test_a_move_makes_the_abort_vote_stale_for_showing_and_withdrawing(service: Service) -> None:
    match_id = await three_players_who_moved(service)
    await service.agreements.request_abort(match_id, BOB)
    match = await service.matches.get(match_id)
    assert match.user_to_move is not None
    await service.matches.play(match_id, match.user_to_move, "1")
    assert await service.agreements.open_abort(match_id) is None
    with pytest.raises(NoAbortVote):
        await service.agreements.withdraw_abort(match_id, BOB)


async def test_a_takeback_is_kept_with_the_moves_it_undid(service: Service) -> None:
    """The store keeps each match's last takeback with the notations of the moves it deleted, written with
    the takeback itself (a process that posts it later, even after a restart, can still say what it undid)."""
    match = await start_match(service)
    assert await service.store.last_takeback(match.id) is None
    await service.matches.play(match.id, ALICE, "1")
    await service.matches.play(match.id, BOB, "2")
    await service.agreements.request_takeback(match.id, ALICE)
    done = await service.agreements.accept_takeback(match.id, BOB)
    assert isinstance(done, TakenBack)
    taken = await service.store.last_takeback(match.id)
    assert taken == TakebackRecord(2, 0, tuple(m.notation for m in done.undone)) and taken.moves == ("1", "2")
    await service.matches.play(match.id, ALICE, "2")
    await service.agreements.request_takeback(match.id, ALICE)
    await service.agreements.accept_takeback(match.id, BOB)
    assert await service.store.last_takeback(match.id) == TakebackRecord(1, 0, ("2",))  # the last one only


async def test_request_messages_are_kept_until_closed_once(service: Service) -> None:
    """A posted request message is recorded with who is still to answer (recorded again: the list changes),
    listed per match, and forgotten once: only the first closing gets True."""
    match = await start_match(service)
    other = await start_match(service, channel=CHANNEL + 1, challenger=CAROL)
    first = RequestMessage(PostedMessage(CHANNEL, 11), match.id, "takeback", 3, ALICE, (BOB, CAROL))
    second = RequestMessage(PostedMessage(CHANNEL, 12), match.id, "abort", 3, BOB, (ALICE,))
    elsewhere = RequestMessage(PostedMessage(CHANNEL + 1, 13), other.id, "abort", 0, CAROL, (BOB,))
    for posted in (second, first, elsewhere):
        await service.messages.request_posted(posted)
    assert await service.messages.request_messages(match.id) == [first, second]
    fewer = replace(first, waiting=(CAROL,))
    await service.messages.request_posted(fewer)
    assert await service.messages.request_messages(match.id) == [fewer, second]
    assert await service.messages.request_closed(11)
    assert not await service.messages.request_closed(11)
    assert await service.messages.request_messages(match.id) == [second]
    assert await service.messages.request_messages(other.id) == [elsewhere]
