"""Matches: starting them, reading them, playing moves, resigning and timing out (agreements.py: abort
votes and takebacks).

Every change to a match is one stale-checked store write (see `bot.service.store`) under a per-match lock,
so a double click or an old button gets `StaleMove` instead of a second move. Game policy comes from the
rules (`Rules.pass_move`, `timeout_move`, `resign`), never from notation strings. The log is event-sourced:
the snapshot always equals `games.base.replay` of the move log, forced passes and resignations included.

Turn deadlines: the deadline of the person to move is a column (the bot's own seats have none); a timeout
ends a two-player game with a loss, or plays the rules' timeout move (TilingKing: pass all).

As on lichess, a match nobody can have a result for yet is aborted instead: a resignation or a timeout before
every seat has chosen a move of its own (`everyone_moved`) ends it unrated, with no result.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any, NoReturn, TypeAlias

from bot.service import timecontrol
from bot.service.errors import (
    AlreadyBerserk,
    AlreadyResigned,
    BerserkTooLate,
    BotsTurn,
    CannotPass,
    ChannelBusy,
    MatchDamaged,
    MatchOver,
    MoveNotSaved,
    NoBerserk,
    NoMatchHere,
    NotSeated,
    NotYourTurnError,
    OutOfTime,
    StaleMove,
    UnknownGame,
    UnknownMatch,
    valid_id,
)
from bot.service.guilds import Guilds
from bot.service.ratings import Ratings
from bot.service.records import (
    Finish,
    Finished,
    MatchRecord,
    MatchStatus,
    MatchView,
    MoveRecord,
    MoveView,
    NewMatch,
    Played,
    Player,
    TimedOut,
)
from bot.service.shards import Shards
from bot.service.store import ChannelTaken, DamagedRow, MatchStore, StoreFull
from bot.service.timecontrol import (
    FIRST_MOVE_SECONDS,
    TimeControl,
    after_move,
    flagged,
    remaining,
    resumed_deadline,
    stamps,
    turn_allowance,
)
from games.ai.search import seat_count
from games.base import RESIGN, InvalidMove, Outcome, Rules, Seat, Step, Termination, replay

log = logging.getLogger(__name__)

Registry: TypeAlias = Callable[[str], Rules[Any, Any]]

MAX_ID = 2**63
"""Ids are 64-bit database integers: anything at or above this names no row (and would not fit a query)."""


def snapshot_text(rules: Rules[Any, Any], state: Any) -> str:
    """The stored form of a state: its `dump` as compact, sorted JSON."""
    return json.dumps(rules.dump(state), separators=(",", ":"), sort_keys=True)


def everyone_moved(seats: int, log: Sequence[MoveRecord]) -> bool:
    """Whether every seat has chosen a move of its own (forced passes and resignations are not choices).
    Until then a resignation or a timeout aborts the match: no result, no rating (as on lichess)."""
    chosen = {m.seat for m in log if not m.forced and m.notation != RESIGN}
    return chosen >= set(range(seats))


def aborted_outcome(seats: int) -> Outcome:
    """The outcome of an aborted match: no result for anyone."""
    return Outcome(Termination.ABORTED, (0,) * seats)


def fits(rules: Rules[Any, Any], row: MatchRecord, state: Any) -> None:
    """Raise ValueError unless a match's seats and options fit its game and its loaded position: a number of
    seats the game allows, as many as the position has, the seat to move among them, and options (with the
    seed) the game starts from. The store has checked each column already (`store.base.match_from_row`)."""
    seats = len(row.seats)
    if seats not in rules.seats:
        raise ValueError(
            f"it has {seats} seats; {rules.name} is for {min(rules.seats)} to {max(rules.seats)}"
        )
    in_position = seat_count(rules, state)
    if in_position != seats:
        raise ValueError(f"its position has {in_position} seats, but it has {seats} seat rows")
    to_move = rules.to_move(state)
    if to_move is not None and not 0 <= to_move < seats:
        raise ValueError(f"seat {to_move!r} is to move, but it has {seats} seats")
    try:
        rules.new(seats, row.options, row.seed)
    except Exception as error:
        raise ValueError(f"its options {dict(row.options)!r} start no game: {error}") from error


def finished_row(row: MatchRecord, finish: Finish) -> MatchRecord:
    """`row` as the write that ends it with `finish` leaves it (`append_moves` or `finish_match` with it):
    the status, outcome and each seat's result, no deadline and no open request. What a read would return,
    without the read."""
    results = finish.results
    return replace(
        row,
        status=finish.status,
        outcome=finish.outcome,
        finished_at=finish.at,
        updated_at=finish.at,
        deadline=None,
        abort_votes=(),
        takeback=None,
        seats=tuple(replace(p, result=results[p.seat]) for p in row.seats),
    )


class StateCache:
    """A bounded LRU of engine states keyed by match id, each tagged with the snapshot text it was loaded
    from: a state is reused only for exactly that snapshot, so a stale entry can never be served.

    It fits itself to the matches in play: a miss on a match it evicted lately (it remembers the ids of four
    times as many as it holds) means it is smaller than the matches moving in turn (each of whose moves then
    parsed its position and rebuilt the rules again), so it holds one more, up to `most`: after one round
    of misses it holds every match moving in turn."""

    def __init__(self, size: int, most: int = 50_000) -> None:
        self.size = size
        self.most = max(size, most)
        self._items: OrderedDict[int, tuple[str, Any]] = OrderedDict()
        self._evicted: OrderedDict[int, None] = OrderedDict()
        self.misses = 0
        """States asked for and not here (a bench reads it)."""

    def get(self, match_id: int, version: str) -> Any | None:
        item = self._items.get(match_id)
        if item is None or item[0] != version:
            self.misses += 1
            if item is None and match_id in self._evicted:  # evicted, and wanted again: too small
                del self._evicted[match_id]
                self.size = min(self.most, self.size + 1)  # one more for each: no overshoot
            return None
        self._items.move_to_end(match_id)
        return item[1]

    def put(self, match_id: int, version: str, state: Any) -> None:
        self._items[match_id] = (version, state)
        self._items.move_to_end(match_id)
        while len(self._items) > self.size:
            evicted, _ = self._items.popitem(last=False)
            self._evicted[evicted] = None
            while len(self._evicted) > 4 * self.size:
                self._evicted.popitem(last=False)

    def drop(self, match_id: int) -> None:
        self._items.pop(match_id, None)

    def __len__(self) -> int:
        return len(self._items)


def _an_id(match_id: object) -> bool:
    """Whether `match_id` can be a match's id (a positive 64-bit integer)."""
    return isinstance(match_id, int) and 0 < match_id < MAX_ID


