"""The store interface: persistence for matches, moves, challenges, lobbies, guild settings and ratings.

SQL only: no game rules and no Discord. Races are settled in the database: every change to a match is
guarded by its ply (``UPDATE matches ... WHERE id = ? AND ply = ?``) in the same transaction as the rows that
go with it, and a method that loses the race returns False (or raises `StoreConflict` where it says so).
Times are seconds since the epoch.
"""

from __future__ import annotations

import enum
import json
import logging
import math
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from bot.service.records import (
    AI_LEVELS,
    THEMES,
    BoardPosted,
    Challenge,
    ChallengeStatus,
    DailyPuzzleChannel,
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
    Player,
    PostedMessage,
    PuzzlePlayer,
    PuzzleRecord,
    Rating,
    RatingChange,
    RematchRecord,
    ReminderMode,
    RequestMessage,
    Requests,
    SeatResult,
    StreakRun,
    TakebackRecord,
    TakebackRequest,
    UserPrefs,
    UserStats,
)
from bot.service.timecontrol import TimeControl
from games.base import Outcome

log = logging.getLogger(__name__)


class StoreConflict(Exception):
    """A write found the row in another state than expected (another writer got there first)."""


class ChannelTaken(StoreConflict):
    """The channel already has an active match."""


class LobbyChanged(StoreConflict):
    """A lobby's members are no longer the players a match was about to start with."""


class TournamentGameTaken(StoreConflict):
    """A match of this tournament game was opened already (`insert_match`'s `tournament_game`)."""


@dataclass(frozen=True, slots=True)
class StoredTournament:
    """A tournament's row: the snapshot (the service's JSON of the value) at `version`."""

    id: int
    guild_id: int | None
    channel_id: int
    status: str
    version: int
    snapshot: str
    wakeup: float | None


@dataclass(frozen=True, slots=True)
class TournamentWrite:
    """What one step writes: the new snapshot, its status, when its clock is due next, and its players."""

    status: str
    snapshot: str
    wakeup: float | None
    players: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class OutboxItem:
    """One action a step asked for and the host has not marked done."""

    id: int
    tournament_id: int
    action: Any


class ShardFilter(Protocol):
    """The shards whose guilds a process owns (bot.service.shards.Shards)."""

    def owns(self, guild_id: int | None) -> bool: ...
    def sql_filter(self, column: str = "guild_id") -> str: ...


class Row(Protocol):
    """A result row read by column name (sqlite3.Row, asyncpg.Record)."""

    def __getitem__(self, column: str) -> Any: ...


class DamagedRow(Exception):
    """A stored match whose row or seat rows break what the schema means (a column of the wrong type or out
    of range, JSON that does not parse or has the wrong shape, missing or misnumbered seats, an unknown AI
    level): the service sets it aside (quarantine) instead of failing on it. `settled` is True when its
    status says it is over (finished or aborted): such a match is only reported, not set aside."""

    def __init__(self, match_id: Any, reason: str, *, settled: bool = False, game: object = "?") -> None:
        super().__init__(f"match #{match_id}: {reason}")
        self.match_id = match_id
        self.reason = reason
        self.settled = settled
        self.game = str(game)


class _Bad(ValueError):
    """One column of a match row is not what the schema means."""


MAX_ID = 2**63
"""Discord ids and ours are positive 64-bit integers."""


def _an_int(value: Any, column: str, *, low: int = 0, high: int = MAX_ID) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value < high:
        raise _Bad(f"{column} is {value!r}, not a whole number from {low}")
    return value


def _an_id(value: Any, column: str) -> int:
    return _an_int(value, column, low=1)


