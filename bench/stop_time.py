"""How long stopping takes, and how long workers outlive a killed bot (issue 40, item 9), with real processes:

- `ai_close_s`: the AI pool's close while a search runs that would take 10 minutes;
- `replays_close_s`: the drawing pools' close while a replay worker is busy for 10 minutes;
- `hung_stop_s`: a process whose close never returns, from SIGTERM-time (the stop's deadline armed) to exit;
- `orphans_gone_s`: a parent holding an AI worker in a search, a board process and a replay worker is
  killed with SIGKILL: seconds until every process it started (the resource tracker too) has ended.

    python bench/stop_time.py          (from the checkout's root, with PYTHONPATH=.)
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bot.drawing import Drawing
from bot.service.ai import AIRunner, Job
from bot.service.lifeline import pool_processes

ROOT = Path(__file__).resolve().parents[1]
PARENT = (
    (ROOT / "tests" / "service" / "test_lifeline.py").read_text().split('PARENT = """', 1)[1].split('"""')[0]
)


async def ai_close() -> float:
    runner = AIRunner(workers=1)
    search = asyncio.ensure_future(runner._submit(Job.MOVE, time.sleep, 600))
    while not (runner._pool is not None and pool_processes(runner._pool)):
        await asyncio.sleep(0.05)
    await asyncio.sleep(2)  # the worker is in the search
    started = time.perf_counter()
    await runner.aclose()
    elapsed = time.perf_counter() - started
    search.cancel()
    return elapsed


async def replays_close() -> float:
    drawing = Drawing(board_processes=False)
    pool = drawing._replay_executor()
    busy = asyncio.get_running_loop().run_in_executor(pool, time.sleep, 600)
    assert isinstance(pool, ProcessPoolExecutor)
    while not pool_processes(pool):
        await asyncio.sleep(0.05)
    await asyncio.sleep(2)
    started = time.perf_counter()
    await drawing.close()
    elapsed = time.perf_counter() - started
    busy.cancel()
    return elapsed


def hung_stop() -> float:
    script = (
        "import threading\nfrom bot.__main__ import STOP_DEADLINE\nSTOP_DEADLINE.arm()\n"
        "print('armed', flush=True)\nthreading.Event().wait()\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.Popen(
        [sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    assert process.stdout is not None and process.stdout.readline().strip() == "armed"
    started = time.perf_counter()
    process.wait(60)
    return time.perf_counter() - started


def descendants(pid: int) -> set[int]:
    found, parents, changed = set(), {pid}, True
    while changed:
        changed = False
        for entry in os.listdir("/proc"):
            if entry.isdigit() and int(entry) not in found:
                try:
                    status = Path(f"/proc/{entry}/status").read_text()
                except OSError:
                    continue
                ppid = int(next(x.split()[1] for x in status.splitlines() if x.startswith("PPid:")))
                if ppid in parents:
                    found.add(int(entry))
                    parents.add(int(entry))
                    changed = True
    return found


def running(pid: int) -> bool:
    try:
        return "\nState:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False


def orphans_gone() -> float:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    parent = subprocess.Popen([sys.executable, "-c", PARENT], env=env, stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None and parent.stdout.readline().strip() == "ready"
    workers = descendants(parent.pid)
    parent.kill()
    started = time.perf_counter()
    parent.wait()
    while any(running(pid) for pid in workers) and time.perf_counter() - started < 120:
        time.sleep(0.01)
    return time.perf_counter() - started


def main() -> None:
    multiprocessing.set_start_method("spawn", force=True)
    figures = {
        "ai_close_s": asyncio.run(ai_close()),
        "replays_close_s": asyncio.run(replays_close()),
        "hung_stop_s": hung_stop(),
        "orphans_gone_s": orphans_gone(),
    }
    print("stop_time (seconds)")
    for name, value in figures.items():
        print(f"  {name:<18}{value:8.2f}")


if __name__ == "__main__":
    main()
