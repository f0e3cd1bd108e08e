"""The service on the real engines: seats, forced passes, pass, resign, timeouts and consistent snapshots."""

from __future__ import annotations

import random

import pytest

from bot.service import Service
from bot.service.checkdb import check_database
from bot.service.errors import CannotPass
from bot.service.records import Finished, Played, TakenBack, TimedOut
from games.base import IllegalMove
from tests.service.conftest import FakeClock
from tests.service.helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    legal,
    snapshot_matches_replay,
    start_match,
)


async def random_plies(service: Service, match_id: int, plies: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(plies):
        view = await service.matches.get(match_id)
        if not view.is_active:
            return
        user = view.user_to_move
        assert user is not None
        options = await legal(service, match_id, limit=400)
        await service.matches.play(match_id, user, rng.choice(options), expected_ply=view.ply)


async def test_paintscape_balancer_sits_in_seat_zero_and_the_log_replays(service: Service) -> None:
    match = await start_match(service, "paintscape", {"balancer": "opponent"})
    rules = service.rules("paintscape")
    assert match.seats[0].user_id == BOB and rules.seat_label(match.state, 0) == "Balancer"
    assert match.user_to_move == BOB
    await random_plies(service, match.id, 40, seed=1)
    assert await snapshot_matches_replay(service, match.id)
    view = await service.matches.get(match.id)
    if view.is_active:
        with pytest.raises((IllegalMove, CannotPass)):
            await service.matches.pass_turn(match.id, view.user_to_move or 0)


async def test_paintscape_without_balance_seat_zero_is_black_and_moves_first(service: Service) -> None:
    match = await start_match(service, "paintscape", {"balance": False, "balancer": "challenger"})
    rules = service.rules("paintscape")
    assert rules.seat_label(match.state, 0) == "Black" and match.user_to_move == ALICE


async def test_paint_has_no_pass_and_resign_ends_it(service: Service) -> None:
    match = await start_match(service, "paint", {"white": "opponent"})
    assert match.user_to_move == BOB
    with pytest.raises(CannotPass, match="cannot pass in Paint"):
        await service.matches.pass_turn(match.id, BOB)
    await random_plies(service, match.id, 10, seed=2)
    result = await service.matches.resign(match.id, ALICE)
    assert isinstance(result, Finished) and result.winners == (BOB,)
    assert await snapshot_matches_replay(service, match.id)


async def test_tilingking_lobby_timeout_passes_all_and_resign_is_a_move(
    service: Service, clock: FakeClock, store_url: str
) -> None:
    lobby = await service.lobbies.create(
        "tilingking", {"turn_timeout": 1}, ALICE, guild_id=GUILD, channel_id=CHANNEL, seat_order="joined"
    )
    await service.lobbies.join(lobby.id, BOB)
    await service.lobbies.join(lobby.id, CAROL)
    match = await service.lobbies.start(lobby.id, ALICE)
    await random_plies(service, match.id, 6, seed=3)
    view = await service.matches.get(match.id)
    late = view.user_to_move
    clock.advance(61)
    [event] = await service.matches.expire_due()
    assert isinstance(event, TimedOut) and event.user_id == late
    assert event.played is not None and event.played.move.notation == "passall"
    view = await service.matches.get(match.id)
    resigner = view.user_to_move
    assert resigner is not None and resigner != late
    result = await service.matches.resign(match.id, resigner)
    assert isinstance(result, Played) and result.move.notation == "resign"
    assert result.finished is None and result.match.user_to_move not in (resigner, late)  # the third plays on
    assert await check_database(store_url) == []


async def test_a_pass_in_tilingking(service: Service) -> None:
    match = await start_match(service, "tilingking", {"first": "challenger"})
    played = await service.matches.pass_turn(match.id, ALICE, expected_ply=0)
    assert played.move.notation == "pass" and played.match.user_to_move == BOB
    assert await snapshot_matches_replay(service, match.id)


async def test_paintscape_takeback_undoes_one_balancing_decision_at_a_time(service: Service) -> None:
    """The balancer's swaps and `done` are separate decisions: a takeback undoes the last of them (and the
    chooser's answer after it), so two swaps survive a takeback of `done`."""
    match = await start_match(service, "paintscape", {"balancer": "challenger"})
    swaps = await legal(service, match.id, "swap", limit=400)
    await service.matches.play(match.id, ALICE, swaps[0])
    second = (await legal(service, match.id, "swap", limit=400))[0]
    await service.matches.play(match.id, ALICE, second)
    await service.matches.play(match.id, ALICE, "done")
    await service.matches.play(match.id, BOB, "white")  # Bob stays White: Alice is Black and moves first
    view = await service.matches.get(match.id)
    assert view.user_to_move == ALICE and view.ply == 4
    asked = await service.agreements.request_takeback(match.id, ALICE)
    assert not isinstance(asked, Finished)
    done = await service.agreements.accept_takeback(match.id, BOB)
    assert isinstance(done, TakenBack)
    assert [m.notation for m in done.undone] == ["done", "white"]
    assert done.match.ply == 2 and done.match.user_to_move == ALICE
    assert await snapshot_matches_replay(service, match.id)
    await service.agreements.request_takeback(match.id, ALICE)
    again = await service.agreements.accept_takeback(match.id, BOB)
    assert isinstance(again, TakenBack) and [m.notation for m in again.undone] == [second]
    assert await snapshot_matches_replay(service, match.id)


async def test_paintscape_timeout_is_a_loss(service: Service, clock: FakeClock) -> None:
    match = await start_match(service, "paintscape", {"balancer": "opponent", "turn_timeout": 5})
    while len({m.seat for m in await service.matches.log(match.id) if not m.forced}) < 2:
        view = await service.matches.get(match.id)
        assert view.user_to_move is not None
        await service.matches.play(match.id, view.user_to_move, (await legal(service, match.id))[0])
    late = (await service.matches.get(match.id)).user_to_move
    clock.advance(301)
    [event] = await service.matches.expire_due()
    assert isinstance(event, TimedOut) and event.user_id == late and event.finished is not None
    assert event.finished.winners == (({ALICE, BOB} - {late}).pop(),) and event.finished.match.id == match.id
