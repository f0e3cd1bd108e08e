"""The web board's settings: off by default; a secret long and random enough to make unguessable links; a
port, an address, proxies and a database URL that can be used, else one line and exit code 2."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest

from bot import views
from bot.settings import SettingsError, load_web_settings
from bot.web import serve
from tests.entry_helpers import run, start_bot

GOOD_SECRET = "Hq3xZ8pL2mK9wR4tY7uB1nC6dF5gJ0sAe4"


def test_off_by_default_and_blank_values_are_unset() -> None:
    settings = load_web_settings(_env_file=None, web_secret="", discord_client_id=" ", web_disabled_guilds="")  # type: ignore[call-arg]
    assert settings.web_port is None and settings.web_secret is None and settings.discord_client_id is None
    assert settings.web_disabled_guilds == ()
    serve.configure_links(settings)
    assert views.board_link(1, None) is None  # no secret: no link under board messages


def test_a_port_needs_a_long_secret() -> None:
    with pytest.raises(SettingsError, match="WEB_SECRET"):
        load_web_settings(_env_file=None, web_port=8080)  # type: ignore[call-arg]
    with pytest.raises(SettingsError, match="32"):
        load_web_settings(_env_file=None, web_secret="short")  # type: ignore[call-arg]
    settings = load_web_settings(
        _env_file=None, web_port="8080", web_secret=GOOD_SECRET, web_disabled_guilds="5, 6"
    )  # type: ignore[call-arg]
    assert settings.web_port == 8080 and settings.web_disabled_guilds == (5, 6)
    serve.configure_links(settings)
    try:
        assert views.board_link(7, None) == f"http://127.0.0.1:8080/m/7-{views.board_link(7, 1)[-22:]}"  # type: ignore[index]
        assert views.board_link(7, 5) is None  # this server turned it off
    finally:
        views.set_board_link(None)


def test_a_web_port_in_use_is_one_line_and_code_2(tmp_path: Path) -> None:
    """The bot with WEB_PORT on a taken port stops with one line (as for HEALTH_PORT), not a traceback."""
    from bot import __main__ as entry

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = start_bot(
            tmp_path, "sqlite:///data/tessera.sqlite3", WEB_PORT=str(port), WEB_SECRET=GOOD_SECRET
        )
    assert done.returncode == entry.EXIT_CONFIG, done.stderr
    assert "Traceback" not in done.stderr
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .startswith(f"tessera: WEB_PORT: cannot listen on 127.0.0.1:{port}")
    )


BAD_SETTINGS = {
    "port": ({"WEB_PORT": "99999"}, "WEB_PORT"),
    "guessable secret": ({"WEB_SECRET": "s" * 40}, "WEB_SECRET is too guessable"),
    "script base url": ({"WEB_BASE_URL": "javascript:alert(1)"}, "WEB_BASE_URL must be"),
    "database port": (
        {"DATABASE_URL": "postgresql://tessera@db.invalid:five/tessera"},
        "DATABASE_URL has a port that is not a number",
    ),
    "proxy": ({"WEB_TRUSTED_PROXIES": "127.0.0.1, caddy"}, "'caddy' is not an IP address"),
}
"""Each bad value (with otherwise good web settings) and the start of the one line that says so."""


@pytest.mark.parametrize("case", sorted(BAD_SETTINGS))
def test_each_bad_web_setting_is_refused_by_the_settings(case: str) -> None:
    values, message = BAD_SETTINGS[case]
    given = {"web_port": "8080", "web_secret": GOOD_SECRET} | {k.lower(): v for k, v in values.items()}
    with pytest.raises(SettingsError, match=message.split(" ")[0]) as refused:
        load_web_settings(_env_file=None, **given)  # type: ignore[arg-type]
    assert "\n" not in str(refused.value) and message in str(refused.value)


@pytest.mark.parametrize("command", ["bot", "web"])
@pytest.mark.parametrize("case", sorted(BAD_SETTINGS))
def test_a_bad_web_setting_is_one_line_and_code_2(tmp_path: Path, case: str, command: str) -> None:
    """`python -m bot` and `python -m bot web` alike: one line, no traceback, exit code 2, and no hang (the
    run's own timeout fails the test)."""
    values, message = BAD_SETTINGS[case]
    env = {"WEB_PORT": "8080", "WEB_SECRET": GOOD_SECRET, "DATABASE_URL": "sqlite:///data/t.sqlite3"} | values
    if command == "bot":
        done = start_bot(tmp_path, env.pop("DATABASE_URL"), **env)
    else:
        done = run([sys.executable, "-m", "bot", "web"], tmp_path, **env)
    output = (done.stdout + done.stderr).strip().splitlines()
    assert done.returncode == 2, output
    assert len(output) == 1 and output[0].startswith("tessera: ") and message in output[0], output


def test_good_values_pass() -> None:
    settings = load_web_settings(
        _env_file=None,
        web_port="443",
        web_secret=GOOD_SECRET,
        web_base_url="https://tessera.example.org:8443/board",
        web_trusted_proxies="127.0.0.1, ::1, 10.0.0.0/8",
        database_url="postgresql://tessera@db:5432/tessera",
    )  # type: ignore[call-arg]
    assert settings.web_trusted_proxies == ("127.0.0.1", "::1", "10.0.0.0/8")
    for bad_url in (
        "ftp://x.example",
        "https://",
        "https://a.example/?q=1",
        "https://u@a.example",
        "/relative",
    ):
        with pytest.raises(SettingsError, match="WEB_BASE_URL"):
            load_web_settings(_env_file=None, web_base_url=bad_url)  # type: ignore[call-arg]


def test_a_web_process_on_a_taken_port_is_one_line_and_code_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run(
            [sys.executable, "-m", "bot", "web"],
            tmp_path,
            WEB_PORT=str(port),
            WEB_SECRET=GOOD_SECRET,
            DATABASE_URL="sqlite:///t.sqlite3",
        )
    output = (done.stdout + done.stderr).strip().splitlines()
    assert done.returncode == 2 and len(output) == 1, output
    assert output[0].startswith(f"tessera: WEB_PORT: cannot listen on 127.0.0.1:{port}"), output
