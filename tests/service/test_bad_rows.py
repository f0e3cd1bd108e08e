"""Bad match rows (issue 24): every column of a match row and its seat rows is checked like the snapshot. A
damaged match is set aside (quarantined) at start-up, by the turn clock and on any read; the bot starts and
the other matches play on; check-db reports the match and checks the rest."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.service import Service
from bot.service.checkdb import check_database
from bot.service.errors import MatchDamaged, NoMatchHere
from bot.service.records import MatchStatus
from bot.service.store import DamagedRow
from tests.service.conftest import FakeClock, ServiceFactory
from tests.service.helpers import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD, everyone_moves, start_match
from tests.service.tinygames import registry


async def damage(store_url: str, *statements: str) -> None:
    """Run SQL on the database behind the store's back, as a careless operator or a bad disk would; on
    SQLite with CHECK constraints off, so a row may break one."""
    if store_url.startswith("sqlite:"):
        async with aiosqlite.connect(store_url.removeprefix("sqlite:///")) as db:
            await db.execute("PRAGMA ignore_check_constraints = ON")
            for sql in statements:
                await db.execute(sql)
            await db.commit()
        return
    conn = await asyncpg.connect(store_url)
    try:
        for sql in statements:
            await conn.execute(sql)
    finally:
        await conn.close()


BOTH = [
    ("options", "UPDATE matches SET options = '[1, 2]' WHERE id = {id}"),
    ("options", 'UPDATE matches SET options = \'{{"target": "far"}}\' WHERE id = {id}'),
    ("turn_timeout", "UPDATE matches SET turn_timeout = -5 WHERE id = {id}"),
    ("outcome", "UPDATE matches SET outcome = '\"won\"' WHERE id = {id}"),
    ("takeback", 'UPDATE matches SET takeback = \'{{"seat": 7, "user_id": 1, "ply": 0}}\' WHERE id = {id}'),
    ("no seat rows", "DELETE FROM match_seats WHERE match_id = {id}"),
    ("seats are numbered", "UPDATE match_seats SET seat = 5 WHERE match_id = {id} AND seat = 1"),
    ("unknown AI level", "UPDATE match_seats SET ai_level = 'godlike' WHERE match_id = {id} AND seat = 1"),
    ("result", "UPDATE match_seats SET result = 'maybe' WHERE match_id = {id} AND seat = 1"),
    ("user_id", "UPDATE match_seats SET user_id = -3 WHERE match_id = {id} AND seat = 1"),
    ("seats", "UPDATE match_seats SET seat = seat + 10 WHERE match_id = {id}"),
]
"""(a word the reason must contain, SQL that breaks one match) for damage both stores can hold."""

SQLITE_ONLY = [
    ("options", "UPDATE matches SET options = '{{bad' WHERE id = {id}"),
    ("ply", "UPDATE matches SET ply = 'x' WHERE id = {id}"),
    ("seed", "UPDATE matches SET seed = 1.5 WHERE id = {id}"),
    ("deadline", "UPDATE matches SET deadline = 'abc' WHERE id = {id}"),
    ("status", "UPDATE matches SET status = 'weird' WHERE id = {id}"),
    ("status", "UPDATE matches SET status = NULL WHERE id = {id}"),
    ("abort_votes", "UPDATE matches SET abort_votes = '{{\"a\": 1}}' WHERE id = {id}"),
    ("rated", "UPDATE matches SET rated = 'yes' WHERE id = {id}"),
    ("user_id", "UPDATE match_seats SET user_id = 'abc' WHERE match_id = {id} AND seat = 1"),
    ("channel_id", "UPDATE matches SET channel_id = 'general' WHERE id = {id}"),
]
"""Damage only SQLite's loose column types (or a CHECK or NOT NULL broken behind its back) can hold."""


def damage_cases() -> list[object]:
    cases: list[object] = [pytest.param(word, sql, id=f"{word}: {sql[:60]}") for word, sql in BOTH]
    cases += [
        pytest.param(word, sql, id=f"{word}: {sql[:60]}", marks=pytest.mark.sqlite_only)
        for word, sql in SQLITE_ONLY
    ]
    return cases


