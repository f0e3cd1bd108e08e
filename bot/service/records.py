"""The service's records: what it stores and what it returns, frozen and Discord-free.

The store builds the stored records (`MatchRecord`, `Challenge`, `Lobby`, ...) from rows; the service adds
only what the rules know: a `MatchView` is a `MatchRecord` with its engine state and whose turn it is, a
`MoveView` a `MoveRecord` with its player and its description. Results of actions (`Played`, `Finished`,
...) and the events of background work (`TimedOut`, `ChallengeExpired`) are records too.

Players are Discord user ids (ints), seats the engine's 0..n-1; the bot's own seats carry an `ai_level`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, Self, TypeAlias

from bot.service.timecontrol import TimeControl
from games.ai.levels import ALL_LEVEL_IDS, LEVEL_IDS
from games.base import Outcome, Seat, Termination

AI_LEVELS: tuple[str, ...] = ALL_LEVEL_IDS
"""Every level a bot seat may hold: the eight levels "1" to "8" (the ones offered) and the old "easy",
"medium" and "hard" of older matches and lobbies (games/ai/levels.py)."""
NEW_AI_LEVELS: tuple[str, ...] = LEVEL_IDS
"""The levels a new bot seat may take: the eight ("easy", "medium" and "hard" only stay in older matches)."""


class MatchStatus(enum.StrEnum):
    """A match's life; the values are stored."""

    ACTIVE = "active"
    FINISHED = "finished"
    ABORTED = "aborted"


