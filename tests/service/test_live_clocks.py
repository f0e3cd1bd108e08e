"""Live clocks in the service, with a fake clock: the control stored with the match, each chosen move
stamped with the mover's clock, the flag (turn clock and flag timer, once), the first-move abort, the
downtime rule at restart, takebacks, and 3-4 seats with the game's timeout rule (issue 43)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.service import Service
from bot.service.ai import AIRunner, BotTurns
from bot.service.errors import OutOfTime
from bot.service.flags import FlagTimer
from bot.service.ratings import LIVE
from bot.service.records import MatchStatus, TimedOut
from bot.service.timecontrol import FIRST_MOVE_SECONDS, TimeControl
from games.base import InvalidOptions, Termination
from tests.service.conftest import FakeClock, ServiceFactory
from tests.service.helpers import ALICE, BOB, BOT, CAROL, CHANNEL, GUILD, start_match, until


async def _both_moved(service: Service, clock: FakeClock, options: dict[str, object]) -> int:
    """A live Race match (1+2: 60 s and 2 s a move) in which both have made their free first move."""
    match = await start_match(service, options={"target": 1000, **options})
    clock.advance(5)
    await service.matches.play(match.id, ALICE, "1")
    clock.advance(7)
    await service.matches.play(match.id, BOB, "1")
    return match.id


async def test_the_control_is_stored_with_the_match_and_each_move_with_the_movers_clock(
    open_service: ServiceFactory, clock: FakeClock
) -> None:
    service = await open_service()
    match = await start_match(service, options={"clock": "1+2", "target": 1000})
    assert match.time_control == TimeControl(60, 2)
    assert match.deadline == clock() + FIRST_MOVE_SECONDS  # the first move: 30 s, the clock not running
    match_id = match.id
    clock.advance(5)
    await service.matches.play(match_id, ALICE, "1")
    clock.advance(7)
    await service.matches.play(match_id, BOB, "1")
    view = await service.matches.get(match_id)
    assert view.deadline == clock() + 60  # Alice's clock runs from Bob's move
    clock.advance(20)
    played = await service.matches.play(match_id, ALICE, "1")
    assert played.move.at == clock()
    assert played.match.deadline == clock() + 60  # Bob's turn: his full 60 s
    clock.advance(50)
    await service.matches.play(match_id, BOB, "2")
    log = await service.store.moves(match_id)
    assert [m.clock for m in log] == [60.0, 60.0, 42.0, 12.0]  # 60 - 20 + 2, 60 - 50 + 2
    assert [m.at for m in log][-1] == clock()
    again = await (await open_service()).matches.get(match_id)
    assert again.time_control == TimeControl(60, 2) and again.deadline == clock() + 42


async def test_a_correspondence_match_keeps_its_time_per_turn_and_no_clocks(
    service: Service, clock: FakeClock
) -> None:
    match = await start_match(service, options={"turn_timeout": 10})
    assert match.time_control is None and match.deadline == clock() + 600
    await service.matches.play(match.id, ALICE, "1")
    assert [m.clock for m in await service.store.moves(match.id)] == [None]


async def test_a_bad_control_is_refused_with_what_to_type(service: Service) -> None:
    with pytest.raises(InvalidOptions, match="minutes\\+seconds"):
        await start_match(service, options={"clock": "five"})
    with pytest.raises(InvalidOptions, match="15 seconds to 180 minutes"):
        await start_match(service, options={"clock": "0+5"})


async def test_the_flag_ends_the_game_on_time_once(service: Service, clock: FakeClock) -> None:
    match_id = await _both_moved(service, clock, {"clock": "1+0"})
    ply = (await service.matches.get(match_id)).ply
    clock.advance(59.9)
    assert await service.matches.flag(match_id, ply) is None  # not yet
    clock.advance(0.1)
    event = await service.matches.flag(match_id, ply)
    assert isinstance(event, TimedOut) and event.user_id == ALICE
    assert event.finished is not None and event.finished.termination is Termination.TIMEOUT
    assert event.finished.winners == (BOB,) and event.finished.match.rated
    assert event.finished.match.clocks == (0.0, 60.0)  # the final board shows the flag
    assert await service.matches.flag(match_id, ply) is None  # never twice
    assert await service.matches.expire_due() == []  # nor by the turn clock


async def test_a_move_after_the_flag_is_refused(service: Service, clock: FakeClock) -> None:
    match_id = await _both_moved(service, clock, {"clock": "1+0"})
    clock.advance(61)
    with pytest.raises(OutOfTime):
        await service.matches.play(match_id, ALICE, "1")
    [event] = await service.matches.expire_due()
    assert event.finished is not None and event.finished.termination is Termination.TIMEOUT


async def test_a_first_move_not_made_in_time_aborts_the_match_unrated(
    service: Service, clock: FakeClock
) -> None:
    match = await start_match(service, options={"clock": "5+3"})
    clock.advance(FIRST_MOVE_SECONDS)
    event = await service.matches.flag(match.id, match.ply)
    assert event is not None and event.finished is not None
    assert event.finished.match.status is MatchStatus.ABORTED and event.finished.rating_changes == ()


async def test_the_second_players_first_move_is_timed_too(service: Service, clock: FakeClock) -> None:
    match = await start_match(service, options={"clock": "5+3"})
    played = await service.matches.play(match.id, ALICE, "1")
    assert played.match.deadline == clock() + FIRST_MOVE_SECONDS
    clock.advance(FIRST_MOVE_SECONDS)
    event = await service.matches.flag(match.id, played.match.ply)
    assert event is not None and event.finished is not None and event.user_id == BOB
    assert event.finished.match.status is MatchStatus.ABORTED


async def test_time_while_the_service_is_down_is_given_back(
    open_service: ServiceFactory, clock: FakeClock
) -> None:
    first = await open_service()
    match_id = await _both_moved(first, clock, {"clock": "1+2"})
    clock.advance(10)
    await first.matches.play(match_id, ALICE, "1")  # Alice 52 s; Bob to move with 60 s
    clock.advance(45)  # Bob thinks; the service goes down with 15 s on his clock ...
    clock.advance(3600)  # ... and comes back an hour later
    restarted = await open_service()
    assert await restarted.matches.resume_clocks() == 1
    view = await restarted.matches.get(match_id)
    assert view.deadline == clock() + 60  # his turn begins again with the clock it began with
    assert await restarted.matches.expire_due() == []
    assert await restarted.matches.resume_clocks() == 1  # idempotent: the same clock again


async def test_service_start_resumes_clocks_before_the_turn_clock_runs(
    open_service: ServiceFactory, clock: FakeClock
) -> None:
    first = await open_service()
    match_id = await _both_moved(first, clock, {"clock": "1+0"})
    clock.advance(7200)
    restarted = await open_service()
    await restarted.start(ai=AIRunner())
    try:
        await asyncio.sleep(0.05)
        view = await restarted.matches.get(match_id)
        assert view.is_active and view.deadline == clock() + 60
    finally:
        await restarted.close()


async def test_a_takeback_restores_the_clocks_of_the_position(service: Service, clock: FakeClock) -> None:
    match_id = await _both_moved(service, clock, {"clock": "1+2", "rated": False})
    clock.advance(20)
    await service.matches.play(match_id, ALICE, "1")  # Alice 42
    clock.advance(30)
    await service.matches.play(match_id, BOB, "2")  # Bob 32
    clock.advance(5)
    asked = await service.agreements.request_takeback(match_id, BOB)
    clock.advance(1)
    taken = await service.agreements.accept_takeback(match_id, ALICE, seat=asked.match.seats[1].seat)
    view = await service.matches.get(match_id)
    assert taken is not None and view.user_to_move == BOB
    assert view.deadline == clock() + 60  # Bob's clock as it stood before the move taken back
    assert [m.clock for m in await service.store.moves(match_id)] == [60.0, 60.0, 42.0]


async def test_three_seats_each_have_a_clock_and_a_flag_passes_all(
    service: Service, clock: FakeClock
) -> None:
    lobby = await service.lobbies.create(
        "hoard", {"clock": "1+0", "target": 1000}, ALICE, max_players=3, guild_id=GUILD, channel_id=CHANNEL
    )
    await service.lobbies.join(lobby.id, BOB)
    await service.lobbies.join(lobby.id, CAROL)
    await service.lobbies.start(lobby.id, ALICE)
    match = await service.matches.in_channel(CHANNEL)
    assert match.time_control == TimeControl(60, 0)
    for _ in range(3):
        user = match.user_to_move
        assert user is not None
        clock.advance(2)
        match = (await service.matches.play(match.id, user, "1")).match
    flagged = match.user_to_move
    clock.advance(60)
    event = await service.matches.flag(match.id, match.ply)
    assert event is not None and event.user_id == flagged and event.played is not None
    assert event.finished is None  # the game goes on: the flagged seat passes from now on
    after = await service.matches.get(match.id)
    assert after.is_active and after.user_to_move not in (None, flagged)
    assert after.deadline == clock() + 60
    log = await service.store.moves(match.id)
    assert log[-1].notation == "passall" and log[-1].clock == 0.0


async def test_the_flag_timer_flags_from_the_database_and_skips_stale_entries(
    open_service: ServiceFactory, clock: FakeClock
) -> None:
    service = await open_service()
    match_id = await _both_moved(service, clock, {"clock": "1+0"})
    flags: list[TimedOut] = []

    async def heard(event: TimedOut) -> None:
        flags.append(event)

    timer = FlagTimer(service.matches, heard, now=clock)
    assert await timer.start() == 1 and len(timer) == 1
    clock.advance(30)
    await service.matches.play(match_id, ALICE, "1")  # the entry for Alice is stale now
    clock.advance(31)  # past Alice's old flag, not Bob's
    assert timer.run_due(clock()) == 0
    clock.advance(30)  # Bob's flag: the timer's own loop handle fires it
    timer.rearm()  # the fake clock jumped: the loop's handle is armed again for the earliest flag
    for _ in range(100):
        if flags:
            break
        await asyncio.sleep(0.01)
    await timer.stop()
    assert [e.user_id for e in flags] == [BOB]
    assert len(timer) == 0


class BudgetRunner(AIRunner):
    """An AI runner that records the thinking limit of each search and "thinks" for all of it on the fake
    clock (as a search that uses its whole budget would), then plays 1."""

    def __init__(self, clock: FakeClock) -> None:
        super().__init__(1)
        self.clock = clock
        self.limits: list[float | None] = []

    async def choose(
        self, game_id: str, state_dump: dict[str, Any], level: str, seed: int, *, limit: float | None = None
    ) -> str:
        self.limits.append(limit)
        self.clock.advance(limit or 0.0)
        return "1"


async def test_the_bot_budgets_its_clock_and_never_flags(service: Service, clock: FakeClock) -> None:
    match = await service.challenges.play_bot(
        "race",
        {"first": "challenger", "clock": "0.5+1", "target": 1000},
        ALICE,
        bot_id=BOT,
        level="1",
        guild_id=GUILD,
        channel_id=CHANNEL,
    )
    runner = BudgetRunner(clock)
    bot = BotTurns(service.matches, runner, _ignore)  # it plays whenever a change hands it the turn
    for _ in range(30):  # Alice answers at once; the bot thinks for its whole budget every move
        view = await service.matches.get(match.id)
        assert view.user_to_move == ALICE and view.deadline is not None
        await service.matches.play(match.id, ALICE, "1")
        await until(lambda: not bot.pending())
        after = await service.matches.get(match.id)
        assert after.is_active, "the bot flagged"
        assert await service.matches.flag(match.id, after.ply) is None
    assert len(runner.limits) >= 30 and all(limit is not None and limit > 0 for limit in runner.limits)
    clocks = await service.matches.clocks(await service.matches.get(match.id), running=False)
    assert clocks is not None and clocks[1] > 2.0  # the bot kept a reserve after 30 of its moves


async def _ignore(event: object) -> None:
    return None


async def test_live_and_correspondence_ratings_are_kept_apart(
    open_service: ServiceFactory, clock: FakeClock
) -> None:
    """A live match rates the game's live pool, a correspondence one the correspondence pool, which is
    where every rating from before live clocks stays (issue 43, item 4)."""
    service = await open_service()
    plays: list[tuple[dict[str, object], int]] = [
        ({"clock": "3+2", "target": 6}, CHANNEL),
        ({"target": 6}, CHANNEL + 1),
    ]
    for options, channel in plays:
        match = await start_match(service, options=options, channel=channel)
        while (view := await service.matches.get(match.id)).is_active:
            clock.advance(1)
            user = view.user_to_move
            assert user is not None
            await service.matches.play(match.id, user, "2")
    live = await service.ratings.rating("race", ALICE, speed=LIVE)
    slow = await service.ratings.rating("race", ALICE)
    assert live is not None and slow is not None and live.played == slow.played == 1
    assert live.game == "race:live" and slow.game == "race"
    board = await service.ratings.leaderboard("race", speed=LIVE)
    assert board == []  # one game establishes nobody
    bots = await service.ratings.bot_ratings("race", speed=LIVE)
    assert [b.played for b in bots] == [0] * len(bots)


async def test_a_move_in_another_process_moves_the_flag(
    open_service: ServiceFactory, clock: FakeClock
) -> None:
    """Two services on one database stand for two processes: the flag timer of the one that owns the match
    reads the clock the other moved (`sync`, on its notification), and flags by the new deadline only."""
    owner, other = await open_service(), await open_service()
    match_id = await _both_moved(owner, clock, {"clock": "1+0"})
    flags: list[TimedOut] = []

    async def heard(event: TimedOut) -> None:
        flags.append(event)

    timer = FlagTimer(owner.matches, heard, now=clock)
    await timer.start()
    try:
        clock.advance(30)
        await other.matches.play(match_id, ALICE, "1")  # elsewhere: Bob's clock runs now
        assert await timer.sync() == 1
        clock.advance(31)  # Alice's old flag has passed: nothing, the match moved on
        timer.run_due(clock())
        await asyncio.sleep(0.05)
        assert flags == [] and (await owner.matches.get(match_id)).is_active
        clock.advance(30)  # Bob's
        timer.run_due(clock())
        for _ in range(100):
            if flags:
                break
            await asyncio.sleep(0.01)
        assert [e.user_id for e in flags] == [BOB]
    finally:
        await timer.stop()


async def test_a_resignation_out_of_turn_leaves_the_movers_clock_running(
    service: Service, clock: FakeClock
) -> None:
    lobby = await service.lobbies.create(
        "hoard", {"clock": "1+0", "target": 1000}, ALICE, max_players=3, guild_id=GUILD, channel_id=CHANNEL
    )
    await service.lobbies.join(lobby.id, BOB)
    await service.lobbies.join(lobby.id, CAROL)
    match = await service.lobbies.start(lobby.id, ALICE)
    for _ in range(3):
        user = match.user_to_move
        assert user is not None
        match = (await service.matches.play(match.id, user, "1")).match
    mover, flag = match.user_to_move, match.deadline
    clock.advance(20)
    leaver = next(u for u in (ALICE, BOB, CAROL) if u != mover)
    await service.matches.resign(match.id, leaver)
    after = await service.matches.get(match.id)
    assert after.is_active and after.user_to_move == mover and after.deadline == flag


async def test_an_older_read_never_replaces_a_newer_flag(service: Service, clock: FakeClock) -> None:
    match_id = await _both_moved(service, clock, {"clock": "1+0"})

    async def heard(event: TimedOut) -> None:
        return None

    timer = FlagTimer(service.matches, heard, now=clock)
    await timer.start()
    try:
        store = service.store
        read = store.live_deadlines
        moved: list[tuple[int, float | None]] = []

        async def overtaken(**kwargs: Any) -> list[tuple[int, int, float]]:
            found = await read(**kwargs)  # the read is done; then a move commits before it is used
            clock.advance(10)
            played = await service.matches.play(match_id, ALICE, "1")
            moved.append((played.match.ply, played.match.deadline))
            return found

        store.live_deadlines = overtaken  # type: ignore[method-assign]
        try:
            await timer.sync()
        finally:
            store.live_deadlines = read  # type: ignore[method-assign]
        assert [timer._latest[match_id]] == moved, "the commit's flag stands, not the older read's"
    finally:
        await timer.stop()


async def test_a_live_board_read_afresh_shows_the_clocks_of_its_last_move(
    service: Service, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`/board` and reposts draw a match read from the store, which carries no clocks: the board maker
    works them out from the log, so the image shows them as after a move."""
    import bot.board_maker as board_maker

    match_id = await _both_moved(service, clock, {"clock": "1+2"})
    clock.advance(20)
    await service.matches.play(match_id, ALICE, "1")
    drawn: list[Any] = []

    async def board_message(drawing: Any, match: Any, *args: Any, **kwargs: Any) -> Any:
        drawn.append(match.clocks)

    class Names:
        async def names_for(self, match: Any) -> dict[int, str]:
            return {}

    class Looks:
        async def theme_for(self, viewer: Any, guild: Any) -> str:
            return "default"

        async def public_tr(self, guild: Any) -> Any:
            return None

    monkeypatch.setattr(board_maker, "board_message", board_message)
    maker = board_maker.BoardMaker(service, Names(), Looks(), drawing=None)  # type: ignore[arg-type]
    await maker.board(await service.matches.get(match_id))
    assert drawn == [(42.0, 60.0)]  # Alice: 60 - 20 + 2 after her move; Bob's clock as his turn began
