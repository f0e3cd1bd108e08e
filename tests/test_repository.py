"""A product repository: results live as tables in the README and docs/ with the bench/ commands that
print them, not as development diaries or raw logs."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def tracked() -> list[str]:
    return subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()


def test_no_diaries_and_no_raw_logs_are_kept() -> None:
    files = tracked()
    assert files
    assert not [f for f in files if f.startswith("docs/notes/")], "closing notes are diaries: not kept"
    assert not [f for f in files if f.endswith((".log", ".out"))], "raw logs are not kept"
