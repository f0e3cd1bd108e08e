"""A writer killed with SIGKILL in the middle of a burst of moves loses nothing it saw committed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from bot.service.checkdb import check_database
from bot.service.store import open_store
from tests.service.tinygames import registry

ROOT = Path(__file__).resolve().parents[2]


async def test_every_move_the_writer_saw_committed_survives_sigkill(store_url: str) -> None:
    writer = subprocess.Popen(
        [sys.executable, "-m", "tests.service.crash_writer", store_url, "8"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert writer.stdout is not None
    committed: dict[int, int] = {}
    try:
        assert writer.stdout.readline().strip() == "ready"
        for _ in range(400):
            match_id, ply = map(int, writer.stdout.readline().split())
            committed[match_id] = max(committed.get(match_id, 0), ply)
    finally:
        os.kill(writer.pid, signal.SIGKILL)
        rest, _ = writer.communicate(timeout=30)
    for line in rest.splitlines():  # printed before the kill, so committed too
        parts = line.split()
        if len(parts) == 2:
            match_id, ply = map(int, parts)
            committed[match_id] = max(committed.get(match_id, 0), ply)
    assert writer.returncode == -signal.SIGKILL
    assert len(committed) == 8

    store = await open_store(store_url)
    try:
        for match_id, ply in committed.items():
            row = await store.get_match(match_id)
            assert row is not None and row.ply >= ply
            assert len(await store.moves(match_id)) == row.ply
    finally:
        await store.close()
    assert await check_database(store_url, registry=registry) == []
