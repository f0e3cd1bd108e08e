"""`MatchStore` on PostgreSQL through an asyncpg pool: one database shared by several shard processes.

The queries are `SqlStore`'s (sql.py), the same as on SQLite; this is the PostgreSQL dialect. Races between
processes are settled by the database at READ COMMITTED: the ply guard (``UPDATE ... WHERE ply = $n``,
re-checked on the newest row version after a wait), row locks (``SELECT ... FOR UPDATE``, the
``{FOR_UPDATE}`` token) where a write depends on what it read (requests, lobbies, challenges, boards), a
per-game advisory lock around rating updates, and the partial unique index on a channel's active match
(mapped to `ChannelTaken`). The hot writes (moves, endings, takebacks) are one statement each, written here.
JSONB columns come back decoded; the schema (schema.py) is versioned in the table ``schema_version``. Writes
that may move a turn clock send NOTIFY (a trigger); `listen` hears them.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from typing import Any, ClassVar
from urllib.parse import urlencode, urlsplit

import asyncpg

from bot.service.records import Finish, MoveRecord
from bot.service.store.base import (
    ChangeListener,
    MatchChange,
    SchemaTooNew,
    ShardFilter,
    StoreFull,
    StoreUnavailable,
)
from bot.service.store.schema import (
    CHANGE_CHANNEL,
    MATCH_CHANNEL,
    POSTGRES_LEGACY,
    SCHEMA_VERSION,
    WAKE_CHANNEL,
    schema_channel,
)
from bot.service.store.sql import SqlStore, migrate_step

log = logging.getLogger(__name__)

Row = asyncpg.Record
Connection = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy

MIGRATION_LOCK = 0x7E55E4A0
"""The advisory lock key migrations hold (any constant; the same in every process)."""
RATING_LOCK = 0x7E55E4A1
"""The first key of the per-game advisory locks rating updates hold (the second is the game's hash)."""
ACTIVE_CHANNEL_INDEX = "matches_one_active_per_channel"


def _count(status: str) -> int:
    """The row count of a command status such as ``UPDATE 1`` or ``INSERT 0 3`` (0 for ``CREATE TABLE``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def describe(url: str) -> str:
    """A database URL as an operator reads it, without the password: ``name on host:port as user``."""
    parts = urlsplit(url)
    name = parts.path.lstrip("/") or "(the user's default database)"
    where = parts.hostname or "the local socket"
    if parts.port is not None:
        where += f":{parts.port}"
    user = f" as {parts.username}" if parts.username else ""
    return f"the PostgreSQL database {name} on {where}{user}"


def with_search_path(url: str, schema: str) -> str:
    """`url` with its connections' search_path set to `schema`, so its tables live there (asyncpg passes
    unknown query parameters to the server as settings): a database of its own inside one database."""
    parts = urlsplit(url)
    query = "&".join(q for q in (parts.query, urlencode({"search_path": schema})) if q)
    return parts._replace(query=query).geturl()


def _reason(error: BaseException) -> str:
    """What keeps a PostgreSQL database from being used, and what to do, in one line."""
    text = " ".join(str(error).split()) or type(error).__name__
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        return f"it does not exist ({text}); create it (createdb) or fix the name in DATABASE_URL"
    if isinstance(error, asyncpg.InvalidPasswordError | asyncpg.InvalidAuthorizationSpecificationError):
        return f"the server refused the login ({text}); check the user and password in DATABASE_URL"
    if isinstance(error, OSError | TimeoutError):
        return (
            f"the server cannot be reached ({text}); check that it runs and the host and port in DATABASE_URL"
        )
    if isinstance(error, SchemaTooNew):
        return text
    return f"{text}; check the server and DATABASE_URL"


class _PoolConnection(asyncpg.Connection):
    """A pooled connection given back without the reset query (a round trip on every release): the store
    leaves nothing behind on it (no session settings, session advisory locks, LISTEN or open cursors)."""

    def get_reset_query(self) -> str:
        return ""


async def _setup_own_connection(conn: asyncpg.Connection, own: set[int]) -> None:
    """`_setup_connection`, and remember the connection's server process (whose NOTIFYs are ours)."""
    own.add(conn.get_server_pid())
    await _setup_connection(conn)


