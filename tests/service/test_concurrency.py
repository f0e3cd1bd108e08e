"""Many matches at once; the same move submitted twice at the same time is applied once."""

from __future__ import annotations

import asyncio
import random
from typing import NoReturn

import pytest

from bot.service import Service
from bot.service.checkdb import check_database
from bot.service.errors import ChannelBusy, LobbyBusy, LobbyClosed, LobbyFull, NotYourTurnError, StaleMove
from bot.service.records import Played
from bot.service.store import LobbyChanged
from tests.service.conftest import FakeClock, ServiceFactory
from tests.service.helpers import ALICE, BOB, CAROL, DAVE, everyone_moves, legal, start_match
from tests.service.tinygames import registry


async def play_out(service: Service, match_id: int, rng: random.Random) -> int:
    """Play random legal moves until the match ends; returns the number of plies."""
    while True:
        view = await service.matches.get(match_id)
        if not view.is_active:
            return view.ply
        user = view.user_to_move
        assert user is not None
        choices = await legal(service, match_id)
        await service.matches.play(match_id, user, rng.choice(choices), expected_ply=view.ply)
        await asyncio.sleep(0)


async def test_many_matches_played_at_once_stay_consistent(service: Service, store_url: str) -> None:
    matches = [
        await start_match(
            service, options={"target": 30}, challenger=2 * i + 1, opponent=2 * i + 2, channel=i + 1
        )
        for i in range(30)
    ]
    plies = await asyncio.gather(*(play_out(service, m.id, random.Random(m.id)) for m in matches))
    assert all(p >= 15 for p in plies)
    for match in matches:
        view = await service.matches.get(match.id)
        assert view.status == "finished" and view.ply == len(await service.matches.moves(match.id))
    assert await check_database(store_url, registry=registry) == []


async def test_the_same_move_twice_at_the_same_time_is_applied_once(service: Service) -> None:
    match = await start_match(service)
    results = await asyncio.gather(
        *(service.matches.play(match.id, 1, "1", expected_ply=0) for _ in range(5)), return_exceptions=True
    )
    assert sum(isinstance(r, Played) for r in results) == 1
    assert all(isinstance(r, StaleMove) for r in results if not isinstance(r, Played))
    assert [m.notation for m in await service.matches.moves(match.id)] == ["1"]
    without_ply = await asyncio.gather(
        service.matches.play(match.id, 2, "1"), service.matches.play(match.id, 2, "1"), return_exceptions=True
    )
    assert sum(isinstance(r, Played) for r in without_ply) == 1
    assert any(isinstance(r, NotYourTurnError) for r in without_ply)


async def test_two_services_on_one_file_are_kept_apart_by_the_sql_stale_check(
    open_service: ServiceFactory,
) -> None:
    first, second = await open_service(), await open_service()
    match = await start_match(first)
    await second.matches.get(match.id)  # warm the second service's cache
    results = await asyncio.gather(
        first.matches.play(match.id, 1, "1", expected_ply=0),
        second.matches.play(match.id, 1, "2", expected_ply=0),
        return_exceptions=True,
    )
    assert sum(isinstance(r, Played) for r in results) == 1
    assert sum(isinstance(r, StaleMove) for r in results) == 1
    assert len(await first.matches.moves(match.id)) == 1
    view = await second.matches.get(match.id)
    assert view.state.total == (1 if isinstance(results[0], Played) else 2)


@pytest.mark.parametrize("seed", [3, 4])
async def test_racing_resign_and_move_leave_one_consistent_result(
    open_service: ServiceFactory, seed: int
) -> None:
    service = await open_service(seed=seed)
    match = await start_match(service)
    await everyone_moves(service, match.id)
    results = await asyncio.gather(
        service.matches.play(match.id, 1, "1"), service.matches.resign(match.id, 2), return_exceptions=True
    )
    assert not any(isinstance(r, Exception) and not isinstance(r, StaleMove) for r in results)
    view = await service.matches.get(match.id)
    assert view.status == "finished"


# Two services on one database stand for two bot processes; each test would have lost updates if a store
# overwrote what the other process wrote.


async def test_simultaneous_abort_agreements_in_two_processes_all_land(open_service: ServiceFactory) -> None:
    first, second = await open_service(), await open_service()
    matches = [
        await start_match(first, challenger=2 * i + 1, opponent=2 * i + 2, channel=i + 1) for i in range(50)
    ]
    for match in matches:
        await everyone_moves(first, match.id)
    await asyncio.gather(
        *(
            call
            for i, m in enumerate(matches)
            for call in (
                first.agreements.request_abort(m.id, 2 * i + 1),
                second.agreements.request_abort(m.id, 2 * i + 2),
            )
        )
    )
    assert [(await first.matches.get(m.id)).status for m in matches] == ["aborted"] * 50


async def test_simultaneous_takeback_accepts_in_two_processes_all_land(open_service: ServiceFactory) -> None:
    first, second = await open_service(), await open_service()
    matches = []
    for i in range(30):
        host, one, two = 3 * i + 1, 3 * i + 2, 3 * i + 3
        lobby = await first.lobbies.create(
            "hoard", {}, host, guild_id=10, channel_id=i + 1, seat_order="joined"
        )
        await first.lobbies.join(lobby.id, one)
        await first.lobbies.join(lobby.id, two)
        match = await first.lobbies.start(lobby.id, host)
        await first.matches.play(match.id, host, "1")
        await first.agreements.request_takeback(match.id, host)
        matches.append((match.id, one, two))
    await asyncio.gather(
        *(
            call
            for match_id, one, two in matches
            for call in (
                first.agreements.accept_takeback(match_id, one),
                second.agreements.accept_takeback(match_id, two),
            )
        )
    )
    for match_id, _, _ in matches:
        view = await second.matches.get(match_id)
        assert view.ply == 0 and view.takeback is None


