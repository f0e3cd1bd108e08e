"""Start-up failures and check-db on broken databases: one line, a documented exit code, never a traceback.

The bot runs as `python -m bot` would (a subprocess, a token of the right shape). Discord is made unreachable
offline by pointing discord.py's API base at a closed loopback port."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import __main__ as entry
from bot.client import TesseraBot
from bot.service.store import SqliteStore, StoreUnavailable
from bot.testing.world import FAKE_TOKEN, make_settings
from tests.entry_helpers import (
    DAMAGE,
    ROOT,
    SETTING_NAMES,
    as_unprivileged,
    closed_port,
    damaged_database,
    one_line_error,
    run,
    start_bot,
)

# ------------------------------------------------------------------------------------------ the bot


@pytest.mark.parametrize("damage", DAMAGE)
async def test_a_broken_database_stops_the_bot_with_one_line_and_code_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str
) -> None:
    """In-process (`run_bot`, what `python -m bot` runs after reading its settings); the read-only folder
    needs a process without root's capabilities, and `python -m bot` itself is started by the tests below."""
    path = damaged_database(tmp_path / "data", damage)
    if damage == "read-only-folder":
        command = as_unprivileged([sys.executable, "-m", "bot"])
        done = await asyncio.to_thread(
            run, command, tmp_path, DISCORD_TOKEN=FAKE_TOKEN, DATABASE_URL=f"sqlite:///{path}"
        )
        assert done.returncode == entry.EXIT_DATABASE, done.stderr
        line = one_line_error(done, "tessera:")
    else:
        settings = make_settings(tmp_path / "data", database_url=f"sqlite:///{path}")
        assert await entry.run_bot(settings) == entry.EXIT_DATABASE
        err = capsys.readouterr().err
        assert "Traceback" not in err and err.count("\n") == 1 and err.startswith("tessera: "), err
        line = err.strip()
    assert str(path) in line and ("restore it from a backup" in line or "permissions" in line)


def test_no_network_stops_the_bot_with_one_line_and_code_4(tmp_path: Path) -> None:
    done = start_bot(tmp_path, "sqlite:///data/tessera.sqlite3")
    assert done.returncode == entry.EXIT_NETWORK, done.stderr
    assert "cannot reach Discord" in one_line_error(done, "tessera:")
    assert FAKE_TOKEN not in done.stderr + done.stdout
    assert (tmp_path / "data" / "tessera.sqlite3").exists(), "the database was opened before logging in"


def test_a_second_process_on_the_same_sqlite_file_is_refused(tmp_path: Path) -> None:
    async def hold_and_start() -> subprocess.CompletedProcess[str]:
        store = await SqliteStore.open(str(tmp_path / "data" / "tessera.sqlite3"))
        try:
            return await asyncio.to_thread(start_bot, tmp_path, "sqlite:///data/tessera.sqlite3")
        finally:
            await store.close()

    done = asyncio.run(hold_and_start())
    assert done.returncode == entry.EXIT_DATABASE, done.stderr
    assert "in use by another process" in one_line_error(done, "tessera:")


async def test_an_unreachable_postgresql_stops_the_bot_with_code_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("bot.service.store.postgres", reason="the PostgreSQL store is not on this branch")
    url = f"postgresql://tessera@127.0.0.1:{closed_port()}/tessera"
    assert await entry.run_bot(make_settings(tmp_path / "data", database_url=url)) == entry.EXIT_DATABASE
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1 and err.startswith("tessera: "), err


class ClosedSocket:
    close_code = 4000


@pytest.mark.parametrize(
    "error",
    [
        discord.GatewayNotFound(),
        discord.ConnectionClosed(ClosedSocket(), shard_id=0),  # type: ignore[arg-type]
        OSError(101, "Network is unreachable"),
        TimeoutError(),
        StoreUnavailable("the database postgresql://db/tessera cannot be reached: connection refused"),
    ],
    ids=["gateway-not-found", "connection-closed", "network-unreachable", "timeout", "store-unavailable"],
)
async def test_each_start_up_failure_maps_to_its_exit_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], error: Exception
) -> None:
    async def fail(self: TesseraBot, token: str, **kwargs: Any) -> None:
        raise error

    monkeypatch.setattr(TesseraBot, "start", fail)
    code = await entry.run_bot(make_settings(tmp_path / "data"))
    expected = entry.EXIT_DATABASE if isinstance(error, StoreUnavailable) else entry.EXIT_NETWORK
    assert code == expected
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tessera: ")


