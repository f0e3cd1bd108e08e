"""The bot's turns survive bad moments: a failed search, play or announcement is tried again after a
backoff (5 s, 15 s, 60 s, then capped), the "thinking" signal is cosmetic, a refused move is searched again
with another seed, and a sweep picks up a turn nothing scheduled. No real waiting: `BotTurns` takes a
`sleep` that records the delay and returns at once."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.service import Service
from bot.service.ai import RETRY_DELAYS, AIRunner, BotTurns, retry_delay
from bot.service.records import BotPlayed, Event, MatchView
from bot.service.store import SqliteStore
from tests.service.conftest import FakeClock
from tests.service.helpers import ALICE, BOT, CHANNEL, GUILD, until
from tests.service.tinygames import registry


class FlakyRunner(AIRunner):
    """An AI runner that plays `answers` in turn (an exception in the list is raised instead) and records
    the seed of each search."""

    def __init__(self, *answers: str | BaseException) -> None:
        super().__init__(1)
        self.answers = list(answers)
        self.seeds: list[int] = []

    async def choose(self, game_id: str, state_dump: dict[str, Any], level: str, seed: int) -> str:
        self.seeds.append(seed)
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if isinstance(answer, BaseException):
            raise answer
        return answer


class Recorder:
    """The background work's view of the world: the events posted, the waits asked for, and failures to
    raise from `on_event` (one per call, while any are left)."""

    def __init__(self, *post_failures: BaseException) -> None:
        self.events: list[Event] = []
        self.sleeps: list[float] = []
        self.post_failures = list(post_failures)
        self.post_calls = 0
        self.failed: list[Event] = []

    async def on_event(self, event: Event) -> None:
        self.post_calls += 1
        if self.post_failures:
            self.failed.append(event)
            raise self.post_failures.pop(0)
        self.events.append(event)

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        await asyncio.sleep(0)


def connection_error() -> aiohttp.ClientConnectorError:
    """What aiohttp raises when DNS or the connection fails (not a discord.HTTPException)."""
    key = aiohttp.client_reqrep.ConnectionKey("discord.com", 443, True, True, None, None, None)
    return aiohttp.ClientConnectorError(key, OSError(-3, "Temporary failure in name resolution"))


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[Service]:
    store = await SqliteStore.open(str(tmp_path / "tessera.sqlite3"))
    yield Service(store, registry=registry, now=FakeClock(), rng=random.Random(1))
    await store.close()


async def bot_to_move(service: Service) -> MatchView:
    """A race against the bot where the bot is to move (Alice played first)."""
    match = await service.challenges.play_bot(
        "race", {"first": "challenger"}, ALICE, bot_id=BOT, level="1", guild_id=GUILD, channel_id=CHANNEL
    )
    return (await service.matches.play(match.id, ALICE, "1")).match


def turns(service: Service, runner: AIRunner, recorder: Recorder, **kwargs: Any) -> BotTurns:
    return BotTurns(service.matches, runner, recorder.on_event, sleep=recorder.sleep, **kwargs)


async def finish(bot: BotTurns) -> None:
    """Wait until the bot's tasks are over."""
    await until(lambda: not bot.pending())


def test_the_backoff_grows_then_stays_at_its_cap() -> None:
    assert [retry_delay(RETRY_DELAYS, n) for n in range(1, 8)] == [5, 15, 60, 300, 300, 300, 300]


async def test_a_failed_search_is_tried_again_after_five_seconds(service: Service) -> None:
    match = await bot_to_move(service)
    runner = FlakyRunner(OSError("the worker could not start"), "1")
    recorder = Recorder()
    bot = turns(service, runner, recorder)
    bot.schedule(match)
    await finish(bot)
    assert recorder.sleeps == [5.0]
    assert len(runner.seeds) == 2
    (event,) = recorder.events
    assert isinstance(event, BotPlayed) and event.played.match.ply == match.ply + 1
    assert (await service.matches.get(match.id)).ply == match.ply + 1


async def test_failures_in_a_row_back_off_up_to_the_cap_and_the_bot_still_moves(service: Service) -> None:
    match = await bot_to_move(service)
    failures: list[str | BaseException] = [connection_error() for _ in range(6)]
    runner = FlakyRunner(*failures, "1")
    recorder = Recorder()
    bot = turns(service, runner, recorder)
    bot.schedule(match)
    await finish(bot)
    assert recorder.sleeps == [5.0, 15.0, 60.0, 300.0, 300.0, 300.0]
    assert len(recorder.events) == 1
    assert (await service.matches.get(match.id)).ply == match.ply + 1


async def test_a_failed_announcement_is_posted_again_without_searching_again(service: Service) -> None:
    match = await bot_to_move(service)
    runner = FlakyRunner("1")
    recorder = Recorder(connection_error())
    bot = turns(service, runner, recorder)
    bot.schedule(match)
    await finish(bot)
    assert recorder.post_calls == 2 and recorder.sleeps == [5.0]
    assert len(runner.seeds) == 1, "the move was played once; only its board was posted again"
    (event,) = recorder.events
    assert isinstance(event, BotPlayed) and event.played.match.ply == match.ply + 1


