"""Worker processes that never outlive the bot, and stops that never wait long for them (issue 40, item 9).

The AI's searches, the board drawings and the replays run in worker processes (spawned, not forked). If the
bot dies without closing them (SIGKILL, the out-of-memory killer, a crash), nothing told them to stop: a
worker in a long search, and multiprocessing's resource tracker whose pipe it holds, lived on for minutes.
Each worker now watches its parent (`die_with_parent`): a daemon thread waits on the parent's sentinel (a pipe
that the parent's death closes, whenever and however it dies) and ends the worker at once. Unlike Linux's
parent-death signal, it holds whichever thread started the worker (the signal fires when the starting
*thread* ends) and also when the parent died before the worker got to watch. The resource tracker then
ends by itself: the last holder of its pipe is gone.

A stop (`stop_processes`) gives workers a short grace to finish the job in hand, then kills them: what a
worker computes is never the only copy of anything (a bot's move is searched again after a restart), so a
stop never waits for a long search.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import threading
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.process import BaseProcess

WATCH_INTERVAL = 0.25
"""Seconds between a worker's looks at its parent."""
STOP_GRACE = 1.5
"""Seconds a stopping pool's workers get to finish before they are killed."""


def _watch_sentinel(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])  # readable once the parent's end of the pipe has closed
    os._exit(1)  # the bot is gone: nothing to hand a result to


def _watch_pid(parent: int, interval: float) -> None:
    while os.getppid() == parent:
        time.sleep(interval)
    os._exit(1)


def die_with_parent(interval: float = WATCH_INTERVAL) -> None:
    """In a worker process, first thing: end this process as soon as its parent dies, even if it died
    before this ran. A multiprocessing worker waits on its parent's sentinel (a pipe the parent's death
    closes: no polling); any other process polls its parent's pid every `interval` seconds."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        watch = threading.Thread(target=_watch_sentinel, args=(parent.sentinel,))
    else:
        watch = threading.Thread(target=_watch_pid, args=(os.getppid(), interval))
    watch.name, watch.daemon = "tessera-lifeline", True
    watch.start()


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