class MatchService:
    """Matches over a `MatchStore` (see the module doc). The challenge and lobby services start matches
    through `start`; everything a player does to a running match goes through here."""

    LOAD_BATCH = 500
    """Matches the start-up check reads from the store per query."""

    def __init__(
        self,
        store: MatchStore,
        *,
        guilds: Guilds,
        ratings: Ratings,
        registry: Registry,
        now: Callable[[], float],
        state_cache_size: int = 512,
    ) -> None:
        self.store = store
        self.guilds = guilds
        self.ratings = ratings
        self._registry = registry
        self.now = now
        self.states = StateCache(state_cache_size)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._deadline_listeners: list[Callable[[], None]] = []
        self._started_listeners: list[Callable[[MatchView], None]] = []
        self._finished_listeners: list[Callable[[Finished], None]] = []
        self._logs: OrderedDict[int, tuple[tuple[int, float], tuple[MoveRecord, ...]]] = OrderedDict()
        """Live matches' move logs as this process last wrote them (`_live_log`), by match id."""
        self._changed_listeners: list[Callable[[MatchView], None]] = []

    # ----------------------------------------------------------------------------------------- plumbing

    def rules(self, game: str) -> Rules[Any, Any]:
        """The engine of a game; UnknownGame if there is none."""
        try:
            return self._registry(game)
        except KeyError:
            raise UnknownGame(game=game) from None

    def lock(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[match_id] = lock
        return lock

    def add_deadline_listener(self, callback: Callable[[], None]) -> None:
        """Call `callback` (sync, cheap) whenever a deadline may have moved earlier."""
        self._deadline_listeners.append(callback)

    def add_match_listener(
        self,
        *,
        started: Callable[[MatchView], None] | None = None,
        finished: Callable[[Finished], None] | None = None,
        changed: Callable[[MatchView], None] | None = None,
    ) -> None:
        """Call `started` (sync, cheap) after each match this process starts and `finished` after each one
        it ends (any reason, an abort included); e.g. to count them. Call `changed` with the match as it is
        now after every change this process commits to a match (a start, a move, a resignation, a timeout,
        a takeback, an end), still inside the commit: it must only schedule work (the bot's turn), never
        wait. A failing listener is only logged."""
        if started is not None:
            self._started_listeners.append(started)
        if finished is not None:
            self._finished_listeners.append(finished)
        if changed is not None:
            self._changed_listeners.append(changed)

    def changed(self, match: MatchView) -> None:
        """A change to `match` was committed: tell the `changed` listeners (every commit calls this)."""
        self._tell(self._changed_listeners, match)

    def _tell(self, listeners: Sequence[Callable[[Any], None]], what: MatchView | Finished) -> None:
        for callback in listeners:
            try:
                callback(what)
            except Exception:
                log.exception("match listener failed")

    def deadlines_changed(self) -> None:
        for callback in self._deadline_listeners:
            try:
                callback()
            except Exception:
                log.exception("deadline listener failed")

    def _state(self, rules: Rules[Any, Any], row: MatchRecord) -> Any:
        state = self.states.get(row.id, row.snapshot)
        if state is None:
            state = rules.load(json.loads(row.snapshot))
            fits(rules, row, state)
            self.states.put(row.id, row.snapshot, state)
        return state

    def view_of(self, row: MatchRecord, state: Any | None = None) -> MatchView:
        rules = self.rules(row.game)
        if state is None:
            state = self._state(rules, row)
        return MatchView.of(row, state, rules.to_move(state))

    async def _stored(self, read: Awaitable[MatchRecord | None]) -> MatchRecord | None:
        """A match read from the store; one whose row is damaged is set aside (MatchDamaged)."""
        try:
            return await read
        except DamagedRow as damaged:
            await self._damaged(damaged)

    async def _damaged(self, damaged: DamagedRow) -> NoReturn:
        """Set aside a match whose row is damaged (an active one is quarantined) and raise MatchDamaged."""
        await self._set_aside(damaged.match_id, damaged.game, damaged.reason, active=not damaged.settled)
        raise MatchDamaged(match_id=damaged.match_id) from damaged

    async def _row(self, match_id: int) -> MatchRecord:
        """The stored match, its state loadable (and cached); UnknownMatch, or MatchDamaged for a match whose
        row or snapshot cannot be loaded (an active one is quarantined on the spot)."""
        if not _an_id(match_id):
            raise UnknownMatch(match_id=match_id)
        row = await self._stored(self.store.get_match(match_id))
        if row is None:
            raise UnknownMatch(match_id=match_id)
        return await self._checked(row)

    async def _checked(self, row: MatchRecord) -> MatchRecord:
        if row.quarantine is not None:
            raise MatchDamaged(match_id=row.id)
        try:
            self._state(self.rules(row.game), row)
        except Exception as error:  # any failure to load stored data, whatever the engine raised
            await self._set_aside(row.id, row.game, f"it cannot be loaded: {error!r}", active=row.is_active)
            raise MatchDamaged(match_id=row.id) from error
        return row

    async def _set_aside(self, match_id: int, game: str, reason: str, *, active: bool) -> None:
        """Quarantine a match that cannot be loaded (an active one; a finished one only stays unreadable)."""
        self.states.drop(match_id)
        log.error("match %s (%s) is damaged and was set aside: %s", match_id, game, reason)
        if active and await self.store.quarantine_match(match_id, reason):
            self.deadlines_changed()

    async def quarantine_unloadable(self) -> list[int]:
        """Load every match that is not over once and set aside the ones that cannot be loaded (a damaged
        column or seat row, a snapshot the engine refuses, seats that do not fit the game); returns their
        ids. Run at start-up, so one damaged match never stops the bot or hangs it."""
        damaged = []
        ids = [i for i in await self.store.unsettled_match_ids() if _an_id(i)]  # `_row` skips the others
        for start in range(0, len(ids), self.LOAD_BATCH):  # a few queries, however many matches run
            batch = ids[start : start + self.LOAD_BATCH]
            read = await self.store.get_matches(batch)
            for match_id in batch:
                found = read.get(match_id)
                if found is None:  # gone since it was listed
                    continue
                try:
                    if isinstance(found, DamagedRow):
                        await self._damaged(found)
                    else:
                        await self._checked(found)
                except MatchDamaged:
                    damaged.append(match_id)
        return damaged

    async def active_row(self, match_id: int) -> MatchRecord:
        row = await self._row(match_id)
        if not row.is_active:
            raise MatchOver(match_id=match_id)
        return row

    @staticmethod
    def _id_of(match: int | MatchRecord) -> int:
        return match.id if isinstance(match, MatchRecord) else match

    async def _active(self, match: int | MatchRecord, expected_ply: int | None) -> MatchRecord:
        """The active match a change applies to: the one this flow read already (not read again: the write
        checks its ply), else read now; StaleMove where it is not at `expected_ply`."""
        row = match if isinstance(match, MatchRecord) else await self._row(match)
        if not row.is_active:
            raise MatchOver(match_id=row.id)
        if expected_ply is not None and expected_ply != row.ply:
            raise StaleMove()
        return row

    @staticmethod
    def player_in(row: MatchRecord, user_id: int) -> Player:
        seat = row.seat_of(user_id)
        if seat is None:
            raise NotSeated(match_id=row.id)
        return row.seats[seat]

    @staticmethod
    def deadline_for(
        row: MatchRecord,
        rules: Rules[Any, Any],
        state: Any,
        now: float,
        log: Sequence[MoveRecord] = (),
    ) -> float | None:
        """The deadline for the seat to move: none once over. In correspondence a turn lasts the match's
        time per turn, and the bot's turns have none; on a live clock the deadline is the flag, the bot's
        included (`timecontrol.turn_allowance` of the seat, from `log`: the moves as they will stand)."""
        seat = rules.to_move(state)
        if seat is None or rules.outcome(state) is not None:
            return None
        if row.time_control is not None:
            return now + turn_allowance(row.time_control, seat, stamps(log), row.berserk)
        if row.seats[seat].is_ai:
            return None
        return now + row.turn_timeout

    # ------------------------------------------------------------------------------------------ starting

    async def check_channel(
        self, guild_id: int | None, channel_id: int, *, opened_from: int | None = None, side: bool = False
    ) -> None:
        """Games may start here (or in a thread `opened_from` an allowed channel), and no match is running;
        with `side` (a table started in the channel's Activity) a running main match is no obstacle."""
        valid_id(channel_id, "channel")
        if guild_id is not None:
            valid_id(guild_id, "server")
        if opened_from is not None:
            valid_id(opened_from, "channel")
        await self.guilds.check_allowed(guild_id, opened_from if opened_from is not None else channel_id)
        if side:
            return
        try:
            busy = await self._stored(self.store.active_match_in_channel(channel_id))
        except MatchDamaged:  # set aside now: the channel is free
            return
        if busy is not None:
            raise ChannelBusy(match_id=busy.id)

    async def start(
        self,
        game: str,
        options: dict[str, Any],
        seats: Sequence[tuple[int, str | None]],
        *,
        seed: int,
        rated: bool,
        turn_timeout: float,
        guild_id: int | None,
        channel_id: int,
        challenge_id: int | None = None,
        lobby_id: int | None = None,
        tournament_game: tuple[int, int] | None = None,
        side: bool = False,
        time_control: TimeControl | None = None,
    ) -> MatchView:
        """Insert a match with these (engine) options and players, seat 0 first, and play any forced moves of
        the start; `time_control` makes it live (timecontrol.py), None keeps a deadline per turn. Closes the
        challenge or lobby it came from in the same transaction, or records it as a tournament game's match
        (TournamentGameTaken if that game has one already). With `side` (started from the channel's
        Activity) it is the channel's main match if the channel has none, else a side table beside it
        (`MatchRecord.side`)."""
        rules = self.rules(game)
        state = rules.new(len(seats), options, seed)
        now = self.now()
        players = tuple(Player(i, user_id, level) for i, (user_id, level) in enumerate(seats))
        keys = [p.player_key for p in players]
        new = NewMatch(
            game=game,
            options=options,
            seed=seed,
            guild_id=guild_id,
            channel_id=channel_id,
            seats=players,
            turn_timeout=turn_timeout,
            deadline=None,
            snapshot=snapshot_text(rules, state),
            rated=rated and len(set(keys)) == len(keys),
            created_at=now,
            time_control=time_control,
        )
        seat = rules.to_move(state)
        if time_control is not None and seat is not None:
            new = replace(new, deadline=now + FIRST_MOVE_SECONDS)
        elif seat is not None and not players[seat].is_ai:
            new = replace(new, deadline=now + turn_timeout)
        try:
            row = await self.store.insert_match(
                new, challenge_id=challenge_id, lobby_id=lobby_id, tournament_game=tournament_game
            )
        except ChannelTaken:
            if side:  # the channel has its main match: this one is a table beside it
                row = await self.store.insert_match(
                    replace(new, side=True),
                    challenge_id=challenge_id,
                    lobby_id=lobby_id,
                    tournament_game=tournament_game,
                )
                return await self._started(row, rules, state, now)
            try:
                busy = await self._stored(self.store.active_match_in_channel(channel_id))
            except MatchDamaged:  # set aside now: the channel is free for the next try
                busy = None
            raise ChannelBusy(match_id=busy.id if busy else "?") from None
        return await self._started(row, rules, state, now)

    async def _started(self, row: MatchRecord, rules: Rules[Any, Any], state: Any, now: float) -> MatchView:
        """A match just inserted: its forced moves of the start played, its listeners told."""
        if rules.forced_move(state) is not None and rules.to_move(state) is not None:
            async with self.lock(row.id):
                played = await self._commit(row, rules, state, [], now)
                self._tell(self._started_listeners, played.match)
                return played.match
        self.deadlines_changed()
        view = self.view_of(row, state)
        self._tell(self._started_listeners, view)
        self.changed(view)
        return view

    # ------------------------------------------------------------------------------------------- reading

    async def get(self, match_id: int) -> MatchView:
        return self.view_of(await self._row(match_id))

    async def in_channel(self, channel_id: int) -> MatchView:
        """The active match of a channel or thread; NoMatchHere if there is none."""
        row = await self._stored(self.store.active_match_in_channel(channel_id))
        if row is None:
            raise NoMatchHere()
        return self.view_of(await self._checked(row))

    async def of_user(self, user_id: int) -> list[MatchView]:
        """The active matches a user sits in, newest first (damaged ones are set aside, not listed)."""
        found = []
        for row in await self.store.matches_of_user(user_id):
            try:
                found.append(self.view_of(await self._checked(row)))
            except MatchDamaged:
                continue
        return found

    async def of_user_turn_first(self, user_id: int) -> list[MatchView]:
        """The active matches a user sits in, those where it is their turn first (the soonest deadline
        first), then the others, newest first: how a player of many games at once goes through them."""
        found = await self.of_user(user_id)

        def mine(match: MatchView) -> bool:
            return match.to_move is not None and match.seats[match.to_move].user_id == user_id

        turn = sorted((m for m in found if mine(m)), key=lambda m: (m.deadline or float("inf"), -m.id))
        return turn + [m for m in found if not mine(m)]

    async def get_visible(self, match_id: int, *, guild_id: int | None, user_id: int) -> MatchView:
        """A match as someone in `guild_id` may see it: one played in that guild, or one the user played in.
        Any other match is reported as unknown, so match ids reveal nothing of other servers."""
        match = await self.get(match_id)
        if match.guild_id != guild_id and user_id not in match.human_user_ids:
            raise UnknownMatch(match_id=match_id)
        return match

    async def moves(self, match_id: int) -> list[MoveView]:
        """The move log with descriptions, forced moves and resignations included."""
        row = await self._row(match_id)
        rules = self.rules(row.game)
        stored = await self.store.moves(match_id)
        steps = await self.replay_or_set_aside(row, rules, stored)
        return [self.move_view(row, rules, step, stored[step.ply]) for step in steps]

    async def log(self, match: int | MatchRecord) -> list[MoveRecord]:
        """The stored move log, as it is (no replay): for a replay image, or the last move of a board.
        `match` is its id (the match is looked up first: UnknownMatch, MatchDamaged), or the match as this
        flow read it."""
        row = match if isinstance(match, MatchRecord) else await self._row(match)
        return await self.store.moves(row.id)

    async def clocks(self, match: MatchRecord, *, running: bool = True) -> tuple[float, ...] | None:
        """A live match's clocks by seat, in seconds: as they stand now (`running`: the mover's counting
        down), or as of its last move; None for a correspondence match. Reads the move log."""
        control = match.time_control
        if control is None:
            return None
        log = stamps(await self.store.moves(match.id))
        seats = len(match.seats)
        if not running or not match.is_active:
            return tuple(remaining(control, seats, log, match.berserk))
        to_move = self.rules(match.game).to_move(self._state(self.rules(match.game), match))
        return tuple(
            timecontrol.running(control, seats, log, to_move, match.deadline, self.now(), match.berserk)
        )

    async def last_move(self, match: int | MatchRecord) -> str | None:
        """The notation of the last move played, None before the first. `match` as for `log`."""
        log = await self.log(match)
        return log[-1].notation if log else None

    async def bot_turns(self, *, shards: Shards | None = None) -> list[MatchView]:
        """Active matches where the bot is to move (after a restart the bot resumes thinking on these), of
        the guilds `shards` owns (None: every guild)."""
        found = []
        for match_id in await self.store.active_ai_match_ids(shards=shards):
            try:
                view = await self.get(match_id)
            except MatchDamaged:
                continue
            if view.ai_seat_to_move() is not None:
                found.append(view)
        return found

    async def replay_or_set_aside(
        self, row: MatchRecord, rules: Rules[Any, Any], moves: Sequence[MoveRecord]
    ) -> list[Step[Any, Any]]:
        """Every step of the stored log; a log that does not replay makes the match damaged."""
        try:
            start = rules.new(len(row.seats), row.options, row.seed)
            return list(replay(rules, start, [(m.seat, m.notation) for m in moves]))
        except ValueError as error:
            reason = f"the move log does not replay: {error}"
            await self._set_aside(row.id, row.game, reason, active=row.is_active)
            raise MatchDamaged(match_id=row.id) from error

    @staticmethod
    def _describe(rules: Rules[Any, Any], state: Any, seat: Seat, move: Any) -> str:
        if move is None:
            return f"{rules.seat_label(state, seat)} resigns"
        return rules.describe(state, move)

    def move_view(
        self, row: MatchRecord, rules: Rules[Any, Any], step: Step[Any, Any], stored: MoveRecord
    ) -> MoveView:
        return MoveView(
            ply=step.ply,
            seat=step.seat,
            notation=step.notation,
            forced=stored.forced,
            at=stored.at,
            user_id=row.seats[step.seat].user_id,
            description=self._describe(rules, step.before, step.seat, step.move),
            number=None if step.move is None else rules.moves_played(step.before) + 1,
        )

    # ------------------------------------------------------------------------------------------- playing

    async def play(
        self, match: int | MatchRecord, user_id: int, notation: str, expected_ply: int | None = None
    ) -> Played:
        """Play `notation` for `user_id`, then every forced move that follows; all stored in one transaction.

        `match` is the match's id, or the match as this flow read it (`in_channel`, `get`): then it is not
        read again, and the move applies to that position only (the store's write checks its ply, so a
        match that moved on meanwhile raises StaleMove). `expected_ply` is the ply of the board the player
        saw (from a button); another ply raises StaleMove. Raises UnknownMatch, MatchOver, NotSeated,
        NotYourTurnError, or the engine's MoveError."""
        async with self.lock(self._id_of(match)):
            row = await self._active(match, expected_ply)
            rules = self.rules(row.game)
            state = self._state(rules, row)
            self._check_turn(row, rules, state, user_id)
            self._check_clock(row)
            if not isinstance(notation, str):
                raise InvalidMove("a move is text, like d4 or pass")
            move = rules.parse(state, notation)
            return await self._commit(row, rules, state, [move], self.now())

    async def pass_turn(
        self, match: int | MatchRecord, user_id: int, expected_ply: int | None = None
    ) -> Played:
        """Pass this turn where the rules allow a pass now (`Rules.pass_move`); CannotPass where not. `match`
        and `expected_ply` as for `play`."""
        async with self.lock(self._id_of(match)):
            row = await self._active(match, expected_ply)
            rules = self.rules(row.game)
            state = self._state(rules, row)
            self._check_turn(row, rules, state, user_id)
            self._check_clock(row)
            move = rules.pass_move(state)
            if move is None:
                raise CannotPass(game_name=rules.name)
            return await self._commit(row, rules, state, [move], self.now())

    def _check_clock(self, row: MatchRecord) -> None:
        """A move on a live clock that arrives at or after the flag is refused (OutOfTime): the flag
        timer ends the game on time."""
        if row.time_control is not None and flagged(row.deadline, self.now()):
            raise OutOfTime(match_id=row.id)

    def _check_turn(self, row: MatchRecord, rules: Rules[Any, Any], state: Any, user_id: int) -> Seat:
        mine = [p.seat for p in row.seats if p.user_id == user_id]
        if not mine:
            raise NotSeated(match_id=row.id)
        to_move = rules.to_move(state)
        if to_move is None:
            raise MatchOver(match_id=row.id)
        if to_move not in mine:
            other = row.seats[to_move]
            raise BotsTurn() if other.is_ai else NotYourTurnError(user_id=other.user_id)
        return to_move

    async def _commit(
        self,
        row: MatchRecord,
        rules: Rules[Any, Any],
        state: Any,
        chosen: Sequence[Any],
        now: float,
        *,
        resigning: tuple[Seat, Any] | None = None,
        timed_out: bool = False,
    ) -> Played:
        """Store the chosen moves (or a resignation: the seat and the position after it) and the forced
        moves that follow, and describe the result. Called under the match lock. With no chosen move and
        no resignation, only forced moves are played (a fresh match). A resignation the rules made of a
        timeout (`timed_out`) that ends the game ends it on time, worded as every other timeout."""
        records: list[MoveRecord] = []
        views: list[MoveView] = []
        ply = row.ply
        control = row.time_control
        mover_before = rules.to_move(state)
        before: list[MoveRecord] = await self._live_log(row) if control is not None else []

        def clock_of(seat: Seat, chosen: bool) -> float | None:
            """The mover's clock after a chosen move on a live clock (timecontrol.py); None otherwise."""
            if control is None or not chosen:
                return None
            log = stamps([*before, *records])
            start = (
                now
                if row.deadline is None
                else row.deadline - turn_allowance(control, seat, log, row.berserk)
            )
            return after_move(control, seat, log, start, now, row.berserk)

        def record(seat: Seat, notation: str, move: Any, forced: bool, after: Any) -> Any:
            nonlocal ply
            clock = clock_of(seat, not forced and move is not None)
            records.append(
                MoveRecord(ply=ply, seat=seat, notation=notation, forced=forced, at=now, clock=clock)
            )
            views.append(
                MoveView(
                    ply=ply,
                    seat=seat,
                    notation=notation,
                    forced=forced,
                    at=now,
                    user_id=row.seats[seat].user_id,
                    description=self._describe(rules, state, seat, move),
                    number=None if move is None else rules.moves_played(state) + 1,
                )
            )
            ply += 1
            return after

        if resigning is not None:
            state = record(resigning[0], RESIGN, None, False, resigning[1])
        for move in chosen:
            mover = rules.to_move(state)
            assert mover is not None
            state = record(mover, rules.notation(state, move), move, False, rules.apply(state, move))
        while (mover := rules.to_move(state)) is not None and (
            forced := rules.forced_move(state)
        ) is not None:
            state = record(mover, rules.notation(state, forced), forced, True, rules.apply(state, forced))

        outcome = rules.outcome(state)
        if timed_out and outcome is not None and outcome.termination is Termination.RESIGNATION:
            outcome = Outcome(Termination.TIMEOUT, outcome.ranks, outcome.scores)
        finish = Finish(MatchStatus.FINISHED, outcome, now) if outcome is not None else None
        after = [*before, *records]
        deadline = self.deadline_for(row, rules, state, now, after)
        if (
            control is not None
            and row.deadline is not None
            and deadline is not None
            and rules.to_move(state) == mover_before
            and all(r.forced or r.notation == RESIGN for r in records)
        ):
            deadline = row.deadline  # another seat resigned out of turn: the mover's clock runs on
        snapshot = snapshot_text(rules, state)
        try:
            saved = await self.store.append_moves(row.id, row.ply, records, snapshot, deadline, now, finish)
        except StoreFull as error:
            log.error("match %s: a move was not saved: %s", row.id, error)
            raise MoveNotSaved() from error
        if not saved:
            self.states.drop(row.id)
            raise StaleMove()
        self.states.put(row.id, snapshot, state)
        self.deadlines_changed()
        # The row as the write left it (no read: the write succeeded at `row.ply`, so this is what it holds).
        changed = row.moved_to(ply, snapshot, deadline, now)
        if control is not None:
            changed = replace(
                changed, clocks=tuple(remaining(control, len(row.seats), stamps(after), row.berserk))
            )
            if finish is None:
                self._keep_log(row.id, (changed.ply, changed.updated_at), after)
            else:
                self._logs.pop(row.id, None)
        if finish is not None:
            changed = finished_row(changed, finish)
        view = self.view_of(changed, state)
        finished = await self._finished(view, by_user=None) if outcome is not None else None
        played = Played(finished.match if finished else view, views[0], tuple(views[1:]), finished)
        self.changed(played.match)
        return played

    # -------------------------------------------------------------------------------------------- ending

    async def check_resign(self, match_id: int, user_id: int) -> bool:
        """What `resign` checks first: the match is on, the user plays in it and has not resigned yet. The bot
        calls it before asking the player to confirm. True when resigning now aborts the match instead (not
        every seat has moved yet), so the question can say so."""
        row = await self.active_row(match_id)
        player = self.player_in(row, user_id)
        view = self.view_of(row)
        after = self.rules(row.game).resign(view.state, player.seat)
        if after is not None and self.rules(row.game).dump(after) == self.rules(row.game).dump(view.state):
            raise AlreadyResigned(match_id=match_id)
        return not await self.has_everyone_moved(row)

    async def has_everyone_moved(self, row: MatchRecord) -> bool:
        """`everyone_moved` for a stored match (reads its log; a live match's is usually kept)."""
        log = await self._live_log(row) if row.time_control is not None else await self.store.moves(row.id)
        return everyone_moved(len(row.seats), log)

    async def _live_log(self, row: MatchRecord) -> list[MoveRecord]:
        """A live match's move log, which its clocks come from: kept from this process's last write to it
        when the row is still as that write left it (same ply and write time), else read."""
        kept = self._logs.get(row.id)
        if kept is not None and kept[0] == (row.ply, row.updated_at):
            self._logs.move_to_end(row.id)
            return list(kept[1])
        log = list(await self.store.moves(row.id))
        self._keep_log(row.id, (row.ply, row.updated_at), log)
        return log

    def _keep_log(self, match_id: int, version: tuple[int, float], log: list[MoveRecord]) -> None:
        self._logs[match_id] = (version, tuple(log))
        self._logs.move_to_end(match_id)
        while len(self._logs) > self.states.most:
            self._logs.popitem(last=False)

    async def berserk(self, match_id: int, user_id: int) -> MatchView:
        """Berserk (an arena's, lichess): halve the user's live clock and drop its increment
        (`timecontrol.starting`), before their first chosen move only (BerserkTooLate), once (AlreadyBerserk).
        The caller says where berserk is allowed (the tournament host: arena games on a live clock). The
        seats are stored with the match, so a restart keeps the halved clock; the match as it is then."""
        async with self.lock(match_id):
            row = await self.active_row(match_id)
            player = self.player_in(row, user_id)
            if row.time_control is None:
                raise NoBerserk(match_id=match_id)
            if player.seat in row.berserk:
                raise AlreadyBerserk(match_id=match_id)
            if timecontrol.has_chosen(player.seat, stamps(await self.store.moves(row.id))):
                raise BerserkTooLate(match_id=match_id)
            seats = tuple(sorted({*row.berserk, player.seat}))
            if not await self.store.set_berserk(row.id, row.ply, seats):
                raise StaleMove()
            view = self.view_of(replace(row, berserk=seats))
            self.changed(view)
            return view

    async def resign(self, match_id: int, user_id: int) -> Finished | Played:
        """Give up, on any turn. Before every seat has moved once the match is aborted instead (unrated, no
        result). Where the rules end the game (two players) the others win at once (Termination.RESIGNATION);
        otherwise (TilingKing with more players) the resignation is logged and the game goes on without the
        player."""
        async with self.lock(match_id):
            row = await self.active_row(match_id)
            player = self.player_in(row, user_id)
            rules = self.rules(row.game)
            state = self._state(rules, row)
            after = rules.resign(state, player.seat)
            if after is not None and rules.dump(after) == rules.dump(state):
                raise AlreadyResigned(match_id=match_id)
            if not await self.has_everyone_moved(row):
                return await self.end_without_move(
                    row, aborted_outcome(len(row.seats)), by_user=user_id, early=Termination.RESIGNATION
                )
            if after is None:
                outcome = Outcome.loss(player.seat, len(row.seats), Termination.RESIGNATION)
                return await self.end_without_move(row, outcome, by_user=user_id)
            return await self._commit(row, rules, state, [], self.now(), resigning=(player.seat, after))

    async def end_without_move(
        self, row: MatchRecord, outcome: Outcome, *, by_user: int | None, early: Termination | None = None
    ) -> Finished:
        """End a match without a move (resignation, timeout, abort), stale-checked. Called under the lock.
        An aborted match is never rated (`Ratings.rate` rates finished matches only)."""
        status = MatchStatus.ABORTED if outcome.termination is Termination.ABORTED else MatchStatus.FINISHED
        finish = Finish(status, outcome, self.now())
        clocks = await self._final_clocks(row, finish.at) if row.time_control is not None else None
        if not await self.store.finish_match(row.id, row.ply, finish):
            raise StaleMove()
        self._logs.pop(row.id, None)
        self.deadlines_changed()
        ended = replace(finished_row(row, finish), clocks=clocks)
        finished = await self._finished(self.view_of(ended), by_user=by_user, early=early)
        self.changed(finished.match)
        return finished

    async def _final_clocks(self, row: MatchRecord, now: float) -> tuple[float, ...]:
        """A live match's clocks as it ends at `now` without a move: the mover's as it ran down (0 at
        its flag), the others' as of their last moves."""
        assert row.time_control is not None
        rules = self.rules(row.game)
        log = stamps(await self._live_log(row))
        to_move = rules.to_move(self._state(rules, row))
        seats = len(row.seats)
        return tuple(
            timecontrol.running(row.time_control, seats, log, to_move, row.deadline, now, row.berserk)
        )

    async def impose(self, match_id: int, outcome: Outcome) -> Finished | None:
        """End an active match with a result nobody played (a tournament's adjudication at its deadline, or
        an abort): rated like any end of a rated match, unless `outcome` aborts it. None when the match is
        over already."""
        async with self.lock(match_id):
            try:
                row = await self.active_row(match_id)
            except MatchOver:
                return None
            return await self.end_without_move(row, outcome, by_user=None)

    async def _finished(
        self, view: MatchView, *, by_user: int | None, early: Termination | None = None
    ) -> Finished:
        outcome = view.outcome
        assert outcome is not None
        changes = await self.ratings.rate(view.id, row=view)
        if changes:  # applied now, or before: the row says so, as a read after the rating would
            view = replace(view, ratings_applied=True)
        winners = tuple(view.seats[s].user_id for s in outcome.winners)
        finished = Finished(view, outcome, winners, by_user, tuple(changes), early)
        self._tell(self._finished_listeners, finished)
        return finished

    # ----------------------------------------------------------------------------------------- deadlines

    async def resume_clocks(self, *, shards: Shards | None = None) -> int:
        """The downtime rule (timecontrol.py): at start, the seat to move in every running live match of
        the guilds `shards` owns begins its turn again, with the clock it had when the turn began, so time
        the service was down is never charged. Stale-checked (a match that moved meanwhile is left);
        returns how many clocks resumed."""
        resumed = 0
        for match_id, ply, _ in await self.store.live_deadlines(shards=shards):
            async with self.lock(match_id):
                try:
                    row = await self.active_row(match_id)
                except (MatchDamaged, MatchOver, UnknownMatch):
                    continue
                if row.ply != ply or row.time_control is None:
                    continue
                state = self._state(self.rules(row.game), row)
                seat = self.rules(row.game).to_move(state)
                if seat is None:
                    continue
                log = stamps(await self.store.moves(row.id))
                deadline = resumed_deadline(row.time_control, seat, log, self.now(), row.berserk)
                if await self.store.set_deadline(row.id, row.ply, deadline):
                    resumed += 1
                    self.changed(self.view_of(replace(row, deadline=deadline), state))
        if resumed:
            self.deadlines_changed()
        return resumed

    async def next_deadline(self, *, shards: Shards | None = None) -> float | None:
        return await self.store.next_deadline(shards=shards)

    async def expire_due(self, now: float | None = None, *, shards: Shards | None = None) -> list[TimedOut]:
        """Time out every player whose deadline has passed (by `now`, the service's time by default), in the
        guilds `shards` owns (None: every guild). Each expiry is a stale-checked write, so running this twice
        fires nothing twice."""
        now = self.now() if now is None else now
        events = []
        for match_id, ply in await self.store.due_matches(now, shards=shards):
            try:
                event = await self._time_out(match_id, ply, now)
            except (StaleMove, MatchOver):
                continue
            if event is not None:
                events.append(event)
        return events

    async def flag(self, match_id: int, ply: int) -> TimedOut | None:
        """Time out the seat to move of a live match whose clock ran out (the flag timer, flags.py), if it
        is still at `ply` and its deadline has passed by now; None otherwise (stale: nothing happens)."""
        try:
            return await self._time_out(match_id, ply, self.now())
        except (StaleMove, MatchOver):
            return None

    async def _time_out(self, match_id: int, ply: int, now: float) -> TimedOut | None:
        async with self.lock(match_id):
            try:
                row = await self._row(match_id)
            except MatchDamaged:
                return None
            if not row.is_active or row.ply != ply or row.deadline is None or row.deadline > now:
                return None
            rules = self.rules(row.game)
            state = self._state(rules, row)
            seat = rules.to_move(state)
            if seat is None:
                return None
            user_id = row.seats[seat].user_id
            if not await self.has_everyone_moved(row):
                aborted = await self.end_without_move(
                    row, aborted_outcome(len(row.seats)), by_user=user_id, early=Termination.TIMEOUT
                )
                return TimedOut(match_id, seat, user_id, aborted, None)
            move = rules.timeout_move(state)
            if move is not None and rules.notation(state, move) == RESIGN:  # logged as any resignation
                resigned = rules.resign(state, seat)
                assert resigned is not None
                played = await self._commit(
                    row, rules, state, [], now, resigning=(seat, resigned), timed_out=True
                )
                return TimedOut(match_id, seat, user_id, played.finished, played)
            if move is not None:
                played = await self._commit(row, rules, state, [move], now)
                return TimedOut(match_id, seat, user_id, played.finished, played)
            outcome = Outcome.loss(seat, len(row.seats), Termination.TIMEOUT)
            return TimedOut(
                match_id, seat, user_id, await self.end_without_move(row, outcome, by_user=user_id), None
            )
