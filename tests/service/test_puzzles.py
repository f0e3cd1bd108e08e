"""Puzzles in the service (bot/service/puzzles.py) on both databases: shown once per user, answered once, the
rating and streak of the solver and the puzzle's rating move, finished matches are mined once (and nothing
of their players is stored), the daily puzzle is posted once a day per server and only by the process owning
its shard; and the AI pool runs puzzle mining last, never in a bot move's way."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import bot.service.ai as ai
import games
from bot.service import Service
from bot.service.ai import AIRunner, AnalysisPosition, Job
from bot.service.errors import NoPuzzles, NotAPuzzleMove, PuzzleAnswered, UnknownGame
from bot.service.puzzles import MINING_LEASE, DailyPost, Puzzles, rate
from bot.service.ratings import NEW_MU, NEW_SIGMA
from bot.service.records import NewPuzzle
from bot.service.shards import Shards
from games.ai.puzzles import Examined, PuzzleBudget, examine
from games.base import Seat
from tests.games.test_puzzles import SMALL, self_play
from tests.service.conftest import FakeClock
from tests.service.helpers import ALICE, BOB, CAROL, GUILD, start_match

DAY = 86_400.0


def _opening_notations() -> list[str]:
    rules = games.get(SMALL)
    state = rules.new(2, {}, 0)
    return [rules.notation(state, move) for move in rules.legal_moves(state)]


WRONG, RIGHT = _opening_notations()[0], _opening_notations()[-1]
"""Two opening moves of the small game: the made-up puzzles' solution, and another answer."""


def puzzles_of(service: Service) -> Puzzles:
    return Puzzles(service.store, service.matches, now=service.now, shards=service.shards, starters=NO_POOL)


def NO_POOL(game: str) -> list[dict[str, Any]]:
    """No starter pool: only the puzzles a test stores."""
    return []


async def stored_puzzle(service: Service, source: int | None = None, ply: int = 0, mu: float = NEW_MU) -> int:
    """A puzzle of the small game: the first position, solution RIGHT (made up: the service only compares)."""
    rules = service.rules(SMALL)
    new = NewPuzzle(
        game=SMALL,
        options={},
        seats=2,
        position=rules.dump(rules.new(2, {}, 0)),
        mover=0,
        solution=(RIGHT, RIGHT),
        source_match=source if source is not None else 1 + ply,
        source_ply=ply,
        figures={"first_best": 0.9},
        mu=mu,
        sigma=NEW_SIGMA,
    )
    found = await service.store.insert_puzzle(new, 1.0)
    assert found is not None
    return found


async def test_a_puzzle_is_shown_again_until_answered_then_the_next_one(service: Service) -> None:
    puzzles = puzzles_of(service)
    first = await stored_puzzle(service, ply=0)
    second = await stored_puzzle(service, ply=1)
    shown = await puzzles.next(ALICE)
    assert shown.puzzle.id == first and shown.player is None
    assert (await puzzles.next(ALICE)).puzzle.id == first, "an unanswered puzzle is shown again"
    await puzzles.answer(ALICE, first, RIGHT)
    assert (await puzzles.next(ALICE)).puzzle.id == second
    await puzzles.answer(ALICE, second, WRONG)
    with pytest.raises(NoPuzzles):
        await puzzles.next(ALICE)
    assert (await puzzles.next(BOB)).puzzle.id == first, "another user starts at the beginning"
    with pytest.raises(UnknownGame):
        await puzzles.next(BOB, "chess")


async def test_the_same_position_is_stored_once(service: Service) -> None:
    await stored_puzzle(service, source=5, ply=3)
    with pytest.raises(AssertionError):
        await stored_puzzle(service, source=5, ply=3)
    assert await service.store.count_puzzles() == 1


