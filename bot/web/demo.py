"""`python -m bot web-demo`: the web board on a throw-away SQLite database with one match of each game
between two local users, Alice and Bob, and no Discord token; open the printed address and play both sides
in two browser windows (or two browsers)."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import tempfile
from collections.abc import Sequence
from pathlib import Path

import games
from bot.service import Service
from bot.web.app import WebBoard
from games.base import resolve_options

DEMO_USERS = {1: "Alice", 2: "Bob"}
DEMO_OPTIONS: dict[str, dict[str, object]] = {"tilingking": {"board": "sq9"}}


async def open_demo(
    folder: Path, *, host: str, port: int, base_url: str | None = None
) -> tuple[Service, WebBoard]:
    """The demo's service and board, started: a match of every game, Alice in seat 0, Bob in seat 1."""
    service = await Service.open(f"sqlite:///{folder / 'demo.sqlite3'}")
    board = WebBoard(
        service,
        secret=secrets.token_urlsafe(32),
        base_url=base_url or f"http://{host}:{port}",
        demo_users=DEMO_USERS,
    )
    for channel, game_id in enumerate(games.GAME_IDS, start=1):
        rules = games.get(game_id)
        options = resolve_options(rules.options, DEMO_OPTIONS.get(game_id, {}))
        match = await service.matches.start(
            game_id,
            options,
            [(1, None), (2, None)],
            seed=secrets.randbelow(2**31),
            rated=False,
            turn_timeout=7 * 86400,
            guild_id=None,
            channel_id=channel,
        )
        board.demo_matches.append((match.id, rules.name))
    await board.start(host, port)
    return service, board


async def run(host: str, port: int) -> None:
    with tempfile.TemporaryDirectory(prefix="tessera-demo-") as folder:
        service, board = await open_demo(Path(folder), host=host, port=port)
        print(f"Tessera web demo: open http://{host}:{port}/ (Ctrl-C stops it)", flush=True)
        for match_id, name in board.demo_matches:
            print(f"  {name}: {board.link(match_id)}", flush=True)
        try:
            await asyncio.Event().wait()
        finally:
            await board.close()
            await service.close()


def main(args: Sequence[str]) -> int:
    """`web-demo [--port N] [--host H]`."""
    port, host = 8080, "127.0.0.1"
    rest = list(args)
    while rest:
        flag = rest.pop(0)
        if flag == "--port" and rest:
            port = int(rest.pop(0))
        elif flag == "--host" and rest:
            host = rest.pop(0)
        else:
            print("usage: python -m bot web-demo [--port 8080] [--host 127.0.0.1]")
            return 2
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(host, port))
    return 0
