"""`MatchStore` on PostgreSQL through an asyncpg pool: one database shared by several shard processes.

Same meaning as `SqliteStore`, method by method. Races between processes are settled by the database at
READ COMMITTED: the ply guard (``UPDATE ... WHERE ply = $n``, re-checked on the newest row version after a
wait), row locks (``SELECT ... FOR UPDATE``) where a write depends on what it read (requests, lobbies,
challenges, boards), a per-game advisory lock around rating updates, and the partial unique index on a
channel's active match (mapped to `ChannelTaken`). The hot writes (moves, endings, takebacks) are one
statement each. JSONB columns come back decoded; the schema (postgres_schema.py) is versioned in the table
``schema_version``. Writes that may move a turn clock send NOTIFY (a trigger); `listen` hears them.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar, cast
from urllib.parse import urlencode, urlsplit

import asyncpg

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
from bot.service.store.postgres_schema import (
    CHANGE_CHANNEL,
    MIGRATIONS,
    RECOUNT_RESIGNATION_PLIES,
    SCHEMA_VERSION,
    WAKE_CHANNEL,
)
from bot.service.upgrades import TILINGKING, recounted_snapshot, report_recounted
from games.base import RESIGN

log = logging.getLogger(__name__)

Row = asyncpg.Record
Connection = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy

MIGRATION_LOCK = 0x7E55E4A0
"""The advisory lock key migrations hold (any constant; the same in every process)."""
RATING_LOCK = 0x7E55E4A1
"""The first key of the per-game advisory locks rating updates hold (the second is the game's hash)."""
ACTIVE_CHANNEL_INDEX = "matches_one_active_per_channel"


def _count(status: str) -> int:
    """The row count of a command status such as ``UPDATE 1`` or ``INSERT 0 3``."""
    return int(status.rsplit(" ", 1)[1])


def _as_is(value: Any) -> Any:
    """A jsonb column's value: the connection's codec has decoded it."""
    return value


def _challenge(r: Row) -> Challenge:
    return Challenge(**{**dict(r), "status": ChallengeStatus(r["status"])})


def _shard_filter(shards: Shards | None, column: str = "guild_id") -> str:
    return "TRUE" if shards is None else shards.sql_filter(column)


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


async def _setup_connection(conn: asyncpg.Connection) -> None:
    """JSONB in and out as Python values."""
    await conn.set_type_codec(
        "jsonb",
        schema="pg_catalog",
        encoder=lambda v: json.dumps(v, separators=(",", ":")),
        decoder=json.loads,
    )


StoreMethod = TypeVar("StoreMethod", bound=Callable[..., Awaitable[Any]])


def _full_is_store_full(method: StoreMethod) -> StoreMethod:
    """`method`, with the server's "disk full" (SQLSTATE 53100) raised as `StoreFull`."""

    @functools.wraps(method)
    async def mapped(self: PostgresStore, *args: Any, **kwargs: Any) -> Any:
        try:
            return await method(self, *args, **kwargs)
        except asyncpg.DiskFullError as error:
            raise StoreFull(
                f"{describe(self._url)} is full ({' '.join(str(error).split())}); nothing of this write was "
                "saved: free disk space on the server"
            ) from error

    return cast(StoreMethod, mapped)


class PostgresStore:
    """`MatchStore` on PostgreSQL (see the module doc)."""

    RECONNECT_DELAY = 1.0
    """Seconds `listen` waits before it opens a lost connection again."""
    shared = True
    """Several shard processes write one database."""

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self._url = url

    @classmethod
    async def open(cls, url: str, *, pool_size: int = 10, timeout: float = 10.0) -> PostgresStore:
        """Connect to the database at `url` (``postgresql://user:password@host:port/name``) and migrate it.

        An unreachable server, a refused login or a missing database raise `StoreUnavailable` with one line
        saying which database (never the password) and what to do."""
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=pool_size,
                timeout=timeout,
                init=_setup_connection,
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
        return cls(pool, url)

    async def close(self) -> None:
        await self._pool.close()

    async def full_check(self) -> None:
        """Nothing to do: the server checks its own pages (see `MatchStore.full_check`)."""

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Connection]:
        async with self._pool.acquire() as conn, conn.transaction():
            yield conn

    async def schema_version(self) -> int:
        return int(await self._pool.fetchval("SELECT version FROM schema_version"))

    # ------------------------------------------------------------------------------------------- wake-ups

    async def listen(
        self, wake: Callable[[], None], *, shards: Shards | None = None, changes: ChangeListener | None = None
    ) -> None:
        """Call `wake()` on every NOTIFY of a write that may move a turn clock (of a guild `shards` owns, when
        given), and `changes.changed(key)` on every NOTIFY of a changed setting or preference
        (`CHANGE_CHANNEL`), on a connection of its own; runs until cancelled. A lost connection is opened
        again, and `wake()` and `changes.listening(True)` are called after each (re)connection, since
        notifications sent meanwhile are lost (`changes.listening(False)` when it is lost or this ends)."""

        def heard(_conn: Connection, _pid: int, _channel: str, payload: object) -> None:
            if shards is None or shards.owns(int(str(payload) or 0)):
                wake()

        def changed(_conn: Connection, _pid: int, _channel: str, payload: object) -> None:
            if changes is not None:
                changes.changed(str(payload))

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
                await conn.add_listener(WAKE_CHANNEL, heard)
                await conn.add_listener(CHANGE_CHANNEL, changed)
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

    # ------------------------------------------------------------------------------------------- matches

    async def _seats(self, match_ids: Sequence[int]) -> dict[int, list[Row]]:
        seats: dict[int, list[Row]] = {i: [] for i in match_ids}
        if match_ids:
            rows = await self._pool.fetch(
                "SELECT match_id, seat, user_id, ai_level, result FROM match_seats "
                "WHERE match_id = ANY($1::bigint[]) ORDER BY match_id, seat",
                list(match_ids),
            )
            for r in rows:
                seats[r["match_id"]].append(r)
        return seats

    async def _matches(self, where: str, *params: Any) -> list[MatchRecord]:
        rows = await self._pool.fetch(f"SELECT * FROM matches {where}", *params)
        seats = await self._seats([r["id"] for r in rows])
        return sound_matches(rows, seats, _as_is)

    async def _one_match(self, where: str, *params: Any) -> MatchRecord | None:
        """One match and its seats in a single query (the hot path of every move); DamagedRow if it breaks
        the schema's meaning (`match_from_row`)."""
        rows = await self._pool.fetch(
            joined_matches(where),
            *params,
        )
        if not rows:
            return None
        first = rows[0]["id"]
        seats = [r for r in rows if r["id"] == first and r["seat"] is not None]
        return match_from_row(rows[0], seats, _as_is)

    async def insert_match(
        self, new: NewMatch, *, challenge_id: int | None = None, lobby_id: int | None = None
    ) -> MatchRecord:
        async with self._transaction() as db:
            if challenge_id is not None:
                status = await db.fetchval(
                    "SELECT status FROM challenges WHERE id = $1 FOR UPDATE", challenge_id
                )
                if status != ChallengeStatus.PENDING:
                    raise StoreConflict(f"challenge {challenge_id} is no longer pending")
            if lobby_id is not None:
                status = await db.fetchval("SELECT status FROM lobbies WHERE id = $1 FOR UPDATE", lobby_id)
                if status != LobbyStatus.OPEN:
                    raise StoreConflict(f"lobby {lobby_id} is no longer open")
                members = await db.fetch(
                    "SELECT user_id, ai_level FROM lobby_members WHERE lobby_id = $1", lobby_id
                )
                if not same_players(((m["user_id"], m["ai_level"]) for m in members), new.seats):
                    raise LobbyChanged(f"the members of lobby {lobby_id} changed")
            try:
                match_id = await db.fetchval(
                    "INSERT INTO matches (game, options, seed, guild_id, channel_id, status, ply, "
                    "turn_timeout, deadline, snapshot, rated, created_at, updated_at) "
                    "VALUES ($1, $2, $3, $4, $5, 'active', 0, $6, $7, $8, $9, $10, $10) RETURNING id",
                    new.game,
                    dict(new.options),
                    new.seed,
                    new.guild_id,
                    new.channel_id,
                    new.turn_timeout,
                    new.deadline,
                    new.snapshot,
                    new.rated,
                    new.created_at,
                )
            except asyncpg.UniqueViolationError as error:
                if error.constraint_name == ACTIVE_CHANNEL_INDEX:
                    raise ChannelTaken(f"channel {new.channel_id} has an active match") from None
                raise
            await db.executemany(
                "INSERT INTO match_seats (match_id, seat, user_id, ai_level, player_key) "
                "VALUES ($1, $2, $3, $4, $5)",
                [(match_id, p.seat, p.user_id, p.ai_level, p.player_key) for p in new.seats],
            )
            if challenge_id is not None:
                await db.execute(
                    "UPDATE challenges SET status = 'accepted', match_id = $1 WHERE id = $2",
                    match_id,
                    challenge_id,
                )
            if lobby_id is not None:
                await db.execute(
                    "UPDATE lobbies SET status = 'started', match_id = $1 WHERE id = $2", match_id, lobby_id
                )
        row = await self.get_match(match_id)
        assert row is not None
        return row

    async def get_match(self, match_id: int) -> MatchRecord | None:
        return await self._one_match("WHERE m.id = $1", match_id)

    async def get_matches(self, match_ids: Sequence[int]) -> dict[int, MatchRecord | DamagedRow]:
        if not match_ids:
            return {}
        rows = await self._pool.fetch(joined_matches("WHERE m.id = ANY($1::bigint[])"), list(match_ids))
        return matches_from_joined(rows, _as_is)

    async def active_match_in_channel(self, channel_id: int) -> MatchRecord | None:
        return await self._one_match(
            "WHERE m.channel_id = $1 AND m.status = 'active' AND m.quarantine IS NULL", channel_id
        )

    async def match_ids(self, status: MatchStatus | None = None) -> list[int]:
        rows = await self._pool.fetch(
            "SELECT id FROM matches WHERE $1::text IS NULL OR status = $1 ORDER BY id", status
        )
        return [r["id"] for r in rows]

    async def matches_of_user(self, user_id: int, limit: int = 25) -> list[MatchRecord]:
        return await self._matches(
            "WHERE status = 'active' AND quarantine IS NULL AND id IN "
            "(SELECT match_id FROM match_seats WHERE user_id = $1 AND ai_level IS NULL) "
            "ORDER BY id DESC LIMIT $2",
            user_id,
            limit,
        )

    async def finished_matches(
        self, *, user_id: int | None, guild_id: int | None, game: str | None, limit: int
    ) -> list[tuple[MatchRecord, int]]:
        where = ["m.status IN ('finished', 'aborted')"]
        params: list[Any] = []
        source = "matches m"
        if user_id is not None:
            # The user's own seats drive the query: a player's matches are sorted, never a walk of the whole
            # server's finished matches (one statement per shape of filter, so each has its own plan).
            source = "match_seats s JOIN matches m ON m.id = s.match_id"
            params.append(user_id)
            where += [f"s.user_id = ${len(params)}", "s.ai_level IS NULL"]
        if guild_id is not None:
            params.append(guild_id)
            where.append(f"m.guild_id = ${len(params)}")
        if game is not None:
            params.append(game)
            where.append(f"m.game = ${len(params)}")
        params.append(limit)
        rows = await self._pool.fetch(history_query(source, " AND ".join(where), f"${len(params)}"), *params)
        return history_from_rows(rows, _as_is)

    async def moves(self, match_id: int) -> list[MoveRecord]:
        rows = await self._pool.fetch(
            "SELECT ply, seat, notation, forced, at FROM moves WHERE match_id = $1 ORDER BY ply", match_id
        )
        return [MoveRecord(**dict(r)) for r in rows]

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
        changed = await self._pool.fetchval(
            "WITH updated AS ("
            "  UPDATE matches SET ply = $3, snapshot = $4, updated_at = $6, abort_votes = '{}',"
            "    takeback = NULL,"
            "    deadline = CASE WHEN $7::text IS NULL THEN $5::float8 END, status = COALESCE($7, status),"
            "    outcome = $8, finished_at = $9"
            "  WHERE id = $1 AND ply = $2 AND status = 'active' RETURNING id), "
            "added AS (INSERT INTO moves (match_id, ply, seat, notation, forced, at) "
            "  SELECT updated.id, m.* FROM updated, "
            "  unnest($10::int[], $11::int[], $12::text[], $13::boolean[], $14::float8[]) AS m), "
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
        )
        return bool(changed)

    async def finish_match(self, match_id: int, expected_ply: int, finish: Finish) -> bool:
        changed = await self._pool.fetchval(
            "WITH updated AS ("
            "  UPDATE matches SET updated_at = $5, abort_votes = '{}', takeback = NULL, deadline = NULL,"
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
        changed = await self._pool.fetchval(
            "WITH updated AS ("
            "  UPDATE matches SET ply = $3, snapshot = $4, deadline = $5, updated_at = $6,"
            "    abort_votes = '{}', takeback = NULL"
            "  WHERE id = $1 AND ply = $2 AND status = 'active' RETURNING id), "
            "removed AS (DELETE FROM moves USING updated "
            "  WHERE moves.match_id = updated.id AND moves.ply >= $3) "
            "SELECT COUNT(*) FROM updated",
            match_id,
            expected_ply,
            to_ply,
            snapshot,
            deadline,
            now,
        )
        return bool(changed)

    async def update_requests(
        self, match_id: int, expected_ply: int, change: Callable[[Requests], Requests]
    ) -> Requests | None:
        async with self._transaction() as db:
            row = await db.fetchrow(
                "SELECT abort_votes, takeback FROM matches WHERE id = $1 AND ply = $2 AND status = 'active' "
                "FOR UPDATE",
                match_id,
                expected_ply,
            )
            if row is None:
                return None
            takeback = row["takeback"]
            current = Requests(
                tuple(row["abort_votes"]),
                TakebackRequest.from_json(takeback) if takeback is not None else None,
            )
            change_to = change(current)
            changed = Requests(tuple(dict.fromkeys(change_to.abort_votes)), change_to.takeback)
            await db.execute(
                "UPDATE matches SET abort_votes = $2, takeback = $3 WHERE id = $1",
                match_id,
                list(changed.abort_votes),
                changed.takeback.to_json() if changed.takeback is not None else None,
            )
        return changed

    async def next_deadline(self, *, shards: Shards | None = None) -> float | None:
        due: float | None = await self._pool.fetchval(
            "SELECT MIN(deadline) FROM matches WHERE status = 'active' AND quarantine IS NULL AND "
            + _shard_filter(shards)
        )
        return due

    async def due_matches(self, now: float, *, shards: Shards | None = None) -> list[tuple[int, int]]:
        rows = await self._pool.fetch(
            "SELECT id, ply FROM matches WHERE status = 'active' AND quarantine IS NULL AND deadline <= $1 "
            f"AND {_shard_filter(shards)} ORDER BY deadline, id",
            now,
        )
        return [(r["id"], r["ply"]) for r in rows]

    async def active_ai_match_ids(self, *, shards: Shards | None = None) -> list[int]:
        rows = await self._pool.fetch(
            "SELECT DISTINCT m.id FROM match_seats s JOIN matches m ON m.id = s.match_id "
            "WHERE s.ai_level IS NOT NULL AND m.status = 'active' AND m.quarantine IS NULL "
            f"AND {_shard_filter(shards, 'm.guild_id')} ORDER BY m.id"
        )
        return [r["id"] for r in rows]

    async def active_match_ids(self) -> list[int]:
        rows = await self._pool.fetch(
            "SELECT id FROM matches WHERE status = 'active' AND quarantine IS NULL ORDER BY id"
        )
        return [r["id"] for r in rows]

    async def unsettled_match_ids(self) -> list[int]:
        rows = await self._pool.fetch(
            "SELECT id FROM matches WHERE quarantine IS NULL "
            "AND (status IS NULL OR status NOT IN ('finished', 'aborted')) ORDER BY id"
        )
        return [r["id"] for r in rows]

    async def quarantine_match(self, match_id: int, reason: str) -> bool:
        status = await self._pool.execute(
            "UPDATE matches SET quarantine = $2, deadline = NULL WHERE id = $1 AND quarantine IS NULL",
            match_id,
            reason[:500],
        )
        return _count(status) == 1

    async def quarantined_match_ids(self) -> list[int]:
        rows = await self._pool.fetch("SELECT id FROM matches WHERE quarantine IS NOT NULL ORDER BY id")
        return [r["id"] for r in rows]

    async def unapplied_rated_match_ids(self) -> list[int]:
        rows = await self._pool.fetch(
            "SELECT id FROM matches WHERE status = 'finished' AND rated AND NOT ratings_applied ORDER BY id"
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
        row = await self._pool.fetchrow(
            "INSERT INTO challenges (game, options, guild_id, channel_id, challenger_id, opponent_id, "
            "status, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $8) RETURNING *",
            game,
            dict(options),
            guild_id,
            channel_id,
            challenger_id,
            opponent_id,
            created_at,
            expires_at,
        )
        assert row is not None
        return _challenge(row)

    async def get_challenge(self, challenge_id: int) -> Challenge | None:
        row = await self._pool.fetchrow("SELECT * FROM challenges WHERE id = $1", challenge_id)
        return None if row is None else _challenge(row)

    async def set_challenge_status(
        self,
        challenge_id: int,
        status: ChallengeStatus,
        *,
        expected: ChallengeStatus = ChallengeStatus.PENDING,
    ) -> bool:
        result = await self._pool.execute(
            "UPDATE challenges SET status = $1 WHERE id = $2 AND status = $3", status, challenge_id, expected
        )
        return _count(result) == 1

    async def pending_challenges(self, channel_id: int | None = None) -> list[Challenge]:
        rows = await self._pool.fetch(
            "SELECT * FROM challenges WHERE status = 'pending' AND ($1::bigint IS NULL OR channel_id = $1) "
            "ORDER BY id",
            channel_id,
        )
        return [_challenge(r) for r in rows]

    async def count_pending_challenges(
        self, *, challenger_id: int | None = None, channel_id: int | None = None
    ) -> int:
        count: int = await self._pool.fetchval(
            "SELECT COUNT(*) FROM challenges WHERE status = 'pending' "
            "AND ($1::bigint IS NULL OR challenger_id = $1) AND ($2::bigint IS NULL OR channel_id = $2)",
            challenger_id,
            channel_id,
        )
        return count

    async def due_challenges(self, now: float, *, shards: Shards | None = None) -> list[Challenge]:
        rows = await self._pool.fetch(
            "SELECT * FROM challenges WHERE status = 'pending' AND expires_at <= $1 "
            f"AND {_shard_filter(shards)} ORDER BY expires_at, id",
            now,
        )
        return [_challenge(r) for r in rows]

    async def next_challenge_expiry(self, *, shards: Shards | None = None) -> float | None:
        due: float | None = await self._pool.fetchval(
            f"SELECT MIN(expires_at) FROM challenges WHERE status = 'pending' AND {_shard_filter(shards)}"
        )
        return due

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
            lobby_id = await db.fetchval(
                "INSERT INTO lobbies (game, options, guild_id, channel_id, host_id, seat_order, max_players, "
                "status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', $8) RETURNING id",
                game,
                dict(options),
                guild_id,
                channel_id,
                host.user_id,
                seat_order,
                max_players,
                created_at,
            )
            await db.execute(
                "INSERT INTO lobby_members (lobby_id, position, user_id, ai_level, joined_at) "
                "VALUES ($1, 0, $2, $3, $4)",
                lobby_id,
                host.user_id,
                host.ai_level,
                host.joined_at,
            )
        row = await self.get_lobby(lobby_id)
        assert row is not None
        return row

    async def _lobbies(self, where: str, *params: Any) -> list[Lobby]:
        rows = await self._pool.fetch(f"SELECT * FROM lobbies {where}", *params)
        members: dict[int, list[LobbyMember]] = {r["id"]: [] for r in rows}
        if rows:
            for m in await self._pool.fetch(
                "SELECT lobby_id, user_id, ai_level, joined_at FROM lobby_members "
                "WHERE lobby_id = ANY($1::bigint[]) ORDER BY lobby_id, position",
                list(members),
            ):
                members[m["lobby_id"]].append(LobbyMember(m["user_id"], m["ai_level"], m["joined_at"]))
        return [
            Lobby(**{**dict(r), "status": LobbyStatus(r["status"]), "members": tuple(members[r["id"]])})
            for r in rows
        ]

    async def get_lobby(self, lobby_id: int) -> Lobby | None:
        rows = await self._lobbies("WHERE id = $1", lobby_id)
        return rows[0] if rows else None

    async def open_lobbies(self, channel_id: int | None = None) -> list[Lobby]:
        return await self._lobbies(
            "WHERE status = 'open' AND ($1::bigint IS NULL OR channel_id = $1) ORDER BY id", channel_id
        )

    async def count_open_lobbies(self, *, host_id: int | None = None, channel_id: int | None = None) -> int:
        count: int = await self._pool.fetchval(
            "SELECT COUNT(*) FROM lobbies WHERE status = 'open' "
            "AND ($1::bigint IS NULL OR host_id = $1) AND ($2::bigint IS NULL OR channel_id = $2)",
            host_id,
            channel_id,
        )
        return count

    async def add_lobby_member(self, lobby_id: int, member: LobbyMember) -> bool:
        async with self._transaction() as db:
            # The lobby row lock orders joins, leaves and the start of one lobby: none sees a stale count.
            lobby = await db.fetchrow(
                "SELECT max_players, status FROM lobbies WHERE id = $1 FOR UPDATE", lobby_id
            )
            if lobby is None or lobby["status"] != LobbyStatus.OPEN:
                return False
            members = await db.fetch(
                "SELECT user_id, ai_level, position FROM lobby_members WHERE lobby_id = $1", lobby_id
            )
            if len(members) >= lobby["max_players"]:
                return False
            if member.ai_level is None and any(
                m["user_id"] == member.user_id and m["ai_level"] is None for m in members
            ):
                return False
            await db.execute(
                "INSERT INTO lobby_members (lobby_id, position, user_id, ai_level, joined_at) "
                "VALUES ($1, $2, $3, $4, $5)",
                lobby_id,
                max((m["position"] for m in members), default=-1) + 1,
                member.user_id,
                member.ai_level,
                member.joined_at,
            )
        return True

    async def remove_lobby_member(self, lobby_id: int, user_id: int) -> bool:
        async with self._transaction() as db:
            status = await db.fetchval("SELECT status FROM lobbies WHERE id = $1 FOR UPDATE", lobby_id)
            if status != LobbyStatus.OPEN:
                return False
            result = await db.execute(
                "DELETE FROM lobby_members WHERE lobby_id = $1 AND user_id = $2 AND ai_level IS NULL",
                lobby_id,
                user_id,
            )
            return _count(result) == 1

    async def set_lobby_status(
        self, lobby_id: int, status: LobbyStatus, *, expected: LobbyStatus = LobbyStatus.OPEN
    ) -> bool:
        result = await self._pool.execute(
            "UPDATE lobbies SET status = $1 WHERE id = $2 AND status = $3", status, lobby_id, expected
        )
        return _count(result) == 1

    # ----------------------------------------------------------------------------------------- guild settings

    async def get_guild_settings(self, guild_id: int) -> GuildSettings | None:
        row = await self._pool.fetchrow("SELECT * FROM guild_settings WHERE guild_id = $1", guild_id)
        if row is None:
            return None
        return GuildSettings(
            row["guild_id"],
            row["turn_timeout"],
            row["threads"],
            tuple(row["allowed_channels"]),
            row["locale"],
        )

    async def put_guild_settings(self, settings: GuildSettings) -> None:
        await self._pool.execute(
            "INSERT INTO guild_settings (guild_id, turn_timeout, threads, allowed_channels, locale) "
            "VALUES ($1, $2, $3, $4, $5) "
            "ON CONFLICT (guild_id) DO UPDATE SET turn_timeout = excluded.turn_timeout, "
            "threads = excluded.threads, allowed_channels = excluded.allowed_channels, "
            "locale = excluded.locale",
            settings.guild_id,
            settings.turn_timeout,
            settings.threads,
            list(settings.allowed_channels),
            settings.locale,
        )

    # --------------------------------------------------------------------------------------------- meta

    async def get_meta(self, key: str) -> str | None:
        value: str | None = await self._pool.fetchval("SELECT value FROM meta WHERE key = $1", key)
        return value

    async def put_meta(self, key: str, value: str) -> None:
        await self._pool.execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            key,
            value,
        )

    # --------------------------------------------------------------------------------------------- ratings

    async def apply_ratings(
        self, match_id: int, game: str, player_keys: Sequence[str], compute: RatingCompute, now: float
    ) -> list[RatingChange] | None:
        async with self._transaction() as db:
            flagged = await db.fetchrow(
                "UPDATE matches SET ratings_applied = TRUE WHERE id = $1 AND status = 'finished' AND rated "
                "AND NOT ratings_applied RETURNING guild_id",
                match_id,
            )
            if flagged is None:
                return None
            # Matches of one game rate one at a time, so two sharing a player never both start from the
            # same rating (the rows of new players do not exist yet, so row locks could not order them).
            await db.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))", RATING_LOCK, game)
            rows = await db.fetch(
                "SELECT player_key, mu, sigma FROM ratings WHERE game = $1 AND player_key = ANY($2::text[])",
                game,
                list(player_keys),
            )
            current: dict[str, tuple[float, float] | None] = dict.fromkeys(player_keys)
            current.update({r["player_key"]: (r["mu"], r["sigma"]) for r in rows})
            changes = rating_changes_of(match_id, player_keys, current, compute)
            await db.executemany(
                "INSERT INTO ratings (game, player_key, mu, sigma, updated_at, played) "
                "VALUES ($1, $2, $3, $4, $5, 1) "
                "ON CONFLICT (game, player_key) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                "updated_at = excluded.updated_at, played = ratings.played + 1",
                [(game, c.player_key, c.mu_after, c.sigma_after, now) for c in changes],
            )
            if flagged["guild_id"] is not None:
                await db.executemany(
                    "INSERT INTO guild_ratings (guild_id, game, player_key, played) VALUES ($1, $2, $3, 1) "
                    "ON CONFLICT (guild_id, game, player_key) "
                    "DO UPDATE SET played = guild_ratings.played + 1",
                    [(flagged["guild_id"], game, key) for key in player_keys],
                )
            # Every server's board of these players shows their new ratings (a copy kept for its index).
            await db.execute(
                "UPDATE guild_ratings g SET mu = r.mu, sigma = r.sigma FROM ratings r "
                "WHERE r.game = $1 AND r.player_key = ANY($2::text[]) "
                "AND g.game = r.game AND g.player_key = r.player_key",
                game,
                list(player_keys),
            )
            await db.executemany(
                "INSERT INTO rating_changes "
                "(match_id, player_key, mu_before, sigma_before, mu_after, sigma_after) "
                "VALUES ($1, $2, $3, $4, $5, $6)",
                [
                    (c.match_id, c.player_key, c.mu_before, c.sigma_before, c.mu_after, c.sigma_after)
                    for c in changes
                ],
            )
        return changes

    async def rating_changes(self, match_id: int) -> list[RatingChange]:
        rows = await self._pool.fetch(
            "SELECT * FROM rating_changes WHERE match_id = $1 ORDER BY player_key", match_id
        )
        return [RatingChange(**dict(r)) for r in rows]

    async def get_ratings(self, game: str, player_keys: Sequence[str]) -> dict[str, Rating]:
        rows = await self._pool.fetch(
            "SELECT game, player_key, mu, sigma, played FROM ratings "
            "WHERE game = $1 AND player_key = ANY($2::text[])",
            game,
            list(player_keys),
        )
        return {r["player_key"]: rating_from_row(r) for r in rows}

    async def leaderboard(
        self, game: str, guild_id: int | None, limit: int, max_sigma: float
    ) -> list[Rating]:
        if guild_id is None:
            rows = await self._pool.fetch(
                "SELECT game, player_key, mu, sigma, played FROM ratings WHERE game = $1 AND played > 0 "
                "AND sigma <= $2 AND player_key LIKE 'user:%' ORDER BY mu DESC, player_key DESC LIMIT $3",
                game,
                max_sigma,
                limit,
            )
        else:
            # The guild's own copy of each rating: guild_ratings_board walks it in order and stops.
            rows = await self._pool.fetch(
                "SELECT game, player_key, mu, sigma, played FROM guild_ratings "
                "WHERE guild_id = $1 AND game = $2 AND sigma <= $3 AND player_key LIKE 'user:%' "
                "ORDER BY mu DESC, player_key DESC LIMIT $4",
                guild_id,
                game,
                max_sigma,
                limit,
            )
        return [rating_from_row(r) for r in rows]

    async def user_stats(self, user_id: int, guild_id: int | None = None) -> list[UserStats]:
        rows = await self._pool.fetch(
            "SELECT m.game, COUNT(*) AS played, "
            "COUNT(*) FILTER (WHERE s.result = 'win') AS won, "
            "COUNT(*) FILTER (WHERE s.result = 'loss') AS lost, "
            "COUNT(*) FILTER (WHERE s.result = 'draw') AS drawn "
            "FROM match_seats s JOIN matches m ON m.id = s.match_id "
            "WHERE s.user_id = $1 AND s.ai_level IS NULL AND m.status = 'finished' "
            "AND ($2::bigint IS NULL OR m.guild_id = $2) GROUP BY m.game ORDER BY m.game",
            user_id,
            guild_id,
        )
        return [UserStats(r["game"], r["played"], r["won"], r["lost"], r["drawn"]) for r in rows]

    # ---------------------------------------------------------------------------------------- preferences

    async def get_user_prefs(self, user_id: int) -> UserPrefs | None:
        row = await self._pool.fetchrow("SELECT theme, reminders FROM user_prefs WHERE user_id = $1", user_id)
        if row is None:
            return None
        return user_prefs_from_row(user_id, row["theme"], row["reminders"])

    async def put_user_prefs(self, prefs: UserPrefs, now: float) -> None:
        await self._pool.execute(
            "INSERT INTO user_prefs (user_id, theme, reminders, updated_at) VALUES ($1, $2, $3, $4) "
            "ON CONFLICT (user_id) DO UPDATE SET theme = excluded.theme, reminders = excluded.reminders, "
            "updated_at = excluded.updated_at",
            prefs.user_id,
            prefs.theme,
            prefs.reminders.value,
            now,
        )

    async def get_guild_theme(self, guild_id: int) -> str | None:
        theme: str | None = await self._pool.fetchval(
            "SELECT theme FROM guild_prefs WHERE guild_id = $1", guild_id
        )
        return theme

    async def set_guild_theme(self, guild_id: int, theme: str, now: float) -> None:
        await self._pool.execute(
            "INSERT INTO guild_prefs (guild_id, theme, updated_at) VALUES ($1, $2, $3) "
            "ON CONFLICT (guild_id) DO UPDATE SET theme = excluded.theme, updated_at = excluded.updated_at",
            guild_id,
            theme,
            now,
        )

    # ------------------------------------------------------------------------------------ posted messages

    async def swap_board_message(
        self, match_id: int, posted: PostedMessage, now: float
    ) -> PostedMessage | None:
        async with self._transaction() as db:
            # The match row lock orders two swaps of one match even when neither board row exists yet.
            await db.execute("SELECT 1 FROM matches WHERE id = $1 FOR UPDATE", match_id)
            row = await db.fetchrow(
                "SELECT channel_id, message_id FROM board_messages WHERE match_id = $1", match_id
            )
            previous = PostedMessage(row["channel_id"], row["message_id"]) if row is not None else None
            if previous is not None and previous.message_id >= posted.message_id:
                # A newer board is recorded already (or this one again): this one is the superseded one.
                return None if previous == posted else posted
            await db.execute(
                "INSERT INTO board_messages (match_id, channel_id, message_id, posted_at) "
                "VALUES ($1, $2, $3, $4) ON CONFLICT (match_id) DO UPDATE SET "
                "channel_id = excluded.channel_id, message_id = excluded.message_id, "
                "posted_at = excluded.posted_at",
                match_id,
                posted.channel_id,
                posted.message_id,
                now,
            )
            return previous

    async def get_board_message(self, match_id: int) -> PostedMessage | None:
        row = await self._pool.fetchrow(
            "SELECT channel_id, message_id FROM board_messages WHERE match_id = $1", match_id
        )
        return None if row is None else PostedMessage(row["channel_id"], row["message_id"])

    async def put_challenge_message(self, challenge_id: int, posted: PostedMessage, now: float) -> None:
        await self._pool.execute(
            "INSERT INTO challenge_messages (challenge_id, channel_id, message_id, posted_at) "
            "VALUES ($1, $2, $3, $4) ON CONFLICT (challenge_id) DO UPDATE SET "
            "channel_id = excluded.channel_id, message_id = excluded.message_id, "
            "posted_at = excluded.posted_at",
            challenge_id,
            posted.channel_id,
            posted.message_id,
            now,
        )

    async def get_challenge_message(self, challenge_id: int) -> PostedMessage | None:
        row = await self._pool.fetchrow(
            "SELECT channel_id, message_id FROM challenge_messages WHERE challenge_id = $1", challenge_id
        )
        return None if row is None else PostedMessage(row["channel_id"], row["message_id"])

    # ------------------------------------------------------------------------------------- turn reminders

    # $1 min_turn, $2 fraction, $3 max_delay
    _REMINDABLE = (
        "FROM matches m WHERE m.status = 'active' AND m.quarantine IS NULL AND m.deadline IS NOT NULL "
        "AND m.turn_timeout >= $1 "
        "AND EXISTS (SELECT 1 FROM match_seats s JOIN user_prefs p ON p.user_id = s.user_id "
        "WHERE s.match_id = m.id AND s.ai_level IS NULL AND p.reminders <> 'off') "
        "AND NOT EXISTS (SELECT 1 FROM turn_reminders r WHERE r.match_id = m.id AND r.deadline = m.deadline)"
    )
    _REMINDER_DUE = "m.deadline - m.turn_timeout + LEAST(m.turn_timeout * $2, $3)"

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
        rows = await self._pool.fetch(
            f"SELECT m.id, m.deadline, {self._REMINDER_DUE} AS due {self._REMINDABLE} "
            f"AND {self._REMINDER_DUE} <= $4 AND {_shard_filter(shards, 'm.guild_id')} "
            "ORDER BY due, m.id LIMIT $5",
            min_turn,
            fraction,
            max_delay,
            now,
            limit,
        )
        return [(r["id"], r["deadline"]) for r in rows]

    async def next_turn_reminder(
        self, *, min_turn: float, fraction: float, max_delay: float, shards: Shards | None = None
    ) -> float | None:
        due: float | None = await self._pool.fetchval(
            f"SELECT MIN({self._REMINDER_DUE}) {self._REMINDABLE} AND {_shard_filter(shards, 'm.guild_id')}",
            min_turn,
            fraction,
            max_delay,
        )
        return due

    async def claim_turn_reminder(self, match_id: int, deadline: float, now: float) -> bool:
        result = await self._pool.execute(
            "INSERT INTO turn_reminders (match_id, deadline, sent_at) "
            "SELECT id, deadline, $1 FROM matches WHERE id = $2 AND status = 'active' AND deadline = $3 "
            "ON CONFLICT (match_id) DO UPDATE SET deadline = excluded.deadline, "
            "sent_at = excluded.sent_at WHERE turn_reminders.deadline <> excluded.deadline",
            now,
            match_id,
            deadline,
        )
        return _count(result) == 1


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
    processes that start together wait for each other instead of racing."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        version = await conn.fetchval("SELECT version FROM schema_version")
        if version is None:
            version = 0
            await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
        if version > SCHEMA_VERSION:
            raise SchemaTooNew(
                f"its schema version {version} is newer than this code's ({SCHEMA_VERSION}); "
                "run a newer Tessera"
            )
        for index in range(version, SCHEMA_VERSION):
            for statement in MIGRATIONS[index]:
                await conn.execute(statement)
            if index == RECOUNT_RESIGNATION_PLIES:
                await _recount_resignation_plies(conn)
        await conn.execute("UPDATE schema_version SET version = $1", SCHEMA_VERSION)