async def test_lobby_joins_from_two_processes_never_exceed_the_lobby(open_service: ServiceFactory) -> None:
    first, second = await open_service(), await open_service()
    lobby = await first.lobbies.create("hoard", {}, 1, guild_id=10, channel_id=1, max_players=4)
    results = await asyncio.gather(
        *((first if user % 2 else second).lobbies.join(lobby.id, user) for user in range(2, 22)),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 3
    assert all(isinstance(r, LobbyFull) for r in results if isinstance(r, Exception))
    assert len((await first.lobbies.get(lobby.id)).members) == 4


async def test_rated_matches_sharing_a_player_ending_at_once_all_count(open_service: ServiceFactory) -> None:
    first, second = await open_service(), await open_service()
    matches = [await start_match(first, challenger=ALICE, opponent=100 + i, channel=i + 1) for i in range(12)]
    for match in matches:
        await everyone_moves(first, match.id)
    await asyncio.gather(
        *((first, second)[i % 2].matches.resign(m.id, 100 + i) for i, m in enumerate(matches))
    )
    [alice] = (await first.store.get_ratings("race", ["user:1"])).values()
    assert alice.played == 12
    changes = [
        next(c for c in await first.store.rating_changes(m.id) if c.player_key == "user:1") for m in matches
    ]
    # The matches were rated one after another: each started from the rating the one before it left.
    chain = {c.mu_before: c for c in changes}
    rating, steps = None, 0
    while rating in chain:
        rating, steps = chain[rating].mu_after, steps + 1
    assert steps == 12 and rating == alice.mu


async def test_two_processes_starting_a_match_in_one_channel_get_one_match(
    open_service: ServiceFactory,
) -> None:
    first, second = await open_service(), await open_service()
    results = await asyncio.gather(
        start_match(first, challenger=ALICE, opponent=BOB),
        start_match(second, challenger=CAROL, opponent=DAVE),
        return_exceptions=True,
    )
    assert sum(isinstance(r, ChannelBusy) for r in results) == 1
    assert len(await first.store.active_match_ids()) == 1


async def test_a_join_racing_the_start_in_another_process_is_in_the_match_or_refused(
    open_service: ServiceFactory,
) -> None:
    first, second = await open_service(), await open_service()
    lobbies = []
    for i in range(12):
        lobby = await first.lobbies.create("hoard", {}, 10 * i + 1, guild_id=10, channel_id=i + 1)
        await first.lobbies.join(lobby.id, 10 * i + 2)
        lobbies.append(lobby)
    results = await asyncio.gather(
        *(
            call
            for i, lobby in enumerate(lobbies)
            for call in (first.lobbies.start(lobby.id, 10 * i + 1), second.lobbies.join(lobby.id, 10 * i + 3))
        ),
        return_exceptions=True,
    )
    for i, lobby in enumerate(lobbies):
        started, joined = results[2 * i], results[2 * i + 1]
        assert not isinstance(started, BaseException), started
        players = {p.user_id for p in started.seats}
        if isinstance(joined, BaseException):
            assert isinstance(joined, LobbyClosed) and players == {10 * i + 1, 10 * i + 2}
        else:
            assert players == {10 * i + 1, 10 * i + 2, 10 * i + 3}
        assert {m.user_id for m in (await second.lobbies.get(lobby.id)).members} == players


async def test_a_lobby_that_keeps_changing_asks_the_host_to_start_again(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    lobby = await service.lobbies.create("hoard", {}, ALICE, guild_id=10, channel_id=1)
    await service.lobbies.join(lobby.id, BOB)
    tries = []

    async def changed(*args: object, **kwargs: object) -> NoReturn:
        tries.append(1)
        raise LobbyChanged("members changed")

    monkeypatch.setattr(service.store, "insert_match", changed)
    with pytest.raises(LobbyBusy, match="start it again"):
        await service.lobbies.start(lobby.id, ALICE)
    assert len(tries) == service.lobbies.START_ATTEMPTS


async def test_the_store_refuses_a_lobby_match_whose_players_are_not_the_members(service: Service) -> None:
    lobby = await service.lobbies.create("hoard", {}, ALICE, guild_id=10, channel_id=1)
    await service.lobbies.join(lobby.id, BOB)
    with pytest.raises(LobbyChanged):
        await service.matches.start(
            "hoard",
            {},
            [(ALICE, None), (CAROL, None)],
            seed=1,
            rated=False,
            turn_timeout=60.0,
            guild_id=10,
            channel_id=1,
            lobby_id=lobby.id,
        )
    assert (await service.lobbies.get(lobby.id)).status == "open"


async def test_every_deadline_fires_once_across_two_processes(
    open_service: ServiceFactory, clock: FakeClock
) -> None:
    first, second = await open_service(), await open_service()
    matches = [
        await start_match(
            first, options={"turn_timeout": 1}, challenger=2 * i + 1, opponent=2 * i + 2, channel=i + 1
        )
        for i in range(20)
    ]
    clock.advance(120)
    fired = await asyncio.gather(first.matches.expire_due(), second.matches.expire_due())
    ids = [event.match_id for events in fired for event in events]
    assert sorted(ids) == [m.id for m in matches]
    assert await first.matches.next_deadline() is None
