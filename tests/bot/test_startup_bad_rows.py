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
from tests.bot.conftest import FAKE_TOKEN
from tests.entry_helpers import as_unprivileged, closed_port, one_line_error, run, start_bot
from tests.service.helpers import CAROL, CHANNEL, DAVE, start_match

PG_URL_VARIABLE = "TESSERA_TEST_DATABASE_URL"


def two_matches(url: str) -> tuple[int, int]:
    """A database at `url` with two active matches (Paintscape, a real game); their ids."""

    async def make() -> tuple[int, int]:
        service = await Service.open(url)
        try:
            first = await start_match(service, "paintscape")
            second = await start_match(
                service, "paintscape", challenger=CAROL, opponent=DAVE, channel=CHANNEL + 1
            )
            return first.id, second.id
        finally:
            await service.close()

    return asyncio.run(make())


def break_row(path: Path, sql: str) -> None:
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA ignore_check_constraints = ON")
        db.execute(sql)
    db.close()


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE matches SET options = '{bad' WHERE id = 1",
        "UPDATE matches SET status = 'weird' WHERE id = 1",
        "UPDATE matches SET ply = 'x' WHERE id = 1",
        "UPDATE matches SET deadline = 'abc' WHERE id = 1",
        "DELETE FROM match_seats WHERE match_id = 1",
        "UPDATE match_seats SET user_id = 'abc' WHERE match_id = 1",
        "UPDATE match_seats SET ai_level = 'godlike' WHERE match_id = 1 AND seat = 1",
    ],
    ids=["options", "status-check", "ply", "deadline", "no-seats", "user-id", "ai-level"],
)
def test_a_damaged_match_is_set_aside_and_the_bot_starts(tmp_path: Path, sql: str) -> None:
    path = tmp_path / "data" / "tessera.sqlite3"
    path.parent.mkdir()
    url = f"sqlite:///{path}"
    damaged, sound = two_matches(url)
    assert damaged == 1
    break_row(path, sql)

    done = start_bot(tmp_path, url)  # times out (fails) if the process does not exit by itself
    assert done.returncode == entry.EXIT_NETWORK, done.stderr
    assert "cannot reach Discord" in one_line_error(done, "tessera:")
    assert "DATABASE_URL" not in done.stderr
    assert "damaged matches set aside (quarantined): #1 (1);" in done.stderr

    checked = run([sys.executable, "-m", "bot", "check-db", "--database-url", url], tmp_path)
    assert checked.returncode == 1, checked.stderr
    reported = checked.stdout.splitlines()
    assert reported and all(
        line.startswith((f"match #{damaged}:", f"match #{damaged} (")) for line in reported
    )
    assert f"check-db: {len(reported)} problem(s) in {url}" in checked.stderr
    assert f"#{sound}" not in checked.stdout


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


def test_a_folder_as_the_database_is_one_line_and_nothing_after_it(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    done = start_bot(tmp_path, f"sqlite:///{folder}")
    assert done.returncode == entry.EXIT_DATABASE, done.stderr
    assert done.stderr.splitlines() == [
        f"tessera: the database {folder} cannot be used: it is a folder, not a file; make DATABASE_URL name "
        "a file (sqlite:///data/tessera.sqlite3)"
    ]
    checked = run(
        [sys.executable, "-m", "bot", "check-db", "--database-url", f"sqlite:///{folder}"], tmp_path
    )
    assert checked.returncode == 2 and len(checked.stderr.splitlines()) == 1, checked.stderr


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
    two_matches(postgres_schema_url)

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
    from tests.bot.conftest import make_settings

    line = "the database data/tessera.sqlite3 is full (database or disk is full); free disk space"

    async def full(*args: Any, **kwargs: Any) -> Any:
        raise StoreFull(line)

    monkeypatch.setattr("bot.runtime.open_service", full)
    assert await entry.run_bot(make_settings(tmp_path / "data")) == entry.EXIT_DATABASE
    assert capsys.readouterr().err == f"tessera: {line}\n"
