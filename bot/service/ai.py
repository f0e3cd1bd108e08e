"""The bot as a player: its searches run in worker processes, and `BotTurns` plays its seats.

`AIRunner.choose` sends a position (as its `dump`) to a `ProcessPoolExecutor`; a priority queue in front
of it makes further requests wait their turn instead of piling up in the pool, the bot's own moves first,
then hints, then analysis work, then puzzle mining (see `AIRunner`). The worker loads the game, calls
`games.ai.best_move` and returns the move's notation: the functions it runs are in `games.ai.workers`, so a
spawned worker imports the engines and the search, not this service.

`BotTurns` keeps at most one background task per match where the bot is to move: it listens to the match
service's commits (`add_match_listener(changed=...)`), so every change that hands the bot its turn (a
move, a start, a takeback, a timeout) schedules it, whoever made it. It asks the runner, plays
the notation through `MatchService.play` like any player (stale-checked at the ply it thought about), and
reports a `BotPlayed` event, until a person is to move again. With `shards` it plays only in the guilds
those shards own, so across processes over one database each of the bot's turns is searched once.

A bad moment never strands a match on the bot's turn:
- showing that the bot is thinking is cosmetic: its failure (or a hang past `THINKING_TIMEOUT`) is logged
  and the search goes on;
- a turn that fails (the database, the search, a move the rules refuse in an unchanged position) is tried
  again after `RETRY_DELAYS` (5 s, 15 s, 60 s, then every 5 minutes, for as long as the bot is to move),
  each search with another seed;
- a move that was played but could not be announced (`on_event` raised: the board was not posted) is
  announced again on the same delays, up to `ANNOUNCE_ATTEMPTS` times, unless the match moved on meanwhile;
- a sweep (`sweep_every`, started by `resume`) looks for the bot's turns in the database every few minutes,
  so a turn that nothing scheduled (a change in another process that this one did not hear of) is picked
  up. After a restart, `resume` schedules every one of the bot's turns again: the match rows are the
  durable record, so the bot is never without either a scheduled try or, once a person is to move, their
  deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import multiprocessing
import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from enum import Enum, IntEnum
from typing import Any, TypeVar

import games
from bot.service.errors import USER_ERRORS
from bot.service.lifeline import STOP_GRACE, pool_processes, stop_processes
from bot.service.matches import MatchService
from bot.service.records import BotPlayed, Event, MatchView, Played
from bot.service.shards import Shards
from bot.service.timecontrol import think_budget
from games.ai.analysis import Hint, Reviewed
from games.ai.levels import level_settings
from games.ai.puzzles import Examined, PuzzleBudget
from games.ai.workers import (
    AnalysisPosition,
    choose_in_worker,
    hint_in_worker,
    positions_in_worker,
    puzzle_in_worker,
    review_in_worker,
    warm_up,
)
from games.base import Seat

log = logging.getLogger(__name__)

T = TypeVar("T")

RETRY_DELAYS: tuple[float, ...] = (5.0, 15.0, 60.0, 300.0)
"""Seconds before the bot tries again after its 1st, 2nd, 3rd... failure in a row; the last one repeats."""

ANNOUNCE_ATTEMPTS = 5
"""How many times the bot tries to announce (post) a move it played before it gives up on that board."""

THINKING_TIMEOUT = 5.0
"""Seconds the "thinking" signal (a typing indicator) may take before the search starts anyway."""

SWEEP_EVERY = 300.0
"""Seconds between two looks at the database for bot turns that nothing scheduled."""

AI_NICENESS = 10
"""How much lower than the bot's the search workers' CPU priority is: a search thinks for a fixed time, so
less CPU only weakens it a little, while the event loop and the board processes answer players at once."""

MOVE_SLOTS_PER_WORKER = 3
"""Timed move searches that may run at once per worker (see `AIRunner`)."""


Sleep = Callable[[float], Awaitable[object]]


class _Step(Enum):
    DONE = "done"
    """Nobody needs the bot here any more: a person is to move, the match ended or is gone."""
    MOVED = "moved"
    """The bot moved (and announced it); look again, it may be to move again."""
    AGAIN = "again"
    """The position changed under the bot's search; think again at once."""


class BotMoveRefused(RuntimeError):
    """The service refused the bot's move although nothing moved: its search chose badly."""


