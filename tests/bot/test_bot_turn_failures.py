"""Bad days for the bot's own turn, through the real bot: a network error while it shows "typing..." (an
aiohttp or OS error, not a discord.HTTPException) never stops its move, not even right after a start-up
without network, and a board that could not be posted is posted again after the backoff (SimCord's virtual
clock moves the 5 seconds)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import aiohttp
import discord
import pytest
import simcord.http.client
from prometheus_client import REGISTRY

from bot.board_order import BOARD_ORDER_WAIT
from bot.testing.simcord import boards, bot_member, last_board, match_id_of

pytestmark = pytest.mark.simcord(settle_timeout=60)


def dns_failure() -> aiohttp.ClientConnectorError:
    key = aiohttp.client_reqrep.ConnectionKey("discord.com", 443, True, True, None, None, None)
    return aiohttp.ClientConnectorError(key, OSError(-3, "Temporary failure in name resolution"))


FAILURES = {"aiohttp": dns_failure, "oserror": lambda: OSError(101, "Network is unreachable")}


def typing_fails(monkeypatch: pytest.MonkeyPatch, failure: str) -> list[int]:
    """Make every "typing..." call of every bot generation raise `failure`; returns the channels tried."""
    tried: list[int] = []

    async def send_typing(self: Any, channel_id: int) -> None:
        tried.append(int(channel_id))
        raise FAILURES[failure]()

    monkeypatch.setattr(simcord.http.client.FakeHTTPClient, "send_typing", send_typing, raising=False)
    return tried


def bot_post_errors() -> float:
    return REGISTRY.get_sample_value("tessera_errors_total", {"kind": "bot_post"}) or 0.0


async def start_against_bot(world: Any) -> Any:
    await world.alice.slash(
        world.channel, "play", game="paint", opponent=bot_member(world), level="1", first="challenger"
    )
    return last_board(world.channel)


@pytest.mark.parametrize("failure", sorted(FAILURES))
async def test_a_network_error_while_typing_does_not_stop_the_bots_move(
    world: Any, monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    alice, channel = world.alice, world.channel
    await start_against_bot(world)
    tried = typing_fails(monkeypatch, failure)
    await alice.slash(channel, "move", notation="c1-c3")
    assert tried == [channel.id], "the bot tried to show typing"
    board = last_board(channel)
    assert "Tessera" in board.content and f"<@{alice.id}>, your turn as White" in board.content


@pytest.mark.parametrize("failure", sorted(FAILURES))
async def test_after_a_start_up_without_network_the_bot_still_takes_its_turn(
    world: Any, make_bot: Any, monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    alice, channel, env = world.alice, world.channel, world.env
    match_id = match_id_of(await start_against_bot(world))
    # Alice's move is stored but the bot never thought about it (as when the process stopped right after
    # it): its turns are stopped first, so the commit schedules nothing.
    service = env.bot.runtime.service
    assert service.bot_turns is not None
    await service.bot_turns.close()
    await service.matches.play(match_id, alice.id, "c1-c3")
    before = len(boards(channel))
    tried = typing_fails(monkeypatch, failure)
    await env.restart_bot(make_bot())
    assert tried, "the resumed turn tried to show typing"
    assert len(boards(channel)) == before + 1
    assert f"<@{alice.id}>, your turn as White" in last_board(channel).content
    assert (await env.bot.runtime.service.matches.get(match_id)).ply == 2


async def test_a_board_the_bot_could_not_post_is_posted_after_the_backoff(
    world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, channel, env = world.alice, world.channel, world.env
    await start_against_bot(world)
    before = len(boards(channel))
    send_message = simcord.http.client.FakeHTTPClient.send_message
    failed: list[int] = []

    def fails_once(self: Any, channel_id: int, **kwargs: Any) -> Any:
        if not failed:
            failed.append(int(channel_id))
            raise dns_failure()
        return send_message(self, channel_id, **kwargs)

    monkeypatch.setattr(simcord.http.client.FakeHTTPClient, "send_message", fails_once)
    errors_before = bot_post_errors()
    started = env.now()
    await alice.slash(channel, "move", notation="c1-c3")
    # The bot's board failed once, and SimCord's settling ran the 5-second wait on its virtual clock.
    assert failed == [channel.id]
    assert (env.now() - started).total_seconds() >= 5
    assert bot_post_errors() == errors_before + 1, "the failure is counted on /metrics"
    # Alice's own board (the command's reply), then the bot's, posted once.
    assert len(boards(channel)) == before + 2
    assert f"<@{alice.id}>, your turn as White" in last_board(channel).content
    await env.advance_time(600)
    assert len(boards(channel)) == before + 2, "posted once, not again"


async def test_a_network_error_while_taking_buttons_off_old_boards_stops_nothing(
    world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Taking the buttons off a superseded board is an edit of an old message: cosmetic. Its failure
    neither stops Alice's reply and the bot's move nor makes the bot post its board twice."""
    alice, channel = world.alice, world.channel
    await start_against_bot(world)
    before = len(boards(channel))
    edits: list[int] = []

    async def edit_message(self: Any, channel_id: int, message_id: int, **kwargs: Any) -> Any:
        edits.append(int(message_id))
        raise dns_failure()

    monkeypatch.setattr(simcord.http.client.FakeHTTPClient, "edit_message", edit_message)
    await alice.slash(channel, "move", notation="c1-c3")
    assert edits, "the bot tried to take the old buttons off"
    assert len(boards(channel)) == before + 2, "Alice's board and the bot's, each once"
    assert f"<@{alice.id}>, your turn as White" in last_board(channel).content


