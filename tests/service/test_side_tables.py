"""Side tables (issue 44): matches started in a channel's Activity beside the channel's main match, on both
stores. The channel's commands keep to the main match; the store still refuses a second main one."""

from __future__ import annotations

import asyncio
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.service import Service
from bot.service.errors import ChannelBusy, NoMatchHere
from bot.service.records import TimedOut
from bot.service.store import SqliteStore
from bot.service.store.sql import SqlStore
from tests.service.conftest import FakeClock, ServiceFactory
from tests.service.helpers import ALICE, BOB, BOT, CAROL, CHANNEL, DAVE, GUILD, everyone_moves, start_match
from tests.service.tinygames import registry

COPY_MATCH = (
    "INSERT INTO matches (game, options, seed, guild_id, channel_id, status, ply, turn_timeout, deadline, "
    "snapshot, rated, created_at, updated_at, side) SELECT game, options, seed, guild_id, channel_id, "
    "status, ply, turn_timeout, deadline, snapshot, rated, created_at, updated_at, side "
    "FROM matches WHERE id = ?"
)
"""A raw copy of a match row: the store's unique index is all that stands in its way."""


async def test_side_tables_coexist_with_the_main_match_which_the_channel_keeps(service: Service) -> None:
    main = await start_match(service)
    assert not main.side
    # A challenge, a match against the bot and a table for three, all made in the Activity.
    challenge = await service.challenges.create(
        "race", {}, CAROL, DAVE, guild_id=GUILD, channel_id=CHANNEL, side=True
    )
    assert challenge.side
    second = await service.challenges.accept(challenge.id, DAVE)
    third = await service.challenges.play_bot(
        "race", {}, ALICE, bot_id=BOT, level="3", guild_id=GUILD, channel_id=CHANNEL, side=True
    )
    lobby = await service.lobbies.create(
        "hoard", {}, BOB, guild_id=GUILD, channel_id=CHANNEL, max_players=3, side=True
    )
    assert lobby.side
    await service.lobbies.join(lobby.id, CAROL)
    await service.lobbies.join(lobby.id, DAVE)
    fourth = await service.lobbies.start(lobby.id, BOB)
    assert [m.side for m in (second, third, fourth)] == [True, True, True]
    assert {m.channel_id for m in (second, third, fourth)} == {CHANNEL}
    assert (await service.matches.in_channel(CHANNEL)).id == main.id
    assert (await service.matches.get(fourth.id)).side
    # Without the Activity's word the channel is busy, as before.
    with pytest.raises(ChannelBusy):
        await service.challenges.create("race", {}, CAROL, DAVE, guild_id=GUILD, channel_id=CHANNEL)
    with pytest.raises(ChannelBusy):
        await service.matches.start(
            "race", {}, [(CAROL, None), (DAVE, None)], seed=1, rated=False, turn_timeout=60,
            guild_id=GUILD, channel_id=CHANNEL,
        )  # fmt: skip
    # The main match ends: the channel has none, though its side tables go on.
    await everyone_moves(service, main.id)
    await service.matches.resign(main.id, ALICE)
    with pytest.raises(NoMatchHere):
        await service.matches.in_channel(CHANNEL)
    assert (await service.matches.get(second.id)).is_active


async def test_an_activity_start_in_a_free_channel_is_its_main_match(service: Service) -> None:
    """`side` lets a start go beside a main match; where there is none, the start becomes the main one."""
    match = await service.challenges.play_bot(
        "race", {}, ALICE, bot_id=BOT, level="3", guild_id=GUILD, channel_id=CHANNEL, side=True
    )
    assert not match.side
    assert (await service.matches.in_channel(CHANNEL)).id == match.id
    # An Activity challenge made while the channel was busy, accepted once it is free: the main match.
    challenge = await service.challenges.create(
        "race", {}, CAROL, DAVE, guild_id=GUILD, channel_id=CHANNEL, side=True
    )
    await everyone_moves(service, match.id)
    await service.matches.resign(match.id, ALICE)
    accepted = await service.challenges.accept(challenge.id, DAVE)
    assert not accepted.side and (await service.matches.in_channel(CHANNEL)).id == accepted.id


