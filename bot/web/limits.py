"""What keeps one client from taking the web board down (issue 40): the board's links are posted publicly, so
anyone in a server can open as many connections and event streams as they like.

- **Connections** (`ConnectionGate`, at the socket, before any HTTP): the server keeps a reserve of file
  descriptors for the bot's own work (the database, Discord's gateway, the worker processes' pipes, files):
  past `budget` open connections a new one is answered 503 and closed at once; past `per_peer` from one
  address (a trusted proxy excepted: its clients are told apart by forwarded.py) it is answered 429. The
  process's soft descriptor limit is raised to its hard limit first (`raise_descriptor_limit`).
- **Slow request headers**: a connection must send a whole request within `HEADER_TIMEOUT` seconds of
  opening (or of its last answer), else it is closed (aiohttp's idle timer, which also covers a request
  that never finishes its headers).
- **Event streams** (`StreamCaps`, per real client and per match): past the cap the stream answers one
  `busy` event saying so and asks the browser to come back in `BUSY_RETRY_MS`, instead of holding a
  descriptor.
- **Board images** (app.py `_image`): drawn images are cached by size; one a client asks for that is not
  cached counts against its own budget (`RENDER_RATE`, `RENDER_BURST`), and at most `RENDER_SLOTS` are
  drawn at once with `RENDER_QUEUE` waiting, so no client keeps the renderer busy.
- **Logging that cannot flood** (`OncePerInterval`): one line per kind of failure per interval, with the
  count of those left out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

log = logging.getLogger("tessera.web")

HEADER_TIMEOUT = 10.0
"""Seconds a connection has to send a whole request (its headers) after it opens or after its last answer."""
RESERVE_FRACTION = 4
"""A quarter of the descriptor limit is kept for the bot's own work..."""
RESERVE_MIN = 128
"""...and at least this many."""
PER_PEER = 64
"""Open connections from one address (not a trusted proxy)."""
STREAMS_PER_CLIENT = 16
"""Event streams from one real client (a person with many tabs has a few)."""
STREAMS_PER_MATCH = 2000
"""Event streams on one match."""
BUSY_RETRY_MS = 30_000
"""When a refused stream's browser tries again."""
RENDER_RATE = 1.0
"""New board images (cache misses) a client may have drawn per second on average..."""
RENDER_BURST = 30
"""...in bursts of this many (a replay's scrubbing asks for a few dozen plies at once)."""
RENDER_SLOTS = 2
"""Board images drawn at once (each on a thread): the rest wait their turn."""
RENDER_QUEUE = 64
"""Drawings that may wait; past this a new one is answered 503."""
IMAGE_CACHE_BYTES = 64 * 2**20
"""Board images kept, by total size (a board PNG is about 50-150 kB)."""
LOG_INTERVAL = 60.0
"""Seconds over which a kind of failure is logged once."""
NOISY_LOGGERS = (
    "tessera.web",
    "tessera.web.activity",
    "aiohttp.server",
    "aiohttp.web",
    "aiohttp.access",
    "aiohttp_remotes",
    "asyncio",
)
"""The loggers a flood of requests can make write: the board's own, aiohttp's, the forwarded headers' and
asyncio's (its accept loop reports a lack of descriptors there)."""


def client_of(request: web.BaseRequest) -> str:
    """The address limits are kept for: the real client's (forwarded.py resolves it behind a trusted
    proxy), else the TCP peer's."""
    return request.remote or "?"


def raise_descriptor_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit (allowed without privileges); the
    soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    return int(soft if soft != resource.RLIM_INFINITY else 1 << 20)


