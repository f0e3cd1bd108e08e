"""Fuzzing the service's entry points: whatever a hostile or broken client sends (any ids, any text, any
option values), the service answers with an error meant for the player, and the database stays consistent."""

from __future__ import annotations

import asyncio
import contextlib
import random
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.service import Service
from bot.service.checkdb import check_database
from bot.service.errors import USER_ERRORS
from bot.service.store import SqliteStore
from tests.service.tinygames import registry

IDS = st.one_of(
    st.integers(min_value=1, max_value=4),  # real ids and players, most of the time
    st.integers(min_value=1, max_value=4),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 2**31, 2**63 - 1, 2**63]),
)
TEXT = st.one_of(st.text(max_size=40), st.sampled_from(["1", "2", "pass", "passall", "resign", "skip", ""]))
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.lists(st.integers(), max_size=3),
)
OPTIONS = st.dictionaries(
    st.sampled_from(["target", "rated", "turn_timeout", "first", "colour", ""]), VALUES, max_size=3
)
GAMES = st.sampled_from(["race", "hoard", "chess", "", "paint"])

ACTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("challenge"), GAMES, OPTIONS, IDS, IDS, IDS),
        st.tuples(st.just("accept"), IDS, IDS),
        st.tuples(st.just("lobby"), GAMES, OPTIONS, IDS, IDS),
        st.tuples(st.just("join"), IDS, IDS),
        st.tuples(st.just("start"), IDS, IDS),
        st.tuples(st.just("play"), IDS, IDS, st.one_of(TEXT, VALUES)),
        st.tuples(st.just("resign"), IDS, IDS),
        st.tuples(st.just("abort"), IDS, IDS),
        st.tuples(st.just("takeback"), IDS, IDS),
        st.tuples(st.just("settings"), IDS, VALUES, VALUES),
        st.tuples(st.just("replay"), IDS, IDS, IDS),
    ),
    min_size=1,
    max_size=25,
)


async def run(actions: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.sqlite3"
        store = await SqliteStore.open(str(path))
        service = Service(store, registry=registry, rng=random.Random(0))
        # A few real ids for the fuzzed ones to hit now and then.
        challenge = await service.challenges.create("race", {}, 1, 2, guild_id=1, channel_id=1)
        await service.challenges.accept(challenge.id, 2)
        await service.lobbies.create("hoard", {}, 1, guild_id=1, channel_id=2)
        try:
            for action in actions:
                with contextlib.suppress(*USER_ERRORS):
                    await perform(service, action)
        finally:
            await store.close()
        assert await check_database(f"sqlite:///{path}", registry=registry) == []


async def perform(service: Service, action: tuple[Any, ...]) -> None:
    kind, *small = action
    if kind == "challenge":
        game, options, challenger, opponent, channel = small
        await service.challenges.create(game, options, challenger, opponent, guild_id=1, channel_id=channel)
    elif kind == "accept":
        await service.challenges.accept(small[0], small[1])
    elif kind == "lobby":
        game, options, host, channel = small
        await service.lobbies.create(game, options, host, guild_id=1, channel_id=channel)
    elif kind == "join":
        await service.lobbies.join(small[0], small[1])
    elif kind == "start":
        await service.lobbies.start(small[0], small[1])
    elif kind == "play":
        await service.matches.play(small[0], small[1], small[2])
    elif kind == "resign":
        await service.matches.resign(small[0], small[1])
    elif kind == "abort":
        await service.agreements.request_abort(small[0], small[1])
    elif kind == "takeback":
        await service.agreements.request_takeback(small[0], small[1])
    elif kind == "settings":
        await service.guilds.update(1, turn_timeout=small[1], threads=small[2])
    elif kind == "replay":
        await service.matches.get_visible(small[0], guild_id=small[1], user_id=small[2])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=ACTIONS)
def test_any_request_gets_a_players_error_and_the_database_stays_consistent(
    actions: list[tuple[Any, ...]],
) -> None:
    asyncio.run(run(actions))
