"""An open takeback request as the players see it again (`open_takeback`) and its asker withdrawing it
(`withdraw_takeback`), on every store."""

from __future__ import annotations

import pytest

from bot.service import Service
from bot.service.errors import NoTakebackRequest, NotYourRequest, OwnRequest
from bot.service.records import TakebackRequested, TakenBack
from tests.service.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, start_match


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
