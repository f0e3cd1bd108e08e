"""The match store: SQL only, no game rules and no Discord.

`MatchStore` is the interface the match service uses; `SqliteStore` implements it on SQLite through aiosqlite
(WAL journal, foreign keys on, every write in one explicit transaction, plain portable SQL so that a
PostgreSQL store can stand beside it). `open_store(url)` picks the implementation from a URL:
``sqlite:///data/tessera.sqlite3`` (a file, relative to the working directory), ``sqlite:////abs/path.db`` or
``sqlite:///:memory:``.

The schema is versioned with ``PRAGMA user_version``; `MIGRATIONS[i]` brings version i to i + 1.

Races are settled in SQL: every change to a match is ``UPDATE matches ... WHERE id = ? AND ply = ?`` in the
same transaction as the rows that go with it, and a method that loses the race returns False.
Times are seconds since the epoch (floats); option and outcome columns hold JSON text.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import aiosqlite

log = logging.getLogger(__name__)

# ------------------------------------------------------------------------------------------------ records

ACTIVE = "active"
FINISHED = "finished"
ABORTED = "aborted"


@dataclass(frozen=True, slots=True)
class SeatRow:
    """Who sits in one seat: a user, or the bot itself playing at `ai_level`."""

    seat: int
    user_id: int
    ai_level: str | None = None
    player_key: str = ""
    result: str | None = None  # "win", "loss", "draw" once the match is over; None if aborted or running


@dataclass(frozen=True, slots=True)
class MoveRow:
    """One move of the log. Forced moves (automatic passes) are rows too, marked `forced`."""

    ply: int
    seat: int
    notation: str
    forced: bool
    at: float


@dataclass(frozen=True, slots=True)
class NewMatch:
    """Everything needed to insert a match."""

    game: str
    options: Mapping[str, Any]
    seed: int
    guild_id: int | None
    channel_id: int
    seats: tuple[SeatRow, ...]
    turn_timeout: float
    deadline: float | None
    snapshot: str
    rated: bool
    created_at: float


@dataclass(frozen=True, slots=True)
class MatchRow:
    """A match as stored. `snapshot` is the JSON text of the engine's `dump` after `ply` moves."""

    id: int
    game: str
    options: dict[str, Any]
    seed: int
    guild_id: int | None
    channel_id: int
    seats: tuple[SeatRow, ...]
    status: str
    ply: int
    turn_timeout: float
    deadline: float | None
    snapshot: str
    outcome: dict[str, Any] | None
    rated: bool
    ratings_applied: bool
    abort_votes: tuple[int, ...]
    takeback: dict[str, Any] | None
    created_at: float
    updated_at: float
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    id: int
    game: str
    options: dict[str, Any]
    guild_id: int | None
    channel_id: int
    challenger_id: int
    opponent_id: int
    status: str  # pending, accepted, declined, withdrawn, expired
    created_at: float
    expires_at: float
    match_id: int | None


@dataclass(frozen=True, slots=True)
class LobbyMemberRow:
    user_id: int
    ai_level: str | None
    joined_at: float


@dataclass(frozen=True, slots=True)
class LobbyRow:
    id: int
    game: str
    options: dict[str, Any]
    guild_id: int | None
    channel_id: int
    host_id: int
    seat_order: str  # "random" or "joined"
    max_players: int
    status: str  # open, started, closed
    created_at: float
    match_id: int | None
    members: tuple[LobbyMemberRow, ...]


@dataclass(frozen=True, slots=True)
class GuildSettingsRow:
    guild_id: int
    turn_timeout: float
    threads: bool
    allowed_channels: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RatingRow:
    game: str
    player_key: str
    mu: float
    sigma: float
    played: int = 0


@dataclass(frozen=True, slots=True)
class RatingChangeRow:
    """A player's rating before (None: first rated game) and after one match."""

    match_id: int
    player_key: str
    mu_before: float | None
    sigma_before: float | None
    mu_after: float
    sigma_after: float


@dataclass(frozen=True, slots=True)
class StatsRow:
    game: str
    played: int
    won: int
    lost: int
    drawn: int


@dataclass(frozen=True, slots=True)
class Finish:
    """How a match ends inside a write: the new status, the outcome JSON and each seat's result."""

    status: str
    outcome: Mapping[str, Any]
    results: Mapping[int, str | None]
    at: float


class StoreConflict(Exception):
    """A write found the row in another state than expected (another writer got there first)."""


class ChannelTaken(StoreConflict):
    """The channel already has an active match."""


RatingCompute = Callable[[dict[str, tuple[float, float] | None]], dict[str, tuple[float, float]]]
"""Given each player key's current (mu, sigma) or None if unrated, return each key's new (mu, sigma)."""


# ------------------------------------------------------------------------------------------------ interface


