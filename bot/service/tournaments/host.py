"""The tournament host: loads a tournament, steps it (`lifecycle.step`), persists the new value and carries
out the actions, then feeds back what came of them. No Discord: the application supplies where a match is
played (`channel_for`: a thread of the tournament's channel) and how an announcement is posted (`announce`).

The rules it keeps:
- One write per step: the snapshot, guarded by its version (a stale writer reads again and steps again), and
  the step's actions in the outbox, in one transaction. An action is marked done once carried out; whatever
  is not done (a crash, a failure) is carried out again by the clock's next pass and at start-up, so no work
  is lost. Carrying one out twice is harmless: a match is opened with its row keyed by (tournament, game
  number) in the same transaction, so the second try finds the first match instead of opening another.
- A tournament match is started by `MatchService.start` with the event's options, time per turn and rated
  flag. When it ends (the match listener, or start-up's reconciliation), its result goes back as
  `MatchEnded`: places from the outcome; an aborted match (a seat never moved) is a forfeit lost by the seat
  that did not show up (unrated, as every abort is); in an arena, a draw in the first `ARENA_EARLY_PLIES`
  plies scores nothing (lichess).
- The deadline rule, one for every deadline (a round's, and an arena's end): `Adjudicate` ends a match still
  running then. Once every seat has moved, by the organiser's `deadline_rule` through `MatchService.impose`,
  recorded as its own termination (`ADJUDICATION`) and counted as a game played to that result: rated like
  the event, scored like one (an arena's early draw scores nothing). Before that it is aborted, as any match
  left before everyone moved: unrated, and no points, except that a seat whose own turn time ran out without
  a move loses it by forfeit (a no-show, `ran_out`). The host decides that result when it ends the match
  and reports it itself; should it stop between the two, the restart counts the aborted match as the turn
  clock would have (lost by the seat to move).
- The clock: the host is one of the turn clock's timers (clock.py), so the process owning a guild's shard
  sends `Tick` to its tournaments when `next_wakeup` comes, and retries their unfinished actions.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace

from bot.service.errors import MatchOver, NoBerserk
from bot.service.matches import MatchService, aborted_outcome
from bot.service.ratings import START_RATING, Ratings, shown_rating
from bot.service.records import Finished, MatchRecord, MatchView
from bot.service.shards import Shards
from bot.service.starts import Starts
from bot.service.store.base import (
    MatchStore,
    OutboxItem,
    StoredTournament,
    TournamentGameTaken,
    TournamentWrite,
)
from bot.service.tournaments import codec, lifecycle
from bot.service.tournaments.errors import TournamentError
from bot.service.tournaments.lifecycle import (
    AbortMatch,
    Action,
    Adjudicate,
    Cancel,
    Event,
    Join,
    Leave,
    MatchEnded,
    MatchOpened,
    OpenMatch,
    ResignMatch,
    Start,
    Tick,
)
from bot.service.tournaments.live import Berserked
from bot.service.tournaments.model import (
    DeadlineRule,
    Format,
    Result,
    ResultKind,
    Settings,
    Status,
    Tournament,
)
from games.base import Outcome, Termination
from games.texts import N_

log = logging.getLogger(__name__)

ADJUDICATION = Termination(
    "adjudicated",
    N_("adjudication at the round's deadline"),
    win=N_("{winner} wins by adjudication at the round's deadline"),
    shared=N_("{winners} share first place by adjudication at the round's deadline"),
    draw=N_("Drawn by adjudication at the round's deadline"),
)
"""How a match ended by a tournament's deadline is recorded."""

ARENA_EARLY_PLIES = 20
"""An arena draw with fewer plies than this (ten moves each) scores nothing, as on lichess."""

BERSERK_MIN_PLIES = 14
"""A berserked win scores its extra point only in a game of at least this many plies (seven moves each)."""

ORGANISED_AT_ONCE = 1
"""Open or running tournaments a member without Manage Server may organise in a server at once."""

SAVE_TRIES = 20

IDLE_RETRY = 30.0
"""Seconds the clock waits before ticking again a tournament that is due but had nothing to do."""

Announce = Callable[[Tournament, Action], Awaitable[None]]
ChannelFor = Callable[[Tournament, OpenMatch], Awaitable[int]]
Opened = Callable[[Tournament, MatchView], Awaitable[None]]


class UnknownTournament(TournamentError):
    template = N_("There is no tournament #{number} in this server. {/tournament list} shows them.")


class NotOrganiser(TournamentError):
    template = N_("Only the organiser of tournament #{number} or a member with Manage Server may do that.")


