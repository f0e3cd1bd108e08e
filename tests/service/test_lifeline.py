"""Worker processes never outlive the bot, and a stop never waits long for them (issue 40, item 9), with real
processes: a parent holding an AI pool in a long search, the board processes and a replay pool is killed
with SIGKILL, and every process it started ends (the workers, and multiprocessing's resource tracker); a
pool's close kills a search that outlasts its grace; the stop's deadline ends a process whose close hangs."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.service.ai import AIRunner, Job
from bot.service.lifeline import pool_processes
from tests.entry_helpers import clean_env

PARENT = """
import asyncio, sys, time
from concurrent.futures import ProcessPoolExecutor
import multiprocessing
from bot.drawing import BoardProcesses, _warm_up
import pytest

from bot.service.ai import AIRunner, Job
from bot.service.lifeline import pool_processes

async def main():
    runner = AIRunner(workers=1)
    search = asyncio.ensure_future(runner._submit(Job.MOVE, time.sleep, 600))  # a search that never ends
    boards = BoardProcesses(1)
    boards.start_all()
    replays = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=_warm_up)
    replay = asyncio.get_running_loop().run_in_executor(replays, time.sleep, 600)
    while not (pool_processes(runner._pool) and pool_processes(replays)):
        await asyncio.sleep(0.05)
    await asyncio.sleep(3)  # every worker has run its initializer
    print("ready", flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


def _children(pid: int) -> set[int]:
    """Every live process whose parent is `pid`, and theirs (from /proc)."""
    found: set[int] = set()
    parents = {pid}
    changed = True
    while changed:
        changed = False
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) in found:
                continue
            try:
                status = Path(f"/proc/{entry}/status").read_text()
            except OSError:
                continue
            ppid = int(next(line.split()[1] for line in status.splitlines() if line.startswith("PPid:")))
            if ppid in parents:
                found.add(int(entry))
                parents.add(int(entry))
                changed = True
    return found


def _alive(pid: int) -> bool:
    """Running (a zombie, dead but not yet reaped by init, counts as gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def test_every_worker_dies_with_a_killed_parent(tmp_path: Path) -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT], cwd=tmp_path, env=clean_env(), stdout=subprocess.PIPE, text=True
    )
    try:
        assert parent.stdout is not None and parent.stdout.readline().strip() == "ready"
        workers = _children(parent.pid)
        assert len(workers) >= 4, workers  # an AI worker, a board process, a replay worker, the tracker
        parent.kill()
        parent.wait(30)
        deadline = time.monotonic() + 60  # they go within about a quarter second; a slow machine waits
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in workers if _alive(pid)]
    finally:
        if parent.poll() is None:
            parent.kill()
        for pid in _children(parent.pid):
            os.kill(pid, signal.SIGKILL)


async def test_a_close_kills_a_search_that_outlasts_its_grace() -> None:
    runner = AIRunner(workers=1)
    search = asyncio.ensure_future(runner._submit(Job.MOVE, time.sleep, 600))
    while not (runner._pool is not None and pool_processes(runner._pool)):
        await asyncio.sleep(0.05)
    processes = pool_processes(runner._pool)
    started = time.monotonic()
    await runner.aclose(grace=0.2)
    assert time.monotonic() - started < 60  # not the search's 600 s (bench/stop_time.py measures it)
    assert not any(p.is_alive() for p in processes)
    with pytest.raises(RuntimeError, match="closed"):  # its caller hears it, and no fresh pool starts
        await asyncio.wait_for(search, 30)
    assert runner._pool is None


def test_the_stop_deadline_ends_a_hung_stop(tmp_path: Path) -> None:
    script = (
        "import threading, time\n"
        "from bot.__main__ import StopDeadline\n"
        "StopDeadline(0.3).arm()\n"
        "threading.Event().wait()\n"  # a close that never returns
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert done.stderr.strip() == "tessera: stopping took longer than 0.3 s; stopped at once"
