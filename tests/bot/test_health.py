"""Operability: /healthz and /metrics on loopback (an ephemeral port), the clock's lag, and JSON logs."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import socket
import sys
import threading
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot import __main__ as entry
from bot.health import HealthServer, count_errors, interaction_done
from bot.service import Service
from bot.service.ai import AIRunner
from bot.service.clock import TurnClock
from bot.service.records import Event
from bot.service.store import SqliteStore
from tests.entry_helpers import ROOT, start_bot
from tests.service.conftest import FakeClock
from tests.service.helpers import start_match
from tests.service.tinygames import registry


class Probe:
    """What the health server watches: a gateway flag the test flips, a service, an AI runner."""

    def __init__(self, service: Service, ai: AIRunner) -> None:
        self.connected = False
        self.service: Service | None = service
        self.ai = ai


@pytest.fixture
async def probe(tmp_path: Path) -> AsyncIterator[Probe]:
    store = await SqliteStore.open(str(tmp_path / "tessera.sqlite3"))
    service = Service(store, registry=registry, now=FakeClock())
    runner = AIRunner(1)
    yield Probe(service, runner)
    await runner.aclose()
    await store.close()


@pytest.fixture
async def base_url(probe: Probe) -> AsyncIterator[str]:
    server = HealthServer(
        gateway_connected=lambda: probe.connected, service=lambda: probe.service, ai=lambda: probe.ai, port=0
    )
    port = await server.start()
    yield f"http://127.0.0.1:{port}"
    await server.close()


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


def sample(metrics: str, name: str, *, missing: float | None = None) -> float:
    """The value of one sample line (`name` includes its labels, as printed)."""
    for line in metrics.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    if missing is not None:
        return missing
    raise AssertionError(f"{name} not in the metrics")


async def test_healthz_is_200_only_with_the_gateway_up_and_the_store_answering(
    probe: Probe, base_url: str
) -> None:
    status, body = await get(f"{base_url}/healthz")
    assert status == 503 and json.loads(body) == {"status": "unavailable", "gateway": False, "store": True}
    probe.connected = True
    status, body = await get(f"{base_url}/healthz")
    assert status == 200 and json.loads(body) == {"status": "ok", "gateway": True, "store": True}
    assert probe.service is not None
    await probe.service.store.close()  # the database is gone
    status, body = await get(f"{base_url}/healthz")
    assert status == 503 and json.loads(body) == {"status": "unavailable", "gateway": True, "store": False}


async def test_metrics_show_latency_matches_ai_queue_and_clock_lag(probe: Probe, base_url: str) -> None:
    assert probe.service is not None
    await start_match(probe.service, channel=1)
    await start_match(probe.service, channel=2)
    count = 'tessera_interaction_seconds_count{kind="command",name="health-test"}'
    before = sample((await get(f"{base_url}/metrics"))[1], count, missing=0.0)
    for _ in range(3):
        interaction_done("command", "health-test", time.perf_counter() - 0.2)
    status, text = await get(f"{base_url}/metrics")
    assert status == 200
    assert sample(text, count) == before + 3
    fast = 'tessera_interaction_seconds_bucket{kind="command",le="0.1",name="health-test"}'
    slow = 'tessera_interaction_seconds_bucket{kind="command",le="0.25",name="health-test"}'
    assert sample(text, fast) == 0 and sample(text, slow) == before + 3, "each took about 0.2 s"
    assert sample(text, "tessera_active_matches") == 2
    assert sample(text, "tessera_gateway_connected") == 0
    assert sample(text, "tessera_ai_queue_depth") == 0


async def test_the_ai_queue_depth_counts_searches_waiting_for_a_worker(
    probe: Probe, base_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()

    def slow_search(*args: Any) -> str:
        release.wait(10)
        return "1"

    monkeypatch.setattr("bot.service.ai.choose_in_worker", slow_search)
    slots = probe.ai.move_slots  # timed move searches may fill every move slot, then they wait
    probe.ai._pool = ThreadPoolExecutor(slots)  # type: ignore[assignment]  # threads instead of processes
    searches = [asyncio.create_task(probe.ai.choose("paint", {}, "easy", seed)) for seed in range(slots + 2)]
    try:
        while probe.ai.running != slots or probe.ai.waiting != 2:
            await asyncio.sleep(0.01)
        text = (await get(f"{base_url}/metrics"))[1]
        assert sample(text, "tessera_ai_queue_depth") == 2
        assert sample(text, "tessera_ai_searches_running") == slots
    finally:
        release.set()
        assert await asyncio.gather(*searches) == ["1"] * (slots + 2)
    assert probe.ai.waiting == 0 and probe.ai.running == 0


async def test_clock_lag_is_how_late_a_pass_ran_after_its_due_time(probe: Probe, base_url: str) -> None:
    service = probe.service
    assert service is not None
    clock = service.now
    assert isinstance(clock, FakeClock)

    async def ignore(event: Event) -> None:
        return None

    turn_clock = TurnClock(service.matches, service.challenges, ignore, now=clock)
    service.clock = turn_clock
    await start_match(service, options={"turn_timeout": 1})
    due = await turn_clock.seconds_to_next()
    assert due == 60
    clock.advance(40)
    await turn_clock.run_once()
    assert turn_clock.lag == 0, "woken early: not late"
    assert await turn_clock.seconds_to_next() == 20
    clock.advance(27)
    assert len(await turn_clock.run_once()) == 1
    assert turn_clock.lag == 7
    assert sample((await get(f"{base_url}/metrics"))[1], "tessera_clock_lag_seconds") == 7


async def test_an_unknown_path_is_404(base_url: str) -> None:
    assert (await get(f"{base_url}/admin"))[0] == 404


def test_json_logs_are_one_object_per_line(capsys: pytest.CaptureFixture[str]) -> None:
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    try:
        entry.configure_logging("INFO", "json")
        log = logging.getLogger("tessera.test")
        log.info("hello %s", "world")
        try:
            raise ValueError("broken\nacross lines")
        except ValueError:
            log.exception("it failed")
        log.debug("not shown at INFO")
    finally:
        root.handlers[:], root.level = saved
    lines = capsys.readouterr().err.splitlines()
    records = [json.loads(line) for line in lines]
    assert [(r["level"], r["logger"], r["message"]) for r in records] == [
        ("INFO", "tessera.test", "hello world"),
        ("ERROR", "tessera.test", "it failed"),
    ]
    assert "ValueError: broken\nacross lines" in records[1]["exc_info"]
    assert all(ISO_UTC.match(r["time"]) for r in records), [r["time"] for r in records]


ISO_UTC = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$")
"""ISO-8601 in UTC with milliseconds and the zone: 2026-11-25T22:30:00.123+00:00."""


def json_records(stderr: str) -> list[dict[str, Any]]:
    """Every line of `stderr` as a JSON object (fails on a line that is not one)."""
    records = [json.loads(line) for line in stderr.splitlines()]
    assert records and all(isinstance(r, dict) for r in records)
    for record in records:
        assert ISO_UTC.match(record["time"]), record["time"]
        moment = datetime.fromisoformat(record["time"])
        assert moment.utcoffset() == timedelta(0)
        assert abs(moment - datetime.now(UTC)) < timedelta(minutes=5), "the time is UTC, not local time"
    return records


def test_the_bot_logs_json_lines_when_asked_the_fatal_one_included(tmp_path: Path) -> None:
    done = start_bot(tmp_path, "sqlite:///data/tessera.sqlite3", LOG_FORMAT="json")
    assert done.returncode == entry.EXIT_NETWORK
    *logs, last = json_records(done.stderr)
    assert logs
    assert last["level"] == "CRITICAL" and last["logger"] == "tessera"
    assert last["message"].startswith("cannot reach Discord") and last["exit_code"] == entry.EXIT_NETWORK


def test_a_bad_setting_in_json_mode_is_one_json_line(tmp_path: Path) -> None:
    done = start_bot(tmp_path, "sqlite:///data/tessera.sqlite3", LOG_FORMAT="json", LOG_LEVEL="loud")
    assert done.returncode == entry.EXIT_CONFIG
    (record,) = json_records(done.stderr)
    assert record["level"] == "CRITICAL" and record["exit_code"] == entry.EXIT_CONFIG
    assert record["message"].startswith("LOG_LEVEL must be one of")


def test_a_bad_log_format_still_says_so_in_plain_text(tmp_path: Path) -> None:
    done = start_bot(tmp_path, "sqlite:///data/tessera.sqlite3", LOG_FORMAT="xml")
    assert done.returncode == entry.EXIT_CONFIG
    assert done.stderr.startswith("tessera: LOG_FORMAT") and len(done.stderr.splitlines()) == 1


def test_errors_are_counted_by_kind_else_by_logger(monkeypatch: pytest.MonkeyPatch) -> None:
    from prometheus_client import REGISTRY

    logger = logging.getLogger("tessera.count-test")
    counter = count_errors(logger)
    assert count_errors(logger) is counter, "attached once"
    monkeypatch.setattr(logger, "propagate", False)

    def count(kind: str) -> float:
        return REGISTRY.get_sample_value("tessera_errors_total", {"kind": kind}) or 0.0

    before = count("bot_turn"), count("tessera.count-test")
    logger.error("the bot's turn failed", extra={"kind": "bot_turn"})
    logger.critical("something else broke")
    logger.warning("only a warning")
    logger.error("another", extra={"kind": "bot_turn"})
    assert (count("bot_turn"), count("tessera.count-test")) == (before[0] + 2, before[1] + 1)
    logger.removeHandler(counter)


def test_a_health_port_in_use_is_one_line_and_code_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = start_bot(tmp_path, "sqlite:///data/tessera.sqlite3", HEALTH_PORT=str(port))
    assert done.returncode == entry.EXIT_CONFIG, done.stderr
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"tessera: HEALTH_PORT: cannot listen on 127.0.0.1:{port}")


def docker_healthcheck() -> list[str]:
    """The command of the Dockerfile's HEALTHCHECK (exec form)."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    line = next(line for line in text.splitlines() if line.startswith("HEALTHCHECK"))
    command = json.loads(line[line.index("CMD") + 3 :])
    assert isinstance(command, list) and command[0] == "python"
    return [sys.executable, *command[1:]]