@pytest.mark.parametrize(("word", "sql"), damage_cases())
async def test_a_damaged_row_is_set_aside_at_start_up_and_the_rest_plays_on(
    open_service: ServiceFactory, store_url: str, clock: FakeClock, word: str, sql: str
) -> None:
    first = await open_service()
    damaged = await start_match(first, options={"turn_timeout": 60})
    sound = await start_match(first, challenger=CAROL, opponent=DAVE, channel=CHANNEL + 1)
    statements = [sql.format(id=damaged.id)]
    if word == "status" and "NULL" in sql:  # NOT NULL cannot be switched off: rebuild the table without it
        statements = []
    if statements:
        await damage(store_url, *statements)
    else:
        await damage_not_null(store_url, damaged.id)

    restarted = await Service.open(store_url, registry=registry, now=clock)
    try:
        assert restarted.quarantined == [damaged.id]
        row = await restarted.store.get_match(sound.id)
        assert row is not None and row.quarantine is None
        with pytest.raises(MatchDamaged):
            await restarted.matches.get(damaged.id)
        with pytest.raises(NoMatchHere):
            await restarted.matches.in_channel(CHANNEL)  # its channel is free again
        clock.advance(10**6)
        timed_out = await restarted.matches.expire_due()
        assert [e.match_id for e in timed_out] == [sound.id], "only the sound match has a clock"
        again = await start_match(restarted)
        assert again.channel_id == CHANNEL and again.is_active
    finally:
        await restarted.close()
    problems = await check_database(store_url, registry=registry)
    mine = [p for p in problems if p.startswith(f"match #{damaged.id}")]
    assert mine and any(word in p for p in mine), problems
    assert not [p for p in problems if p.startswith(f"match #{sound.id}")], problems


async def damage_not_null(store_url: str, match_id: int) -> None:
    """A NULL status in a NOT NULL column: only a schema edited behind SQLite's back allows one."""
    async with aiosqlite.connect(store_url.removeprefix("sqlite:///")) as db:
        await db.execute("PRAGMA writable_schema = ON")
        await db.execute(
            "UPDATE sqlite_schema SET sql = replace(sql, 'status TEXT NOT NULL', 'status TEXT') "
            "WHERE name = 'matches'"
        )
        await db.commit()
    async with aiosqlite.connect(store_url.removeprefix("sqlite:///")) as db:
        await db.execute("UPDATE matches SET status = NULL WHERE id = ?", (match_id,))
        await db.commit()


async def test_each_column_is_checked_by_the_store_itself(
    open_service: ServiceFactory, store_url: str
) -> None:
    service = await open_service()
    match = await start_match(service)
    await damage(store_url, f"UPDATE match_seats SET ai_level = 'godlike' WHERE match_id = {match.id}")
    with pytest.raises(DamagedRow, match="unknown AI level 'godlike'") as caught:
        await service.store.get_match(match.id)
    assert caught.value.match_id == match.id and not caught.value.settled
    assert await service.store.matches_of_user(ALICE) == [], "a listing leaves a damaged match out"


async def test_a_match_with_fewer_seats_than_its_position_is_set_aside_before_the_clock_fires(
    open_service: ServiceFactory, store_url: str, clock: FakeClock
) -> None:
    """A 4-player TilingKing match with 2 seat rows: its turn comes round to seat 3, which has no player."""
    first = await open_service()
    lobby = await first.lobbies.create(
        "tilingking", {"turn_timeout": 60}, ALICE, guild_id=GUILD, channel_id=CHANNEL
    )
    for user in (BOB, CAROL, DAVE):
        await first.lobbies.join(lobby.id, user)
    match = await first.lobbies.start(lobby.id, ALICE)
    assert len(match.seats) == 4
    await damage(store_url, f"DELETE FROM match_seats WHERE match_id = {match.id} AND seat >= 2")

    restarted = await Service.open(store_url, registry=registry, now=clock)
    try:
        assert restarted.quarantined == [match.id]
        clock.advance(10**6)
        assert await restarted.matches.expire_due() == []
    finally:
        await restarted.close()
    problems = await check_database(store_url, registry=registry)
    assert any("its position has 4 seats, but it has 2 seat rows" in p for p in problems), problems