async def test_a_database_that_cannot_be_reached_is_code_3(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def refused(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 5432)")

    monkeypatch.setattr("bot.runtime.open_service", refused)
    assert await entry.run_bot(make_settings(tmp_path / "data")) == entry.EXIT_DATABASE
    err = capsys.readouterr().err
    assert (
        err
        == "tessera: the database cannot be reached: [Errno 111] Connect call failed ('127.0.0.1', 5432)\n"
    )


def test_help_documents_every_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert entry.main(["--help"]) == 0
    text = capsys.readouterr().out
    for code in (entry.EXIT_OK, entry.EXIT_CONFIG, entry.EXIT_DATABASE, entry.EXIT_NETWORK):
        assert f"\n  {code} " in text
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for code in (entry.EXIT_CONFIG, entry.EXIT_DATABASE, entry.EXIT_NETWORK):
        assert f"| {code} |" in readme


# ------------------------------------------------------------------------------------------ check-db


@pytest.mark.parametrize("damage", [*DAMAGE, "missing"])
def test_check_db_on_a_broken_database_is_one_line_and_code_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str
) -> None:
    """In-process (`main`, as `python -m bot check-db` calls it), but for the read-only folder, which needs
    a process without root's capabilities."""
    if damage == "missing":
        path = tmp_path / "data" / "absent.sqlite3"
    else:
        path = damaged_database(tmp_path / "data", damage)
    arguments = ["check-db", "--database-url", f"sqlite:///{path}"]
    if damage == "read-only-folder":
        done = run(as_unprivileged([sys.executable, "-m", "bot", *arguments]), tmp_path)
    else:
        code = entry.main(arguments)
        out, err = capsys.readouterr()
        done = subprocess.CompletedProcess(arguments, code, out, err)
    assert done.returncode == 2, done.stderr
    assert str(path) in one_line_error(done, "check-db:")
    assert done.stdout == ""


def test_check_db_reads_database_url_without_a_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def make() -> None:
        store = await SqliteStore.open(str(tmp_path / "elsewhere.sqlite3"))
        await store.close()

    asyncio.run(make())
    for name in SETTING_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", "sqlite:///elsewhere.sqlite3")
    assert entry.main(["check-db"]) == 0
    assert "sqlite:///elsewhere.sqlite3 is consistent" in capsys.readouterr().out


def test_check_db_takes_a_postgresql_url_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[str] = []

    async def check(url: str, **kwargs: Any) -> list[str]:
        seen.append(url)
        return []

    for name in SETTING_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", "postgresql://tessera@db.internal/tessera")
    monkeypatch.setattr("bot.service.checkdb.check_database", check)
    assert entry.main(["check-db"]) == 0
    assert seen == ["postgresql://tessera@db.internal/tessera"]


def test_settings_know_which_urls_are_sqlite(tmp_path: Path) -> None:
    assert make_settings(tmp_path).database_path == tmp_path / "tessera.sqlite3"
    for url in ("postgresql://u@h/db", "postgres://u:p@h:5433/db"):
        assert make_settings(tmp_path, database_url=url).database_path is None
    sharded = make_settings(tmp_path, shard_count=4, shard_ids="1,3")
    assert sharded.shards is not None and sharded.shards.ids == {1, 3} and sharded.shards.count == 4
    assert make_settings(tmp_path, shard_count=2).shards is None, "no SHARD_IDS: this process runs them all"


def test_every_setting_is_documented() -> None:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in SETTING_NAMES:
        assert f"\n{name}=" in example or f"\n# {name}=" in example, f"{name} is missing from .env.example"
        assert f"| `{name}` |" in readme, f"{name} is missing from the README's configuration table"
