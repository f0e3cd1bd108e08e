"""The two private parts of aiosqlite that the SQLite store relies on, pinned in pyproject.toml: the installed
aiosqlite is the pinned one, `Connection._execute(fn, *args)` runs `fn(*args)` on the connection's own
thread in queue order and hands back its result or its exception, and `Connection._conn` is the
sqlite3.Connection that thread uses. A release that changes either fails here before it can lose a move.

Why private: a write must run, report its rowcount and lastrowid, and close its cursor in one trip to the
connection's thread (see `_on_thread` in bot/service/store/sqlite.py); aiosqlite's public calls take two
trips for that, and a cursor left to the garbage collector on the event loop's thread corrupts a later
statement. A whole write transaction (BEGIN, its statements, COMMIT) is one such trip too (`_atomic`):
nothing more of aiosqlite than these two parts."""

from __future__ import annotations

import asyncio
import importlib.metadata
import re
import sqlite3
import threading
import tomllib
from pathlib import Path

import aiosqlite
from packaging.specifiers import SpecifierSet

from bot.service.store.sqlite import _on_thread, _run, _run_many

ROOT = Path(__file__).resolve().parents[2]


def pinned_aiosqlite() -> SpecifierSet:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    (requirement,) = [r for r in project["dependencies"] if re.match(r"aiosqlite\b", r)]
    return SpecifierSet(requirement.removeprefix("aiosqlite"))


def test_the_installed_aiosqlite_is_the_pinned_one() -> None:
    pinned = pinned_aiosqlite()
    assert importlib.metadata.version("aiosqlite") in pinned
    assert "0.23.0" not in pinned, "the pin stops before the next minor release, which must be tested first"


async def test_work_runs_on_the_connections_own_thread_with_its_sqlite3_connection(tmp_path: Path) -> None:
    db = await aiosqlite.connect(tmp_path / "contract.sqlite3")
    try:
        assert isinstance(db._conn, sqlite3.Connection)
        await db.create_function("thread_id", 0, threading.get_ident)
        ((connection_thread,),) = list(await db.execute_fetchall("SELECT thread_id()"))

        def work(conn: sqlite3.Connection, value: int) -> tuple[int, bool, int]:
            ((answer,),) = conn.execute("SELECT ? * 2", (value,)).fetchall()
            return threading.get_ident(), conn is db._conn, answer

        thread, same, answer = await _on_thread(db, work, 21)
        assert thread == connection_thread != threading.get_ident()
        assert same and answer == 42
    finally:
        await db.close()


async def test_results_errors_and_queue_order_come_back(tmp_path: Path) -> None:
    db = await aiosqlite.connect(tmp_path / "contract.sqlite3")
    try:
        await _run(db, "CREATE TABLE t (id INTEGER PRIMARY KEY, x INTEGER)")
        done = await _run(db, "INSERT INTO t (x) VALUES (?)", (7,))
        assert (done.rowcount, done.lastrowid) == (1, 1)
        assert await _run_many(db, "INSERT INTO t (x) VALUES (?)", [(8,), (9,)]) == 2
        # Queued together, they run in order: each update sees the one before.
        updates = [_run(db, "UPDATE t SET x = x * 10 + ? WHERE id = 1", (n,)) for n in range(5)]
        assert [d.rowcount for d in await asyncio.gather(*updates)] == [1] * 5
        assert list(await db.execute_fetchall("SELECT x FROM t WHERE id = 1")) == [(701234,)]
        missed = await _run(db, "UPDATE t SET x = 0 WHERE id = 99")
        assert missed.rowcount == 0
        try:
            await _run(db, "INSERT INTO t (id, x) VALUES (1, 0)")
        except sqlite3.IntegrityError:
            pass
        else:
            raise AssertionError("the worker's exception must come back to the caller")
    finally:
        await db.close()
