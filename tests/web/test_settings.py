"""The web board's settings: off by default; a secret long enough to make unguessable links."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from bot import views
from bot.settings import SettingsError, load_web_settings
from bot.web import serve


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
        _env_file=None, web_port="8080", web_secret="z" * 32, web_disabled_guilds="5, 6"
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
    from tests.bot.test_health import start_bot

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = start_bot(tmp_path, "sqlite:///data/tessera.sqlite3", WEB_PORT=str(port), WEB_SECRET="s" * 40)
    assert done.returncode == entry.EXIT_CONFIG, done.stderr
    assert "Traceback" not in done.stderr
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .startswith(f"tessera: WEB_PORT: cannot listen on 127.0.0.1:{port}")
    )
