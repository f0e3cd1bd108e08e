"""Many matches at once; the same move submitted twice at the same time is applied once."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.service import Service
from bot.service.checkdb import check_database
from bot.service.errors import NotYourTurnError, StaleMove
from bot.service.records import Played
from tests.service.conftest import ServiceFactory
from tests.service.helpers import legal, start_match
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


async def test_many_matches_played_at_once_stay_consistent(service: Service, db_path: object) -> None:
    matches = [
        await start_match(
            service, options={"target": 30}, challenger=2 * i + 1, opponent=2 * i + 2, channel=i
        )
        for i in range(30)
    ]
    plies = await asyncio.gather(*(play_out(service, m.id, random.Random(m.id)) for m in matches))
    assert all(p >= 15 for p in plies)
    for match in matches:
        view = await service.matches.get(match.id)
        assert view.status == "finished" and view.ply == len(await service.matches.moves(match.id))
    assert await check_database(f"sqlite:///{db_path}", registry=registry) == []


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
    results = await asyncio.gather(
        service.matches.play(match.id, 1, "1"), service.matches.resign(match.id, 2), return_exceptions=True
    )
    assert not any(isinstance(r, Exception) and not isinstance(r, StaleMove) for r in results)
    view = await service.matches.get(match.id)
    assert view.status == "finished"
