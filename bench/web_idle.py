"""Idle live connections: the memory of the web board's server process with `--connections` open event
streams (2,000 by default) that receive nothing, spread over the demo's three matches.

`python -m bot web-demo` is the server (a process of its own); its resident memory (VmRSS) is read before
and after the streams open. Then one move is made, and the time until every stream has it is reported.

    python bench/web_idle.py
    python bench/web_idle.py --connections 2000
"""

from __future__ import annotations

import argparse
import asyncio
import time

import aiohttp
from web_common import free_port, login, read_events, rss_mib, start_demo, wait_until


async def run(connections: int) -> None:
    port = free_port()
    server, pages = start_demo(port)
    base = f"http://127.0.0.1:{port}"
    try:
        tokens = [page.rsplit("/", 1)[-1] for page in pages.values()]
        async with aiohttp.ClientSession(base_url=base) as http:  # warm: every page's state built once
            for token in tokens:
                async with http.get(f"/api/m/{token}") as answer:
                    await answer.read()
        await asyncio.sleep(0.5)
        before = rss_mib(server.pid)
        seen = [0] * connections
        session = aiohttp.ClientSession(
            base_url=base, connector=aiohttp.TCPConnector(limit=0), timeout=aiohttp.ClientTimeout(None)
        )
        readers = []
        paint = pages["Paint"].rsplit("/", 1)[-1]
        for i in range(connections):
            response = await session.get(f"/api/m/{tokens[i % len(tokens)]}/events")

            def note(ply: int, image: str, i: int = i) -> None:
                seen[i] = ply

            readers.append(asyncio.create_task(read_events(response, note)))
        await asyncio.sleep(2.0)
        after = rss_mib(server.pid)
        print(
            f"{connections} idle event streams: server RSS {before:.0f} MiB before, "
            f"{after:.0f} MiB with them "
            f"(+{after - before:.0f} MiB, {(after - before) * 1024 / connections:.1f} KiB each)"
        )
        http, csrf = await login(base, 1, pages["Paint"])
        async with http.get(f"/api/m/{paint}") as answer:
            state = await answer.json()
        if state["clicks"]:
            watching = [i for i in range(connections) if i % len(tokens) == list(pages).index("Paint")]
            started = time.perf_counter()
            move = {"move": state["clicks"][0][0], "ply": state["ply"]}
            async with http.post(f"/api/m/{paint}/move", json=move, headers={"X-CSRF-Token": csrf}) as answer:
                assert (await answer.json())["ok"]
            reached = await wait_until(lambda: all(seen[i] > state["ply"] for i in watching), 10)
            took = (time.perf_counter() - started) * 1000
            got = sum(seen[i] > state["ply"] for i in watching)
            outcome = f"{took:.0f} ms" if reached else f"only {got} within {took:.0f} ms"
            print(f"one move to all {len(watching)} streams of its match: {outcome}")
        await http.close()
        for task in readers:
            task.cancel()
        await session.close()
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--connections", type=int, default=2000)
    args = parser.parse_args()
    asyncio.run(run(args.connections))


if __name__ == "__main__":
    main()