def retry_delay(delays: Sequence[float], failures: int) -> float:
    """The wait after `failures` failures in a row (1 or more): the delays in turn, the last one capped."""
    return delays[min(failures, len(delays)) - 1]


class Job(IntEnum):
    """What a search is for; a free slot goes to the waiting job of the lowest kind first (FIFO within a
    kind)."""

    MOVE = 0
    """The bot's own move in a match: a player waits for it."""
    HINT = 1
    """A player's /hint: someone waits, but nobody's clock runs."""
    ANALYSIS = 2
    """A finished match's analysis (one position per job): batch work."""
    PUZZLE = 3
    """Mining a finished match for puzzles (one position per job): background work nobody waits for, last
    in line, and on at most `puzzle_workers` workers at once, so a hint or an analysis finds one free."""


class AIRunner:
    """A pool of search processes shared by every match, with a priority queue in front of it.

    `workers` defaults to the number of CPUs: at most that many hints and analysis jobs run at once, a
    waiting hint before waiting analysis work. The bot's own moves have slots of their own (`move_slots`),
    so they never wait for a hint or an analysis; by default `MOVE_SLOTS_PER_WORKER` per worker when their
    searches are bounded by time (the levels' own caps, or `seconds`): such a search ends on time whatever
    runs beside it, so four hard searches elsewhere never delay a match's move by more than its own
    thinking time, they only share the cores. Searches bounded by `iterations` (tests) are slowed by
    company, so moves then get `workers` slots. The workers run below the bot's CPU priority
    (`AI_NICENESS`), so searches never take the cores that the event loop and the boards need.

    `seconds`/`iterations` override every level's budget (tests use a small iteration budget; production
    leaves both unset and each level searches its own budget, games/ai/levels.py).
    """

    def __init__(
        self,
        workers: int | None = None,
        *,
        seconds: float | None = None,
        iterations: int | None = None,
        move_slots: int | None = None,
    ) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.seconds = seconds
        self.iterations = iterations
        timed = iterations is None
        self.move_slots = max(1, move_slots or self.workers * (MOVE_SLOTS_PER_WORKER if timed else 1))
        """The bot's move searches that may run at once."""
        self.slots = self.move_slots + self.workers
        """Jobs that may run at once, moves and the rest (the pool's size; processes start when needed)."""
        self._queue: list[tuple[Job, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False
        self.running = 0
        """Jobs (searches, analyses, hints) running in the pool right now (never more than `slots`)."""
        self.running_batch = 0
        """Hints and analysis jobs among them (never more than `workers`); the rest are moves."""
        self.puzzle_workers = max(1, self.workers // 2)
        """Puzzle-mining jobs that may run at once (half the workers, at least one)."""
        self.running_puzzles = 0
        """Puzzle-mining jobs among the batch jobs running."""
        self.peak = 0
        """The most jobs that have run at the same time."""

    @property
    def waiting(self) -> int:
        """Jobs waiting for a free slot (the AI queue's depth)."""
        return len(self._queue)

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: the bot runs threads (discord.py, aiosqlite) that fork would copy badly.
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.slots, mp_context=context, initializer=warm_up, initargs=(AI_NICENESS,)
            )
        return self._pool

    async def choose(
        self, game_id: str, state_dump: dict[str, Any], level: str, seed: int, *, limit: float | None = None
    ) -> str:
        """The notation of the move the bot plays at `level` in the dumped position; `limit` caps its
        thinking time in seconds (a live clock's budget: `timecontrol.think_budget`).

        Raises ValueError for an unknown level, KeyError for an unknown game, GameOver if the game has
        ended, and RuntimeError once the runner is closed.
        """
        level_settings(level, game_id)  # an unknown level fails here, in the caller's process, clearly
        games.get(game_id)
        args = (game_id, state_dump, level, seed, self.seconds, self.iterations, limit)
        return await self._submit(Job.MOVE, choose_in_worker, *args)

    async def analysis_positions(
        self, game_id: str, options: Mapping[str, Any], seed: int, seats: int, log: list[tuple[Seat, str]]
    ) -> list[AnalysisPosition]:
        """The positions of a finished match that an analysis reviews, replayed in a worker process."""
        games.get(game_id)
        return await self._submit(Job.ANALYSIS, positions_in_worker, game_id, dict(options), seed, seats, log)

    async def review(
        self,
        game_id: str,
        position: AnalysisPosition,
        *,
        iterations: int,
        seconds: float | None,
        seed: int,
        deep: bool,
    ) -> Reviewed:
        """One position's review (the preferred move and both win chances), searched in a worker process.
        One job per position, so the bot's own moves get a worker between them."""
        return await self._submit(
            Job.ANALYSIS, review_in_worker, game_id, position, iterations, seconds, seed, deep
        )

    async def hint(
        self, game_id: str, state_dump: dict[str, Any], *, iterations: int, seconds: float | None, seed: int
    ) -> Hint:
        """The AI's suggested move with its reason, searched in a worker process (GameOver once over)."""
        games.get(game_id)
        return await self._submit(Job.HINT, hint_in_worker, game_id, state_dump, iterations, seconds, seed)

    async def puzzle_positions(
        self, game_id: str, options: Mapping[str, Any], seed: int, seats: int, log: list[tuple[Seat, str]]
    ) -> list[AnalysisPosition]:
        """The decisions of a finished match, replayed in a worker process at the puzzles' priority."""
        games.get(game_id)
        return await self._submit(Job.PUZZLE, positions_in_worker, game_id, dict(options), seed, seats, log)

    async def puzzle(
        self, game_id: str, position: AnalysisPosition, *, budget: PuzzleBudget, seed: int
    ) -> Examined:
        """Whether one position is a puzzle (games/ai/puzzles.py), searched in a worker process at the
        lowest priority: one job per position, so every other kind of job gets a worker between them."""
        return await self._submit(Job.PUZZLE, puzzle_in_worker, game_id, position, budget, seed)

    def _may_start(self, job: Job) -> bool:
        if job is Job.MOVE:
            return self.running - self.running_batch < self.move_slots
        if job is Job.PUZZLE and self.running_puzzles >= self.puzzle_workers:
            return False
        return self.running_batch < self.workers

    def _take(self, job: Job) -> None:
        self.running += 1
        self.running_batch += job is not Job.MOVE
        self.running_puzzles += job is Job.PUZZLE
        self.peak = max(self.peak, self.running)

    def _release(self, job: Job) -> None:
        self.running -= 1
        self.running_batch -= job is not Job.MOVE
        self.running_puzzles -= job is Job.PUZZLE
        self._grant()

    def _grant(self) -> None:
        """Give free slots to the waiting jobs, lowest kind first, FIFO within a kind (a kind whose slots are
        taken does not hold back the others)."""
        self._queue.sort(key=lambda entry: entry[:2])
        for entry in list(self._queue):
            job, _, future = entry
            if future.done():  # cancelled while waiting
                self._queue.remove(entry)
            elif self._may_start(job):
                self._queue.remove(entry)
                self._take(job)
                future.set_result(None)

    async def _acquire(self, job: Job) -> None:
        """Wait for a slot for `job` (see the class doc)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append((job, next(self._order), future))
        self._grant()
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():  # the slot came as it was cancelled: give it back
                self._release(job)
            else:
                self._queue[:] = [entry for entry in self._queue if entry[2] is not future]
            raise

    async def _submit(self, job: Job, function: Callable[..., T], *args: Any) -> T:
        """Run one job in the pool when a slot for its kind is free; a broken pool is restarted and the job
        tried once more. RuntimeError once the runner is closed."""
        if self._closed:
            raise RuntimeError("the AI runner is closed")
        await self._acquire(job)
        try:
            if self._closed:
                raise RuntimeError("the AI runner is closed")
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(self._executor(), function, *args)
            except BrokenProcessPool:
                if self._closed:  # killed by the runner's own stop: no fresh pool after a close
                    raise RuntimeError("the AI runner is closed") from None
                # A worker died (killed, out of memory): start a fresh pool and try this job once more.
                log.warning("AI worker pool broke during a %s job; restarting it", function.__name__)
                self._discard_pool()
                return await loop.run_in_executor(self._executor(), function, *args)
        finally:
            self._release(job)

    def _discard_pool(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def close(self) -> None:
        """Stop accepting searches and shut the pool down without waiting (running searches finish alone)."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def aclose(self, grace: float = STOP_GRACE) -> None:
        """Like `close`, but waits (off the event loop) until the worker processes have exited: a search
        still running after `grace` seconds is killed (it is searched again after a restart)."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            processes = pool_processes(pool)
            pool.shutdown(wait=False, cancel_futures=True)
            await asyncio.to_thread(stop_processes, processes, grace)

    async def __aenter__(self) -> AIRunner:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


class BotTurns:
    """Plays the bot's turns in the background, one task per match (see the module doc).

    `on_event` receives a `BotPlayed` after each of the bot's moves (raising if it could not be shown, so
    it is tried again); `on_thinking` (optional, cosmetic) is told when the bot starts thinking in a match,
    e.g. to show a typing indicator. `sleep` waits between tries (tests pass one that does not wait);
    `retry_delays` are the waits after each failure in a row; `sweep_every` (None: no sweep) is how often
    `resume` runs again in the background."""

    def __init__(
        self,
        matches: MatchService,
        runner: AIRunner,
        on_event: Callable[[Event], Awaitable[None]],
        *,
        on_thinking: Callable[[MatchView], Awaitable[None]] | None = None,
        shards: Shards | None = None,
        sleep: Sleep = asyncio.sleep,
        retry_delays: Sequence[float] = RETRY_DELAYS,
        announce_attempts: int = ANNOUNCE_ATTEMPTS,
        thinking_timeout: float = THINKING_TIMEOUT,
        sweep_every: float | None = None,
    ) -> None:
        if not retry_delays or announce_attempts < 1:
            raise ValueError("BotTurns needs at least one retry delay and one announce attempt")
        self.matches = matches
        self.runner = runner
        self.on_event = on_event
        self.on_thinking = on_thinking
        self.shards = shards
        self.sleep = sleep
        self.retry_delays = tuple(retry_delays)
        self.announce_attempts = announce_attempts
        self.thinking_timeout = thinking_timeout
        self.sweep_every = sweep_every
        self.retrying: dict[int, float] = {}
        """Matches whose bot turn failed, with the seconds the bot waits before its next try."""
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._resuming: asyncio.Task[int] | None = None
        self._sweeping: asyncio.Task[None] | None = None
        self._closing = False
        matches.add_match_listener(changed=self.schedule)

    def schedule(self, match: MatchView) -> None:
        """If the bot is to move in `match` (in a guild this process owns), let it take its turn in the
        background (one task per match). The match service calls it after every change it commits (this
        listens from its creation on), so nothing outside the service has to remember it."""
        if self._closing or match.ai_seat_to_move() is None:
            return
        if self.shards is not None and not self.shards.owns(match.guild_id):
            return
        running = self._tasks.get(match.id)
        if running is not None and not running.done():
            return
        task = asyncio.create_task(self._play(match.id), name=f"tessera-bot-{match.id}")
        self._tasks[match.id] = task
        task.add_done_callback(functools.partial(self._done, match.id))

    async def resume(self) -> int:
        """Schedule every match where the bot is to move (after a restart); returns how many. The first call
        also starts the sweep (`sweep_every`)."""
        waiting = await self.matches.bot_turns(shards=self.shards)
        for match in waiting:
            self.schedule(match)
        if self.sweep_every is not None and self._sweeping is None and not self._closing:
            self._sweeping = asyncio.create_task(self._sweep(self.sweep_every), name="tessera-bot-sweep")
        return len(waiting)

    def resume_soon(self) -> None:
        """Run `resume` in the background (another process may have handed the bot a turn); a resume that
        is already running covers this call too."""
        if self._closing or (self._resuming is not None and not self._resuming.done()):
            return
        self._resuming = asyncio.create_task(self._resume_quietly(), name="tessera-bot-resume")

    async def _resume_quietly(self) -> int:
        try:
            return await self.resume()
        except Exception:
            log.exception("looking for the bot's turns failed", extra={"kind": "bot_turn"})
            return 0

    async def _sweep(self, every: float) -> None:
        """Look for unscheduled bot turns every `every` seconds (a failed look is tried at the next)."""
        while not self._closing:
            await self.sleep(every)
            await self._resume_quietly()

    def _done(self, match_id: int, task: asyncio.Task[None]) -> None:
        if self._tasks.get(match_id) is task:
            del self._tasks[match_id]

    def pending(self) -> tuple[asyncio.Task[None], ...]:
        return tuple(self._tasks.values())

    async def close(self) -> None:
        """Stop thinking: cancel every task and wait for them."""
        self._closing = True
        tasks: list[asyncio.Task[Any]] = list(self._tasks.values())
        for extra in (self._resuming, self._sweeping):
            if extra is not None:
                tasks.append(extra)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _moved_since(self, match: MatchView) -> bool:
        try:
            now = await self.matches.get(match.id)
        except USER_ERRORS:
            return True
        return now.ply != match.ply or now.status is not match.status

    async def _play(self, match_id: int) -> None:
        """The bot's turns in one match until a person is to move; every failure is tried again later."""
        failures = 0
        while not self._closing:
            try:
                step = await self._turn(match_id, failures)
            except asyncio.CancelledError:
                raise
            except Exception:
                failures += 1
                delay = retry_delay(self.retry_delays, failures)
                log.exception(
                    "the bot could not move in match %s (failure %d in a row); trying again in %g s",
                    match_id,
                    failures,
                    delay,
                    extra={"kind": "bot_turn"},
                )
                self.retrying[match_id] = delay
                try:
                    await self.sleep(delay)
                finally:
                    self.retrying.pop(match_id, None)
                continue
            if step is _Step.DONE:
                return
            if step is _Step.MOVED:
                failures = 0

    async def _turn(self, match_id: int, attempt: int) -> _Step:
        """One try at the bot's turn: read, think, play, announce. Raises when it failed."""
        try:
            match = await self.matches.get(match_id)
        except USER_ERRORS:
            return _Step.DONE
        seat = match.ai_seat_to_move()
        if seat is None or seat.ai_level is None:
            return _Step.DONE
        await self._show_thinking(match)
        rules = self.matches.rules(match.game)
        # Another seed on each retry: a search that chose a refused move does not choose it again.
        seed = match.seed + match.ply + attempt * 7919
        dumped = rules.dump(match.state)
        if match.time_control is not None and match.deadline is not None:
            limit = self.think_limit(match)
            notation = await self.runner.choose(match.game, dumped, seat.ai_level, seed, limit=limit)
        else:
            notation = await self.runner.choose(match.game, dumped, seat.ai_level, seed)
        try:
            played = await self.matches.play(match.id, seat.user_id, notation, expected_ply=match.ply)
        except USER_ERRORS as error:
            # The position moved under the bot (a takeback, an abort): look again at once. If nothing
            # moved, the search itself chose badly: a failure, tried again later with another seed.
            if await self._moved_since(match):
                log.info("bot move in match %s not played, the match moved on: %s", match_id, error)
                return _Step.AGAIN
            raise BotMoveRefused(f"the bot's move {notation!r} was refused: {error}") from error
        await self._announce(played)
        return _Step.MOVED

    def think_limit(self, match: MatchView) -> float:
        """On a live clock, the seconds the bot may think now (`timecontrol.think_budget`): its time left
        (to its flag, or to the end of its first-move allowance), spread over the moves it expects, plus
        most of the increment, always keeping a reserve: the bot manages its time and never flags."""
        control = match.time_control
        assert control is not None and match.deadline is not None
        left = match.deadline - self.matches.now()
        moves_left = max(10, 40 - self.matches.rules(match.game).moves_played(match.state) // 2)
        return think_budget(left, control.increment, moves_left)

    async def _show_thinking(self, match: MatchView) -> None:
        """Tell `on_thinking`; cosmetic, so a failure or a hang never stops the bot's move."""
        if self.on_thinking is None:
            return
        try:
            await asyncio.wait_for(self.on_thinking(match), self.thinking_timeout)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a network error, a timeout, anything: the search goes on
            log.warning("could not show that the bot is thinking in match %s: %r", match.id, error)

    async def _announce(self, played: Played) -> None:
        """Report the bot's move (`on_event` posts its board); a failed report is tried again after the
        retry delays, up to `announce_attempts` times, unless the match moved on (its board is stale)."""
        match_id = played.match.id
        for attempt in range(1, self.announce_attempts + 1):
            if attempt > 1:
                await self.sleep(retry_delay(self.retry_delays, attempt - 1))
                if await self._superseded(played):
                    log.info("the bot's move in match %s is no longer the last; not announced", match_id)
                    return
            try:
                await self.on_event(BotPlayed(played))
                return
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception(
                    "could not announce the bot's move in match %s (try %d of %d)",
                    match_id,
                    attempt,
                    self.announce_attempts,
                    extra={"kind": "bot_post"},
                )
        log.error("gave up announcing the bot's move in match %s", match_id, extra={"kind": "bot_post"})

    async def _superseded(self, played: Played) -> bool:
        """Whether the match moved on since the bot's move (a failed read counts as not)."""
        try:
            return await self._moved_since(played.match)
        except Exception:
            return False
