"""One client asking for every board image (issue 40, item 5): a match of `--plies` moves on a web board, and
a client (127.0.0.2) that asks for the board at every ply in every language and theme, over and over,
`--concurrency` at a time, for `--seconds`, while another viewer (127.0.0.1) reads the match's state and
its current board twice a second. Run once with the limits (a client's new drawings budgeted, two drawn at
once, a bounded queue, the cache) and once with them lifted, as before.

    python bench/web_render.py
    python bench/web_render.py --plies 60 --seconds 20 --concurrency 32

Prints, for each run: the attacker's answers (200, 429, 503), the drawings made, and the viewer's request
times in milliseconds (median, max); then a cache pass (every image the attacker got, asked again by a third
address): milliseconds an image. (Run from the checkout's root with PYTHONPATH=.)
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import socket
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from aiohttp import ClientSession, TCPConnector

import games
from bot.service import Service
from bot.service.guilds import LOCALES
from bot.web.app import WebBoard
from bot.web.security import RateLimiter, match_token
from games.base import clickable_moves, resolve_options
from renderer.theme import THEME_NAMES

SECRET = "Hq3xZ8pL2mK9wR4tY7uB1nC6dF5gJ0sAe4"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def make_match(service: Service, plies: int) -> int:
    rules = games.get("paint")
    match = await service.matches.start(
        "paint",
        resolve_options(rules.options, {}),
        [(1, None), (2, None)],
        seed=7,
        rated=False,
        turn_timeout=86400,
        guild_id=None,
        channel_id=1,
    )
    for _ in range(plies):
        if not match.is_active or match.to_move is None:
            break
        move = clickable_moves(rules, match.state)[0].notation
        match = (await service.matches.play(match.id, match.seats[match.to_move].user_id, move)).match
    return match.id


async def run(service: Service, match_id: int, args: argparse.Namespace, limited: bool) -> dict[str, Any]:
    port = free_port()
    board = WebBoard(service, secret=SECRET, base_url=f"http://127.0.0.1:{port}")
    if not limited:  # as before: every drawing at once, no budget, nothing kept beyond the newest
        board.renders = RateLimiter(1e9, 10**9)
        board._render_slots = asyncio.Semaphore(10**6)
        board.render_queue = 10**9
        board._pngs.limit = 0
    drawn = [0]
    render = board._render

    async def counted(*args: Any) -> bytes:
        drawn[0] += 1
        return await render(*args)

    board._render = counted  # type: ignore[method-assign,assignment]
    await board.start("127.0.0.1", port)
    token = match_token(SECRET, match_id)
    match = await service.matches.get(match_id)
    base = f"http://127.0.0.1:{port}"
    urls = [
        f"{base}/api/m/{token}/board/{ply}.png?lang={lang}&theme={theme}"
        for ply, lang, theme in itertools.product(range(match.ply + 1), LOCALES, THEME_NAMES)
    ]
    answers: Counter[int] = Counter()
    served: list[str] = []
    times: list[float] = []
    stop = time.monotonic() + args.seconds
    try:
        async with (
            ClientSession(connector=TCPConnector(local_addr=("127.0.0.2", 0), limit=0)) as attacker,
            ClientSession() as viewer,
        ):
            pending = itertools.cycle(urls)

            async def attack() -> None:
                while time.monotonic() < stop:
                    url = next(pending)
                    async with attacker.get(url) as answer:
                        await answer.read()
                        answers[answer.status] += 1
                        if answer.status == 200 and url not in served:
                            served.append(url)

            async def watch() -> None:
                while time.monotonic() < stop:
                    started = time.perf_counter()
                    async with viewer.get(f"{base}/api/m/{token}") as state:
                        data = await state.json()
                    async with viewer.get(base + data["image"]) as image:
                        await image.read()
                        assert image.status == 200, image.status
                    times.append((time.perf_counter() - started) * 1000)
                    await asyncio.sleep(0.5)

            await asyncio.gather(watch(), *(attack() for _ in range(args.concurrency)))
            cache_ms = None
            if limited and served:
                async with ClientSession(connector=TCPConnector(local_addr=("127.0.0.3", 0))) as third:
                    started = time.perf_counter()
                    for url in served:
                        async with third.get(url) as answer:
                            await answer.read()
                    cache_ms = (time.perf_counter() - started) * 1000 / len(served)
    finally:
        await board.close()
    return {
        "answers": dict(sorted(answers.items())),
        "asked": len(urls),
        "drawn": drawn[0],
        "viewer_ms": (statistics.median(times), max(times)) if times else (float("nan"),) * 2,
        "cache_ms": cache_ms,
    }


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="tessera-web-render-") as folder:
        service = await Service.open(f"sqlite:///{Path(folder) / 'r.sqlite3'}")
        try:
            match_id = await make_match(service, args.plies)
            limited = await run(service, match_id, args, limited=True)
            lifted = await run(service, match_id, args, limited=False)
        finally:
            await service.close()
    print(
        f"web_render plies={args.plies} seconds={args.seconds} concurrency={args.concurrency} "
        f"images={limited['asked']} (ply x language x theme)"
    )
    for name, figures in (("limits", limited), ("no limits", lifted)):
        median, top = figures["viewer_ms"]
        print(f"  {name:<10} attacker answers {figures['answers']}, drawings made {figures['drawn']}")
        print(f"  {name:<10} viewer state+image ms: median {median:.1f}, max {top:.1f}")
    if limited["cache_ms"] is not None:
        print(f"  cached image, another address: {limited['cache_ms']:.2f} ms an image")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--plies", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--concurrency", type=int, default=16)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
