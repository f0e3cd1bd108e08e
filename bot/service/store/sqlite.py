"""`MatchStore` on SQLite through aiosqlite: the embedded default for one bot process.

WAL journal, foreign keys on, every write in one explicit transaction under one writer connection (the
hot ones, `_atomic`, run whole in one trip to that connection's thread: BEGIN, statements, COMMIT); a file
database reads through a second connection, so readers only ever see committed data, and a third connection
checkpoints the WAL in the background, so no move waits for a checkpoint's disk flush. Rows are read by
column name. The queries are `SqlStore`'s (sql.py); this is the SQLite dialect. The schema (schema.py) is
versioned with ``PRAGMA user_version``. Option, outcome and request columns hold JSON text.

SQLite is for one process: while a store is open its process holds an exclusive ``flock`` on
``<database>.lock`` (shared by every store the same process opens on that file), so a second process on the
same file is refused at start with one line (`StoreUnavailable`) instead of running a second turn clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import re
import sqlite3
import struct
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import aiosqlite

from bot.service.store.base import BadDatabaseUrl, SchemaTooNew, StoreFull, StoreUnavailable
from bot.service.store.schema import SCHEMA_VERSION
from bot.service.store.sql import SqlStore, T, Work, migrate_step

log = logging.getLogger(__name__)


WAL_SIZE_LIMIT = 16 * 2**20
"""Bytes a WAL file is cut back to once it starts over."""

Row = aiosqlite.Row


@dataclass(frozen=True, slots=True)
class Done:
    """What a write statement did: the rows it changed and the id it inserted."""

    rowcount: int
    lastrowid: int | None


def _statement(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> Done:
    cursor = conn.execute(sql, params)
    try:
        return Done(cursor.rowcount, cursor.lastrowid)
    finally:
        cursor.close()


def _statements(conn: sqlite3.Connection, sql: str, rows: Iterable[Sequence[Any]]) -> int:
    cursor = conn.executemany(sql, rows)
    try:
        return cursor.rowcount
    finally:
        cursor.close()


async def _on_thread(db: aiosqlite.Connection, work: Callable[..., Any], *args: Any) -> Any:
    """Run `work(connection, *args)` in one call on the connection's own thread.

    aiosqlite's public `execute` hands the cursor back to the event loop's thread, and closing it there costs
    a second trip to the connection's thread for every statement (a third of a move's time on SQLite). A
    cursor must not be left to the garbage collector either: finalised on the event loop's thread, it resets
    its statement while the connection's thread may be running it again for a newer cursor, and SQLite
    answers "bad parameter or other API misuse" (a move was lost that way in bursts). So the statement, its
    figures and the cursor's close all happen in one queued call: aiosqlite's private `_execute` (which its
    own `execute_fetchall` uses) with its `_conn`. aiosqlite is pinned to the tested minor in pyproject.toml,
    and tests/service/test_aiosqlite_contract.py checks both parts, so a release that changes them fails a
    test instead of a move."""
    return await db._execute(work, db._conn, *args)  # type: ignore[no-untyped-call]


async def _run(db: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> Done:
    """Run one write statement in one trip to the connection's thread (see `_on_thread`)."""
    done: Done = await _on_thread(db, _statement, sql, params)
    return done


async def _run_many(db: aiosqlite.Connection, sql: str, rows: Iterable[Sequence[Any]]) -> int:
    """`executemany` in one trip to the connection's thread (see `_on_thread`)."""
    count: int = await _on_thread(db, _statements, sql, list(rows))
    return count


_PROCESS_LOCKS: dict[str, list[int]] = {}
"""Lock file path -> [its descriptor, how many open stores of this process share it]."""


def _lock_database(path: str) -> str:
    """Take (or share, within this process) the exclusive lock of the database at `path`; returns the lock
    file's path. Raises StoreUnavailable if another process holds it."""
    lock_path = os.path.realpath(path) + ".lock"
    held = _PROCESS_LOCKS.get(lock_path)
    if held is not None:
        held[1] += 1
        return lock_path
    descriptor = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise StoreUnavailable(
            f"the database {path} is in use by another process (its lock {lock_path} is held): "
            "SQLite is for one process; stop the other one, or run several processes on PostgreSQL"
        ) from None
    _PROCESS_LOCKS[lock_path] = [descriptor, 1]
    return lock_path


