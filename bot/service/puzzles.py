"""Puzzles: positions of finished matches where one move is clearly best (games/ai/puzzles.py), stored, served
to players with a puzzle rating and a streak, and posted daily in the channel a server picks.

- Mining: when a match this process ends is finished (not aborted), it is claimed once in the store
  (`claim_puzzle_mining`: one process, once, even across restarts) and mined in the AI pool at the lowest
  priority (`Job.PUZZLE`, one position per job; the bot's moves have slots of their own, hints and analyses
  go first), one match at a time; the claim is marked finished after (`finish_puzzle_mining`). The positions
  go in the finder's order (`mining_order`) and the first puzzle found ends the match's mining: **at most one
  puzzle per match** (the store refuses a second, so a match mined twice still gives one). Each puzzle is
  stored with its solution line, figures and theme; its source match and ply are kept only so a position
  is stored once, and are never shown. Nothing about players is stored with a puzzle.
- Starter pool: the puzzles shipped with the games (`games.ai.puzzles.starter_pool`, made by
  bench/starter_puzzles.py) are stored on first need (negative source match) and served, for each game,
  until it has `STARTER_UNTIL` puzzles of its own; a new installation has puzzles at once.
- The sweep (`sweep`, at start-up and every `SWEEP_EVERY` seconds, below the live mining): finished
  matches nobody claimed (they ended while no process mined: the bot was down, or mining was off), and
  claims never finished after `MINING_LEASE` seconds (the process stopped while mining), of this process's
  shards, oldest first, each claimed as above (so two processes never mine one match twice at once).
- Serving: `next` gives the user's unanswered puzzle again, or a new one (never shown to them before) whose
  rating is nearest theirs. `answer` takes a move in notation: a move that is not legal is refused without
  using up the puzzle; a legal one is right if it is the solution. The user's puzzle rating and the puzzle's
  move by openskill (solving is a win against the puzzle), as the project's ratings do, and the streak
  (puzzles solved in a row) grows or restarts at 0. One answer per puzzle and user (`PuzzleAnswered`).
- Streak (`streak_next`, `streak_answer`): puzzles in a row, each a little harder, until the first miss
  (lichess's Puzzle Streak); unrated, each puzzle answered once; the best run is kept.
- Daily: a server picks a channel (`set_daily`); `post_daily` (run by `start`'s loop every
  `DAILY_CHECK_EVERY` seconds) claims each server's day in the store before posting (so it is posted once a
  day across restarts and processes) and hands the post to `on_daily`; with `shards`, only the guilds this
  process owns. The day's puzzle is the same for every server (`puzzle_of_day`): the games take turns day by
  day, and within a game the days walk through its matches, one puzzle per match, so days in a row never
  show one match twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import time
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

import games
from bot.service.ai import AIRunner
from bot.service.errors import NoPuzzles, NotAPuzzleMove, PuzzleAnswered, UnknownPuzzle
from bot.service.matches import MatchService
from bot.service.ratings import NEW_MU, NEW_SIGMA, POINTS_PER_MU
from bot.service.records import (
    DailyPuzzleChannel,
    Finished,
    MatchStatus,
    MatchView,
    NewPuzzle,
    PuzzlePlayer,
    PuzzleRecord,
    StreakRun,
)
from bot.service.shards import Shards
from bot.service.store import MatchStore
from games.ai.puzzles import Puzzle, PuzzleBudget, mining_order, starter_pool
from games.base import MoveError

log = logging.getLogger(__name__)

_MODEL = PlackettLuce()

DAILY_CHECK_EVERY = 600.0
"""Seconds between two looks for servers whose daily puzzle is due."""
SWEEP_EVERY = 600.0
"""Seconds between two sweeps for finished matches nobody mined."""
SWEEP_BATCH = 20
"""Matches the sweep reads at a time."""
MINING_LEASE = 3600.0
"""Seconds after which a mining claim that never finished may be taken again (its process stopped)."""
STARTER_UNTIL = 100
"""A game's starter puzzles are served until it has this many puzzles of its own."""
STREAK_START_POINTS = -250.0
"""A streak's first puzzle is picked near a new player's rating plus this many points..."""
STREAK_STEP_POINTS = 50.0
"""...and each next one this many points higher."""
DIFFICULTY_POINTS = 300.0
"""A new puzzle's rating: a new player's, plus up to this many points for the hardest (minus for the
easiest), by the finder's difficulty."""


