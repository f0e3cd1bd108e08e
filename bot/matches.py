"""The match service: everything about matches that is not Discord (no discord import; a test enforces it).

Players are Discord user ids (ints); seats are the engine's 0..n-1. The service turns users into seats, checks
turns and permissions, plays moves through the game's `Rules`, persists every change through a `MatchStore`
and returns plain frozen result objects. Every failure a player can cause raises a `ServiceError` subclass
whose message can be shown to the player as is; an engine `MoveError` (illegal or malformed notation) and
`InvalidOptions` (bad match options) pass through unchanged. Catch `USER_ERRORS` to get all three.

Construction (the bot does this once in ``setup_hook``)::

    store = await open_store(settings.database_url)
    service = MatchService(store)                      # registry=games.get, now=time.time, rng=SystemRandom
    await service.recover()                            # rates matches that ended just before a crash
    clock = TurnClock(service, on_event=bot_callback)  # bot/clock.py; await clock.start() / clock.stop()

Public API of `MatchService` (all coroutines unless marked sync):

Options and settings
    rules(game) -> Rules                                               (sync) the engine; UnknownGame if none
    option_specs(game, *, lobby=False) -> tuple[Option, ...]         (sync) engine + service options
    guild_settings(guild_id) -> GuildSettings
    update_guild_settings(guild_id, *, turn_timeout=None, threads=None, allowed_channels=None)
        -> GuildSettings
Challenges (two players)
    create_challenge(game, options, challenger_id, opponent_id, *, guild_id, channel_id) -> Challenge
    accept_challenge(challenge_id, user_id, *, channel_id=None) -> MatchView   (channel_id: a new thread)
    decline_challenge(challenge_id, user_id) -> Challenge
    withdraw_challenge(challenge_id, user_id) -> Challenge
    get_challenge(challenge_id) -> Challenge;  pending_challenges(channel_id=None) -> list[Challenge]
    start_ai_match(game, options, user_id, *, ai_user_id, level, guild_id, channel_id) -> MatchView
Lobbies (TilingKing, 2-4 players)
    create_lobby(game, options, host_id, *, guild_id, channel_id, max_players=None, seat_order="random")
        -> Lobby
    join_lobby(lobby_id, user_id, *, ai_level=None) -> Lobby          (ai_level: the bot takes a seat)
    leave_lobby(lobby_id, user_id) -> Lobby                            (the host leaving closes the lobby)
    start_lobby(lobby_id, user_id, *, channel_id=None) -> MatchView
    get_lobby(lobby_id) -> Lobby;  open_lobbies(channel_id=None) -> list[Lobby]
Matches
    get_match(match_id) -> MatchView;  match_in_channel(channel_id) -> MatchView (raises NoMatchHere)
    matches_of(user_id) -> list[MatchView]                             active matches a user sits in
    play(match_id, user_id, notation, expected_ply=None) -> Played
    pass_turn(match_id, user_id, expected_ply=None) -> Played          play "pass" where the game has it
    resign(match_id, user_id) -> Finished | Played                     Played: TilingKing's engine "resign"
    request_abort(match_id, user_id, *, admin=False) -> Finished | AbortRequested
    request_takeback(match_id, user_id) -> TakebackRequested | TakenBack
    accept_takeback(match_id, user_id) -> TakenBack;  decline_takeback(match_id, user_id) -> MatchView
    legal_notations(match_id, prefix="", limit=25) -> list[str]        for autocomplete
    moves(match_id) -> list[MoveView];  replay_states(match_id) -> list[state]   (start, after each move)
    ai_turns() -> list[MatchView]                                      active matches where the bot is to move
        (the bot plays its AI seat's move with play(match_id, bot_user_id, notation, expected_ply))
Clock (bot/clock.py drives these)
    expire_due(now=None) -> list[ClockEvent];  next_wakeup() -> float | None
    expire_challenges(now=None) -> list[Challenge]                     (expire_due calls it)
    add_deadline_listener(callback)                                    (sync) called when deadlines change
Ratings and history
    leaderboard(game, *, guild_id=None, limit=10) -> list[LeaderboardEntry]
    rating(game, user_id) -> LeaderboardEntry | None
    stats(user_id, *, guild_id=None) -> list[UserStats]
    history(*, user_id=None, guild_id=None, game=None, limit=10) -> list[HistoryEntry]
    recover() -> int

Seats. Paintscape's engine seat 0 balances and seat 1 chooses (with balance off seat 0 is Black); the service
option ``balancer`` (challenger / opponent / random, default random: RULES 1.3 item 4, a PROPOSAL) decides
which user sits in seat 0. Paint's seat 0 is White (``white`` option, default random); other games use
``first``. Lobbies seat players at random or in joining order.

Turn deadlines. Each match has a turn timeout (the guild's default, 24 h unless set; the ``turn_timeout``
option overrides it, in minutes). The deadline of the player to move is a column; `expire_due` ends a
two-player game with a loss by timeout, or, where the game has ``passall`` (TilingKing), plays it for the
player. The bot's own seats have no deadline. Nothing fires twice: every expiry is a stale-checked write.

Errors name players as mentions (``<@id>``), which Discord shows as names without pinging in an ephemeral
reply; `NotYourTurnError.user_id` is there for a bot that prefers to word it itself.

Ratings. openskill's Plackett-Luce model, one rating per game and player key (``user:<id>``, or ``ai:<level>``
for the bot), updated once when a rated match finishes (a flag on the match makes it idempotent).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeAlias

from openskill.models import PlackettLuce

import games
from bot.store import (
    ABORTED,
    ACTIVE,
    FINISHED,
    ChallengeRow,
    ChannelTaken,
    Finish,
    GuildSettingsRow,
    LobbyMemberRow,
    LobbyRow,
    MatchRow,
    MatchStore,
    MoveRow,
    NewMatch,
    RatingChangeRow,
    RatingRow,
    SeatRow,
    StoreConflict,
)
from games.base import (
    InvalidMove,
    InvalidOptions,
    MoveError,
    Option,
    Outcome,
    Rules,
    Seat,
    Termination,
    resolve_options,
)

log = logging.getLogger(__name__)

Registry: TypeAlias = Callable[[str], Rules[Any, Any]]

AI_LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
DEFAULT_TURN_TIMEOUT = 24 * 3600.0
"""Seconds a player has for a turn unless the guild or the match says otherwise."""
CHALLENGE_TTL = 15 * 60.0
"""Seconds a challenge waits for an answer before it expires."""
MAX_TURN_TIMEOUT_MINUTES = 14 * 24 * 60

SEAT_CHOICES = ("challenger", "opponent", "random")
SEAT_ORDERS = ("random", "joined")
_SEAT0_OPTION = {"paintscape": "balancer", "paint": "white"}
_SEAT0_HELP = {
    "balancer": "Who balances the start (swaps stones) while the other picks a colour: challenger, opponent "
    "or random",
    "white": "Who plays White and moves first: challenger, opponent or random",
    "first": "Who takes the first seat: challenger, opponent or random",
}


# ------------------------------------------------------------------------------------------------ errors


class ServiceError(Exception):
    """A request the service refuses; the message is written for the player."""


class UnknownGame(ServiceError):
    pass


class UnknownMatch(ServiceError):
    def __init__(self, match_id: int) -> None:
        super().__init__(f"There is no match #{match_id}. Check the number with /matches.")
        self.match_id = match_id


class NoMatchHere(ServiceError):
    def __init__(self) -> None:
        super().__init__("There is no match in this channel. Start one with /play.")


class MatchOver(ServiceError):
    def __init__(self, match_id: int) -> None:
        super().__init__(f"Match #{match_id} is over. Start a new one with /play.")
        self.match_id = match_id


class NotSeated(ServiceError):
    def __init__(self, match_id: int) -> None:
        super().__init__(f"You are not playing in match #{match_id}. Start your own with /play.")
        self.match_id = match_id


class NotYourTurnError(ServiceError):
    """The user is seated but another seat is to move. `user_id` is the player whose turn it is."""

    def __init__(self, user_id: int | None, *, is_ai: bool = False, extra: str = "") -> None:
        who = "my" if is_ai else f"<@{user_id}>'s"
        super().__init__(f"It is {who} turn, not yours.{extra}")
        self.user_id = user_id


class StaleMove(ServiceError):
    def __init__(self) -> None:
        super().__init__("That board has changed: look at the newest board and try again.")


class ChannelBusy(ServiceError):
    def __init__(self, match_id: int | None = None) -> None:
        which = f" (#{match_id})" if match_id is not None else ""
        super().__init__(
            f"This channel already has a match in progress{which}. "
            "Finish it first or play in another channel."
        )
        self.match_id = match_id


class ChannelNotAllowed(ServiceError):
    def __init__(self) -> None:
        super().__init__("Games are not played in this channel here. Ask an admin which channels allow them.")


class SelfChallenge(ServiceError):
    def __init__(self) -> None:
        super().__init__("You cannot challenge yourself. Pick another player, or play against me.")


class UnknownChallenge(ServiceError):
    def __init__(self, challenge_id: int) -> None:
        super().__init__(f"There is no challenge #{challenge_id}.")


class ChallengeClosed(ServiceError):
    def __init__(self, status: str) -> None:
        super().__init__(f"That challenge was already {status}. Send a new one with /play.")
        self.status = status


class NotYourChallenge(ServiceError):
    pass


class UnknownLobby(ServiceError):
    def __init__(self, lobby_id: int) -> None:
        super().__init__(f"There is no lobby #{lobby_id}.")


class LobbyClosed(ServiceError):
    def __init__(self) -> None:
        super().__init__("That lobby is closed. Open a new one with /play.")


class LobbyFull(ServiceError):
    def __init__(self, size: int) -> None:
        super().__init__(f"That lobby is full ({size} players). Wait for the next one, or open your own.")


class AlreadyJoined(ServiceError):
    def __init__(self) -> None:
        super().__init__("You are already in this lobby.")


class NotInLobby(ServiceError):
    def __init__(self) -> None:
        super().__init__("You are not in this lobby.")


class NotHost(ServiceError):
    def __init__(self) -> None:
        super().__init__("Only the player who opened the lobby can start it.")


class NotEnoughPlayers(ServiceError):
    def __init__(self, have: int, need: int) -> None:
        super().__init__(f"The lobby has {have} player(s); at least {need} are needed to start.")


class CannotPass(ServiceError):
    def __init__(self, game_name: str) -> None:
        super().__init__(f"There is no passing in {game_name}: make a move instead.")


class BadAiLevel(ServiceError):
    def __init__(self, level: str) -> None:
        super().__init__(f"Unknown level {level!r}: choose one of {', '.join(AI_LEVELS)}.")


class NothingToTakeBack(ServiceError):
    def __init__(self) -> None:
        super().__init__("You have no move to take back yet.")


class NoTakebackRequest(ServiceError):
    def __init__(self) -> None:
        super().__init__("Nobody asked for a takeback in this match.")


class OwnRequest(ServiceError):
    def __init__(self) -> None:
        super().__init__("You asked for this yourself: wait for your opponent to answer.")


USER_ERRORS: tuple[type[Exception], ...] = (ServiceError, MoveError, InvalidOptions)
"""Every exception whose message is meant for the player: catch these, reply with str(error)."""


# ------------------------------------------------------------------------------------------------ results


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat: a user, or the bot itself playing at `ai_level`."""

    seat: Seat
    user_id: int
    ai_level: str | None = None

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None

    @property
    def player_key(self) -> str:
        """The rating key: ``user:<id>``, or ``ai:<level>`` for the bot."""
        return f"ai:{self.ai_level}" if self.ai_level is not None else f"user:{self.user_id}"