class MatchStore(Protocol):
    """Persistence for matches, moves, challenges, lobbies, guild settings and ratings."""

    async def close(self) -> None: ...

    # matches
    async def insert_match(
        self, new: NewMatch, *, challenge_id: int | None = None, lobby_id: int | None = None
    ) -> MatchRow:
        """Insert a match and its seats; close the challenge or lobby it came from in the same transaction.

        Raises ChannelTaken if the channel has an active match, StoreConflict if the challenge or lobby has
        moved on.
        """
        ...

    async def get_match(self, match_id: int) -> MatchRow | None: ...
    async def active_match_in_channel(self, channel_id: int) -> MatchRow | None: ...
    async def match_ids(self, status: str | None = None) -> list[int]: ...
    async def matches_of_user(
        self, user_id: int, status: str = ACTIVE, limit: int = 25
    ) -> list[MatchRow]: ...
    async def finished_matches(
        self, *, user_id: int | None, guild_id: int | None, game: str | None, limit: int
    ) -> list[MatchRow]: ...
    async def moves(self, match_id: int) -> list[MoveRow]: ...

    async def append_moves(
        self,
        match_id: int,
        expected_ply: int,
        moves: Sequence[MoveRow],
        snapshot: str,
        deadline: float | None,
        now: float,
        finish: Finish | None = None,
    ) -> bool:
        """Add moves and the new snapshot if the match is still active at `expected_ply`; clears requests."""
        ...

    async def finish_match(self, match_id: int, expected_ply: int, finish: Finish) -> bool:
        """End an active match at `expected_ply` without a move (resignation, timeout, abort)."""
        ...

    async def rewind_match(
        self, match_id: int, expected_ply: int, to_ply: int, snapshot: str, deadline: float | None, now: float
    ) -> bool:
        """Delete the moves from `to_ply` on and store the snapshot of the shorter log (a takeback)."""
        ...

    async def set_requests(
        self, match_id: int, expected_ply: int, abort_votes: Sequence[int], takeback: Mapping[str, Any] | None
    ) -> bool: ...

    async def next_deadline(self) -> float | None: ...
    async def due_matches(self, now: float) -> list[tuple[int, int]]:
        """(match id, ply) of active matches whose turn deadline has passed."""
        ...

    async def active_ai_match_ids(self) -> list[int]: ...
    async def unapplied_rated_match_ids(self) -> list[int]: ...

    # challenges
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
    ) -> ChallengeRow: ...

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None: ...
    async def set_challenge_status(
        self, challenge_id: int, status: str, *, expected: str = "pending"
    ) -> bool: ...
    async def pending_challenges(self, channel_id: int | None = None) -> list[ChallengeRow]: ...
    async def due_challenges(self, now: float) -> list[ChallengeRow]: ...
    async def next_challenge_expiry(self) -> float | None: ...

    # lobbies
    async def insert_lobby(
        self,
        game: str,
        options: Mapping[str, Any],
        guild_id: int | None,
        channel_id: int,
        host: LobbyMemberRow,
        host_id: int,
        seat_order: str,
        max_players: int,
        created_at: float,
    ) -> LobbyRow: ...

    async def get_lobby(self, lobby_id: int) -> LobbyRow | None: ...
    async def open_lobbies(self, channel_id: int | None = None) -> list[LobbyRow]: ...
    async def add_lobby_member(self, lobby_id: int, member: LobbyMemberRow) -> bool:
        """Add a member if the lobby is open, not full and (for a person) not already joined."""
        ...

    async def remove_lobby_member(self, lobby_id: int, user_id: int) -> bool: ...
    async def set_lobby_status(self, lobby_id: int, status: str, *, expected: str = "open") -> bool: ...

    # guild settings
    async def get_guild_settings(self, guild_id: int) -> GuildSettingsRow | None: ...
    async def put_guild_settings(self, row: GuildSettingsRow) -> None: ...

    # ratings and statistics
    async def apply_ratings(
        self, match_id: int, game: str, player_keys: Sequence[str], compute: RatingCompute, now: float
    ) -> list[RatingChangeRow] | None:
        """Rate a finished match once: None if it was already rated (the flag on the match is set)."""
        ...

    async def rating_changes(self, match_id: int) -> list[RatingChangeRow]: ...
    async def get_ratings(self, game: str, player_keys: Sequence[str]) -> dict[str, RatingRow]: ...
    async def leaderboard(self, game: str, guild_id: int | None, limit: int) -> list[RatingRow]: ...
    async def user_stats(self, user_id: int, guild_id: int | None = None) -> list[StatsRow]: ...