def _unlock_database(lock_path: str) -> None:
    """Let go of one store's share of the lock; the last one releases it (the file stays, unlocked)."""
    held = _PROCESS_LOCKS[lock_path]
    held[1] -= 1
    if held[1] == 0:
        del _PROCESS_LOCKS[lock_path]
        fcntl.flock(held[0], fcntl.LOCK_UN)
        os.close(held[0])


class _Tx:
    """The statements of one write transaction on the writer connection, each in one trip to its thread."""

    def __init__(self, db: aiosqlite.Connection, sql: Callable[[str], str]) -> None:
        self.db = db
        self.sql = sql

    async def fetch(self, sql: str, *params: Any) -> list[Row]:
        return list(await self.db.execute_fetchall(self.sql(sql), params))

    async def run(self, sql: str, *params: Any) -> int:
        return (await _run(self.db, self.sql(sql), params)).rowcount

    async def run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await _run_many(self.db, self.sql(sql), rows)


class _ThreadTx:
    """The statements of one write transaction run on the writer connection's own thread (`_atomic`): each
    runs at once, its cursor closed there, so the `Tx` calls of the work never suspend it."""

    def __init__(self, conn: sqlite3.Connection, sql: Callable[[str], str]) -> None:
        self.conn = conn
        self.sql = sql

    async def fetch(self, sql: str, *params: Any) -> list[Row]:
        cursor = self.conn.execute(self.sql(sql), params)
        try:
            rows: list[Row] = cursor.fetchall()
            return rows
        finally:
            cursor.close()

    async def run(self, sql: str, *params: Any) -> int:
        return _statement(self.conn, self.sql(sql), params).rowcount

    async def run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        _statements(self.conn, self.sql(sql), list(rows))


def _whole_transaction(conn: sqlite3.Connection, work: Work[T], sql: Callable[[str], str]) -> T:
    """BEGIN, `work`'s statements and COMMIT, on the connection's thread (see `SqliteStore._atomic`); a
    failure rolls it back, unless SQLite already did (as it does on a full disk)."""
    _statement(conn, "BEGIN IMMEDIATE", ())
    try:
        body = work(_ThreadTx(conn, sql))
        try:
            body.send(None)
        except StopIteration as done:
            result: T = done.value
        else:
            body.close()
            raise RuntimeError("a transaction's work awaited something other than its statements")
        _statement(conn, "COMMIT", ())
    except BaseException:
        if conn.in_transaction:
            _statement(conn, "ROLLBACK", ())
        raise
    return result


