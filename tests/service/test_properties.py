"""Property: whatever players do (moves, passes, takebacks, resignations), the snapshot always equals the
replay of the move log, the ply equals the log's length, and the plies are 0..n-1."""

from __future__ import annotations

import asyncio
import contextlib
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.service import Service
from bot.service.checkdb import check_match
from bot.service.errors import USER_ERRORS
from bot.service.store import SqliteStore
from tests.service.helpers import legal
from tests.service.tinygames import registry

ACTIONS = st.lists(
    st.tuples(st.sampled_from(["move", "move", "move", "takeback", "pass", "resign"]), st.integers(0, 3)),
    max_size=40,
)


async def run_actions(game: str, seats: int, actions: list[tuple[str, int]]) -> None:
    store = await SqliteStore.open(":memory:")
    try:
        service = Service(store, registry=registry, rng=random.Random(0), now=lambda: 1000.0)
        users = list(range(1, seats + 1))
        if seats == 2:
            challenge = await service.challenges.create(game, {"target": 25}, 1, 2, guild_id=1, channel_id=1)
            match = await service.challenges.accept(challenge.id, 2)
        else:
            lobby = await service.lobbies.create(game, {"target": 25}, 1, guild_id=1, channel_id=1)
            for user in users[1:]:
                await service.lobbies.join(lobby.id, user)
            match = await service.lobbies.start(lobby.id, 1)
        for action, pick in actions:
            view = await service.matches.get(match.id)
            if not view.is_active:
                break
            mover = view.user_to_move
            assert mover is not None
            try:
                if action == "move":
                    options = await legal(service, match.id)
                    await service.matches.play(
                        match.id, mover, options[pick % len(options)], expected_ply=view.ply
                    )
                elif action == "takeback":
                    asker = users[pick % seats]
                    await service.agreements.request_takeback(match.id, asker)
                    for other in users:
                        if other != asker:
                            with contextlib.suppress(*USER_ERRORS):
                                await service.agreements.accept_takeback(match.id, other)
                elif action == "pass":
                    await service.matches.pass_turn(match.id, mover)
                else:
                    await service.matches.resign(match.id, users[pick % seats])
            except USER_ERRORS:
                pass
            row = await store.get_match(match.id)
            assert row is not None
            moves = await store.moves(match.id)
            assert check_match(service.rules(game), row, moves) == []
    finally:
        await store.close()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=ACTIONS)
def test_race_snapshot_always_equals_the_replay(actions: list[tuple[str, int]]) -> None:
    asyncio.run(run_actions("race", 2, actions))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=ACTIONS, seats=st.integers(2, 4))
def test_hoard_snapshot_always_equals_the_replay(actions: list[tuple[str, int]], seats: int) -> None:
    asyncio.run(run_actions("hoard", seats, actions))


def test_takeback_target_is_the_askers_last_decision() -> None:
    from bot.service.agreements import takeback_target
    from bot.service.records import MoveRecord

    def log(*entries: tuple[int, bool] | tuple[int, bool, str]) -> list[MoveRecord]:
        return [
            MoveRecord(ply=i, seat=e[0], notation=e[2] if len(e) > 2 else "m", forced=e[1], at=0.0)  # type: ignore[misc]
            for i, e in enumerate(entries)
        ]

    target = takeback_target
    assert target(log(), 0) is None
    assert target(log((0, False), (1, False)), 0) == 0
    assert target(log((0, False), (1, False), (0, True)), 0) == 0  # a forced pass is skipped
    assert (
        target(log((0, False), (1, False), (0, False), (0, False), (1, True)), 0) == 3
    )  # one swap at a time
    assert target(log((1, True), (0, False)), 1) is None
    assert target(log((0, False), (1, False, "resign"), (0, False)), 1) is None, (
        "a resignation is never undone"
    )
