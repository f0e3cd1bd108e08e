"""Schema 3: preferences (a user's theme and reminders, a server's theme), the posted messages the bot edits
later (a match's newest board, a challenge's message), and turn reminders: due on the rule, once per turn,
only for players who asked, never for short turns, and durable across a restart."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

import renderer
from bot.service import Service
from bot.service.clock import TurnClock
from bot.service.errors import BadId
from bot.service.messages import PostedMessage
from bot.service.prefs import THEMES, ReminderMode, UnknownReminderMode, UnknownTheme
from bot.service.records import Event
from bot.service.reminders import MAX_DELAY, MIN_TURN, TurnReminder, reminder_due
from bot.service.store import SCHEMA_VERSION, SqliteStore
from tests.service.conftest import FakeClock, ServiceFactory
from tests.service.helpers import ALICE, BOB, CAROL, GUILD, start_match
from tests.service.old_databases import SQLITE_MIGRATIONS as MIGRATIONS
from tests.service.test_bad_rows import damage

HOUR = 3600.0


def test_the_service_knows_the_renderers_themes() -> None:
    assert set(THEMES) == set(renderer.THEME_NAMES)


# ----------------------------------------------------------------------------------------------- schema


async def test_version_2_databases_gain_the_new_tables_and_keep_their_rows(db_path: Path) -> None:
    async with aiosqlite.connect(db_path) as db:
        for migration in MIGRATIONS[:2]:
            for statement in migration:
                await db.execute(statement)
        await db.execute("PRAGMA user_version = 2")
        await db.execute("INSERT INTO guild_settings VALUES (10, 60.0, 0, '[]')")
        await db.commit()
    store = await SqliteStore.open(str(db_path))
    try:
        assert (await store.get_guild_settings(10)) is not None
        assert await store.get_user_prefs(ALICE) is None and await store.get_guild_theme(10) is None
    finally:
        await store.close()
    async with aiosqlite.connect(db_path) as db, db.execute("PRAGMA user_version") as cursor:
        assert (await cursor.fetchone()) == (SCHEMA_VERSION,) and SCHEMA_VERSION >= 3


# ------------------------------------------------------------------------------------------ preferences


async def test_a_users_theme_wins_over_the_servers_and_both_survive_a_restart(
    open_service: ServiceFactory,
) -> None:
    service = await open_service()
    prefs = service.prefs
    assert await prefs.theme_for(ALICE, GUILD) == "default"
    await prefs.set_guild_theme(GUILD, "colorblind")
    assert await prefs.theme_for(ALICE, GUILD) == "colorblind"
    assert (
        await prefs.theme_for(None, GUILD) == "colorblind" and await prefs.theme_for(ALICE, None) == "default"
    )
    await prefs.set_user(ALICE, theme="default")
    assert await prefs.theme_for(ALICE, GUILD) == "default"
    await prefs.set_user(ALICE, reminders="dm")  # changing reminders keeps the theme

    again = (await open_service()).prefs
    mine = await again.of_user(ALICE)
    assert (mine.theme, mine.reminders) == ("default", ReminderMode.DM)
    assert await again.theme_for(BOB, GUILD) == "colorblind"
    await again.set_user(ALICE, theme="server")
    assert await again.theme_for(ALICE, GUILD) == "colorblind"


async def test_bad_preferences_are_refused_with_the_choices(service: Service) -> None:
    with pytest.raises(UnknownTheme, match="default or colorblind"):
        await service.prefs.set_user(ALICE, theme="neon")
    with pytest.raises(UnknownTheme):
        await service.prefs.set_guild_theme(GUILD, "server")
    with pytest.raises(UnknownReminderMode, match="off, dm or mention"):
        await service.prefs.set_user(ALICE, reminders="pigeon")
    with pytest.raises(BadId):
        await service.prefs.of_user(0)
    assert (await service.prefs.of_user(ALICE)).reminders is ReminderMode.OFF


async def test_a_damaged_preference_reads_as_its_default_and_is_logged(
    service: Service, store_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A `user_prefs` row holding a reminder mode or theme the bot does not know (a hand edit, an older or
    newer bot) is read as the default for that field, with a warning, instead of failing every reply."""
    await service.prefs.set_user(ALICE, theme="colorblind", reminders="dm")
    await service.prefs.set_user(BOB, theme="colorblind", reminders="mention")
    unchecked = (
        []
        if store_url.startswith("sqlite:")
        else ["ALTER TABLE user_prefs DROP CONSTRAINT user_prefs_reminders_check"]
    )
    await damage(
        store_url,
        *unchecked,
        f"UPDATE user_prefs SET reminders = 'pigeon' WHERE user_id = {ALICE}",
        f"UPDATE user_prefs SET theme = 'neon' WHERE user_id = {BOB}",
    )
    with caplog.at_level("WARNING"):
        alice, bob = await service.prefs.of_user(ALICE), await service.prefs.of_user(BOB)
    assert (alice.theme, alice.reminders) == ("colorblind", ReminderMode.OFF), "the theme was sound"
    assert (bob.theme, bob.reminders) == (None, ReminderMode.MENTION), "the reminders were sound"
    warned = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any(f"user {ALICE}" in w and "'pigeon'" in w for w in warned), warned
    assert any(f"user {BOB}" in w and "'neon'" in w for w in warned), warned
    assert await service.prefs.theme_for(BOB, GUILD) == "default"
    saved = await service.prefs.set_user(ALICE, reminders="mention")  # the next choice writes it right
    assert (await service.prefs.of_user(ALICE)) == saved and saved.reminders is ReminderMode.MENTION


# -------------------------------------------------------------------------------------- posted messages


