"""The store interface: persistence for matches, moves, challenges, lobbies, guild settings and ratings.

SQL only: no game rules and no Discord. Races are settled in the database: every change to a match is
guarded by its ply (``UPDATE matches ... WHERE id = ? AND ply = ?``) in the same transaction as the rows that
go with it, and a method that loses the race returns False (or raises `StoreConflict` where it says so).
Times are seconds since the epoch.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

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
    Player,
    Rating,
    RatingChange,
    Requests,
    SeatResult,
    TakebackRequest,
    UserStats,
)
from bot.service.shards import Shards
from games.base import Outcome


class StoreConflict(Exception):
    """A write found the row in another state than expected (another writer got there first)."""


class ChannelTaken(StoreConflict):
    """The channel already has an active match."""


class LobbyChanged(StoreConflict):
    """A lobby's members are no longer the players a match was about to start with."""


class Row(Protocol):
    """A result row read by column name (sqlite3.Row, asyncpg.Record)."""

    def __getitem__(self, column: str) -> Any: ...


def player_from_row(r: Row) -> Player:
    """A seat row (`seat`, `user_id`, `ai_level`, `result`) as a Player."""
    result = r["result"]
    return Player(r["seat"], r["user_id"], r["ai_level"], SeatResult(result) if result is not None else None)


def match_from_row(r: Row, seats: Sequence[Player], json_value: Callable[[Any], Any]) -> MatchRecord:
    """A `matches` row and its seats as a MatchRecord; `json_value` turns a JSON column into its value
    (SQLite keeps JSON as text, PostgreSQL's jsonb codec has decoded it already)."""
    outcome, takeback = r["outcome"], r["takeback"]
    return MatchRecord(
        id=r["id"],
        game=r["game"],
        options=json_value(r["options"]),
        seed=r["seed"],
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        seats=tuple(seats),
        status=MatchStatus(r["status"]),
        ply=r["ply"],
        turn_timeout=r["turn_timeout"],
        deadline=r["deadline"],
        snapshot=r["snapshot"],
        outcome=Outcome.from_json(json_value(outcome)) if outcome is not None else None,
        rated=bool(r["rated"]),
        ratings_applied=bool(r["ratings_applied"]),
        abort_votes=tuple(json_value(r["abort_votes"])),
        takeback=TakebackRequest.from_json(json_value(takeback)) if takeback is not None else None,
        created_at=r["created_at"],
        updated_at=r["updated_at"],
        finished_at=r["finished_at"],
        quarantine=r["quarantine"],
    )


def rating_from_row(r: Row) -> Rating:
    return Rating(r["game"], r["player_key"], r["mu"], r["sigma"], r["played"])


def same_players(members: Iterable[tuple[int, str | None]], seats: Iterable[Player]) -> bool:
    """Whether the (user id, AI level) pairs of a lobby's members are exactly the players of the seats."""
    return Counter(members) == Counter((p.user_id, p.ai_level) for p in seats)


class StoreUnavailable(Exception):
    """The database cannot be used at all (not a database, damaged, unreachable, read-only); the message is
    one line for an operator: which database and what to do."""


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


class MatchStore(Protocol):
    """What the match service needs from a database.

    The timed-work queries (deadlines, due matches, the bot's matches, challenge expiry, turn reminders) take
    `shards`: only rows of guilds those shards own (`Shards.sql_filter`); None means every guild."""

    async def close(self) -> None: ...

    # ------------------------------------------------------------------------------ meta (schema 4)

    async def get_meta(self, key: str) -> str | None:
        """A deployment-wide value kept in the database (e.g. the fingerprint of the last command sync)."""
        ...

    async def put_meta(self, key: str, value: str) -> None: ...

    # ------------------------------------------------------------------------------------------- matches

    async def insert_match(
        self, new: NewMatch, *, challenge_id: int | None = None, lobby_id: int | None = None
    ) -> MatchRecord:
        """Insert a match and its seats, and close the challenge or lobby it came from, in one transaction.

        Raises ChannelTaken if the channel has an active match, StoreConflict if the challenge or lobby has
        moved on, LobbyChanged if the lobby's members are not the match's players any more."""
        ...

    async def get_match(self, match_id: int) -> MatchRecord | None: ...
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
        """Delete the moves from `to_ply` on and store the snapshot of the shorter log (a takeback)."""
        ...

    async def update_requests(
        self, match_id: int, expected_ply: int, change: Callable[[Requests], Requests]
    ) -> Requests | None:
        """Read the requests of the match active at `expected_ply` and store `change(requests)`, in one
        transaction that holds the match row: votes and answers from other processes are merged, never
        overwritten. The requests now, or None if the match moved on."""
        ...

    async def next_deadline(self, *, shards: Shards | None = None) -> float | None: ...
    async def due_matches(self, now: float, *, shards: Shards | None = None) -> list[tuple[int, int]]:
        """(match id, ply) of active matches whose turn deadline has passed."""
        ...

    async def active_ai_match_ids(self, *, shards: Shards | None = None) -> list[int]:
        """Active, sound matches where the bot holds a seat."""
        ...

    async def active_match_ids(self) -> list[int]:
        """Every active match that is not quarantined (the start-up check loads each once)."""
        ...

    async def listen(self, wake: Callable[[], None], *, shards: Shards | None = None) -> None:
        """Call `wake()` (sync, cheap) whenever any process commits a write that may move the turn clock
        earlier (a match started, moved, rewound or ended, a challenge made or answered, a guild's timeout
        changed), in a guild `shards` owns when given. Runs until cancelled (the service runs it as a task);
        returns at once where one process is all there is (SQLite)."""
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
    ) -> Challenge: ...

    async def get_challenge(self, challenge_id: int) -> Challenge | None: ...
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

    async def due_challenges(self, now: float, *, shards: Shards | None = None) -> list[Challenge]: ...
    async def next_challenge_expiry(self, *, shards: Shards | None = None) -> float | None: ...

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
    ) -> Lobby:
        """Open a lobby whose host is its first member."""
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

    async def get_board_message(self, match_id: int) -> PostedMessage | None: ...
    async def put_challenge_message(self, challenge_id: int, posted: PostedMessage, now: float) -> None: ...
    async def get_challenge_message(self, challenge_id: int) -> PostedMessage | None: ...

    # -------------------------------------------------------------------- turn reminders (schema 3)

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
        """(match id, deadline) of the turns whose reminder is due by `now`, earliest first: active, sound
        matches whose turn timeout is at least `min_turn`, with a seated person whose reminders are on, not
        yet reminded for this deadline. A turn started at deadline - turn_timeout; its reminder is due
        min(turn_timeout * fraction, max_delay) later."""
        ...

    async def next_turn_reminder(
        self, *, min_turn: float, fraction: float, max_delay: float, shards: Shards | None = None
    ) -> float | None:
        """When the earliest reminder not yet sent is due (the same turns as `due_turn_reminders`)."""
        ...

    async def claim_turn_reminder(self, match_id: int, deadline: float, now: float) -> bool:
        """Mark the turn that ends at `deadline` reminded, if the match is still active at that deadline and
        it was not marked yet: True once per turn, so a reminder is sent at most once."""
        ...
