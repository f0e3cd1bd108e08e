"""Session-wide guards for the whole test suite."""

from __future__ import annotations

import os
import sys
import threading

import pytest

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
