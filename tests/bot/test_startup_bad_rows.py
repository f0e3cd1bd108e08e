"""Start-up and check-db on a database with bad rows or a schema from elsewhere (issue 24), as an operator
meets them: `python -m bot` in a subprocess with Discord unreachable (so getting past the database ends with
exit code 4), which must exit by itself; one line, never a traceback, for what stops it."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from bot import __main__ as entry
from bot.service import Service
from bot.service.store.postgres import with_search_path
from bot.testing.world import FAKE_TOKEN
from tests.entry_helpers import as_unprivileged, closed_port, one_line_error, run, start_bot
from tests.service.helpers import CHANNEL, start_match

PG_URL_VARIABLE = "TESSERA_TEST_DATABASE_URL"


def active_matches(url: str, count: int) -> list[int]:
    """A database at `url` with `count` active Paintscape matches, each between its own two players in its
    own channel; their ids in the order they were made."""

    async def make() -> list[int]:
        service = await Service.open(url)
        try:
            ids = []
            for k in range(count):
                challenger, opponent = 1000 + 2 * k, 1001 + 2 * k
                match = await start_match(
                    service, "paintscape", challenger=challenger, opponent=opponent, channel=CHANNEL + k
                )
                ids.append(match.id)
            return ids
        finally:
            await service.close()

    return asyncio.run(make())


def break_row(path: Path, sql: str) -> None:
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA ignore_check_constraints = ON")
        db.execute(sql)
    db.close()


DAMAGES = {
    "options": "UPDATE matches SET options = '{{bad' WHERE id = {id}",
    "status-check": "UPDATE matches SET status = 'weird' WHERE id = {id}",
    "ply": "UPDATE matches SET ply = 'x' WHERE id = {id}",
    "deadline": "UPDATE matches SET deadline = 'abc' WHERE id = {id}",
    "no-seats": "DELETE FROM match_seats WHERE match_id = {id}",
    "user-id": "UPDATE match_seats SET user_id = 'abc' WHERE match_id = {id}",
    "ai-level": "UPDATE match_seats SET ai_level = 'godlike' WHERE match_id = {id} AND seat = 1",
}
"""Every kind of damaged match row, as SQL that breaks match `id` (one match each)."""


def test_damaged_matches_are_set_aside_and_the_bot_starts(tmp_path: Path) -> None:
    """One database holds a match with every kind of damage and one sound match: the bot sets each damaged
    one aside, names them all in one log line and starts (one process for all kinds: the per-row checks
    have their own tests in tests/service/test_bad_rows.py; this is the operator's view of them)."""
    path = tmp_path / "data" / "tessera.sqlite3"
    path.parent.mkdir()
    url = f"sqlite:///{path}"
    *damaged, sound = active_matches(url, len(DAMAGES) + 1)
    for match_id, sql in zip(damaged, DAMAGES.values(), strict=True):
        break_row(path, sql.format(id=match_id))

    done = start_bot(tmp_path, url)  # times out (fails) if the process does not exit by itself
    assert done.returncode == entry.EXIT_NETWORK, done.stderr
    assert "cannot reach Discord" in one_line_error(done, "tessera:")
    assert "DATABASE_URL" not in done.stderr
    listed = ", ".join(f"#{i}" for i in damaged)
    assert f"damaged matches set aside (quarantined): {listed} ({len(damaged)});" in done.stderr

    checked = run([sys.executable, "-m", "bot", "check-db", "--database-url", url], tmp_path)
    assert checked.returncode == 1, checked.stderr
    reported = checked.stdout.splitlines()
    for match_id, damage in zip(damaged, DAMAGES, strict=True):
        mine = (f"match #{match_id}:", f"match #{match_id} (")
        assert any(line.startswith(mine) for line in reported), f"{damage} is not reported"
    prefixes = tuple(f"match #{i}{end}" for i in damaged for end in (":", " ("))
    assert all(line.startswith(prefixes) for line in reported), reported
    assert f"check-db: {len(reported)} problem(s) in {url}" in checked.stderr
    assert f"#{sound}:" not in checked.stdout and f"#{sound} (" not in checked.stdout


RUN_BOT_FAILING_AT_START = (
    "import sys, discord.http\n"
    "discord.http.Route.BASE = sys.argv[1]\n"
    "from bot.service.matches import MatchService\n"
    "async def broken(self):\n"
    "    raise RuntimeError('a bug in the start-up check')\n"
    "MatchService.quarantine_unloadable = broken\n"
    "from bot.__main__ import main\n"
    "sys.exit(main([]))\n"
)


def test_a_failure_while_opening_the_service_closes_the_store_so_the_process_ends(tmp_path: Path) -> None:
    """Whatever fails after the store is open, the store is closed: no worker thread keeps the process."""
    command = [sys.executable, "-c", RUN_BOT_FAILING_AT_START, f"http://127.0.0.1:{closed_port()}/api/v10"]
    done = run(command, tmp_path, DISCORD_TOKEN=FAKE_TOKEN, DATABASE_URL="sqlite:///data/tessera.sqlite3")
    assert done.returncode == 1, done.stderr
    assert "RuntimeError: a bug in the start-up check" in done.stderr


def test_a_folder_as_the_database_is_one_line_and_nothing_after_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    done = start_bot(tmp_path, f"sqlite:///{folder}")
    assert done.returncode == entry.EXIT_DATABASE, done.stderr
    assert done.stderr.splitlines() == [
        f"tessera: the database {folder} cannot be used: it is a folder, not a file; make DATABASE_URL name "
        "a file (sqlite:///data/tessera.sqlite3)"
    ]
    assert entry.main(["check-db", "--database-url", f"sqlite:///{folder}"]) == 2  # in-process: no start-up
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err


def test_a_file_sqlite_cannot_open_is_one_line_and_nothing_after_it(tmp_path: Path) -> None:
    path = tmp_path / "locked.sqlite3"
    path.write_bytes(b"")
    path.chmod(0)
    command = as_unprivileged([sys.executable, "-m", "bot"])
    done = run(command, tmp_path, DISCORD_TOKEN=FAKE_TOKEN, DATABASE_URL=f"sqlite:///{path}")
    assert done.returncode == entry.EXIT_DATABASE, done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert "check the permissions of the file and its folder" in done.stderr


@pytest.fixture
def postgres_schema_url() -> Iterator[str]:
    """A fresh schema on the test server (TESSERA_TEST_DATABASE_URL), dropped afterwards."""
    server = os.environ.get(PG_URL_VARIABLE, "")
    if not server:
        pytest.skip(f"PostgreSQL tests need {PG_URL_VARIABLE}")
    schema = f"test_{uuid.uuid4().hex[:16]}"

    async def sql(statement: str) -> None:
        conn = await asyncpg.connect(server)
        try:
            await conn.execute(statement)
        finally:
            await conn.close()

    asyncio.run(sql(f"CREATE SCHEMA {schema}"))
    try:
        yield with_search_path(server, schema)
    finally:
        asyncio.run(sql(f"DROP SCHEMA {schema} CASCADE"))


def test_a_newer_postgresql_schema_is_one_line_and_code_3(tmp_path: Path, postgres_schema_url: str) -> None:
    active_matches(postgres_schema_url, 2)

    async def bump() -> None:
        conn = await asyncpg.connect(postgres_schema_url)
        try:
            await conn.execute("UPDATE schema_version SET version = version + 50")
        finally:
            await conn.close()

    asyncio.run(bump())
    done = start_bot(tmp_path, postgres_schema_url)
    assert done.returncode == entry.EXIT_DATABASE, done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr
    line = one_line_error(done, "tessera:")
    assert "is newer than this code's" in line and "run a newer Tessera" in line
    checked = run([sys.executable, "-m", "bot", "check-db", "--database-url", postgres_schema_url], tmp_path)
    assert checked.returncode == 2, checked.stderr
    assert "is newer than this code's" in one_line_error(checked, "check-db:")
    assert "RuntimeError" not in checked.stderr


async def test_a_database_full_at_start_up_is_one_line_and_code_3(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from typing import Any

    from bot.service.store import StoreFull
    from bot.testing.world import make_settings

    line = "the database data/tessera.sqlite3 is full (database or disk is full); free disk space"

    async def full(*args: Any, **kwargs: Any) -> Any:
        raise StoreFull(line)

    monkeypatch.setattr("bot.runtime.open_service", full)
    assert await entry.run_bot(make_settings(tmp_path / "data")) == entry.EXIT_DATABASE
    assert capsys.readouterr().err == f"tessera: {line}\n"
