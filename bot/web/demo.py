"""`python -m bot web-demo`: the web board on a throw-away SQLite database, with four local users (Alice,
Bob, Carol, Dave) and no Discord token: a match of every registered game (installed game packages, the
example included), TilingKing for three and for four on each of its tilings (square, hexagon, triangle),
and a form on the start page that starts a new match of any game. Open the printed address and play every
side from one browser (each "play as" link logs in as that user) or several."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import secrets
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

import games
from bot.service import Service
from bot.service.errors import ServiceError
from bot.web.app import WebBoard
from bot.web.security import match_token
from games.base import InvalidOptions, resolve_options

DEMO_USERS = {1: "Alice", 2: "Bob", 3: "Carol", 4: "Dave"}
DEMO_OPTIONS: dict[str, dict[str, object]] = {"tilingking": {"board": "sq9"}}
"""The options of each game's two-player demo match (the defaults otherwise)."""
MANY: tuple[tuple[dict[str, object], int], ...] = (
    ({"board": "sq11b"}, 3),
    ({"board": "sq13bi"}, 4),
    ({"board": "hex6b"}, 3),
    ({"board": "hex8bi"}, 4),
    ({"board": "tri5b"}, 3),
    ({"board": "tri6bi"}, 4),
)
"""TilingKing for three and for four players on each tiling."""
DEMOS: dict[WebBoard, Demo] = {}
"""Each demo board's demo (its matches, for the list printed at start)."""


