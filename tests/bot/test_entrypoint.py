"""`python -m bot` and the settings: one clear line and exit code 2 for a bad token, never the token itself
in output, and `check-db` wired to the checker."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.settings import SettingsError, load_settings
from bot.testing.world import FAKE_TOKEN, make_settings

ROOT = Path(__file__).resolve().parents[2]
SETTING_NAMES = ("DISCORD_TOKEN", "DATABASE_URL", "DEV_GUILD_ID", "LOG_LEVEL", "SHARD_COUNT", "SHARD_IDS")


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No Tessera variables in the environment, and a working folder without a .env file."""
    for name in SETTING_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_missing_token_is_one_line_and_exit_code_2(
    clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "DISCORD_TOKEN is not set" in err and "Traceback" not in err


def test_malformed_token_is_refused_without_echoing_it(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token-secret-value")
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "does not look like a bot token" in err
    assert "secret-value" not in err


def test_the_token_never_shows_in_a_repr(clean_env: Path) -> None:
    settings = make_settings(clean_env)
    assert FAKE_TOKEN not in repr(settings) and FAKE_TOKEN not in str(settings)
    assert settings.discord_token.get_secret_value() == FAKE_TOKEN


def test_dot_env_is_read_and_environment_wins(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (clean_env / ".env").write_text(
        f"DISCORD_TOKEN={FAKE_TOKEN}\nLOG_LEVEL=debug\nSHARD_IDS=0,2\nSHARD_COUNT=3\n"
    )
    settings = load_settings()
    assert settings.log_level == "DEBUG" and settings.shard_ids == (0, 2)
    assert settings.database_path == Path("data/tessera.sqlite3")
    monkeypatch.setenv("LOG_LEVEL", "warning")
    assert load_settings().log_level == "WARNING"


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("SHARD_IDS", "0,5", "SHARD_IDS"),
        ("LOG_LEVEL", "loud", "LOG_LEVEL"),
        ("DATABASE_URL", "mysql://x", "DATABASE_URL"),
        ("DEV_GUILD_ID", "abc", "DEV_GUILD_ID"),
    ],
)
def test_bad_settings_name_the_variable(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, name: str, value: str, words: str
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", FAKE_TOKEN)
    monkeypatch.setenv("SHARD_COUNT", "2")
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError, match=words):
        load_settings()


def test_check_db_runs_the_checker(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'absent.sqlite3'}"
    code = main(["check-db", "--database-url", url])
    printed = capsys.readouterr()
    assert code != 0
    assert "no database file" in printed.out + printed.err


def test_python_dash_m_bot_exits_2_without_a_token(clean_env: Path) -> None:
    """Exactly what the Dockerfile's CMD runs."""
    env = {k: v for k, v in os.environ.items() if k not in SETTING_NAMES}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=clean_env, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr and "Traceback" not in done.stderr
