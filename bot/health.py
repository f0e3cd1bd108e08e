"""Operability: `/healthz` and `/metrics` on a small aiohttp server, and the JSON log format.

The server is off unless `HEALTH_PORT` is set; it binds `HEALTH_HOST` (127.0.0.1 by default, so only the
machine itself, e.g. a Docker HEALTHCHECK, can ask).

- ``GET /healthz``: 200 when the Discord gateway is connected and the database answers a trivial query
  within `STORE_TIMEOUT` seconds (and the background check found no damage in it), else 503; the body is a
  small JSON object saying which part failed.
- ``GET /metrics``: Prometheus text: `tessera_interaction_seconds` (how long the bot took to handle each
  command or button, by kind and name), `tessera_active_matches` (active matches in the database, all
  shards), `tessera_ai_queue_depth` and `tessera_ai_searches_running` (the bot's searches waiting for a worker
  and running), `tessera_clock_lag_seconds` (how late the turn clock's last pass ran),
  `tessera_gateway_connected`, and the counters `tessera_errors_total{kind}` (every record logged at ERROR or
  above: `kind` is the record's `kind` extra, e.g. bot_turn, bot_post, post, interaction, else its logger's
  name), `tessera_matches_started_total{game}` and `tessera_matches_finished_total{game,reason}` (reason: the
  termination, e.g. lead, resignation, timeout, aborted), beside the Python process metrics of
  prometheus-client. Counters count what this process did (sum them over the shard processes).

JSON logs: one object per line, `time` in ISO-8601 UTC with milliseconds (2026-11-25T22:30:00.123+00:00),
`level`, `logger`, `message`, and any extras (`kind`, `exc_info`...). `fatal_line` writes the one-line
start-up error in the same shape.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, Counter, Gauge, Histogram, generate_latest

if TYPE_CHECKING:
    from aiohttp import web

    from bot.service import Service
    from bot.service.ai import AIRunner
    from bot.service.records import Finished, MatchView

log = logging.getLogger("tessera.health")

STORE_TIMEOUT = 2.0
"""Seconds the trivial query of /healthz may take before the store counts as down."""

INTERACTION_SECONDS = Histogram(
    "tessera_interaction_seconds",
    "Seconds from the start of handling an interaction (command or button) to its end.",
    ["kind", "name"],
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
ACTIVE_MATCHES = Gauge("tessera_active_matches", "Active matches in the database (every shard).")
AI_QUEUE_DEPTH = Gauge("tessera_ai_queue_depth", "The bot's searches waiting for a free worker.")
AI_RUNNING = Gauge("tessera_ai_searches_running", "The bot's searches running in worker processes.")
CLOCK_LAG = Gauge("tessera_clock_lag_seconds", "How late the turn clock's last pass ran after its due time.")
GATEWAY_CONNECTED = Gauge("tessera_gateway_connected", "1 while the Discord gateway is connected.")
ERRORS = Counter("tessera_errors", "Records logged at ERROR or above, by kind.", ["kind"])
MATCHES_STARTED = Counter("tessera_matches_started", "Matches started by this process, by game.", ["game"])
MATCHES_FINISHED = Counter(
    "tessera_matches_finished", "Matches ended by this process, by game and reason.", ["game", "reason"]
)


def match_started(match: MatchView) -> None:
    """Count a started match (a `MatchService` listener)."""
    MATCHES_STARTED.labels(match.game).inc()


def match_finished(finished: Finished) -> None:
    """Count an ended match by its termination (a `MatchService` listener)."""
    MATCHES_FINISHED.labels(finished.match.game, finished.termination.value).inc()


class ErrorCounter(logging.Handler):
    """Counts every record at ERROR or above in `tessera_errors_total`, by its `kind` extra, else by the
    name of its logger."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)

    def emit(self, record: logging.LogRecord) -> None:
        kind = getattr(record, "kind", None)
        ERRORS.labels(kind if isinstance(kind, str) and kind else record.name).inc()


