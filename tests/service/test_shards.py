"""Shard ownership: two services over one database, each owning half of the shards, fire every deadline,
expire every challenge, send every reminder and search every one of the bot's turns exactly once between
them; a notification from the store wakes the owning process."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from bot.service import Service
from bot.service.ai import AIRunner
from bot.service.prefs import ReminderMode
from bot.service.records import BotPlayed, ChallengeExpired, Event, MatchView, TimedOut
from bot.service.reminders import TurnReminder
from bot.service.shards import Shards
from tests.service.conftest import FakeClock, ServiceFactory
from tests.service.helpers import ALICE, BOB, BOT, start_match, until
from tests.service.tinygames import registry

EVEN = Shards(2, frozenset({0}))
ODD = Shards(2, frozenset({1}))
GUILDS = [(n << 22) + 7 for n in range(2, 10)]
"""Guild ids on shard 0, 1, 0, 1, ... of two."""


class CountingRunner(AIRunner):
    """An AI runner that plays "1" at once and counts the searches of each position."""

    def __init__(self) -> None:
        super().__init__(1)
        self.searches: list[tuple[str, int]] = []

    async def choose(self, game_id: str, state_dump: dict[str, Any], level: str, seed: int) -> str:
        self.searches.append((game_id, seed))
        return "1"


class Collected:
    """What one service's background work reported."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.reminders: list[TurnReminder] = []

    async def on_event(self, event: Event) -> None:
        self.events.append(event)

    async def on_reminder(self, reminder: TurnReminder) -> None:
        self.reminders.append(reminder)


@given(st.integers(1, 2**62), st.integers(1, 16), st.data())
def test_the_sql_filter_selects_exactly_the_guilds_owns_accepts(
    guild_id: int, count: int, data: st.DataObject
) -> None:
    ids = data.draw(st.frozensets(st.integers(0, count - 1), min_size=1))
    shards = Shards(count, ids)
    with sqlite3.connect(":memory:") as db:
        selected = db.execute(f"SELECT {shards.sql_filter('g')} FROM (SELECT ? AS g)", (guild_id,)).fetchone()
    assert bool(selected[0]) == shards.owns(guild_id)


async def test_each_deadline_and_challenge_fires_once_across_two_shard_processes(
    open_service: ServiceFactory, clock: FakeClock
) -> None:
    even, odd = await open_service(shards=EVEN), await open_service(shards=ODD)
    matches = [
        await start_match(even, options={"turn_timeout": 1}, guild=guild, channel=100 + i)
        for i, guild in enumerate(GUILDS)
    ]
    challenges = [
        await even.challenges.create("race", {}, 10 + i, BOB, guild_id=guild, channel_id=200 + i)
        for i, guild in enumerate(GUILDS)
    ]
    seen = {"even": Collected(), "odd": Collected()}
    runner = CountingRunner()
    await even.start(seen["even"].on_event, ai=runner)
    await odd.start(seen["odd"].on_event, ai=runner)
    try:
        clock.advance(even.challenges.ttl + 1)
        even.heard()
        odd.heard()
        await until(lambda: sum(len(c.events) for c in seen.values()) == 2 * len(GUILDS))
        await asyncio.sleep(0.1)  # anything fired twice would arrive now
    finally:
        await even.close()
        await odd.close()
    for name, shards in (("even", EVEN), ("odd", ODD)):
        timed_out = [e.match_id for e in seen[name].events if isinstance(e, TimedOut)]
        expired = [e.challenge.id for e in seen[name].events if isinstance(e, ChallengeExpired)]
        assert sorted(timed_out) == [m.id for m in matches if shards.owns(m.guild_id)]
        assert sorted(expired) == [c.id for c in challenges if shards.owns(c.guild_id)]