class SqliteStore(SqlStore):
    """`MatchStore` on SQLite (see the module doc)."""

    CHECKPOINT_EVERY = 500
    """Commits between two background WAL checkpoints."""
    KIND = "sqlite"
    _translated: ClassVar[dict[str, str]] = {}
    shared = False
    """Only this process writes the file (see the module doc)."""

    def __init__(
        self,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection | None = None,
        checkpointer: aiosqlite.Connection | None = None,
    ) -> None:
        self._writer = writer
        self._reader = reader or writer
        self._checkpointer = checkpointer
        self._write_lock = asyncio.Lock()
        self._commits = 0
        self._checkpoint_task: asyncio.Task[None] | None = None
        self._lock_path: str | None = None
        self._path = "(in memory)"
        self.broken_constraints: tuple[str, ...] = ()
        """What the full check (`full_check`, or the start's after an unclean shutdown) said of rows that
        break a CHECK or NOT NULL constraint (check-db reports those outside the matches, which it reports
        row by row)."""
        self.fully_checked = False
        """Whether the whole file was checked (quick_check) since it was opened."""
        self.damage: str | None = None
        """What the full check found wrong with the file while it was open (None: nothing). A damaged file
        is never marked as cleanly shut down, so the next start checks it in full and refuses it."""
        self._checking: sqlite3.Connection | None = None
        self._checked: threading.Event | None = None

    @classmethod
    async def open(cls, path: str, *, synchronous: str = "NORMAL", check: bool = True) -> SqliteStore:
        """Open (creating if needed), check and migrate the database at `path` (":memory:" for a private one).

        WAL with ``synchronous=NORMAL`` survives any crash of the process; "FULL" survives power loss too.
        A file that is not a database, is damaged or cannot be written raises `StoreUnavailable` with one
        line saying which file and what is wrong, and so does a file another process has open (see the
        module doc).

        With `check`, start-up time does not grow with the file: a cheap check always runs (the header
        against the file's size, the schema, the first row of every table), and the full ``PRAGMA
        quick_check`` (a read of every page: seconds for hundreds of MiB) runs here only when the last
        shutdown was not clean (the `SHUTDOWN_KEY` row of ``file_state`` says "running": a crash, a kill, a
        copy taken while the bot ran) or the file never had a clean one (a new or foreign file). After a
        clean one, `full_check` runs it later, off the event loop."""
        memory = path == ":memory:"
        lock_path = None
        if not memory and Path(path).is_dir():
            raise StoreUnavailable(
                f"the database {path} cannot be used: it is a folder, not a file; make DATABASE_URL name a "
                "file (sqlite:///data/tessera.sqlite3)"
            )
        try:
            if not memory:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                lock_path = _lock_database(path)
                # A file SQLite cannot open is refused here, before aiosqlite starts a worker thread: when
                # its connect fails, aiosqlite leaves the thread's stop queued, and a thread that outlives
                # the event loop prints "Event loop is closed" tracebacks after the one line.
                await asyncio.to_thread(_can_open, path)
            store = await cls._open(path, synchronous, memory, check)
        except BaseException as error:
            if lock_path is not None:
                _unlock_database(lock_path)
            if isinstance(error, (sqlite3.DatabaseError, OSError, SchemaTooNew)):
                raise StoreUnavailable(f"the database {path} cannot be used: {_reason(error)}") from error
            raise
        store._lock_path = lock_path
        store._path = path
        return store

    @classmethod
    async def _open(cls, path: str, synchronous: str, memory: bool, check: bool) -> SqliteStore:
        opened: list[aiosqlite.Connection] = []
        try:
            writer = await aiosqlite.connect(path, isolation_level=None)
            opened.append(writer)
            await _configure(writer, synchronous, memory)
            full = False
            if check and not memory:
                await _on_thread(writer, _cheap_check, path)
                full = await _shutdown_state(writer) != CLEAN
            broken = await _quick_check(writer) if full else ()
            await _migrate(writer)
            if memory:
                return cls(writer)
            await _set_shutdown_state(writer, RUNNING)
            # Checkpoints run in the background.
            await writer.execute_fetchall("PRAGMA wal_autocheckpoint = 0")
            await writer.execute_fetchall(f"PRAGMA journal_size_limit = {WAL_SIZE_LIMIT}")
            for _ in range(2):
                connection = await aiosqlite.connect(path, isolation_level=None)
                opened.append(connection)
                await _configure(connection, synchronous, memory)
        except BaseException:
            for connection in opened:
                await connection.close()
            raise
        store = cls(writer, opened[1], opened[2])
        store.broken_constraints = broken
        store.fully_checked = full
        return store

    async def close(self) -> None:
        """Close the connections. The last store of this process on the file records a clean shutdown
        (unless the full check found damage), so the next start skips the full check."""
        checking, checked = self._checking, self._checked
        if checking is not None and checked is not None and not checked.is_set():
            # A full check in progress stops (the next start after a clean shutdown runs it again later).
            with contextlib.suppress(sqlite3.ProgrammingError):
                checking.interrupt()
            await asyncio.to_thread(checked.wait, 10.0)
        if self._checkpoint_task is not None:
            await self._checkpoint_task
        last = self._lock_path is not None and _PROCESS_LOCKS[self._lock_path][1] == 1
        if last and self.damage is None:
            try:
                await _set_shutdown_state(self._writer, CLEAN)
            except sqlite3.Error:  # the next start checks the file in full, as after a crash
                log.warning("could not record the clean shutdown of %s", self._path, exc_info=True)
        if self._checkpointer is not None:
            await self._checkpointer.close()
        if self._reader is not self._writer:
            await self._reader.close()
        await self._writer.close()
        lock_path, self._lock_path = self._lock_path, None
        if lock_path is not None:
            _unlock_database(lock_path)

    async def full_check(self) -> None:
        """Check every page of the file (``PRAGMA quick_check``) on a connection of its own in a worker
        thread, so the bot runs on meanwhile; at once if the start already did. Damage raises
        `StoreUnavailable` (and is kept in `damage`: the file is not marked clean at close, so the next
        start refuses it); rows that only break a constraint are logged and kept in `broken_constraints`
        (the start-up check sets such matches aside)."""
        if self.fully_checked or self._lock_path is None:
            return
        done = threading.Event()
        self._checked = done
        try:
            rows = await asyncio.to_thread(_check_file, self._path, self._checking_on, done)
        except sqlite3.Error as error:
            if "interrupt" in str(error):
                return  # the store closed meanwhile
            rows = [str(error)]
        try:
            self.broken_constraints = _broken_rows(rows)
        except sqlite3.DatabaseError as error:
            self.damage = _reason(error)
            raise StoreUnavailable(f"the database {self._path} cannot be used: {self.damage}") from error
        self.fully_checked = True

    def _checking_on(self, connection: sqlite3.Connection) -> None:
        self._checking = connection

    async def checkpoint(self) -> None:
        """Copy the WAL into the database file. The bulk is copied (and flushed to disk) while moves go on;
        then the few frames written meanwhile are copied with writes held back, so the checkpoint is
        complete and the next write starts the WAL file over instead of letting it grow without end."""
        if self._checkpointer is None:
            return
        await self._checkpointer.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
        async with self._write_lock:
            await self._checkpointer.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")

    def _committed(self) -> None:
        self._commits += 1
        busy = self._checkpoint_task is not None and not self._checkpoint_task.done()
        if self._checkpointer is not None and self._commits >= self.CHECKPOINT_EVERY and not busy:
            self._commits = 0
            self._checkpoint_task = asyncio.create_task(
                self._checkpoint_quietly(), name="tessera-wal-checkpoint"
            )

    async def _checkpoint_quietly(self) -> None:
        try:
            await self.checkpoint()
        except Exception:  # the next checkpoint catches up; a failed one loses nothing
            log.warning("background WAL checkpoint failed", exc_info=True)

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[_Tx]:
        """One write transaction. A failed statement or COMMIT rolls it back (unless SQLite already did, as
        it does on a full disk), so the writer is never left inside a transaction; a full disk or size
        limit is `StoreFull`."""
        async with self._write_lock:
            await _run(self._writer, "BEGIN IMMEDIATE")
            try:
                yield _Tx(self._writer, self._sql)
                await _run(self._writer, "COMMIT")
            except BaseException as error:
                if self._writer.in_transaction:
                    await _run(self._writer, "ROLLBACK")
                if isinstance(error, sqlite3.Error):
                    self._raise_full(error)
                raise
        self._committed()

    async def _atomic(self, work: Work[T]) -> T:
        """The whole transaction in one trip to the writer's thread: BEGIN, `work`'s statements (each run
        there as `work` calls it) and COMMIT, before the answer comes back; a failure rolls it back there.
        Writes stay one at a time (the write lock), as with `_transaction`."""
        async with self._write_lock:
            try:
                result: T = await _on_thread(self._writer, _whole_transaction, work, self._sql)
            except sqlite3.Error as error:
                self._raise_full(error)
                raise
        self._committed()
        return result

    def _raise_full(self, error: sqlite3.Error) -> None:
        """A full disk or size limit is `StoreFull` (raised from `error`)."""
        if error.sqlite_errorcode == sqlite3.SQLITE_FULL:
            raise StoreFull(
                f"the database {self._path} is full ({error}); nothing of this write was saved: "
                "free disk space"
            ) from error

    async def _fetch(self, sql: str, *params: Any) -> list[Row]:
        # One call on the connection's thread runs the statement to its end, so its read transaction ends
        # with it: interleaved cursors of concurrent coroutines would otherwise hold an old snapshot open.
        return list(await self._reader.execute_fetchall(self._sql(sql), params))

    @staticmethod
    def _channel_taken(error: Exception) -> bool:
        return isinstance(error, sqlite3.IntegrityError) and "matches.channel_id" in str(error)