async def test_an_announcement_that_keeps_failing_is_given_up_and_the_bot_is_free(service: Service) -> None:
    match = await bot_to_move(service)
    recorder = Recorder(*(OSError("no route") for _ in range(10)))
    bot = turns(service, FlakyRunner("1"), recorder, announce_attempts=3)
    bot.schedule(match)
    await finish(bot)
    assert recorder.post_calls == 3 and recorder.sleeps == [5.0, 15.0]
    assert (await service.matches.get(match.id)).ply == match.ply + 1


async def test_a_stale_board_is_not_announced_again(service: Service) -> None:
    match = await bot_to_move(service)
    recorder = Recorder(OSError("no route"))

    async def alice_moves_meanwhile(seconds: float) -> None:
        recorder.sleeps.append(seconds)
        await service.matches.play(match.id, ALICE, "1")  # she saw the position with /board

    bot = BotTurns(service.matches, FlakyRunner("1"), recorder.on_event, sleep=alice_moves_meanwhile)
    bot.schedule(match)
    await finish(bot)
    assert recorder.sleeps == [5.0]
    # The failed board of the bot's first move was dropped (superseded); its later moves were posted.
    (stale,) = recorder.failed
    assert stale not in recorder.events
    assert recorder.events and all(isinstance(e, BotPlayed) for e in recorder.events)


@pytest.mark.parametrize(
    "failure",
    [connection_error(), OSError("network unreachable"), TimeoutError(), RuntimeError("anything")],
    ids=["aiohttp", "oserror", "timeout", "other"],
)
async def test_the_thinking_signal_never_stops_the_move(service: Service, failure: BaseException) -> None:
    match = await bot_to_move(service)
    shown: list[int] = []

    async def on_thinking(view: MatchView) -> None:
        shown.append(view.id)
        raise failure

    recorder = Recorder()
    bot = turns(service, FlakyRunner("1"), recorder, on_thinking=on_thinking)
    bot.schedule(match)
    await finish(bot)
    assert shown == [match.id]
    assert recorder.sleeps == [], "no retry needed: the move went on at once"
    assert len(recorder.events) == 1


async def test_a_hanging_thinking_signal_does_not_hold_the_move(service: Service) -> None:
    match = await bot_to_move(service)

    async def hangs(view: MatchView) -> None:
        await asyncio.Event().wait()

    recorder = Recorder()
    bot = turns(service, FlakyRunner("1"), recorder, on_thinking=hangs, thinking_timeout=0.01)
    bot.schedule(match)
    await finish(bot)
    assert len(recorder.events) == 1


async def test_a_refused_move_is_searched_again_with_another_seed(service: Service) -> None:
    match = await bot_to_move(service)
    runner = FlakyRunner("7", "1")  # "7" is not a move of the race: the service refuses it
    recorder = Recorder()
    bot = turns(service, runner, recorder)
    bot.schedule(match)
    await finish(bot)
    assert recorder.sleeps == [5.0]
    assert len(set(runner.seeds)) == 2, "the second search used another seed"
    assert len(recorder.events) == 1


async def test_while_a_retry_waits_the_match_says_so(service: Service) -> None:
    match = await bot_to_move(service)
    release = asyncio.Event()
    waits: list[float] = []

    async def held(seconds: float) -> None:
        waits.append(seconds)
        await release.wait()

    bot = BotTurns(service.matches, FlakyRunner(OSError("down"), "1"), Recorder().on_event, sleep=held)
    bot.schedule(match)
    await until(lambda: bool(waits))
    assert bot.retrying == {match.id: 5.0}
    release.set()
    await finish(bot)
    assert bot.retrying == {}


async def test_the_sweep_picks_up_a_turn_nothing_scheduled(service: Service) -> None:
    recorder = Recorder()
    bot = BotTurns(service.matches, FlakyRunner("1"), recorder.on_event, sweep_every=0.05)
    try:
        assert await bot.resume() == 0
        match = await bot_to_move(service)  # made without telling the bot (as if a reply had failed)
        await until(lambda: len(recorder.events) == 1)
        assert (await service.matches.get(match.id)).ply == match.ply + 1
    finally:
        await bot.close()


async def test_a_commit_that_hands_the_bot_its_turn_schedules_it_without_any_call(service: Service) -> None:
    """Nobody calls `schedule`: the bot's turns listen to the match service's commits, so a start where
    the bot opens and a person's move each set the bot thinking, one task per match."""
    runner = FlakyRunner("1")
    recorder = Recorder()
    bot = turns(service, runner, recorder)
    opened = await service.challenges.play_bot(
        "race", {"first": "opponent"}, ALICE, bot_id=BOT, level="1", guild_id=GUILD, channel_id=CHANNEL
    )
    assert bot.pending(), "the start scheduled the bot's first move"
    await finish(bot)
    assert (await service.matches.get(opened.id)).ply == 1
    played = await service.matches.play(opened.id, ALICE, "1")
    assert len(bot.pending()) == 1, "one task for the match, however many commits told it"
    await finish(bot)
    assert (await service.matches.get(opened.id)).ply == played.match.ply + 1
    assert [e.played.match.ply for e in recorder.events if isinstance(e, BotPlayed)] == [1, 3]
    assert len(runner.seeds) == 2, "each turn searched once"
