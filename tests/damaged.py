"""Broken database files, as an operator meets them, for the start-up and check-db tests; and how to run a
command so that file permissions bind it even when the tests run as root."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

PAGE = 4096
DAMAGE = ("random-bytes", "truncated", "bad-pages", "read-only-folder")
"""Every kind of broken database `damaged_database` makes."""


def _filled_database(path: Path) -> None:
    """A real SQLite file of about 200 pages (a table and an index), journal in the file's own folder."""
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE filler (x BLOB)")
        db.executemany("INSERT INTO filler VALUES (randomblob(200))", [()] * 2000)
        db.execute("CREATE INDEX filler_x ON filler (x)")
    db.close()


def damaged_database(folder: Path, damage: str) -> Path:
    """A database file in `folder` broken the way `damage` says (one of DAMAGE)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "tessera.sqlite3"
    if damage == "random-bytes":
        path.write_bytes(os.urandom(4 * PAGE))
        return path
    _filled_database(path)
    if damage == "truncated":
        with path.open("r+b") as handle:
            handle.truncate(path.stat().st_size * 6 // 10)
    elif damage == "bad-pages":
        with path.open("r+b") as handle:
            handle.seek(5 * PAGE)
            handle.write(os.urandom(3 * PAGE))
    elif damage == "read-only-folder":
        folder.chmod(0o555)
    else:
        raise ValueError(damage)
    return path


def as_unprivileged(command: list[str]) -> list[str]:
    """`command`, run so that file permissions apply to it: as root, without the capabilities that
    override them (setpriv); skips the test where that cannot be arranged."""
    if os.geteuid() != 0:
        return command
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: a read-only folder would not bind")
    caps = "-dac_override,-dac_read_search"
    return [setpriv, f"--bounding-set={caps}", f"--inh-caps={caps}", *command]