async def _setup_connection(conn: asyncpg.Connection) -> None:
    """JSONB in and out as Python values."""
    await conn.set_type_codec(
        "jsonb",
        schema="pg_catalog",
        encoder=lambda v: json.dumps(v, separators=(",", ":")),
        decoder=json.loads,
    )


class _Tx:
    """The statements of one transaction on one pooled connection."""

    def __init__(self, conn: Connection, sql: Callable[[str], str]) -> None:
        self.conn = conn
        self.sql = sql

    async def fetch(self, sql: str, *params: Any) -> list[Row]:
        rows: list[Row] = await self.conn.fetch(self.sql(sql), *params)
        return rows

    async def run(self, sql: str, *params: Any) -> int:
        return _count(await self.conn.execute(self.sql(sql), *params))

    async def run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.conn.executemany(self.sql(sql), rows)


class PostgresStore(SqlStore):
    """`MatchStore` on PostgreSQL (see the module doc)."""

    KIND = "postgresql"
    _translated: ClassVar[dict[str, str]] = {}
    MATCH_BATCH = 100_000
    RECONNECT_DELAY = 1.0
    """Seconds `listen` waits before it opens a lost connection again."""
    shared = True
    """Several shard processes write one database."""

    def __init__(self, pool: asyncpg.Pool, url: str, own: set[int] | None = None) -> None:
        self._pool = pool
        self._url = url
        self._own = own if own is not None else set()
        """The server process ids of this store's pool connections: a NOTIFY one of them sent is this
        process's own write (`MatchChange.own`)."""

    @classmethod
    async def open(cls, url: str, *, pool_size: int = 10, timeout: float = 10.0) -> PostgresStore:
        """Connect to the database at `url` (``postgresql://user:password@host:port/name``) and migrate it.

        An unreachable server, a refused login or a missing database raise `StoreUnavailable` with one line
        saying which database (never the password) and what to do."""
        own: set[int] = set()
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=pool_size,
                timeout=timeout,
                init=lambda conn: _setup_own_connection(conn, own),
                connection_class=_PoolConnection,
            )
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StoreUnavailable(f"{describe(url)} cannot be used: {_reason(error)}") from error
        try:
            async with pool.acquire() as conn:
                await _migrate(conn)
        except BaseException as error:
            await pool.close()
            if isinstance(error, SchemaTooNew | OSError | TimeoutError | asyncpg.PostgresError):
                raise StoreUnavailable(f"{describe(url)} cannot be used: {_reason(error)}") from error
            raise
        return cls(pool, url, own)

    async def close(self) -> None:
        await self._pool.close()

    async def full_check(self) -> None:
        """Nothing to do: the server checks its own pages (see `MatchStore.full_check`)."""

    async def schema_version(self) -> int:
        return int(await self._pool.fetchval("SELECT version FROM schema_version"))

    # ---------------------------------------------------------------------------------- the dialect

    @classmethod
    def _translate(cls, sql: str) -> str:
        """Tokens replaced, and ``?`` placeholders numbered as asyncpg takes them (``$1``, ``$2``...)."""
        numbers = iter(range(1, 1 << 16))
        return re.sub(r"\?", lambda _: f"${next(numbers)}", super()._translate(sql))

    @staticmethod
    def json_value(value: Any) -> Any:
        """A jsonb column's value: the connection's codec has decoded it."""
        return value

    @staticmethod
    def _to_json(value: Any) -> Any:
        return value  # the connection's codec encodes it

    @staticmethod
    def _in(column: str, values: Sequence[Any], cast: str) -> tuple[str, list[Any]]:
        return f"{column} = ANY(?::{cast}[])", [list(values)]

    @staticmethod
    def _channel_taken(error: Exception) -> bool:
        return (
            isinstance(error, asyncpg.UniqueViolationError) and error.constraint_name == ACTIVE_CHANNEL_INDEX
        )

    @contextmanager
    def _full_is_store_full(self) -> Iterator[None]:
        """The server's "disk full" (SQLSTATE 53100) raised as `StoreFull`, as on SQLite."""
        try:
            yield
        except asyncpg.DiskFullError as error:
            raise StoreFull(
                f"{describe(self._url)} is full ({' '.join(str(error).split())}); nothing of this write was "
                "saved: free disk space on the server"
            ) from error

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[_Tx]:
        with self._full_is_store_full():
            async with self._pool.acquire() as conn, conn.transaction():
                yield _Tx(conn, self._sql)

    async def _fetch(self, sql: str, *params: Any) -> list[Row]:
        with self._full_is_store_full():
            rows: list[Row] = await self._pool.fetch(self._sql(sql), *params)
        return rows

    async def _fetchval(self, sql: str, *params: Any) -> Any:
        with self._full_is_store_full():
            return await self._pool.fetchval(sql, *params)

    async def _write(self, sql: str, *params: Any) -> int:
        with self._full_is_store_full():
            return _count(await self._pool.execute(self._sql(sql), *params))

    async def _write_fetch(self, sql: str, *params: Any) -> list[Row]:
        return await self._fetch(sql, *params)  # a single statement commits on its own

    async def _lock_ratings(self, tx: _Tx, game: str) -> None:  # type: ignore[override]
        await tx.fetch("SELECT pg_advisory_xact_lock(?, hashtext(?))", RATING_LOCK, game)

    # ------------------------------------------------------------------------------------- wake-ups

    async def listen(
        self,
        wake: Callable[[], None],
        *,
        shards: ShardFilter | None = None,
        changes: ChangeListener | None = None,
        matches: Callable[[MatchChange], None] | None = None,
    ) -> None:
        """Call `wake()` on every NOTIFY of a write that may move a turn clock (of a guild `shards` owns, when
        given), and `changes.changed(key)` on every NOTIFY of a changed setting or preference
        (`CHANGE_CHANNEL`), on a connection of its own, on this schema's channels only (`schema_channel`:
        other schemas of the database are other databases); runs until cancelled. A lost connection is opened
        again, and `wake()` and `changes.listening(True)` are called after each (re)connection, since
        notifications sent meanwhile are lost (`changes.listening(False)` when it is lost or this ends)."""

        def heard(_conn: Connection, _pid: int, _channel: str, payload: object) -> None:
            if shards is None or shards.owns(int(str(payload) or 0)):
                wake()

        def changed(_conn: Connection, _pid: int, _channel: str, payload: object) -> None:
            if changes is not None:
                changes.changed(str(payload))

        schema: list[str] = []  # this database's schema, read on the listening connection

        def match_changed(_conn: Connection, pid: int, _channel: str, payload: object) -> None:
            change = MatchChange.parse(
                str(payload), own=pid in self._own, schema=schema[0] if schema else None
            )
            if change is not None and matches is not None:
                matches(change)

        while True:
            try:
                conn = await asyncpg.connect(self._url)
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                log.warning("cannot listen for wake-ups on %s: %s", describe(self._url), _reason(error))
                await asyncio.sleep(self.RECONNECT_DELAY)
                continue
            lost = asyncio.Event()
            conn.add_termination_listener(lambda _conn, lost=lost: lost.set())
            try:
                schema[:] = [str(await conn.fetchval("SELECT current_schema()") or "")]
                await conn.add_listener(schema_channel(WAKE_CHANNEL, schema[0]), heard)
                await conn.add_listener(schema_channel(CHANGE_CHANNEL, schema[0]), changed)
                if matches is not None:
                    await conn.add_listener(schema_channel(MATCH_CHANNEL, schema[0]), match_changed)
                wake()
                if changes is not None:
                    changes.listening(True)
                await lost.wait()
            finally:
                if changes is not None:
                    changes.listening(False)
                if not conn.is_closed():
                    conn.terminate()
            log.warning("the wake-up connection to %s was lost; opening it again", describe(self._url))
            await asyncio.sleep(self.RECONNECT_DELAY)

    # ------------------------------------------------------------------ hand-tuned: one statement each

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
        # One statement: the guarded update, the moves and, if it ends, the seats' results.
        changed = await self._fetchval(
            "WITH updated AS ("
            "  UPDATE matches SET ply = $3, snapshot = $4, updated_at = $6, abort_votes = '[]',"
            "    takeback = NULL,"
            "    deadline = CASE WHEN $7::text IS NULL THEN $5::float8 END, status = COALESCE($7, status),"
            "    outcome = $8, finished_at = $9"
            "  WHERE id = $1 AND ply = $2 AND status = 'active' RETURNING id), "
            "added AS (INSERT INTO moves (match_id, ply, seat, notation, forced, at, clock) "
            "  SELECT updated.id, m.* FROM updated, "
            "  unnest($10::int[], $11::int[], $12::text[], $13::boolean[], $14::float8[], $17::float8[])"
            "  AS m), "
            "results AS (UPDATE match_seats s SET result = r.result FROM updated, "
            "  unnest($15::int[], $16::text[]) AS r (seat, result) "
            "  WHERE s.match_id = updated.id AND s.seat = r.seat) "
            "SELECT COUNT(*) FROM updated",
            match_id,
            expected_ply,
            expected_ply + len(moves),
            snapshot,
            deadline,
            now,
            *_finish_args(finish),
            [m.ply for m in moves],
            [m.seat for m in moves],
            [m.notation for m in moves],
            [m.forced for m in moves],
            [m.at for m in moves],
            *_results_args(finish),
            [m.clock for m in moves],
        )
        return bool(changed)

    async def finish_match(self, match_id: int, expected_ply: int, finish: Finish) -> bool:
        changed = await self._fetchval(
            "WITH updated AS ("
            "  UPDATE matches SET updated_at = $5, abort_votes = '[]', takeback = NULL, deadline = NULL,"
            "    status = $3, outcome = $4, finished_at = $5"
            "  WHERE id = $1 AND ply = $2 AND status = 'active' RETURNING id), "
            "results AS (UPDATE match_seats s SET result = r.result FROM updated, "
            "  unnest($6::int[], $7::text[]) AS r (seat, result) "
            "  WHERE s.match_id = updated.id AND s.seat = r.seat) "
            "SELECT COUNT(*) FROM updated",
            match_id,
            expected_ply,
            *_finish_args(finish),
            *_results_args(finish),
        )
        return bool(changed)

    async def rewind_match(
        self, match_id: int, expected_ply: int, to_ply: int, snapshot: str, deadline: float | None, now: float
    ) -> bool:
        changed = await self._fetchval(
            "WITH updated AS ("
            "  UPDATE matches SET ply = $3, snapshot = $4, deadline = $5, updated_at = $6,"
            "    abort_votes = '[]', takeback = NULL"
            "  WHERE id = $1 AND ply = $2 AND status = 'active' RETURNING id), "
            "removed AS (DELETE FROM moves USING updated "
            "  WHERE moves.match_id = updated.id AND moves.ply >= $3 RETURNING moves.ply, moves.notation), "
            "taken AS (INSERT INTO match_takebacks (match_id, from_ply, to_ply, moves, taken_at) "
            "  SELECT id, $2, $3, COALESCE((SELECT jsonb_agg(notation ORDER BY ply) FROM removed), '[]'), $6 "
            "  FROM updated ON CONFLICT (match_id) DO UPDATE SET from_ply = excluded.from_ply, "
            "  to_ply = excluded.to_ply, moves = excluded.moves, taken_at = excluded.taken_at) "
            "SELECT COUNT(*) FROM updated",
            match_id,
            expected_ply,
            to_ply,
            snapshot,
            deadline,
            now,
        )
        return bool(changed)


