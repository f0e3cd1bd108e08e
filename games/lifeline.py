"""A worker process that never outlives the process that started it.

Every worker (the AI's searches, the board drawings, the replays) imports `games` and nothing lighter is
shared by the service and the application, so the worker's side of bot/service/lifeline.py lives here: it
needs only the standard library. A worker calls `die_with_parent` first thing: a daemon thread waits on the
parent's sentinel (a pipe that the parent's death closes, whenever and however it dies) and ends the worker
at once, also when the parent died before the worker got to watch. Unlike Linux's parent-death signal, it
holds whichever thread started the worker (the signal fires when the starting *thread* ends).
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import threading
import time

WATCH_INTERVAL = 0.25
"""Seconds between a worker's looks at its parent."""


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