class ChallengeStatus(enum.StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    WITHDRAWN = "withdrawn"
    EXPIRED = "expired"


class LobbyStatus(enum.StrEnum):
    OPEN = "open"
    STARTED = "started"
    CLOSED = "closed"


class SeatResult(enum.StrEnum):
    """A seat's result once the match is over (an aborted match has none)."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"


def player_key(user_id: int, ai_level: str | None) -> str:
    """The rating key of a player: ``user:<id>``, or ``ai:<level>`` for the bot at that level."""
    return f"ai:{ai_level}" if ai_level is not None else f"user:{user_id}"


def parse_player_key(key: str) -> tuple[int | None, str | None]:
    """(user id, None) for a person's key, (None, level) for the bot's."""
    kind, _, rest = key.partition(":")
    return (None, rest) if kind == "ai" else (int(rest), None)


# ------------------------------------------------------------------------------------------------ matches


@dataclass(frozen=True, slots=True)
class Player:
    """Who sits in one seat: a user, or the bot itself playing at `ai_level`."""

    seat: Seat
    user_id: int
    ai_level: str | None = None
    result: SeatResult | None = None

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None

    @property
    def player_key(self) -> str:
        return player_key(self.user_id, self.ai_level)


@dataclass(frozen=True, slots=True)
class TakebackRequest:
    """A pending takeback: `seat`'s player asked at `ply`; `accepted` are the seats that agreed so far."""

    seat: Seat
    user_id: int
    ply: int
    accepted: tuple[Seat, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "user_id": self.user_id, "ply": self.ply, "accepted": list(self.accepted)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TakebackRequest:
        return cls(data["seat"], data["user_id"], data["ply"], tuple(data.get("accepted", ())))


@dataclass(frozen=True, slots=True)
class Requests:
    """What the players of an active match asked for and not settled yet: the seats voting to abort, in the
    order they agreed (the first started the vote), and the open takeback request. The store changes both in
    one locked read and write (`update_requests`)."""

    abort_votes: tuple[Seat, ...] = ()
    takeback: TakebackRequest | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchRecord:
    """A match as stored. `snapshot` is the JSON text of the engine's `dump` after `ply` moves; `outcome` is
    set once the match is over (by the rules, or by the service for a resignation, timeout or abort)."""

    id: int
    game: str
    options: Mapping[str, Any]
    seed: int
    guild_id: int | None
    channel_id: int
    seats: tuple[Player, ...]
    status: MatchStatus
    ply: int
    turn_timeout: float
    deadline: float | None
    snapshot: str
    outcome: Outcome | None
    rated: bool
    ratings_applied: bool
    abort_votes: tuple[Seat, ...]
    takeback: TakebackRequest | None
    created_at: float
    updated_at: float
    finished_at: float | None
    quarantine: str | None = None
    time_control: TimeControl | None = None
    """The live clock (issue 43); None: correspondence, a deadline per turn."""
    berserk: tuple[int, ...] = ()
    """The seats that berserked (an arena game on a live clock: half the base, no increment)."""
    clocks: tuple[float, ...] | None = None
    """A live match's clocks by seat as of its last move (not stored: the moves' stamps give them;
    `MatchService` fills it in where it has the log, else None)."""
    """Why the match was set aside (its snapshot or log cannot be loaded), or None for a sound match."""
    side: bool = False
    """A side table: started in the channel's Activity beside the channel's main match, which the channel's
    commands keep acting on (at most one main match is active per channel; side ones are not counted)."""

    @property
    def is_active(self) -> bool:
        return self.status is MatchStatus.ACTIVE

    def seat_of(self, user_id: int) -> Seat | None:
        """The first seat this user holds (a person's seat before the bot's), or None."""
        people = (p.seat for p in self.seats if p.user_id == user_id and not p.is_ai)
        anyone = (p.seat for p in self.seats if p.user_id == user_id)
        return next(people, next(anyone, None))

    @property
    def human_user_ids(self) -> tuple[int, ...]:
        return tuple(dict.fromkeys(p.user_id for p in self.seats if not p.is_ai))

    def moved_to(self, ply: int, snapshot: str, deadline: float | None, now: float) -> Self:
        """This row as a write that moved the game to `ply` left it: a move or a takeback clears the open
        abort votes and takeback request."""
        return replace(
            self, ply=ply, snapshot=snapshot, deadline=deadline, updated_at=now, abort_votes=(), takeback=None
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchView(MatchRecord):
    """A match with its engine state after `ply` moves, and the seat to move (None once over)."""

    state: Any
    to_move: Seat | None

    @classmethod
    def of(cls, record: MatchRecord, state: Any, to_move: Seat | None) -> Self:
        stored = {name: getattr(record, name) for name in _STORED_FIELDS}
        return cls(**stored, state=state, to_move=to_move if record.is_active else None)

    @property
    def user_to_move(self) -> int | None:
        """The user id of the seat to move (the bot's id for an AI seat), None once over."""
        return None if self.to_move is None else self.seats[self.to_move].user_id

    def ai_seat_to_move(self) -> Player | None:
        """The bot's seat if the bot is to move in an active match: then the bot should think."""
        if self.to_move is None:
            return None
        player = self.seats[self.to_move]
        return player if player.is_ai else None


_STORED_FIELDS = tuple(f.name for f in fields(MatchRecord))


@dataclass(frozen=True, slots=True)
class NewMatch:
    """Everything needed to insert a match."""

    game: str
    options: Mapping[str, Any]
    seed: int
    guild_id: int | None
    channel_id: int
    seats: tuple[Player, ...]
    turn_timeout: float
    deadline: float | None
    snapshot: str
    rated: bool
    created_at: float
    side: bool = False
    time_control: TimeControl | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveRecord:
    """One entry of a match's move log. Forced moves (automatic passes) are entries too, marked `forced`; a
    resignation that does not end the game is the word `resign` with the resigning seat."""

    ply: int
    seat: Seat
    notation: str
    forced: bool
    at: float
    clock: float | None = None
    """The mover's remaining seconds after this move on a live clock; None in correspondence."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveView(MoveRecord):
    """A move with its player, its description (`rules.describe` from the position before it) and its
    number as players read it (`Rules.moves_played` before it, plus one; None for a resignation: no move)."""

    user_id: int
    description: str
    number: int | None = None


@dataclass(frozen=True, slots=True)
class Finish:
    """How a match ends inside a write: the new status, the outcome and each seat's result."""

    status: MatchStatus
    outcome: Outcome
    at: float

    @property
    def results(self) -> dict[Seat, SeatResult | None]:
        outcome = self.outcome
        if outcome.termination is Termination.ABORTED:
            return dict.fromkeys(range(len(outcome.ranks)))
        if outcome.is_draw:
            return dict.fromkeys(range(len(outcome.ranks)), SeatResult.DRAW)
        return {
            s: SeatResult.WIN if s in outcome.winners else SeatResult.LOSS for s in range(len(outcome.ranks))
        }


# ------------------------------------------------------------------------------------------------ results


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A player's rating before (None: first rated game) and after one match."""

    match_id: int
    player_key: str
    mu_before: float | None
    sigma_before: float | None
    mu_after: float
    sigma_after: float

    @property
    def user_id(self) -> int | None:
        return parse_player_key(self.player_key)[0]

    @property
    def ai_level(self) -> str | None:
        return parse_player_key(self.player_key)[1]


@dataclass(frozen=True, slots=True)
class Finished:
    """A match that has just ended. `winners` are user ids (empty for a draw or an abort); `by_user` is who
    resigned, timed out or aborted, if anyone. `early` is set when the match was aborted because `by_user`
    resigned (RESIGNATION) or ran out of time (TIMEOUT) before every seat had moved once."""

    match: MatchView
    outcome: Outcome
    winners: tuple[int, ...]
    by_user: int | None
    rating_changes: tuple[RatingChange, ...]
    early: Termination | None = None

    @property
    def termination(self) -> Termination:
        return self.outcome.termination


@dataclass(frozen=True, slots=True)
class Played:
    """The result of a move: the move, the forced moves that followed, and the end if it came."""

    match: MatchView
    move: MoveView
    forced: tuple[MoveView, ...]
    finished: Finished | None

    @property
    def moves(self) -> tuple[MoveView, ...]:
        return (self.move, *self.forced)


@dataclass(frozen=True, slots=True)
class AbortRequested:
    """An abort vote waiting for the other players: `by_user` started it, `waiting_for` are the user ids who
    have not agreed yet."""

    match: MatchView
    by_user: int
    waiting_for: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TakebackRequested:
    match: MatchView
    by_user: int
    waiting_for: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TakenBack:
    """A takeback that happened: `undone` are the moves removed, newest last."""

    match: MatchView
    by_user: int
    undone: tuple[MoveView, ...]


# ------------------------------------------------------------------------------------- challenges, lobbies


@dataclass(frozen=True, slots=True)
class Challenge:
    """A challenge of one member by another to a two-player match; `options` are resolved when it is made."""

    id: int
    game: str
    options: Mapping[str, Any]
    guild_id: int | None
    channel_id: int
    challenger_id: int
    opponent_id: int
    status: ChallengeStatus
    created_at: float
    expires_at: float
    match_id: int | None
    side: bool = False
    """Made in the Activity: its match may start as a side table (`MatchRecord.side`) if the channel has its
    main match when it is accepted."""


@dataclass(frozen=True, slots=True)
class LobbyMember:
    """A lobby seat: a user, or the bot at `ai_level`."""

    user_id: int
    ai_level: str | None
    joined_at: float


@dataclass(frozen=True, slots=True)
class Lobby:
    """An open table for a game of several players; the host starts it."""

    id: int
    game: str
    options: Mapping[str, Any]
    guild_id: int | None
    channel_id: int
    host_id: int
    seat_order: str  # "random" or "joined"
    max_players: int
    status: LobbyStatus
    created_at: float
    match_id: int | None
    members: tuple[LobbyMember, ...]
    side: bool = False
    """Made in the Activity: its match may start as a side table, as a challenge's (`Challenge.side`)."""


# ------------------------------------------------------------------------------------ settings, statistics


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Per-guild settings: turn timeout in seconds, matches in threads, channels where games may start
    (empty = every channel), the language of public messages (None: the server's Discord language), and
    whether the server's matches have the web board (its links, its pages, the Activity)."""

    guild_id: int
    turn_timeout: float
    threads: bool
    allowed_channels: tuple[int, ...]
    locale: str | None = None
    web_board: bool = True


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's openskill rating in a game, and how many finished rated matches it counts."""

    game: str
    player_key: str
    mu: float
    sigma: float
    played: int = 0

    @property
    def user_id(self) -> int | None:
        return parse_player_key(self.player_key)[0]

    @property
    def ai_level(self) -> str | None:
        return parse_player_key(self.player_key)[1]


@dataclass(frozen=True, slots=True)
class UserStats:
    game: str
    played: int
    won: int
    lost: int
    drawn: int


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """A finished or aborted match and the number of its moves, counted as `Rules.moves_played` counts them
    (forced passes included, resignations not), so /history says what the final board said."""

    match: MatchRecord
    moves: int


# ------------------------------------------------------------------------------------------------ events


@dataclass(frozen=True, slots=True)
class TimedOut:
    """A player ran out of time: either the match ended (`finished`) or the rules moved for them
    (`played`, e.g. TilingKing's pass-all)."""

    match_id: int
    seat: Seat
    user_id: int
    finished: Finished | None
    played: Played | None


@dataclass(frozen=True, slots=True)
class ChallengeExpired:
    """Nobody answered a challenge in time."""

    challenge: Challenge


@dataclass(frozen=True, slots=True)
class BotPlayed:
    """The bot took its turn in a match."""

    played: Played


Event: TypeAlias = TimedOut | ChallengeExpired | BotPlayed
"""What background work (the turn clock, the bot's own turns) reports to the application."""


@dataclass(frozen=True, slots=True)
class PostedMessage:
    """A message the bot posted: its channel (or thread) and its id."""

    channel_id: int
    message_id: int


@dataclass(frozen=True, slots=True)
class RequestMessage:
    """A posted takeback or abort request (`kind`) with live buttons: the request asked at `ply` by
    `by_user`, and who was still to answer it as the message shows (`waiting`)."""

    posted: PostedMessage
    match_id: int
    kind: str
    ply: int
    by_user: int
    waiting: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BoardPosted:
    """A board just recorded as its match's newest: the board it superseded (whose buttons go; None if none)
    and the match's request messages that still have live buttons, read in the same transaction."""

    superseded: PostedMessage | None
    requests: tuple[RequestMessage, ...]


@dataclass(frozen=True, slots=True)
class TakebackRecord:
    """A match's last takeback: from ply `from_ply` back to `to_ply`, undoing `moves` (their notations)."""

    from_ply: int
    to_ply: int
    moves: tuple[str, ...]


THEMES: tuple[str, ...] = ("default", "colorblind", "dark")
"""The renderer's theme names (`renderer.THEME_NAMES`; the service does not import the renderer, a test
keeps the two equal)."""


class ReminderMode(enum.StrEnum):
    """How a user is reminded that it is their turn in a long match; the values are stored."""

    OFF = "off"
    DM = "dm"
    MENTION = "mention"


@dataclass(frozen=True, slots=True)
class UserPrefs:
    """One user's preferences: `theme` None follows the server's default."""

    user_id: int
    theme: str | None = None
    reminders: ReminderMode = ReminderMode.OFF


@dataclass(frozen=True, slots=True)
class NewPuzzle:
    """A puzzle the finder found (games/ai/puzzles.py), to store: the position is the engine's dump, the
    solution line starts with the move to find. `source_match`/`source_ply` are private (never shown)."""

    game: str
    options: Mapping[str, Any]
    seats: int
    position: Mapping[str, Any]
    mover: int
    solution: tuple[str, ...]
    source_match: int
    source_ply: int
    figures: Mapping[str, Any]
    mu: float
    sigma: float
    theme: str | None = None
    """What the solution does (games/ai/puzzles.py THEMES)."""


@dataclass(frozen=True, slots=True)
class PuzzleRecord:
    """A stored puzzle (see `NewPuzzle`) with its id and current rating."""

    id: int
    game: str
    options: Mapping[str, Any]
    seats: int
    position: Mapping[str, Any]
    mover: int
    solution: tuple[str, ...]
    figures: Mapping[str, Any]
    mu: float
    sigma: float
    theme: str | None = None
    """What the solution does (games/ai/puzzles.py THEMES); None for puzzles stored before themes."""

    @property
    def move(self) -> str:
        """The move to find."""
        return self.solution[0]


@dataclass(frozen=True, slots=True)
class PuzzlePlayer:
    """A solver's puzzle rating (openskill mu, sigma), current and best streak, and counts."""

    user_id: int
    mu: float
    sigma: float
    streak: int = 0
    best_streak: int = 0
    solved: int = 0
    tried: int = 0


@dataclass(frozen=True, slots=True)
class StreakRun:
    """A solver's puzzle streak (solved in a row until the first miss): the current run, the puzzle it shows
    now (None between puzzles or after a miss) and the best run."""

    user_id: int
    run: int = 0
    best: int = 0
    puzzle_id: int | None = None


@dataclass(frozen=True, slots=True)
class DailyPuzzleChannel:
    """Where a server's daily puzzle goes, and the last day (UTC, YYYY-MM-DD) it was posted."""

    guild_id: int
    channel_id: int
    last_day: str | None


# ------------------------------------------------------------------------------ draw offers and rematches


@dataclass(frozen=True, slots=True)
class DrawOffer:
    """A draw offered by `seat`'s player at `ply`, when the match was last changed at `since` (a takeback
    back to the same ply changes it too); `accepted` are the seats that agreed so far, the offerer's
    included."""

    seat: Seat
    user_id: int
    ply: int
    since: float
    accepted: tuple[Seat, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "user_id": self.user_id,
            "ply": self.ply,
            "since": self.since,
            "accepted": list(self.accepted),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DrawOffer:
        return cls(
            int(data["seat"]),
            int(data["user_id"]),
            int(data["ply"]),
            float(data["since"]),
            tuple(int(s) for s in data.get("accepted", ())),
        )


@dataclass(frozen=True, slots=True)
class DrawState:
    """A match's draw offers: the last one made (open only while the match stands where it was made) and
    the ply of each seat's last offer (the spam limit)."""

    offer: DrawOffer | None = None
    offered: Mapping[Seat, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class DrawOffered:
    """An open draw offer: who offered, and the players still to agree."""

    match: MatchView
    by_user: int
    waiting_for: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DrawDeclined:
    """A draw offer closed without a draw: declined by `by_user`, or withdrawn by its offerer."""

    match: MatchView
    by_user: int
    offered_by: int


class RematchStatus(enum.StrEnum):
    OPEN = "open"
    DECLINED = "declined"
    STARTING = "starting"
    STARTED = "started"


@dataclass(frozen=True, slots=True)
class RematchRecord:
    """The rematch offered after the finished match `match_id`: offered by `by_user`, agreed so far by
    `accepted` (user ids, the offerer's included), open until `expires_at`; once started, `new_match_id`."""

    match_id: int
    by_user: int
    accepted: tuple[int, ...]
    status: RematchStatus
    asked_at: float
    expires_at: float
    new_match_id: int | None = None

    def is_open(self, now: float) -> bool:
        return self.status is RematchStatus.OPEN and now < self.expires_at


@dataclass(frozen=True, slots=True)
class RematchScore:
    """The running score of the players of a rematch chain (user ids, in the seats' order of its first
    match): points per player (a win 1, a draw or a shared first place split between those sharing it) and
    the number of matches with a result."""

    users: tuple[int, ...]
    points: tuple[float, ...]
    games: int


@dataclass(frozen=True, slots=True)
class RematchOffered:
    """A rematch offered after `match` (finished): who offered, who still has to agree, until when."""

    match: MatchView
    by_user: int
    waiting_for: tuple[int, ...]
    expires_at: float


@dataclass(frozen=True, slots=True)
class RematchStarted:
    """The rematch of `previous` has started: `match`, seats rotated, and the chain's score so far."""

    previous: MatchView
    match: MatchView
    score: RematchScore


@dataclass(frozen=True, slots=True)
class RematchDeclined:
    """A rematch offer after `match` declined by `by_user` (or withdrawn by its offerer)."""

    match: MatchView
    by_user: int
    offered_by: int
