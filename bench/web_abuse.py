"""One client against the web board (issue 40, item 1): a web board (`python -m bot web-demo`) runs in a
process of its own under `--nofile` open files (systemd's default is 1,024), and this process opens
`--streams` event streams on one match from one address (127.0.0.2), keeping each open. Then a fresh page
load and a state read from another address (127.0.0.1) are timed, and the server's log is measured.

    python bench/web_abuse.py                         # 1,100 streams under ulimit -n 1024
    python bench/web_abuse.py --streams 3000 --nofile 4096

Prints how the streams were answered (streaming, refused with a `busy` event, refused at the socket with 429
or 503, failed), the page load's and the state read's time in milliseconds, and the log's size in bytes.
(Run from the checkout's root with PYTHONPATH=. so that its `bot` is the one imported.)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import resource
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ATTACKER = "127.0.0.2"
VIEWER = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, nofile: int, log: Path) -> tuple[subprocess.Popen[str], str]:
    """The demo web board under `nofile` open files; the path of its first match's page."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "web-demo", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=log.open("w"),
        text=True,
        preexec_fn=limit,
        env=env,
    )
    assert process.stdout is not None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        found = re.search(r"(/m/\d+-[A-Za-z0-9_-]{22})", line)
        if found:
            return process, found.group(1)
        if not line and process.poll() is not None:
            break
    process.kill()
    raise SystemExit(f"the web board did not start; its log: {log.read_text()[-2000:]}")


async def open_stream(port: int, path: str, held: list[asyncio.StreamWriter]) -> str:
    """One event stream from the attacker's address, kept open: how it was answered."""
    try:
        reader, writer = await asyncio.open_connection(VIEWER, port, local_addr=(ATTACKER, 0))
    except OSError:
        return "failed to connect"
    held.append(writer)
    writer.write(f"GET /api{path}/events HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
    try:
        head = await asyncio.wait_for(reader.read(4096), 30)
    except (OSError, TimeoutError):
        return "no answer"
    if b"retry: 1000" in head:
        return "streaming"
    if b"event: busy" in head:
        return "refused: busy event"
    if not head:
        return "closed"
    return "refused: " + head.split(b"\r\n", 1)[0].decode(errors="replace").removeprefix("HTTP/1.1 ")


async def timed_get(port: int, path: str) -> tuple[int, float]:
    started = time.perf_counter()
    reader, writer = await asyncio.wait_for(asyncio.open_connection(VIEWER, port), 30)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n".encode())
    answer = await asyncio.wait_for(reader.read(), 30)
    elapsed = (time.perf_counter() - started) * 1000
    writer.close()
    return int(answer.split(b" ", 2)[1]), elapsed


async def attack(port: int, path: str, streams: int) -> tuple[Counter[str], list[tuple[str, int, float]]]:
    held: list[asyncio.StreamWriter] = []
    batch = asyncio.Semaphore(200)

    async def one() -> str:
        async with batch:
            return await open_stream(port, path, held)

    answers = Counter(await asyncio.gather(*(one() for _ in range(streams))))
    loads = []
    for name, url in (("page", path), ("state", f"/api{path}"), ("page again", path)):
        try:
            status, ms = await timed_get(port, url)
        except (OSError, TimeoutError):
            status, ms = 0, float("inf")
        loads.append((name, status, ms))
    for writer in held:
        with contextlib.suppress(Exception):
            writer.close()
    return answers, loads


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--streams", type=int, default=1100)
    parser.add_argument("--nofile", type=int, default=1024)
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the attacker's own descriptors
    with tempfile.TemporaryDirectory(prefix="tessera-web-abuse-") as folder:
        log = Path(folder) / "server.log"
        port = free_port()
        server, path = start_server(port, args.nofile, log)
        try:
            answers, loads = asyncio.run(attack(port, path, args.streams))
            time.sleep(1)  # the server's last log lines
        finally:
            server.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(10)
            server.kill()
        log_bytes = log.stat().st_size
    print(f"web_abuse streams={args.streams} from {ATTACKER}, server under ulimit -n {args.nofile}")
    for answer, count in sorted(answers.items()):
        print(f"  {answer:<34}{count:>8}")
    for name, status, ms in loads:
        print(f"  fresh {name + ' load (' + VIEWER + ')':<28}{status:>8}{ms:>10.1f} ms")
    print(f"  server log{'':<24}{log_bytes:>8} bytes")


if __name__ == "__main__":
    main()
