"""`SqlStore`: every query of the store, written once for both databases.

A query is written with ``?`` placeholders and ``{TOKEN}``s for the little SQL that differs (schema.py's
`TOKENS` and `QUERY_TOKENS` here); each database's store (sqlite.py, postgres.py) translates a statement once
(``$n`` placeholders for asyncpg) and caches it. The subclass is the dialect: it owns the connections and
transactions (`_fetch`, `_transaction`), how JSON and lists of values are passed (`_to_json`, `json_value`,
`_in`), which error means the channel is taken, and its own few statements (PostgreSQL's single-statement
moves, advisory locks and LISTEN; SQLite's checks of the file and WAL checkpoints).
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Coroutine, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, Protocol, TypeVar

from bot.service.records import (
    BoardPosted,
    Challenge,
    ChallengeStatus,
    DailyPuzzleChannel,
    DrawOffer,
    DrawState,
    Finish,
    GuildSettings,
    Lobby,
    LobbyMember,
    LobbyStatus,
    MatchRecord,
    MatchStatus,
    MoveRecord,
    NewMatch,
    NewPuzzle,
    PostedMessage,
    PuzzlePlayer,
    PuzzleRecord,
    Rating,
    RatingChange,
    RematchRecord,
    RematchStatus,
    RequestMessage,
    Requests,
    StreakRun,
    TakebackRecord,
    TakebackRequest,
    UserPrefs,
    UserStats,
)
from bot.service.store.base import (
    ChangeListener,
    ChannelTaken,
    DamagedRow,
    LobbyChanged,
    MatchChange,
    OutboxItem,
    PuzzleCompute,
    RatingCompute,
    Row,
    ShardFilter,
    StoreConflict,
    StoredTournament,
    TournamentGameTaken,
    TournamentWrite,
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
from bot.service.store.schema import (
    ESTABLISHED,
    ESTABLISHED_SIGMA,
    GUILD_ESTABLISHED,
    MIGRATIONS,
    RECOUNT_RESIGNATION_PLIES,
    TOKENS,
    Kind,
    statements,
)
from bot.service.store.upgrades import TILINGKING, recounted_snapshot, report_recounted
from games.base import RESIGN

QUERY_TOKENS: Mapping[Kind, Mapping[str, str]] = {
    "sqlite": {
        **TOKENS["sqlite"],
        # A write transaction holds the whole database already (BEGIN IMMEDIATE).
        "FOR_UPDATE": "",
        "LEAST": "MIN",
        # The user's own seats drive the history query: CROSS JOIN keeps SQLite's planner to that order.
        "SEATS_FIRST": "CROSS JOIN",
        # SQLite orders every number before every text or blob: `deadline < ''` is a number, `deadline >=
        # ''` a deadline that is none (a damaged row). The clock sleeps towards numbers only, and takes a
        # damaged deadline as due at once, so reading the match sets it aside instead of the clock
        # tripping on it.
        "A_NUMBER": "deadline < ''",
        "NOT_A_NUMBER": "deadline >= ''",
    },
    "postgresql": {
        **TOKENS["postgresql"],
        "FOR_UPDATE": " FOR UPDATE",
        "LEAST": "LEAST",
        "SEATS_FIRST": "JOIN",
        # A DOUBLE PRECISION column holds numbers only.
        "A_NUMBER": "TRUE",
        "NOT_A_NUMBER": "FALSE",
    },
}


class Tx(Protocol):
    """One transaction's statements (written as `SqlStore`'s queries are)."""

    async def fetch(self, sql: str, *params: Any) -> Sequence[Row]: ...
    async def run(self, sql: str, *params: Any) -> int:
        """Run a write; the number of rows it changed."""
        ...

    async def run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...


T = TypeVar("T")
Work = Callable[[Tx], Coroutine[Any, Any, T]]
"""The body of a write transaction for `SqlStore._atomic`: it awaits nothing but its `Tx`'s calls."""


_PUZZLE = "p.*, t.theme AS theme FROM puzzles p LEFT JOIN puzzle_themes t ON t.puzzle_id = p.id"
"""A puzzle's columns with its theme, and the tables they come from (alias p)."""


def _puzzle_where(game: str | None, starter: bool | None) -> tuple[str, list[Any]]:
    """The condition on puzzles (alias p) of `game` (any: None), starter ones (the pools shipped with the
    games, negative source_match) or mined ones (any: None), and its parameters."""
    where, params = ["1 = 1"], []
    if game is not None:
        where.append("p.game = ?")
        params.append(game)
    if starter is not None:
        where.append("p.source_match < 0" if starter else "p.source_match > 0")
    return " AND ".join(where), params


def _shard_filter(shards: ShardFilter | None, column: str = "guild_id") -> str:
    return "1 = 1" if shards is None else shards.sql_filter(column)


def _where(*terms: tuple[str, Any]) -> tuple[str, list[Any]]:
    """`AND`ed ``column = ?`` terms of the filters that are given (a None value leaves its term out)."""
    given = [(term, value) for term, value in terms if value is not None]
    return "".join(f" AND {term} = ?" for term, _ in given), [value for _, value in given]


def _challenge(r: Row, json_value: Callable[[Any], Any]) -> Challenge:
    return Challenge(
        id=r["id"],
        game=r["game"],
        options=json_value(r["options"]),
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        challenger_id=r["challenger_id"],
        opponent_id=r["opponent_id"],
        status=ChallengeStatus(r["status"]),
        created_at=r["created_at"],
        expires_at=r["expires_at"],
        match_id=r["match_id"],
        side=bool(r["side"]),
    )