async def test_the_newest_board_supersedes_the_previous_one_in_any_order(service: Service) -> None:
    match = await start_match(service)
    messages = service.messages
    assert (await messages.board_posted(match.id, 100, 500)).superseded is None
    again = await messages.board_posted(match.id, 100, 500)
    assert again.superseded is None  # the same board again: nothing to strip
    assert (await messages.board_posted(match.id, 100, 600)).superseded == PostedMessage(100, 500)
    # A board recorded late (an older message id) is the superseded one; the newest stays.
    assert (await messages.board_posted(match.id, 100, 550)).superseded == PostedMessage(100, 550)
    assert await messages.last_board(match.id) == PostedMessage(100, 600)


async def test_a_challenge_remembers_its_message(service: Service) -> None:
    challenge = await service.challenges.create("race", {}, ALICE, BOB, guild_id=GUILD, channel_id=100)
    assert await service.messages.challenge_message(challenge.id) is None
    await service.messages.challenge_posted(challenge.id, 100, 700)
    assert await service.messages.challenge_message(challenge.id) == PostedMessage(100, 700)


# ----------------------------------------------------------------------------------------- reminders


def test_the_reminder_rule() -> None:
    assert reminder_due(1000.0, MIN_TURN - 1) is None, "short turns are never reminded"
    assert reminder_due(12 * HOUR, 12 * HOUR) == 6 * HOUR, "half a 12-hour turn"
    assert reminder_due(24 * HOUR, 24 * HOUR) == 12 * HOUR
    assert reminder_due(7 * 24 * HOUR, 7 * 24 * HOUR) == MAX_DELAY, "at most 12 hours after the turn began"


class Sent:
    def __init__(self) -> None:
        self.reminders: list[TurnReminder] = []

    async def __call__(self, reminder: TurnReminder) -> None:
        self.reminders.append(reminder)


async def test_a_player_who_asked_is_reminded_once_per_long_turn(service: Service, clock: FakeClock) -> None:
    sent = Sent()
    service.reminders.handler = sent
    await service.prefs.set_user(BOB, reminders="mention")
    match = await start_match(service, options={"turn_timeout": 24 * 60})  # Alice to move, 24 hours
    assert await service.reminders.next_due() == clock() + 12 * HOUR
    clock.advance(12 * HOUR)
    assert await service.reminders.run_due(clock()) == [], "Alice did not ask for reminders"
    assert await service.reminders.next_due() is None, "her turn is done with"

    played = await service.matches.play(match.id, ALICE, "1")
    assert played.match.user_to_move == BOB
    assert await service.reminders.next_due() == clock() + 12 * HOUR
    clock.advance(12 * HOUR - 1)
    assert await service.reminders.run_due(clock()) == []
    clock.advance(1)
    [reminder] = await service.reminders.run_due(clock())
    assert (reminder.user_id, reminder.mode, reminder.match.id) == (BOB, ReminderMode.MENTION, match.id)
    assert reminder.deadline == played.match.deadline
    clock.advance(HOUR)
    assert await service.reminders.run_due(clock()) == [], "once per turn"
    assert sent.reminders == [reminder]


async def test_no_reminder_for_a_short_turn_or_a_turn_already_played(
    service: Service, clock: FakeClock
) -> None:
    service.reminders.handler = Sent()
    await service.prefs.set_user(ALICE, reminders="dm")
    await service.prefs.set_user(BOB, reminders="dm")
    await start_match(service, options={"turn_timeout": 11 * 60}, channel=1)
    assert await service.reminders.next_due() is None
    long = await start_match(service, options={"turn_timeout": 24 * 60}, channel=2)
    clock.advance(6 * HOUR)
    await service.matches.play(long.id, ALICE, "1")  # she moved in time: her turn needs no reminder
    clock.advance(12 * HOUR - 1)
    assert await service.reminders.run_due(clock()) == []
    clock.advance(1)
    [reminder] = await service.reminders.run_due(clock())
    assert reminder.user_id == BOB


async def test_reminders_are_durable_across_a_restart(open_service: ServiceFactory, clock: FakeClock) -> None:
    service = await open_service()
    await service.prefs.set_user(ALICE, reminders="dm")
    await start_match(service, options={"turn_timeout": 3 * 24 * 60})
    clock.advance(13 * HOUR)  # the bot was down when the reminder fell due

    restarted = await open_service()
    sent = Sent()
    events: list[Event] = []

    async def on_event(event: Event) -> None:
        events.append(event)

    restarted.reminders.handler = sent
    turn_clock = TurnClock(
        restarted.matches, restarted.challenges, on_event, now=restarted.now, timers=[restarted.reminders]
    )
    assert await turn_clock.seconds_to_next() == 0.0
    await turn_clock.run_once()
    assert [r.user_id for r in sent.reminders] == [ALICE]
    await turn_clock.run_once()
    again = await open_service()
    again.reminders.handler = sent
    assert await again.reminders.run_due(clock()) == [] and len(sent.reminders) == 1
    assert events == []


async def test_a_failing_send_does_not_stop_the_others(service: Service, clock: FakeClock) -> None:
    calls: list[int] = []

    async def flaky(reminder: TurnReminder) -> None:
        calls.append(reminder.match.id)
        if len(calls) == 1:
            raise RuntimeError("Discord is down")

    service.reminders.handler = flaky
    for user in (ALICE, CAROL):
        await service.prefs.set_user(user, reminders="dm")
    first = await start_match(service, options={"turn_timeout": 24 * 60}, channel=1)
    second = await start_match(service, challenger=CAROL, options={"turn_timeout": 24 * 60}, channel=2)
    clock.advance(12 * HOUR)
    sent = await service.reminders.run_due(clock())
    assert sorted(calls) == sorted([first.id, second.id]) and len(sent) == 1
