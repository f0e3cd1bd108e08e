"""Click to board: how long after a player's move every spectator's browser has the new board.

`python -m bot web-demo` runs as the server (a process of its own, as in production); this process opens
`--spectators` event streams on the Paint match (500 by default), and the two demo players move in turn
through POST /move. For every move, the time from sending the move to each stream receiving the new state
is recorded (with `--fetch-images N`, to each spectator also having fetched the new board PNG, as a browser
does, over N pooled connections: what a reverse proxy that caches the immutable images saves); the
figures are over all (move, spectator) pairs. Also the first load of a spectator and of a
TilingKing player to move (page, script, style, state, board image), in bytes.

    python bench/web_live.py
    python bench/web_live.py --spectators 500 --moves 30
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

import aiohttp
from web_common import free_port, login, percentile, read_events, rss_mib, start_demo, wait_until


async def first_load(base: str, page: str, http: aiohttp.ClientSession | None = None) -> int:
    """Bytes a browser fetches to show the page: HTML, script, style, state JSON, the board PNG."""
    own = http is None
    http = http or aiohttp.ClientSession(base_url=base)
    total = 0
    token = page.rsplit("/", 1)[-1]
    try:
        for path in (page.removeprefix(base), "/static/app.js", "/static/app.css"):
            async with http.get(path) as answer:
                total += (
                    len(await answer.read())
                    if answer.headers.get("Content-Encoding") != "gzip"
                    else int(answer.headers.get("Content-Length", "0") or 0)
                )
        async with http.get(f"/api/m/{token}", headers={"Accept-Encoding": "gzip"}) as answer:
            body = await answer.read()
            state = __import__("json").loads(body)
            total += int(answer.headers.get("Content-Length") or len(body))
        async with http.get(state["image"]) as answer:
            total += len(await answer.read())
    finally:
        if own:
            await http.close()
    return total


async def run(spectators: int, moves: int, fetch_connections: int) -> None:
    port = free_port()
    server, pages = start_demo(port)
    base = f"http://127.0.0.1:{port}"
    try:
        page = pages["Paint"]
        token = page.rsplit("/", 1)[-1]
        players = {user: await login(base, user, page) for user in (1, 2)}
        seen: list[int] = [0] * spectators
        connector = aiohttp.TCPConnector(limit=0)
        watchers = aiohttp.ClientSession(
            base_url=base, connector=connector, timeout=aiohttp.ClientTimeout(None)
        )
        streams = []
        readers = []
        fetching: set[asyncio.Task[None]] = set()
        images = (
            aiohttp.ClientSession(base_url=base, connector=aiohttp.TCPConnector(limit=fetch_connections))
            if fetch_connections
            else None
        )

        async def fetch(i: int, ply: int, image: str) -> None:
            assert images is not None
            async with images.get(image) as answer:
                await answer.read()
            arrived[i] = time.perf_counter()
            seen[i] = ply

        for i in range(spectators):
            response = await watchers.get(f"/api/m/{token}/events")
            streams.append(response)

            def note(ply: int, image: str, i: int = i) -> None:
                arrived[i] = time.perf_counter()
                if images is None:
                    seen[i] = ply
                else:  # as a browser does: fetch the new board image, then it shows
                    fetching.add(asyncio.create_task(fetch(i, ply, image)))

            readers.append(asyncio.create_task(read_events(response, note)))
        arrived: list[float] = [0.0] * spectators
        await asyncio.sleep(1.0)
        print(f"{spectators} spectators connected; server RSS {rss_mib(server.pid):.0f} MiB")
        latencies: list[float] = []
        async with aiohttp.ClientSession(base_url=base) as reader:
            for _ in range(moves):
                async with reader.get(f"/api/m/{token}") as r:
                    public = await r.json()
                to_move = public["players"][public["toMove"]]["userId"]
                http, csrf = players[int(to_move)]
                async with http.get(f"/api/m/{token}") as r:
                    state = await r.json()
                ply = state["ply"]
                move = state["clicks"][len(state["clicks"]) // 2][0]
                sent = time.perf_counter()
                async with http.post(
                    f"/api/m/{token}/move", json={"move": move, "ply": ply}, headers={"X-CSRF-Token": csrf}
                ) as r:
                    assert (await r.json())["ok"], move
                ok = await wait_until(lambda ply=ply: min(seen) > ply, 10.0)
                assert ok, f"{sum(s > ply for s in seen)} of {spectators} saw move {ply + 1}"
                latencies += [(t - sent) * 1000 for t in arrived]
        what = "event and image" if images else "event"
        print(
            f"click to board ({what}) in every browser over {moves} moves x {spectators} spectators: "
            f"p50 {statistics.median(latencies):.1f} ms, p99 {percentile(latencies, 99):.1f} ms, "
            f"max {max(latencies):.1f} ms"
        )
        for task in readers:
            task.cancel()
        await watchers.close()
        if images is not None:
            await images.close()
        print(f"first load, spectator (Paint): {await first_load(base, page) / 1024:.1f} KiB")
        tk = pages["TilingKing"]
        http, _ = await login(base, 1, tk)
        size = await first_load(base, tk, http)
        print(f"first load, TilingKing player to move (with every legal placement): {size / 1024:.1f} KiB")
        await http.close()
        for http, _ in players.values():
            await http.close()
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument(
        "--fetch-images",
        type=int,
        default=0,
        metavar="CONNECTIONS",
        help="every spectator also fetches the new board PNG, over this many pooled connections",
    )
    args = parser.parse_args()
    asyncio.run(run(args.spectators, args.moves, args.fetch_images))


if __name__ == "__main__":
    main()
