"""check-db finds every way a stored match can disagree with its move log."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import aiosqlite
import pytest

from bot.service import Service, checkdb
from bot.service.checkdb import check_database
from games.base import Outcome, Termination
from tests.service.conftest import FakeClock, ServiceFactory
from tests.service.helpers import ALICE, BOB, legal, start_match
from tests.service.tinygames import registry


async def played_database(service: Service) -> int:
    match = await start_match(service)
    for user, move in [(ALICE, "2"), (BOB, "2"), (BOB, "1")]:
        await service.matches.play(match.id, user, move)
    return match.id


async def test_a_consistent_database_has_no_mismatch(service: Service, store_url: str) -> None:
    await played_database(service)
    assert await check_database(store_url, registry=registry) == []


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("UPDATE matches SET snapshot = replace(snapshot, '\"total\":5', '\"total\":6')", "snapshot differs"),
        ("DELETE FROM moves WHERE ply = 3", "ply is 4 but the log has 3"),
        ("UPDATE moves SET notation = '7' WHERE ply = 1", "does not replay"),
        ("UPDATE moves SET seat = 0 WHERE ply = 1", "seat 1 was to move"),
        ("UPDATE moves SET forced = 1 WHERE ply = 0", "marked forced"),
        ("UPDATE matches SET status = 'finished'", "has no outcome"),
        ("UPDATE matches SET game = 'chess'", "unknown game"),
    ],
)
async def test_each_kind_of_damage_is_reported(
    service: Service, db_path: Path, sql: str, expected: str
) -> None:
    await played_database(service)
    async with aiosqlite.connect(db_path) as db:
        await db.execute(sql)
        await db.commit()
    problems = await check_database(f"sqlite:///{db_path}", registry=registry)
    assert any(expected in p for p in problems), problems


async def test_a_missing_file_is_reported(tmp_path: Path) -> None:
    with pytest.raises(checkdb.CannotCheck, match=f"no database file at {tmp_path / 'nope.sqlite3'}"):
        await check_database(f"sqlite:///{tmp_path / 'nope.sqlite3'}")
    assert not (tmp_path / "nope.sqlite3").exists()


def test_main_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = f"sqlite:///{tmp_path / 'nope.sqlite3'}"
    assert checkdb.main(["--database-url", missing], default_url="sqlite:///unused.sqlite3") == 2
    assert "no database file" in capsys.readouterr().err
    assert checkdb.main(["--database-url", "mysql://x"], default_url="sqlite:///unused.sqlite3") == 2


async def test_the_real_games_check_clean(open_service: ServiceFactory, store_url: str) -> None:
    service = await open_service()
    match = await start_match(service, "paint", {"white": "challenger"})
    options = await legal(service, match.id)
    await service.matches.play(match.id, ALICE, options[0])
    assert await checkdb.check_database(store_url) == []


async def test_a_tilingking_timeout_that_resigns_is_stored_on_time_and_checks_clean(
    open_service: ServiceFactory, store_url: str, clock: FakeClock
) -> None:
    """With `timeout=resign` the log holds a resignation, the match a timeout: check-db takes it as sound
    (with the engine's places only)."""
    service = await open_service()
    match = await start_match(service, "tilingking", {"board": "sq9", "timeout": "resign"})
    for user in (ALICE, BOB):
        await service.matches.play(match.id, user, (await legal(service, match.id))[0])
    clock.advance(match.turn_timeout + 1)
    [timed_out] = await service.matches.expire_due()
    assert timed_out.finished is not None and timed_out.finished.outcome.termination is Termination.TIMEOUT
    assert await checkdb.check_database(store_url) == []
    row = await service.store.get_match(match.id)
    assert row is not None and row.outcome is not None
    moves = await service.store.moves(match.id)
    resigned = Outcome(Termination.RESIGNATION, row.outcome.ranks, row.outcome.scores)
    assert checkdb.check_match(service.rules("tilingking"), replace(row, outcome=resigned), moves) == []
    swapped = Outcome(Termination.TIMEOUT, row.outcome.ranks[::-1], row.outcome.scores)
    problems = checkdb.check_match(service.rules("tilingking"), replace(row, outcome=swapped), moves)
    assert any("stored outcome" in p for p in problems), "on time, but not the engine's places"