async def _configure(db: aiosqlite.Connection, synchronous: str, memory: bool) -> None:
    if synchronous.upper() not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
        raise ValueError(f"unknown synchronous mode {synchronous!r}")
    db.row_factory = aiosqlite.Row
    # Row-returning pragmas are read to the end, so no statement is left in progress for a later COMMIT.
    await db.execute_fetchall("PRAGMA foreign_keys = ON")
    await db.execute_fetchall("PRAGMA busy_timeout = 5000")
    if not memory:
        mode = await db.execute_fetchall("PRAGMA journal_mode = WAL")
        if str(next(iter(mode))[0]).lower() != "wal":
            raise RuntimeError("the database could not be switched to WAL mode")
    await db.execute_fetchall(f"PRAGMA synchronous = {synchronous.upper()}")


def _can_open(path: str) -> None:
    """Open and close the file with sqlite3 (raises what `aiosqlite.connect` would)."""
    sqlite3.connect(path).close()


def _reason(error: BaseException) -> str:
    """What went wrong with a database file, in words an operator acts on."""
    text = str(error).strip() or type(error).__name__
    if isinstance(error, sqlite3.DatabaseError) and "not a database" in text:
        return "it is not a SQLite database (or it is encrypted or badly damaged); restore it from a backup"
    if isinstance(error, sqlite3.DatabaseError) and ("malformed" in text or "corrupt" in text):
        return f"it is damaged ({text}); restore it from a backup"
    if "unable to open" in text:
        return f"it cannot be opened ({text}); check the permissions of the file and its folder"
    if "readonly" in text or "read-only" in text or isinstance(error, PermissionError):
        return f"it cannot be written ({text}); check the permissions of the file and its folder"
    return text


