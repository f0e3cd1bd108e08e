"""The AI runner's queue: the bot's own moves have slots of their own (they never wait for a hint or an
analysis), a free batch slot goes to a hint before analysis work; timed move searches run beside each other
(four hard searches elsewhere never hold a match's move back), hints and analyses use at most one slot per
worker, and the workers run below the bot's CPU priority.

Deterministic: the pool is replaced by threads whose jobs wait for the test to open a gate, and record the
order in which they started."""

from __future__ import annotations

import asyncio
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import bot.service.ai as ai
from bot.service.ai import AI_NICENESS, AIRunner, Job


class GatedPool(ThreadPoolExecutor):
    """Threads standing in for the worker processes: every job records its name when it starts, then waits
    for the gate."""

    def __init__(self, threads: int) -> None:
        super().__init__(threads)
        self.gate = threading.Event()
        self.started: list[str] = []
        self.lock = threading.Lock()

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        def gated() -> Any:
            with self.lock:
                self.started.append(str(args[-1]))  # every stand-in job's last argument is its name
            self.gate.wait(10)
            return fn(*args, **kwargs)

        return super().submit(gated)


def named(*args: Any) -> str:
    return str(args[-1])


@pytest.fixture
def fake_jobs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker functions answer with their last argument (a name) instead of searching."""
    for function in ("choose_in_worker", "review_in_worker", "hint_in_worker", "positions_in_worker"):
        monkeypatch.setattr(ai, function, named)


async def until(condition: Any) -> None:
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the condition never held")


def move(runner: AIRunner, name: str) -> asyncio.Task[Any]:
    return asyncio.create_task(runner._submit(Job.MOVE, ai.choose_in_worker, name))


def analysis(runner: AIRunner, name: str) -> asyncio.Task[Any]:
    return asyncio.create_task(runner._submit(Job.ANALYSIS, ai.review_in_worker, name))


def hint(runner: AIRunner, name: str) -> asyncio.Task[Any]:
    return asyncio.create_task(runner._submit(Job.HINT, ai.hint_in_worker, name))


@pytest.mark.usefixtures("fake_jobs")
async def test_a_bot_move_is_scheduled_before_queued_analysis_work_and_hints() -> None:
    runner = AIRunner(workers=1, iterations=10)  # searches bounded by iterations: one slot
    pool = GatedPool(4)
    runner._pool = pool  # type: ignore[assignment]
    try:
        first = analysis(runner, "review 1")
        await until(lambda: pool.started == ["review 1"])
        queued = [analysis(runner, "review 2"), analysis(runner, "review 3"), hint(runner, "hint")]
        await until(lambda: runner.waiting == 3)
        mine = move(runner, "bot move")
        await until(lambda: pool.started == ["review 1", "bot move"])
        assert runner.waiting == 3, "the bot's move did not queue behind the analysis work"
        later = move(runner, "next move")  # moves bounded by iterations: one at a time per worker
        await until(lambda: runner.waiting == 4)
        assert runner.running == 2 and runner.running_batch == 1
        pool.gate.set()
        assert await asyncio.gather(first, *queued, mine, later) == [
            "review 1",
            "review 2",
            "review 3",
            "hint",
            "bot move",
            "next move",
        ]
        assert pool.started.index("hint") < pool.started.index("review 2") < pool.started.index("review 3"), (
            "the free batch slot went to the hint, then the analysis in order"
        )
        assert runner.running == runner.running_batch == runner.waiting == 0
    finally:
        pool.gate.set()
        runner.close()
        pool.shutdown()


@pytest.mark.usefixtures("fake_jobs")
async def test_timed_bot_moves_run_beside_four_hard_searches_and_analyses_keep_to_the_workers() -> None:
    runner = AIRunner(workers=2)  # production: every level thinks for its own time
    assert runner.move_slots == 2 * ai.MOVE_SLOTS_PER_WORKER and runner.slots == runner.move_slots + 2
    pool = GatedPool(runner.slots)
    runner._pool = pool  # type: ignore[assignment]
    try:
        hard = [move(runner, f"hard {n}") for n in range(4)]
        reviews = [analysis(runner, f"review {n}") for n in range(3)]
        await until(lambda: len(pool.started) == 6)
        assert runner.running_batch == 2 and runner.waiting == 1, "analyses use one slot per worker"
        mine = move(runner, "my move")
        await until(lambda: "my move" in pool.started)
        assert runner.running == 7 and runner.waiting == 1, "the move ran beside four searches at once"
        pool.gate.set()
        await asyncio.gather(mine, *hard, *reviews)
        assert runner.peak == 7 and runner.running == runner.waiting == 0
    finally:
        pool.gate.set()
        runner.close()
        pool.shutdown()


@pytest.mark.usefixtures("fake_jobs")
async def test_a_job_cancelled_while_waiting_leaves_the_queue_and_the_slot_goes_on() -> None:
    runner = AIRunner(workers=1, iterations=10)
    pool = GatedPool(2)
    runner._pool = pool  # type: ignore[assignment]
    try:
        first = move(runner, "first")
        await until(lambda: pool.started == ["first"])
        left = move(runner, "left")
        last = move(runner, "last")
        await until(lambda: runner.waiting == 2)
        left.cancel()
        await until(lambda: runner.waiting == 1)
        pool.gate.set()
        assert await asyncio.gather(first, last) == ["first", "last"]
        assert pool.started == ["first", "last"] and runner.running == 0 and runner.waiting == 0
    finally:
        pool.gate.set()
        runner.close()
        pool.shutdown()


async def test_the_search_workers_run_below_the_bots_cpu_priority() -> None:
    runner = AIRunner(workers=1)
    try:
        niceness = await runner._submit(Job.MOVE, os.nice, 0)
    finally:
        await runner.aclose()
    assert niceness >= os.nice(0) + AI_NICENESS or niceness == 19