def count_errors(logger: logging.Logger | None = None) -> ErrorCounter:
    """Attach the error counter to `logger` (the root by default) once; returns it."""
    target = logger or logging.getLogger()
    for handler in target.handlers:
        if isinstance(handler, ErrorCounter):
            return handler
    counter = ErrorCounter()
    target.addHandler(counter)
    return counter


def interaction_done(kind: str, name: str, started: float) -> None:
    """Record an interaction handled since `started` (a `time.perf_counter()` reading)."""
    INTERACTION_SECONDS.labels(kind, name).observe(max(0.0, time.perf_counter() - started))


def iso_time(created: float) -> str:
    """A record's time as ISO-8601 in UTC with milliseconds: 2026-11-25T22:30:00.123+00:00."""
    return datetime.fromtimestamp(created, UTC).isoformat(timespec="milliseconds")


def json_formatter() -> logging.Formatter:
    """One JSON object per record (time, level, logger, message; exceptions as a field, not extra lines).
    Its library is imported here: a process that logs text never loads it."""
    from pythonjsonlogger.json import JsonFormatter

    class JsonLines(JsonFormatter):
        def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
            return iso_time(record.created)

    return JsonLines(
        "%(asctime)s %(levelname)s %(name)s %(message)s",
        rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
    )


def fatal_line(message: str, code: int, *, logger: str = "tessera") -> str:
    """The one-line start-up error as a JSON log line: level CRITICAL, the message, and the exit code."""
    record = logging.LogRecord(logger, logging.CRITICAL, __file__, 0, message, None, None)
    record.exit_code = code
    return json_formatter().format(record)


class HealthServer:
    """The /healthz and /metrics endpoints of one bot process (see the module doc).

    `gateway_connected`, `service` and `ai` are read on every request, so the server can start before the
    bot has logged in (it answers 503 until the gateway is up)."""

    def __init__(
        self,
        *,
        gateway_connected: Callable[[], bool],
        service: Callable[[], Service | None],
        ai: Callable[[], AIRunner | None],
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.gateway_connected = gateway_connected
        self.service = service
        self.ai = ai
        self.host = host
        self.port = port
        from aiohttp import web  # the server's alone: a process without HEALTH_PORT does not load it

        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics)
        self._runner = web.AppRunner(app, access_log=None)

    async def start(self) -> int:
        """Listen; returns the port (useful with port 0, an ephemeral one). OSError if it cannot bind."""
        from aiohttp import web

        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        log.info("health and metrics on http://%s:%d/healthz and /metrics", self.host, self.port)
        return self.port

    async def close(self) -> None:
        await self._runner.cleanup()

    async def store_answers(self) -> bool:
        service = self.service()
        if service is None or service.damage is not None:  # damage: found by the background check
            return False
        try:
            await asyncio.wait_for(service.ping(), STORE_TIMEOUT)
        except Exception:
            log.warning("health check: the database did not answer", exc_info=True)
            return False
        return True

    async def healthz(self, request: web.Request) -> web.Response:
        from aiohttp import web

        gateway = self.gateway_connected()
        store = await self.store_answers()
        healthy = gateway and store
        body = {"status": "ok" if healthy else "unavailable", "gateway": gateway, "store": store}
        return web.json_response(body, status=200 if healthy else 503)

    async def metrics(self, request: web.Request) -> web.Response:
        from aiohttp import web

        await self._refresh()
        return web.Response(body=generate_latest(REGISTRY), headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _refresh(self) -> None:
        """Set the gauges that are read rather than counted."""
        GATEWAY_CONNECTED.set(1 if self.gateway_connected() else 0)
        ai = self.ai()
        if ai is not None:
            AI_QUEUE_DEPTH.set(ai.waiting)
            AI_RUNNING.set(ai.running)
        service = self.service()
        if service is None:
            return
        if service.clock is not None:
            CLOCK_LAG.set(service.clock.lag)
        try:
            ACTIVE_MATCHES.set(len(await asyncio.wait_for(service.store.active_match_ids(), STORE_TIMEOUT)))
        except Exception:
            log.warning("metrics: could not count the active matches", exc_info=True)