@dataclass(frozen=True, slots=True)
class TakebackRequest:
    """A pending takeback: `seat`'s player asked at `ply`; `accepted` are the seats that agreed so far."""

    seat: Seat
    user_id: int
    ply: int
    accepted: tuple[Seat, ...] = ()


@dataclass(frozen=True, slots=True)
class MatchView:
    """A match as the bot sees it. `state` is the engine state after `ply` moves (forced moves included)."""

    id: int
    game: str
    options: Mapping[str, Any]
    seed: int
    guild_id: int | None
    channel_id: int
    seats: tuple[SeatView, ...]
    status: str  # "active", "finished" or "aborted"
    ply: int
    turn_timeout: float
    deadline: float | None
    rated: bool
    state: Any
    to_move: Seat | None
    outcome: Outcome | None
    abort_votes: tuple[Seat, ...]
    takeback: TakebackRequest | None
    created_at: float
    finished_at: float | None

    @property
    def is_active(self) -> bool:
        return self.status == ACTIVE

    @property
    def user_to_move(self) -> int | None:
        """The user id of the seat to move (the bot's id for an AI seat), None once over."""
        return None if self.to_move is None or not self.is_active else self.seats[self.to_move].user_id

    def seat_of(self, user_id: int) -> Seat | None:
        """The first seat this user holds, or None."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def user_at(self, seat: Seat) -> int:
        return self.seats[seat].user_id

    def ai_seat_to_move(self) -> SeatView | None:
        """The bot's seat if the bot is to move in an active match: then the bot should ask its AI."""
        if not self.is_active or self.to_move is None:
            return None
        seat = self.seats[self.to_move]
        return seat if seat.is_ai else None

    @property
    def human_user_ids(self) -> tuple[int, ...]:
        return tuple(s.user_id for s in self.seats if not s.is_ai)


@dataclass(frozen=True, slots=True)
class MoveView:
    """One move of a match: `description` is `rules.describe` from the position before it."""

    ply: int
    seat: Seat
    user_id: int
    notation: str
    description: str
    forced: bool
    at: float


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A player's rating before and after a match; `before_mu` is None for a first rated game."""

    player_key: str
    user_id: int | None
    ai_level: str | None
    before_mu: float | None
    before_sigma: float | None
    after_mu: float
    after_sigma: float

    @property
    def before(self) -> float | None:
        """The shown rating (mu - 3 sigma) before the match."""
        if self.before_mu is None or self.before_sigma is None:
            return None
        return self.before_mu - 3 * self.before_sigma

    @property
    def after(self) -> float:
        return self.after_mu - 3 * self.after_sigma


