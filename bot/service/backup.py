"""`python -m bot backup`: a consistent copy of the SQLite database, safe while the bot runs.

The copy is SQLite's online backup API (`sqlite3.Connection.backup`) in one step: it reads one snapshot of the
database, the write-ahead log included, and the running bot goes on writing meanwhile (the bot's
``<database>.lock`` only keeps a second bot away; a backup takes no part in it). The copy is written beside
its destination, switched to a plain rollback journal (one self-contained file), checked with
``PRAGMA quick_check`` and only then renamed into place; an existing file is never overwritten.

PostgreSQL is backed up with its own tools: the command prints the ``pg_dump`` (and ``pg_restore``) line for
the configured database and exits 2, copying nothing.

Exit codes: 0 the backup is written and checked; 2 nothing written: a PostgreSQL URL (use pg_dump, printed),
a bad URL, or a destination that exists or cannot be written; 3 the database cannot be read (missing, not a
database, damaged).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

from bot.service.store import POSTGRES_SCHEMES, sqlite_path

EXIT_OK = 0
EXIT_NOT_WRITTEN = 2
EXIT_UNREADABLE = 3


class BackupError(Exception):
    """No backup was written; `code` is the exit code, the message one line."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def default_destination(database: Path, now: float | None = None) -> Path:
    """``<name>-backup-<UTC time><suffix>`` beside the database."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(time.time() if now is None else now))
    return database.with_name(f"{database.stem}-backup-{stamp}{database.suffix or '.sqlite3'}")


def backup_sqlite(database: Path, destination: Path) -> int:
    """Copy `database` to `destination` (see the module doc); returns the number of matches in the copy."""
    if not database.is_file():
        raise BackupError(f"no database file at {database}", EXIT_UNREADABLE)
    if destination.exists():
        raise BackupError(f"{destination} exists already; name another file (--to)", EXIT_NOT_WRITTEN)
    partial = destination.with_name(destination.name + ".partial")
    try:
        source = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise BackupError(f"the database {database} cannot be opened: {error}", EXIT_UNREADABLE) from error
    try:
        partial.unlink(missing_ok=True)
        try:
            copy = sqlite3.connect(partial)
        except sqlite3.Error as error:
            raise BackupError(f"{partial} cannot be written: {error}", EXIT_NOT_WRITTEN) from error
        try:
            source.execute("PRAGMA busy_timeout = 5000")
            source.backup(copy)  # one step: one snapshot, however busy the bot is
            copy.execute("PRAGMA journal_mode = DELETE")
            verdict = copy.execute("PRAGMA quick_check").fetchone()[0]
            if verdict != "ok":
                raise BackupError(f"the copy of {database} is damaged ({verdict})", EXIT_UNREADABLE)
            matches = int(copy.execute("SELECT COUNT(*) FROM matches").fetchone()[0])
        except sqlite3.DatabaseError as error:
            raise BackupError(f"the database {database} cannot be read: {error}", EXIT_UNREADABLE) from error
        finally:
            copy.close()
        os.replace(partial, destination)
        return matches
    except BaseException:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        raise
    finally:
        source.close()


def pg_dump_advice(url: str) -> str:
    """How to back up (and restore) a PostgreSQL database, without its password."""
    parts = urlsplit(url)
    name = parts.path.lstrip("/") or "tessera"
    flags = [f"--host={parts.hostname}"] if parts.hostname else []
    if parts.port is not None:
        flags.append(f"--port={parts.port}")
    if parts.username:
        flags.append(f"--username={parts.username}")
    options = " ".join(flags)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    return (
        "backup: the database is PostgreSQL: back it up with its own tool (safe while the bot runs):\n"
        f"  pg_dump {options} --format=custom --file=tessera-{stamp}.dump {name}\n"
        "restore into an empty database with:\n"
        f"  pg_restore {options} --dbname={name} --no-owner tessera-{stamp}.dump\n"
        "(the password comes from PGPASSWORD or ~/.pgpass; or copy the database into a SQLite file with\n"
        "  python -m bot migrate-db --to sqlite:///path/to/copy.sqlite3)"
    )


def main(argv: Sequence[str], *, default_url: str) -> int:
    """`python -m bot backup [--to PATH]`; see the module doc for the exit codes."""
    parser = argparse.ArgumentParser(
        prog="python -m bot backup",
        description="Copy the SQLite database to a file, consistently, even while the bot runs.",
    )
    parser.add_argument("--to", help="the backup file (default: <name>-backup-<UTC time>.sqlite3 beside it)")
    parser.add_argument("--database-url", help="sqlite:///path (default: the DATABASE_URL setting)")
    args = parser.parse_args(list(argv))
    url: str = args.database_url or default_url
    if url.startswith(POSTGRES_SCHEMES):
        print(pg_dump_advice(url), file=sys.stderr)
        return EXIT_NOT_WRITTEN
    try:
        path = sqlite_path(url)
    except ValueError as error:
        return _failed(str(error), EXIT_NOT_WRITTEN)
    if path == ":memory:":
        return _failed("an in-memory database has nothing to back up", EXIT_NOT_WRITTEN)
    database = Path(path)
    destination = Path(args.to) if args.to else default_destination(database)
    try:
        matches = backup_sqlite(database, destination)
    except BackupError as error:
        return _failed(str(error), error.code)
    except OSError as error:
        return _failed(f"{destination} cannot be written: {error}", EXIT_NOT_WRITTEN)
    size = destination.stat().st_size
    print(f"backup: {database} -> {destination} ({size} bytes, {matches} matches, checked)")
    return EXIT_OK


def _failed(message: str, code: int) -> int:
    print(f"backup: {' '.join(message.split())}", file=sys.stderr)
    return code