def connection_budget(descriptors: int) -> int:
    """Connections the web board may hold with `descriptors` open files allowed: the rest is the reserve."""
    reserve = max(RESERVE_MIN, descriptors // RESERVE_FRACTION)
    return max(16, descriptors - reserve)


# ----------------------------------------------------------------------------------------- connections


def _canned(status: str, text: str, retry_after: int) -> bytes:
    body = text.encode()
    head = (
        f"HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {len(body)}\r\n"
        f"Retry-After: {retry_after}\r\nConnection: close\r\nX-Content-Type-Options: nosniff\r\n"
        "Content-Security-Policy: default-src 'none'\r\nCache-Control: no-store\r\n\r\n"
    )
    return head.encode() + body


BUSY = _canned("503 Service Unavailable", "The board is busy; reload in a minute.", 60)
TOO_MANY = _canned(
    "429 Too Many Requests", "Too many connections from your address; close some tabs and reload.", 10
)


class ConnectionGate:
    """The protocol factory a server listens with: it admits a connection (hands it to aiohttp's server)
    or answers it 429/503 and closes it, before reading anything (see the module doc)."""

    def __init__(
        self,
        *,
        budget: int,
        per_peer: int = PER_PEER,
        exempt: Callable[[str], bool] = lambda peer: False,
    ) -> None:
        self.budget = budget
        self.per_peer = per_peer
        self.exempt = exempt
        """Peers that may hold any number of connections (trusted proxies)."""
        self.server: Callable[[], asyncio.Protocol] | None = None
        """aiohttp's server (set when the site starts)."""
        self.open = 0
        self.peers: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()
        """Connections refused, by reason (busy, peer)."""

    def protocol(self) -> asyncio.Protocol:
        return _Gated(self)

    def admit(self, peer: str) -> bytes | None:
        """None to admit a connection from `peer` (counted), or the answer that refuses it."""
        if self.open >= self.budget:
            self.refused["busy"] += 1
            log.warning("refused connections: %s open, the most allowed (a reserve kept)", self.open)
            return BUSY
        if self.peers[peer] >= self.per_peer and not self.exempt(peer):
            self.refused["peer"] += 1
            log.warning("refused connections: %s open from one address", self.per_peer)
            return TOO_MANY
        self.open += 1
        self.peers[peer] += 1
        return None

    def release(self, peer: str) -> None:
        self.open -= 1
        self.peers[peer] -= 1
        if self.peers[peer] <= 0:
            del self.peers[peer]


class _Gated(asyncio.Protocol):
    """One connection: refused at once, or passed on to aiohttp's protocol (every callback forwarded)."""

    def __init__(self, gate: ConnectionGate) -> None:
        self.gate = gate
        self.inner: asyncio.Protocol | None = None
        self.peer = ""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peername = transport.get_extra_info("peername")
        self.peer = str(peername[0]) if isinstance(peername, tuple) and peername else "?"
        refusal = self.gate.admit(self.peer)
        if refusal is not None or self.gate.server is None:
            assert isinstance(transport, asyncio.WriteTransport)
            transport.write(refusal or BUSY)
            transport.close()
            return
        self.inner = self.gate.server()
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.inner is not None:
            self.gate.release(self.peer)
            self.inner.connection_lost(exc)


class GatedSite(web.BaseSite):
    """aiohttp's TCP site, listening through a `ConnectionGate`."""

    __slots__ = ("_gate", "_host", "_port")

    def __init__(
        self, runner: web.BaseRunner, host: str, port: int, gate: ConnectionGate, *, backlog: int = 128
    ) -> None:
        super().__init__(runner, backlog=backlog)
        self._host = host
        self._port = port
        self._gate = gate

    @property
    def name(self) -> str:
        return f"http://{self._host}:{self._port}"

    async def start(self) -> None:
        await super().start()
        server: Any = self._runner.server
        assert server is not None
        self._gate.server = server
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            self._gate.protocol, self._host, self._port, backlog=self._backlog, reuse_address=True
        )


# ----------------------------------------------------------------------------------------- streams


@dataclass
class StreamCaps:
    """Open event streams per real client and per match, and in all (past `total` the descriptors are
    kept for page loads)."""

    per_client: int = STREAMS_PER_CLIENT
    per_match: int = STREAMS_PER_MATCH
    total: int = 1 << 30

    def __post_init__(self) -> None:
        self.clients: Counter[str] = Counter()
        self.matches: Counter[int] = Counter()
        self.open = 0
        self.refused: Counter[str] = Counter()

    def admit(self, client: str, match_id: int) -> str | None:
        """None when a stream of `client` on `match_id` may open (counted: `release` it), else why not:
        client, match or total."""
        reason = None
        if self.clients[client] >= self.per_client:
            reason = "client"
        elif self.matches[match_id] >= self.per_match:
            reason = "match"
        elif self.open >= self.total:
            reason = "total"
        if reason is not None:
            self.refused[reason] += 1
            log.warning("refused event streams: the cap per %s is reached", reason)
            return reason
        self.clients[client] += 1
        self.matches[match_id] += 1
        self.open += 1
        return None

    def release(self, client: str, match_id: int) -> None:
        self.open -= 1
        self.clients[client] -= 1
        if self.clients[client] <= 0:
            del self.clients[client]
        self.matches[match_id] -= 1
        if self.matches[match_id] <= 0:
            del self.matches[match_id]


# ----------------------------------------------------------------------------------------- logging


class OncePerInterval(logging.Filter):
    """Lets through one record per kind (logger, message template, exception type) per `interval` seconds;
    the next one let through says how many were left out meanwhile."""

    def __init__(self, interval: float = LOG_INTERVAL, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.interval = interval
        self._clock = clock
        self._kinds: dict[tuple[str, str, str], list[float]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else ""
        kind = (record.name, str(record.msg), error)
        now = self._clock()
        seen = self._kinds.get(kind)
        if seen is not None and now - seen[0] < self.interval:
            seen[1] += 1
            return False
        if len(self._kinds) > 1000:
            self._kinds.clear()
        self._kinds[kind] = [now, 0]
        if seen is not None and seen[1]:
            record.msg = f"{record.msg} ({int(seen[1])} more like it in the last {self.interval:g} s)"
        return True


QUIET = OncePerInterval()
"""The filter on `NOISY_LOGGERS` while a web board serves."""
_serving = [0]


def quiet_logs(names: Iterable[str] = NOISY_LOGGERS, noise: logging.Filter = QUIET) -> None:
    """Put `noise` on each logger of `names` while a web board serves (`loud_logs` when it stops)."""
    _serving[0] += 1
    for name in names:
        logger = logging.getLogger(name)
        if noise not in logger.filters:
            logger.addFilter(noise)


def loud_logs(names: Iterable[str] = NOISY_LOGGERS, noise: logging.Filter = QUIET) -> None:
    """A web board stopped: once none serves, take `noise` off the loggers again."""
    _serving[0] = max(0, _serving[0] - 1)
    if _serving[0] == 0:
        for name in names:
            logging.getLogger(name).removeFilter(noise)