@dataclass(frozen=True, slots=True)
class Finished:
    """A match that has just ended. `winners` are user ids (empty for a draw or an abort);
    `by_user` is who resigned, timed out or aborted, if anyone."""

    match: MatchView
    outcome: Outcome
    winners: tuple[int, ...]
    by_user: int | None
    rating_changes: tuple[RatingChange, ...]

    @property
    def termination(self) -> Termination:
        return self.outcome.termination


@dataclass(frozen=True, slots=True)
class Played:
    """The result of a move: the move, the forced moves that followed, who is next, and the end if it came."""

    match: MatchView
    move: MoveView
    forced: tuple[MoveView, ...]
    next_seat: Seat | None
    next_user_id: int | None
    outcome: Outcome | None
    finished: Finished | None

    @property
    def state(self) -> Any:
        return self.match.state


@dataclass(frozen=True, slots=True)
class AbortRequested:
    """An abort waiting for the other players: `waiting_for` are the user ids who have not agreed yet."""

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


Challenge = ChallengeRow
"""A challenge as stored (immutable): status is pending, accepted, declined, withdrawn or expired."""

LobbyMember = LobbyMemberRow
"""A lobby seat as stored: a user, or the bot at `ai_level`."""


@dataclass(frozen=True, slots=True)
class Lobby:
    id: int
    game: str
    options: Mapping[str, Any]
    guild_id: int | None
    channel_id: int
    host_id: int
    seat_order: str
    min_players: int
    max_players: int
    status: str  # open, started, closed
    members: tuple[LobbyMember, ...]
    match_id: int | None
    created_at: float

    @property
    def can_start(self) -> bool:
        return self.status == "open" and len(self.members) >= self.min_players


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Per-guild settings: turn timeout in seconds, matches in threads, channels where games may start
    (empty = every channel)."""

    guild_id: int
    turn_timeout: float
    threads: bool
    allowed_channels: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    rank: int
    player_key: str
    user_id: int | None
    ai_level: str | None
    rating: float  # mu - 3 sigma, the conservative estimate shown to players
    mu: float
    sigma: float
    played: int


@dataclass(frozen=True, slots=True)
class UserStats:
    game: str
    played: int
    won: int
    lost: int
    drawn: int


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    match: MatchView
    moves: tuple[MoveView, ...]


@dataclass(frozen=True, slots=True)
class TimedOut:
    """Clock event: a player ran out of time. Either the match ended (`finished`) or the service played
    ``passall`` for them (`played`)."""

    match_id: int
    seat: Seat
    user_id: int
    finished: Finished | None
    played: Played | None


@dataclass(frozen=True, slots=True)
class ChallengeExpired:
    """Clock event: nobody answered a challenge in time."""

    challenge: Challenge


ClockEvent: TypeAlias = TimedOut | ChallengeExpired


# ------------------------------------------------------------------------------------------------ helpers


def player_key(user_id: int, ai_level: str | None) -> str:
    return f"ai:{ai_level}" if ai_level is not None else f"user:{user_id}"


def _parse_key(key: str) -> tuple[int | None, str | None]:
    kind, _, rest = key.partition(":")
    if kind == "ai":
        return None, rest
    return int(rest), None


def _json_roundtrip(data: Mapping[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


def _results(outcome: Outcome) -> dict[Seat, str | None]:
    if outcome.termination is Termination.ABORTED:
        return dict.fromkeys(range(len(outcome.ranks)))
    if outcome.is_draw:
        return dict.fromkeys(range(len(outcome.ranks)), "draw")
    return {s: "win" if s in outcome.winners else "loss" for s in range(len(outcome.ranks))}


class _StateCache:
    """A bounded LRU of engine states keyed by match id, each tagged with the snapshot text it was loaded
    from: a state is reused only for exactly that snapshot, so a stale entry can never be served."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[int, tuple[str, Any]] = OrderedDict()

    def get(self, match_id: int, version: str) -> Any | None:
        item = self._items.get(match_id)
        if item is None or item[0] != version:
            return None
        self._items.move_to_end(match_id)
        return item[1]

    def put(self, match_id: int, version: str, state: Any) -> None:
        self._items[match_id] = (version, state)
        self._items.move_to_end(match_id)
        while len(self._items) > self._size:
            self._items.popitem(last=False)

    def drop(self, match_id: int) -> None:
        self._items.pop(match_id, None)

    def __len__(self) -> int:
        return len(self._items)


# ------------------------------------------------------------------------------------------------ service


