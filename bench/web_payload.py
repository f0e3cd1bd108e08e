"""Web board payload bench: what a page costs on the wire, per game, with the scene sent once and a scene
diff per move (bot/web/wire.py).

For each game (and TilingKing on each tiling) a match is played with random legal moves through the
service, with the board served in this process (a throw-away SQLite database; loopback only):

- first load: the state a page fetches first (GET /api/m/<t>: the scene, the move list, the page's words),
  for a spectator and for the player to move (with the legal moves as cells to click), as sent (gzip, as
  every browser takes it) and as JSON;
- per move: the event the stream brings (its scene diff, the new moves, the status, the alt text) as sent
  (deflated where its JSON is over 2 KB, `bot.web.wire.packed`) and as JSON, and the legal moves the
  player who gets the turn then fetches (GET /api/m/<t>/clicks), gzip and JSON; the largest over the game
  and the median.

Targets (issue 42): a move <= 5 KB for any game, a TilingKing player's first load <= 60 KB.

    python bench/web_payload.py            # every game, 40 moves each (about a minute)
    python bench/web_payload.py --moves 80
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp
from aiohttp.test_utils import TestClient, TestServer

import games
from bot.service import Service
from bot.testing import fixtures
from bot.web.app import WebBoard
from bot.web.security import match_token
from bot.web.wire import unpacked
from games.base import resolve_options

SETUPS: list[tuple[str, str, int, dict[str, Any]]] = [
    ("paint", "paint", 2, {}),
    ("paintscape", "paintscape", 2, {}),
    ("tilingking sq9", "tilingking", 2, {"board": "sq9"}),
    ("tilingking hex8bi", "tilingking", 3, {"board": "hex8bi"}),
    ("tilingking tri6bi", "tilingking", 4, {"board": "tri6bi"}),
]
USERS = {1: "Alice", 2: "Bob", 3: "Carol", 4: "Dave"}
MOVE_TARGET, FIRST_TARGET = 5 * 1024, 60 * 1024
ROOT = Path(__file__).resolve().parents[1]


async def fetch(http: TestClient[Any, Any], path: str) -> tuple[int, int]:
    """(bytes on the wire, bytes of JSON) of a GET."""
    async with http.get(path, headers={"Accept-Encoding": "gzip"}, auto_decompress=False) as answer:
        wire = await answer.read()
        assert answer.status == 200, (path, answer.status)
        encoding = answer.headers.get("Content-Encoding")
        if encoding in ("gzip", "deflate"):
            return len(wire), len(zlib.decompress(wire, 16 + zlib.MAX_WBITS if encoding == "gzip" else 0))
        return len(wire), len(wire)


async def bench(label: str, game_id: str, seats: int, options: dict[str, Any], moves: int) -> dict[str, Any]:
    rules = games.get(game_id)
    with tempfile.TemporaryDirectory(prefix="tessera-bench-") as folder:
        service = await Service.open(f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        board = WebBoard(service, secret="bench-secret", base_url="http://127.0.0.1", demo_users=USERS)
        server = TestServer(board.app())
        clients = {user: TestClient(server, cookie_jar=aiohttp.CookieJar(unsafe=True)) for user in USERS}
        spectator = TestClient(server)
        try:
            await server.start_server()
            for client in (*clients.values(), spectator):
                await client.start_server()
            match = await service.matches.start(
                game_id,
                resolve_options(rules.options, options),
                [(user, None) for user in list(USERS)[:seats]],
                seed=7,
                rated=False,
                turn_timeout=7 * 86400,
                guild_id=None,
                channel_id=1,
            )
            token = match_token("bench-secret", match.id)
            for user, client in clients.items():
                async with client.get(f"/demo/login/{user}?next=/m/{token}", allow_redirects=False) as r:
                    assert r.status == 302
            assert match.to_move is not None
            mover = match.seats[match.to_move].user_id
            first_spectator = await fetch(spectator, f"/api/m/{token}")
            first_player = await fetch(clients[mover], f"/api/m/{token}")
            # The player's whole first page: the HTML (which carries the state) and every script, style and
            # icon it names (the page paints the board itself: no PNG).
            async with clients[mover].get(f"/m/{token}") as answer:
                html = await answer.text()
            page = (await fetch(clients[mover], f"/m/{token}"))[0]
            for path in sorted(set(re.findall(r'(?:href|src)="(/static/[^"]+)"', html))):
                page += (await fetch(clients[mover], path))[0]
            for module in sorted((ROOT / "web" / "js").glob("*.js")):  # modules imported but not named there
                if f"/static/js/{module.name}" not in html and module.name != "mine.js":
                    page += (await fetch(clients[mover], f"/static/js/{module.name}"))[0]
            stream = await spectator.get(f"/api/m/{token}/events")
            await stream.content.readline()
            events: list[tuple[int, int]] = []
            clicks: list[tuple[int, int]] = []
            movers: list[int] = []
            """Per move, what the player who gets the turn receives: the event and their legal moves."""
            rng = random.Random(11)
            for _ in range(moves):
                match = await service.matches.get(match.id)
                if not match.is_active or match.to_move is None:
                    break
                legal = fixtures.random_moves(game_id, match.state, list(rules.legal_moves(match.state)))
                notation = rules.notation(match.state, rng.choice(legal))
                await service.matches.play(match.id, match.seats[match.to_move].user_id, notation)
                after = (await service.matches.get(match.id)).ply
                while True:
                    line = await asyncio.wait_for(stream.content.readline(), 60)
                    if line.startswith(b"data: ") and json.loads(line[6:])["ply"] == after:
                        break
                data = line[6:].rstrip(b"\n")
                event = json.dumps(unpacked(data), separators=(",", ":")).encode()
                if events or b'"diff"' in event:  # the stream's first event carries the whole scene
                    events.append((len(data), len(event)))
                match = await service.matches.get(match.id)
                if match.is_active and match.to_move is not None:
                    player = clients[match.seats[match.to_move].user_id]
                    clicks.append(await fetch(player, f"/api/m/{token}/clicks"))
                    if events:
                        movers.append(events[-1][0] + clicks[-1][0])
            stream.close()
        finally:
            for client in (*clients.values(), spectator):
                await client.close()
            await server.close()
            await board.close()
            await service.close()
    return {
        "label": label,
        "first_spectator": first_spectator,
        "first_player": first_player,
        "page": page,
        "events": events,
        "clicks": clicks,
        "movers": movers,
    }


def kb(n: float) -> str:
    return f"{n / 1024:5.1f}"


def report(result: dict[str, Any]) -> None:
    events, clicks = result["events"], result["clicks"]
    event_max = max(e[0] for e in events)
    click_max = max((c[0] for c in clicks), default=0)
    print(
        f"{result['label']:<18} first load {kb(result['first_spectator'][0])} KB spectator,"
        f" {kb(result['first_player'][0])} KB player (JSON {kb(result['first_spectator'][1])} /"
        f" {kb(result['first_player'][1])} KB); the player's whole page {kb(result['page'])} KB"
        " (the HTML with its state, scripts, style, icon, as served)"
    )
    print(
        f"{'':<18} a move: event max {kb(event_max)} KB, p50 {kb(statistics.median(e[0] for e in events))} KB"
        f" (JSON max {kb(max(e[1] for e in events))} KB);"
        f" the mover's clicks max {kb(click_max)} KB, p50"
        f" {kb(statistics.median(c[0] for c in clicks) if clicks else 0)} KB (JSON max"
        f" {kb(max((c[1] for c in clicks), default=0))} KB); over {len(events)} moves"
    )
    movers = result["movers"]
    print(
        f"{'':<18} a move as the player who gets the turn receives it (the event and the legal moves):"
        f" max {kb(max(movers, default=0))} KB, p50 {kb(statistics.median(movers) if movers else 0)} KB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40, help="moves played per game (default 40)")
    args = parser.parse_args()
    print(
        "web board payloads as sent (KB = 1024 bytes; first loads and clicks gzip, events deflated over 2 KB;"
        f" targets a move <= {MOVE_TARGET // 1024} KB, a TilingKing player's first load"
        f" <= {FIRST_TARGET // 1024} KB)"
    )
    setups = [*SETUPS]
    setups += [(g, g, min(games.get(g).seats), {}) for g in games.GAME_IDS if g not in {s[1] for s in SETUPS}]
    for label, game_id, seats, options in setups:
        report(asyncio.run(bench(label, game_id, seats, options, args.moves)))


if __name__ == "__main__":
    main()