# ------------------------------------------------------------------------------------------------ schema

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE guild_settings (
            guild_id INTEGER PRIMARY KEY,
            turn_timeout REAL NOT NULL,
            threads INTEGER NOT NULL,
            allowed_channels TEXT NOT NULL
        )""",
        """CREATE TABLE matches (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            options TEXT NOT NULL,
            seed INTEGER NOT NULL,
            guild_id INTEGER,
            channel_id INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('active', 'finished', 'aborted')),
            ply INTEGER NOT NULL DEFAULT 0,
            turn_timeout REAL NOT NULL,
            deadline REAL,
            snapshot TEXT NOT NULL,
            outcome TEXT,
            rated INTEGER NOT NULL,
            ratings_applied INTEGER NOT NULL DEFAULT 0,
            abort_votes TEXT NOT NULL DEFAULT '[]',
            takeback TEXT,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            finished_at REAL
        )""",
        "CREATE UNIQUE INDEX matches_one_active_per_channel ON matches (channel_id) WHERE status = 'active'",
        "CREATE INDEX matches_deadline ON matches (deadline) WHERE status = 'active'",
        "CREATE INDEX matches_guild_game ON matches (guild_id, game, status)",
        """CREATE TABLE match_seats (
            match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            ai_level TEXT,
            player_key TEXT NOT NULL,
            result TEXT,
            PRIMARY KEY (match_id, seat)
        )""",
        "CREATE INDEX match_seats_user ON match_seats (user_id)",
        "CREATE INDEX match_seats_player ON match_seats (player_key)",
        """CREATE TABLE moves (
            match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
            ply INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            notation TEXT NOT NULL,
            forced INTEGER NOT NULL,
            at REAL NOT NULL,
            PRIMARY KEY (match_id, ply)
        )""",
        """CREATE TABLE challenges (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            options TEXT NOT NULL,
            guild_id INTEGER,
            channel_id INTEGER NOT NULL,
            challenger_id INTEGER NOT NULL,
            opponent_id INTEGER NOT NULL,
            status TEXT NOT NULL,
            created_at REAL NOT NULL,
            expires_at REAL NOT NULL,
            match_id INTEGER REFERENCES matches (id)
        )""",
        "CREATE INDEX challenges_pending ON challenges (expires_at) WHERE status = 'pending'",
        """CREATE TABLE lobbies (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            options TEXT NOT NULL,
            guild_id INTEGER,
            channel_id INTEGER NOT NULL,
            host_id INTEGER NOT NULL,
            seat_order TEXT NOT NULL,
            max_players INTEGER NOT NULL,
            status TEXT NOT NULL,
            created_at REAL NOT NULL,
            match_id INTEGER REFERENCES matches (id)
        )""",
        """CREATE TABLE lobby_members (
            lobby_id INTEGER NOT NULL REFERENCES lobbies (id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            ai_level TEXT,
            joined_at REAL NOT NULL,
            PRIMARY KEY (lobby_id, position)
        )""",
        """CREATE UNIQUE INDEX lobby_members_once ON lobby_members (lobby_id, user_id)
            WHERE ai_level IS NULL""",
        """CREATE TABLE ratings (
            game TEXT NOT NULL,
            player_key TEXT NOT NULL,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            updated_at REAL NOT NULL,
            PRIMARY KEY (game, player_key)
        )""",
        """CREATE TABLE rating_changes (
            match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
            player_key TEXT NOT NULL,
            mu_before REAL,
            sigma_before REAL,
            mu_after REAL NOT NULL,
            sigma_after REAL NOT NULL,
            PRIMARY KEY (match_id, player_key)
        )""",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)

_MATCH_COLUMNS = (
    "id, game, options, seed, guild_id, channel_id, status, ply, turn_timeout, deadline, snapshot, outcome, "
    "rated, ratings_applied, abort_votes, takeback, created_at, updated_at, finished_at"
)
_MATCH_COLUMNS_M = ", ".join(f"m.{name.strip()}" for name in _MATCH_COLUMNS.split(","))
_CHALLENGE_COLUMNS = (
    "id, game, options, guild_id, channel_id, challenger_id, opponent_id, status, created_at, expires_at, "
    "match_id"
)
_LOBBY_COLUMNS = (
    "id, game, options, guild_id, channel_id, host_id, seat_order, max_players, status, created_at, match_id"
)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _challenge(row: sqlite3.Row | tuple[Any, ...]) -> ChallengeRow:
    return ChallengeRow(
        id=row[0],
        game=row[1],
        options=json.loads(row[2]),
        guild_id=row[3],
        channel_id=row[4],
        challenger_id=row[5],
        opponent_id=row[6],
        status=row[7],
        created_at=row[8],
        expires_at=row[9],
        match_id=row[10],
    )


# ------------------------------------------------------------------------------------------------ sqlite


WAL_SIZE_LIMIT = 16 * 2**20
"""Bytes a WAL file is cut back to once it starts over."""


class SqliteStore:
    """`MatchStore` on SQLite. Writes go through one connection under a lock (SQLite has one writer anyway);
    a file database reads through a second connection, so readers only ever see committed data, and a third
    connection checkpoints the WAL in the background, so no move waits for a checkpoint's disk flush."""

    CHECKPOINT_EVERY = 500
    """Commits between two background WAL checkpoints."""

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

    @classmethod
    async def open(cls, path: str, *, synchronous: str = "NORMAL") -> SqliteStore:
        """Open (creating if needed) and migrate the database at `path` (":memory:" for a private one).

        WAL with ``synchronous=NORMAL`` survives any crash of the process; "FULL" survives power loss too.
        """
        memory = path == ":memory:"
        if not memory:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        opened: list[aiosqlite.Connection] = []
        try:
            writer = await aiosqlite.connect(path, isolation_level=None)
            opened.append(writer)
            await _configure(writer, synchronous, memory)
            await _migrate(writer)
            if memory:
                return cls(writer)
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
        return cls(writer, opened[1], opened[2])

    async def close(self) -> None:
        if self._checkpoint_task is not None:
            await self._checkpoint_task
        if self._checkpointer is not None:
            await self._checkpointer.close()
        if self._reader is not self._writer:
            await self._reader.close()
        await self._writer.close()

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
        async with self._write_lock:
            await self._writer.execute("BEGIN IMMEDIATE")
            try:
                yield self._writer
            except BaseException:
                await self._writer.execute("ROLLBACK")
                raise
            else:
                await self._writer.execute("COMMIT")
        self._committed()

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        # One call on the connection's thread runs the statement to its end, so its read transaction ends
        # with it: interleaved cursors of concurrent coroutines would otherwise hold an old snapshot open.
        return list(await self._reader.execute_fetchall(sql, params))

    async def _fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self._fetchall(sql, params)
        return rows[0] if rows else None

    # ----------------------------------------------------------------------------------------- matches

    async def _seats(self, match_ids: Sequence[int]) -> dict[int, list[SeatRow]]:
        seats: dict[int, list[SeatRow]] = {i: [] for i in match_ids}
        if not match_ids:
            return seats
        marks = ",".join("?" * len(match_ids))
        rows = await self._fetchall(
            f"SELECT match_id, seat, user_id, ai_level, player_key, result FROM match_seats "
            f"WHERE match_id IN ({marks}) ORDER BY match_id, seat",
            list(match_ids),
        )
        for r in rows:
            seats[r[0]].append(SeatRow(r[1], r[2], r[3], r[4], r[5]))
        return seats

    @staticmethod
    def _match_row(r: Sequence[Any], seats: Sequence[SeatRow]) -> MatchRow:
        return MatchRow(
            id=r[0],
            game=r[1],
            options=json.loads(r[2]),
            seed=r[3],
            guild_id=r[4],
            channel_id=r[5],
            seats=tuple(seats),
            status=r[6],
            ply=r[7],
            turn_timeout=r[8],
            deadline=r[9],
            snapshot=r[10],
            outcome=json.loads(r[11]) if r[11] is not None else None,
            rated=bool(r[12]),
            ratings_applied=bool(r[13]),
            abort_votes=tuple(json.loads(r[14])),
            takeback=json.loads(r[15]) if r[15] is not None else None,
            created_at=r[16],
            updated_at=r[17],
            finished_at=r[18],
        )

    async def _matches(self, where: str, params: Sequence[Any]) -> list[MatchRow]:
        rows = await self._fetchall(f"SELECT {_MATCH_COLUMNS} FROM matches {where}", params)
        seats = await self._seats([r[0] for r in rows])
        return [self._match_row(r, seats[r[0]]) for r in rows]

    async def _one_match(self, where: str, params: Sequence[Any]) -> MatchRow | None:
        """One match and its seats in a single query (the hot path of every move)."""
        rows = await self._fetchall(
            f"SELECT {_MATCH_COLUMNS_M}, s.seat, s.user_id, s.ai_level, s.player_key, s.result "
            f"FROM matches m JOIN match_seats s ON s.match_id = m.id {where} ORDER BY m.id, s.seat",
            params,
        )
        if not rows:
            return None
        first = rows[0][0]
        seats = [SeatRow(*r[19:24]) for r in rows if r[0] == first]
        return self._match_row(rows[0], seats)

    async def insert_match(
        self, new: NewMatch, *, challenge_id: int | None = None, lobby_id: int | None = None
    ) -> MatchRow:
        async with self._transaction() as db:
            if challenge_id is not None:
                rows = list(
                    await db.execute_fetchall("SELECT status FROM challenges WHERE id = ?", (challenge_id,))
                )
                if not rows or rows[0][0] != "pending":
                    raise StoreConflict(f"challenge {challenge_id} is no longer pending")
            if lobby_id is not None:
                rows = list(await db.execute_fetchall("SELECT status FROM lobbies WHERE id = ?", (lobby_id,)))
                if not rows or rows[0][0] != "open":
                    raise StoreConflict(f"lobby {lobby_id} is no longer open")
            busy = await db.execute_fetchall(
                "SELECT id FROM matches WHERE channel_id = ? AND status = 'active'", (new.channel_id,)
            )
            if list(busy):
                raise ChannelTaken(f"channel {new.channel_id} has an active match")
            cursor = await db.execute(
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
            await db.executemany(
                "INSERT INTO match_seats (match_id, seat, user_id, ai_level, player_key) "
                "VALUES (?, ?, ?, ?, ?)",
                [(match_id, s.seat, s.user_id, s.ai_level, s.player_key) for s in new.seats],
            )
            if challenge_id is not None:
                cursor = await db.execute(
                    "UPDATE challenges SET status = 'accepted', match_id = ? "
                    "WHERE id = ? AND status = 'pending'",
                    (match_id, challenge_id),
                )
                if cursor.rowcount != 1:
                    raise StoreConflict(f"challenge {challenge_id} is no longer pending")
            if lobby_id is not None:
                cursor = await db.execute(
                    "UPDATE lobbies SET status = 'started', match_id = ? WHERE id = ? AND status = 'open'",
                    (match_id, lobby_id),
                )
                if cursor.rowcount != 1:
                    raise StoreConflict(f"lobby {lobby_id} is no longer open")
        row = await self.get_match(match_id)
        assert row is not None
        return row

    async def get_match(self, match_id: int) -> MatchRow | None:
        return await self._one_match("WHERE m.id = ?", (match_id,))

    async def active_match_in_channel(self, channel_id: int) -> MatchRow | None:
        return await self._one_match("WHERE m.channel_id = ? AND m.status = 'active'", (channel_id,))

    async def match_ids(self, status: str | None = None) -> list[int]:
        if status is None:
            rows = await self._fetchall("SELECT id FROM matches ORDER BY id")
        else:
            rows = await self._fetchall("SELECT id FROM matches WHERE status = ? ORDER BY id", (status,))
        return [r[0] for r in rows]

    async def matches_of_user(self, user_id: int, status: str = ACTIVE, limit: int = 25) -> list[MatchRow]:
        return await self._matches(
            "WHERE status = ? AND id IN "
            "(SELECT match_id FROM match_seats WHERE user_id = ? AND ai_level IS NULL) "
            "ORDER BY id DESC LIMIT ?",
            (status, user_id, limit),
        )

    async def finished_matches(
        self, *, user_id: int | None, guild_id: int | None, game: str | None, limit: int
    ) -> list[MatchRow]:
        where = ["status IN ('finished', 'aborted')"]
        params: list[Any] = []
        if user_id is not None:
            where.append("id IN (SELECT match_id FROM match_seats WHERE user_id = ? AND ai_level IS NULL)")
            params.append(user_id)
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        if game is not None:
            where.append("game = ?")
            params.append(game)
        params.append(limit)
        return await self._matches(
            f"WHERE {' AND '.join(where)} ORDER BY finished_at DESC, id DESC LIMIT ?", params
        )

    async def moves(self, match_id: int) -> list[MoveRow]:
        rows = await self._fetchall(
            "SELECT ply, seat, notation, forced, at FROM moves WHERE match_id = ? ORDER BY ply", (match_id,)
        )
        return [MoveRow(r[0], r[1], r[2], bool(r[3]), r[4]) for r in rows]

    @staticmethod
    async def _write_finish(db: aiosqlite.Connection, match_id: int, finish: Finish) -> None:
        await db.execute(
            "UPDATE matches SET status = ?, outcome = ?, finished_at = ?, deadline = NULL WHERE id = ?",
            (finish.status, _dumps(dict(finish.outcome)), finish.at, match_id),
        )
        await db.executemany(
            "UPDATE match_seats SET result = ? WHERE match_id = ? AND seat = ?",
            [(result, match_id, seat) for seat, result in finish.results.items()],
        )

    async def append_moves(
        self,
        match_id: int,
        expected_ply: int,
        moves: Sequence[MoveRow],
        snapshot: str,
        deadline: float | None,
        now: float,
        finish: Finish | None = None,
    ) -> bool:
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET ply = ?, snapshot = ?, deadline = ?, updated_at = ?, abort_votes = '[]', "
                "takeback = NULL WHERE id = ? AND ply = ? AND status = 'active'",
                (expected_ply + len(moves), snapshot, deadline, now, match_id, expected_ply),
            )
            if cursor.rowcount != 1:
                return False
            await db.executemany(
                "INSERT INTO moves (match_id, ply, seat, notation, forced, at) VALUES (?, ?, ?, ?, ?, ?)",
                [(match_id, m.ply, m.seat, m.notation, int(m.forced), m.at) for m in moves],
            )
            if finish is not None:
                await self._write_finish(db, match_id, finish)
        return True

    async def finish_match(self, match_id: int, expected_ply: int, finish: Finish) -> bool:
        async with self._transaction() as db:
            cursor = await db.execute(
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
            cursor = await db.execute(
                "UPDATE matches SET ply = ?, snapshot = ?, deadline = ?, updated_at = ?, abort_votes = '[]', "
                "takeback = NULL WHERE id = ? AND ply = ? AND status = 'active'",
                (to_ply, snapshot, deadline, now, match_id, expected_ply),
            )
            if cursor.rowcount != 1:
                return False
            await db.execute("DELETE FROM moves WHERE match_id = ? AND ply >= ?", (match_id, to_ply))
        return True

    async def set_requests(
        self, match_id: int, expected_ply: int, abort_votes: Sequence[int], takeback: Mapping[str, Any] | None
    ) -> bool:
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET abort_votes = ?, takeback = ? "
                "WHERE id = ? AND ply = ? AND status = 'active'",
                (
                    _dumps(sorted(set(abort_votes))),
                    _dumps(dict(takeback)) if takeback is not None else None,
                    match_id,
                    expected_ply,
                ),
            )
            return cursor.rowcount == 1

    async def next_deadline(self) -> float | None:
        row = await self._fetchone("SELECT MIN(deadline) FROM matches WHERE status = 'active'")
        return None if row is None else row[0]

    async def due_matches(self, now: float) -> list[tuple[int, int]]:
        rows = await self._fetchall(
            "SELECT id, ply FROM matches WHERE status = 'active' AND deadline <= ? ORDER BY deadline, id",
            (now,),
        )
        return [(r[0], r[1]) for r in rows]

    async def active_ai_match_ids(self) -> list[int]:
        rows = await self._fetchall(
            "SELECT DISTINCT m.id FROM matches m JOIN match_seats s ON s.match_id = m.id "
            "WHERE m.status = 'active' AND s.ai_level IS NOT NULL ORDER BY m.id"
        )
        return [r[0] for r in rows]

    async def unapplied_rated_match_ids(self) -> list[int]:
        rows = await self._fetchall(
            "SELECT id FROM matches WHERE status = 'finished' AND rated = 1 AND ratings_applied = 0 "
            "ORDER BY id"
        )
        return [r[0] for r in rows]

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
    ) -> ChallengeRow:
        async with self._transaction() as db:
            cursor = await db.execute(
                "INSERT INTO challenges (game, options, guild_id, channel_id, challenger_id, opponent_id, "
                "status, "
                "created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)",
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

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = await self._fetchone(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE id = ?", (challenge_id,)
        )
        return None if row is None else _challenge(row)

    async def set_challenge_status(
        self, challenge_id: int, status: str, *, expected: str = "pending"
    ) -> bool:
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE challenges SET status = ? WHERE id = ? AND status = ?",
                (status, challenge_id, expected),
            )
            return cursor.rowcount == 1

    async def pending_challenges(self, channel_id: int | None = None) -> list[ChallengeRow]:
        if channel_id is None:
            rows = await self._fetchall(
                f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE status = 'pending' ORDER BY id"
            )
        else:
            rows = await self._fetchall(
                f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE status = 'pending' AND channel_id = ? "
                "ORDER BY id",
                (channel_id,),
            )
        return [_challenge(r) for r in rows]

    async def due_challenges(self, now: float) -> list[ChallengeRow]:
        rows = await self._fetchall(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE status = 'pending' AND expires_at <= ? "
            "ORDER BY expires_at, id",
            (now,),
        )
        return [_challenge(r) for r in rows]

    async def next_challenge_expiry(self) -> float | None:
        row = await self._fetchone("SELECT MIN(expires_at) FROM challenges WHERE status = 'pending'")
        return None if row is None else row[0]

    # ----------------------------------------------------------------------------------------- lobbies

    async def insert_lobby(
        self,
        game: str,
        options: Mapping[str, Any],
        guild_id: int | None,
        channel_id: int,
        host: LobbyMemberRow,
        host_id: int,
        seat_order: str,
        max_players: int,
        created_at: float,
    ) -> LobbyRow:
        async with self._transaction() as db:
            cursor = await db.execute(
                "INSERT INTO lobbies (game, options, guild_id, channel_id, host_id, seat_order, max_players, "
                "status, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?)",
                (
                    game,
                    _dumps(dict(options)),
                    guild_id,
                    channel_id,
                    host_id,
                    seat_order,
                    max_players,
                    created_at,
                ),
            )
            lobby_id = cursor.lastrowid
            await db.execute(
                "INSERT INTO lobby_members (lobby_id, position, user_id, ai_level, joined_at) "
                "VALUES (?, 0, ?, ?, ?)",
                (lobby_id, host.user_id, host.ai_level, host.joined_at),
            )
        assert lobby_id is not None
        row = await self.get_lobby(lobby_id)
        assert row is not None
        return row

    async def _lobbies(self, where: str, params: Sequence[Any]) -> list[LobbyRow]:
        rows = await self._fetchall(f"SELECT {_LOBBY_COLUMNS} FROM lobbies {where}", params)
        result = []
        for r in rows:
            members = await self._fetchall(
                "SELECT user_id, ai_level, joined_at FROM lobby_members WHERE lobby_id = ? ORDER BY position",
                (r[0],),
            )
            result.append(
                LobbyRow(
                    id=r[0],
                    game=r[1],
                    options=json.loads(r[2]),
                    guild_id=r[3],
                    channel_id=r[4],
                    host_id=r[5],
                    seat_order=r[6],
                    max_players=r[7],
                    status=r[8],
                    created_at=r[9],
                    match_id=r[10],
                    members=tuple(LobbyMemberRow(m[0], m[1], m[2]) for m in members),
                )
            )
        return result

    async def get_lobby(self, lobby_id: int) -> LobbyRow | None:
        rows = await self._lobbies("WHERE id = ?", (lobby_id,))
        return rows[0] if rows else None

    async def open_lobbies(self, channel_id: int | None = None) -> list[LobbyRow]:
        if channel_id is None:
            return await self._lobbies("WHERE status = 'open' ORDER BY id", ())
        return await self._lobbies("WHERE status = 'open' AND channel_id = ? ORDER BY id", (channel_id,))

    async def add_lobby_member(self, lobby_id: int, member: LobbyMemberRow) -> bool:
        async with self._transaction() as db:
            rows = list(
                await db.execute_fetchall("SELECT max_players, status FROM lobbies WHERE id = ?", (lobby_id,))
            )
            if not rows or rows[0][1] != "open":
                return False
            members = list(
                await db.execute_fetchall(
                    "SELECT user_id, ai_level, position FROM lobby_members WHERE lobby_id = ?", (lobby_id,)
                )
            )
            if len(members) >= rows[0][0]:
                return False
            if member.ai_level is None and any(m[0] == member.user_id and m[1] is None for m in members):
                return False
            position = max((m[2] for m in members), default=-1) + 1
            await db.execute(
                "INSERT INTO lobby_members (lobby_id, position, user_id, ai_level, joined_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (lobby_id, position, member.user_id, member.ai_level, member.joined_at),
            )
        return True

    async def remove_lobby_member(self, lobby_id: int, user_id: int) -> bool:
        async with self._transaction() as db:
            cursor = await db.execute(
                "DELETE FROM lobby_members WHERE lobby_id = ? AND user_id = ? AND ai_level IS NULL "
                "AND lobby_id IN (SELECT id FROM lobbies WHERE status = 'open')",
                (lobby_id, user_id),
            )
            return cursor.rowcount == 1

    async def set_lobby_status(self, lobby_id: int, status: str, *, expected: str = "open") -> bool:
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE lobbies SET status = ? WHERE id = ? AND status = ?", (status, lobby_id, expected)
            )
            return cursor.rowcount == 1

    # ----------------------------------------------------------------------------------------- guild settings

    async def get_guild_settings(self, guild_id: int) -> GuildSettingsRow | None:
        row = await self._fetchone(
            "SELECT guild_id, turn_timeout, threads, allowed_channels FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return None
        return GuildSettingsRow(row[0], row[1], bool(row[2]), tuple(json.loads(row[3])))

    async def put_guild_settings(self, row: GuildSettingsRow) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, turn_timeout, threads, allowed_channels) "
                "VALUES (?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET turn_timeout = excluded.turn_timeout, "
                "threads = excluded.threads, allowed_channels = excluded.allowed_channels",
                (row.guild_id, row.turn_timeout, int(row.threads), _dumps(list(row.allowed_channels))),
            )

    # ----------------------------------------------------------------------------------------- ratings

    async def apply_ratings(
        self, match_id: int, game: str, player_keys: Sequence[str], compute: RatingCompute, now: float
    ) -> list[RatingChangeRow] | None:
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE matches SET ratings_applied = 1 WHERE id = ? AND status = 'finished' AND rated = 1 "
                "AND ratings_applied = 0",
                (match_id,),
            )
            if cursor.rowcount != 1:
                return None
            marks = ",".join("?" * len(player_keys))
            rows = await db.execute_fetchall(
                f"SELECT player_key, mu, sigma FROM ratings WHERE game = ? AND player_key IN ({marks})",
                [game, *player_keys],
            )
            current: dict[str, tuple[float, float] | None] = dict.fromkeys(player_keys)
            for r in rows:
                current[r[0]] = (r[1], r[2])
            new = compute(current)
            changes = []
            for key in player_keys:
                mu, sigma = new[key]
                before = current[key]
                mu0, sigma0 = before if before is not None else (None, None)
                changes.append(RatingChangeRow(match_id, key, mu0, sigma0, mu, sigma))
                await db.execute(
                    "INSERT INTO ratings (game, player_key, mu, sigma, updated_at) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (game, player_key) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                    "updated_at = excluded.updated_at",
                    (game, key, mu, sigma, now),
                )
            await db.executemany(
                "INSERT INTO rating_changes "
                "(match_id, player_key, mu_before, sigma_before, mu_after, sigma_after) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (c.match_id, c.player_key, c.mu_before, c.sigma_before, c.mu_after, c.sigma_after)
                    for c in changes
                ],
            )
        return changes

    async def rating_changes(self, match_id: int) -> list[RatingChangeRow]:
        rows = await self._fetchall(
            "SELECT match_id, player_key, mu_before, sigma_before, mu_after, sigma_after FROM rating_changes "
            "WHERE match_id = ? ORDER BY player_key",
            (match_id,),
        )
        return [RatingChangeRow(*r) for r in rows]

    async def get_ratings(self, game: str, player_keys: Sequence[str]) -> dict[str, RatingRow]:
        if not player_keys:
            return {}
        marks = ",".join("?" * len(player_keys))
        rows = await self._fetchall(
            f"SELECT game, player_key, mu, sigma FROM ratings WHERE game = ? AND player_key IN ({marks})",
            [game, *player_keys],
        )
        return {r[1]: RatingRow(r[0], r[1], r[2], r[3]) for r in rows}

    async def leaderboard(self, game: str, guild_id: int | None, limit: int) -> list[RatingRow]:
        scope = "m.game = r.game AND m.status = 'finished' AND m.rated = 1"
        params: list[Any] = []
        if guild_id is not None:
            scope += " AND m.guild_id = ?"
            params.append(guild_id)
        rows = await self._fetchall(
            "SELECT r.game, r.player_key, r.mu, r.sigma, COUNT(DISTINCT m.id) AS played FROM ratings r "
            "JOIN match_seats s ON s.player_key = r.player_key "
            f"JOIN matches m ON m.id = s.match_id AND {scope} "
            "WHERE r.game = ? GROUP BY r.game, r.player_key, r.mu, r.sigma "
            "ORDER BY r.mu - 3 * r.sigma DESC, r.player_key LIMIT ?",
            [*params, game, limit],
        )
        return [RatingRow(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    async def user_stats(self, user_id: int, guild_id: int | None = None) -> list[StatsRow]:
        guild_filter = "" if guild_id is None else " AND m.guild_id = ?"
        params: list[Any] = [user_id] + ([] if guild_id is None else [guild_id])
        rows = await self._fetchall(
            "SELECT m.game, COUNT(*), "
            "SUM(CASE WHEN s.result = 'win' THEN 1 ELSE 0 END), "
            "SUM(CASE WHEN s.result = 'loss' THEN 1 ELSE 0 END), "
            "SUM(CASE WHEN s.result = 'draw' THEN 1 ELSE 0 END) "
            "FROM match_seats s JOIN matches m ON m.id = s.match_id "
            f"WHERE s.user_id = ? AND s.ai_level IS NULL AND m.status = 'finished'{guild_filter} "
            "GROUP BY m.game ORDER BY m.game",
            params,
        )
        return [StatsRow(r[0], r[1], r[2], r[3], r[4]) for r in rows]


async def _configure(db: aiosqlite.Connection, synchronous: str, memory: bool) -> None:
    if synchronous.upper() not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
        raise ValueError(f"unknown synchronous mode {synchronous!r}")
    # Row-returning pragmas are read to the end, so no statement is left in progress for a later COMMIT.
    await db.execute_fetchall("PRAGMA foreign_keys = ON")
    await db.execute_fetchall("PRAGMA busy_timeout = 5000")
    if not memory:
        mode = await db.execute_fetchall("PRAGMA journal_mode = WAL")
        if str(next(iter(mode))[0]).lower() != "wal":
            raise RuntimeError("the database could not be switched to WAL mode")
    await db.execute_fetchall(f"PRAGMA synchronous = {synchronous.upper()}")


async def _migrate(db: aiosqlite.Connection) -> None:
    """Bring the schema to SCHEMA_VERSION, one migration per transaction."""
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    version = int(row[0]) if row else 0
    if version > SCHEMA_VERSION:
        raise RuntimeError(f"database schema version {version} is newer than this code ({SCHEMA_VERSION})")
    for index in range(version, SCHEMA_VERSION):
        await db.execute("BEGIN IMMEDIATE")
        try:
            for statement in MIGRATIONS[index]:
                await db.execute(statement)
            await db.execute(f"PRAGMA user_version = {index + 1}")
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        await db.execute("COMMIT")


def sqlite_path(url: str) -> str:
    """The file path of a ``sqlite:///`` URL (``sqlite:///:memory:`` gives ":memory:")."""
    prefix = "sqlite:///"
    if not url.startswith(prefix):
        raise ValueError(f"not a SQLite URL: {url!r} (expected sqlite:///path/to/file.sqlite3)")
    path = url[len(prefix) :]
    if not path:
        raise ValueError(
            "the SQLite URL names no file: use sqlite:///data/tessera.sqlite3 or sqlite:///:memory:"
        )
    return path


async def open_store(url: str) -> MatchStore:
    """Open the store a database URL names. Only ``sqlite:///...`` is implemented so far."""
    if url.startswith("sqlite:"):
        return await SqliteStore.open(sqlite_path(url))
    scheme = url.split(":", 1)[0]
    raise ValueError(f"unsupported database URL scheme {scheme!r}: use sqlite:///data/tessera.sqlite3")