async def test_the_docker_healthcheck_passes_only_while_healthy(probe: Probe, base_url: str) -> None:
    port = base_url.rsplit(":", 1)[1]

    async def check() -> int:
        process = await asyncio.create_subprocess_exec(
            *docker_healthcheck(),
            env={**os.environ, "HEALTH_PORT": port},
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        return await process.wait()

    assert await check() != 0, "503 while the gateway is down"
    probe.connected = True
    assert await check() == 0


async def test_commands_and_buttons_are_timed_and_the_gateway_is_seen(world: Any) -> None:
    from prometheus_client import REGISTRY

    def count(kind: str, name: str) -> float:
        value = REGISTRY.get_sample_value("tessera_interaction_seconds_count", {"kind": kind, "name": name})
        return value or 0.0

    assert world.env.bot.gateway_connected()
    help_before, play_before, accept_before = (
        count("command", "help"),
        count("command", "play"),
        count("button", "accept"),
    )
    await world.alice.slash(world.channel, "help")
    challenge = await world.alice.slash(world.channel, "play", game="paint", opponent=world.bob)
    await world.bob.click(challenge.response, label="Accept")
    assert count("command", "help") == help_before + 1
    assert count("command", "play") == play_before + 1
    assert count("button", "accept") == accept_before + 1


async def test_matches_started_and_finished_are_counted_on_the_metrics_endpoint(world: Any) -> None:
    """A SimCord match from challenge to resignation (after a move each, so it is a result, not an abort),
    then the /metrics text of the bot's service."""
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    server = HealthServer(
        gateway_connected=env.bot.gateway_connected,
        service=lambda: env.bot.runtime.service,
        ai=lambda: env.bot.runtime.ai,
        port=0,
    )
    port = await server.start()
    try:
        started = 'tessera_matches_started_total{game="paint"}'
        finished = 'tessera_matches_finished_total{game="paint",reason="resignation"}'
        text = (await get(f"http://127.0.0.1:{port}/metrics"))[1]
        before = sample(text, started, missing=0.0), sample(text, finished, missing=0.0)
        challenge = await alice.slash(channel, "play", game="paint", opponent=bob, first="challenger")
        await bob.click(challenge.response, label="Accept")
        text = (await get(f"http://127.0.0.1:{port}/metrics"))[1]
        assert sample(text, started) == before[0] + 1
        assert sample(text, finished, missing=0.0) == before[1]
        await alice.slash(channel, "move", notation="c1-c3")
        await bob.slash(channel, "move", notation="b9-b8")
        question = await bob.slash(channel, "resign")
        await bob.click(question.response, label="Yes, resign")
        text = (await get(f"http://127.0.0.1:{port}/metrics"))[1]
        assert sample(text, started) == before[0] + 1
        assert sample(text, finished) == before[1] + 1
        assert "# TYPE tessera_errors_total counter" in text
    finally:
        await server.close()