def _cancelling() -> bool:
    """Whether the running task is being cancelled (the process is stopping)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def budget_for(runner: AIRunner) -> PuzzleBudget:
    """The finder's budget: its defaults, or one scaled to the runner's iteration override (tests)."""
    if runner.iterations is None:
        return PuzzleBudget()
    n = max(1, runner.iterations)
    return PuzzleBudget(first=n, second=2 * n, rival=n)


def new_puzzle_rating(difficulty: float) -> tuple[float, float]:
    """A new puzzle's (mu, sigma): harder puzzles start higher (see `DIFFICULTY_POINTS`)."""
    points = (2 * difficulty - 1) * DIFFICULTY_POINTS
    return NEW_MU + points / POINTS_PER_MU, NEW_SIGMA


def rate(
    player: tuple[float, float], puzzle: tuple[float, float], solved: bool
) -> tuple[tuple[float, float], tuple[float, float]]:
    """Both ratings after one answer: solving is a win against the puzzle, missing it a loss."""
    solver = _MODEL.create_rating([player[0], player[1]])
    problem = _MODEL.create_rating([puzzle[0], puzzle[1]])
    [[solver], [problem]] = _MODEL.rate([[solver], [problem]], ranks=[0, 1] if solved else [1, 0])
    return (solver.mu, solver.sigma), (problem.mu, problem.sigma)


