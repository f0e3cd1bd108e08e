"""Turn deadlines with a fake clock: timeouts, pass-all, the clock task, and nothing firing twice."""

from __future__ import annotations

import asyncio

from bot.service import Service
from bot.service.clock import TurnClock
from bot.service.records import ChallengeExpired, Event, TimedOut
from games.base import Termination
from tests.service.conftest import FakeClock, ServiceFactory
from tests.service.helpers import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    everyone_moves,
    next_wakeup,
    snapshot_matches_replay,
    start_match,
)


async def test_a_timed_out_player_loses_a_two_player_game_once(
    open_service: ServiceFactory, clock: FakeClock
) -> None:
    service = await open_service()
    match = await start_match(service, options={"turn_timeout": 10})
    await everyone_moves(service, match.id)
    assert await next_wakeup(service) == clock() + 600
    clock.advance(599)
    assert await service.matches.expire_due() == []
    clock.advance(2)
    events = await service.matches.expire_due()
    assert len(events) == 1
    event = events[0]
    assert isinstance(event, TimedOut) and (event.seat, event.user_id) == (0, ALICE)
    assert event.finished is not None and event.finished.termination is Termination.TIMEOUT
    assert event.finished.winners == (BOB,) and event.finished.by_user == ALICE
    assert await service.matches.expire_due() == []
    restarted = await open_service()
    clock.advance(10_000)
    assert await restarted.matches.expire_due() == []
    assert (await restarted.matches.get(match.id)).status == "finished"


async def test_each_move_restarts_the_deadline_for_the_next_player(
    service: Service, clock: FakeClock
) -> None:
    match = await start_match(service, options={"turn_timeout": 1})
    clock.advance(50)
    played = await service.matches.play(match.id, ALICE, "1")
    assert played.match.deadline == clock() + 60
    clock.advance(59)
    assert await service.matches.expire_due() == []
    clock.advance(1)
    [event] = await service.matches.expire_due()
    assert isinstance(event, TimedOut) and event.user_id == BOB


async def test_in_a_game_with_passall_a_timed_out_player_passes_from_then_on(
    service: Service, clock: FakeClock
) -> None:
    lobby = await service.lobbies.create(
        "hoard", {"turn_timeout": 1}, ALICE, guild_id=GUILD, channel_id=CHANNEL, seat_order="joined"
    )
    await service.lobbies.join(lobby.id, BOB)
    await service.lobbies.join(lobby.id, CAROL)
    match = await service.lobbies.start(lobby.id, ALICE)
    await everyone_moves(service, match.id)
    clock.advance(61)
    [event] = await service.matches.expire_due()
    assert isinstance(event, TimedOut) and event.finished is None and event.played is not None
    assert event.played.move.notation == "passall" and event.played.match.user_to_move == BOB
    await service.matches.play(match.id, BOB, "1")
    played = await service.matches.play(match.id, CAROL, "1")
    assert [(f.notation, f.user_id, f.forced) for f in played.forced] == [("pass", ALICE, True)]
    assert played.match.user_to_move == BOB
    assert await snapshot_matches_replay(service, match.id)


async def test_the_clock_task_reports_expiries_to_the_callback(
    open_service: ServiceFactory, clock: FakeClock
) -> None:
    service = await open_service()
    events: list[Event] = []
    arrived = asyncio.Event()

    async def on_event(event: Event) -> None:
        events.append(event)
        arrived.set()

    turn_clock = TurnClock(service.matches, service.challenges, on_event, now=service.now)
    turn_clock.start()
    try:
        match = await start_match(service, options={"turn_timeout": 1})
        challenge = await service.challenges.create(
            "race", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL + 1
        )
        assert await turn_clock.seconds_to_next() == 60
        clock.advance(service.challenges.ttl + 1)
        turn_clock.wake()
        await asyncio.wait_for(arrived.wait(), 60)  # a limit only a hang reaches
        while len(events) < 2:
            await asyncio.sleep(0.01)
    finally:
        await turn_clock.stop()
    assert not turn_clock.running
    assert [e.match_id for e in events if isinstance(e, TimedOut)] == [match.id]
    assert [e.challenge.id for e in events if isinstance(e, ChallengeExpired)] == [challenge.id]
    assert len(events) == 2

    restarted = await open_service()
    again: list[Event] = []

    async def collect(event: Event) -> None:
        again.append(event)

    second_clock = TurnClock(restarted.matches, restarted.challenges, collect, now=restarted.now)
    clock.advance(10**6)
    assert await second_clock.run_once() == [] and again == []


async def test_the_clock_expires_deadlines_missed_while_the_bot_was_down(
    open_service: ServiceFactory, clock: FakeClock
) -> None:
    first = await open_service()
    match = await start_match(first, options={"turn_timeout": 5})
    clock.advance(3600)  # the bot was down for an hour
    restarted = await open_service()
    seen: list[Event] = []
    done = asyncio.Event()

    async def on_event(event: Event) -> None:
        seen.append(event)
        done.set()

    turn_clock = TurnClock(restarted.matches, restarted.challenges, on_event, now=restarted.now)
    turn_clock.start()
    try:
        await asyncio.wait_for(done.wait(), 60)  # a limit only a hang reaches
    finally:
        await turn_clock.stop()
    assert [e.match_id for e in seen if isinstance(e, TimedOut)] == [match.id]


async def test_a_failing_callback_does_not_stop_the_clock(service: Service, clock: FakeClock) -> None:
    async def broken(event: Event) -> None:
        raise RuntimeError("discord is down")

    turn_clock = TurnClock(service.matches, service.challenges, broken, now=service.now)
    await start_match(service, options={"turn_timeout": 1})
    clock.advance(61)
    assert len(await turn_clock.run_once()) == 1
    assert await turn_clock.run_once() == []


async def test_the_bot_seat_has_no_deadline(service: Service, clock: FakeClock) -> None:
    match = await service.challenges.play_bot(
        "race",
        {"first": "challenger", "turn_timeout": 1},
        ALICE,
        bot_id=99,
        level="1",
        guild_id=1,
        channel_id=1,
    )
    await service.matches.play(match.id, ALICE, "1")
    clock.advance(10**6)
    assert await service.matches.expire_due() == []
    assert await next_wakeup(service) is None