async def test_each_of_the_bots_turns_is_searched_once_by_the_owning_process(
    open_service: ServiceFactory,
) -> None:
    even, odd = await open_service(shards=EVEN), await open_service(shards=ODD)

    async def bot_to_move(guild: int, channel: int) -> MatchView:
        match = await even.challenges.play_bot(
            "race",
            {"first": "challenger"},
            ALICE,
            bot_id=BOT,
            level="1",
            guild_id=guild,
            channel_id=channel,
        )
        return (await even.matches.play(match.id, ALICE, "1")).match

    waiting = [await bot_to_move(guild, 100 + i) for i, guild in enumerate(GUILDS)]
    runners = {"even": CountingRunner(), "odd": CountingRunner()}
    await even.start(Collected().on_event, ai=runners["even"])
    await odd.start(Collected().on_event, ai=runners["odd"])
    try:
        await until(lambda: sum(len(r.searches) for r in runners.values()) == len(GUILDS))
        assert len(runners["even"].searches) == len(runners["odd"].searches) == len(GUILDS) // 2
        # A match changed after start-up: the process that committed it schedules the bot's turn itself;
        # the process that does not own its guild leaves it alone even when asked.
        later = await bot_to_move(GUILDS[0], 999)
        assert odd.bot_turns is not None
        odd.bot_turns.schedule(later)
        await asyncio.sleep(0.1)
        assert len(runners["odd"].searches) == len(GUILDS) // 2
        await until(lambda: len(runners["even"].searches) == len(GUILDS) // 2 + 1)
        await asyncio.sleep(0.1)
    finally:
        await even.close()
        await odd.close()
    after = await open_service()
    for match in [*waiting, later]:
        assert (await after.matches.get(match.id)).ply == 2, "the bot answered exactly once"


async def test_turn_reminders_are_sent_once_by_the_owning_process(
    open_service: ServiceFactory, clock: FakeClock
) -> None:
    even, odd = await open_service(shards=EVEN), await open_service(shards=ODD)
    await even.prefs.set_user(BOB, reminders=ReminderMode.DM)
    day = {"turn_timeout": 24 * 60}
    matches = [
        await start_match(even, challenger=BOB, opponent=ALICE, options=day, guild=g, channel=100 + i)
        for i, g in enumerate(GUILDS)
    ]
    clock.advance(13 * 3600)
    sent = {}
    for name, service in (("even", even), ("odd", odd)):
        service.reminders.handler = Collected().on_reminder
        sent[name] = [r.match.id for r in await service.reminders.run_due(clock())]
    assert sorted(sent["even"]) == [m.id for m in matches if EVEN.owns(m.guild_id)]
    assert sorted(sent["odd"]) == [m.id for m in matches if ODD.owns(m.guild_id)]
    assert await even.reminders.next_due() is None and await odd.reminders.next_due() is None


class ListeningStore:
    """A store whose `listen` hands the wake-up callback to the test, and, like PostgreSQL's, runs until
    cancelled."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.wake: Callable[[], None] | None = None
        self.shards: Shards | None = None
        self.stopped = False

    async def listen(
        self, wake: Callable[[], None], *, shards: Shards | None = None, changes: Any = None
    ) -> None:
        self.wake, self.shards = wake, shards
        try:
            await asyncio.Event().wait()
        finally:
            self.stopped = True

    async def close(self) -> None:
        """The fixture closes the inner store."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


async def test_a_notification_from_another_process_wakes_the_clock_and_the_bot(
    open_service: ServiceFactory, clock: FakeClock
) -> None:
    writer = await open_service()
    listening = ListeningStore(writer.store)
    owned = Shards(2, frozenset({0}))  # guild 5 and the helpers' guild are on shard 0
    service = Service(listening, registry=registry, now=clock, shards=owned)  # type: ignore[arg-type]
    seen = Collected()
    runner = CountingRunner()
    await service.start(seen.on_event, ai=runner, max_sleep=3600)
    try:
        await asyncio.sleep(0.05)  # the clock found nothing and sleeps for an hour
        assert listening.wake is not None
        assert listening.shards == owned, "the store only wakes this process for guilds it owns"
        # "Another process" (the writer) starts a match with a deadline and a match where the bot is to move.
        match = await start_match(writer, options={"turn_timeout": 1})
        bot_match = await writer.challenges.play_bot(
            "race", {"first": "challenger"}, ALICE, bot_id=BOT, level="1", guild_id=5, channel_id=300
        )
        await writer.matches.play(bot_match.id, ALICE, "1")
        clock.advance(61)
        await asyncio.sleep(0.05)
        assert seen.events == [] and runner.searches == [], "nothing happens before the notification"
        listening.wake()
        await until(lambda: len(seen.events) == 2)
    finally:
        await service.close()
    assert listening.stopped, "closing the service stopped listening"
    assert [e.match_id for e in seen.events if isinstance(e, TimedOut)] == [match.id]
    assert [e.played.match.id for e in seen.events if isinstance(e, BotPlayed)] == [bot_match.id]
    assert len(runner.searches) == 1
