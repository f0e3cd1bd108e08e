"""Drawing off the event loop: boards in their own worker processes (a thread if they fail) never wait for
replays or analysis images; replays run in worker processes behind a fair queue (one per user, a bounded
wait list) and a finished match's GIF is cached."""

from __future__ import annotations

import asyncio
import io
import multiprocessing
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from PIL import Image

import games
import renderer
import renderer.analysis
from bot.board_workers import REPLAY_NICENESS
from bot.drawing import ByteLRU, Drawing, ReplayBusy, ReplayPending
from games.base import Outcome, Termination


def paint_log(plies: int) -> list[tuple[int, str]]:
    rules = games.get("paint")
    state = rules.new(2, {}, 1)
    log = []
    for _ in range(plies):
        seat = rules.to_move(state)
        move = next(iter(rules.legal_moves(state)))
        log.append((seat, rules.notation(state, move)))
        state = rules.apply(state, move)
    return log


def replay_args(match_id: int, user_id: int, plies: int = 6) -> dict[str, Any]:
    return {
        "user_id": user_id,
        "match_id": match_id,
        "game": "paint",
        "options": {},
        "seed": 1,
        "seats": 2,
        "log": paint_log(plies),
        "players": ["Ann", "Ben"],
        "outcome": Outcome.loss(1, 2, Termination.RESIGNATION),
        "theme": "default",
    }


