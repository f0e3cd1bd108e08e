"""Turn deadlines with a fake clock: timeouts, pass-all, the clock task, and nothing firing twice."""

from __future__ import annotations

import asyncio

from bot.clock import TurnClock
from bot.matches import ChallengeExpired, ClockEvent, MatchService, TimedOut
from games.base import Termination
from tests.service.conftest import FakeClock, ServiceFactory
from tests.service.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, snapshot_matches_replay, start_match


async def test_a_timed_out_player_loses_a_two_player_game_once(
    open_service: ServiceFactory, clock: FakeClock
) -> None:
    service = await open_service()
    match = await start_match(service, options={"turn_timeout": 10})
    assert await service.next_wakeup() == clock() + 600
    clock.advance(599)
    assert await service.expire_due() == []
    clock.advance(2)
    events = await service.expire_due()
    assert len(events) == 1
    event = events[0]
    assert isinstance(event, TimedOut) and (event.seat, event.user_id) == (0, ALICE)
    assert event.finished is not None and event.finished.termination is Termination.TIMEOUT
    assert event.finished.winners == (BOB,) and event.finished.by_user == ALICE
    assert await service.expire_due() == []
    restarted = await open_service()
    clock.advance(10_000)
    assert await restarted.expire_due() == []
    assert (await restarted.get_match(match.id)).status == "finished"


async def test_each_move_restarts_the_deadline_for_the_next_player(
    service: MatchService, clock: FakeClock
) -> None:
    match = await start_match(service, options={"turn_timeout": 1})
    clock.advance(50)
    played = await service.play(match.id, ALICE, "1")
    assert played.match.deadline == clock() + 60
    clock.advance(59)
    assert await service.expire_due() == []
    clock.advance(1)
    [event] = await service.expire_due()
    assert isinstance(event, TimedOut) and event.user_id == BOB


async def test_in_a_game_with_passall_a_timed_out_player_passes_from_then_on(
    service: MatchService, clock: FakeClock
) -> None:
    lobby = await service.create_lobby(
        "hoard", {"turn_timeout": 1}, ALICE, guild_id=GUILD, channel_id=CHANNEL, seat_order="joined"
    )
    await service.join_lobby(lobby.id, BOB)
    await service.join_lobby(lobby.id, CAROL)
    match = await service.start_lobby(lobby.id, ALICE)
    clock.advance(61)
    [event] = await service.expire_due()
    assert isinstance(event, TimedOut) and event.finished is None and event.played is not None
    assert event.played.move.notation == "passall" and event.played.next_user_id == BOB
    await service.play(match.id, BOB, "1")
    played = await service.play(match.id, CAROL, "1")
    assert [(f.notation, f.user_id, f.forced) for f in played.forced] == [("pass", ALICE, True)]
    assert played.next_user_id == BOB
    assert await snapshot_matches_replay(service, match.id)


async def test_the_clock_task_reports_expiries_to_the_callback(
    open_service: ServiceFactory, clock: FakeClock
) -> None:
    service = await open_service()
    events: list[ClockEvent] = []
    arrived = asyncio.Event()

    async def on_event(event: ClockEvent) -> None:
        events.append(event)
        arrived.set()

    turn_clock = TurnClock(service, on_event)
    await turn_clock.start()
    try:
        match = await start_match(service, options={"turn_timeout": 1})
        challenge = await service.create_challenge(
            "race", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL + 1
        )
        assert await turn_clock.seconds_to_next() == 60
        clock.advance(service.challenge_ttl + 1)
        turn_clock.wake()
        await asyncio.wait_for(arrived.wait(), 5)
        while len(events) < 2:
            await asyncio.sleep(0.01)
    finally:
        await turn_clock.stop()
    assert not turn_clock.running
    assert [e.match_id for e in events if isinstance(e, TimedOut)] == [match.id]
    assert [e.challenge.id for e in events if isinstance(e, ChallengeExpired)] == [challenge.id]
    assert len(events) == 2

    restarted = await open_service()
    again: list[ClockEvent] = []

    async def collect(event: ClockEvent) -> None:
        again.append(event)

    second_clock = TurnClock(restarted, collect)
    clock.advance(10**6)
    assert await second_clock.run_once() == [] and again == []


async def test_the_clock_expires_deadlines_missed_while_the_bot_was_down(
    open_service: ServiceFactory, clock: FakeClock
) -> None:
    first = await open_service()
    match = await start_match(first, options={"turn_timeout": 5})
    clock.advance(3600)  # the bot was down for an hour
    restarted = await open_service()
    seen: list[ClockEvent] = []
    done = asyncio.Event()

    async def on_event(event: ClockEvent) -> None:
        seen.append(event)
        done.set()

    turn_clock = TurnClock(restarted, on_event)
    await turn_clock.start()
    try:
        await asyncio.wait_for(done.wait(), 5)
    finally:
        await turn_clock.stop()
    assert [e.match_id for e in seen if isinstance(e, TimedOut)] == [match.id]


async def test_a_failing_callback_does_not_stop_the_clock(service: MatchService, clock: FakeClock) -> None:
    async def broken(event: ClockEvent) -> None:
        raise RuntimeError("discord is down")

    turn_clock = TurnClock(service, broken)
    await start_match(service, options={"turn_timeout": 1})
    clock.advance(61)
    assert len(await turn_clock.run_once()) == 1
    assert await turn_clock.run_once() == []


async def test_the_bot_seat_has_no_deadline(service: MatchService, clock: FakeClock) -> None:
    match = await service.start_ai_match(
        "race",
        {"first": "challenger", "turn_timeout": 1},
        ALICE,
        ai_user_id=99,
        level="easy",
        guild_id=1,
        channel_id=1,
    )
    await service.play(match.id, ALICE, "1")
    clock.advance(10**6)
    assert await service.expire_due() == []
    assert await service.next_wakeup() is None
