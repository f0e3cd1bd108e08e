"""Shared by the web board benches: start `python -m bot web-demo` as a server process of its own, log in
as its demo users, and read its event streams."""

from __future__ import annotations

import asyncio
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
PLY = re.compile(rb'"ply":([0-9]+)')
IMAGE = re.compile(rb'"image":"([^"]+)"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_demo(port: int) -> tuple[subprocess.Popen[str], dict[str, str]]:
    """The demo server and its match pages by game name."""
    server = subprocess.Popen(
        [sys.executable, "-m", "bot", "web-demo", "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None
    pages: dict[str, str] = {}
    deadline = time.monotonic() + 60
    while len(pages) < 3 and time.monotonic() < deadline:
        line = server.stdout.readline()
        found = re.match(r"\s+(\w+): (http\S+)", line)
        if found:
            pages[found.group(1)] = found.group(2)
    return server, pages


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def login(base: str, user: int, page: str) -> tuple[aiohttp.ClientSession, str]:
    """A client session logged in as a demo user, and its CSRF token."""
    http = aiohttp.ClientSession(base_url=base, cookie_jar=aiohttp.CookieJar(unsafe=True))  # 127.0.0.1
    path = page.removeprefix(base)
    async with http.get(f"/demo/login/{user}?next={path}", allow_redirects=False) as answer:
        assert answer.status == 302
    async with http.get("/api/m/" + path.split("/")[-1]) as answer:
        state = await answer.json()
    return http, state["you"]["csrf"]


async def read_events(response: aiohttp.ClientResponse, on_state: Any) -> None:
    """Call `on_state(ply, image_url)` for each state event of an open stream (until it closes)."""
    async for raw in response.content:
        if raw.startswith(b"data: "):
            found = PLY.search(raw, 0, 400)  # the ply comes early; parsing 500 whole states here would
            image = IMAGE.search(raw)  # measure this client's CPU, not the server's
            if found:
                on_state(int(found.group(1)), image.group(1).decode() if image else "")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def wait_until(condition: Any, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.002)
    return True
