"""Helpers of the start-up and check-db tests: running `python -m bot` as an operator would (a subprocess,
offline), broken database files as an operator meets them, and running a command so that file permissions
bind it even when the tests run as root."""

from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import Settings
from bot.testing.world import FAKE_TOKEN

ROOT = Path(__file__).resolve().parents[1]
RUN_BOT_WITH_API = (
    "import sys, discord.http\n"
    "discord.http.Route.BASE = sys.argv[1]\n"
    "from bot.__main__ import main\n"
    "sys.exit(main([]))\n"
)
"""`python -m bot`, with discord.py's API base moved (to an unreachable address)."""


SETTING_NAMES = frozenset(name.upper() for name in Settings.model_fields)


def clean_env(**values: str) -> dict[str, str]:
    """The environment without any Tessera setting, plus `values`."""
    env = {k: v for k, v in os.environ.items() if k not in SETTING_NAMES}
    env.update(PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1", **values)
    return env


def closed_port() -> int:
    """A loopback port nothing listens on (connecting is refused at once)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def run(command: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, env=clean_env(**env), capture_output=True, text=True, timeout=60)


def start_bot(cwd: Path, database_url: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot` in `cwd`, with Discord unreachable (a closed loopback port)."""
    command = [sys.executable, "-c", RUN_BOT_WITH_API, f"http://127.0.0.1:{closed_port()}/api/v10"]
    return run(command, cwd, DISCORD_TOKEN=FAKE_TOKEN, DATABASE_URL=database_url, **env)


def one_line_error(done: subprocess.CompletedProcess[str], prefix: str) -> str:
    """The single line the process printed on stderr (after its log lines, which are not errors)."""
    assert "Traceback" not in done.stderr, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith(prefix)]
    assert len(errors) == 1, done.stderr
    return errors[0]


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