async def test_a_right_answer_grows_the_streak_and_a_wrong_one_resets_it(service: Service) -> None:
    puzzles = puzzles_of(service)
    ids = [await stored_puzzle(service, ply=ply) for ply in range(3)]
    right = await puzzles.answer(ALICE, ids[0], RIGHT)
    assert right.solved and right.after.streak == 1 and right.after.mu > right.before.mu == NEW_MU
    again = await puzzles.answer(ALICE, ids[1], f" {RIGHT} ")  # spaces are ignored
    assert again.after.streak == again.after.best_streak == 2 and again.after.solved == 2
    wrong = await puzzles.answer(ALICE, ids[2], WRONG)
    assert not wrong.solved and wrong.move == WRONG and wrong.puzzle.solution == (RIGHT, RIGHT)
    assert wrong.after.streak == 0 and wrong.after.best_streak == 2 and wrong.after.tried == 3
    assert wrong.after.mu < wrong.before.mu
    stored = await puzzles.player(ALICE)
    assert stored == wrong.after
    solved_puzzle, missed_puzzle = await puzzles.get(ids[0]), await puzzles.get(ids[2])
    assert solved_puzzle.mu < NEW_MU < missed_puzzle.mu, "a puzzle solved gets easier, one missed harder"


async def test_a_puzzle_is_answered_once_and_an_illegal_move_uses_nothing(service: Service) -> None:
    puzzles = puzzles_of(service)
    puzzle = await stored_puzzle(service)
    await puzzles.next(ALICE)
    with pytest.raises(NotAPuzzleMove):
        await puzzles.answer(ALICE, puzzle, "z9")
    assert await puzzles.player(ALICE) is None
    first = await puzzles.answer(ALICE, puzzle, RIGHT)
    with pytest.raises(PuzzleAnswered):
        await puzzles.answer(ALICE, puzzle, RIGHT)
    assert await puzzles.player(ALICE) == first.after