def daily_pick(candidates: list[tuple[int, str]], day_number: int) -> int | None:
    """The day's puzzle among `candidates` ((id, game), one puzzle per match, in id order): the games take
    turns day by day (in name order), and within a game the days walk through its puzzles in order; None
    without candidates."""
    by_game: dict[str, list[int]] = {}
    for puzzle_id, game in candidates:
        by_game.setdefault(game, []).append(puzzle_id)
    if not by_game:
        return None
    turns = sorted(by_game)
    ids = by_game[turns[day_number % len(turns)]]
    return ids[day_number // len(turns) % len(ids)]


def day_of(now: float) -> str:
    """The UTC day of a time, YYYY-MM-DD."""
    return datetime.datetime.fromtimestamp(now, datetime.UTC).date().isoformat()


@dataclass(frozen=True, slots=True)
class Shown:
    """A puzzle for a user, with their puzzle standing (None before their first answer)."""

    puzzle: PuzzleRecord
    player: PuzzlePlayer | None


@dataclass(frozen=True, slots=True)
class Answered:
    """One answer: the move given (notation), whether it solved the puzzle, and the solver before/after."""

    puzzle: PuzzleRecord
    move: str
    solved: bool
    before: PuzzlePlayer
    after: PuzzlePlayer


@dataclass(frozen=True, slots=True)
class StreakShown:
    """The puzzle a user's streak shows, and the run so far."""

    puzzle: PuzzleRecord
    run: StreakRun


@dataclass(frozen=True, slots=True)
class StreakAnswered:
    """One streak answer: the move given, whether it solved the puzzle, the run before and after."""

    puzzle: PuzzleRecord
    move: str
    solved: bool
    before: StreakRun
    after: StreakRun


def no_starters(game: str) -> list[dict[str, Any]]:
    """No starter pool (settings.puzzle_starters off, and the tests')."""
    return []


def starter_record(game: str, key: int, line: int, entry: dict[str, Any]) -> NewPuzzle:
    """A starter pool's line as a puzzle to store: source match `key` (negative, the game's), ply its line."""
    mu, sigma = new_puzzle_rating(float(entry.get("difficulty", 0.5)))
    return NewPuzzle(
        game=game,
        options=dict(entry.get("options", {})),
        seats=int(entry.get("seats", 2)),
        position=entry["position"],
        mover=int(entry["mover"]),
        solution=tuple(entry["solution"]),
        source_match=key,
        source_ply=line,
        figures=dict(entry["figures"]),
        mu=mu,
        sigma=sigma,
        theme=entry.get("theme"),
    )


@dataclass(frozen=True, slots=True)
class DailyPost:
    """A server's daily puzzle, due now in its channel."""

    guild_id: int
    channel_id: int
    day: str
    puzzle: PuzzleRecord


DailyHandler = Callable[[DailyPost], Awaitable[None]]


class Puzzles:
    """Mining, serving and the daily post (see the module doc)."""

    def __init__(
        self,
        store: MatchStore,
        matches: MatchService,
        *,
        now: Callable[[], float] = time.time,
        shards: Shards | None = None,
        starters: Callable[[str], list[dict[str, Any]]] = starter_pool,
    ) -> None:
        self.store = store
        self.starters = starters
        """A game's starter pool (its lines); tests give none or their own."""
        self._starters_loaded = False
        self.matches = matches
        self.now = now
        self.shards = shards
        self.runner: AIRunner | None = None
        self.mining = False
        """Whether finished matches are mined as they finish (`start`)."""
        self.budget: PuzzleBudget = PuzzleBudget()
        self.on_daily: DailyHandler | None = None
        self._mining: set[asyncio.Task[int]] = set()
        self._one_at_a_time = asyncio.Semaphore(1)
        self._daily: asyncio.Task[None] | None = None
        self._sweeping: asyncio.Task[None] | None = None
        matches.add_match_listener(finished=self._finished)

    # ------------------------------------------------------------------------------------------ mining

    def start(
        self,
        runner: AIRunner,
        *,
        mine: bool = True,
        on_daily: DailyHandler | None = None,
        budget: PuzzleBudget | None = None,
        daily_every: float | None = DAILY_CHECK_EVERY,
        sweep_every: float | None = SWEEP_EVERY,
    ) -> None:
        """Mine finished matches in `runner`'s pool from now on (unless `mine` is False), sweep for those
        nobody mined now and every `sweep_every` seconds, and (with `daily_every`) post the daily puzzles
        through `on_daily` in the background."""
        self.runner = runner
        self.mining = mine
        self.budget = budget or budget_for(runner)
        if on_daily is not None:
            self.on_daily = on_daily
        if daily_every is not None and self._daily is None:
            self._daily = asyncio.create_task(self._daily_loop(daily_every), name="tessera-daily-puzzle")
        if mine and sweep_every is not None and self._sweeping is None:
            self._sweeping = asyncio.create_task(self._sweep_loop(sweep_every), name="tessera-puzzle-sweep")

    def _finished(self, finished: Finished) -> None:
        """A match this process ended: mine it in the background if it finished (not aborted)."""
        if not self.mining or self.runner is None or finished.match.status is not MatchStatus.FINISHED:
            return
        task = asyncio.get_running_loop().create_task(self._mine_logged(finished.match.id))
        self._mining.add(task)
        task.add_done_callback(self._mining.discard)

    async def _mine_logged(self, match_id: int) -> int:
        try:
            return await self.mine(match_id)
        except Exception:
            log.exception("mining match %s for puzzles failed", match_id)
            return 0

    async def mine(self, match_id: int) -> int:
        """Mine one finished match once (claimed in the store) and store its puzzles; how many were stored.
        Does nothing for a match that is not finished or was claimed already (a claim older than
        `MINING_LEASE` that never finished may be taken again). The claim is finished whatever the mining
        came to, unless it was cut off (cancelled): then the sweep takes it again after the lease."""
        runner = self.runner
        if runner is None:
            raise RuntimeError("puzzle mining needs the AI runner: call start first")
        match = await self.matches.get(match_id)
        if match.status is not MatchStatus.FINISHED:
            return 0
        now = self.now()
        if not await self.store.claim_puzzle_mining(match.id, now, stale_before=now - MINING_LEASE):
            return 0
        try:
            return await self._mine_claimed(runner, match)
        finally:
            if not _cancelling():
                await self.store.finish_puzzle_mining(match.id, self.now())

    async def _mine_claimed(self, runner: AIRunner, match: MatchView) -> int:
        log_entries = [(m.seat, m.notation) for m in await self.matches.log(match.id)]
        stored = 0
        async with self._one_at_a_time:
            seats = len(match.seats)
            found = await runner.puzzle_positions(match.game, match.options, match.seed, seats, log_entries)
            for position in mining_order(found, match.seed):
                seed = match.seed + position.ply
                examined = await runner.puzzle(match.game, position, budget=self.budget, seed=seed)
                if examined.puzzle is not None:
                    stored += await self._store(match.id, match.game, match.options, seats, examined.puzzle)
                    break
        if stored:
            log.info("match %s gave %d puzzles", match.id, stored)
        return stored

    async def _store(self, match_id: int, game: str, options: Any, seats: int, puzzle: Puzzle) -> int:
        mu, sigma = new_puzzle_rating(puzzle.difficulty)
        new = NewPuzzle(
            game=game,
            options=dict(options),
            seats=seats,
            position=puzzle.position,
            mover=puzzle.mover,
            solution=puzzle.solution,
            source_match=match_id,
            source_ply=puzzle.ply,
            figures=puzzle.figures.as_dict(),
            mu=mu,
            sigma=sigma,
            theme=puzzle.theme,
        )
        return 0 if await self.store.insert_puzzle(new, self.now()) is None else 1

    # ------------------------------------------------------------------------------------ starter pool

    def use_starters(self, starters: Callable[[str], list[dict[str, Any]]]) -> None:
        """Serve these starter pools from now on (stored on the next need)."""
        self.starters = starters
        self._starters_loaded = False

    async def load_starters(self) -> int:
        """Store the starter puzzles of every game not stored yet (once per process); how many were new."""
        if self._starters_loaded:
            return 0
        new = 0
        for game in games.GAME_IDS:
            pool = self.starters(game)
            if not pool or await self.store.count_puzzles(game, starter=True) >= len(pool):
                continue
            key = -(1 + (zlib.crc32(game.encode()) & 0x7FFFFFFF))
            entries = [starter_record(game, key, line, entry) for line, entry in enumerate(pool)]
            new += await self.store.insert_starter_puzzles(entries, self.now())
        self._starters_loaded = True
        if new:
            log.info("stored %d starter puzzles", new)
        return new

    async def starter_games(self) -> list[str]:
        """The games whose starter puzzles are served: those with fewer than `STARTER_UNTIL` of their own."""
        await self.load_starters()
        return [
            game
            for game in games.GAME_IDS
            if await self.store.count_puzzles(game, starter=False) < STARTER_UNTIL
        ]

    async def sweep(self) -> int:
        """Mine, one after the other and each after the live mining in progress, every finished match of
        this process's shards nobody mined (see the module doc); how many matches were mined."""
        tried: set[int] = set()
        mined = 0
        while True:
            now = self.now()
            found = await self.store.unmined_matches(
                now - MINING_LEASE, limit=SWEEP_BATCH + len(tried), shards=self.shards
            )
            todo = [match_id for match_id in found if match_id not in tried]
            if not todo:
                return mined
            for match_id in todo:
                tried.add(match_id)
                while self._mining:  # the matches that just ended first: the sweep's work waits
                    await asyncio.gather(*list(self._mining), return_exceptions=True)
                await self._mine_logged(match_id)
                mined += 1

    async def _sweep_loop(self, every: float) -> None:
        while True:
            try:
                swept = await self.sweep()
                if swept:
                    log.info("the puzzle sweep mined %d finished matches nobody had mined", swept)
            except Exception:
                log.exception("the puzzle sweep failed; trying again later")
            await asyncio.sleep(every)

    async def drain(self) -> None:
        """Wait until the mining in progress has finished (tests)."""
        while self._mining:
            await asyncio.gather(*list(self._mining), return_exceptions=True)

    # ----------------------------------------------------------------------------------------- serving

    def state(self, puzzle: PuzzleRecord) -> Any:
        """The puzzle's position as the engine's state."""
        return self.matches.rules(puzzle.game).load(puzzle.position)

    def legal_moves(self, puzzle: PuzzleRecord) -> list[str]:
        """Every legal move of the puzzle's position, in notation."""
        rules = self.matches.rules(puzzle.game)
        state = rules.load(puzzle.position)
        return [rules.notation(state, move) for move in rules.legal_moves(state)]

    async def get(self, puzzle_id: int) -> PuzzleRecord:
        """A stored puzzle; UnknownPuzzle if there is none."""
        found = await self.store.get_puzzle(puzzle_id)
        if found is None:
            raise UnknownPuzzle(puzzle_id=puzzle_id)
        return found

    async def player(self, user_id: int) -> PuzzlePlayer | None:
        return await self.store.get_puzzle_player(user_id)

    async def next(self, user_id: int, game: str | None = None, theme: str | None = None) -> Shown:
        """The user's unanswered puzzle (of `game` and `theme` if given), or a new one nearest their rating;
        NoPuzzles when they have seen every one."""
        if game is not None:
            self.matches.rules(game)  # UnknownGame
        player = await self.store.get_puzzle_player(user_id)
        open_one = await self.store.open_puzzle(user_id)
        if (
            open_one is not None
            and (game is None or open_one.game == game)
            and (theme is None or open_one.theme == theme)
        ):
            return Shown(open_one, player)
        mu = player.mu if player is not None else NEW_MU
        starters = await self.starter_games()
        run = await self.store.get_streak(user_id)  # the streak's open puzzle stays the streak's
        picked = await self.store.pick_puzzle(
            user_id,
            game,
            mu,
            theme=theme,
            starters=starters,
            exclude=None if run is None else run.puzzle_id,
        )
        if picked is None:
            raise NoPuzzles()
        await self.store.show_puzzle(user_id, picked.id, self.now())
        return Shown(picked, player)

    async def show(self, user_id: int, puzzle_id: int) -> Shown:
        """A given puzzle (the daily one) for the user; PuzzleAnswered if they answered it already."""
        puzzle = await self.get(puzzle_id)
        await self.store.show_puzzle(user_id, puzzle.id, self.now())
        player = await self.store.get_puzzle_player(user_id)
        return Shown(puzzle, player)

    async def answer(self, user_id: int, puzzle_id: int, move: str) -> Answered:
        """Answer a puzzle shown to the user (see the module doc): NotAPuzzleMove for a move that is not
        legal there, PuzzleAnswered if they answered it already."""
        puzzle = await self.get(puzzle_id)
        given = self._given(puzzle, move)
        solved = given == puzzle.move
        fresh = PuzzlePlayer(user_id, NEW_MU, NEW_SIGMA)
        await self.store.show_puzzle(user_id, puzzle.id, self.now())  # a daily puzzle answered at once
        result = await self.store.answer_puzzle(user_id, puzzle.id, solved, rate, fresh, self.now())
        if result is None:
            raise PuzzleAnswered()
        before, after = result
        return Answered(puzzle, given, solved, before, after)

    # ------------------------------------------------------------------------------------------ streak

    async def streak(self, user_id: int) -> StreakRun | None:
        """The user's puzzle streak, None before their first."""
        return await self.store.get_streak(user_id)

    async def streak_next(self, user_id: int) -> StreakShown:
        """The puzzle the user's streak shows, or the next one: never shown to them, nearest a rating that
        rises with the run (`STREAK_START_POINTS`, `STREAK_STEP_POINTS`); NoPuzzles when none is left."""
        run = await self.store.get_streak(user_id) or StreakRun(user_id)
        if run.puzzle_id is not None:
            shown = await self.store.get_puzzle(run.puzzle_id)
            if shown is not None:
                return StreakShown(shown, run)
        points = STREAK_START_POINTS + run.run * STREAK_STEP_POINTS
        starters = await self.starter_games()
        picked = await self.store.pick_puzzle(
            user_id, None, NEW_MU + points / POINTS_PER_MU, starters=starters
        )
        if picked is None:
            raise NoPuzzles()
        await self.store.show_streak_puzzle(user_id, picked.id, self.now())
        return StreakShown(picked, StreakRun(user_id, run.run, run.best, picked.id))

    async def streak_answer(self, user_id: int, puzzle_id: int, move: str) -> StreakAnswered:
        """Answer the puzzle the user's streak shows: NotAPuzzleMove for a move that is not legal there,
        PuzzleAnswered when the streak does not show it (answered already). A miss ends the run."""
        puzzle = await self.get(puzzle_id)
        given = self._given(puzzle, move)
        solved = given == puzzle.move
        result = await self.store.answer_streak(user_id, puzzle.id, solved, self.now())
        if result is None:
            raise PuzzleAnswered()
        before, after = result
        return StreakAnswered(puzzle, given, solved, before, after)

    def _given(self, puzzle: PuzzleRecord, move: str) -> str:
        """The move given, in notation; NotAPuzzleMove unless it is legal in the puzzle's position."""
        rules = self.matches.rules(puzzle.game)
        state = rules.load(puzzle.position)
        try:
            return rules.notation(state, rules.parse(state, move.strip()))
        except MoveError:
            raise NotAPuzzleMove(move=move) from None

    # ------------------------------------------------------------------------------------------- daily

    async def set_daily(self, guild_id: int, channel_id: int | None) -> None:
        """Post the server's daily puzzle in `channel_id` from now on (None: stop)."""
        await self.store.set_daily_puzzle_channel(guild_id, channel_id)

    async def puzzle_of_day(self, day: str) -> PuzzleRecord | None:
        """The day's puzzle (the same for every server; see the module doc), None while there is none."""
        candidates = await self.store.daily_puzzles(await self.starter_games())
        picked = daily_pick(candidates, datetime.date.fromisoformat(day).toordinal())
        return None if picked is None else await self.get(picked)

    async def post_daily(self) -> list[DailyPost]:
        """Post today's puzzle in every server of this process's shards whose channel has not had it: each
        day is claimed in the store first, so it goes out once even across restarts and processes."""
        day = day_of(self.now())
        puzzle = await self.puzzle_of_day(day)
        if puzzle is None:
            return []
        posted = []
        channels: list[DailyPuzzleChannel] = await self.store.daily_puzzle_channels(shards=self.shards)
        for channel in channels:
            if channel.last_day == day or not await self.store.claim_daily_puzzle(channel.guild_id, day):
                continue
            post = DailyPost(channel.guild_id, channel.channel_id, day, puzzle)
            posted.append(post)
            if self.on_daily is not None:
                try:
                    await self.on_daily(post)
                except Exception:
                    log.exception("posting the daily puzzle in guild %s failed", channel.guild_id)
        return posted

    async def _daily_loop(self, every: float) -> None:
        while True:
            try:
                await self.post_daily()
            except Exception:
                log.exception("the daily puzzle pass failed; trying again later")
            await asyncio.sleep(every)

    async def close(self) -> None:
        """Stop the daily loop, the sweep and the mining in progress (and mine nothing more)."""
        self.mining = False
        loops = [task for task in (self._daily, self._sweeping) if task is not None]
        tasks = [*self._mining, *loops]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._daily = None
        self._sweeping = None
