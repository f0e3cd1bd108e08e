"""`python -m bot backup`, run as an operator runs it: a consistent copy of the SQLite database while a store
holds it (as the running bot does, lock and unflushed write-ahead log included), one self-contained file that
check-db passes; an existing file is never overwritten; PostgreSQL gets pg_dump advice and exit code 2."""

from __future__ import annotations

import fcntl
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.service.checkdb import check_database
from bot.service.store import open_store
from tests.entry_helpers import run
from tests.service.conftest import FakeClock
from tests.service.test_transfer import fill, sqlite_tables


def backup(cwd: Path, database_url: str, *args: str) -> Any:
    return run([sys.executable, "-m", "bot", "backup", *args], cwd, DATABASE_URL=database_url)


def lock_is_held(database: Path) -> bool:
    """Whether some open store holds the database's lock file (a second bot would be refused)."""
    descriptor = os.open(f"{database}.lock", os.O_RDWR)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(descriptor)
    return False


async def test_a_backup_while_the_bot_holds_the_database_is_a_consistent_copy(
    tmp_path: Path, clock: FakeClock
) -> None:
    database = tmp_path / "tessera.sqlite3"
    url = f"sqlite:///{database}"
    await fill(url, clock)
    store = await open_store(url)  # the running bot: it holds the lock, its last writes sit in the WAL
    try:
        await store.put_meta("written-while-running", "yes")
        assert lock_is_held(database)
        assert Path(f"{database}-wal").stat().st_size > 0
        done = backup(tmp_path, url, "--to", str(tmp_path / "copy.sqlite3"))
        assert done.returncode == 0, done.stderr
        matches = len(sqlite_tables(database)["matches"])
        assert "checked" in done.stdout and f"{matches} matches" in done.stdout
        copy = tmp_path / "copy.sqlite3"
        assert sqlite_tables(copy) == sqlite_tables(database)
        assert lock_is_held(database), "the backup leaves the bot's lock alone"
        again = backup(tmp_path, url, "--to", str(copy))
        assert again.returncode == 2 and "exists already" in again.stderr
        default = backup(tmp_path, url)
        assert default.returncode == 0, default.stderr
    finally:
        await store.close()
    # One self-contained file: a rollback journal, no write-ahead log beside it.
    assert not Path(f"{copy}-wal").exists() and not list(tmp_path.glob("*.partial"))
    with sqlite3.connect(copy) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert db.execute("SELECT value FROM meta WHERE key = 'written-while-running'").fetchone() == ("yes",)
    (stamped,) = tmp_path.glob("tessera-backup-*.sqlite3")
    assert sqlite_tables(stamped) == sqlite_tables(copy)
    assert await check_database(f"sqlite:///{copy}") == []


@pytest.mark.parametrize(
    ("content", "code", "said"),
    [(None, 3, "no database file"), (b"not a database at all, " * 100, 3, "cannot be read")],
)
def test_a_missing_or_damaged_database_writes_no_backup(
    tmp_path: Path, content: bytes | None, code: int, said: str
) -> None:
    database = tmp_path / "tessera.sqlite3"
    if content is not None:
        database.write_bytes(content)
    done = backup(tmp_path, f"sqlite:///{database}", "--to", str(tmp_path / "copy.sqlite3"))
    assert done.returncode == code and said in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ([database.name] if content else [])


def test_postgresql_gets_pg_dump_advice_and_exit_code_2(tmp_path: Path) -> None:
    done = backup(tmp_path, "postgresql://tessera:s3cret@db.example:5433/tessera")
    assert done.returncode == 2
    assert "pg_dump --host=db.example --port=5433 --username=tessera --format=custom" in done.stderr
    assert "pg_restore" in done.stderr and "s3cret" not in done.stderr + done.stdout
    assert list(tmp_path.iterdir()) == []