async def test_replays_run_in_worker_processes_and_are_cached() -> None:
    drawing = Drawing(replay_workers=1)
    try:
        gif = await drawing.replay(**replay_args(1, 10))
        frames = Image.open(io.BytesIO(gif))
        assert frames.format == "GIF" and getattr(frames, "n_frames", 1) == 7
        assert drawing._replays is not None and type(drawing._replays).__name__ == "ProcessPoolExecutor"
        worker_niceness = await asyncio.wrap_future(drawing._replays.submit(os.nice, 0))
        assert worker_niceness >= os.nice(0) + REPLAY_NICENESS or worker_niceness == 19, (
            "replays run below the bot's priority"
        )
        replays = drawing._replays

        def draw_again(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError("a cached replay was drawn again")

        replays.submit = draw_again  # type: ignore[method-assign]  # no clock: a busy machine is slow anyway
        try:
            assert await drawing.replay(**replay_args(1, 11)) == gif, "the same match comes from the cache"
        finally:
            del replays.submit
        assert len(drawing.cache) == 1
    finally:
        await drawing.close()


HANG = 120
"""Seconds after which a board that should not wait is taken to wait forever (the gated work it must not
wait for is released only after it): a bound for a hang, far beyond a board on a busy machine."""


class GatedExecutor(ThreadPoolExecutor):
    """A replay executor whose jobs wait for the test to open the gate."""

    def __init__(self) -> None:
        super().__init__(2)
        self.gate = threading.Event()
        self.jobs = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        self.jobs += 1

        def gated() -> Any:
            self.gate.wait(10)
            return fn(*args, **kwargs)

        return super().submit(gated)


async def test_one_replay_per_user_a_bounded_queue_and_one_drawing_per_match() -> None:
    executor = GatedExecutor()
    drawing = Drawing(replay_workers=1, replay_executor=executor, max_waiting=2)
    try:
        first = asyncio.create_task(drawing.replay(**replay_args(1, 10)))
        same = asyncio.create_task(drawing.replay(**replay_args(1, 20)))  # another user, the same match
        await asyncio.sleep(0.05)
        with pytest.raises(ReplayPending):
            await drawing.replay(**replay_args(2, 10))  # user 10 already waits for a replay
        queued = [asyncio.create_task(drawing.replay(**replay_args(3 + n, 30 + n))) for n in range(2)]
        await asyncio.sleep(0.05)
        assert drawing.running == 1 and drawing.waiting == 2
        with pytest.raises(ReplayBusy):
            await drawing.replay(**replay_args(9, 99))
        executor.gate.set()
        results = await asyncio.gather(first, same, *queued)
        assert results[0] == results[1] and executor.jobs == 3, "the same match was drawn once"
        assert drawing.waiting == 0 and drawing.running == 0 and len(drawing.cache) == 3
        await drawing.replay(**replay_args(2, 10))  # user 10 may ask again once served
    finally:
        executor.gate.set()
        await drawing.close()
        executor.shutdown()


async def test_a_board_never_waits_for_a_replay() -> None:
    executor = GatedExecutor()
    drawing = Drawing(replay_workers=1, replay_executor=executor)
    try:
        replay = asyncio.create_task(drawing.replay(**replay_args(1, 10)))
        await asyncio.sleep(0.05)
        rules = games.get("paint")
        png, alt = await asyncio.wait_for(
            drawing.board(
                "paint",
                rules.new(2, {}, 1),
                last_move=None,
                players=["Ann", "Ben"],
                outcome=None,
                theme="default",
            ),
            HANG,
        )
        assert png[:4] == b"\x89PNG" and alt and not replay.done()
        executor.gate.set()
        await replay
    finally:
        executor.gate.set()
        await drawing.close()
        executor.shutdown()


def test_the_replay_cache_is_bounded_in_bytes_and_keeps_the_recent() -> None:
    cache = ByteLRU(100)
    cache.put("a", b"x" * 40)
    cache.put("b", b"x" * 40)
    assert cache.get("a") is not None  # a is now the most recent
    cache.put("c", b"x" * 40)
    assert cache.get("b") is None and cache.get("a") is not None and cache.get("c") is not None
    assert cache.size == 80
    cache.put("huge", b"x" * 101)
    assert cache.get("huge") is None and cache.size == 80


def first_states() -> list[tuple[str, Any]]:
    return [(game, games.get(game).new(2, {}, 1)) for game in games.GAME_IDS]


async def test_boards_are_drawn_in_worker_processes_for_every_game() -> None:
    """The renderer holds the GIL, so boards go to processes (every game's state crosses to them)."""
    drawing = Drawing(board_workers=1)
    try:
        drawing.start()
        for game, state in first_states():
            png, alt = await drawing.board(
                game, state, last_move=None, players=["Ann", "Ben"], outcome=None, theme="default"
            )
            assert png[:4] == b"\x89PNG" and alt, game
        game, state = next((g, s) for g, s in first_states() if renderer.has_pieces(g))
        pieces = await drawing.pieces(game, state, 0, players=["Ann", "Ben"], theme="default")
        assert pieces[:4] == b"\x89PNG"
        pool = drawing._board_pool
        assert pool is not None and type(pool).__name__ == "BoardProcesses"
        assert await pool.submit(os.getpid) != os.getpid()
        assert drawing.boards_on_threads == 0
    finally:
        await drawing.close()


def pid_and(value: int) -> tuple[int, int]:
    """Which process ran the job, and the job's own value back."""
    time.sleep(0.002)
    return os.getpid(), value


def die_unless_in(pid: int) -> str:
    """Kill the board process that runs this (a crash mid-board); in process `pid` (the fallback thread)
    draw nothing and say so."""
    if os.getpid() != pid:
        os._exit(3)
    return "drawn on a thread"


def echo_size(data: bytes, reply: int) -> tuple[int, bytes]:
    """How much came in, and `reply` bytes back."""
    return len(data), bytes(reply)


def refuse(value: int) -> None:
    raise ValueError(f"no board for {value}")


async def test_processes_start_as_jobs_need_them_and_each_job_gets_its_own_answer() -> None:
    """Without `start`, a process starts for a job that finds none idle, up to `board_workers`; jobs go to
    whichever is free; an error in a job is that job's alone; closing stops every process."""
    drawing = Drawing(board_workers=2)
    try:
        await drawing._draw(pid_and, 0)
        pool = drawing._board_pool
        assert pool is not None and len(pool.pids) == 1, "one job, one process"
        first = await asyncio.gather(*(drawing._draw(pid_and, n) for n in range(20)))
        assert len(pool.pids) == 2, "one more started, never more than board_workers"
        assert {pid for pid, _ in first} == {pool.pids[0]}, "no job waited for the process still starting"
        for _ in range(1000):
            if all(w.ready for w in pool._workers):
                break
            await asyncio.sleep(0.02)
        answers = await asyncio.gather(*(drawing._draw(pid_and, n) for n in range(40)))
        assert [value for _, value in first + answers] == list(range(20)) + list(range(40))
        assert {pid for pid, _ in answers} == set(pool.pids), "both processes drew"
        big = 5 * 2**20  # far more than a socket buffer holds, both ways
        assert await asyncio.wait_for(drawing._draw(echo_size, bytes(big), big), 60) == (big, bytes(big))
        with pytest.raises(ValueError, match="no board for 7"):
            await drawing._draw(refuse, 7)
        assert (await drawing._draw(pid_and, 1))[1] == 1, "an error in a job breaks nothing"
        assert drawing.boards_on_threads == 0
        processes = [w.process for w in pool._workers]
    finally:
        await drawing.close()
    assert not any(p.is_alive() for p in processes)
    with pytest.raises(RuntimeError, match="closed"):
        await drawing._draw(pid_and, 1)


async def test_a_board_is_drawn_on_a_thread_when_a_board_process_dies() -> None:
    """A process that dies mid-board (or while idle) sends that board, and those waiting, to a thread; the
    next board starts fresh processes."""
    drawing = Drawing(board_workers=1)
    try:
        drawing.start()
        assert await drawing._draw(die_unless_in, os.getpid()) == "drawn on a thread"
        assert drawing.boards_on_threads == 1
        assert drawing._board_pool is None, "a fresh set of processes is started for the next board"
        game, state = first_states()[0]
        png, _ = await drawing.board(
            game, state, last_move=None, players=["Ann", "Ben"], outcome=None, theme="default"
        )
        assert png[:4] == b"\x89PNG" and drawing.boards_on_threads == 1
        pool = drawing._board_pool
        assert pool is not None and not pool.broken
        (pid,) = pool.pids
        os.kill(pid, 9)  # now while idle
        for _ in range(250):  # the event loop notices the closed pipe
            if pool.broken:
                break
            await asyncio.sleep(0.02)
        assert pool.broken
        assert (await drawing._draw(pid_and, 5)) == (os.getpid(), 5)
        assert drawing.boards_on_threads == 2
        fresh, value = await drawing._draw(pid_and, 6)
        assert value == 6 and fresh not in (pid, os.getpid())
    finally:
        await drawing.close()


async def test_an_event_loop_that_cannot_watch_sockets_draws_boards_on_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the loop has no add_reader (Windows' proactor), boards go to the thread for good, and no board
    process is left running, whether `start` or the first board found out."""

    def no_readers(*args: Any) -> None:
        raise NotImplementedError

    monkeypatch.setattr(asyncio.get_running_loop(), "add_reader", no_readers)
    game, state = first_states()[0]
    for started in (True, False):
        drawing = Drawing(board_workers=1)
        try:
            if started:
                drawing.start()
            png, _ = await drawing.board(
                game, state, last_move=None, players=["Ann", "Ben"], outcome=None, theme="default"
            )
            assert png[:4] == b"\x89PNG"
            assert not drawing.board_processes and drawing._board_pool is None
        finally:
            await drawing.close()
        for _ in range(250):
            if not any(p.name == "tessera-board" for p in multiprocessing.active_children()):
                break
            await asyncio.sleep(0.02)
        assert not any(p.name == "tessera-board" for p in multiprocessing.active_children())


async def test_a_board_never_waits_for_an_analysis_image(monkeypatch: pytest.MonkeyPatch) -> None:
    gate = threading.Event()
    real = renderer.analysis.turning_point

    def slow_turning_point(*args: Any, **kwargs: Any) -> bytes:
        gate.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(renderer.analysis, "turning_point", slow_turning_point)
    drawing = Drawing(board_processes=False, board_threads=1)
    game, state = first_states()[0]
    rules = games.get(game)
    moves = [rules.notation(state, m) for m in list(rules.legal_moves(state))[:2]]
    try:
        image = asyncio.create_task(
            drawing.turning_point(
                game, state, moves[0], moves[1], chances=(0.5, 0.4), players=["Ann", "Ben"], theme="default"
            )
        )
        await asyncio.sleep(0.05)
        png, _ = await asyncio.wait_for(
            drawing.board(game, state, last_move=None, players=["Ann", "Ben"], outcome=None, theme="default"),
            HANG,
        )
        assert png[:4] == b"\x89PNG" and not image.done()
        gate.set()
        assert (await image)[:4] == b"\x89PNG"
    finally:
        gate.set()
        await drawing.close()


def boards_redrawn() -> tuple[int, int]:
    """Which process ran the job, and how many boards it drew from a match's last board."""
    from bot import board_workers

    assert board_workers.LAST_BOARDS is not None, "board processes keep the last boards"
    return os.getpid(), board_workers.LAST_BOARDS.redrawn


def pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


async def test_a_matchs_boards_go_to_its_process_which_draws_them_from_the_last_board() -> None:
    """The boards of one match go to the same board process while it is idle, which draws each from the
    match's last board (the same PNG as a full draw); a job whose process is busy goes to an idle one."""
    drawing = Drawing(board_workers=2)
    try:
        drawing.start()
        pool = drawing._board_pool
        assert pool is not None
        for _ in range(1000):
            if all(w.ready for w in pool._workers) and len(pool._workers) == 2:
                break
            await asyncio.sleep(0.02)
        where = {m: {(await drawing._draw(pid_and, n, affinity=m))[0] for n in range(4)} for m in range(6)}
        assert all(len(pids) == 1 for pids in where.values()), "one process per match"
        assert set.union(*where.values()) == set(pool.pids), "the matches are spread over the processes"
        rules = games.get("paint")
        state, last_move = rules.new(2, {}, 3), None
        for _ in range(5):
            move = next(iter(rules.legal_moves(state)))
            state, last_move = rules.apply(state, move), rules.notation(state, move)
            png, alt = await drawing.board(
                "paint",
                state,
                last_move=last_move,
                players=["Ann", "Ben"],
                outcome=None,
                theme="default",
                match=2,
            )
            full = renderer.render("paint", state, last_move=last_move, players=["Ann", "Ben"])
            assert png == full and alt
        pid, redrawn = await drawing._draw(boards_redrawn, affinity=2)
        assert {pid} == where[2] and redrawn == 4, "every board but the first drawn from the last"
        busy = asyncio.ensure_future(drawing._draw(pid_after, 0.5, affinity=2))
        await asyncio.sleep(0.1)
        elsewhere = await drawing._draw(pid_after, 0, affinity=2)
        assert {elsewhere} == set(pool.pids) - where[2], "not kept waiting behind its busy process"
        assert await busy in where[2]
    finally:
        await drawing.close()
