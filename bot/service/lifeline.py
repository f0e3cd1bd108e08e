"""Worker processes that never outlive the bot, and stops that never wait long for them (issue 40, item 9).

The AI's searches, the board drawings and the replays run in worker processes (spawned, not forked). If the
bot dies without closing them (SIGKILL, the out-of-memory killer, a crash), nothing told them to stop: a
worker in a long search, and multiprocessing's resource tracker whose pipe it holds, lived on for minutes.
Each worker now watches its parent (`games.lifeline.die_with_parent`, in the one package every worker
imports without the service): a daemon thread waits on the parent's sentinel (a pipe
that the parent's death closes, whenever and however it dies) and ends the worker at once. Unlike Linux's
parent-death signal, it holds whichever thread started the worker (the signal fires when the starting
*thread* ends) and also when the parent died before the worker got to watch. The resource tracker then
ends by itself: the last holder of its pipe is gone.

A stop (`stop_processes`) gives workers a short grace to finish the job in hand, then kills them: what a
worker computes is never the only copy of anything (a bot's move is searched again after a restart), so a
stop never waits for a long search.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.process import BaseProcess

STOP_GRACE = 1.5
"""Seconds a stopping pool's workers get to finish before they are killed."""


def stop_processes(processes: Iterable[BaseProcess], grace: float = STOP_GRACE) -> None:
    """Wait up to `grace` seconds in all for `processes` to end (they were told to: their pool is shut
    down), then kill those still running and reap them. Blocks: call it off the event loop."""
    processes = list(processes)
    deadline = time.monotonic() + grace
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            process.kill()
    for process in processes:
        process.join(5.0)


def pool_processes(pool: ProcessPoolExecutor) -> list[BaseProcess]:
    """The worker processes of a process pool now (the executor lists them only in its `_processes`: no
    public list before Python 3.14's `terminate_workers`)."""
    found = getattr(pool, "_processes", None)
    return list(found.values()) if isinstance(found, dict) else []