async def test_a_row_damaged_while_running_is_set_aside_by_the_clock(
    service: Service, store_url: str, clock: FakeClock
) -> None:
    match = await start_match(service, options={"turn_timeout": 60})
    await damage(store_url, f"UPDATE match_seats SET ai_level = 'godlike' WHERE match_id = {match.id}")
    clock.advance(10**6)
    assert await service.matches.expire_due() == []
    assert await service.store.quarantined_match_ids() == [match.id]
    assert await service.matches.next_deadline() is None, "a quarantined match has no clock"


async def test_a_damaged_finished_match_stays_out_of_the_history_and_does_not_stop_a_start(
    open_service: ServiceFactory, store_url: str, clock: FakeClock
) -> None:
    first = await open_service()
    match = await start_match(first)
    await everyone_moves(first, match.id)  # a resignation before that would abort, not finish
    await first.matches.resign(match.id, ALICE)
    kept = await start_match(first)
    await everyone_moves(first, kept.id)
    await first.matches.resign(kept.id, BOB)
    await damage(
        store_url,
        f"UPDATE matches SET rated = TRUE, ratings_applied = FALSE, options = '[]' WHERE id = {match.id}",
    )
    restarted = await Service.open(store_url, registry=registry, now=clock)
    try:
        assert restarted.quarantined == [] and await restarted.store.quarantined_match_ids() == []
        assert [e.match.id for e in await restarted.history.finished()] == [kept.id]
        assert await restarted.store.match_ids(MatchStatus.FINISHED) == [match.id, kept.id]
        with pytest.raises(MatchDamaged):
            await restarted.matches.get(match.id)
    finally:
        await restarted.close()


async def test_check_db_reports_a_damaged_row_and_checks_the_rest(
    open_service: ServiceFactory, store_url: str
) -> None:
    service = await open_service()
    damaged = await start_match(service)
    other = await start_match(service, challenger=CAROL, opponent=DAVE, channel=CHANNEL + 1)
    await service.matches.play(other.id, CAROL, "2")
    await damage(
        store_url,
        f"UPDATE matches SET options = '[1]' WHERE id = {damaged.id}",
        f"UPDATE moves SET notation = '3' WHERE match_id = {other.id}",
    )
    problems = await check_database(store_url, registry=registry)
    assert any(p.startswith(f"match #{damaged.id}: ") and "options" in p for p in problems), problems
    assert any(p.startswith(f"match #{other.id} (race)") for p in problems), problems


@pytest.mark.sqlite_only
async def test_a_deadline_damaged_while_running_is_set_aside_by_the_clock(
    service: Service, db_path: Path
) -> None:
    damaged = await start_match(service)
    sound = await start_match(service, challenger=CAROL, opponent=DAVE, channel=CHANNEL + 1)
    assert sound.deadline is not None
    await damage(f"sqlite:///{db_path}", f"UPDATE matches SET deadline = 'soon' WHERE id = {damaged.id}")
    assert await service.matches.next_deadline() == sound.deadline, "the clock sleeps towards numbers only"
    assert await service.matches.expire_due() == [], "nothing is due yet"
    assert await service.store.quarantined_match_ids() == [damaged.id], "the damaged deadline was read"


@pytest.mark.sqlite_only
async def test_a_row_breaking_a_check_outside_the_matches_is_reported_not_fatal(
    service: Service, db_path: Path, clock: FakeClock
) -> None:
    await damage(
        f"sqlite:///{db_path}",
        "INSERT INTO user_prefs (user_id, theme, reminders, updated_at) VALUES (77, NULL, 'loud', 0)",
    )
    restarted = await Service.open(f"sqlite:///{db_path}", registry=registry, now=clock)
    await restarted.close()
    problems = await check_database(f"sqlite:///{db_path}", registry=registry)
    assert problems == ["CHECK constraint failed in user_prefs (a row of that table breaks the schema)"]