_BROKEN_ROW = re.compile(r"(CHECK constraint failed in|NULL value in) ")
"""How quick_check reports a row that breaks a CHECK or NOT NULL constraint: a bad row, not a bad file."""


async def _quick_check(db: aiosqlite.Connection) -> tuple[str, ...]:
    """Refuse a damaged file before anything writes to it (PRAGMA quick_check: no index checks, but a read
    of every page). Rows that break a constraint are no damage to the file: the start-up check sets such
    matches aside, so they are only logged here, and returned."""
    return _broken_rows([str(r[0]) for r in await db.execute_fetchall("PRAGMA quick_check")])


def _check_file(path: str, started: Callable[[sqlite3.Connection], None], done: threading.Event) -> list[str]:
    """quick_check's answer on a connection of its own, which this thread opens and closes; `started` gets
    the connection (to interrupt it), `done` is set at the end."""
    try:
        conn = sqlite3.connect(path, check_same_thread=False)
        try:
            started(conn)
            return [str(r[0]) for r in conn.execute("PRAGMA quick_check").fetchall()]
        finally:
            conn.close()
    finally:
        done.set()


def _broken_rows(rows: list[str]) -> tuple[str, ...]:
    """The rows of quick_check's answer that break a constraint (logged); DatabaseError if it found damage
    to the file."""
    damage = [r for r in rows if r != "ok" and not _BROKEN_ROW.match(r)]
    if damage:
        raise sqlite3.DatabaseError(f"database disk image is malformed: {'; '.join(damage[:3])}")
    broken = tuple(sorted(set(rows) - {"ok"}))
    if broken:
        log.warning("rows break the schema's constraints (%s); run check-db", "; ".join(broken[:3]))
    return broken