async def test_the_store_index_refuses_a_second_main_match_but_not_a_side_one(service: Service) -> None:
    store = service.store
    assert isinstance(store, SqlStore)
    main = await start_match(service)
    side = await service.challenges.play_bot(
        "race", {}, CAROL, bot_id=BOT, level="3", guild_id=GUILD, channel_id=CHANNEL, side=True
    )
    assert side.side
    with pytest.raises(Exception) as refused:  # each database raises its own error
        await store._write(COPY_MATCH, main.id)
    assert store._channel_taken(refused.value)
    assert await store._write(COPY_MATCH, side.id) == 1  # a second side table: fine


async def test_a_side_table_has_its_clock_and_its_rating(
    open_service: ServiceFactory, clock: FakeClock
) -> None:
    service = await open_service()
    await start_match(service)
    challenge = await service.challenges.create(
        "race", {"turn_timeout": 10}, CAROL, DAVE, guild_id=GUILD, channel_id=CHANNEL, side=True
    )
    side = await service.challenges.accept(challenge.id, DAVE)
    assert side.side and side.rated
    await everyone_moves(service, side.id)
    clock.advance(601)
    events = await service.matches.expire_due()
    [event] = [e for e in events if isinstance(e, TimedOut) and e.match_id == side.id]
    assert event.finished is not None and event.finished.rating_changes
    assert {c.user_id for c in event.finished.rating_changes} == {CAROL, DAVE}
    finished = await service.matches.get(side.id)
    assert finished.status == "finished" and finished.side


OPS = st.lists(st.tuples(st.sampled_from(["activity", "discord", "end"]), st.integers(0, 7)), max_size=25)


async def run_ops(ops: list[tuple[str, int]]) -> None:
    """Starts from the Activity (`side`) and from Discord, and ends, in any order, in one channel."""
    store = await SqliteStore.open(":memory:")
    try:
        service = Service(store, registry=registry, rng=random.Random(0), now=lambda: 1000.0)
        for op, pick in ops:
            active = [m for m in await service.matches.of_user(ALICE) if m.channel_id == CHANNEL]
            try:
                if op == "end" and active:
                    gone = active[pick % len(active)]
                    await service.matches.resign(gone.id, ALICE)  # before any move: aborted
                    assert not (await service.matches.get(gone.id)).is_active
                elif op != "end":
                    before = await store.active_match_in_channel(CHANNEL)
                    started = await service.challenges.play_bot(
                        "race", {}, ALICE, bot_id=BOT, level="1", guild_id=GUILD, channel_id=CHANNEL,
                        side=op == "activity",
                    )  # fmt: skip
                    assert started.side == (before is not None), (
                        "side exactly when the channel has its main match"
                    )
            except ChannelBusy:  # only a start from Discord is refused, and only beside a main match
                assert op == "discord" and await store.active_match_in_channel(CHANNEL) is not None
            active = [m for m in await service.matches.of_user(ALICE) if m.channel_id == CHANNEL]
            main = [m for m in active if not m.side]
            assert len(main) <= 1, "at most one main match per channel"
            here = await store.active_match_in_channel(CHANNEL)
            assert (here.id if here else None) == (main[0].id if main else None)
    finally:
        await store.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=OPS)
def test_a_channel_never_has_two_main_matches(ops: list[tuple[str, int]]) -> None:
    asyncio.run(run_ops(ops))


async def test_a_rematch_of_a_side_table_is_a_side_table_beside_the_main_match(service: Service) -> None:
    """A rematch plays where its match was: a side table's rematch goes beside the channel's main match
    (without `side` the channel would be busy)."""
    main = await start_match(service)
    challenge = await service.challenges.create(
        "race", {}, CAROL, DAVE, guild_id=GUILD, channel_id=CHANNEL, side=True
    )
    side = await service.challenges.accept(challenge.id, DAVE)
    await everyone_moves(service, side.id)
    await service.matches.resign(side.id, CAROL)
    await service.rematches.offer(side.id, CAROL)
    started = await service.rematches.accept(side.id, DAVE)
    new = await service.matches.get(started.match.id)
    assert new.side and new.is_active
    assert (await service.matches.in_channel(CHANNEL)).id == main.id