async def test_a_failed_board_reply_does_not_hold_up_the_bots_move(
    world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice's /move is stored but its board reply fails (the network, once): the service scheduled the
    bot's turn when it stored the move, so the bot still moves and posts its board within seconds on
    SimCord's virtual clock, not at the 5-minute sweep; Alice sees what went wrong."""
    alice, channel, env = world.alice, world.channel, world.env
    match_id = match_id_of(await start_against_bot(world))
    before = len(boards(channel))
    send = discord.Webhook.send
    failed: list[str] = []

    async def reply_fails_once(self: discord.Webhook, *args: Any, **kwargs: Any) -> Any:
        if not failed:
            failed.append(str(kwargs.get("content", ""))[:40])
            raise dns_failure()
        return await send(self, *args, **kwargs)

    monkeypatch.setattr(discord.Webhook, "send", reply_fails_once)
    started = env.now()
    await alice.slash(channel, "move", notation="c1-c3")
    assert failed and "match #" in failed[0], "Alice's board reply was the send that failed"
    assert (await env.bot.runtime.service.matches.get(match_id)).ply == 2, "the bot answered"
    assert len(boards(channel)) == before + 1, "only the bot's board came"
    assert f"<@{alice.id}>, your turn as White" in last_board(channel).content
    assert (env.now() - started).total_seconds() < BOARD_ORDER_WAIT, "the failed board is not waited for"
    (error,) = env.errors
    assert isinstance(error.__cause__, aiohttp.ClientConnectorError), "the failed reply, nothing else"


async def test_a_slow_board_still_comes_before_the_bots_board(
    world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot thinks as soon as Alice's button press is stored, but its board waits for hers: her board
    (a new message in the channel) that is slower than the bot's whole turn (it is sent 0.3 s of real
    time after the bot's board was drawn) is still the board above the bot's in the channel."""
    alice, channel, env = world.alice, world.channel, world.env
    await alice.slash(
        channel, "play", game="paintscape", opponent=bot_member(world), level="1", first="challenger"
    )
    board = last_board(channel)
    maker = env.bot.parts.boards
    played_board = maker.played_board
    send_message = simcord.http.client.FakeHTTPClient.send_message
    drawn: list[int] = []
    sent: list[str] = []

    async def drawing(played: Any, **kwargs: Any) -> Any:
        message = await played_board(played, **kwargs)
        if kwargs.get("viewer") is None:  # the bot's board
            drawn.append(played.move.ply)
        return message

    async def slow_first(self: Any, channel_id: int, **kwargs: Any) -> Any:
        sent.append(str(kwargs.get("params", kwargs))[:40])
        if len(sent) == 1:  # Alice's board
            while not drawn:
                await asyncio.sleep(0.1)
            await asyncio.to_thread(time.sleep, 0.3)  # real time, in which the bot's board could go out
        return await send_message(self, channel_id, **kwargs)

    monkeypatch.setattr(maker, "played_board", drawing)
    monkeypatch.setattr(simcord.http.client.FakeHTTPClient, "send_message", slow_first)
    before = len(boards(channel))
    await alice.click(board, label="Done swapping")
    assert drawn, "the bot moved"
    new = [b.content for b in boards(channel)[before:]]
    assert "done swapping" in new[0], f"Alice's board first: {new}"
    assert len(new) >= 2 and not any("done swapping" in b for b in new[1:])
    assert f"<@{alice.id}>, your turn as" in new[-1], "the bot's board last"