SHUTDOWN_KEY = "shutdown"
"""The ``file_state`` row saying how the file was last closed: `RUNNING` while a store has it open, `CLEAN`
once the last one closed it. A copy taken while the bot ran (a backup) says `RUNNING`, so its first start
checks it in full; migrate-db never copies it."""
RUNNING = "running"
CLEAN = "clean"
_HEADER = struct.Struct(">16sH6xII60xI")
"""The parts of a SQLite file's 100-byte header read here: the magic string, the page size, the change
counter (offset 24), the size of the database in pages (28) and the change counter it is valid for (92)."""


def _cheap_check(conn: sqlite3.Connection, path: str) -> None:
    """What start-up always checks, in milliseconds at any size: the header (a SQLite file, a sane page
    size, the file at least as long as the header says: a truncated file fails here), the schema, and the
    first row of every table (a damaged root page). Raises sqlite3.DatabaseError on damage."""
    with open(path, "rb") as handle:
        header = handle.read(_HEADER.size)
        size = os.fstat(handle.fileno()).st_size
    if size == 0:
        return  # a new file
    if len(header) < _HEADER.size or not header.startswith(b"SQLite format 3\x00"):
        raise sqlite3.DatabaseError("file is not a database")
    _magic, page_size, changes, pages, valid_for = _HEADER.unpack(header)
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        raise sqlite3.DatabaseError(f"database disk image is malformed: page size {page_size}")
    if changes == valid_for and size < pages * page_size:
        raise sqlite3.DatabaseError(
            f"database disk image is malformed: {size} bytes, but the header counts {pages} pages "
            f"of {page_size} (truncated?)"
        )
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()]
    for table in tables:
        quoted = '"' + table.replace('"', '""') + '"'
        conn.execute(f"SELECT * FROM {quoted} LIMIT 1").fetchall()


async def _shutdown_state(db: aiosqlite.Connection) -> str | None:
    """The `SHUTDOWN_KEY` row (None: the file has no file_state table (yet) or no such row)."""
    tables = await db.execute_fetchall(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'file_state'"
    )
    if not list(tables):
        return None
    rows = list(await db.execute_fetchall("SELECT value FROM file_state WHERE key = ?", (SHUTDOWN_KEY,)))
    return str(rows[0][0]) if rows else None


async def _set_shutdown_state(db: aiosqlite.Connection, state: str) -> None:
    await _run(
        db,
        "INSERT INTO file_state (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (SHUTDOWN_KEY, state),
    )


async def _migrate(db: aiosqlite.Connection) -> None:
    """Bring the schema to SCHEMA_VERSION, one migration per transaction."""
    rows = list(await db.execute_fetchall("PRAGMA user_version"))
    version = int(rows[0][0]) if rows else 0
    if version > SCHEMA_VERSION:
        raise SchemaTooNew(
            f"its schema version {version} is newer than this code's ({SCHEMA_VERSION}); run a newer Tessera"
        )
    for index in range(version, SCHEMA_VERSION):
        await _run(db, "BEGIN IMMEDIATE")
        try:
            await migrate_step(_Tx(db, SqliteStore._sql), index, "sqlite", SqliteStore.json_value)
            await _run(db, f"PRAGMA user_version = {index + 1}")
        except BaseException:
            await _run(db, "ROLLBACK")
            raise
        await _run(db, "COMMIT")


def sqlite_path(url: str) -> str:
    """The file path of a ``sqlite:///`` URL (``sqlite:///:memory:`` gives ":memory:")."""
    prefix = "sqlite:///"
    if not url.startswith(prefix):
        raise BadDatabaseUrl(f"not a SQLite URL: {url!r} (expected sqlite:///path/to/file.sqlite3)")
    path = url[len(prefix) :]
    if not path:
        raise BadDatabaseUrl(
            "the SQLite URL names no file: use sqlite:///data/tessera.sqlite3 or sqlite:///:memory:"
        )
    return path