def _a_time(value: Any, column: str, *, positive: bool = False) -> float:
    """A number of seconds: finite, and above zero where `positive`."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _Bad(f"{column} is {value!r}, not a number of seconds")
    if positive and value <= 0:
        raise _Bad(f"{column} is {value!r}, not above zero")
    return float(value)


def _a_flag(value: Any, column: str) -> bool:
    """A boolean column (SQLite keeps 0 or 1)."""
    if value not in (0, 1) or isinstance(value, float):
        raise _Bad(f"{column} is {value!r}, not 0 or 1")
    return bool(value)


def _json(value: Any, column: str, json_value: Callable[[Any], Any]) -> Any:
    try:
        return json_value(value)
    except (TypeError, ValueError) as error:
        raise _Bad(f"{column} is not JSON ({error})") from None


E = TypeVar("E", bound=enum.StrEnum)
T = TypeVar("T")


def _member(kind: type[E], value: Any, column: str) -> E:
    """The member of a stored enum."""
    try:
        return kind(value)
    except ValueError:
        raise _Bad(f"{column} is {value!r}, not one of {', '.join(kind)}") from None


def _seat_list(value: Any, column: str, seats: int) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or any(
        isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < seats for v in value
    ):
        raise _Bad(f"{column} is {value!r}, not a list of seats 0..{seats - 1}")
    return tuple(value)


def _players(rows: Sequence[Row]) -> tuple[Player, ...]:
    """The seat rows (`seat`, `user_id`, `ai_level`, `result`) of a match, in seat order, as Players: seats
    numbered 0..n-1, each a user id, a known AI level or none, and a result or none."""
    if not rows:
        raise _Bad("it has no seat rows")
    numbers = [r["seat"] for r in rows]
    if numbers != list(range(len(rows))):
        raise _Bad(f"its seats are numbered {numbers}, not 0..{len(rows) - 1}")
    players = []
    for r in rows:
        seat = f"seat {r['seat']}"
        level, result = r["ai_level"], r["result"]
        if level is not None and level not in AI_LEVELS:
            raise _Bad(f"{seat} has the unknown AI level {level!r} (known: {', '.join(AI_LEVELS)})")
        user_id = _an_id(r["user_id"], f"{seat}'s user_id")
        outcome = None if result is None else _member(SeatResult, result, f"{seat}'s result")
        players.append(Player(r["seat"], user_id, level, outcome))
    return tuple(players)


def _parsed(
    raw: Any, column: str, json_value: Callable[[Any], Any], build: Callable[[Any], T], what: str
) -> T:
    """A JSON column read into its record by `build`; anything else is a damaged row naming the column."""
    data = _json(raw, column, json_value)
    try:
        return build(data)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise _Bad(f"{column} {data!r} is not {what} ({error!r})") from None


def match_from_row(r: Row, seat_rows: Sequence[Row], json_value: Callable[[Any], Any]) -> MatchRecord:
    """A `matches` row and its seat rows as a MatchRecord, every column checked against what the schema
    means; DamagedRow says what is wrong. `json_value` turns a JSON column into its value (SQLite keeps
    JSON as text, PostgreSQL's jsonb codec has decoded it already). Both stores build every match through
    here, so the start-up check, the turn clock, the service and check-db all judge a row the same way."""
    status = r["status"]
    try:
        return _match(r, seat_rows, json_value)
    except _Bad as error:
        settled = status in (MatchStatus.FINISHED, MatchStatus.ABORTED)
        raise DamagedRow(r["id"], str(error), settled=settled, game=r["game"]) from None


def _match(r: Row, seat_rows: Sequence[Row], json_value: Callable[[Any], Any]) -> MatchRecord:
    seats = _players(seat_rows)
    status = _member(MatchStatus, r["status"], "status")
    game, snapshot, quarantine = r["game"], r["snapshot"], r["quarantine"]
    if not isinstance(game, str) or not game:
        raise _Bad(f"game is {game!r}, not a game's name")
    if not isinstance(snapshot, str):
        raise _Bad(f"snapshot is {type(snapshot).__name__}, not JSON text")
    if quarantine is not None and not isinstance(quarantine, str):
        raise _Bad(f"quarantine is {quarantine!r}, not text")
    options = _json(r["options"], "options", json_value)
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise _Bad(f"options are {options!r}, not a JSON object")
    outcome = None
    if r["outcome"] is not None:
        outcome = _parsed(r["outcome"], "outcome", json_value, Outcome.from_json, "an outcome")
        places = _seat_list(list(outcome.ranks), "outcome's ranks", len(seats))
        if len(places) != len(seats):
            raise _Bad(f"the outcome ranks {len(places)} seats, the match has {len(seats)}")
    takeback = None
    if r["takeback"] is not None:
        takeback = _parsed(
            r["takeback"], "takeback", json_value, TakebackRequest.from_json, "a takeback request"
        )
        _seat_list([takeback.seat, *takeback.accepted], "takeback's seats", len(seats))
        _an_id(takeback.user_id, "takeback's user_id")
        _an_int(takeback.ply, "takeback's ply")
    abort_votes = r["abort_votes"]
    votes = _seat_list(_json(abort_votes, "abort_votes", json_value), "abort_votes", len(seats))
    deadline, finished_at, guild_id = r["deadline"], r["finished_at"], r["guild_id"]
    return MatchRecord(
        id=r["id"],
        game=game,
        options=options,
        seed=_an_int(r["seed"], "seed", low=-MAX_ID),
        guild_id=None if guild_id is None else _an_id(guild_id, "guild_id"),
        channel_id=_an_id(r["channel_id"], "channel_id"),
        seats=seats,
        status=status,
        ply=_an_int(r["ply"], "ply"),
        turn_timeout=_a_time(r["turn_timeout"], "turn_timeout", positive=True),
        deadline=None if deadline is None else _a_time(deadline, "deadline"),
        snapshot=snapshot,
        outcome=outcome,
        rated=_a_flag(r["rated"], "rated"),
        ratings_applied=_a_flag(r["ratings_applied"], "ratings_applied"),
        abort_votes=votes,
        takeback=takeback,
        created_at=_a_time(r["created_at"], "created_at"),
        updated_at=_a_time(r["updated_at"], "updated_at"),
        finished_at=None if finished_at is None else _a_time(finished_at, "finished_at"),
        quarantine=quarantine,
        side=_a_flag(r["side"], "side"),
        time_control=_time_control(_column(r, "time_control")),
        berserk=_berserk(_column(r, "berserk"), len(seats)),
    )


def _column(r: Row, name: str) -> Any:
    """A column a row may lack (one read before its migration, or built by hand): None then."""
    try:
        return r[name]
    except (KeyError, IndexError):
        return None


def _time_control(raw: object) -> TimeControl | None:
    if raw is None:
        return None
    if not isinstance(raw, str):
        raise _Bad(f"time_control is {raw!r}, not text")
    try:
        return TimeControl.of(raw)
    except ValueError as error:
        raise _Bad(f"time_control {raw!r} is not a time control ({error})") from None


def _berserk(raw: object, seats: int) -> tuple[int, ...]:
    """The berserked seats: a JSON list of seat numbers (NULL: none)."""
    if raw is None:
        return ()
    try:
        value = json.loads(raw) if isinstance(raw, str) else None
    except ValueError:
        value = None
    if not isinstance(value, list) or not all(type(s) is int and 0 <= s < seats for s in value):
        raise _Bad(f"berserk {raw!r} is not a list of seats")
    return tuple(value)


def user_prefs_from_row(user_id: int, theme: object, reminders: object) -> UserPrefs:
    """A `user_prefs` row as UserPrefs. A damaged field (a theme or reminder mode the bot does not know) reads
    as its default, with a warning in the log: one bad value never costs the user a reply, and their next
    /prefs writes it right."""
    mode = next((m for m in ReminderMode if m.value == reminders), None)
    if mode is None:
        log.warning("user_prefs of user %s: reminders %r is not a mode; read as off", user_id, reminders)
        mode = ReminderMode.OFF
    if theme is not None and theme not in THEMES:
        log.warning("user_prefs of user %s: theme %r is not a theme; read as the server's", user_id, theme)
        theme = None
    return UserPrefs(user_id, theme, mode)


def sound_matches(
    rows: Sequence[Row], seats: Mapping[int, Sequence[Row]], json_value: Callable[[Any], Any]
) -> list[MatchRecord]:
    """The matches of a listing (rows and their seat rows by match id), leaving out the damaged ones: one
    bad row never breaks a list (the start-up check and a direct read set it aside)."""
    found = []
    for r in rows:
        try:
            found.append(match_from_row(r, seats.get(r["id"], ()), json_value))
        except DamagedRow as damaged:
            log.warning("left out of a listing: %s", damaged)
    return found


def joined_matches(where: str) -> str:
    """The query that reads matches joined with their seats, one row per seat (NULL seat columns for a
    match without seats), ordered by match then seat: `_one_match` and `get_matches` of both stores."""
    return (
        "SELECT m.*, s.seat, s.user_id, s.ai_level, s.result "
        f"FROM matches m LEFT JOIN match_seats s ON s.match_id = m.id {where} ORDER BY m.id, s.seat"
    )


def matches_from_joined(
    rows: Sequence[Row], json_value: Callable[[Any], Any]
) -> dict[int, MatchRecord | DamagedRow]:
    """Matches read joined with their seats (`m.*` and `s.seat, s.user_id, s.ai_level, s.result`, ordered
    by match then seat; a match without seats has one row of NULL seat columns), each built through
    `match_from_row`: a damaged one comes back as its DamagedRow, so one bad row never fails a batch."""
    grouped: dict[int, tuple[Row, list[Row]]] = {}
    for r in rows:
        _, seats = grouped.setdefault(r["id"], (r, []))
        if r["seat"] is not None:
            seats.append(r)
    found: dict[int, MatchRecord | DamagedRow] = {}
    for match_id, (first, seats) in grouped.items():
        try:
            found[match_id] = match_from_row(first, seats, json_value)
        except DamagedRow as damaged:
            found[match_id] = damaged
    return found


def history_query(source: str, where: str, limit: str) -> str:
    """The newest finished matches of `source` (``matches m``, or the user's seats joined to them) that
    match `where`, at most `limit` (a placeholder), in one statement: each match's row once per seat, with
    its seat columns and ``chosen``, the moves chosen in it (resignations are no choice). One round trip
    instead of three (matches, seats, counts): on a busy server each trip is what a read costs."""
    return (
        f"WITH top AS (SELECT m.* FROM {source} WHERE {where} "
        f"ORDER BY m.finished_at DESC, m.id DESC LIMIT {limit}) "
        "SELECT top.*, s.seat, s.user_id, s.ai_level, s.result, "
        "(SELECT COUNT(*) FROM moves v WHERE v.match_id = top.id AND v.notation <> 'resign') AS chosen "
        "FROM top LEFT JOIN match_seats s ON s.match_id = top.id "
        "ORDER BY top.finished_at DESC, top.id DESC, s.seat"
    )


def history_from_rows(rows: Sequence[Row], json_value: Callable[[Any], Any]) -> list[tuple[MatchRecord, int]]:
    """The matches of a `history_query`, in its order, each with its count of chosen moves, leaving out the
    damaged ones (as `sound_matches`)."""
    grouped: dict[int, list[Row]] = {}
    for r in rows:
        grouped.setdefault(r["id"], []).append(r)
    found = []
    for match_rows in grouped.values():
        first = match_rows[0]
        seats = [r for r in match_rows if r["seat"] is not None]
        try:
            found.append((match_from_row(first, seats, json_value), int(first["chosen"])))
        except DamagedRow as damaged:
            log.warning("left out of a listing: %s", damaged)
    return found


def rating_from_row(r: Row) -> Rating:
    return Rating(r["game"], r["player_key"], r["mu"], r["sigma"], r["played"])


def same_players(members: Iterable[tuple[int, str | None]], seats: Iterable[Player]) -> bool:
    """Whether the (user id, AI level) pairs of a lobby's members are exactly the players of the seats."""
    return Counter(members) == Counter((p.user_id, p.ai_level) for p in seats)


class StoreUnavailable(Exception):
    """The database cannot be used at all (not a database, damaged, unreachable, read-only); the message is
    one line for an operator: which database and what to do."""


class StoreFull(Exception):
    """A write was refused because the database's disk (or its size limit) is full: nothing of it was
    saved, and the store works on (reads, and writes once there is room). The message is one line for an
    operator."""


class BadDatabaseUrl(ValueError):
    """The database URL names no store Tessera has (a wrong scheme, no file): a setting to fix."""


class SchemaTooNew(RuntimeError):
    """The database was migrated by a newer Tessera than this one."""


PuzzleCompute = Callable[
    [tuple[float, float], tuple[float, float], bool], tuple[tuple[float, float], tuple[float, float]]
]
"""(solver's mu, sigma), (puzzle's mu, sigma), solved -> both new ratings (bot/service/puzzles.py)."""
RatingCompute = Callable[[dict[str, tuple[float, float] | None]], dict[str, tuple[float, float]]]
"""Given each player key's current (mu, sigma), or None if unrated, return each key's new (mu, sigma)."""


def rating_changes_of(
    match_id: int,
    player_keys: Sequence[str],
    current: Mapping[str, tuple[float, float] | None],
    compute: RatingCompute,
) -> list[RatingChange]:
    """The change of each player's rating by a match, `compute`d from the `current` ratings."""
    new = compute(dict(current))
    changes = []
    for key in player_keys:
        before = current[key]
        mu0, sigma0 = before if before is not None else (None, None)
        changes.append(RatingChange(match_id, key, mu0, sigma0, *new[key]))
    return changes


class ChangeListener(Protocol):
    """What hears other processes' writes of rarely changed rows (the service's cache, cache.py)."""

    def changed(self, name: str) -> None: ...
    def listening(self, live: bool) -> None: ...


@dataclass(frozen=True, slots=True)
class MatchChange:
    """A committed change of a match heard from the database (`listen`'s `matches`): its guild (None for
    none), its id, its ply before and after, what happened (start, move, back, takeback, abort, end, other;
    draw and rematch: an offer changed) and whether this process wrote it (`own`)."""

    guild_id: int | None
    match_id: int
    before: int
    after: int
    kind: str
    own: bool

    @classmethod
    def parse(cls, payload: str, *, own: bool, schema: str | None = None) -> MatchChange | None:
        """The change a `MATCH_CHANNEL` payload names (None if it is not one, or if it was written in
        another schema than `schema`, when given)."""
        parts = payload.split(":", 5)
        if len(parts) < 5 or not all(p.isdigit() for p in parts[:4]):
            return None
        if schema is not None and (len(parts) < 6 or parts[5] != schema):
            return None
        guild, match, before, after = (int(p) for p in parts[:4])
        return cls(guild or None, match, before, after, parts[4], own)


class MatchStore(Protocol):
    """What the match service needs from a database.

    The timed-work queries (deadlines, due matches, the bot's matches, challenge expiry, turn reminders) take
    `shards`: only rows of guilds those shards own (`Shards.sql_filter`); None means every guild."""

    shared: bool
    """Whether other processes may write the database (PostgreSQL): the service caches what they write only
    while it hears their changes (`listen`)."""

    async def close(self) -> None: ...

    async def full_check(self) -> None:
        """Check the whole database for damage without holding up the bot (what start-up skips after a clean
        shutdown); raises StoreUnavailable if it is damaged. Nothing to do on PostgreSQL, which checks its
        own pages as it reads them."""
        ...

    # ------------------------------------------------------------------------------ meta (schema 4)

    async def get_meta(self, key: str) -> str | None:
        """A deployment-wide value kept in the database (e.g. the fingerprint of the last command sync)."""
        ...

    async def put_meta(self, key: str, value: str) -> None: ...
    async def meta_with_prefix(self, prefix: str) -> dict[str, str]:
        """Every value whose key starts with `prefix` (no `%` or `_` in it), by key."""
        ...

    async def delete_meta(self, key: str, value: str | None = None) -> bool:
        """Delete a value (only while it is still `value`, if given: another process may have written it
        again since it was read); whether a row went."""
        ...

    # ------------------------------------------------------------------------------ web sessions

    async def revoke_web(self, key: str, at: float, until: float) -> None:
        """Record that what `key` names (``session:<digest>``, ``user:<id>``) was revoked at `at`, kept until
        `until` (then it no longer matters: the cookies it covers have expired); a later revocation of the
        same key replaces it. Expired rows are swept."""
        ...

    async def consume_web(self, key: str, at: float, until: float) -> bool:
        """Mark a one-time value (``state:<digest>``, an OAuth2 state) used; True only the first time, in
        every process."""
        ...

    async def web_revoked(self, keys: Sequence[str], now: float) -> dict[str, float]:
        """Which of `keys` are revoked (not yet expired), with when."""
        ...

    # ------------------------------------------------------------------------------------------- matches

    async def insert_match(
        self,
        new: NewMatch,
        *,
        challenge_id: int | None = None,
        lobby_id: int | None = None,
        tournament_game: tuple[int, int] | None = None,
    ) -> MatchRecord:
        """Insert a match and its seats, and close the challenge or lobby it came from, in one transaction;
        with `tournament_game` (tournament id, game number), record it as that game's match in the same
        transaction.

        Raises ChannelTaken if the channel has an active match, StoreConflict if the challenge or lobby has
        moved on, LobbyChanged if the lobby's members are not the match's players any more,
        TournamentGameTaken if the tournament game has a match already."""
        ...

    async def get_match(self, match_id: int) -> MatchRecord | None: ...
    async def get_matches(self, match_ids: Sequence[int]) -> dict[int, MatchRecord | DamagedRow]:
        """Many matches with their seats in one query: each found id maps to its record, or to its
        DamagedRow where the row breaks the schema's meaning; ids not stored are left out."""
        ...

    async def active_match_in_channel(self, channel_id: int) -> MatchRecord | None: ...
    async def match_ids(self, status: MatchStatus | None = None) -> list[int]: ...
    async def matches_of_user(self, user_id: int, limit: int = 25) -> list[MatchRecord]:
        """Active matches where the user holds a seat (not the bot's seats), newest first."""
        ...

    async def finished_matches(
        self, *, user_id: int | None, guild_id: int | None, game: str | None, limit: int
    ) -> list[tuple[MatchRecord, int]]:
        """Finished and aborted matches, newest first, each with its number of moves (resignations are
        not moves; forced passes are)."""
        ...

    async def moves(self, match_id: int) -> list[MoveRecord]: ...

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
        """Add moves and the new snapshot if the match is still active at `expected_ply`; clears requests."""
        ...

    async def finish_match(self, match_id: int, expected_ply: int, finish: Finish) -> bool:
        """End an active match at `expected_ply` without a move (resignation, timeout, abort)."""
        ...

    async def rewind_match(
        self, match_id: int, expected_ply: int, to_ply: int, snapshot: str, deadline: float | None, now: float
    ) -> bool:
        """Delete the moves from `to_ply` on and store the snapshot of the shorter log (a takeback); the
        match's `last_takeback` becomes this one, with the notations of the moves deleted."""
        ...

    async def draws(self, match_id: int) -> DrawState:
        """The match's draw offers (none: an empty state)."""
        ...

    async def update_draws(
        self, match_id: int, expected_ply: int, change: Callable[[DrawState], DrawState]
    ) -> DrawState | None:
        """Read the draw offers of the match active at `expected_ply` and store `change(draws)`, in one
        transaction that holds the match row; the draw offers now, or None if the match moved on."""
        ...

    async def rematch(self, match_id: int) -> RematchRecord | None:
        """The rematch offered after the finished match `match_id`, if any."""
        ...

    async def rematch_origin(self, new_match_id: int) -> int | None:
        """The match whose rematch `new_match_id` is, if it is one."""
        ...

    async def update_rematch(
        self, match_id: int, change: Callable[[RematchRecord | None], RematchRecord | None]
    ) -> RematchRecord | None:
        """Read the rematch after the match `match_id` (over) and store `change(rematch)` (None or the same:
        nothing written), in one transaction holding the match row; the rematch now, or None if the match is
        still active or there is no such match and no rematch."""
        ...

    async def update_requests(
        self, match_id: int, expected_ply: int, change: Callable[[Requests], Requests]
    ) -> Requests | None:
        """Read the requests of the match active at `expected_ply` and store `change(requests)`, in one
        transaction that holds the match row: votes and answers from other processes are merged, never
        overwritten. Abort votes keep their order (the first seat started the vote), each seat once. The
        requests now, or None if the match moved on."""
        ...

    async def next_deadline(self, *, shards: ShardFilter | None = None) -> float | None: ...
    async def due_matches(self, now: float, *, shards: ShardFilter | None = None) -> list[tuple[int, int]]:
        """(match id, ply) of active matches whose turn deadline has passed."""
        ...

    async def active_ai_match_ids(self, *, shards: ShardFilter | None = None) -> list[int]:
        """Active, sound matches where the bot holds a seat."""
        ...

    async def live_deadlines(self, *, shards: ShardFilter | None = None) -> list[tuple[int, int, float]]:
        """(match id, ply, deadline) of active, sound live matches (a time control) whose clock runs: what
        the flag timer schedules at start."""
        ...

    async def set_berserk(self, match_id: int, expected_ply: int, berserk: Sequence[int]) -> bool:
        """Record the berserked seats of an active match still at `expected_ply`; False if it moved on or
        ended."""
        ...

    async def set_deadline(self, match_id: int, expected_ply: int, deadline: float | None) -> bool:
        """Move an active match's deadline, if it is still at `expected_ply` (the downtime rule restarts
        the running live clocks with it); False if it moved on or ended."""
        ...

    async def active_match_ids(self) -> list[int]:
        """Every active match that is not quarantined."""
        ...

    async def listen(
        self,
        wake: Callable[[], None],
        *,
        shards: ShardFilter | None = None,
        changes: ChangeListener | None = None,
        matches: Callable[[MatchChange], None] | None = None,
    ) -> None:
        """Call `wake()` (sync, cheap) whenever any process commits a write that may move the turn clock
        earlier (a match started, moved, rewound or ended, a challenge made or answered, a guild's timeout
        changed), in a guild `shards` owns when given; and `changes.changed(key)` whenever one writes a
        server's settings (``guild:<id>``) or theme (``theme:<id>``) or a user's preferences
        (``user:<id>``), with `changes.listening(True)` once hearing starts and `False` when it stops
        (nothing heard in between); and `matches(change)` on every change of a match a player sees, by any
        process, this one included (`MatchChange.own`). Runs until cancelled (the service runs it as a
        task); returns at once where one process is all there is (SQLite)."""
        ...

    async def unsettled_match_ids(self) -> list[int]:
        """Every match neither quarantined nor over: the active ones, and any whose status is no status at
        all (only a damaged row has one). The start-up check loads each once and sets aside the damaged."""
        ...

    async def quarantine_match(self, match_id: int, reason: str) -> bool:
        """Set a match aside: its clock stops and its channel is free again; False if it already was."""
        ...

    async def quarantined_match_ids(self) -> list[int]: ...
    async def unapplied_rated_match_ids(self) -> list[int]: ...

    # ---------------------------------------------------------------------------------------- challenges

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
        """A pending challenge; `side`: made in the Activity, its match may be a side table."""
        ...

    async def get_challenge(self, challenge_id: int) -> Challenge | None: ...
    async def challenge_of_match(self, match_id: int) -> Challenge | None:
        """The challenge whose acceptance started the match, None if it started otherwise."""
        ...

    async def set_challenge_status(
        self,
        challenge_id: int,
        status: ChallengeStatus,
        *,
        expected: ChallengeStatus = ChallengeStatus.PENDING,
    ) -> bool: ...
    async def pending_challenges(self, channel_id: int | None = None) -> list[Challenge]: ...
    async def count_pending_challenges(
        self, *, challenger_id: int | None = None, channel_id: int | None = None
    ) -> int:
        """Pending challenges sent by a user, or waiting in a channel (both filters may be given)."""
        ...

    async def due_challenges(self, now: float, *, shards: ShardFilter | None = None) -> list[Challenge]: ...
    async def next_challenge_expiry(self, *, shards: ShardFilter | None = None) -> float | None: ...

    # ------------------------------------------------------------------------------------------- lobbies

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
        """Open a lobby whose host is its first member; `side` as for `insert_challenge`."""
        ...

    async def get_lobby(self, lobby_id: int) -> Lobby | None: ...
    async def open_lobbies(self, channel_id: int | None = None) -> list[Lobby]: ...
    async def count_open_lobbies(self, *, host_id: int | None = None, channel_id: int | None = None) -> int:
        """Open lobbies hosted by a user, or open in a channel."""
        ...

    async def add_lobby_member(self, lobby_id: int, member: LobbyMember) -> bool:
        """Add a member if the lobby is open, not full and (for a person) not already joined."""
        ...

    async def remove_lobby_member(self, lobby_id: int, user_id: int) -> bool: ...
    async def set_lobby_status(
        self, lobby_id: int, status: LobbyStatus, *, expected: LobbyStatus = LobbyStatus.OPEN
    ) -> bool: ...

    # ------------------------------------------------------------------------------------ guild settings

    async def get_guild_settings(self, guild_id: int) -> GuildSettings | None: ...
    async def put_guild_settings(self, settings: GuildSettings) -> None: ...
    async def guilds_without_web_board(self) -> list[int]:
        """The guilds whose settings turn the web board off (`GuildSettings.web_board`)."""
        ...

    # --------------------------------------------------------------------------------------------- ratings

    async def apply_ratings(
        self, match_id: int, game: str, player_keys: Sequence[str], compute: RatingCompute, now: float
    ) -> list[RatingChange] | None:
        """Rate a finished match once: None if it was already rated (the flag on the match is set). Counts the
        match in each player's `played`, everywhere and in the match's guild."""
        ...

    async def rating_changes(self, match_id: int) -> list[RatingChange]: ...
    async def get_ratings(self, game: str, player_keys: Sequence[str]) -> dict[str, Rating]: ...
    async def leaderboard(
        self, game: str, guild_id: int | None, limit: int, max_sigma: float
    ) -> list[Rating]:
        """The best ratings of people (``user:`` keys; never the bot's) in a game, mu highest first, of those
        with a rated result and sigma at most `max_sigma` (established), with how many rated matches each
        played: everywhere, or in one guild (its own count there)."""
        ...

    async def user_stats(self, user_id: int, guild_id: int | None = None) -> list[UserStats]: ...

    # ---------------------------------------------------------------------- preferences (schema 3)

    async def get_user_prefs(self, user_id: int) -> UserPrefs | None: ...
    async def put_user_prefs(self, prefs: UserPrefs, now: float) -> None: ...
    async def get_guild_theme(self, guild_id: int) -> str | None: ...
    async def set_guild_theme(self, guild_id: int, theme: str, now: float) -> None: ...

    # ------------------------------------------------------------------- posted messages (schema 3)

    async def swap_board_message(
        self, match_id: int, posted: PostedMessage, now: float
    ) -> PostedMessage | None:
        """Make `posted` the match's newest board unless a newer one (a higher message id) is recorded, in
        one transaction; returns the board no longer newest (the previous one, or `posted` itself), or None
        when there was none before (or it is `posted` again)."""
        ...

    async def post_board(self, match_id: int, posted: PostedMessage, now: float) -> BoardPosted:
        """`swap_board_message`, and the match's request messages with live buttons, in one transaction (a
        board posted after every move reads both, so one trip to the database instead of two)."""
        ...

    async def get_board_message(self, match_id: int) -> PostedMessage | None: ...
    async def put_challenge_message(self, challenge_id: int, posted: PostedMessage, now: float) -> None: ...
    async def get_challenge_message(self, challenge_id: int) -> PostedMessage | None: ...
    async def put_request_message(self, request: RequestMessage, now: float) -> None:
        """Record a request message with live buttons (again: its waiting list is replaced)."""
        ...

    async def request_messages(self, match_id: int) -> list[RequestMessage]:
        """The match's request messages with live buttons, oldest first."""
        ...

    async def delete_request_message(self, message_id: int) -> bool:
        """Forget a request message (its buttons are off); whether it was recorded."""
        ...

    async def last_takeback(self, match_id: int) -> TakebackRecord | None:
        """The match's last takeback (`rewind_match` records it), None if it never had one."""
        ...

    # -------------------------------------------------------------------- turn reminders (schema 3)

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
        """(match id, deadline) of the turns whose reminder is due by `now`, earliest first: active, sound
        matches whose turn timeout is at least `min_turn`, with a seated person whose reminders are on, not
        yet reminded for this deadline. A turn started at deadline - turn_timeout; its reminder is due
        min(turn_timeout * fraction, max_delay) later."""
        ...

    async def next_turn_reminder(
        self, *, min_turn: float, fraction: float, max_delay: float, shards: ShardFilter | None = None
    ) -> float | None:
        """When the earliest reminder not yet sent is due (the same turns as `due_turn_reminders`)."""
        ...

    async def claim_turn_reminder(self, match_id: int, deadline: float, now: float) -> bool:
        """Mark the turn that ends at `deadline` reminded, if the match is still active at that deadline and
        it was not marked yet: True once per turn, so a reminder is sent at most once."""
        ...

    # --------------------------------------------------------------------------------------- tournaments

    async def insert_tournament(
        self, guild_id: int | None, channel_id: int, now: float, build: Callable[[int], TournamentWrite]
    ) -> int:
        """A new tournament at version 1: `build` makes its first write from the id the database gave it."""
        ...

    async def get_tournament(self, tournament_id: int) -> StoredTournament | None: ...

    async def save_tournament(
        self,
        tournament_id: int,
        expected_version: int,
        write: TournamentWrite,
        actions: Sequence[Any],
        now: float,
    ) -> list[OutboxItem] | None:
        """Write a step if the row is still at `expected_version` (then at version + 1), and put `actions`
        (JSON values) in the outbox in the same transaction: the outbox items, in order; None when another
        writer got there first (nothing written)."""
        ...

    async def pending_actions(self, tournament_id: int | None = None) -> list[OutboxItem]:
        """The outbox items not marked done (of one tournament, or of all), in the order they were written."""
        ...

    async def action_done(self, item_id: int) -> None: ...

    async def live_tournaments(
        self, *, guild_id: int | None = None, shards: ShardFilter | None = None
    ) -> list[StoredTournament]:
        """The tournaments open or running (in one guild, or in the guilds `shards` owns), oldest first."""
        ...

    async def next_tournament_wakeup(self, *, shards: ShardFilter | None = None) -> float | None: ...
    async def due_tournaments(self, now: float, *, shards: ShardFilter | None = None) -> list[int]:
        """The tournaments whose clock is due by `now`."""
        ...

    async def tournament_match(self, tournament_id: int, game_number: int) -> int | None:
        """The match opened for a tournament game, if any."""
        ...

    async def tournament_of_match(self, match_id: int) -> tuple[int, int] | None:
        """(tournament id, game number) of a tournament's match; None for any other match."""
        ...

    async def tournaments_of_user(self, user_id: int, limit: int = 10) -> list[StoredTournament]:
        """The tournaments a user played in (any status), newest first."""

    # ---------------------------------------------------------------------------- puzzles (schema 12)

    async def claim_puzzle_mining(
        self, match_id: int, now: float, *, stale_before: float | None = None
    ) -> bool:
        """True once per match: whoever claims it mines its puzzles (across processes and restarts). A claim
        whose mining never finished (`finish_puzzle_mining`) and was made before `stale_before` may be
        claimed again: its process died or was stopped while mining."""
        ...

    async def finish_puzzle_mining(self, match_id: int, now: float) -> None:
        """The claimed match's mining is over: it is never claimed again."""
        ...

    async def unmined_matches(
        self, stale_before: float, *, limit: int, shards: ShardFilter | None = None
    ) -> list[int]:
        """Finished matches (oldest first, at most `limit`) never claimed for mining, or whose claim made
        before `stale_before` never finished: the sweep's work."""
        ...

    async def insert_puzzle(self, new: NewPuzzle, now: float) -> int | None:
        """Store a mined puzzle and its theme; its id, or None if its source position is stored already or
        its match already gave a puzzle (at most one a match)."""
        ...

    async def insert_starter_puzzles(self, news: Sequence[NewPuzzle], now: float) -> int:
        """Store starter puzzles (negative source_match: the pool's, source_ply: its line) not stored yet, in
        one transaction; how many were new."""
        ...

    async def get_puzzle(self, puzzle_id: int) -> PuzzleRecord | None: ...
    async def count_puzzles(self, game: str | None = None, *, starter: bool | None = None) -> int:
        """How many puzzles (of `game`; starter ones only, mined ones only, or both: None)."""
        ...

    async def open_puzzle(self, user_id: int) -> PuzzleRecord | None:
        """The puzzle shown to the user last and not answered yet, if any."""
        ...

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
        """A puzzle (of `game`, or any; of `theme`, or any) the user was never shown, its rating nearest `mu`
        (then oldest), other than `exclude`; with `starters`, starter puzzles only of those games."""
        ...

    async def daily_puzzles(self, starters: Collection[str] | None = None) -> list[tuple[int, str]]:
        """(id, game) of one puzzle per source match (its first), in id order: the daily puzzle's choice;
        with `starters`, starter puzzles only of those games."""
        ...

    async def nth_puzzle(self, index: int) -> PuzzleRecord | None:
        """The puzzle at `index` in id order (the daily puzzle's pick)."""
        ...

    async def show_puzzle(self, user_id: int, puzzle_id: int, now: float) -> None:
        """Record that the user was shown the puzzle (unanswered); nothing if it was shown before."""
        ...

    async def get_puzzle_player(self, user_id: int) -> PuzzlePlayer | None: ...
    async def answer_puzzle(
        self,
        user_id: int,
        puzzle_id: int,
        solved: bool,
        compute: PuzzleCompute,
        new: PuzzlePlayer,
        now: float,
    ) -> tuple[PuzzlePlayer, PuzzlePlayer] | None:
        """Answer a shown puzzle once, in one transaction: the solver's rating and streak (from `new` for a
        first answer) and the puzzle's rating move by `compute`. (before, after), or None if this user has no
        unanswered showing of the puzzle (answered already, or never shown)."""
        ...

    async def set_daily_puzzle_channel(self, guild_id: int, channel_id: int | None) -> None:
        """Post the server's daily puzzle in `channel_id` (None: stop posting it)."""
        ...

    async def daily_puzzle_channels(
        self, *, shards: ShardFilter | None = None
    ) -> list[DailyPuzzleChannel]: ...
    async def get_streak(self, user_id: int) -> StreakRun | None:
        """The user's puzzle streak, None before their first."""
        ...

    async def show_streak_puzzle(self, user_id: int, puzzle_id: int, now: float) -> None:
        """The user's streak shows this puzzle now (a first streak starts at 0)."""
        ...

    async def answer_streak(
        self, user_id: int, puzzle_id: int, solved: bool, now: float
    ) -> tuple[StreakRun, StreakRun] | None:
        """Answer the puzzle the user's streak shows, once, in one transaction: the run grows by one, or ends
        at 0 on a miss (the best run kept), and the puzzle counts as answered (never shown again; ratings do
        not move). (before, after), or None when the streak does not show this puzzle."""
        ...

    async def claim_daily_puzzle(self, guild_id: int, day: str) -> bool:
        """True once per server and day: mark `day` posted unless it was."""
        ...