class MatchService:
    """Matches, challenges, lobbies, turns, deadlines and ratings over a `MatchStore` (see the module doc)."""

    def __init__(
        self,
        store: MatchStore,
        *,
        registry: Registry | None = None,
        now: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        challenge_ttl: float = CHALLENGE_TTL,
        default_turn_timeout: float = DEFAULT_TURN_TIMEOUT,
        state_cache_size: int = 512,
    ) -> None:
        self.store = store
        self._registry: Registry = registry or games.get
        self.now = now
        self._rng = rng or random.SystemRandom()
        self.challenge_ttl = challenge_ttl
        self.default_turn_timeout = default_turn_timeout
        self._states = _StateCache(state_cache_size)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._deadline_listeners: list[Callable[[], None]] = []
        self._model = PlackettLuce()

    # ----------------------------------------------------------------------------------------- plumbing

    def rules(self, game: str) -> Rules[Any, Any]:
        """The engine of a game; UnknownGame if there is none."""
        try:
            return self._registry(game)
        except KeyError:
            raise UnknownGame(f"There is no game called {game!r}. Pick one from the list.") from None

    def _lock(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[match_id] = lock
        return lock

    def add_deadline_listener(self, callback: Callable[[], None]) -> None:
        """Call `callback` (sync, cheap) whenever a deadline or challenge expiry may have moved earlier."""
        self._deadline_listeners.append(callback)

    def _deadlines_changed(self) -> None:
        for callback in self._deadline_listeners:
            try:
                callback()
            except Exception:
                log.exception("deadline listener failed")

    def _load_state(self, rules: Rules[Any, Any], row: MatchRow) -> Any:
        version = row.snapshot
        state = self._states.get(row.id, version)
        if state is None:
            state = rules.load(json.loads(row.snapshot))
            self._states.put(row.id, version, state)
        return state

    def _view(self, row: MatchRow, state: Any | None = None) -> MatchView:
        rules = self.rules(row.game)
        if state is None:
            state = self._load_state(rules, row)
        outcome = Outcome.from_json(row.outcome) if row.outcome is not None else rules.outcome(state)
        takeback = None
        if row.takeback is not None:
            t = row.takeback
            takeback = TakebackRequest(t["seat"], t["user_id"], t["ply"], tuple(t.get("accepted", ())))
        return MatchView(
            id=row.id,
            game=row.game,
            options=row.options,
            seed=row.seed,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            seats=tuple(SeatView(s.seat, s.user_id, s.ai_level) for s in row.seats),
            status=row.status,
            ply=row.ply,
            turn_timeout=row.turn_timeout,
            deadline=row.deadline,
            rated=row.rated,
            state=state,
            to_move=rules.to_move(state) if row.status == ACTIVE else None,
            outcome=outcome,
            abort_votes=row.abort_votes,
            takeback=takeback,
            created_at=row.created_at,
            finished_at=row.finished_at,
        )

    async def _row(self, match_id: int) -> MatchRow:
        row = await self.store.get_match(match_id)
        if row is None:
            raise UnknownMatch(match_id)
        return row

    async def _active_row(self, match_id: int) -> MatchRow:
        row = await self._row(match_id)
        if row.status != ACTIVE:
            raise MatchOver(match_id)
        return row

    @staticmethod
    def _seat_of(row: MatchRow, user_id: int) -> SeatRow:
        seat = next((s for s in row.seats if s.user_id == user_id and s.ai_level is None), None)
        seat = seat or next((s for s in row.seats if s.user_id == user_id), None)
        if seat is None:
            raise NotSeated(row.id)
        return seat

    def _deadline(self, row: MatchRow, rules: Rules[Any, Any], state: Any, now: float) -> float | None:
        """The deadline for the seat to move: none once over or when the bot is to move."""
        seat = rules.to_move(state)
        if seat is None or rules.outcome(state) is not None or row.seats[seat].ai_level is not None:
            return None
        return now + row.turn_timeout

    # ----------------------------------------------------------------------------------------- options

    def option_specs(self, game: str, *, lobby: bool = False) -> tuple[Option, ...]:
        """The options a match of `game` accepts: the engine's, then the service's (rated, turn_timeout and,
        for a challenge, who takes seat 0)."""
        rules = self.rules(game)
        specs: list[Option] = list(rules.options)
        specs.append(Option("rated", True, "Whether the result changes ratings"))
        specs.append(
            Option(
                "turn_timeout",
                0,
                "Minutes per turn; 0 uses the server's setting",
                minimum=0,
                maximum=MAX_TURN_TIMEOUT_MINUTES,
            )
        )
        if not lobby:
            name = _SEAT0_OPTION.get(game, "first")
            specs.append(
                Option(name, "random", _SEAT0_HELP[name], choices=SEAT_CHOICES, proposal=name == "balancer")
            )
        return tuple(specs)

    def _resolve(self, game: str, given: Mapping[str, Any], *, lobby: bool = False) -> dict[str, Any]:
        return resolve_options(self.option_specs(game, lobby=lobby), given)

    def _engine_options(self, game: str, resolved: Mapping[str, Any]) -> dict[str, Any]:
        names = {o.name for o in self.rules(game).options}
        return {k: v for k, v in resolved.items() if k in names}

    async def check_allowed(self, guild_id: int | None, channel_id: int) -> None:
        """Raise ChannelNotAllowed if the guild limits games to other channels."""
        if guild_id is not None:
            settings = await self.guild_settings(guild_id)
            if settings.allowed_channels and channel_id not in settings.allowed_channels:
                raise ChannelNotAllowed()

    async def _check_channel(
        self, guild_id: int | None, channel_id: int, *, opened_from: int | None = None
    ) -> None:
        """Games may start here (or in a thread `opened_from` an allowed channel), and no match is running."""
        await self.check_allowed(guild_id, opened_from if opened_from is not None else channel_id)
        busy = await self.store.active_match_in_channel(channel_id)
        if busy is not None:
            raise ChannelBusy(busy.id)

    # ----------------------------------------------------------------------------------------- settings

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        row = await self.store.get_guild_settings(guild_id)
        if row is None:
            return GuildSettings(guild_id, self.default_turn_timeout, False, ())
        return GuildSettings(row.guild_id, row.turn_timeout, row.threads, row.allowed_channels)

    async def update_guild_settings(
        self,
        guild_id: int,
        *,
        turn_timeout: float | None = None,
        threads: bool | None = None,
        allowed_channels: Iterable[int] | None = None,
    ) -> GuildSettings:
        """Change some settings (None keeps a setting). `turn_timeout` is in seconds, at least one minute."""
        current = await self.guild_settings(guild_id)
        if turn_timeout is not None and not 60 <= turn_timeout <= MAX_TURN_TIMEOUT_MINUTES * 60:
            raise ServiceError("The turn timeout must be between one minute and 14 days.")
        new = GuildSettings(
            guild_id,
            current.turn_timeout if turn_timeout is None else float(turn_timeout),
            current.threads if threads is None else threads,
            current.allowed_channels if allowed_channels is None else tuple(sorted(set(allowed_channels))),
        )
        await self.store.put_guild_settings(
            GuildSettingsRow(new.guild_id, new.turn_timeout, new.threads, new.allowed_channels)
        )
        return new

    async def _turn_timeout(self, guild_id: int | None, resolved: Mapping[str, Any]) -> float:
        minutes = int(resolved.get("turn_timeout", 0))
        if minutes > 0:
            return minutes * 60.0
        if guild_id is None:
            return self.default_turn_timeout
        return (await self.guild_settings(guild_id)).turn_timeout

    # ------------------------------------------------------------------------------------- creating matches

    async def _create_match(
        self,
        game: str,
        resolved: Mapping[str, Any],
        seats: Sequence[tuple[int, str | None]],
        *,
        guild_id: int | None,
        channel_id: int,
        challenge_id: int | None = None,
        lobby_id: int | None = None,
    ) -> MatchView:
        rules = self.rules(game)
        engine_options = self._engine_options(game, resolved)
        seed = self._rng.randrange(2**31)
        state = rules.new(len(seats), engine_options, seed)
        now = self.now()
        seat_rows = tuple(
            SeatRow(i, uid, level, player_key(uid, level)) for i, (uid, level) in enumerate(seats)
        )
        keys = [s.player_key for s in seat_rows]
        rated = bool(resolved.get("rated", True)) and len(set(keys)) == len(keys)
        timeout = await self._turn_timeout(guild_id, resolved)
        draft = MatchRow(
            0, game, engine_options, seed, guild_id, channel_id, seat_rows, ACTIVE, 0, timeout, None, "",
            None, rated, False, (), None, now, now, None,
        )  # fmt: skip
        try:
            row = await self.store.insert_match(
                NewMatch(
                    game=game,
                    options=engine_options,
                    seed=seed,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    seats=seat_rows,
                    turn_timeout=timeout,
                    deadline=self._deadline(draft, rules, state, now),
                    snapshot=_json_roundtrip(rules.dump(state)),
                    rated=rated,
                    created_at=now,
                ),
                challenge_id=challenge_id,
                lobby_id=lobby_id,
            )
        except ChannelTaken:
            busy = await self.store.active_match_in_channel(channel_id)
            raise ChannelBusy(busy.id if busy else None) from None
        if rules.forced_move(state) is not None and rules.to_move(state) is not None:
            async with self._lock(row.id):
                await self._commit(row, rules, state, [], now)
                row = await self._row(row.id)
        self._deadlines_changed()
        return self._view(row)

    def _seat_zero_first(self, game: str, resolved: Mapping[str, Any]) -> bool:
        """Whether the challenger takes seat 0."""
        choice = resolved.get(_SEAT0_OPTION.get(game, "first"), "random")
        if choice == "challenger":
            return True
        if choice == "opponent":
            return False
        return self._rng.random() < 0.5

    # ----------------------------------------------------------------------------------------- challenges

    async def create_challenge(
        self,
        game: str,
        options: Mapping[str, Any],
        challenger_id: int,
        opponent_id: int,
        *,
        guild_id: int | None,
        channel_id: int,
    ) -> Challenge:
        """Challenge another member to a two-player match; options are checked now."""
        if challenger_id == opponent_id:
            raise SelfChallenge()
        rules = self.rules(game)
        if 2 not in rules.seats:
            raise ServiceError(
                f"{rules.name} needs {rules.seats.start}-{rules.seats.stop - 1} players: open a lobby."
            )
        resolved = self._resolve(game, options)
        await self._check_channel(guild_id, channel_id)
        now = self.now()
        row = await self.store.insert_challenge(
            game, resolved, guild_id, channel_id, challenger_id, opponent_id, now, now + self.challenge_ttl
        )
        self._deadlines_changed()
        return row

    async def get_challenge(self, challenge_id: int) -> Challenge:
        row = await self.store.get_challenge(challenge_id)
        if row is None:
            raise UnknownChallenge(challenge_id)
        return row

    async def pending_challenges(self, channel_id: int | None = None) -> list[Challenge]:
        return list(await self.store.pending_challenges(channel_id))

    async def _pending(self, challenge_id: int) -> ChallengeRow:
        row = await self.store.get_challenge(challenge_id)
        if row is None:
            raise UnknownChallenge(challenge_id)
        if row.status == "pending" and row.expires_at <= self.now():
            await self.store.set_challenge_status(challenge_id, "expired")
            raise ChallengeClosed("expired")
        if row.status != "pending":
            raise ChallengeClosed(row.status)
        return row

    async def accept_challenge(
        self, challenge_id: int, user_id: int, *, channel_id: int | None = None
    ) -> MatchView:
        """The opponent accepts: the match starts (in `channel_id` if given, e.g. a new thread)."""
        row = await self._pending(challenge_id)
        if user_id != row.opponent_id:
            raise NotYourChallenge("Only the challenged player can accept this challenge.")
        first = self._seat_zero_first(row.game, row.options)
        pair = [(row.challenger_id, None), (row.opponent_id, None)]
        if not first:
            pair.reverse()
        try:
            return await self._create_match(
                row.game,
                row.options,
                pair,
                guild_id=row.guild_id,
                channel_id=channel_id if channel_id is not None else row.channel_id,
                challenge_id=challenge_id,
            )
        except StoreConflict:
            again = await self.store.get_challenge(challenge_id)
            raise ChallengeClosed(again.status if again else "closed") from None

    async def decline_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        row = await self._pending(challenge_id)
        if user_id != row.opponent_id:
            raise NotYourChallenge("Only the challenged player can decline this challenge.")
        if not await self.store.set_challenge_status(challenge_id, "declined"):
            raise ChallengeClosed((await self.get_challenge(challenge_id)).status)
        return await self.get_challenge(challenge_id)

    async def withdraw_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        row = await self._pending(challenge_id)
        if user_id != row.challenger_id:
            raise NotYourChallenge("Only the player who sent this challenge can withdraw it.")
        if not await self.store.set_challenge_status(challenge_id, "withdrawn"):
            raise ChallengeClosed((await self.get_challenge(challenge_id)).status)
        return await self.get_challenge(challenge_id)

    async def expire_challenges(self, now: float | None = None) -> list[Challenge]:
        """Mark every overdue challenge expired; returns the ones this call expired (each exactly once)."""
        now = self.now() if now is None else now
        expired = []
        for row in await self.store.due_challenges(now):
            if await self.store.set_challenge_status(row.id, "expired"):
                expired.append(await self.get_challenge(row.id))
        return expired

    async def start_ai_match(
        self,
        game: str,
        options: Mapping[str, Any],
        user_id: int,
        *,
        ai_user_id: int,
        level: str,
        guild_id: int | None,
        channel_id: int,
        opened_from: int | None = None,
    ) -> MatchView:
        """A match against the bot, at once; `ai_user_id` is the bot's own id. The user is the challenger.

        `channel_id` is where the match lives; for a thread the bot opened for it, `opened_from` is the
        channel the command was used in, which is the one the guild's allowed-channels setting must list."""
        if level not in AI_LEVELS:
            raise BadAiLevel(level)
        if user_id == ai_user_id:
            raise SelfChallenge()
        resolved = self._resolve(game, options)
        await self._check_channel(guild_id, channel_id, opened_from=opened_from)
        pair: list[tuple[int, str | None]] = [(user_id, None), (ai_user_id, level)]
        if not self._seat_zero_first(game, resolved):
            pair.reverse()
        return await self._create_match(game, resolved, pair, guild_id=guild_id, channel_id=channel_id)

    # ----------------------------------------------------------------------------------------- lobbies

    def _lobby(self, row: LobbyRow) -> Lobby:
        rules = self.rules(row.game)
        return Lobby(
            id=row.id,
            game=row.game,
            options=row.options,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            host_id=row.host_id,
            seat_order=row.seat_order,
            min_players=rules.seats.start,
            max_players=row.max_players,
            status=row.status,
            members=tuple(row.members),
            match_id=row.match_id,
            created_at=row.created_at,
        )

    async def get_lobby(self, lobby_id: int) -> Lobby:
        row = await self.store.get_lobby(lobby_id)
        if row is None:
            raise UnknownLobby(lobby_id)
        return self._lobby(row)

    async def open_lobbies(self, channel_id: int | None = None) -> list[Lobby]:
        return [self._lobby(r) for r in await self.store.open_lobbies(channel_id)]

    async def create_lobby(
        self,
        game: str,
        options: Mapping[str, Any],
        host_id: int,
        *,
        guild_id: int | None,
        channel_id: int,
        max_players: int | None = None,
        seat_order: str = "random",
    ) -> Lobby:
        """Open a lobby for a game of several players; the host is its first member."""
        rules = self.rules(game)
        largest = rules.seats.stop - 1
        size = largest if max_players is None else max_players
        if size not in rules.seats:
            raise ServiceError(f"{rules.name} is for {rules.seats.start} to {largest} players.")
        if seat_order not in SEAT_ORDERS:
            raise ServiceError("Seat order must be random or joined.")
        resolved = self._resolve(game, options, lobby=True)
        await self._check_channel(guild_id, channel_id)
        now = self.now()
        row = await self.store.insert_lobby(
            game,
            resolved,
            guild_id,
            channel_id,
            LobbyMemberRow(host_id, None, now),
            host_id,
            seat_order,
            size,
            now,
        )
        return self._lobby(row)

    async def join_lobby(self, lobby_id: int, user_id: int, *, ai_level: str | None = None) -> Lobby:
        """Take a seat in an open lobby; with `ai_level`, `user_id` is the bot's id and the bot takes it."""
        lobby = await self.get_lobby(lobby_id)
        if ai_level is not None and ai_level not in AI_LEVELS:
            raise BadAiLevel(ai_level)
        if lobby.status != "open":
            raise LobbyClosed()
        if ai_level is None and any(m.user_id == user_id and m.ai_level is None for m in lobby.members):
            raise AlreadyJoined()
        if len(lobby.members) >= lobby.max_players:
            raise LobbyFull(lobby.max_players)
        if not await self.store.add_lobby_member(lobby_id, LobbyMemberRow(user_id, ai_level, self.now())):
            again = await self.get_lobby(lobby_id)
            if again.status != "open":
                raise LobbyClosed()
            if len(again.members) >= again.max_players:
                raise LobbyFull(again.max_players)
            raise AlreadyJoined()
        return await self.get_lobby(lobby_id)

    async def leave_lobby(self, lobby_id: int, user_id: int) -> Lobby:
        """Leave an open lobby; if the host leaves, the lobby closes."""
        lobby = await self.get_lobby(lobby_id)
        if lobby.status != "open":
            raise LobbyClosed()
        if not any(m.user_id == user_id and m.ai_level is None for m in lobby.members):
            raise NotInLobby()
        if user_id == lobby.host_id:
            await self.store.set_lobby_status(lobby_id, "closed")
        elif not await self.store.remove_lobby_member(lobby_id, user_id):
            raise LobbyClosed()
        return await self.get_lobby(lobby_id)

    async def start_lobby(self, lobby_id: int, user_id: int, *, channel_id: int | None = None) -> MatchView:
        """The host starts the match: seats at random or in joining order."""
        lobby = await self.get_lobby(lobby_id)
        if lobby.status != "open":
            raise LobbyClosed()
        if user_id != lobby.host_id:
            raise NotHost()
        if len(lobby.members) < lobby.min_players:
            raise NotEnoughPlayers(len(lobby.members), lobby.min_players)
        seats = [(m.user_id, m.ai_level) for m in lobby.members]
        if lobby.seat_order == "random":
            self._rng.shuffle(seats)
        try:
            return await self._create_match(
                lobby.game,
                lobby.options,
                seats,
                guild_id=lobby.guild_id,
                channel_id=channel_id if channel_id is not None else lobby.channel_id,
                lobby_id=lobby_id,
            )
        except StoreConflict:
            raise LobbyClosed() from None

    # -------------------------------------------------------------------------------------- reading matches

    async def get_match(self, match_id: int) -> MatchView:
        return self._view(await self._row(match_id))

    async def match_in_channel(self, channel_id: int) -> MatchView:
        """The active match of a channel or thread; NoMatchHere if there is none."""
        row = await self.store.active_match_in_channel(channel_id)
        if row is None:
            raise NoMatchHere()
        return self._view(row)

    async def matches_of(self, user_id: int) -> list[MatchView]:
        return [self._view(r) for r in await self.store.matches_of_user(user_id)]

    async def legal_notations(self, match_id: int, prefix: str = "", limit: int = 25) -> list[str]:
        """Notations of legal moves starting with `prefix` (case-insensitive), for autocomplete."""
        row = await self._row(match_id)
        if row.status != ACTIVE:
            return []
        rules = self.rules(row.game)
        state = self._load_state(rules, row)
        wanted = prefix.strip().lower()
        found: list[str] = []
        for move in rules.legal_moves(state):
            text = rules.notation(state, move)
            if text.lower().startswith(wanted):
                found.append(text)
                if len(found) >= limit:
                    break
        return found

    async def _move_views(self, row: MatchRow) -> tuple[list[MoveView], list[Any]]:
        rules = self.rules(row.game)
        state = rules.new(len(row.seats), row.options, row.seed)
        states = [state]
        views = []
        for m in await self.store.moves(row.id):
            move = rules.parse(state, m.notation)
            views.append(
                MoveView(
                    m.ply,
                    m.seat,
                    row.seats[m.seat].user_id,
                    m.notation,
                    rules.describe(state, move),
                    m.forced,
                    m.at,
                )
            )
            state = rules.apply(state, move)
            states.append(state)
        return views, states

    async def moves(self, match_id: int) -> list[MoveView]:
        """The move log with descriptions, forced moves included."""
        views, _ = await self._move_views(await self._row(match_id))
        return views

    async def replay_states(self, match_id: int) -> list[Any]:
        """Every position of the match: the start, then the position after each move."""
        _, states = await self._move_views(await self._row(match_id))
        return states

    async def ai_turns(self) -> list[MatchView]:
        """Active matches where the bot is to move (after a restart the bot resumes thinking on these)."""
        views = []
        for match_id in await self.store.active_ai_match_ids():
            view = await self.get_match(match_id)
            if view.ai_seat_to_move() is not None:
                views.append(view)
        return views

    # ----------------------------------------------------------------------------------------- playing

    async def play(
        self, match_id: int, user_id: int, notation: str, expected_ply: int | None = None
    ) -> Played:
        """Play `notation` for `user_id`, then every forced move that follows; all stored in one transaction.

        `expected_ply` is the ply of the board the player saw (from a button); a different current ply raises
        StaleMove. Raises UnknownMatch, MatchOver, NotSeated, NotYourTurnError, or the engine's MoveError.
        """
        async with self._lock(match_id):
            row = await self._active_row(match_id)
            if expected_ply is not None and expected_ply != row.ply:
                raise StaleMove()
            rules = self.rules(row.game)
            state = self._load_state(rules, row)
            self._turn_seat(row, rules, state, user_id)
            move = rules.parse(state, notation)
            return await self._commit(row, rules, state, [move], self.now())

    def _turn_seat(self, row: MatchRow, rules: Rules[Any, Any], state: Any, user_id: int) -> Seat:
        mine = [s.seat for s in row.seats if s.user_id == user_id]
        if not mine:
            raise NotSeated(row.id)
        to_move = rules.to_move(state)
        if to_move is None:
            raise MatchOver(row.id)
        if to_move not in mine:
            other = row.seats[to_move]
            raise NotYourTurnError(other.user_id, is_ai=other.ai_level is not None)
        return to_move

    async def _commit(
        self, row: MatchRow, rules: Rules[Any, Any], state: Any, chosen: Sequence[Any], now: float
    ) -> Played:
        """Apply the chosen moves and the forced moves after them, store it all, and describe the result.

        Called under the match lock. With no chosen move, only forced moves are played (a fresh match)."""
        records: list[MoveRow] = []
        views: list[MoveView] = []
        ply = row.ply

        def record(move: Any, forced: bool) -> Any:
            nonlocal ply
            seat = rules.to_move(state)
            assert seat is not None
            text = rules.notation(state, move)
            records.append(MoveRow(ply, seat, text, forced, now))
            views.append(
                MoveView(ply, seat, row.seats[seat].user_id, text, rules.describe(state, move), forced, now)
            )
            ply += 1
            return rules.apply(state, move)

        for move in chosen:
            state = record(move, False)
        while rules.to_move(state) is not None:
            forced_move = rules.forced_move(state)
            if forced_move is None:
                break
            state = record(forced_move, True)

        outcome = rules.outcome(state)
        finish = None
        if outcome is not None:
            finish = Finish(FINISHED, outcome.to_json(), _results(outcome), now)
        deadline = self._deadline(row, rules, state, now)
        snapshot = _json_roundtrip(rules.dump(state))
        if not await self.store.append_moves(row.id, row.ply, records, snapshot, deadline, now, finish):
            self._states.drop(row.id)
            raise StaleMove()
        self._states.put(row.id, snapshot, state)
        self._deadlines_changed()
        if finish is None:  # what the write changed; a finished match is read back with its results
            new_row = replace(
                row,
                ply=ply,
                snapshot=snapshot,
                deadline=deadline,
                updated_at=now,
                abort_votes=(),
                takeback=None,
            )
        else:
            new_row = await self._row(row.id)
        view = self._view(new_row, state)
        finished = await self._finished(view, by_user=None) if outcome is not None else None
        if finished is not None:
            view = finished.match
        return Played(
            match=view,
            move=views[0],
            forced=tuple(views[1:]),
            next_seat=view.to_move,
            next_user_id=view.user_to_move,
            outcome=view.outcome if view.status != ACTIVE else None,
            finished=finished,
        )

    async def pass_turn(self, match_id: int, user_id: int, expected_ply: int | None = None) -> Played:
        """Pass this turn where the game allows it (TilingKing); CannotPass where it does not."""
        try:
            return await self.play(match_id, user_id, "pass", expected_ply)
        except InvalidMove:
            row = await self._row(match_id)
            raise CannotPass(self.rules(row.game).name) from None

    async def resign(self, match_id: int, user_id: int) -> Finished | Played:
        """Give up. Two players: the opponent wins at once, in or out of turn (Termination.RESIGNATION).
        A game with more players (TilingKing) plays its own "resign" move on the player's turn."""
        async with self._lock(match_id):
            row = await self._active_row(match_id)
            seat = self._seat_of(row, user_id)
            rules = self.rules(row.game)
            state = self._load_state(rules, row)
            if rules.seats.stop - 1 > 2:
                to_move = rules.to_move(state)
                if to_move in [s.seat for s in row.seats if s.user_id == user_id]:
                    return await self._commit(row, rules, state, [rules.parse(state, "resign")], self.now())
                if len(row.seats) > 2:
                    other = row.seats[to_move] if to_move is not None else seat
                    raise NotYourTurnError(
                        other.user_id, is_ai=other.ai_level is not None, extra=" You can resign on your turn."
                    )
            outcome = Outcome.loss(seat.seat, len(row.seats), Termination.RESIGNATION)
            return await self._end(row, rules, outcome, by_user=user_id)

    async def _end(
        self, row: MatchRow, rules: Rules[Any, Any], outcome: Outcome, *, by_user: int | None
    ) -> Finished:
        """End a match without a move (resignation, timeout, abort), stale-checked. Called under the lock."""
        now = self.now()
        status = ABORTED if outcome.termination is Termination.ABORTED else FINISHED
        if not await self.store.finish_match(
            row.id, row.ply, Finish(status, outcome.to_json(), _results(outcome), now)
        ):
            raise StaleMove()
        self._deadlines_changed()
        return await self._finished(self._view(await self._row(row.id)), by_user=by_user)

    async def _finished(self, view: MatchView, *, by_user: int | None) -> Finished:
        assert view.outcome is not None
        changes = await self._rate(view.id)
        winners = tuple(view.seats[s].user_id for s in view.outcome.winners)
        return Finished(view, view.outcome, winners, by_user, tuple(changes))

    async def request_abort(
        self, match_id: int, user_id: int, *, admin: bool = False
    ) -> Finished | AbortRequested:
        """End the match with no result: at once for a server admin (the caller says so), otherwise once every
        seated player has asked (the bot's seats agree by themselves)."""
        async with self._lock(match_id):
            row = await self._active_row(match_id)
            rules = self.rules(row.game)
            aborted = Outcome(Termination.ABORTED, (0,) * len(row.seats))
            if admin:
                return await self._end(row, rules, aborted, by_user=user_id)
            self._seat_of(row, user_id)  # raises NotSeated
            votes = set(row.abort_votes) | {s.seat for s in row.seats if s.user_id == user_id}
            votes |= {s.seat for s in row.seats if s.ai_level is not None}
            waiting = tuple(s.user_id for s in row.seats if s.seat not in votes)
            if not waiting:
                return await self._end(row, rules, aborted, by_user=user_id)
            if not await self.store.set_requests(row.id, row.ply, sorted(votes), row.takeback):
                raise StaleMove()
            return AbortRequested(await self.get_match(match_id), user_id, tuple(dict.fromkeys(waiting)))

    @staticmethod
    def _takeback_target(moves: Sequence[MoveRow], seat: Seat) -> int | None:
        """The ply to rewind to: the start of `seat`'s last turn (its consecutive chosen moves), skipping the
        forced moves and every other seat's moves after it."""
        index = next(
            (i for i in range(len(moves) - 1, -1, -1) if moves[i].seat == seat and not moves[i].forced), None
        )
        if index is None:
            return None
        while index > 0 and moves[index - 1].seat == seat and not moves[index - 1].forced:
            index -= 1
        return moves[index].ply

    async def request_takeback(self, match_id: int, user_id: int) -> TakebackRequested | TakenBack:
        """Ask to undo back to your previous turn. Against the bot it happens at once; otherwise every other
        player must accept."""
        async with self._lock(match_id):
            row = await self._active_row(match_id)
            seat = self._seat_of(row, user_id)
            moves = await self.store.moves(match_id)
            if self._takeback_target(moves, seat.seat) is None:
                raise NothingToTakeBack()
            others = [s for s in row.seats if s.user_id != user_id and s.ai_level is None]
            if not others:
                return await self._rewind(row, seat.seat, user_id, moves)
            request = {"seat": seat.seat, "user_id": user_id, "ply": row.ply, "accepted": []}
            if not await self.store.set_requests(row.id, row.ply, row.abort_votes, request):
                raise StaleMove()
            waiting = tuple(dict.fromkeys(s.user_id for s in others))
            return TakebackRequested(await self.get_match(match_id), user_id, waiting)

    async def accept_takeback(self, match_id: int, user_id: int) -> TakenBack:
        """Agree to the pending takeback; it happens once every other player agreed."""
        async with self._lock(match_id):
            row = await self._active_row(match_id)
            request = row.takeback
            if request is None:
                raise NoTakebackRequest()
            if user_id == request["user_id"]:
                raise OwnRequest()
            self._seat_of(row, user_id)
            if request["ply"] != row.ply:
                raise StaleMove()
            accepted = set(request.get("accepted", ())) | {s.seat for s in row.seats if s.user_id == user_id}
            others = {s.seat for s in row.seats if s.user_id != request["user_id"] and s.ai_level is None}
            if not others <= accepted:
                updated = dict(request, accepted=sorted(accepted))
                if not await self.store.set_requests(row.id, row.ply, row.abort_votes, updated):
                    raise StaleMove()
                raise ServiceError("Noted. The takeback happens once every other player has accepted it.")
            moves = await self.store.moves(match_id)
            return await self._rewind(row, request["seat"], request["user_id"], moves)

    async def decline_takeback(self, match_id: int, user_id: int) -> MatchView:
        async with self._lock(match_id):
            row = await self._active_row(match_id)
            if row.takeback is None:
                raise NoTakebackRequest()
            self._seat_of(row, user_id)
            if user_id == row.takeback["user_id"]:
                raise OwnRequest()
            if not await self.store.set_requests(row.id, row.ply, row.abort_votes, None):
                raise StaleMove()
            return self._view(await self._row(match_id))

    async def _rewind(self, row: MatchRow, seat: Seat, user_id: int, moves: Sequence[MoveRow]) -> TakenBack:
        target = self._takeback_target(moves, seat)
        if target is None:
            raise NothingToTakeBack()
        rules = self.rules(row.game)
        state = rules.new(len(row.seats), row.options, row.seed)
        kept = state
        undone = []
        for m in moves:
            if m.ply == target:
                kept = state
            move = rules.parse(state, m.notation)
            if m.ply >= target:
                user = row.seats[m.seat].user_id
                description = rules.describe(state, move)
                undone.append(MoveView(m.ply, m.seat, user, m.notation, description, m.forced, m.at))
            state = rules.apply(state, move)
        now = self.now()
        deadline = self._deadline(row, rules, kept, now)
        snapshot = _json_roundtrip(rules.dump(kept))
        if not await self.store.rewind_match(row.id, row.ply, target, snapshot, deadline, now):
            raise StaleMove()
        self._states.put(row.id, snapshot, kept)
        self._deadlines_changed()
        return TakenBack(self._view(await self._row(row.id), kept), user_id, tuple(undone))

    # ----------------------------------------------------------------------------------------- deadlines

    async def next_wakeup(self) -> float | None:
        """The earliest turn deadline or challenge expiry, or None if nothing is waiting."""
        times = [
            t
            for t in (await self.store.next_deadline(), await self.store.next_challenge_expiry())
            if t is not None
        ]
        return min(times) if times else None

    async def expire_due(self, now: float | None = None) -> list[ClockEvent]:
        """Time out every player whose deadline has passed and expire overdue challenges.

        Each expiry is a stale-checked write, so running this twice fires nothing twice."""
        now = self.now() if now is None else now
        events: list[ClockEvent] = [ChallengeExpired(c) for c in await self.expire_challenges(now)]
        for match_id, ply in await self.store.due_matches(now):
            try:
                event = await self._time_out(match_id, ply, now)
            except (StaleMove, MatchOver):
                continue
            if event is not None:
                events.append(event)
        return events

    async def _time_out(self, match_id: int, ply: int, now: float) -> TimedOut | None:
        async with self._lock(match_id):
            row = await self._row(match_id)
            if row.status != ACTIVE or row.ply != ply or row.deadline is None or row.deadline > now:
                return None
            rules = self.rules(row.game)
            state = self._load_state(rules, row)
            seat = rules.to_move(state)
            if seat is None:
                return None
            user_id = row.seats[seat].user_id
            try:
                passall = rules.parse(state, "passall")
            except MoveError:
                passall = None
            if passall is not None:
                played = await self._commit(row, rules, state, [passall], now)
                return TimedOut(match_id, seat, user_id, played.finished, played)
            outcome = Outcome.loss(seat, len(row.seats), Termination.TIMEOUT)
            return TimedOut(
                match_id, seat, user_id, await self._end(row, rules, outcome, by_user=user_id), None
            )

    # ----------------------------------------------------------------------------------------- ratings

    async def _rate(self, match_id: int) -> list[RatingChange]:
        """Apply the ratings of a finished rated match once; later calls return the stored changes."""
        row = await self._row(match_id)
        if row.status != FINISHED or not row.rated or row.outcome is None:
            return []
        outcome = Outcome.from_json(row.outcome)
        keys = [s.player_key for s in row.seats]

        def compute(current: dict[str, tuple[float, float] | None]) -> dict[str, tuple[float, float]]:
            teams = []
            for key in keys:
                before = current[key]
                rating = (
                    self._model.rating(name=key) if before is None else self._model.rating(*before, name=key)
                )
                teams.append([rating])
            rated = self._model.rate(teams, ranks=[float(r) for r in outcome.ranks])
            return {key: (team[0].mu, team[0].sigma) for key, team in zip(keys, rated, strict=True)}

        await self.store.apply_ratings(match_id, row.game, keys, compute, self.now())
        return [self._rating_change(row, c) for c in await self.store.rating_changes(match_id)]

    @staticmethod
    def _rating_change(row: MatchRow, change: RatingChangeRow) -> RatingChange:
        seat = next(s for s in row.seats if s.player_key == change.player_key)
        return RatingChange(
            change.player_key,
            None if seat.ai_level is not None else seat.user_id,
            seat.ai_level,
            change.mu_before,
            change.sigma_before,
            change.mu_after,
            change.sigma_after,
        )

    async def recover(self) -> int:
        """Rate every finished match whose rating was not applied (a crash in between); returns how many."""
        count = 0
        for match_id in await self.store.unapplied_rated_match_ids():
            if await self._rate(match_id):
                count += 1
        return count

    @staticmethod
    def _entry(rank: int, row: RatingRow) -> LeaderboardEntry:
        user_id, level = _parse_key(row.player_key)
        return LeaderboardEntry(
            rank, row.player_key, user_id, level, row.mu - 3 * row.sigma, row.mu, row.sigma, row.played
        )

    async def leaderboard(
        self, game: str, *, guild_id: int | None = None, limit: int = 10
    ) -> list[LeaderboardEntry]:
        """The best rated players of a game, in a guild or overall (players with a finished rated match)."""
        self.rules(game)
        rows = await self.store.leaderboard(game, guild_id, limit)
        return [self._entry(i + 1, r) for i, r in enumerate(rows)]

    async def rating(self, game: str, user_id: int) -> LeaderboardEntry | None:
        """A user's rating in a game (rank 0: not a leaderboard position), or None if unrated."""
        key = player_key(user_id, None)
        found = (await self.store.get_ratings(game, [key])).get(key)
        return None if found is None else self._entry(0, found)

    async def stats(self, user_id: int, *, guild_id: int | None = None) -> list[UserStats]:
        """Played, won, lost and drawn per game (finished matches; aborted ones do not count)."""
        return [
            UserStats(r.game, r.played, r.won, r.lost, r.drawn)
            for r in await self.store.user_stats(user_id, guild_id)
        ]

    async def history(
        self,
        *,
        user_id: int | None = None,
        guild_id: int | None = None,
        game: str | None = None,
        limit: int = 10,
    ) -> list[HistoryEntry]:
        """Finished and aborted matches, newest first, each with its move list."""
        rows = await self.store.finished_matches(user_id=user_id, guild_id=guild_id, game=game, limit=limit)
        entries = []
        for row in rows:
            views, states = await self._move_views(row)
            entries.append(HistoryEntry(self._view(row, states[-1]), tuple(views)))
        return entries