class SqlStore(ABC):
    """`MatchStore` over SQL; a subclass per database supplies the dialect (see the module doc): the three
    abstract methods below, which a subclass must define (Python refuses to make a store without them)."""

    KIND: ClassVar[Kind]
    MATCH_BATCH: ClassVar[int] = 500
    """Matches `get_matches` reads per query (SQLite bounds the values one statement may bind)."""
    _translated: ClassVar[dict[str, str]]
    TRANSLATED_MOST: ClassVar[int] = 4096
    """Translated statements kept at most (a text with a list of values is one per length)."""

    # ------------------------------------------------------------------------------- the dialect's part

    @classmethod
    def _sql(cls, sql: str) -> str:
        """`sql` as this database takes it (tokens replaced), translated once and cached."""
        found = cls._translated.get(sql)
        if found is None:
            if len(cls._translated) >= cls.TRANSLATED_MOST:  # texts made per call (lists of values) pile up
                cls._translated.clear()
            found = cls._translated[sql] = cls._translate(sql)
        return found

    @classmethod
    def _translate(cls, sql: str) -> str:
        tokens = QUERY_TOKENS[cls.KIND]
        return re.sub(r"\{([A-Z_]+)\}", lambda m: tokens[m.group(1)], sql)

    @staticmethod
    def json_value(value: Any) -> Any:
        """A JSON column's value as read (JSON text on SQLite)."""
        return json.loads(value)

    @staticmethod
    def _to_json(value: Any) -> Any:
        """A value for a JSON column as written (JSON text on SQLite, compact and with keys sorted)."""
        return json.dumps(value, separators=(",", ":"), sort_keys=True)

    @staticmethod
    def _in(column: str, values: Sequence[Any], cast: str) -> tuple[str, list[Any]]:
        """``column`` is one of `values` (a SQL term and its parameters); `cast` names the values' type."""
        return f"{column} IN ({','.join('?' * len(values))})", list(values)

    @staticmethod
    @abstractmethod
    def _channel_taken(error: Exception) -> bool:
        """Whether a failed insert of a match broke the one-active-match-per-channel index."""

    @abstractmethod
    async def _fetch(self, sql: str, *params: Any) -> Sequence[Row]:
        """The rows of a read outside any write transaction."""

    @abstractmethod
    def _transaction(self) -> AbstractAsyncContextManager[Tx]:
        """One write transaction, committed at the end of the block (rolled back on an exception)."""

    async def _atomic(self, work: Work[T]) -> T:
        """`work(tx)` in one write transaction, committed before this returns (rolled back if it raises);
        what it returns. `work` awaits nothing but `tx`'s statements and touches nothing of the event loop,
        so a store may run it whole in one trip to its database (SQLite runs it on the writer's thread:
        one wake-up of the event loop instead of one per statement, BEGIN and COMMIT)."""
        async with self._transaction() as tx:
            return await work(tx)

    async def _write(self, sql: str, *params: Any) -> int:
        """One write in a transaction of its own; the rows it changed."""

        async def work(tx: Tx) -> int:
            return await tx.run(sql, *params)

        return await self._atomic(work)

    async def _write_fetch(self, sql: str, *params: Any) -> Sequence[Row]:
        """One write with RETURNING in a transaction of its own; the rows it returned."""

        async def work(tx: Tx) -> Sequence[Row]:
            return await tx.fetch(sql, *params)

        return await self._atomic(work)

    async def _lock_ratings(self, tx: Tx, game: str) -> None:
        """Rate the matches of one game one at a time (nothing to do where a write holds the database)."""
        return None  # a hook: PostgreSQL takes an advisory lock here

    async def _fetchone(self, sql: str, *params: Any) -> Row | None:
        rows = await self._fetch(sql, *params)
        return rows[0] if rows else None

    async def listen(
        self,
        wake: Callable[[], None],
        *,
        shards: ShardFilter | None = None,
        changes: ChangeListener | None = None,
        matches: Callable[[MatchChange], None] | None = None,
    ) -> None:
        """Nothing to hear where one process is all there is (see `MatchStore.listen`)."""
        return None  # a hook: PostgreSQL listens for NOTIFY here

    # ------------------------------------------------------------------------------------------- meta

    async def get_meta(self, key: str) -> str | None:
        row = await self._fetchone("SELECT value FROM meta WHERE key = ?", key)
        return None if row is None else str(row["value"])

    async def put_meta(self, key: str, value: str) -> None:
        await self._write(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            key,
            value,
        )

    async def meta_with_prefix(self, prefix: str) -> dict[str, str]:
        rows = await self._fetch("SELECT key, value FROM meta WHERE key LIKE ?", prefix + "%")
        return {str(r["key"]): str(r["value"]) for r in rows}

    async def delete_meta(self, key: str, value: str | None = None) -> bool:
        if value is None:
            return await self._write("DELETE FROM meta WHERE key = ?", key) > 0
        return await self._write("DELETE FROM meta WHERE key = ? AND value = ?", key, value) > 0

    # ------------------------------------------------------------------------------ web sessions

    async def revoke_web(self, key: str, at: float, until: float) -> None:
        await self._write(
            "INSERT INTO web_revocations (key, revoked_at, until) VALUES (?, ?, ?) "
            "ON CONFLICT (key) DO UPDATE SET revoked_at = excluded.revoked_at, until = excluded.until",
            key,
            at,
            until,
        )
        await self._write("DELETE FROM web_revocations WHERE until <= ?", at)

    async def consume_web(self, key: str, at: float, until: float) -> bool:
        return (
            await self._write(
                "INSERT INTO web_revocations (key, revoked_at, until) VALUES (?, ?, ?) "
                "ON CONFLICT (key) DO NOTHING",
                key,
                at,
                until,
            )
            == 1
        )

    async def web_revoked(self, keys: Sequence[str], now: float) -> dict[str, float]:
        if not keys:
            return {}
        term, params = self._in("key", keys, "text")
        rows = await self._fetch(
            f"SELECT key, revoked_at FROM web_revocations WHERE {term} AND until > ?", *params, now
        )
        return {str(r["key"]): float(r["revoked_at"]) for r in rows}

    # ---------------------------------------------------------------------------------------- matches

    async def _seats(self, match_ids: Sequence[int]) -> dict[int, list[Row]]:
        seats: dict[int, list[Row]] = {i: [] for i in match_ids}
        if match_ids:
            term, params = self._in("match_id", match_ids, "bigint")
            rows = await self._fetch(
                "SELECT match_id, seat, user_id, ai_level, result FROM match_seats "
                f"WHERE {term} ORDER BY match_id, seat",
                *params,
            )
            for r in rows:
                seats[r["match_id"]].append(r)
        return seats

    async def _matches(self, where: str, *params: Any) -> list[MatchRecord]:
        rows = await self._fetch(f"SELECT * FROM matches {where}", *params)
        seats = await self._seats([r["id"] for r in rows])
        return sound_matches(rows, seats, self.json_value)

    async def _one_match(self, where: str, *params: Any) -> MatchRecord | None:
        """One match and its seats in a single query (the hot path of every move); DamagedRow if it breaks
        the schema's meaning (`match_from_row`)."""
        rows = await self._fetch(joined_matches(where), *params)
        if not rows:
            return None
        first = rows[0]["id"]
        seats = [r for r in rows if r["id"] == first and r["seat"] is not None]
        return match_from_row(rows[0], seats, self.json_value)

    async def insert_match(
        self,
        new: NewMatch,
        *,
        challenge_id: int | None = None,
        lobby_id: int | None = None,
        tournament_game: tuple[int, int] | None = None,
    ) -> MatchRecord:
        async with self._transaction() as tx:
            if tournament_game is not None:
                taken = await tx.fetch(
                    "SELECT match_id FROM tournament_matches WHERE tournament_id = ? AND game_number = ?",
                    *tournament_game,
                )
                if taken:
                    raise TournamentGameTaken(
                        f"tournament game {tournament_game} has match {taken[0]['match_id']}"
                    )
            if challenge_id is not None:
                rows = await tx.fetch("SELECT status FROM challenges WHERE id = ?{FOR_UPDATE}", challenge_id)
                if not rows or rows[0]["status"] != ChallengeStatus.PENDING:
                    raise StoreConflict(f"challenge {challenge_id} is no longer pending")
            if lobby_id is not None:
                rows = await tx.fetch("SELECT status FROM lobbies WHERE id = ?{FOR_UPDATE}", lobby_id)
                if not rows or rows[0]["status"] != LobbyStatus.OPEN:
                    raise StoreConflict(f"lobby {lobby_id} is no longer open")
                members = await tx.fetch(
                    "SELECT user_id, ai_level FROM lobby_members WHERE lobby_id = ?", lobby_id
                )
                if not same_players(((m["user_id"], m["ai_level"]) for m in members), new.seats):
                    raise LobbyChanged(f"the members of lobby {lobby_id} changed")
            busy = await tx.fetch(
                "SELECT id FROM matches WHERE channel_id = ? AND status = 'active' AND quarantine IS NULL "
                "AND side = {FALSE}",
                new.channel_id,
            )
            if busy and not new.side:
                raise ChannelTaken(f"channel {new.channel_id} has an active match")
            try:
                [inserted] = await tx.fetch(
                    "INSERT INTO matches (game, options, seed, guild_id, channel_id, status, ply, "
                    "turn_timeout, deadline, snapshot, rated, created_at, updated_at, side, time_control) "
                    "VALUES (?, ?, ?, ?, ?, 'active', 0, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    new.game,
                    self._to_json(dict(new.options)),
                    new.seed,
                    new.guild_id,
                    new.channel_id,
                    new.turn_timeout,
                    new.deadline,
                    new.snapshot,
                    new.rated,
                    new.created_at,
                    new.created_at,
                    new.side,
                    None if new.time_control is None else new.time_control.text,
                )
            except Exception as error:
                if self._channel_taken(error):  # a concurrent process started one meanwhile
                    raise ChannelTaken(f"channel {new.channel_id} has an active match") from None
                raise
            match_id: int = inserted["id"]
            await tx.run_many(
                "INSERT INTO match_seats (match_id, seat, user_id, ai_level, player_key) "
                "VALUES (?, ?, ?, ?, ?)",
                [(match_id, p.seat, p.user_id, p.ai_level, p.player_key) for p in new.seats],
            )
            if challenge_id is not None:
                changed = await tx.run(
                    "UPDATE challenges SET status = 'accepted', match_id = ? "
                    "WHERE id = ? AND status = 'pending'",
                    match_id,
                    challenge_id,
                )
                if changed != 1:
                    raise StoreConflict(f"challenge {challenge_id} is no longer pending")
            if lobby_id is not None:
                changed = await tx.run(
                    "UPDATE lobbies SET status = 'started', match_id = ? WHERE id = ? AND status = 'open'",
                    match_id,
                    lobby_id,
                )
                if changed != 1:
                    raise StoreConflict(f"lobby {lobby_id} is no longer open")
            if tournament_game is not None:
                try:
                    await tx.run(
                        "INSERT INTO tournament_matches (tournament_id, game_number, match_id) "
                        "VALUES (?, ?, ?)",
                        *tournament_game,
                        match_id,
                    )
                except Exception as error:  # a concurrent process opened it meanwhile (the primary key)
                    raise TournamentGameTaken(f"tournament game {tournament_game} has a match") from error
        row = await self.get_match(match_id)
        assert row is not None
        return row

    async def get_match(self, match_id: int) -> MatchRecord | None:
        return await self._one_match("WHERE m.id = ?", match_id)

    async def get_matches(self, match_ids: Sequence[int]) -> dict[int, MatchRecord | DamagedRow]:
        found: dict[int, MatchRecord | DamagedRow] = {}
        ids = list(match_ids)
        for start in range(0, len(ids), self.MATCH_BATCH):
            term, params = self._in("m.id", ids[start : start + self.MATCH_BATCH], "bigint")
            rows = await self._fetch(joined_matches(f"WHERE {term}"), *params)
            found.update(matches_from_joined(rows, self.json_value))
        return found

    async def active_match_in_channel(self, channel_id: int) -> MatchRecord | None:
        return await self._one_match(
            "WHERE m.channel_id = ? AND m.status = 'active' AND m.quarantine IS NULL AND m.side = {FALSE}",
            channel_id,
        )

    async def match_ids(self, status: MatchStatus | None = None) -> list[int]:
        where, params = _where(("status", status))
        rows = await self._fetch(f"SELECT id FROM matches WHERE 1 = 1{where} ORDER BY id", *params)
        return [r["id"] for r in rows]

    async def matches_of_user(self, user_id: int, limit: int = 25) -> list[MatchRecord]:
        return await self._matches(
            "WHERE status = 'active' AND quarantine IS NULL AND id IN "
            "(SELECT match_id FROM match_seats WHERE user_id = ? AND ai_level IS NULL) "
            "ORDER BY id DESC LIMIT ?",
            user_id,
            limit,
        )

    async def finished_matches(
        self, *, user_id: int | None, guild_id: int | None, game: str | None, limit: int
    ) -> list[tuple[MatchRecord, int]]:
        source = "matches m"
        if user_id is not None:
            # The user's own seats drive the query: a player's matches are sorted, never a walk of the whole
            # server's finished matches.
            source = "match_seats s {SEATS_FIRST} matches m ON m.id = s.match_id"
        where, params = _where(("s.user_id", user_id), ("m.guild_id", guild_id), ("m.game", game))
        if user_id is not None:
            where += " AND s.ai_level IS NULL"
        rows = await self._fetch(
            history_query(source, f"m.status IN ('finished', 'aborted'){where}", "?"), *params, limit
        )
        return history_from_rows(rows, self.json_value)

    async def moves(self, match_id: int) -> list[MoveRecord]:
        rows = await self._fetch(
            "SELECT ply, seat, notation, forced, at, clock FROM moves WHERE match_id = ? ORDER BY ply",
            match_id,
        )
        return [
            MoveRecord(
                ply=r["ply"],
                seat=r["seat"],
                notation=r["notation"],
                forced=bool(r["forced"]),
                at=r["at"],
                clock=r["clock"],
            )
            for r in rows
        ]

    async def _write_finish(self, tx: Tx, match_id: int, finish: Finish) -> None:
        await tx.run(
            "UPDATE matches SET status = ?, outcome = ?, finished_at = ?, deadline = NULL WHERE id = ?",
            finish.status.value,
            self._to_json(finish.outcome.to_json()),
            finish.at,
            match_id,
        )
        await tx.run_many(
            "UPDATE match_seats SET result = ? WHERE match_id = ? AND seat = ?",
            [(None if r is None else r.value, match_id, seat) for seat, r in finish.results.items()],
        )

    _GUARDED_MOVE = (
        "UPDATE matches SET ply = ?, snapshot = ?, deadline = ?, updated_at = ?, abort_votes = '[]', "
        "takeback = NULL WHERE id = ? AND ply = ? AND status = 'active'"
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
        async def work(tx: Tx) -> bool:
            new_ply = expected_ply + len(moves)
            if (
                await tx.run(self._GUARDED_MOVE, new_ply, snapshot, deadline, now, match_id, expected_ply)
                != 1
            ):
                return False
            await tx.run_many(
                "INSERT INTO moves (match_id, ply, seat, notation, forced, at, clock) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(match_id, m.ply, m.seat, m.notation, m.forced, m.at, m.clock) for m in moves],
            )
            if finish is not None:
                await self._write_finish(tx, match_id, finish)
            return True

        return await self._atomic(work)

    async def finish_match(self, match_id: int, expected_ply: int, finish: Finish) -> bool:
        async with self._transaction() as tx:
            changed = await tx.run(
                "UPDATE matches SET updated_at = ?, abort_votes = '[]', takeback = NULL "
                "WHERE id = ? AND ply = ? AND status = 'active'",
                finish.at,
                match_id,
                expected_ply,
            )
            if changed != 1:
                return False
            await self._write_finish(tx, match_id, finish)
        return True

    async def rewind_match(
        self, match_id: int, expected_ply: int, to_ply: int, snapshot: str, deadline: float | None, now: float
    ) -> bool:
        async with self._transaction() as tx:
            if await tx.run(self._GUARDED_MOVE, to_ply, snapshot, deadline, now, match_id, expected_ply) != 1:
                return False
            undone = await tx.fetch(
                "SELECT notation FROM moves WHERE match_id = ? AND ply >= ? ORDER BY ply", match_id, to_ply
            )
            await tx.run("DELETE FROM moves WHERE match_id = ? AND ply >= ?", match_id, to_ply)
            await tx.run(
                "INSERT INTO match_takebacks (match_id, from_ply, to_ply, moves, taken_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (match_id) DO UPDATE SET from_ply = excluded.from_ply, "
                "to_ply = excluded.to_ply, moves = excluded.moves, taken_at = excluded.taken_at",
                match_id,
                expected_ply,
                to_ply,
                self._to_json([r["notation"] for r in undone]),
                now,
            )
        return True

    async def last_takeback(self, match_id: int) -> TakebackRecord | None:
        row = await self._fetchone(
            "SELECT from_ply, to_ply, moves FROM match_takebacks WHERE match_id = ?", match_id
        )
        if row is None:
            return None
        moves = tuple(str(m) for m in self.json_value(row["moves"]))
        return TakebackRecord(int(row["from_ply"]), int(row["to_ply"]), moves)

    async def update_requests(
        self, match_id: int, expected_ply: int, change: Callable[[Requests], Requests]
    ) -> Requests | None:
        async with self._transaction() as tx:  # the match row is held from the read to the write
            rows = await tx.fetch(
                "SELECT abort_votes, takeback FROM matches WHERE id = ? AND ply = ? AND status = 'active'"
                "{FOR_UPDATE}",
                match_id,
                expected_ply,
            )
            if not rows:
                return None
            takeback = rows[0]["takeback"]
            current = Requests(
                tuple(self.json_value(rows[0]["abort_votes"])),
                TakebackRequest.from_json(self.json_value(takeback)) if takeback is not None else None,
            )
            change_to = change(current)
            changed = Requests(tuple(dict.fromkeys(change_to.abort_votes)), change_to.takeback)
            await tx.run(
                "UPDATE matches SET abort_votes = ?, takeback = ? WHERE id = ?",
                self._to_json(list(changed.abort_votes)),
                self._to_json(changed.takeback.to_json()) if changed.takeback is not None else None,
                match_id,
            )
        return changed

    # ------------------------------------------------------------------------ draw offers and rematches

    def _draw_state(self, row: Row | None) -> DrawState:
        if row is None:
            return DrawState()
        offer = row["offer"]
        offered = self.json_value(row["offered"])
        return DrawState(
            DrawOffer.from_json(self.json_value(offer)) if offer is not None else None,
            {int(seat): int(ply) for seat, ply in offered.items()},
        )

    async def draws(self, match_id: int) -> DrawState:
        return self._draw_state(
            await self._fetchone("SELECT offer, offered FROM match_draws WHERE match_id = ?", match_id)
        )

    async def update_draws(
        self, match_id: int, expected_ply: int, change: Callable[[DrawState], DrawState]
    ) -> DrawState | None:
        async with self._transaction() as tx:  # the match row is held from the read to the write
            held = await tx.fetch(
                "SELECT id FROM matches WHERE id = ? AND ply = ? AND status = 'active'{FOR_UPDATE}",
                match_id,
                expected_ply,
            )
            if not held:
                return None
            rows = await tx.fetch("SELECT offer, offered FROM match_draws WHERE match_id = ?", match_id)
            changed = change(self._draw_state(rows[0] if rows else None))
            await tx.run(
                "INSERT INTO match_draws (match_id, offer, offered) VALUES (?, ?, ?) "
                "ON CONFLICT (match_id) DO UPDATE SET offer = excluded.offer, offered = excluded.offered",
                match_id,
                self._to_json(changed.offer.to_json()) if changed.offer is not None else None,
                self._to_json({str(seat): ply for seat, ply in changed.offered.items()}),
            )
        return changed

    def _rematch(self, row: Row) -> RematchRecord:
        return RematchRecord(
            int(row["match_id"]),
            int(row["by_user"]),
            tuple(int(u) for u in self.json_value(row["accepted"])),
            RematchStatus(row["status"]),
            float(row["asked_at"]),
            float(row["expires_at"]),
            None if row["new_match_id"] is None else int(row["new_match_id"]),
        )

    _REMATCH_COLUMNS = "match_id, by_user, accepted, status, asked_at, expires_at, new_match_id"

    async def rematch(self, match_id: int) -> RematchRecord | None:
        row = await self._fetchone(
            f"SELECT {self._REMATCH_COLUMNS} FROM rematches WHERE match_id = ?", match_id
        )
        return None if row is None else self._rematch(row)

    async def rematch_origin(self, new_match_id: int) -> int | None:
        row = await self._fetchone("SELECT match_id FROM rematches WHERE new_match_id = ?", new_match_id)
        return None if row is None else int(row["match_id"])

    async def update_rematch(
        self, match_id: int, change: Callable[[RematchRecord | None], RematchRecord | None]
    ) -> RematchRecord | None:
        async with self._transaction() as tx:  # the finished match's row is held from the read to the write
            held = await tx.fetch(
                "SELECT id FROM matches WHERE id = ? AND status <> 'active'{FOR_UPDATE}", match_id
            )
            if not held:
                return None
            rows = await tx.fetch(
                f"SELECT {self._REMATCH_COLUMNS} FROM rematches WHERE match_id = ?", match_id
            )
            before = self._rematch(rows[0]) if rows else None
            after = change(before)
            if after is None or after == before:
                return before
            await tx.run(
                f"INSERT INTO rematches ({self._REMATCH_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (match_id) DO UPDATE SET by_user = excluded.by_user, "
                "accepted = excluded.accepted, status = excluded.status, asked_at = excluded.asked_at, "
                "expires_at = excluded.expires_at, new_match_id = excluded.new_match_id",
                match_id,
                after.by_user,
                self._to_json(list(after.accepted)),
                after.status.value,
                after.asked_at,
                after.expires_at,
                after.new_match_id,
            )
        return after

    async def next_deadline(self, *, shards: ShardFilter | None = None) -> float | None:
        row = await self._fetchone(
            "SELECT MIN(deadline) AS due FROM matches WHERE status = 'active' AND quarantine IS NULL "
            f"AND {{A_NUMBER}} AND {_shard_filter(shards)}"
        )
        return None if row is None else row["due"]

    async def due_matches(self, now: float, *, shards: ShardFilter | None = None) -> list[tuple[int, int]]:
        live = f"FROM matches WHERE status = 'active' AND quarantine IS NULL AND {_shard_filter(shards)}"
        rows = await self._fetch(  # two searches of the deadline index, not one scan of it
            f"SELECT id, ply, deadline {live} AND deadline <= ? "
            f"UNION ALL SELECT id, ply, deadline {live} AND {{NOT_A_NUMBER}} ORDER BY deadline, id",
            now,
        )
        return [(r["id"], r["ply"]) for r in rows]

    async def live_deadlines(self, *, shards: ShardFilter | None = None) -> list[tuple[int, int, float]]:
        rows = await self._fetch(
            "SELECT id, ply, deadline FROM matches WHERE status = 'active' AND quarantine IS NULL "
            f"AND time_control IS NOT NULL AND deadline IS NOT NULL AND {_shard_filter(shards)} ORDER BY id"
        )
        return [(r["id"], r["ply"], r["deadline"]) for r in rows]

    async def set_berserk(self, match_id: int, expected_ply: int, berserk: Sequence[int]) -> bool:
        changed = await self._write(
            "UPDATE matches SET berserk = ? WHERE id = ? AND ply = ? AND status = 'active'",
            json.dumps(sorted(berserk)) if berserk else None,
            match_id,
            expected_ply,
        )
        return changed == 1

    async def set_deadline(self, match_id: int, expected_ply: int, deadline: float | None) -> bool:
        changed = await self._write(
            "UPDATE matches SET deadline = ? WHERE id = ? AND ply = ? AND status = 'active'",
            deadline,
            match_id,
            expected_ply,
        )
        return changed == 1

    async def active_ai_match_ids(self, *, shards: ShardFilter | None = None) -> list[int]:
        rows = await self._fetch(
            "SELECT DISTINCT m.id FROM match_seats s JOIN matches m ON m.id = s.match_id "
            "WHERE s.ai_level IS NOT NULL AND m.status = 'active' AND m.quarantine IS NULL "
            f"AND {_shard_filter(shards, 'm.guild_id')} ORDER BY m.id"
        )
        return [r["id"] for r in rows]

    async def _ids(self, where: str) -> list[int]:
        rows = await self._fetch(f"SELECT id FROM matches WHERE {where} ORDER BY id")
        return [r["id"] for r in rows]

    async def active_match_ids(self) -> list[int]:
        return await self._ids("status = 'active' AND quarantine IS NULL")

    async def unsettled_match_ids(self) -> list[int]:
        return await self._ids(
            "quarantine IS NULL AND (status IS NULL OR status NOT IN ('finished', 'aborted'))"
        )

    async def quarantine_match(self, match_id: int, reason: str) -> bool:
        changed = await self._write(
            "UPDATE matches SET quarantine = ?, deadline = NULL WHERE id = ? AND quarantine IS NULL",
            reason[:500],
            match_id,
        )
        return changed == 1

    async def quarantined_match_ids(self) -> list[int]:
        return await self._ids("quarantine IS NOT NULL")

    async def unapplied_rated_match_ids(self) -> list[int]:
        return await self._ids("status = 'finished' AND rated = {TRUE} AND ratings_applied = {FALSE}")

    # ------------------------------------------------------------------------------------- challenges

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
        *,
        side: bool = False,
    ) -> Challenge:
        [row] = await self._write_fetch(
            "INSERT INTO challenges (game, options, guild_id, channel_id, challenger_id, opponent_id, "
            "status, created_at, expires_at, side) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?) RETURNING *",
            game,
            self._to_json(dict(options)),
            guild_id,
            channel_id,
            challenger_id,
            opponent_id,
            created_at,
            expires_at,
            side,
        )
        return _challenge(row, self.json_value)

    async def get_challenge(self, challenge_id: int) -> Challenge | None:
        row = await self._fetchone("SELECT * FROM challenges WHERE id = ?", challenge_id)
        return None if row is None else _challenge(row, self.json_value)

    async def challenge_of_match(self, match_id: int) -> Challenge | None:
        row = await self._fetchone("SELECT * FROM challenges WHERE match_id = ?", match_id)
        return None if row is None else _challenge(row, self.json_value)

    async def set_challenge_status(
        self,
        challenge_id: int,
        status: ChallengeStatus,
        *,
        expected: ChallengeStatus = ChallengeStatus.PENDING,
    ) -> bool:
        changed = await self._write(
            "UPDATE challenges SET status = ? WHERE id = ? AND status = ?",
            status.value,
            challenge_id,
            expected.value,
        )
        return changed == 1

    async def pending_challenges(self, channel_id: int | None = None) -> list[Challenge]:
        where, params = _where(("channel_id", channel_id))
        rows = await self._fetch(
            f"SELECT * FROM challenges WHERE status = 'pending'{where} ORDER BY id", *params
        )
        return [_challenge(r, self.json_value) for r in rows]

    async def _count(self, table: str, where: str, params: Sequence[Any]) -> int:
        row = await self._fetchone(f"SELECT COUNT(*) AS n FROM {table} WHERE {where}", *params)
        return int(row["n"]) if row is not None else 0

    async def count_pending_challenges(
        self, *, challenger_id: int | None = None, channel_id: int | None = None
    ) -> int:
        where, params = _where(("challenger_id", challenger_id), ("channel_id", channel_id))
        return await self._count("challenges", f"status = 'pending'{where}", params)

    async def due_challenges(self, now: float, *, shards: ShardFilter | None = None) -> list[Challenge]:
        rows = await self._fetch(
            "SELECT * FROM challenges WHERE status = 'pending' AND expires_at <= ? "
            f"AND {_shard_filter(shards)} ORDER BY expires_at, id",
            now,
        )
        return [_challenge(r, self.json_value) for r in rows]

    async def next_challenge_expiry(self, *, shards: ShardFilter | None = None) -> float | None:
        row = await self._fetchone(
            "SELECT MIN(expires_at) AS due FROM challenges "
            f"WHERE status = 'pending' AND {_shard_filter(shards)}"
        )
        return None if row is None else row["due"]

    # ---------------------------------------------------------------------------------------- lobbies

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
        *,
        side: bool = False,
    ) -> Lobby:
        async with self._transaction() as tx:
            [inserted] = await tx.fetch(
                "INSERT INTO lobbies (game, options, guild_id, channel_id, host_id, seat_order, max_players, "
                "status, created_at, side) VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?, ?) RETURNING id",
                game,
                self._to_json(dict(options)),
                guild_id,
                channel_id,
                host.user_id,
                seat_order,
                max_players,
                created_at,
                side,
            )
            lobby_id: int = inserted["id"]
            await tx.run(
                "INSERT INTO lobby_members (lobby_id, position, user_id, ai_level, joined_at) "
                "VALUES (?, 0, ?, ?, ?)",
                lobby_id,
                host.user_id,
                host.ai_level,
                host.joined_at,
            )
        row = await self.get_lobby(lobby_id)
        assert row is not None
        return row

    async def _lobbies(self, where: str, *params: Any) -> list[Lobby]:
        rows = await self._fetch(f"SELECT * FROM lobbies {where}", *params)
        members: dict[int, list[LobbyMember]] = {r["id"]: [] for r in rows}
        if rows:
            term, ids = self._in("lobby_id", list(members), "bigint")
            for m in await self._fetch(
                f"SELECT lobby_id, user_id, ai_level, joined_at FROM lobby_members WHERE {term} "
                "ORDER BY lobby_id, position",
                *ids,
            ):
                members[m["lobby_id"]].append(LobbyMember(m["user_id"], m["ai_level"], m["joined_at"]))
        return [
            Lobby(
                id=r["id"],
                game=r["game"],
                options=self.json_value(r["options"]),
                guild_id=r["guild_id"],
                channel_id=r["channel_id"],
                host_id=r["host_id"],
                seat_order=r["seat_order"],
                max_players=r["max_players"],
                status=LobbyStatus(r["status"]),
                created_at=r["created_at"],
                match_id=r["match_id"],
                members=tuple(members[r["id"]]),
                side=bool(r["side"]),
            )
            for r in rows
        ]

    async def get_lobby(self, lobby_id: int) -> Lobby | None:
        rows = await self._lobbies("WHERE id = ?", lobby_id)
        return rows[0] if rows else None

    async def open_lobbies(self, channel_id: int | None = None) -> list[Lobby]:
        where, params = _where(("channel_id", channel_id))
        return await self._lobbies(f"WHERE status = 'open'{where} ORDER BY id", *params)

    async def count_open_lobbies(self, *, host_id: int | None = None, channel_id: int | None = None) -> int:
        where, params = _where(("host_id", host_id), ("channel_id", channel_id))
        return await self._count("lobbies", f"status = 'open'{where}", params)

    async def add_lobby_member(self, lobby_id: int, member: LobbyMember) -> bool:
        async with self._transaction() as tx:
            # The lobby row is held: joins, leaves and the start of one lobby never see a stale count.
            lobby = await tx.fetch(
                "SELECT max_players, status FROM lobbies WHERE id = ?{FOR_UPDATE}", lobby_id
            )
            if not lobby or lobby[0]["status"] != LobbyStatus.OPEN:
                return False
            members = await tx.fetch(
                "SELECT user_id, ai_level, position FROM lobby_members WHERE lobby_id = ?", lobby_id
            )
            if len(members) >= lobby[0]["max_players"]:
                return False
            if member.ai_level is None and any(
                m["user_id"] == member.user_id and m["ai_level"] is None for m in members
            ):
                return False
            await tx.run(
                "INSERT INTO lobby_members (lobby_id, position, user_id, ai_level, joined_at) "
                "VALUES (?, ?, ?, ?, ?)",
                lobby_id,
                max((m["position"] for m in members), default=-1) + 1,
                member.user_id,
                member.ai_level,
                member.joined_at,
            )
        return True

    async def remove_lobby_member(self, lobby_id: int, user_id: int) -> bool:
        async with self._transaction() as tx:
            lobby = await tx.fetch("SELECT status FROM lobbies WHERE id = ?{FOR_UPDATE}", lobby_id)
            if not lobby or lobby[0]["status"] != LobbyStatus.OPEN:
                return False
            removed = await tx.run(
                "DELETE FROM lobby_members WHERE lobby_id = ? AND user_id = ? AND ai_level IS NULL",
                lobby_id,
                user_id,
            )
            return removed == 1

    async def set_lobby_status(
        self, lobby_id: int, status: LobbyStatus, *, expected: LobbyStatus = LobbyStatus.OPEN
    ) -> bool:
        changed = await self._write(
            "UPDATE lobbies SET status = ? WHERE id = ? AND status = ?",
            status.value,
            lobby_id,
            expected.value,
        )
        return changed == 1

    # --------------------------------------------------------------------------------- guild settings

    async def get_guild_settings(self, guild_id: int) -> GuildSettings | None:
        row = await self._fetchone(
            "SELECT s.*, w.web_board FROM guild_settings s LEFT JOIN guild_web w ON w.guild_id = s.guild_id "
            "WHERE s.guild_id = ?",
            guild_id,
        )
        if row is None:
            return None
        return GuildSettings(
            row["guild_id"],
            row["turn_timeout"],
            bool(row["threads"]),
            tuple(self.json_value(row["allowed_channels"])),
            row["locale"],
            row["web_board"] is None or bool(row["web_board"]),
        )

    async def put_guild_settings(self, settings: GuildSettings) -> None:
        async with self._transaction() as tx:
            await tx.run(
                "INSERT INTO guild_settings (guild_id, turn_timeout, threads, allowed_channels, locale) "
                "VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET turn_timeout = excluded.turn_timeout, "
                "threads = excluded.threads, allowed_channels = excluded.allowed_channels, "
                "locale = excluded.locale",
                settings.guild_id,
                settings.turn_timeout,
                settings.threads,
                self._to_json(list(settings.allowed_channels)),
                settings.locale,
            )
            # the web board's switch (its own table, schema.py): a row only where it is off
            if settings.web_board:
                await tx.run("DELETE FROM guild_web WHERE guild_id = ?", settings.guild_id)
            else:
                await tx.run(
                    "INSERT INTO guild_web (guild_id, web_board) VALUES (?, {FALSE}) "
                    "ON CONFLICT (guild_id) DO UPDATE SET web_board = excluded.web_board",
                    settings.guild_id,
                )

    async def guilds_without_web_board(self) -> list[int]:
        rows = await self._fetch("SELECT guild_id FROM guild_web WHERE web_board = {FALSE} ORDER BY guild_id")
        return [row["guild_id"] for row in rows]

    # ---------------------------------------------------------------------------------------- ratings

    async def apply_ratings(
        self, match_id: int, game: str, player_keys: Sequence[str], compute: RatingCompute, now: float
    ) -> list[RatingChange] | None:
        async with self._transaction() as tx:
            flagged = await tx.fetch(
                "UPDATE matches SET ratings_applied = {TRUE} WHERE id = ? AND status = 'finished' "
                "AND rated = {TRUE} AND ratings_applied = {FALSE} RETURNING guild_id",
                match_id,
            )
            if not flagged:
                return None
            guild_id = flagged[0]["guild_id"]
            # Matches of one game rate one at a time, so two sharing a player never both start from the
            # same rating (the rows of new players do not exist yet, so row locks could not order them).
            await self._lock_ratings(tx, game)
            term, keys = self._in("player_key", player_keys, "text")
            rows = await tx.fetch(
                f"SELECT player_key, mu, sigma FROM ratings WHERE game = ? AND {term}", game, *keys
            )
            current: dict[str, tuple[float, float] | None] = dict.fromkeys(player_keys)
            current.update({r["player_key"]: (r["mu"], r["sigma"]) for r in rows})
            changes = rating_changes_of(match_id, player_keys, current, compute)
            await tx.run_many(
                "INSERT INTO ratings (game, player_key, mu, sigma, updated_at, played) "
                "VALUES (?, ?, ?, ?, ?, 1) "
                "ON CONFLICT (game, player_key) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                "updated_at = excluded.updated_at, played = ratings.played + 1",
                [(game, c.player_key, c.mu_after, c.sigma_after, now) for c in changes],
            )
            if guild_id is not None:
                await tx.run_many(
                    "INSERT INTO guild_ratings (guild_id, game, player_key, played, mu, sigma) "
                    "VALUES (?, ?, ?, 1, ?, ?) ON CONFLICT (guild_id, game, player_key) "
                    "DO UPDATE SET played = guild_ratings.played + 1",
                    [(guild_id, game, c.player_key, c.mu_after, c.sigma_after) for c in changes],
                )
            # Every server's board of these players shows their new ratings (a copy kept for its index).
            await tx.run_many(
                "UPDATE guild_ratings SET mu = ?, sigma = ? WHERE game = ? AND player_key = ?",
                [(c.mu_after, c.sigma_after, game, c.player_key) for c in changes],
            )
            await tx.run_many(
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
        rows = await self._fetch(
            "SELECT * FROM rating_changes WHERE match_id = ? ORDER BY player_key", match_id
        )
        return [
            RatingChange(
                r["match_id"],
                r["player_key"],
                r["mu_before"],
                r["sigma_before"],
                r["mu_after"],
                r["sigma_after"],
            )
            for r in rows
        ]

    async def get_ratings(self, game: str, player_keys: Sequence[str]) -> dict[str, Rating]:
        if not player_keys:
            return {}
        term, keys = self._in("player_key", player_keys, "text")
        rows = await self._fetch(
            f"SELECT game, player_key, mu, sigma, played FROM ratings WHERE game = ? AND {term}", game, *keys
        )
        return {r["player_key"]: rating_from_row(r) for r in rows}

    async def leaderboard(
        self, game: str, guild_id: int | None, limit: int, max_sigma: float
    ) -> list[Rating]:
        if guild_id is None and max_sigma == ESTABLISHED_SIGMA:
            # The predicate of the partial index ratings_established, word for word (so both databases
            # prove the index covers the query): it walks only established ratings and stops at `limit`.
            rows = await self._fetch(
                f"SELECT game, player_key, mu, sigma, played FROM ratings WHERE game = ? AND {ESTABLISHED} "
                "ORDER BY mu DESC, player_key DESC LIMIT ?",
                game,
                limit,
            )
        elif guild_id is None:
            rows = await self._fetch(
                "SELECT game, player_key, mu, sigma, played FROM ratings WHERE game = ? AND played > 0 "
                "AND sigma <= ? AND player_key LIKE 'user:%' ORDER BY mu DESC, player_key DESC LIMIT ?",
                game,
                max_sigma,
                limit,
            )
        elif max_sigma == ESTABLISHED_SIGMA:
            # The guild's own copy of each rating: guild_ratings_established (its predicate word for word)
            # walks the established ones in order and stops.
            rows = await self._fetch(
                "SELECT game, player_key, mu, sigma, played FROM guild_ratings "
                f"WHERE guild_id = ? AND game = ? AND {GUILD_ESTABLISHED} "
                "ORDER BY mu DESC, player_key DESC LIMIT ?",
                guild_id,
                game,
                limit,
            )
        else:
            # The guild's own copy of each rating: guild_ratings_board walks it in order and stops.
            rows = await self._fetch(
                "SELECT game, player_key, mu, sigma, played FROM guild_ratings "
                "WHERE guild_id = ? AND game = ? AND sigma <= ? AND player_key LIKE 'user:%' "
                "ORDER BY mu DESC, player_key DESC LIMIT ?",
                guild_id,
                game,
                max_sigma,
                limit,
            )
        return [rating_from_row(r) for r in rows]

    async def user_stats(self, user_id: int, guild_id: int | None = None) -> list[UserStats]:
        where, params = _where(("m.guild_id", guild_id))
        rows = await self._fetch(
            "SELECT m.game AS game, COUNT(*) AS played, "
            "SUM(CASE WHEN s.result = 'win' THEN 1 ELSE 0 END) AS won, "
            "SUM(CASE WHEN s.result = 'loss' THEN 1 ELSE 0 END) AS lost, "
            "SUM(CASE WHEN s.result = 'draw' THEN 1 ELSE 0 END) AS drawn "
            "FROM match_seats s JOIN matches m ON m.id = s.match_id "
            f"WHERE s.user_id = ? AND s.ai_level IS NULL AND m.status = 'finished'{where} "
            "GROUP BY m.game ORDER BY m.game",
            user_id,
            *params,
        )
        return [
            UserStats(r["game"], r["played"], int(r["won"]), int(r["lost"]), int(r["drawn"])) for r in rows
        ]

    # ------------------------------------------------------------------------------------ preferences

    async def get_user_prefs(self, user_id: int) -> UserPrefs | None:
        row = await self._fetchone("SELECT theme, reminders FROM user_prefs WHERE user_id = ?", user_id)
        return None if row is None else user_prefs_from_row(user_id, row["theme"], row["reminders"])

    async def put_user_prefs(self, prefs: UserPrefs, now: float) -> None:
        await self._write(
            "INSERT INTO user_prefs (user_id, theme, reminders, updated_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET theme = excluded.theme, reminders = excluded.reminders, "
            "updated_at = excluded.updated_at",
            prefs.user_id,
            prefs.theme,
            prefs.reminders.value,
            now,
        )

    async def get_guild_theme(self, guild_id: int) -> str | None:
        row = await self._fetchone("SELECT theme FROM guild_prefs WHERE guild_id = ?", guild_id)
        return None if row is None else str(row["theme"])

    async def set_guild_theme(self, guild_id: int, theme: str, now: float) -> None:
        await self._write(
            "INSERT INTO guild_prefs (guild_id, theme, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET theme = excluded.theme, updated_at = excluded.updated_at",
            guild_id,
            theme,
            now,
        )

    # -------------------------------------------------------------------------------- posted messages

    async def swap_board_message(
        self, match_id: int, posted: PostedMessage, now: float
    ) -> PostedMessage | None:
        return await self._atomic(lambda tx: self._swap_board(tx, match_id, posted, now))

    async def post_board(self, match_id: int, posted: PostedMessage, now: float) -> BoardPosted:
        async def work(tx: Tx) -> BoardPosted:
            superseded = await self._swap_board(tx, match_id, posted, now)
            requests = await tx.fetch(self._REQUESTS_OF_MATCH, match_id)
            return BoardPosted(superseded, tuple(self._request_message(r) for r in requests))

        return await self._atomic(work)

    async def _swap_board(
        self, tx: Tx, match_id: int, posted: PostedMessage, now: float
    ) -> PostedMessage | None:
        # The match row orders two swaps of one match even when neither board row exists yet.
        await tx.fetch("SELECT 1 FROM matches WHERE id = ?{FOR_UPDATE}", match_id)
        rows = await tx.fetch(
            "SELECT channel_id, message_id FROM board_messages WHERE match_id = ?", match_id
        )
        previous = PostedMessage(rows[0]["channel_id"], rows[0]["message_id"]) if rows else None
        if previous is not None and previous.message_id >= posted.message_id:
            # A newer board is recorded already (or this one again): this one is the superseded one.
            return None if previous == posted else posted
        await tx.run(
            "INSERT INTO board_messages (match_id, channel_id, message_id, posted_at) "
            "VALUES (?, ?, ?, ?) "
            "ON CONFLICT (match_id) DO UPDATE SET channel_id = excluded.channel_id, "
            "message_id = excluded.message_id, posted_at = excluded.posted_at",
            match_id,
            posted.channel_id,
            posted.message_id,
            now,
        )
        return previous

    async def get_board_message(self, match_id: int) -> PostedMessage | None:
        row = await self._fetchone(
            "SELECT channel_id, message_id FROM board_messages WHERE match_id = ?", match_id
        )
        return None if row is None else PostedMessage(row["channel_id"], row["message_id"])

    async def put_challenge_message(self, challenge_id: int, posted: PostedMessage, now: float) -> None:
        await self._write(
            "INSERT INTO challenge_messages (challenge_id, channel_id, message_id, posted_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (challenge_id) DO UPDATE SET "
            "channel_id = excluded.channel_id, message_id = excluded.message_id, "
            "posted_at = excluded.posted_at",
            challenge_id,
            posted.channel_id,
            posted.message_id,
            now,
        )

    async def get_challenge_message(self, challenge_id: int) -> PostedMessage | None:
        row = await self._fetchone(
            "SELECT channel_id, message_id FROM challenge_messages WHERE challenge_id = ?", challenge_id
        )
        return None if row is None else PostedMessage(row["channel_id"], row["message_id"])

    async def put_request_message(self, request: RequestMessage, now: float) -> None:
        await self._write(
            "INSERT INTO request_messages (message_id, channel_id, match_id, kind, ply, by_user, waiting, "
            "posted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (message_id) DO UPDATE SET "
            "waiting = excluded.waiting",
            request.posted.message_id,
            request.posted.channel_id,
            request.match_id,
            request.kind,
            request.ply,
            request.by_user,
            self._to_json(list(request.waiting)),
            now,
        )

    _REQUESTS_OF_MATCH = (
        "SELECT message_id, channel_id, match_id, kind, ply, by_user, waiting FROM request_messages "
        "WHERE match_id = ? ORDER BY message_id"
    )

    def _request_message(self, r: Row) -> RequestMessage:
        return RequestMessage(
            PostedMessage(int(r["channel_id"]), int(r["message_id"])),
            int(r["match_id"]),
            str(r["kind"]),
            int(r["ply"]),
            int(r["by_user"]),
            tuple(int(u) for u in self.json_value(r["waiting"])),
        )

    async def request_messages(self, match_id: int) -> list[RequestMessage]:
        return [self._request_message(r) for r in await self._fetch(self._REQUESTS_OF_MATCH, match_id)]

    async def delete_request_message(self, message_id: int) -> bool:
        return await self._write("DELETE FROM request_messages WHERE message_id = ?", message_id) > 0

    # --------------------------------------------------------------------------------- turn reminders

    _REMINDABLE = (
        "FROM matches m WHERE m.status = 'active' AND m.quarantine IS NULL AND m.deadline IS NOT NULL "
        "AND m.time_control IS NULL AND m.turn_timeout >= ? "  # a live match's deadline is its flag
        "AND EXISTS (SELECT 1 FROM match_seats s JOIN user_prefs p ON p.user_id = s.user_id "
        "WHERE s.match_id = m.id AND s.ai_level IS NULL AND p.reminders <> 'off') "
        "AND NOT EXISTS (SELECT 1 FROM turn_reminders r WHERE r.match_id = m.id AND r.deadline = m.deadline)"
    )
    _REMINDER_DUE = "m.deadline - m.turn_timeout + {LEAST}(m.turn_timeout * ?, ?)"
    """When a turn's reminder is due (parameters: the fraction of the turn, the longest delay)."""

    async def due_turn_reminders(
        self,
        now: float,
        *,
        min_turn: float,
        fraction: float,
        max_delay: float,
        limit: int = 100,
        shards: ShardFilter | None = None,
    ) -> list[tuple[int, float]]:
        rows = await self._fetch(
            f"SELECT m.id, m.deadline, {self._REMINDER_DUE} AS due {self._REMINDABLE} "
            f"AND {_shard_filter(shards, 'm.guild_id')} AND {self._REMINDER_DUE} <= ? "
            "ORDER BY due, m.id LIMIT ?",
            fraction,
            max_delay,
            min_turn,
            fraction,
            max_delay,
            now,
            limit,
        )
        return [(r["id"], r["deadline"]) for r in rows]

    async def next_turn_reminder(
        self, *, min_turn: float, fraction: float, max_delay: float, shards: ShardFilter | None = None
    ) -> float | None:
        row = await self._fetchone(
            f"SELECT MIN({self._REMINDER_DUE}) AS due {self._REMINDABLE} "
            f"AND {_shard_filter(shards, 'm.guild_id')}",
            fraction,
            max_delay,
            min_turn,
        )
        return None if row is None or row["due"] is None else float(row["due"])

    async def claim_turn_reminder(self, match_id: int, deadline: float, now: float) -> bool:
        changed = await self._write(
            "INSERT INTO turn_reminders (match_id, deadline, sent_at) "
            "SELECT id, deadline, ? FROM matches WHERE id = ? AND status = 'active' AND deadline = ? "
            "ON CONFLICT (match_id) DO UPDATE SET deadline = excluded.deadline, "
            "sent_at = excluded.sent_at WHERE turn_reminders.deadline <> excluded.deadline",
            now,
            match_id,
            deadline,
        )
        return changed == 1

    # --------------------------------------------------------------------------------------- tournaments

    @staticmethod
    def _tournament(r: Row) -> StoredTournament:
        return StoredTournament(
            id=r["id"],
            guild_id=r["guild_id"],
            channel_id=r["channel_id"],
            status=r["status"],
            version=r["version"],
            snapshot=r["snapshot"],
            wakeup=r["wakeup"],
        )

    _TOURNAMENT_COLUMNS = "id, guild_id, channel_id, status, version, snapshot, wakeup"

    async def _write_players(self, tx: Tx, tournament_id: int, players: Sequence[int]) -> None:
        known = {
            r["user_id"]
            for r in await tx.fetch(
                "SELECT user_id FROM tournament_players WHERE tournament_id = ?", tournament_id
            )
        }
        await tx.run_many(
            "INSERT INTO tournament_players (tournament_id, user_id) VALUES (?, ?)",
            [(tournament_id, user) for user in dict.fromkeys(players) if user not in known],
        )

    async def insert_tournament(
        self, guild_id: int | None, channel_id: int, now: float, build: Callable[[int], TournamentWrite]
    ) -> int:
        async with self._transaction() as tx:
            [row] = await tx.fetch(
                "INSERT INTO tournaments (guild_id, channel_id, status, version, snapshot, created_at, "
                "updated_at) VALUES (?, ?, 'open', 0, '', ?, ?) RETURNING id",
                guild_id,
                channel_id,
                now,
                now,
            )
            tournament_id: int = row["id"]
            write = build(tournament_id)
            await tx.run(
                "UPDATE tournaments SET status = ?, version = 1, snapshot = ?, wakeup = ? WHERE id = ?",
                write.status,
                write.snapshot,
                write.wakeup,
                tournament_id,
            )
            await self._write_players(tx, tournament_id, write.players)
        return tournament_id

    async def get_tournament(self, tournament_id: int) -> StoredTournament | None:
        row = await self._fetchone(
            f"SELECT {self._TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", tournament_id
        )
        return None if row is None else self._tournament(row)

    async def save_tournament(
        self,
        tournament_id: int,
        expected_version: int,
        write: TournamentWrite,
        actions: Sequence[Any],
        now: float,
    ) -> list[OutboxItem] | None:
        version = expected_version + 1
        async with self._transaction() as tx:
            changed = await tx.run(
                "UPDATE tournaments SET status = ?, version = ?, snapshot = ?, wakeup = ?, updated_at = ? "
                "WHERE id = ? AND version = ?",
                write.status,
                version,
                write.snapshot,
                write.wakeup,
                now,
                tournament_id,
                expected_version,
            )
            if changed != 1:
                return None
            await self._write_players(tx, tournament_id, write.players)
            items = []
            for action in actions:
                [row] = await tx.fetch(
                    "INSERT INTO tournament_outbox (tournament_id, version, action) "
                    "VALUES (?, ?, ?) RETURNING id",
                    tournament_id,
                    version,
                    self._to_json(action),
                )
                items.append(OutboxItem(row["id"], tournament_id, action))
        return items

    async def pending_actions(self, tournament_id: int | None = None) -> list[OutboxItem]:
        where, params = _where(("tournament_id", tournament_id))
        rows = await self._fetch(
            "SELECT id, tournament_id, action FROM tournament_outbox WHERE done = {FALSE}"
            + where
            + " ORDER BY id",
            *params,
        )
        return [OutboxItem(r["id"], r["tournament_id"], self.json_value(r["action"])) for r in rows]

    async def action_done(self, item_id: int) -> None:
        await self._write("UPDATE tournament_outbox SET done = {TRUE} WHERE id = ?", item_id)

    async def live_tournaments(
        self, *, guild_id: int | None = None, shards: ShardFilter | None = None
    ) -> list[StoredTournament]:
        where, params = _where(("guild_id", guild_id))
        rows = await self._fetch(
            f"SELECT {self._TOURNAMENT_COLUMNS} FROM tournaments WHERE status IN ('open', 'running') "
            f"AND {_shard_filter(shards)}{where} ORDER BY id",
            *params,
        )
        return [self._tournament(r) for r in rows]

    async def next_tournament_wakeup(self, *, shards: ShardFilter | None = None) -> float | None:
        row = await self._fetchone(
            "SELECT MIN(wakeup) AS wakeup FROM tournaments "
            f"WHERE wakeup IS NOT NULL AND {_shard_filter(shards)}"
        )
        return None if row is None or row["wakeup"] is None else float(row["wakeup"])

    async def due_tournaments(self, now: float, *, shards: ShardFilter | None = None) -> list[int]:
        rows = await self._fetch(
            f"SELECT id FROM tournaments WHERE wakeup <= ? AND {_shard_filter(shards)} ORDER BY wakeup", now
        )
        return [r["id"] for r in rows]

    async def tournament_match(self, tournament_id: int, game_number: int) -> int | None:
        row = await self._fetchone(
            "SELECT match_id FROM tournament_matches WHERE tournament_id = ? AND game_number = ?",
            tournament_id,
            game_number,
        )
        return None if row is None else int(row["match_id"])

    async def tournament_of_match(self, match_id: int) -> tuple[int, int] | None:
        row = await self._fetchone(
            "SELECT tournament_id, game_number FROM tournament_matches WHERE match_id = ?", match_id
        )
        return None if row is None else (int(row["tournament_id"]), int(row["game_number"]))

    async def tournaments_of_user(self, user_id: int, limit: int = 10) -> list[StoredTournament]:
        rows = await self._fetch(
            "SELECT t.id, t.guild_id, t.channel_id, t.status, t.version, t.snapshot, t.wakeup "
            "FROM tournament_players p "
            "JOIN tournaments t ON t.id = p.tournament_id WHERE p.user_id = ? ORDER BY t.id DESC LIMIT ?",
            user_id,
            limit,
        )
        return [self._tournament(r) for r in rows]

    # -------------------------------------------------------------------------------- puzzles (schema 12)

    def _puzzle(self, r: Row) -> PuzzleRecord:
        return PuzzleRecord(
            int(r["id"]),
            r["game"],
            self.json_value(r["options"]),
            int(r["seats"]),
            json.loads(r["position"]),
            int(r["mover"]),
            tuple(self.json_value(r["solution"])),
            self.json_value(r["figures"]),
            float(r["mu"]),
            float(r["sigma"]),
            r["theme"],
        )

    @staticmethod
    def _puzzle_player(r: Row) -> PuzzlePlayer:
        return PuzzlePlayer(
            int(r["user_id"]),
            float(r["mu"]),
            float(r["sigma"]),
            int(r["streak"]),
            int(r["best_streak"]),
            int(r["solved"]),
            int(r["tried"]),
        )

    async def claim_puzzle_mining(
        self, match_id: int, now: float, *, stale_before: float | None = None
    ) -> bool:
        changed = await self._write(
            "INSERT INTO puzzle_mined (match_id, claimed_at) VALUES (?, ?) ON CONFLICT (match_id) DO UPDATE "
            "SET claimed_at = excluded.claimed_at WHERE puzzle_mined.claimed_at < ? "
            "AND NOT EXISTS (SELECT 1 FROM puzzle_mining_done d WHERE d.match_id = puzzle_mined.match_id)",
            match_id,
            now,
            stale_before if stale_before is not None else float("-inf"),
        )
        return changed == 1

    async def finish_puzzle_mining(self, match_id: int, now: float) -> None:
        await self._write(
            "INSERT INTO puzzle_mining_done (match_id, done_at) VALUES (?, ?) "
            "ON CONFLICT (match_id) DO NOTHING",
            match_id,
            now,
        )

    async def unmined_matches(
        self, stale_before: float, *, limit: int, shards: ShardFilter | None = None
    ) -> list[int]:
        rows = await self._fetch(self.unmined_sql(shards), stale_before, limit)
        return [int(r["id"]) for r in rows]

    @staticmethod
    def unmined_sql(shards: ShardFilter | None = None) -> str:
        """`unmined_matches`'s query (parameters: stale_before, limit): it walks the index of finished
        matches (``matches_finished_id``) in id order and probes each one's mining rows by key."""
        return (
            "SELECT m.id FROM matches m LEFT JOIN puzzle_mined p ON p.match_id = m.id "
            "LEFT JOIN puzzle_mining_done d ON d.match_id = m.id "
            "WHERE m.status = 'finished' AND m.quarantine IS NULL "
            "AND (p.match_id IS NULL OR (d.match_id IS NULL AND p.claimed_at < ?)) "
            f"AND {_shard_filter(shards, 'm.guild_id')} ORDER BY m.id LIMIT ?"
        )

    @staticmethod
    def _puzzle_values(new: NewPuzzle, now: float, to_json: Callable[[Any], Any]) -> list[Any]:
        return [
            new.game,
            to_json(dict(new.options)),
            new.seats,
            json.dumps(dict(new.position), separators=(",", ":"), sort_keys=True),
            new.mover,
            to_json(list(new.solution)),
            new.source_match,
            new.source_ply,
            to_json(dict(new.figures)),
            new.mu,
            new.sigma,
            now,
        ]

    async def insert_puzzle(self, new: NewPuzzle, now: float) -> int | None:
        """Stored once per position, and at most once per match (a match mined twice gives no second one)."""
        async with self._transaction() as tx:
            if new.source_match > 0 and await tx.fetch(
                "SELECT id FROM puzzles WHERE source_match = ? LIMIT 1", new.source_match
            ):
                return None
            rows = await tx.fetch(
                "INSERT INTO puzzles (game, options, seats, position, mover, solution, source_match, "
                "source_ply, figures, mu, sigma, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (source_match, source_ply) DO NOTHING RETURNING id",
                *self._puzzle_values(new, now, self._to_json),
            )
            if not rows:
                return None
            puzzle_id = int(rows[0]["id"])
            if new.theme is not None:
                await tx.run(
                    "INSERT INTO puzzle_themes (puzzle_id, theme) VALUES (?, ?)", puzzle_id, new.theme
                )
            return puzzle_id

    async def insert_starter_puzzles(self, news: Sequence[NewPuzzle], now: float) -> int:
        inserted = 0
        async with self._transaction() as tx:
            for new in news:
                rows = await tx.fetch(
                    "INSERT INTO puzzles (game, options, seats, position, mover, solution, source_match, "
                    "source_ply, figures, mu, sigma, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (source_match, source_ply) DO NOTHING RETURNING id",
                    *self._puzzle_values(new, now, self._to_json),
                )
                if rows and new.theme is not None:
                    await tx.run(
                        "INSERT INTO puzzle_themes (puzzle_id, theme) VALUES (?, ?)",
                        int(rows[0]["id"]),
                        new.theme,
                    )
                inserted += bool(rows)
        return inserted

    async def get_puzzle(self, puzzle_id: int) -> PuzzleRecord | None:
        row = await self._fetchone(f"SELECT {_PUZZLE} WHERE p.id = ?", puzzle_id)
        return None if row is None else self._puzzle(row)

    async def count_puzzles(self, game: str | None = None, *, starter: bool | None = None) -> int:
        where, params = _puzzle_where(game, starter)
        row = await self._fetchone(f"SELECT COUNT(*) AS n FROM puzzles p WHERE {where}", *params)
        return 0 if row is None else int(row["n"])

    async def open_puzzle(self, user_id: int) -> PuzzleRecord | None:
        row = await self._fetchone(
            f"SELECT {_PUZZLE} JOIN puzzle_attempts a ON a.puzzle_id = p.id "
            "WHERE a.user_id = ? AND a.solved IS NULL ORDER BY a.shown_at DESC, p.id DESC LIMIT 1",
            user_id,
        )
        return None if row is None else self._puzzle(row)

    async def pick_puzzle(
        self,
        user_id: int,
        game: str | None,
        mu: float,
        *,
        theme: str | None = None,
        starters: Collection[str] | None = None,
        exclude: int | None = None,
    ) -> PuzzleRecord | None:
        where, params = _puzzle_where(game, None)
        if theme is not None:
            where += " AND t.theme = ?"
            params.append(theme)
        if starters is not None:
            allowed = sorted(starters)
            marks = ", ".join("?" for _ in allowed)
            where += (
                f" AND (p.source_match > 0 OR p.game IN ({marks}))" if allowed else " AND p.source_match > 0"
            )
            params.extend(allowed)
        if exclude is not None:
            where += " AND p.id <> ?"
            params.append(exclude)
        row = await self._fetchone(
            f"SELECT {_PUZZLE} WHERE {where} AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a "
            "WHERE a.user_id = ? AND a.puzzle_id = p.id) ORDER BY ABS(p.mu - ?), p.id LIMIT 1",
            *params,
            user_id,
            mu,
        )
        return None if row is None else self._puzzle(row)

    async def nth_puzzle(self, index: int) -> PuzzleRecord | None:
        row = await self._fetchone(f"SELECT {_PUZZLE} ORDER BY p.id LIMIT 1 OFFSET ?", index)
        return None if row is None else self._puzzle(row)

    async def daily_puzzles(self, starters: Collection[str] | None = None) -> list[tuple[int, str]]:
        where = "1 = 1"
        params: list[Any] = []
        if starters is not None:
            allowed = sorted(starters)
            marks = ", ".join("?" for _ in allowed)
            where = f"(source_match > 0 OR game IN ({marks}))" if allowed else "source_match > 0"
            params.extend(allowed)
        rows = await self._fetch(
            f"SELECT MIN(id) AS id, game FROM puzzles WHERE {where} "
            "GROUP BY game, source_match, CASE WHEN source_match < 0 THEN source_ply ELSE 0 END ORDER BY 1",
            *params,
        )
        return [(int(r["id"]), str(r["game"])) for r in rows]

    async def show_puzzle(self, user_id: int, puzzle_id: int, now: float) -> None:
        await self._write(
            "INSERT INTO puzzle_attempts (user_id, puzzle_id, shown_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id, puzzle_id) DO NOTHING",
            user_id,
            puzzle_id,
            now,
        )

    async def get_puzzle_player(self, user_id: int) -> PuzzlePlayer | None:
        row = await self._fetchone("SELECT * FROM puzzle_players WHERE user_id = ?", user_id)
        return None if row is None else self._puzzle_player(row)

    async def answer_puzzle(
        self,
        user_id: int,
        puzzle_id: int,
        solved: bool,
        compute: PuzzleCompute,
        new: PuzzlePlayer,
        now: float,
    ) -> tuple[PuzzlePlayer, PuzzlePlayer] | None:
        async with self._transaction() as tx:
            changed = await tx.run(
                "UPDATE puzzle_attempts SET solved = ?, answered_at = ? "
                "WHERE user_id = ? AND puzzle_id = ? AND solved IS NULL",
                solved,
                now,
                user_id,
                puzzle_id,
            )
            if changed != 1:
                return None
            rows = await tx.fetch("SELECT * FROM puzzle_players WHERE user_id = ?{FOR_UPDATE}", user_id)
            before = self._puzzle_player(rows[0]) if rows else new
            [puzzle] = await tx.fetch("SELECT mu, sigma FROM puzzles WHERE id = ?{FOR_UPDATE}", puzzle_id)
            (mu, sigma), (puzzle_mu, puzzle_sigma) = compute(
                (before.mu, before.sigma), (float(puzzle["mu"]), float(puzzle["sigma"])), solved
            )
            streak = before.streak + 1 if solved else 0
            after = PuzzlePlayer(
                user_id,
                mu,
                sigma,
                streak,
                max(before.best_streak, streak),
                before.solved + solved,
                before.tried + 1,
            )
            await tx.run(
                "INSERT INTO puzzle_players "
                "(user_id, mu, sigma, streak, best_streak, solved, tried, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET mu = excluded.mu, "
                "sigma = excluded.sigma, streak = excluded.streak, best_streak = excluded.best_streak, "
                "solved = excluded.solved, tried = excluded.tried, updated_at = excluded.updated_at",
                user_id,
                mu,
                sigma,
                after.streak,
                after.best_streak,
                after.solved,
                after.tried,
                now,
            )
            await tx.run(
                "UPDATE puzzles SET mu = ?, sigma = ? WHERE id = ?", puzzle_mu, puzzle_sigma, puzzle_id
            )
            return before, after

    async def set_daily_puzzle_channel(self, guild_id: int, channel_id: int | None) -> None:
        if channel_id is None:
            await self._write("DELETE FROM puzzle_daily WHERE guild_id = ?", guild_id)
            return
        await self._write(
            "INSERT INTO puzzle_daily (guild_id, channel_id) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id",
            guild_id,
            channel_id,
        )

    async def daily_puzzle_channels(self, *, shards: ShardFilter | None = None) -> list[DailyPuzzleChannel]:
        rows = await self._fetch(
            f"SELECT * FROM puzzle_daily WHERE {_shard_filter(shards)} ORDER BY guild_id"
        )
        return [DailyPuzzleChannel(int(r["guild_id"]), int(r["channel_id"]), r["last_day"]) for r in rows]

    async def get_streak(self, user_id: int) -> StreakRun | None:
        row = await self._fetchone("SELECT * FROM puzzle_streak_runs WHERE user_id = ?", user_id)
        if row is None:
            return None
        puzzle_id = row["puzzle_id"]
        return StreakRun(
            user_id, int(row["run"]), int(row["best"]), None if puzzle_id is None else int(puzzle_id)
        )

    async def show_streak_puzzle(self, user_id: int, puzzle_id: int, now: float) -> None:
        await self._write(
            "INSERT INTO puzzle_streak_runs (user_id, run, best, puzzle_id, updated_at) "
            "VALUES (?, 0, 0, ?, ?) ON CONFLICT (user_id) DO UPDATE SET puzzle_id = excluded.puzzle_id, "
            "updated_at = excluded.updated_at",
            user_id,
            puzzle_id,
            now,
        )

    async def answer_streak(
        self, user_id: int, puzzle_id: int, solved: bool, now: float
    ) -> tuple[StreakRun, StreakRun] | None:
        async with self._transaction() as tx:
            rows = await tx.fetch(
                "SELECT * FROM puzzle_streak_runs WHERE user_id = ? AND puzzle_id = ?{FOR_UPDATE}",
                user_id,
                puzzle_id,
            )
            if not rows:
                return None
            before = StreakRun(user_id, int(rows[0]["run"]), int(rows[0]["best"]), puzzle_id)
            run = before.run + 1 if solved else 0
            after = StreakRun(user_id, run, max(before.best, run), None)
            await tx.run(
                "UPDATE puzzle_streak_runs SET run = ?, best = ?, puzzle_id = NULL, updated_at = ? "
                "WHERE user_id = ?",
                after.run,
                after.best,
                now,
                user_id,
            )
            await tx.run(
                "INSERT INTO puzzle_attempts (user_id, puzzle_id, shown_at, solved, answered_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id, puzzle_id) DO NOTHING",
                user_id,
                puzzle_id,
                now,
                solved,
                now,
            )
            return before, after

    async def claim_daily_puzzle(self, guild_id: int, day: str) -> bool:
        changed = await self._write(
            "UPDATE puzzle_daily SET last_day = ? WHERE guild_id = ? AND (last_day IS NULL OR last_day <> ?)",
            day,
            guild_id,
            day,
        )
        return changed == 1


_ADD_COLUMN = re.compile(r"\s*ALTER TABLE (\w+) ADD COLUMN (\w+)", re.IGNORECASE)


async def migrate_step(tx: Tx, index: int, kind: Kind, json_value: Callable[[Any], Any]) -> None:
    """Migration `index`'s statements, and its data step where it has one, in the caller's transaction. On
    SQLite (which has no ADD COLUMN IF NOT EXISTS) a column a step adds that is there already is skipped,
    so the step may run again on a database that has it."""
    for statement in statements_of(index, kind):
        added = _ADD_COLUMN.match(statement) if kind == "sqlite" else None
        if added and await tx.fetch("SELECT 1 FROM pragma_table_info(?) WHERE name = ?", *added.groups()):
            continue
        await tx.run(statement)
    if index == RECOUNT_RESIGNATION_PLIES:
        await _recount_resignation_plies(tx, json_value)


def statements_of(index: int, kind: Kind) -> list[str]:
    return statements(MIGRATIONS[index], kind)


async def _recount_resignation_plies(tx: Tx, json_value: Callable[[Any], Any]) -> None:
    """The data step of migration RECOUNT_RESIGNATION_PLIES: each TilingKing match whose log has a resignation
    gets the snapshot `upgrades.recounted_snapshot` gives, if it gives one."""
    found = await tx.fetch(
        "SELECT id FROM matches m WHERE game = ? "
        "AND EXISTS (SELECT 1 FROM moves WHERE match_id = m.id AND notation = ?) ORDER BY id",
        TILINGKING,
        RESIGN,
    )
    recounted = []
    for found_row in found:
        match_id = found_row["id"]
        [row] = await tx.fetch(
            "SELECT options, seed, snapshot, "
            "(SELECT COUNT(*) FROM match_seats WHERE match_id = m.id) AS seats FROM matches m WHERE id = ?",
            match_id,
        )
        moves = await tx.fetch("SELECT seat, notation FROM moves WHERE match_id = ? ORDER BY ply", match_id)
        entries = [(m["seat"], m["notation"]) for m in moves]
        snapshot = recounted_snapshot(
            row["seats"], row["options"], row["seed"], entries, row["snapshot"], json_value=json_value
        )
        if snapshot is not None:
            await tx.run("UPDATE matches SET snapshot = ? WHERE id = ?", snapshot, match_id)
            recounted.append(match_id)
    report_recounted(recounted)