def _finish_args(finish: Finish | None) -> tuple[str | None, dict[str, Any] | None, float | None]:
    """The status, outcome and finish time a write stores: all None while the match goes on."""
    if finish is None:
        return None, None, None
    return finish.status.value, finish.outcome.to_json(), finish.at


def _results_args(finish: Finish | None) -> tuple[list[int], list[str | None]]:
    """The seats and their results as two arrays (empty while the match goes on)."""
    results = finish.results if finish is not None else {}
    return list(results), [r.value if r is not None else None for r in results.values()]


async def _migrate(conn: Connection) -> None:
    """Bring the schema to SCHEMA_VERSION in one transaction, holding the advisory lock all the while, so
    processes that start together wait for each other instead of racing. A version in the old numbering
    (schema.POSTGRES_LEGACY) is read as the same schema's version now."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        stored = await conn.fetchval("SELECT version FROM schema_version")
        if stored is None:
            stored = 0
            await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
        version = POSTGRES_LEGACY.get(stored, stored)
        if version > SCHEMA_VERSION:
            raise SchemaTooNew(
                f"its schema version {version} is newer than this code's ({SCHEMA_VERSION}); "
                "run a newer Tessera"
            )
        tx = _Tx(conn, PostgresStore._sql)
        for index in range(version, SCHEMA_VERSION):
            await migrate_step(tx, index, "postgresql", PostgresStore.json_value)
        await conn.execute("UPDATE schema_version SET version = $1", SCHEMA_VERSION)
