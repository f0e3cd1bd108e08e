"""SQLite is for one process: a second process opening the same file is refused with one line, the lock
goes with the last store closed, and stores of one process share it. Also the meta table (schema 4)."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

import aiosqlite
import pytest

from bot.service.store import SCHEMA_VERSION, SqliteStore, StoreUnavailable
from tests.service.old_databases import SQLITE_MIGRATIONS as MIGRATIONS

ROOT = Path(__file__).resolve().parents[2]
OPEN_AND_CLOSE = (
    "import asyncio, sys\n"
    "from bot.service.store import SqliteStore, StoreUnavailable\n"
    "async def main():\n"
    "    try:\n"
    "        store = await SqliteStore.open(sys.argv[1])\n"
    "    except StoreUnavailable as error:\n"
    "        print(error)\n"
    "        return 3\n"
    "    await store.close()\n"
    "    return 0\n"
    "sys.exit(asyncio.run(main()))\n"
)


def open_in_another_process(path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", OPEN_AND_CLOSE, str(path)], env=env, capture_output=True, text=True, timeout=60
    )


async def test_a_second_process_is_refused_while_the_store_is_open(db_path: Path) -> None:
    store = await SqliteStore.open(str(db_path))
    try:
        refused = open_in_another_process(db_path)
    finally:
        await store.close()
    assert refused.returncode == 3, refused.stderr
    assert "in use by another process" in refused.stdout and refused.stdout.count("\n") == 1
    assert open_in_another_process(db_path).returncode == 0, "closing the store let go of the lock"


async def test_stores_of_one_process_share_the_lock_until_the_last_closes(db_path: Path) -> None:
    lock_file = Path(str(db_path.resolve()) + ".lock")
    first = await SqliteStore.open(str(db_path))
    second = await SqliteStore.open(str(db_path))
    await first.close()
    with open(lock_file) as handle, pytest.raises(BlockingIOError):
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    await second.close()
    with open(lock_file) as handle:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)


async def test_a_lock_held_elsewhere_refuses_the_store_with_one_line(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True, exist_ok=True)
    with open(str(db_path.resolve()) + ".lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)  # what another process's store holds
        with pytest.raises(StoreUnavailable, match="in use by another process") as refused:
            await SqliteStore.open(str(db_path))
    assert "\n" not in str(refused.value)
    store = await SqliteStore.open(str(db_path))  # the other "process" let go
    await store.close()


async def test_a_store_that_fails_to_open_lets_go_of_the_lock(tmp_path: Path) -> None:
    path = tmp_path / "garbage.sqlite3"
    path.write_bytes(os.urandom(8192))
    with pytest.raises(StoreUnavailable, match="not a SQLite database"):
        await SqliteStore.open(str(path))
    other = open_in_another_process(path)
    assert other.returncode == 3 and "not a SQLite database" in other.stdout, "the failed open kept no lock"


async def test_meta_values_are_kept_and_replaced(db_path: Path) -> None:
    store = await SqliteStore.open(str(db_path))
    try:
        assert await store.get_meta("commands") is None
        await store.put_meta("commands", "abc")
        await store.put_meta("commands", "def")
        await store.put_meta("other", "x")
        assert await store.get_meta("commands") == "def"
    finally:
        await store.close()
    reopened = await SqliteStore.open(str(db_path))
    try:
        assert await reopened.get_meta("commands") == "def" and await reopened.get_meta("other") == "x"
    finally:
        await reopened.close()


async def test_a_version_3_database_gains_the_meta_table_and_keeps_its_rows(db_path: Path) -> None:
    async with aiosqlite.connect(db_path) as db:
        for migration in MIGRATIONS[:3]:
            for statement in migration:
                await db.execute(statement)
        await db.execute("PRAGMA user_version = 3")
        await db.execute("INSERT INTO guild_prefs VALUES (10, 'classic', 1.0)")
        await db.commit()
    store = await SqliteStore.open(str(db_path))
    try:
        assert await store.get_guild_theme(10) == "classic"
        await store.put_meta("k", "v")
        assert await store.get_meta("k") == "v"
    finally:
        await store.close()
    assert SCHEMA_VERSION >= 4, "the meta table came with version 4"
