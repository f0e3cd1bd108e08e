"""`MatchStore` on SQLite through aiosqlite: the embedded default for one bot process.

WAL journal, foreign keys on, every write in one explicit transaction under one writer connection; a file
database reads through a second connection, so readers only ever see committed data, and a third connection
checkpoints the WAL in the background, so no move waits for a checkpoint's disk flush. Rows are read by
column name. The schema (sqlite_schema.py) is versioned with ``PRAGMA user_version``.
Option, outcome and request columns hold JSON text.

SQLite is for one process: while a store is open its process holds an exclusive ``flock`` on
``<database>.lock`` (shared by every store the same process opens on that file), so a second process on the
same file is refused at start with one line (`StoreUnavailable`) instead of running a second turn clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import os
import re
import sqlite3
import struct
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from bot.service.messages import PostedMessage
from bot.service.prefs import UserPrefs
from bot.service.records import (
    Challenge,
    ChallengeStatus,
    Finish,
    GuildSettings,
    Lobby,
    LobbyMember,
    LobbyStatus,
    MatchRecord,
    MatchStatus,
    MoveRecord,
    NewMatch,
    Rating,
    RatingChange,
    Requests,
    TakebackRequest,
    UserStats,
)
from bot.service.shards import Shards
from bot.service.store.base import (
    BadDatabaseUrl,
    ChangeListener,
    ChannelTaken,
    DamagedRow,
    LobbyChanged,
    RatingCompute,
    SchemaTooNew,
    StoreConflict,
    StoreFull,
    StoreUnavailable,
    history_from_rows,
    history_query,
    joined_matches,
    match_from_row,
    matches_from_joined,
    rating_changes_of,
    rating_from_row,
    same_players,
    sound_matches,
    user_prefs_from_row,
)
from bot.service.store.sqlite_schema import MIGRATIONS, RECOUNT_RESIGNATION_PLIES, SCHEMA_VERSION
from bot.service.upgrades import TILINGKING, recounted_snapshot, report_recounted
from games.base import RESIGN

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


def _shard_filter(shards: Shards | None, column: str = "guild_id") -> str:
    return "1 = 1" if shards is None else shards.sql_filter(column)


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


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _challenge(r: Row) -> Challenge:
    return Challenge(
        id=r["id"],
        game=r["game"],
        options=json.loads(r["options"]),
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        challenger_id=r["challenger_id"],
        opponent_id=r["opponent_id"],
        status=ChallengeStatus(r["status"]),
        created_at=r["created_at"],
        expires_at=r["expires_at"],
        match_id=r["match_id"],
    )


def _move(r: Row) -> MoveRecord:
    return MoveRecord(
        ply=r["ply"], seat=r["seat"], notation=r["notation"], forced=bool(r["forced"]), at=r["at"]
    )


def _rating_change(r: Row) -> RatingChange:
    return RatingChange(
        r["match_id"], r["player_key"], r["mu_before"], r["sigma_before"], r["mu_after"], r["sigma_after"]
    )


class SqliteStore:
    """`MatchStore` on SQLite (see the module doc)."""

    CHECKPOINT_EVERY = 500
    """Commits between two background WAL checkpoints."""
    MATCH_BATCH = 500
    """Matches `get_matches` reads per query (SQLite bounds the values one statement may bind)."""
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

    async def listen(
        self, wake: Callable[[], None], *, shards: Shards | None = None, changes: ChangeListener | None = None
    ) -> None:
        """Nothing to hear: only this process writes the file (see the module doc), and it wakes its own
        clock and forgets its own cached rows directly."""

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

    async def get_meta(self, key: str) -> str | None:
        row = await self._fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row["value"])

    async def put_meta(self, key: str, value: str) -> None:
        async with self._transaction() as db:
            await _run(
                db,
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

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
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction. A failed statement or COMMIT rolls it back (unless SQLite already did, as
        it does on a full disk), so the writer is never left inside a transaction; a full disk or size
        limit is `StoreFull`."""
        async with self._write_lock:
            await _run(self._writer, "BEGIN IMMEDIATE")
            try:
                yield self._writer
                await _run(self._writer, "COMMIT")
            except BaseException as error:
                if self._writer.in_transaction:
                    await _run(self._writer, "ROLLBACK")
                if isinstance(error, sqlite3.Error) and error.sqlite_errorcode == sqlite3.SQLITE_FULL:
                    raise StoreFull(
                        f"the database {self._path} is full ({error}); nothing of this write was saved: "
                        "free disk space"
                    ) from error
                raise
        self._committed()

    async def _fetchall(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> list[Row]:
        # One call on the connection's thread runs the statement to its end, so its read transaction ends
        # with it: interleaved cursors of concurrent coroutines would otherwise hold an old snapshot open.
        return list(await self._reader.execute_fetchall(sql, params))

    async def _fetchone(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> Row | None:
        rows = await self._fetchall(sql, params)
        return rows[0] if rows else None

    # ----------------------------------------------------------------------------------------- matches

    async def _seats(self, match_ids: Sequence[int]) -> dict[int, list[Row]]:
        seats: dict[int, list[Row]] = {i: [] for i in match_ids}
        if not match_ids:
            return seats
        marks = ",".join("?" * len(match_ids))
        rows = await self._fetchall(
            f"SELECT match_id, seat, user_id, ai_level, result FROM match_seats "
            f"WHERE match_id IN ({marks}) ORDER BY match_id, seat",
            list(match_ids),
        )
        for r in rows:
            seats[r["match_id"]].append(r)
        return seats

    async def _matches(self, where: str, params: Sequence[Any]) -> list[MatchRecord]:
        rows = await self._fetchall(f"SELECT * FROM matches {where}", params)
        seats = await self._seats([r["id"] for r in rows])
        return sound_matches(rows, seats, json.loads)

    async def _one_match(self, where: str, params: Sequence[Any]) -> MatchRecord | None:
        """One match and its seats in a single query (the hot path of every move); DamagedRow if it breaks
        the schema's meaning (`match_from_row`)."""
        rows = await self._fetchall(
            joined_matches(where),
            params,
        )
        if not rows:
            return None
        first = rows[0]["id"]
        seats = [r for r in rows if r["id"] == first and r["seat"] is not None]
        return match_from_row(rows[0], seats, json.loads)

    async def insert_match(
        self, new: NewMatch, *, challenge_id: int | None = None, lobby_id: int | None = None
    ) -> MatchRecord:
        async with self._transaction() as db:
            if challenge_id is not None:
                rows = list(
                    await db.execute_fetchall("SELECT status FROM challenges WHERE id = ?", (challenge_id,))
                )
                if not rows or rows[0]["status"] != ChallengeStatus.PENDING:
                    raise StoreConflict(f"challenge {challenge_id} is no longer pending")
            if lobby_id is not None:
                rows = list(await db.execute_fetchall("SELECT status FROM lobbies WHERE id = ?", (lobby_id,)))
                if not rows or rows[0]["status"] != LobbyStatus.OPEN:
                    raise StoreConflict(f"lobby {lobby_id} is no longer open")
                members = await db.execute_fetchall(
                    "SELECT user_id, ai_level FROM lobby_members WHERE lobby_id = ?", (lobby_id,)
                )
                if not same_players(((m["user_id"], m["ai_level"]) for m in members), new.seats):
                    raise LobbyChanged(f"the members of lobby {lobby_id} changed")
            busy = await db.execute_fetchall(
                "SELECT id FROM matches WHERE channel_id = ? AND status = 'active' AND quarantine IS NULL",
                (new.channel_id,),
            )
            if list(busy):
                raise ChannelTaken(f"channel {new.channel_id} has an active match")
            cursor = await _run(
                db,
                "INSERT INTO matches (game, options, seed, guild_id, channel_id, status, ply, turn_timeout, "
                "deadline, snapshot, rated, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, 'active', 0, ?, ?, ?, ?, ?, ?)",
                (
                    new.game,
                    _dumps(dict(new.options)),
                    new.seed,
                    new.guild_id,
                    new.channel_id,
                    new.turn_timeout,
                    new.deadline,
                    new.snapshot,
                    int(new.rated),
                    new.created_at,
                    new.created_at,
                ),
            )
            match_id = cursor.lastrowid
            assert match_id is not None
            await _run_many(
                db,
                "INSERT INTO match_seats (match_id, seat, user_id, ai_level, player_key) "
                "VALUES (?, ?, ?, ?, ?)",
                [(match_id, p.seat, p.user_id, p.ai_level, p.player_key) for p in new.seats],
            )
            if challenge_id is not None:
                cursor = await _run(
                    db,
                    "UPDATE challenges SET status = 'accepted', match_id = ? "
                    "WHERE id = ? AND status = 'pending'",
                    (match_id, challenge_id),
                )
                if cursor.rowcount != 1:
                    raise StoreConflict(f"challenge {challenge_id} is no longer pending")
            if lobby_id is not None:
                cursor = await _run(
                    db,
                    "UPDATE lobbies SET status = 'started', match_id = ? WHERE id = ? AND status = 'open'",
                    (match_id, lobby_id),
                )
                if cursor.rowcount != 1:
                    raise StoreConflict(f"lobby {lobby_id} is no longer open")
        row = await self.get_match(match_id)
        assert row is not None
        return row

    async def get_match(self, match_id: int) -> MatchRecord | None:
        return await self._one_match("WHERE m.id = ?", (match_id,))

    async def get_matches(self, match_ids: Sequence[int]) -> dict[int, MatchRecord | DamagedRow]:
        found: dict[int, MatchRecord | DamagedRow] = {}
        ids = list(match_ids)
        for start in range(0, len(ids), self.MATCH_BATCH):  # under SQLite's limit on bound values
            batch = ids[start : start + self.MATCH_BATCH]
            marks = ",".join("?" * len(batch))
            rows = await self._fetchall(joined_matches(f"WHERE m.id IN ({marks})"), batch)
            found.update(matches_from_joined(rows, json.loads))
        return found

    async def active_match_in_channel(self, channel_id: int) -> MatchRecord | None:
        return await self._one_match(
            "WHERE m.channel_id = ? AND m.status = 'active' AND m.quarantine IS NULL", (channel_id,)
        )

    async def match_ids(self, status: MatchStatus | None = None) -> list[int]:
        if status is None:
            rows = await self._fetchall("SELECT id FROM matches ORDER BY id")
        else:
            rows = await self._fetchall("SELECT id FROM matches WHERE status = ? ORDER BY id", (status,))
        return [r["id"] for r in rows]

    async def matches_of_user(self, user_id: int, limit: int = 25) -> list[MatchRecord]:
        return await self._matches(
            "WHERE status = 'active' AND quarantine IS NULL AND id IN "
            "(SELECT match_id FROM match_seats WHERE user_id = ? AND ai_level IS NULL) "
            "ORDER BY id DESC LIMIT ?",
            (user_id, limit),
        )

    async def finished_matches(
        self, *, user_id: int | None, guild_id: int | None, game: str | None, limit: int
    ) -> list[tuple[MatchRecord, int]]:
        where = ["m.status IN ('finished', 'aborted')"]
        params: list[Any] = []
        source = "matches m"
        if user_id is not None:
            # The user's own seats drive the query (CROSS JOIN keeps SQLite's planner to that order): a
            # player's matches are sorted, never a walk of the whole server's finished matches.
            source = "match_seats s CROSS JOIN matches m ON m.id = s.match_id"
            where += ["s.user_id = ?", "s.ai_level IS NULL"]
            params.append(user_id)
        if guild_id is not None:
            where.append("m.guild_id = ?")
            params.append(guild_id)
        if game is not None:
            where.append("m.game = ?")
            params.append(game)
        params.append(limit)
        rows = await self._fetchall(history_query(source, " AND ".join(where), "?"), params)
        return history_from_rows(rows, json.loads)

    async def moves(self, match_id: int) -> list[MoveRecord]:
        rows = await self._fetchall(
            "SELECT ply, seat, notation, forced, at FROM moves WHERE match_id = ? ORDER BY ply", (match_id,)
        )
        return [_move(r) for r in rows]

    @staticmethod
    async def _write_finish(db: aiosqlite.Connection, match_id: int, finish: Finish) -> None:
        await _run(
            db,
            "UPDATE matches SET status = ?, outcome = ?, finished_at = ?, deadline = NULL WHERE id = ?",
            (finish.status, _dumps(finish.outcome.to_json()), finish.at, match_id),
        )
        await _run_many(
            db,
            "UPDATE match_seats SET result = ? WHERE match_id = ? AND seat = ?",
            [(result, match_id, seat) for seat, result in finish.results.items()],
        )

    async def append_moves(
        self,
        match_id: int,
        expected_ply: int,
        moves: Sequence[MoveRecord],
        snapshot: str,
        deadline: float | None,
        now: float,
        finish: Finish | None = None,
    ) -> bool:
        async with self._transaction() as db:
            cursor = await _run(
                db,
                "UPDATE matches SET ply = ?, snapshot = ?, deadline = ?, updated_at = ?, abort_votes = '[]', "
                "takeback = NULL WHERE id = ? AND ply = ? AND status = 'active'",
                (expected_ply + len(moves), snapshot, deadline, now, match_id, expected_ply),
            )
            if cursor.rowcount != 1:
                return False
            await _run_many(
                db,
                "INSERT INTO moves (match_id, ply, seat, notation, forced, at) VALUES (?, ?, ?, ?, ?, ?)",
                [(match_id, m.ply, m.seat, m.notation, int(m.forced), m.at) for m in moves],
            )
            if finish is not None:
                await self._write_finish(db, match_id, finish)
        return True

    async def finish_match(self, match_id: int, expected_ply: int, finish: Finish) -> bool:
        async with self._transaction() as db:
            cursor = await _run(
                db,
                "UPDATE matches SET updated_at = ?, abort_votes = '[]', takeback = NULL "
                "WHERE id = ? AND ply = ? AND status = 'active'",
                (finish.at, match_id, expected_ply),
            )
            if cursor.rowcount != 1:
                return False
            await self._write_finish(db, match_id, finish)
        return True

    async def rewind_match(
        self, match_id: int, expected_ply: int, to_ply: int, snapshot: str, deadline: float | None, now: float
    ) -> bool:
        async with self._transaction() as db:
            cursor = await _run(
                db,
                "UPDATE matches SET ply = ?, snapshot = ?, deadline = ?, updated_at = ?, abort_votes = '[]', "
                "takeback = NULL WHERE id = ? AND ply = ? AND status = 'active'",
                (to_ply, snapshot, deadline, now, match_id, expected_ply),
            )
            if cursor.rowcount != 1:
                return False
            await _run(db, "DELETE FROM moves WHERE match_id = ? AND ply >= ?", (match_id, to_ply))
        return True

    async def update_requests(
        self, match_id: int, expected_ply: int, change: Callable[[Requests], Requests]
    ) -> Requests | None:
        async with self._transaction() as db:  # BEGIN IMMEDIATE: no other writer between read and write
            rows = list(
                await db.execute_fetchall(
                    "SELECT abort_votes, takeback FROM matches "
                    "WHERE id = ? AND ply = ? AND status = 'active'",
                    (match_id, expected_ply),
                )
            )
            if not rows:
                return None
            takeback = rows[0]["takeback"]
            current = Requests(
                tuple(json.loads(rows[0]["abort_votes"])),
                TakebackRequest.from_json(json.loads(takeback)) if takeback is not None else None,
            )
            change_to = change(current)
            changed = Requests(tuple(dict.fromkeys(change_to.abort_votes)), change_to.takeback)
            await _run(
                db,
                "UPDATE matches SET abort_votes = ?, takeback = ? WHERE id = ?",
                (
                    _dumps(list(changed.abort_votes)),
                    _dumps(changed.takeback.to_json()) if changed.takeback is not None else None,
                    match_id,
                ),
            )
        return changed

    # SQLite orders every number before every text or blob: `deadline < ''` is a number, `deadline >= ''` a
    # deadline that is none (a damaged row). The clock sleeps towards numbers only, and takes a damaged
    # deadline as due at once, so reading the match sets it aside instead of the clock tripping on it.

    async def next_deadline(self, *, shards: Shards | None = None) -> float | None:
        row = await self._fetchone(
            "SELECT MIN(deadline) AS due FROM matches WHERE status = 'active' AND quarantine IS NULL "
            f"AND deadline < '' AND {_shard_filter(shards)}"
        )
        return None if row is None else row["due"]

    async def due_matches(self, now: float, *, shards: Shards | None = None) -> list[tuple[int, int]]:
        live = f"FROM matches WHERE status = 'active' AND quarantine IS NULL AND {_shard_filter(shards)}"
        rows = await self._fetchall(  # two searches of the deadline index, not one scan of it
            f"SELECT id, ply, deadline {live} AND deadline <= ? "
            f"UNION ALL SELECT id, ply, deadline {live} AND deadline >= '' ORDER BY deadline, id",
            (now,),
        )
        return [(r["id"], r["ply"]) for r in rows]

    async def active_ai_match_ids(self, *, shards: Shards | None = None) -> list[int]:
        rows = await self._fetchall(
            "SELECT DISTINCT m.id FROM match_seats s JOIN matches m ON m.id = s.match_id "
            "WHERE s.ai_level IS NOT NULL AND m.status = 'active' AND m.quarantine IS NULL "
            f"AND {_shard_filter(shards, 'm.guild_id')} ORDER BY m.id"
        )
        return [r["id"] for r in rows]

    async def active_match_ids(self) -> list[int]:
        rows = await self._fetchall(
            "SELECT id FROM matches WHERE status = 'active' AND quarantine IS NULL ORDER BY id"
        )
        return [r["id"] for r in rows]

    async def unsettled_match_ids(self) -> list[int]:
        rows = await self._fetchall(
            "SELECT id FROM matches WHERE quarantine IS NULL "
            "AND (status IS NULL OR status NOT IN ('finished', 'aborted')) ORDER BY id"
        )
        return [r["id"] for r in rows]

    async def quarantine_match(self, match_id: int, reason: str) -> bool:
        async with self._transaction() as db:
            cursor = await _run(
                db,
                "UPDATE matches SET quarantine = ?, deadline = NULL WHERE id = ? AND quarantine IS NULL",
                (reason[:500], match_id),
            )
            return cursor.rowcount == 1

    async def quarantined_match_ids(self) -> list[int]:
        rows = await self._fetchall("SELECT id FROM matches WHERE quarantine IS NOT NULL ORDER BY id")
        return [r["id"] for r in rows]

    async def unapplied_rated_match_ids(self) -> list[int]:
        rows = await self._fetchall(
            "SELECT id FROM matches WHERE status = 'finished' AND rated = 1 AND ratings_applied = 0 "
            "ORDER BY id"
        )
        return [r["id"] for r in rows]

    # ----------------------------------------------------------------------------------------- challenges

    async def insert_challenge(
        self,
        game: str,
        options: Mapping[str, Any],
        guild_id: int | None,
        channel_id: int,
        challenger_id: int,
        opponent_id: int,
        created_at: float,
        expires_at: float,
    ) -> Challenge:
        async with self._transaction() as db:
            cursor = await _run(
                db,
                "INSERT INTO challenges (game, options, guild_id, channel_id, challenger_id, opponent_id, "
                "status, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)",
                (
                    game,
                    _dumps(dict(options)),
                    guild_id,
                    channel_id,
                    challenger_id,
                    opponent_id,
                    created_at,
                    expires_at,
                ),
            )
            challenge_id = cursor.lastrowid
        assert challenge_id is not None
        row = await self.get_challenge(challenge_id)
        assert row is not None
        return row

    async def get_challenge(self, challenge_id: int) -> Challenge | None:
        row = await self._fetchone("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        return None if row is None else _challenge(row)

    async def set_challenge_status(
        self,
        challenge_id: int,
        status: ChallengeStatus,
        *,
        expected: ChallengeStatus = ChallengeStatus.PENDING,
    ) -> bool:
        async with self._transaction() as db:
            cursor = await _run(
                db,
                "UPDATE challenges SET status = ? WHERE id = ? AND status = ?",
                (status, challenge_id, expected),
            )
            return cursor.rowcount == 1

    async def pending_challenges(self, channel_id: int | None = None) -> list[Challenge]:
        if channel_id is None:
            rows = await self._fetchall("SELECT * FROM challenges WHERE status = 'pending' ORDER BY id")
        else:
            rows = await self._fetchall(
                "SELECT * FROM challenges WHERE status = 'pending' AND channel_id = ? ORDER BY id",
                (channel_id,),
            )
        return [_challenge(r) for r in rows]

    async def count_pending_challenges(
        self, *, challenger_id: int | None = None, channel_id: int | None = None
    ) -> int:
        where, params = ["status = 'pending'"], []
        if challenger_id is not None:
            where.append("challenger_id = ?")
            params.append(challenger_id)
        if channel_id is not None:
            where.append("channel_id = ?")
            params.append(channel_id)
        row = await self._fetchone(
            f"SELECT COUNT(*) AS n FROM challenges WHERE {' AND '.join(where)}", params
        )
        return int(row["n"]) if row is not None else 0

    async def due_challenges(self, now: float, *, shards: Shards | None = None) -> list[Challenge]:
        rows = await self._fetchall(
            "SELECT * FROM challenges WHERE status = 'pending' AND expires_at <= ? "
            f"AND {_shard_filter(shards)} ORDER BY expires_at, id",
            (now,),
        )
        return [_challenge(r) for r in rows]

    async def next_challenge_expiry(self, *, shards: Shards | None = None) -> float | None:
        row = await self._fetchone(
            "SELECT MIN(expires_at) AS due FROM challenges WHERE status = 'pending' "
            f"AND {_shard_filter(shards)}"
        )
        return None if row is None else row["due"]

    # ----------------------------------------------------------------------------------------- lobbies

    async def insert_lobby(
        self,
        game: str,
        options: Mapping[str, Any],
        guild_id: int | None,
        channel_id: int,
        host: LobbyMember,
        seat_order: str,
        max_players: int,
        created_at: float,
    ) -> Lobby:
        async with self._transaction() as db:
            cursor = await _run(
                db,
                "INSERT INTO lobbies (game, options, guild_id, channel_id, host_id, seat_order, max_players, "
                "status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?)",
                (
                    game,
                    _dumps(dict(options)),
                    guild_id,
                    channel_id,
                    host.user_id,
                    seat_order,
                    max_players,
                    created_at,
                ),
            )
            lobby_id = cursor.lastrowid
            await _run(
                db,
                "INSERT INTO lobby_members (lobby_id, position, user_id, ai_level, joined_at) "
                "VALUES (?, 0, ?, ?, ?)",
                (lobby_id, host.user_id, host.ai_level, host.joined_at),
            )
        assert lobby_id is not None
        row = await self.get_lobby(lobby_id)
        assert row is not None
        return row

    async def _lobbies(self, where: str, params: Sequence[Any]) -> list[Lobby]:
        rows = await self._fetchall(f"SELECT * FROM lobbies {where}", params)
        members: dict[int, list[LobbyMember]] = {r["id"]: [] for r in rows}
        if rows:
            marks = ",".join("?" * len(rows))
            for m in await self._fetchall(
                f"SELECT lobby_id, user_id, ai_level, joined_at FROM lobby_members "
                f"WHERE lobby_id IN ({marks}) ORDER BY lobby_id, position",
                list(members),
            ):
                members[m["lobby_id"]].append(LobbyMember(m["user_id"], m["ai_level"], m["joined_at"]))
        return [
            Lobby(
                id=r["id"],
                game=r["game"],
                options=json.loads(r["options"]),
                guild_id=r["guild_id"],
                channel_id=r["channel_id"],
                host_id=r["host_id"],
                seat_order=r["seat_order"],
                max_players=r["max_players"],
                status=LobbyStatus(r["status"]),
                created_at=r["created_at"],
                match_id=r["match_id"],
                members=tuple(members[r["id"]]),
            )
            for r in rows
        ]

    async def get_lobby(self, lobby_id: int) -> Lobby | None:
        rows = await self._lobbies("WHERE id = ?", (lobby_id,))
        return rows[0] if rows else None

    async def open_lobbies(self, channel_id: int | None = None) -> list[Lobby]:
        if channel_id is None:
            return await self._lobbies("WHERE status = 'open' ORDER BY id", ())
        return await self._lobbies("WHERE status = 'open' AND channel_id = ? ORDER BY id", (channel_id,))

    async def count_open_lobbies(self, *, host_id: int | None = None, channel_id: int | None = None) -> int:
        where, params = ["status = 'open'"], []
        if host_id is not None:
            where.append("host_id = ?")
            params.append(host_id)
        if channel_id is not None:
            where.append("channel_id = ?")
            params.append(channel_id)
        row = await self._fetchone(f"SELECT COUNT(*) AS n FROM lobbies WHERE {' AND '.join(where)}", params)
        return int(row["n"]) if row is not None else 0

    async def add_lobby_member(self, lobby_id: int, member: LobbyMember) -> bool:
        async with self._transaction() as db:
            rows = list(
                await db.execute_fetchall("SELECT max_players, status FROM lobbies WHERE id = ?", (lobby_id,))
            )
            if not rows or rows[0]["status"] != LobbyStatus.OPEN:
                return False
            members = list(
                await db.execute_fetchall(
                    "SELECT user_id, ai_level, position FROM lobby_members WHERE lobby_id = ?", (lobby_id,)
                )
            )
            if len(members) >= rows[0]["max_players"]:
                return False
            if member.ai_level is None and any(
                m["user_id"] == member.user_id and m["ai_level"] is None for m in members
            ):
                return False
            position = max((m["position"] for m in members), default=-1) + 1
            await _run(
                db,
                "INSERT INTO lobby_members (lobby_id, position, user_id, ai_level, joined_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (lobby_id, position, member.user_id, member.ai_level, member.joined_at),
            )
        return True

    async def remove_lobby_member(self, lobby_id: int, user_id: int) -> bool:
        async with self._transaction() as db:
            cursor = await _run(
                db,
                "DELETE FROM lobby_members WHERE lobby_id = ? AND user_id = ? AND ai_level IS NULL "
                "AND lobby_id IN (SELECT id FROM lobbies WHERE status = 'open')",
                (lobby_id, user_id),
            )
            return cursor.rowcount == 1

    async def set_lobby_status(
        self, lobby_id: int, status: LobbyStatus, *, expected: LobbyStatus = LobbyStatus.OPEN
    ) -> bool:
        async with self._transaction() as db:
            cursor = await _run(
                db, "UPDATE lobbies SET status = ? WHERE id = ? AND status = ?", (status, lobby_id, expected)
            )
            return cursor.rowcount == 1

    # ----------------------------------------------------------------------------------------- guild settings

    async def get_guild_settings(self, guild_id: int) -> GuildSettings | None:
        row = await self._fetchone("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        if row is None:
            return None
        return GuildSettings(
            row["guild_id"],
            row["turn_timeout"],
            bool(row["threads"]),
            tuple(json.loads(row["allowed_channels"])),
            row["locale"],
        )

    async def put_guild_settings(self, settings: GuildSettings) -> None:
        async with self._transaction() as db:
            await _run(
                db,
                "INSERT INTO guild_settings (guild_id, turn_timeout, threads, allowed_channels, locale) "
                "VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET turn_timeout = excluded.turn_timeout, "
                "threads = excluded.threads, allowed_channels = excluded.allowed_channels, "
                "locale = excluded.locale",
                (
                    settings.guild_id,
                    settings.turn_timeout,
                    int(settings.threads),
                    _dumps(list(settings.allowed_channels)),
                    settings.locale,
                ),
            )

    # ----------------------------------------------------------------------------------------- ratings

    async def apply_ratings(
        self, match_id: int, game: str, player_keys: Sequence[str], compute: RatingCompute, now: float
    ) -> list[RatingChange] | None:
        async with self._transaction() as db:
            cursor = await _run(
                db,
                "UPDATE matches SET ratings_applied = 1 WHERE id = ? AND status = 'finished' AND rated = 1 "
                "AND ratings_applied = 0",
                (match_id,),
            )
            if cursor.rowcount != 1:
                return None
            guild = list(await db.execute_fetchall("SELECT guild_id FROM matches WHERE id = ?", (match_id,)))
            guild_id = guild[0]["guild_id"]
            marks = ",".join("?" * len(player_keys))
            rows = await db.execute_fetchall(
                f"SELECT player_key, mu, sigma FROM ratings WHERE game = ? AND player_key IN ({marks})",
                [game, *player_keys],
            )
            current: dict[str, tuple[float, float] | None] = dict.fromkeys(player_keys)
            for r in rows:
                current[r["player_key"]] = (r["mu"], r["sigma"])
            changes = rating_changes_of(match_id, player_keys, current, compute)
            for key, mu, sigma in ((c.player_key, c.mu_after, c.sigma_after) for c in changes):
                await _run(
                    db,
                    "INSERT INTO ratings (game, player_key, mu, sigma, updated_at, played) "
                    "VALUES (?, ?, ?, ?, ?, 1) "
                    "ON CONFLICT (game, player_key) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                    "updated_at = excluded.updated_at, played = ratings.played + 1",
                    (game, key, mu, sigma, now),
                )
                if guild_id is not None:
                    await _run(
                        db,
                        "INSERT INTO guild_ratings (guild_id, game, player_key, played, mu, sigma) "
                        "VALUES (?, ?, ?, 1, ?, ?) ON CONFLICT (guild_id, game, player_key) "
                        "DO UPDATE SET played = guild_ratings.played + 1",
                        (guild_id, game, key, mu, sigma),
                    )
                # Every server's board of the player shows the new rating (a copy kept for its index).
                await _run(
                    db,
                    "UPDATE guild_ratings SET mu = ?, sigma = ? WHERE game = ? AND player_key = ?",
                    (mu, sigma, game, key),
                )
            await _run_many(
                db,
                "INSERT INTO rating_changes "
                "(match_id, player_key, mu_before, sigma_before, mu_after, sigma_after) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (c.match_id, c.player_key, c.mu_before, c.sigma_before, c.mu_after, c.sigma_after)
                    for c in changes
                ],
            )
        return changes

    async def rating_changes(self, match_id: int) -> list[RatingChange]:
        rows = await self._fetchall(
            "SELECT * FROM rating_changes WHERE match_id = ? ORDER BY player_key", (match_id,)
        )
        return [_rating_change(r) for r in rows]

    async def get_ratings(self, game: str, player_keys: Sequence[str]) -> dict[str, Rating]:
        if not player_keys:
            return {}
        marks = ",".join("?" * len(player_keys))
        rows = await self._fetchall(
            f"SELECT game, player_key, mu, sigma, played FROM ratings "
            f"WHERE game = ? AND player_key IN ({marks})",
            [game, *player_keys],
        )
        return {r["player_key"]: rating_from_row(r) for r in rows}

    async def leaderboard(
        self, game: str, guild_id: int | None, limit: int, max_sigma: float
    ) -> list[Rating]:
        if guild_id is None:
            rows = await self._fetchall(
                "SELECT game, player_key, mu, sigma, played FROM ratings WHERE game = ? AND played > 0 "
                "AND sigma <= ? AND player_key LIKE 'user:%' ORDER BY mu DESC, player_key DESC LIMIT ?",
                (game, max_sigma, limit),
            )
        else:
            # The guild's own copy of each rating: guild_ratings_board walks it in order and stops.
            rows = await self._fetchall(
                "SELECT game, player_key, mu, sigma, played FROM guild_ratings "
                "WHERE guild_id = ? AND game = ? AND sigma <= ? AND player_key LIKE 'user:%' "
                "ORDER BY mu DESC, player_key DESC LIMIT ?",
                (guild_id, game, max_sigma, limit),
            )
        return [rating_from_row(r) for r in rows]

    async def user_stats(self, user_id: int, guild_id: int | None = None) -> list[UserStats]:
        guild_filter = "" if guild_id is None else " AND m.guild_id = ?"
        params: list[Any] = [user_id] + ([] if guild_id is None else [guild_id])
        rows = await self._fetchall(
            "SELECT m.game AS game, COUNT(*) AS played, "
            "SUM(CASE WHEN s.result = 'win' THEN 1 ELSE 0 END) AS won, "
            "SUM(CASE WHEN s.result = 'loss' THEN 1 ELSE 0 END) AS lost, "
            "SUM(CASE WHEN s.result = 'draw' THEN 1 ELSE 0 END) AS drawn "
            "FROM match_seats s JOIN matches m ON m.id = s.match_id "
            f"WHERE s.user_id = ? AND s.ai_level IS NULL AND m.status = 'finished'{guild_filter} "
            "GROUP BY m.game ORDER BY m.game",
            params,
        )
        return [UserStats(r["game"], r["played"], r["won"], r["lost"], r["drawn"]) for r in rows]

    # ---------------------------------------------------------------------- preferences (schema 3)

    async def get_user_prefs(self, user_id: int) -> UserPrefs | None:
        row = await self._fetchone("SELECT theme, reminders FROM user_prefs WHERE user_id = ?", (user_id,))
        if row is None:
            return None
        return user_prefs_from_row(user_id, row["theme"], row["reminders"])

    async def put_user_prefs(self, prefs: UserPrefs, now: float) -> None:
        async with self._transaction() as db:
            await _run(
                db,
                "INSERT INTO user_prefs (user_id, theme, reminders, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET theme = excluded.theme, reminders = excluded.reminders, "
                "updated_at = excluded.updated_at",
                (prefs.user_id, prefs.theme, prefs.reminders.value, now),
            )

    async def get_guild_theme(self, guild_id: int) -> str | None:
        row = await self._fetchone("SELECT theme FROM guild_prefs WHERE guild_id = ?", (guild_id,))
        return None if row is None else str(row["theme"])

    async def set_guild_theme(self, guild_id: int, theme: str, now: float) -> None:
        async with self._transaction() as db:
            await _run(
                db,
                "INSERT INTO guild_prefs (guild_id, theme, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET theme = excluded.theme, "
                "updated_at = excluded.updated_at",
                (guild_id, theme, now),
            )

    # ------------------------------------------------------------------- posted messages (schema 3)

    async def swap_board_message(
        self, match_id: int, posted: PostedMessage, now: float
    ) -> PostedMessage | None:
        async with self._transaction() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT channel_id, message_id FROM board_messages WHERE match_id = ?", (match_id,)
                )
            )
            previous = PostedMessage(rows[0]["channel_id"], rows[0]["message_id"]) if rows else None
            if previous is not None and previous.message_id >= posted.message_id:
                # A newer board is recorded already (or this one again): this one is the superseded one.
                return None if previous == posted else posted
            await _run(
                db,
                "INSERT INTO board_messages (match_id, channel_id, message_id, posted_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (match_id) DO UPDATE SET channel_id = excluded.channel_id, "
                "message_id = excluded.message_id, posted_at = excluded.posted_at",
                (match_id, posted.channel_id, posted.message_id, now),
            )
            return previous

    async def get_board_message(self, match_id: int) -> PostedMessage | None:
        row = await self._fetchone(
            "SELECT channel_id, message_id FROM board_messages WHERE match_id = ?", (match_id,)
        )
        return None if row is None else PostedMessage(row["channel_id"], row["message_id"])

    async def put_challenge_message(self, challenge_id: int, posted: PostedMessage, now: float) -> None:
        async with self._transaction() as db:
            await _run(
                db,
                "INSERT INTO challenge_messages (challenge_id, channel_id, message_id, posted_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (challenge_id) DO UPDATE SET "
                "channel_id = excluded.channel_id, message_id = excluded.message_id, "
                "posted_at = excluded.posted_at",
                (challenge_id, posted.channel_id, posted.message_id, now),
            )

    async def get_challenge_message(self, challenge_id: int) -> PostedMessage | None:
        row = await self._fetchone(
            "SELECT channel_id, message_id FROM challenge_messages WHERE challenge_id = ?", (challenge_id,)
        )
        return None if row is None else PostedMessage(row["channel_id"], row["message_id"])

    # -------------------------------------------------------------------- turn reminders (schema 3)

    _REMINDABLE = (
        "FROM matches m WHERE m.status = 'active' AND m.quarantine IS NULL AND m.deadline IS NOT NULL "
        "AND m.turn_timeout >= :min_turn "
        "AND EXISTS (SELECT 1 FROM match_seats s JOIN user_prefs p ON p.user_id = s.user_id "
        "WHERE s.match_id = m.id AND s.ai_level IS NULL AND p.reminders <> 'off') "
        "AND NOT EXISTS (SELECT 1 FROM turn_reminders r WHERE r.match_id = m.id AND r.deadline = m.deadline)"
    )
    _REMINDER_DUE = "m.deadline - m.turn_timeout + MIN(m.turn_timeout * :fraction, :max_delay)"

    async def due_turn_reminders(
        self,
        now: float,
        *,
        min_turn: float,
        fraction: float,
        max_delay: float,
        limit: int = 100,
        shards: Shards | None = None,
    ) -> list[tuple[int, float]]:
        rows = await self._fetchall(
            f"SELECT m.id, m.deadline, {self._REMINDER_DUE} AS due {self._REMINDABLE} "
            f"AND {_shard_filter(shards, 'm.guild_id')} "
            f"AND {self._REMINDER_DUE} <= :now ORDER BY due, m.id LIMIT :limit",
            {"now": now, "min_turn": min_turn, "fraction": fraction, "max_delay": max_delay, "limit": limit},
        )
        return [(r["id"], r["deadline"]) for r in rows]

    async def next_turn_reminder(
        self, *, min_turn: float, fraction: float, max_delay: float, shards: Shards | None = None
    ) -> float | None:
        row = await self._fetchone(
            f"SELECT MIN({self._REMINDER_DUE}) AS due {self._REMINDABLE} "
            f"AND {_shard_filter(shards, 'm.guild_id')}",
            {"min_turn": min_turn, "fraction": fraction, "max_delay": max_delay},
        )
        return None if row is None or row["due"] is None else float(row["due"])

    async def claim_turn_reminder(self, match_id: int, deadline: float, now: float) -> bool:
        async with self._transaction() as db:
            cursor = await _run(
                db,
                "INSERT INTO turn_reminders (match_id, deadline, sent_at) "
                "SELECT id, deadline, ? FROM matches WHERE id = ? AND status = 'active' AND deadline = ? "
                "ON CONFLICT (match_id) DO UPDATE SET deadline = excluded.deadline, "
                "sent_at = excluded.sent_at WHERE turn_reminders.deadline <> excluded.deadline",
                (now, match_id, deadline),
            )
            return cursor.rowcount == 1


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
            for statement in MIGRATIONS[index]:
                await _run(db, statement)
            if index == RECOUNT_RESIGNATION_PLIES:
                await _recount_resignation_plies(db)
            await _run(db, f"PRAGMA user_version = {index + 1}")
        except BaseException:
            await _run(db, "ROLLBACK")
            raise
        await _run(db, "COMMIT")


async def _recount_resignation_plies(db: aiosqlite.Connection) -> None:
    """The data step of migration RECOUNT_RESIGNATION_PLIES, in its transaction: each TilingKing match whose
    log has a resignation gets the snapshot `upgrades.recounted_snapshot` gives, if it gives one."""
    found = await db.execute_fetchall(
        "SELECT id FROM matches m WHERE game = ? "
        "AND EXISTS (SELECT 1 FROM moves WHERE match_id = m.id AND notation = ?) ORDER BY id",
        (TILINGKING, RESIGN),
    )
    recounted = []
    for (match_id,) in found:
        [row] = await db.execute_fetchall(
            "SELECT options, seed, snapshot, "
            "(SELECT COUNT(*) FROM match_seats WHERE match_id = m.id) AS seats FROM matches m WHERE id = ?",
            (match_id,),
        )
        moves = await db.execute_fetchall(
            "SELECT seat, notation FROM moves WHERE match_id = ? ORDER BY ply", (match_id,)
        )
        entries = [(m["seat"], m["notation"]) for m in moves]
        snapshot = recounted_snapshot(row["seats"], row["options"], row["seed"], entries, row["snapshot"])
        if snapshot is not None:
            await _run(db, "UPDATE matches SET snapshot = ? WHERE id = ?", (snapshot, match_id))
            recounted.append(match_id)
    report_recounted(recounted)


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