@dataclass
class Demo:
    """The demo's matches and its start page, with the form that starts a new one."""

    service: Service
    board: WebBoard
    form_key: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    """The start form's hidden key: a page of another site cannot start matches here."""
    matches: list[tuple[int, str, tuple[int, ...]]] = field(default_factory=list)
    """(match id, what it is, its seats' users), newest last."""
    channels: int = 0

    async def start(
        self, game_id: str, options: Mapping[str, object], players: int, label: str | None = None
    ) -> int:
        """A new match of `game_id` for the first `players` demo users, listed as `label` (by default its
        game, players and options) (InvalidOptions, ServiceError)."""
        rules = games.get(game_id)
        if players not in rules.seats:
            counts = ", ".join(str(n) for n in rules.seats)
            raise InvalidOptions(f"{rules.name} is played by {counts} players")
        resolved = resolve_options(rules.options, dict(options))
        users = tuple(list(DEMO_USERS)[:players])
        self.channels += 1
        match = await self.service.matches.start(
            game_id,
            resolved,
            [(user, None) for user in users],
            seed=secrets.randbelow(2**31),
            rated=False,
            turn_timeout=7 * 86400,
            guild_id=None,
            channel_id=self.channels,
        )
        if label is None:
            shown = " ".join([f"{players} players", *(f"{k}={v}" for k, v in options.items())])
            label = f"{rules.name} ({shown})"
        self.matches.append((match.id, label, users))
        return match.id

    def routes(self, app: web.Application) -> None:
        app.router.add_post("/demo/new", self._new)

    def index(self) -> web.Response:
        """The start page: every match with a link to play as each of its players or to watch, and the
        form for a new match."""
        rows = []
        for match_id, what, users in reversed(self.matches):
            path = f"/m/{match_token(self.board.secret, match_id)}"
            people = " · ".join(
                f'<a href="/demo/login/{uid}?next={path}">{html.escape(DEMO_USERS[uid])}</a>' for uid in users
            )
            rows.append(
                f'<li data-match="{match_id}">#{match_id} {html.escape(what)}: play as {people}, '
                f'or <a href="{path}">watch</a></li>'
            )
        choices = "".join(
            f'<option value="{html.escape(g)}">{html.escape(games.get(g).name)}</option>'
            for g in games.GAME_IDS
        )
        form = (
            '<form id="new" method="post" action="/demo/new">'
            f'<input type="hidden" name="key" value="{self.form_key}">'
            f'<label>Game <select name="game">{choices}</select></label> '
            '<label>Players <select name="players"><option>2</option><option>3</option>'
            "<option>4</option></select></label> "
            '<label>Options <input name="options" placeholder="board=hex5 size=4"></label> '
            '<button type="submit" class="main">New match</button></form>'
        )
        body = (
            '<!doctype html><html lang="en"><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<link rel="stylesheet" href="/static/app.css"><title>Tessera demo</title>'
            '<body class="demo"><header><h1>Tessera web demo</h1></header><main><section id="left">'
            "<p>Four local users, no Discord: pick who you play as. The board, its moves and its updates "
            "are the real ones.</p>"
            f'<h2>New match</h2>{form}<h2>Matches</h2><ul id="matches" class="mine-list">'
            f"{''.join(rows)}</ul></section></main></body></html>"
        )
        return web.Response(text=body, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def _new(self, request: web.Request) -> web.Response:
        form = await request.post()
        if not secrets.compare_digest(str(form.get("key", "")), self.form_key):
            raise web.HTTPForbidden(text="start matches from the demo's own page")
        game_id = str(form.get("game", ""))
        if game_id not in games.GAMES:
            raise web.HTTPBadRequest(text=f"no game {game_id!r}")
        try:
            players = int(str(form.get("players", "2")))
            options = dict(part.split("=", 1) for part in str(form.get("options", "")).split() if "=" in part)
            match_id = await self.start(game_id, options, players)
        except (InvalidOptions, ServiceError, ValueError) as error:
            raise web.HTTPBadRequest(text=f"cannot start that match: {error}") from None
        path = f"/m/{match_token(self.board.secret, match_id)}"
        raise web.HTTPFound(f"/demo/login/{next(iter(DEMO_USERS))}?next={path}")


async def open_demo(
    folder: Path, *, host: str, port: int, base_url: str | None = None
) -> tuple[Service, WebBoard]:
    """The demo's service and board, started: a two-player match of every registered game (Alice and
    Bob), and TilingKing for three and four on each tiling (Carol and Dave joining)."""
    service = await Service.open(f"sqlite:///{folder / 'demo.sqlite3'}")
    board = WebBoard(
        service,
        secret=secrets.token_urlsafe(32),
        base_url=base_url or f"http://{host}:{port}",
        demo_users=DEMO_USERS,
    )
    demo = Demo(service, board)
    board.demo = demo
    DEMOS[board] = demo
    for game_id in games.GAME_IDS:
        rules = games.get(game_id)
        players = 2 if 2 in rules.seats else min(rules.seats)
        await demo.start(game_id, DEMO_OPTIONS.get(game_id, {}), players, rules.name)
    if "tilingking" in games.GAMES:
        for options, players in MANY:
            await demo.start("tilingking", options, players)
    await board.start(host, port)
    return service, board


async def run(host: str, port: int) -> None:
    with tempfile.TemporaryDirectory(prefix="tessera-demo-") as folder:
        service, board = await open_demo(Path(folder), host=host, port=port)
        print(f"Tessera web demo: open http://{host}:{port}/ (Ctrl-C stops it)", flush=True)
        for match_id, what, _ in DEMOS[board].matches:
            print(f"  {what}: {board.link(match_id)}", flush=True)
        try:
            await asyncio.Event().wait()
        finally:
            await board.close()
            await service.close()


def parser() -> argparse.ArgumentParser:
    return argparse.ArgumentParser(
        prog="python -m bot web-demo",
        description=(
            "A local web board demo on a throw-away database: four local users, a match of every "
            "registered game, TilingKing for three and four on each tiling, and a form for new matches. "
            "No Discord token is needed."
        ),
    )


def main(args: Sequence[str]) -> int:
    """`web-demo [--port N] [--host H]`; `--help` says so."""
    command = parser()
    command.add_argument("--port", type=int, default=8080, help="the port to serve on (8080)")
    command.add_argument("--host", default="127.0.0.1", help="the address to serve on (127.0.0.1)")
    try:
        options: Any = command.parse_args(list(args))
    except SystemExit as stop:  # --help (0) or a wrong argument (2)
        return int(stop.code or 0)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(options.host, options.port))
    return 0
