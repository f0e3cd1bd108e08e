"""No test talks to the outside world: pytest-socket (configured in pyproject's addopts) only lets sockets
connect to loopback, so a test that tried to reach Discord or any other host would fail loudly."""

from __future__ import annotations

import socket

import pytest
from pytest_socket import SocketConnectBlockedError

pytestmark = pytest.mark.filterwarnings("ignore:A test tried to use socket")


def test_an_outside_connection_is_refused() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(1)
        with pytest.raises(SocketConnectBlockedError):
            sock.connect(("93.184.215.14", 443))  # a public address (example.com), never reached


def test_resolving_and_connecting_to_discord_is_refused() -> None:
    with pytest.raises(SocketConnectBlockedError):
        socket.create_connection(("162.159.135.232", 443), timeout=1)  # discord.com


def test_loopback_stays_allowed() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            accepted, _ = server.accept()
            accepted.close()