async def _recount_resignation_plies(conn: Connection) -> None:
    """The data step of migration RECOUNT_RESIGNATION_PLIES, in the migration's transaction (so under its
    advisory lock): each TilingKing match whose log has a resignation gets the snapshot
    `upgrades.recounted_snapshot` gives, if it gives one."""
    found = await conn.fetch(
        "SELECT id FROM matches m WHERE game = $1 "
        "AND EXISTS (SELECT 1 FROM moves WHERE match_id = m.id AND notation = $2) ORDER BY id",
        TILINGKING,
        RESIGN,
    )
    recounted = []
    for (match_id,) in found:
        [row] = await conn.fetch(
            "SELECT options, seed, snapshot, "
            "(SELECT COUNT(*) FROM match_seats WHERE match_id = m.id) AS seats FROM matches m WHERE id = $1",
            match_id,
        )
        moves = await conn.fetch(
            "SELECT seat, notation FROM moves WHERE match_id = $1 ORDER BY ply", match_id
        )
        entries = [(m["seat"], m["notation"]) for m in moves]
        snapshot = recounted_snapshot(
            row["seats"], row["options"], row["seed"], entries, row["snapshot"], json_value=_as_is
        )
        if snapshot is not None:
            await conn.execute("UPDATE matches SET snapshot = $1 WHERE id = $2", snapshot, match_id)
            recounted.append(match_id)
    report_recounted(recounted)


for _name, _method in list(vars(PostgresStore).items()):
    # Every public query (a write may come from any of them): a full disk is StoreFull, as on SQLite.
    if (
        not _name.startswith("_")
        and _name not in {"close", "listen"}
        and inspect.iscoroutinefunction(_method)
    ):
        setattr(PostgresStore, _name, _full_is_store_full(_method))