async def test_answers_at_once_count_once(service: Service) -> None:
    puzzles = puzzles_of(service)
    puzzle = await stored_puzzle(service)
    results = await asyncio.gather(
        *(puzzles.answer(CAROL, puzzle, RIGHT) for _ in range(4)), return_exceptions=True
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert all(isinstance(r, PuzzleAnswered) for r in results if isinstance(r, BaseException))
    player = await puzzles.player(CAROL)
    assert player is not None and player.tried == 1 and player.streak == 1


def test_ratings_move_by_openskill_like_a_match() -> None:
    (mu, sigma), (p_mu, p_sigma) = rate((NEW_MU, NEW_SIGMA), (NEW_MU, NEW_SIGMA), True)
    assert mu > NEW_MU > p_mu and sigma < NEW_SIGMA and p_sigma < NEW_SIGMA
    (mu, _), (p_mu, _) = rate((NEW_MU, NEW_SIGMA), (NEW_MU, NEW_SIGMA), False)
    assert mu < NEW_MU < p_mu


async def test_the_daily_puzzle_is_posted_once_a_day_per_server(service: Service, clock: FakeClock) -> None:
    puzzles = puzzles_of(service)
    heard: list[DailyPost] = []

    async def on_daily(post: DailyPost) -> None:
        heard.append(post)

    puzzles.on_daily = on_daily
    assert await puzzles.post_daily() == [], "nothing to post without a channel"
    await puzzles.set_daily(GUILD, 77)
    assert await puzzles.post_daily() == [], "nothing to post without a puzzle"
    await stored_puzzle(service)
    [post] = await puzzles.post_daily()
    assert (post.guild_id, post.channel_id) == (GUILD, 77) and heard == [post]
    again = puzzles_of(service)  # a restart: the day is stored
    assert await again.post_daily() == []
    clock.advance(DAY)
    [tomorrow] = await again.post_daily()
    assert tomorrow.day != post.day
    await puzzles.set_daily(GUILD, None)
    clock.advance(DAY)
    assert await puzzles.post_daily() == []


async def test_only_the_process_owning_the_guilds_shard_posts_its_daily_puzzle(service: Service) -> None:
    await stored_puzzle(service)
    shards = Shards(2, frozenset({0}))
    owned, other = 2 << 22, 3 << 22  # shard 0, shard 1
    assert shards.owns(owned) and not shards.owns(other)
    for guild in (owned, other):
        await service.store.set_daily_puzzle_channel(guild, 5)
    process = Puzzles(service.store, service.matches, now=service.now, shards=shards, starters=NO_POOL)
    assert [p.guild_id for p in await process.post_daily()] == [owned]
    other_process = Puzzles(service.store, service.matches, now=service.now, shards=Shards(2, frozenset({1})))
    assert [p.guild_id for p in await other_process.post_daily()] == [other]


class InlineRunner(AIRunner):
    """An AI runner that mines in this process (no pool), counting its puzzle jobs."""

    def __init__(self) -> None:
        super().__init__(workers=1, iterations=100)
        self.jobs: list[str] = []

    async def puzzle_positions(
        self, game_id: str, options: Any, seed: int, seats: int, log: list[tuple[Seat, str]]
    ) -> list[AnalysisPosition]:
        self.jobs.append("positions")
        return ai.positions_in_worker(game_id, options, seed, seats, log)

    async def puzzle(
        self, game_id: str, position: AnalysisPosition, *, budget: PuzzleBudget, seed: int
    ) -> Examined:
        self.jobs.append(f"ply {position.ply}")
        return ai.puzzle_in_worker(game_id, position, budget, seed)


async def play_out(service: Service) -> int:
    """A match of the small game between Alice and Bob, played as the easy bot played it."""
    match = await start_match(service, SMALL, {})
    view = await service.matches.get(match.id)
    rules = service.rules(SMALL)
    for _, notation in self_play(SMALL, view.seed):
        view = await service.matches.get(match.id)
        if not view.is_active:
            break
        user = view.user_to_move
        assert user is not None
        await service.matches.play(match.id, user, notation)
    view = await service.matches.get(match.id)
    assert rules.outcome(view.state) is not None
    return match.id


async def test_a_finished_match_is_mined_once_in_the_background(service: Service) -> None:
    runner = InlineRunner()
    puzzles = puzzles_of(service)
    puzzles.start(runner, budget=PuzzleBudget(first=100, second=200, rival=100), daily_every=None)
    try:
        found = 0
        for _ in range(6):  # seeds come from the service's random source: play until a match has one
            match_id = await play_out(service)
            await puzzles.drain()
            found = await service.store.count_puzzles()
            if found:
                break
        assert found, "six finished matches of the erring bot gave no puzzle"
        jobs = len(runner.jobs)
        assert await puzzles.mine(match_id) == 0 and len(runner.jobs) == jobs, "mined once"
        stored = await puzzles.next(CAROL)
        puzzle = stored.puzzle
        rules = service.rules(puzzle.game)
        state = rules.load(puzzle.position)
        assert puzzle.move in {rules.notation(state, m) for m in rules.legal_moves(state)}
        assert puzzle.figures["second_best"] - puzzle.figures["second_runner_up"] >= 0.3
        assert not hasattr(puzzle, "source_match"), "the source match is not part of what is served"
        assert set(puzzle.figures) >= {"first_best", "second_best", "played", "played_value"}
    finally:
        await puzzles.close()


async def test_an_unfinished_match_is_not_mined(service: Service) -> None:
    runner = InlineRunner()
    puzzles = puzzles_of(service)
    puzzles.start(runner, daily_every=None)
    try:
        match = await start_match(service, SMALL, {})
        assert await puzzles.mine(match.id) == 0
        await puzzles.drain()
        assert runner.jobs == [] and await service.store.count_puzzles() == 0
    finally:
        await puzzles.close()


BUDGET = PuzzleBudget(first=100, second=200, rival=100)


async def test_matches_that_ended_while_nobody_mined_are_swept_once_across_processes(
    service: Service,
) -> None:
    """Matches that finished while no process mined them (the bot was down) are mined by the sweep; two
    processes sweeping at once mine each match once (the claim), and a later sweep finds nothing to do."""
    ended = [await play_out(service) for _ in range(3)]
    aborted = await start_match(service, SMALL, {})
    await service.matches.resign(aborted.id, ALICE)  # before anyone moved: aborted, nothing to mine
    runner = InlineRunner()
    one, other = puzzles_of(service), puzzles_of(service)
    for process in (one, other):
        process.start(runner, budget=BUDGET, daily_every=None, sweep_every=None)
    try:
        assert sorted(await service.store.unmined_matches(service.now(), limit=10)) == ended
        await asyncio.gather(one.sweep(), other.sweep())
        assert runner.jobs.count("positions") == len(ended), "each match mined once, by one process"
        assert await service.store.unmined_matches(service.now() + 10 * DAY, limit=10) == []
        assert await one.sweep() == 0 and runner.jobs.count("positions") == len(ended)
    finally:
        await one.close()
        await other.close()


async def test_a_mining_cut_off_after_its_claim_is_swept_after_the_lease(
    service: Service, clock: FakeClock
) -> None:
    """A claim whose mining never finished (its process stopped) is taken again by the sweep once
    MINING_LEASE has passed, not before (another process may still be mining it)."""
    match_id = await play_out(service)
    assert await service.store.claim_puzzle_mining(match_id, clock())  # the process that died mining it
    runner = InlineRunner()
    puzzles = puzzles_of(service)
    puzzles.start(runner, budget=BUDGET, daily_every=None, sweep_every=None)
    try:
        assert await puzzles.sweep() == 0 and runner.jobs == []
        clock.advance(MINING_LEASE + 1)
        assert await puzzles.sweep() == 1 and runner.jobs.count("positions") == 1
        clock.advance(MINING_LEASE + 1)
        assert await puzzles.sweep() == 0, "a finished claim is never taken again"
    finally:
        await puzzles.close()


async def test_the_sweep_runs_at_start_up_and_a_cancelled_mining_is_left_to_it(
    service: Service, clock: FakeClock
) -> None:
    """`start` sweeps at once (what ended while the bot was down is mined without waiting); a mining
    cancelled because the process stops leaves its claim open, to be swept after the lease."""
    match_id = await play_out(service)
    runner = InlineRunner()
    puzzles = puzzles_of(service)
    puzzles.start(runner, budget=BUDGET, daily_every=None)
    try:
        for _ in range(500):  # the start-up sweep mines it to the end, in the background
            if not await service.store.unmined_matches(clock() + 10 * DAY, limit=5):
                break
            await asyncio.sleep(0.01)
        assert runner.jobs.count("positions") == 1
    finally:
        await puzzles.close()
    assert await service.store.unmined_matches(clock() + 10 * DAY, limit=5) == []
    second = await play_out(service)
    stopping = puzzles_of(service)
    gate = asyncio.Event()

    class Stuck(InlineRunner):
        async def puzzle_positions(self, *args: Any) -> list[AnalysisPosition]:
            await gate.wait()
            return []

    stopping.start(Stuck(), budget=BUDGET, daily_every=None, sweep_every=None)
    task = asyncio.create_task(stopping.mine(second))
    await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await stopping.close()
    assert await service.store.unmined_matches(clock(), limit=5) == []  # claimed, within its lease
    assert await service.store.unmined_matches(clock() + MINING_LEASE + 1, limit=5) == [second]
    assert match_id != second


class GatedPool(ThreadPoolExecutor):
    """Threads standing in for the worker processes: every job records its name, then waits for the gate."""

    def __init__(self, threads: int) -> None:
        super().__init__(threads)
        self.gate = threading.Event()
        self.started: list[str] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        def gated() -> Any:
            self.started.append(str(args[-1]))
            self.gate.wait(10)
            return args[-1]

        return super().submit(gated)


async def until(condition: Any) -> None:
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the condition never held")


async def test_puzzle_mining_never_holds_a_bot_move_or_a_hint_back() -> None:
    """Deterministic (no timing): the pool's jobs wait for a gate; what starts while mining fills the queue
    shows the priorities. Mining takes at most half the workers, a hint gets a worker at once, a bot move a
    slot of its own, and waiting hints and analyses go before waiting mining."""
    runner = AIRunner(workers=2, iterations=10)
    pool = GatedPool(8)
    runner._pool = pool  # type: ignore[assignment]

    def job(kind: Job, name: str) -> asyncio.Task[Any]:
        return asyncio.create_task(runner._submit(kind, examine, name))

    try:
        mining = [job(Job.PUZZLE, f"puzzle {n}") for n in range(5)]
        await until(lambda: len(pool.started) == 1)
        assert runner.running_puzzles == 1 and runner.waiting == 4, "mining keeps to half the workers"
        hint = job(Job.HINT, "hint")
        await until(lambda: "hint" in pool.started)
        move = job(Job.MOVE, "bot move")
        await until(lambda: "bot move" in pool.started)
        review = job(Job.ANALYSIS, "review")
        await until(lambda: runner.waiting == 5)
        pool.gate.set()
        await asyncio.gather(*mining, hint, move, review)
        assert pool.started.index("review") < pool.started.index("puzzle 1"), "analysis before mining"
    finally:
        pool.gate.set()
        runner.close()
        pool.shutdown()
