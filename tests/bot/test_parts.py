"""The parts the client wires (bot/parts.py) that need no Discord client work without one: a web page or a
script can make a match's board (names, theme, language, image) and keep the bot's board after the board
owed before it. The flows through SimCord cover them wired into the bot."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.board_order
from bot.board_maker import BoardMaker
from bot.board_order import BoardOrder
from bot.drawing import Drawing
from bot.looks import Looks
from bot.names import PlayerNames
from bot.service import Service
from bot.service.records import MatchView

ALICE, BOB, BOT = 11, 12, 1
GUILD, CHANNEL = 5, 6


class Person:
    """A user as an interaction shows one: an id and a display name."""

    def __init__(self, user_id: int, name: str) -> None:
        self.id = user_id
        self.display_name = name


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[Service]:
    opened = await Service.open(f"sqlite:///{tmp_path / 'parts.sqlite3'}")
    yield opened
    await opened.close()


async def start(service: Service, seats: list[tuple[int, str | None]]) -> MatchView:
    return await service.matches.start(
        "paint", {}, seats, seed=3, rated=False, turn_timeout=86400, guild_id=GUILD, channel_id=CHANNEL
    )


async def test_a_board_is_made_without_a_discord_client(service: Service) -> None:
    """Names the parts were told, the server's default theme and English (no Discord locale to ask), the
    image drawn: a player never seen reads "Player 2" rather than failing the board."""
    names = PlayerNames()  # no Discord client to look users up in
    names.remember(Person(ALICE, "Ada"), None)  # type: ignore[arg-type]
    looks = Looks(service)
    drawing = Drawing(board_processes=False)
    try:
        match = await start(service, [(ALICE, None), (BOB, None)])
        message = await BoardMaker(service, names, looks, drawing).board(match, headline="Hello")
    finally:
        await drawing.close()
    assert message.content.startswith(f"**Paint** · match #{match.id} ·"), message.content
    assert "Hello" in message.content and f"<@{ALICE}>" in message.content
    assert message.png is not None and message.png.startswith(b"\x89PNG")
    assert "Ada" in message.alt and "Player 2" in message.alt, message.alt
    assert names.known == {ALICE: "Ada"}
    assert (await looks.public_tr(GUILD)).locale == "en"
    assert await looks.theme_for(ALICE, GUILD) == "default"


async def test_the_bots_board_waits_for_the_board_owed_before_it(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A person's move that gives the bot its turn owes a board: the bot's board waits until it is out, and
    at most BOARD_ORDER_WAIT seconds if it never comes (then it is forgotten)."""
    order = BoardOrder(service.shards)
    service.matches.add_match_listener(changed=order.changed)
    match = await start(service, [(ALICE, None), (BOT, "easy")])
    assert match.user_to_move == ALICE and order.owed == {}, "a person's turn owes nothing"
    rules = service.rules(match.game)
    played = await service.matches.play(
        match.id, ALICE, rules.notation(match.state, next(iter(rules.legal_moves(match.state))))
    )
    ply = played.match.ply
    assert order.owed == {match.id: {ply}}, "the bot is to move: the board of Alice's move is owed"

    waiting = asyncio.create_task(order.wait(match.id, ply))
    await asyncio.sleep(0.2)
    assert not waiting.done(), "the bot's board waits for Alice's"
    order.out(match.id, ply)
    await asyncio.wait_for(waiting, 60)  # a limit only a hang reaches
    assert order.owed == {}

    order.changed(played.match)  # owed again; this time Alice's board never comes
    monkeypatch.setattr(bot.board_order, "BOARD_ORDER_WAIT", 0.2)
    started = asyncio.get_running_loop().time()
    await asyncio.wait_for(order.wait(match.id, ply), 60)  # a limit only a hang reaches
    assert asyncio.get_running_loop().time() - started >= 0.15, "it waited about BOARD_ORDER_WAIT"
    assert order.owed == {}, "given up on, so forgotten"
