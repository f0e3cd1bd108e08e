"""Each chosen game on the web board (bot/web), through its HTTP API as the page uses it: the player to
move gets the game's click moves (compact, as `bot.web.wire.compact_clicks` writes them), whose cells are
polygons of the page's scene, and plays by posting the notation the clicked cells stand for; a game without
click play is played by its typed and word moves.
No browser: aiohttp's test client on the loopback."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import games
from games.base import resolve_options

SECRET = "k" * 40
SEATED = (11, 22)


@pytest.mark.asyncio
async def test_the_web_board_plays_the_game_by_clicking_its_cells(game_id: str, tmp_path: Path) -> None:
    from aiohttp.test_utils import TestClient, TestServer

    from bot.service import Service
    from bot.web.app import WebBoard
    from bot.web.security import SESSION_COOKIE, match_token
    from bot.web.wire import expand_clicks

    rules = games.get(game_id)
    if 2 not in rules.seats:
        pytest.skip(f"{game_id} is not a game for two")
    service = await Service.open(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    board = WebBoard(
        service, secret=SECRET, base_url="http://web.test", client_id="1", client_secret="x" * 12
    )

    def headers(user: int) -> dict[str, str]:
        cookie = board.signer.session_cookie(user, f"user{user}", "en")
        session = board.signer.session(cookie)
        assert session is not None
        return {"Cookie": f"{SESSION_COOKIE}={cookie}", "X-CSRF-Token": session.csrf}

    try:
        options = resolve_options(rules.options, {})
        seats = [(user, None) for user in SEATED]
        started = await service.matches.start(
            game_id, options, seats, seed=5, rated=False, turn_timeout=3600, guild_id=None, channel_id=100
        )
        token = match_token(SECRET, started.id)
        rng = random.Random(5)
        async with TestClient(TestServer(board.app())) as client:
            assert (await client.get(f"/m/{token}")).status == 200, "the match's page"
            for _ in range(10):
                match = await service.matches.get(started.id)
                if not match.is_active or match.to_move is None:
                    break
                mover = match.seats[match.to_move].user_id
                shown: dict[str, Any] = await (
                    await client.get(f"/api/m/{token}", headers=headers(mover))
                ).json()
                cells = shown["scene"]["cells"]
                clicks = expand_clicks(shown["clicks"], shown["scene"]["labels"])
                for click in clicks:
                    assert click.cells and all(
                        0 <= cell < len(cells) and len(cells[cell]) >= 6 for cell in click.cells
                    ), click.notation
                if clicks:
                    move = rng.choice(clicks).notation
                else:  # no click play here: a word move, else a typed move
                    words = [word["move"] for word in shown["words"]]
                    move = (
                        words[0]
                        if words
                        else rules.notation(match.state, next(iter(rules.legal_moves(match.state))))
                    )
                played = await client.post(
                    f"/api/m/{token}/move", json={"move": move, "ply": match.ply}, headers=headers(mover)
                )
                assert await played.json() == {"ok": True}, move
                assert (await service.matches.get(started.id)).ply > match.ply
    finally:
        await service.close()
