"""Session-wide guards for the whole test suite."""

from __future__ import annotations

import json
import os
import resource
import sys
import threading
import time
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

# No property test may fail because the machine is slow or busy (a shared 2-core CI machine once failed on a
# hypothesis deadline): no per-example deadline and no "too slow" health check; examples stay seeded by
# hypothesis as usual, so a real failure still shrinks and reproduces.
settings.register_profile("tessera", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tessera")

TIMES_FILE = os.environ.get("TESSERA_TEST_TIMES")
"""Where to append each test's times (one JSON line per test), when set: see `pytest_runtest_protocol`."""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """With TESSERA_TEST_TIMES=path, record each test's wall and CPU seconds (set-up, call and tear-down).

    `--durations` shows wall time only, which on a busy machine mostly measures the other load; the CPU
    seconds of this process (all its threads) plus its waited-for child processes show what a test costs.
    """
    if TIMES_FILE is None:
        yield
        return
    wall, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
    yield
    record = {
        "test": item.nodeid,
        "wall": round(time.perf_counter() - wall, 3),
        "cpu": round(time.process_time() - cpu, 3),
        "children": round(_children_cpu() - children, 3),
        "worker": os.environ.get("PYTEST_XDIST_WORKER", "main"),
    }
    with open(TIMES_FILE, "a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\n")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


AIOSQLITE_WORKER = "_connection_worker_thread"


def leaked_database_threads() -> list[threading.Thread]:
    """aiosqlite worker threads still alive: connections some test opened and never closed."""
    return [
        t
        for t in threading.enumerate()
        if t.is_alive() and getattr(t, "_target", None) is not None and t._target.__name__ == AIOSQLITE_WORKER  # type: ignore[attr-defined]
    ]


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """aiosqlite's worker threads are not daemons: one unclosed connection would keep the interpreter
    from exiting after the last test, and CI would hang instead of failing. Report it and exit non-zero."""
    leaked = leaked_database_threads()
    if leaked:
        sys.stderr.write(
            f"\nERROR: {len(leaked)} aiosqlite connection(s) were never closed by the tests "
            "(a store or bot was not shut down); failing instead of hanging at exit.\n"
        )
        sys.stderr.flush()
        sys.stdout.flush()
        os._exit(3)


@pytest.fixture(autouse=True)
def _web_switches_reset() -> Iterator[None]:
    """The web board's link and Activity switches are process-wide (bot/views.py, set at start-up); a test
    that turns them on must not leave them on for the next test of its process (xdist runs many files in
    one process)."""
    yield
    from bot import views

    views.set_board_link(None)
    views.set_activity(None)
    views._web_off.clear()