class TooManyOrganised(TournamentError):
    template = N_(
        "You already organise tournament #{number} here. Finish or cancel it first "
        "(Manage Server lifts this limit)."
    )


class TournamentDamaged(TournamentError):
    template = N_("Tournament #{number} cannot be read. Ask the bot's host to look at the logs.")


def ranks_of(points: Sequence[float]) -> tuple[int, ...]:
    """Each seat's rank (0 = first) from its points: the seats with more points come first."""
    return tuple(sum(1 for other in points if other > mine) for mine in points)


def berserkers(match: MatchRecord) -> tuple[int, ...]:
    """The users who berserked in a match that lasted `BERSERK_MIN_PLIES` (as lichess, a berserk win
    scores its extra point only after a few moves): whose win scores `arena.BERSERK_BONUS` more."""
    if match.ply < BERSERK_MIN_PLIES:
        return ()
    return tuple(match.seats[seat].user_id for seat in match.berserk)


class TournamentHost:
    """Runs tournaments over the store and the match service (see the module doc)."""

    def __init__(
        self,
        store: MatchStore,
        matches: MatchService,
        starts: Starts,
        ratings: Ratings,
        *,
        now: Callable[[], float],
        shards: Shards | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.store = store
        self.matches = matches
        self.starts = starts
        self.ratings = ratings
        self.now = now
        self.shards = shards
        self.rng = rng or random.SystemRandom()
        self.announce: Announce | None = None
        """Posts pairings, pings, standings, the podium and a cancellation (the Discord layer)."""
        self.channel_for: ChannelFor | None = None
        """Where a match is played: a channel (a thread) of its own (one match per channel)."""
        self.opened: Opened | None = None
        """Posts a new match's first board (the Discord layer); a failure is only logged."""
        self._locks: dict[int, asyncio.Lock] = {}
        self._carrying: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._done: set[int] = set()
        self._decided: dict[int, tuple[Outcome, Result]] = {}
        """Match id -> the outcome `_adjudicate` is imposing on it and the result it decided, while it ends
        the match (the match listener's report of that end uses it)."""
        self._idle_at: float | None = None
        self.wake_clock: Callable[[], None] | None = None
        """Cuts the turn clock's sleep short (set when the clock starts: the host is one of its timers)."""
        matches.add_match_listener(finished=self._on_finished)

    # ------------------------------------------------------------------------------------------- reading

    def _decode(self, row: StoredTournament) -> Tournament:
        try:
            return codec.loads(row.snapshot)
        except (ValueError, TypeError, KeyError) as error:
            log.error("tournament %s cannot be read: %s", row.id, error)
            raise TournamentDamaged(number=row.id) from None

    async def _row(self, tournament_id: int) -> StoredTournament:
        row = await self.store.get_tournament(tournament_id)
        if row is None or not row.snapshot:
            raise UnknownTournament(number=tournament_id)
        return row

    async def get(self, tournament_id: int, *, guild_id: int | None = None) -> Tournament:
        """A tournament (UnknownTournament if there is none, or it belongs to another server)."""
        row = await self._row(tournament_id)
        if guild_id is not None and row.guild_id != guild_id:
            raise UnknownTournament(number=tournament_id)
        return self._decode(row)

    async def live(self, guild_id: int) -> list[Tournament]:
        """The open and running tournaments of a server, oldest first."""
        return [self._decode(r) for r in await self.store.live_tournaments(guild_id=guild_id) if r.snapshot]

    async def of_user(self, user_id: int, limit: int = 10) -> list[Tournament]:
        """The tournaments a user played in, newest first."""
        found = []
        for row in await self.store.tournaments_of_user(user_id, limit):
            with contextlib.suppress(TournamentDamaged):
                found.append(self._decode(row))
        return found

    # ------------------------------------------------------------------------------------------ commands

    async def create(
        self,
        guild_id: int | None,
        channel_id: int,
        organiser_id: int,
        settings: Settings,
        *,
        limited: bool = False,
    ) -> Tournament:
        """A new open tournament; its options are resolved and checked now (InvalidOptions), as a challenge's
        are. `limited`: the organiser may run `ORGANISED_AT_ONCE` events at once (a member without Manage
        Server)."""
        rules = self.matches.rules(settings.game)
        options = self.starts.options(rules, settings.options, seats=settings.seats)
        settings = replace(settings, options=dict(options.engine))
        if limited and guild_id is not None:
            mine = [t for t in await self.live(guild_id) if t.organiser_id == organiser_id]
            if len(mine) >= ORGANISED_AT_ONCE:
                raise TooManyOrganised(number=mine[0].id)
        at = self.now()
        made: list[Tournament] = []

        def build(tournament_id: int) -> TournamentWrite:
            made.append(
                lifecycle.create(tournament_id, guild_id or 0, channel_id, organiser_id, settings, at)
            )
            return self._write(made[0])

        await self.store.insert_tournament(guild_id, channel_id, at, build)
        self.wake()
        return made[0]

    async def join(self, tournament_id: int, user_id: int, roles: frozenset[int] = frozenset()) -> Tournament:
        t = await self.get(tournament_id)
        rating = await self.ratings.rating(t.settings.game, user_id)
        shown = shown_rating(rating.mu, rating.sigma).points if rating is not None else START_RATING
        return await self.apply(tournament_id, Join(user_id, float(shown), self.now(), roles))

    async def leave(self, tournament_id: int, user_id: int) -> Tournament:
        return await self.apply(tournament_id, Leave(user_id, self.now()))

    def may_manage(self, t: Tournament, user_id: int, manager: bool) -> None:
        """NotOrganiser unless the user organised it or manages the server."""
        if not manager and t.organiser_id != user_id:
            raise NotOrganiser(number=t.id)

    async def begin(self, tournament_id: int, user_id: int, *, manager: bool = False) -> Tournament:
        self.may_manage(await self.get(tournament_id), user_id, manager)
        return await self.apply(tournament_id, Start(self.now()))

    async def cancel(self, tournament_id: int, user_id: int, *, manager: bool = False) -> Tournament:
        self.may_manage(await self.get(tournament_id), user_id, manager)
        return await self.apply(tournament_id, Cancel(self.now()))

    async def berserk_allowed(self, match_id: int) -> bool:
        """Whether a match is a game of a running arena on a live clock (where its players may berserk)."""
        found = await self.store.tournament_of_match(match_id)
        if found is None:
            return False
        t = await self.get(found[0])
        arena_live = t.settings.format is Format.ARENA and t.settings.clock is not None
        return arena_live and t.status is Status.RUNNING

    async def berserk(self, match_id: int, user_id: int) -> Berserked:
        """Berserk in an arena game on a live clock (bot/service/tournaments/live.py): the user's clock is
        halved, without increment, and a win scores one point more. NoBerserk for any other match; the
        match service refuses it after the user's first move or a second time."""
        if not await self.berserk_allowed(match_id):
            raise NoBerserk(match_id=match_id)
        return Berserked(await self.matches.berserk(match_id, user_id), user_id)

    # ---------------------------------------------------------------------------------------- the engine

    @staticmethod
    def _write(t: Tournament) -> TournamentWrite:
        return TournamentWrite(
            status=t.status.value,
            snapshot=codec.dumps(t),
            wakeup=lifecycle.next_wakeup(t),
            players=tuple(p.user_id for p in t.players),
        )

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    async def apply(self, tournament_id: int, event: Event) -> Tournament:
        """Step a tournament by `event`, persist it with its actions, and carry the actions out; the
        tournament as it is then. A TournamentError of the step reaches the caller (nothing is written)."""
        async with self._lock(tournament_id):
            for _ in range(SAVE_TRIES):
                row = await self._row(tournament_id)
                before = self._decode(row)
                step = lifecycle.step(before, event)
                if step.tournament == before and not step.actions:
                    return step.tournament
                items = await self.store.save_tournament(
                    tournament_id,
                    row.version,
                    self._write(step.tournament),
                    [codec.encode(a) for a in step.actions],
                    self.now(),
                )
                if items is not None:
                    break
            else:
                raise TournamentError()
        if lifecycle.next_wakeup(step.tournament) is not None:
            self.wake()
        if not items:
            return step.tournament
        await self.carry_out(items)
        return await self.get(tournament_id)

    async def carry_out(self, items: Sequence[OutboxItem]) -> None:
        """Carry out outbox items in order, each marked done once it is; a failure is logged and left for
        the clock's next pass. An item this process is carrying out already is skipped."""
        for item in items:
            if item.id in self._carrying or item.id in self._done:
                continue
            self._carrying.add(item.id)
            try:
                action: Action = codec.decode(item.action)
                await self._carry(item.tournament_id, action)
                await self.store.action_done(item.id)
                if len(self._done) > 10_000:
                    self._done.clear()
                self._done.add(item.id)
            except Exception:
                log.exception("tournament %s: carrying out %s failed", item.tournament_id, item.action)
            finally:
                self._carrying.discard(item.id)

    async def _carry(self, tournament_id: int, action: Action) -> None:
        t = await self.get(tournament_id)
        if isinstance(action, OpenMatch):
            await self._open(t, action)
        elif isinstance(action, Adjudicate):
            await self._adjudicate(t, action.match_id, action.rule)
        elif isinstance(action, ResignMatch):
            with contextlib.suppress(MatchOver):
                finished = await self.matches.resign(action.match_id, action.user_id)
                if isinstance(finished, Finished):
                    await self.match_ended(action.match_id, finished)
        elif isinstance(action, AbortMatch):
            view = await self.matches.get(action.match_id)
            await self.matches.impose(action.match_id, aborted_outcome(len(view.seats)))
        elif self.announce is not None:
            await self.announce(t, action)

    async def _open(self, t: Tournament, action: OpenMatch) -> None:
        match_id = await self.store.tournament_match(t.id, action.game)
        if match_id is None:
            if self.channel_for is None:
                raise RuntimeError("the tournament host has no channel_for")
            channel_id = await self.channel_for(t, action)
            settings = t.settings
            try:
                view = await self.matches.start(
                    settings.game,
                    dict(settings.options),
                    [(user, None) for user in action.seats],
                    seed=self.rng.randrange(2**31),
                    rated=settings.rated,
                    turn_timeout=float(settings.turn_s),
                    guild_id=t.guild_id or None,
                    channel_id=channel_id,
                    tournament_game=(t.id, action.game),
                    time_control=settings.time_control,
                )
                match_id = view.id
                if self.opened is not None:
                    try:
                        await self.opened(replace(t, round=action.round), view)
                    except Exception:
                        log.exception("tournament %s: posting the board of match %s failed", t.id, match_id)
            except TournamentGameTaken:
                match_id = await self.store.tournament_match(t.id, action.game)
                assert match_id is not None
        await self.apply(t.id, MatchOpened(action.game, match_id))

    async def _adjudicate(self, t: Tournament, match_id: int, rule: DeadlineRule) -> None:
        try:
            row = await self.matches.active_row(match_id)
        except MatchOver:
            await self.match_ended(match_id)
            return
        view = self.matches.view_of(row)
        seats = len(row.seats)
        if not await self.matches.has_everyone_moved(row):
            # Unplayed: aborted and unrated; a no-show (out of its own time) loses by forfeit, else no points.
            no_shows = [view.to_move] if self.ran_out(row) and view.to_move is not None else []
            result = lifecycle.unplayed(seats, no_shows)
            outcome = aborted_outcome(seats)
        else:
            result = self.scored(t, lifecycle.adjudicate(rule, seats, view.to_move), view.ply)
            outcome = Outcome(ADJUDICATION, ranks_of(result.points))
        self._decided[match_id] = (outcome, result)
        try:
            finished = await self.matches.impose(match_id, outcome)
            if finished is not None:
                at = finished.match.finished_at or self.now()
                await self.apply(t.id, MatchEnded(match_id, result, at, berserkers(finished.match)))
                return
        finally:
            self._decided.pop(match_id, None)
        await self.match_ended(match_id)  # it ended on the board meanwhile: that result counts

    def ran_out(self, row: MatchRecord) -> bool:
        """Whether the seat to move has used up its own turn time (the turn clock has not ended the match
        yet). Only then is a seat that never moved a no-show at a deadline: as FIDE defaults only a player
        absent past the default time, and lichess only one who let the first-move timer run out, a seat whose
        turn time is not over has not failed to appear; its match, unplayed, scores nothing for anyone."""
        return row.deadline is not None and row.deadline <= self.now()

    # ------------------------------------------------------------------------------------ ended matches

    def _on_finished(self, finished: Finished) -> None:
        """The match listener: report a match's end (only schedules; a tournament match or not is looked up
        in the store)."""
        task = asyncio.get_running_loop().create_task(self._report(finished))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _report(self, finished: Finished) -> None:
        try:
            await self.match_ended(finished.match.id, finished)
        except Exception:
            log.exception("tournament: reporting the end of match %s failed", finished.match.id)

    async def match_ended(self, match_id: int, finished: Finished | None = None) -> None:
        """Send `MatchEnded` for a tournament match that is over (nothing for any other match, or one still
        on). Safe to call twice: the second result of a game changes nothing."""
        found = await self.store.tournament_of_match(match_id)
        if found is None:
            return
        tournament_id, number = found
        t = await self.get(tournament_id)
        game = next((g for g in t.games if g.number == number), None)
        if game is None or game.result is not None:
            return
        if game.match_id is None:  # it ended before its opening was recorded
            t = await self.apply(tournament_id, MatchOpened(number, match_id))
        view = await self.matches.get(match_id)
        if view.is_active:
            return
        result = await self.result_of(t, view, finished)
        at = view.finished_at or self.now()
        await self.apply(tournament_id, MatchEnded(match_id, result, at, berserkers(view)))

    async def result_of(self, t: Tournament, view: MatchView, finished: Finished | None) -> Result:
        """A finished match's result for the tournament (see the module doc)."""
        outcome = view.outcome
        assert outcome is not None
        decided = self._decided.get(view.id)
        if decided is not None and decided[0] == outcome:
            return decided[1]
        seats = len(view.seats)
        rules = self.matches.rules(view.game)
        if outcome.termination is Termination.ABORTED:
            absent: int | None = None
            if finished is not None and finished.early is not None and finished.by_user is not None:
                absent = next(p.seat for p in view.seats if p.user_id == finished.by_user)
            elif not await self.matches.has_everyone_moved(view):
                absent = rules.to_move(view.state)
            if absent is None:
                return Result((0.0,) * seats, ResultKind.FORFEIT)
            return lifecycle.adjudicate(DeadlineRule.DRAW, seats, None, no_shows=[absent])
        places = [rank + 1 for rank in outcome.ranks]
        if outcome.termination is ADJUDICATION:
            return self.scored(t, Result.from_places(places, ResultKind.ADJUDICATED), view.ply)
        return self.scored(t, lifecycle.finished_result(seats, places=places), view.ply)

    @staticmethod
    def scored(t: Tournament, result: Result, ply: int) -> Result:
        """`result` as the event scores it after `ply` plies: in an arena a draw before `ARENA_EARLY_PLIES`
        scores nothing (as on lichess), adjudicated or not."""
        early_draw = len(result.points) == 2 and result.points == (0.5, 0.5) and ply < ARENA_EARLY_PLIES
        if t.settings.format is Format.ARENA and early_draw:
            return Result((0.0, 0.0), result.kind)
        return result

    # ----------------------------------------------------------------------------------------- the clock

    def _owns(self, guild_id: int | None) -> bool:
        return self.shards is None or self.shards.owns(guild_id)

    async def tick(self, now: float | None = None) -> None:
        """One pass of the clock: `Tick` every due tournament this process owns, then carry out the actions
        left undone (a failed opening is retried here)."""
        now = self.now() if now is None else now
        stuck = False
        for tournament_id in await self.store.due_tournaments(now, shards=self.shards):
            before = await self.store.get_tournament(tournament_id)
            try:
                await self.apply(tournament_id, Tick(now))
            except Exception:
                log.exception("tournament %s: the clock's tick failed", tournament_id)
            after = await self.store.get_tournament(tournament_id)
            if before is not None and after is not None and after.version == before.version:
                stuck = True  # due, yet nothing to do now (a match not opened yet): not every pass
        self._idle_at = now if stuck else None
        await self.retry()

    async def retry(self) -> None:
        """Carry out the undone actions of the tournaments this process owns."""
        owned: dict[int, bool] = {}
        pending = []
        for item in await self.store.pending_actions():
            if item.tournament_id not in owned:
                row = await self.store.get_tournament(item.tournament_id)
                owned[item.tournament_id] = row is not None and self._owns(row.guild_id)
            if owned[item.tournament_id]:
                pending.append(item)
        await self.carry_out(pending)

    async def recover(self) -> None:
        """At start-up: carry out what the outbox still holds, what `lifecycle.recover` says is owed, and
        report the tournament matches that ended while nobody listened."""
        await self.retry()
        for row in await self.store.live_tournaments(shards=self.shards):
            try:
                t = self._decode(row)
                for action in lifecycle.recover(t):
                    await self._carry(t.id, action)
                for game in (await self.get(t.id)).running_games():
                    if game.match_id is not None:
                        await self.match_ended(game.match_id)
            except Exception:
                log.exception("tournament %s: recovering it failed", row.id)

    async def next_due(self) -> float | None:
        """The turn clock's `Timer`: when the next tournament of this process's guilds is due; a due one
        whose last tick changed nothing waits `IDLE_RETRY` seconds (the clock would spin on it)."""
        due = await self.store.next_tournament_wakeup(shards=self.shards)
        if due is not None and self._idle_at is not None and due <= self._idle_at:
            return self._idle_at + IDLE_RETRY
        return due

    async def run_due(self, now: float) -> None:
        """The turn clock's `Timer`: a pass of `tick` (every pass, so undone actions are retried)."""
        await self.tick(now)

    def wake(self) -> None:
        """A tournament's wake-up may have moved earlier: the turn clock looks again."""
        if self.wake_clock is not None:
            self.wake_clock()

    async def stop(self) -> None:
        """Let the match listener's reports that are under way finish."""
        for task in list(self._tasks):
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await task
