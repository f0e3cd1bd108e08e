"""A web process of its own (`python -m bot web`) beside the bot process, on one PostgreSQL database: what a
player does on the web there reaches Discord through the store's NOTIFY. The bot process posts each move's
board exactly once and in order, as a /move would, takeback and abort requests with the Discord flow's
buttons, and never posts a second board for what it did itself. Skipped without TESSERA_TEST_DATABASE_URL
(CI sets it)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import asyncpg
import discord
import pytest

import games
from bot.service import Service
from bot.service.store.postgres import with_search_path
from bot.settings import Settings
from bot.testing.simcord import boards, button_labels, last_board, match_id_of, start_challenge
from bot.testing.world import make_settings
from bot.web import serve
from games.base import clickable_moves
from tests.service.conftest import postgres_server

SECRET = "r" * 8 + "Hq3xZ8pL2mK9wR4tY7uB1nC6dF5gJ0sA"  # random-looking: the settings refuse guessable ones


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    server = postgres_server()
    schema = f"test_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield with_search_path(server, schema)
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await admin.close()


@pytest.fixture(autouse=True)
def _no_service_listening(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's service would listen on a connection of its own, a wait SimCord cannot see through; these
    tests need only the relay's listening (its own connection, started outside the bot's work)."""
    monkeypatch.setattr(Service, "listen", lambda self: None)


@pytest.fixture
def settings(tmp_path: Path, pg_url: str) -> Settings:
    """The bot process on PostgreSQL, with the web board configured (links) but not served by it."""
    return make_settings(
        tmp_path / "data", database_url=pg_url, web_secret=SECRET, web_base_url="https://tessera.example"
    )


@pytest.fixture
async def web_process(
    pg_url: str, simcord_bot: Any, world: Any, settings: Settings
) -> AsyncIterator[Service]:
    """The bot process's web part (`start_with_bot`: the relay) and a second service on the same database:
    the separate web process."""
    served = await serve.start_with_bot(settings, simcord_bot.runtime.service, simcord_bot)
    assert served is not None and served.relay is not None and served.board is None
    web = await Service.open(pg_url)
    await asyncio.sleep(0.3)  # the relay's listening connection is up
    web.relay = served.relay  # type: ignore[attr-defined]  # (the bot process's, for the tests to hold)
    yield web
    await web.close()
    await served.close()


async def _message_with_button(world: Any, label: str) -> discord.Message:
    """The newest message in the channel with a button labelled `label`, once one is posted."""

    def found() -> discord.Message | None:
        return next((m for m in reversed(list(world.channel.history())) if label in button_labels(m)), None)

    await _wait_for(lambda: found() is not None)
    message = found()
    assert message is not None
    return message


async def _wait_for(predicate: Any, timeout: float = 60.0) -> None:
    """Until `predicate()` holds; the limit is one only a hang reaches (a busy machine only takes longer)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        assert loop.time() < end, "nothing came"
        await asyncio.sleep(0.05)


async def _web_move(web: Service, match_id: int) -> str:
    match = await web.matches.get(match_id)
    notation = clickable_moves(games.get(match.game), match.state)[0].notation
    await web.matches.play(match_id, match.seats[match.to_move].user_id, notation, expected_ply=match.ply)
    return notation


async def test_moves_made_in_a_web_process_are_posted_once_and_in_order(
    world: Any, web_process: Service
) -> None:
    await start_challenge(world, world.alice, world.bob, "paint")
    match_id = match_id_of(last_board(world.channel))
    posted = len(boards(world.channel))
    relay = web_process.relay  # type: ignore[attr-defined]
    gate = asyncio.Event()
    post = relay.relay

    async def held(change: Any) -> None:  # both moves are in before the first is posted
        await gate.wait()
        await post(change)

    relay.relay = held
    first = await _web_move(web_process, match_id)
    second = await _web_move(web_process, match_id)
    await asyncio.sleep(0.3)
    gate.set()
    await _wait_for(lambda: len(boards(world.channel)) >= posted + 2)
    await asyncio.sleep(0.5)  # nothing more comes
    new = boards(world.channel)[posted:]
    assert len(new) == 2
    assert "Move 1: " in new[0].content and first in new[0].content
    assert "Move 2: " in new[1].content and second in new[1].content
    # each board shows the position its move left, as a /move's board does (not the newest one)
    assert "· Move 2 ·" in new[0].content.split("\n")[0] and "· Move 3 ·" in new[1].content.split("\n")[0]
    # a move made in Discord is posted by its command only: the relay hears it as its own write
    match = await web_process.matches.get(match_id)
    actor = world.alice if match.seats[match.to_move].user_id == world.alice.id else world.bob
    notation = clickable_moves(games.get("paint"), match.state)[0].notation
    await actor.slash(world.channel, "move", notation=notation)
    await asyncio.sleep(0.5)
    assert len(boards(world.channel)) == posted + 3


async def test_a_resignation_in_a_web_process_is_posted_with_the_result(
    world: Any, web_process: Service
) -> None:
    await start_challenge(world, world.alice, world.bob, "paint")
    match_id = match_id_of(last_board(world.channel))
    await _web_move(web_process, match_id)
    await _web_move(web_process, match_id)
    await _wait_for(lambda: "Move 2: " in last_board(world.channel).content)
    posted = len(boards(world.channel))
    await web_process.matches.resign(match_id, world.alice.id)
    await _wait_for(lambda: len(boards(world.channel)) > posted)
    await asyncio.sleep(0.3)
    assert len(boards(world.channel)) == posted + 1
    assert f"<@{world.alice.id}> resigned" in last_board(world.channel).content


async def test_a_takeback_asked_in_a_web_process_is_posted_with_its_buttons(
    world: Any, web_process: Service
) -> None:
    await start_challenge(world, world.alice, world.bob, "paint")
    match_id = match_id_of(last_board(world.channel))
    await _web_move(web_process, match_id)
    match = await web_process.matches.get(match_id)
    mover = match.seats[1 - match.to_move].user_id
    other = world.bob if mover == world.alice.id else world.alice
    await _wait_for(lambda: "Move 1: " in last_board(world.channel).content)
    await web_process.agreements.request_takeback(match_id, mover)
    request = await _message_with_button(world, "Accept takeback")
    assert request is not None and f"<@{mover}> asks to take back" in request.content
    posted = len(boards(world.channel))
    await other.click(request, label="Accept takeback")  # the Discord flow's own button answers it
    assert (await web_process.matches.get(match_id)).ply == 0
    await _wait_for(lambda: len(boards(world.channel)) > posted)
    await asyncio.sleep(0.3)
    assert len(boards(world.channel)) == posted + 1  # the Discord flow's board, not a second one


async def test_an_abort_asked_in_a_web_process_is_posted_with_its_buttons(
    world: Any, web_process: Service
) -> None:
    await start_challenge(world, world.alice, world.bob, "paint")
    match_id = match_id_of(last_board(world.channel))
    await _web_move(web_process, match_id)
    await _web_move(web_process, match_id)  # both have moved: an abort needs everyone's agreement
    await _wait_for(lambda: "Move 2: " in last_board(world.channel).content)
    await web_process.agreements.request_abort(match_id, world.alice.id)
    request = await _message_with_button(world, "Agree to abort")
    assert request is not None
    await world.bob.click(request, label="Agree to abort")
    assert not (await web_process.matches.get(match_id)).is_active


def test_only_the_process_of_the_guilds_shard_posts_what_others_wrote() -> None:
    """Shard-safe: a change is posted by the process that owns the guild's shard, and never by the process
    that wrote it (its command posted it)."""
    from types import SimpleNamespace

    from bot.service.shards import Shards
    from bot.service.store.base import MatchChange
    from bot.web.relay import DiscordPoster, Relay

    shards = Shards(2, frozenset({0}))
    mine = next(g for g in range(1 << 22, 1 << 30, 1 << 22) if shards.owns(g))
    theirs = next(g for g in range(1 << 22, 1 << 30, 1 << 22) if not shards.owns(g))
    relay = Relay(SimpleNamespace(shards=shards), DiscordPoster(SimpleNamespace()))  # type: ignore[arg-type]
    assert relay.owns(MatchChange(mine, 1, 0, 1, "move", own=False))
    assert not relay.owns(MatchChange(theirs, 1, 0, 1, "move", own=False))
    assert not relay.owns(MatchChange(mine, 1, 0, 1, "move", own=True))
    assert MatchChange.parse(f"{mine}:7:2:3:move", own=False) == MatchChange(mine, 7, 2, 3, "move", False)
    assert MatchChange.parse("0:7:2:3:start", own=True) == MatchChange(None, 7, 2, 3, "start", True)
    assert MatchChange.parse("not a change", own=False) is None
    # one PostgreSQL database may hold several Tessera schemas: another schema's change is not ours
    assert MatchChange.parse("5:7:2:3:move:tessera", own=False, schema="tessera") is not None
    assert MatchChange.parse("5:7:2:3:move:other", own=False, schema="tessera") is None


async def test_a_match_against_the_bot_started_in_a_web_process_opens_in_order(
    world: Any, web_process: Service
) -> None:
    """A match started in a web process of its own (the Activity there) against the bot: the bot process
    posts its first board, then the bot's opening move after it, not before."""
    bot = world.env.bot
    match = await web_process.challenges.play_bot(
        "paint",
        {"white": "opponent"},  # the bot plays White and opens
        world.alice.id,
        bot_id=bot.user.id,
        level="1",
        guild_id=world.guild.id,
        channel_id=world.channel.id,
    )
    assert match.seats[match.to_move].user_id == bot.user.id
    bot.runtime.service.heard()  # the NOTIFY that wakes the bot's turns (its listening is off in these tests)
    await _wait_for(lambda: len(boards(world.channel)) >= 2)
    first, answer = boards(world.channel)[:2]
    assert "The match begins." in first.content and f"match #{match.id}" in first.content
    assert "Move 1: White" in answer.content
    assert (await web_process.matches.get(match.id)).ply == 1


def _by_id(world: Any, message_id: int) -> discord.Message:
    return next(m for m in world.channel.history() if m.id == message_id)


def _asked(world: Any, label: str) -> discord.Message | None:
    for message in reversed(list(world.channel.history())):
        if label in button_labels(message):
            return message
    return None


async def test_a_takeback_accepted_in_a_web_process_is_posted_with_what_it_took_back(
    world: Any, web_process: Service
) -> None:
    """Asked in Discord, accepted in the web process: the board the relay posts says "Taken back: <moves>",
    as the Discord flow's board does, though the log no longer holds those moves."""
    await start_challenge(world, world.alice, world.bob, "paint")
    match_id = match_id_of(last_board(world.channel))
    notation = await _web_move(web_process, match_id)
    match = await web_process.matches.get(match_id)
    mover = world.alice if match.seats[1 - match.to_move].user_id == world.alice.id else world.bob
    other = world.bob if mover is world.alice else world.alice
    await _wait_for(lambda: "Move 1: " in last_board(world.channel).content)
    await mover.slash(world.channel, "takeback")
    await _wait_for(lambda: _asked(world, "Accept takeback") is not None)
    await asyncio.sleep(0.3)  # the relay has noted the request
    posted = len(boards(world.channel))
    await web_process.agreements.accept_takeback(match_id, other.id)
    await _wait_for(lambda: len(boards(world.channel)) > posted)
    assert f"Taken back: {notation}." in last_board(world.channel).content


async def _takeback_asked_on_the_web(
    world: Any, web_process: Service
) -> tuple[int, str, int, int, discord.Message]:
    """A Paint match in which both have moved on the web, the last mover asking there to take it back,
    its request posted in Discord: the match, the move, the asker, the other player and the request."""
    await start_challenge(world, world.alice, world.bob, "paint")
    match_id = match_id_of(last_board(world.channel))
    await _web_move(web_process, match_id)
    notation = await _web_move(web_process, match_id)  # both have moved: an abort needs everyone's agreement
    await _wait_for(lambda: "Move 2: " in last_board(world.channel).content)
    match = await web_process.matches.get(match_id)
    mover = match.seats[1 - match.to_move].user_id
    other = world.bob.id if mover == world.alice.id else world.alice.id
    await web_process.agreements.request_takeback(match_id, mover)
    await _wait_for(lambda: _asked(world, "Accept takeback") is not None)
    request = _asked(world, "Accept takeback")
    assert request is not None
    return match_id, notation, mover, other, request


async def test_a_takeback_declined_or_an_abort_withdrawn_in_a_web_process_closes_the_discord_request(
    world: Any, web_process: Service
) -> None:
    match_id, _, _, other, request = await _takeback_asked_on_the_web(world, web_process)
    await web_process.agreements.decline_takeback(match_id, other)
    await _wait_for(lambda: f"<@{other}> declined the takeback." in _by_id(world, request.id).content)
    assert button_labels(_by_id(world, request.id)) == []
    await world.alice.slash(world.channel, "abort")  # asked in Discord, withdrawn on the web
    vote = _asked(world, "Agree to abort")
    assert vote is not None
    await asyncio.sleep(0.3)  # the relay has noted the vote
    await web_process.agreements.withdraw_abort(match_id, world.alice.id)
    said = f"<@{world.alice.id}> withdrew their abort request."
    await _wait_for(lambda: said in _by_id(world, vote.id).content)
    assert button_labels(_by_id(world, vote.id)) == []


async def test_a_challenge_accepted_in_a_web_process_updates_its_message(
    world: Any, web_process: Service, simcord_bot: Any
) -> None:
    """Accepted in the Activity of a web process of its own: the challenge message in the channel says so
    and loses its buttons, and the first board follows."""
    asked = await world.alice.slash(world.channel, "play", game="paint", opponent=world.bob)
    challenge = (await web_process.challenges.pending(world.channel.id))[0]
    web_process.challenges.now = simcord_bot.runtime.service.now  # SimCord's clock made the challenge
    match = await web_process.challenges.accept(challenge.id, world.bob.id)
    await _wait_for(lambda: f"Accepted: match #{match.id}." in _by_id(world, asked.response.id).content)
    assert button_labels(_by_id(world, asked.response.id)) == []
    await _wait_for(lambda: any("The match begins." in b.content for b in boards(world.channel)))


async def test_a_takeback_against_the_bot_in_a_web_process_is_posted_with_what_it_took_back(
    world: Any, web_process: Service
) -> None:
    """Against the bot a casual match takes back at once, with no request the relay could have heard: the
    board it posts still says "Taken back: <moves>" (the store keeps the moves a takeback undid)."""
    bot = world.env.bot
    match = await web_process.challenges.play_bot(
        "paint",
        {"white": "opponent", "rated": False},
        world.alice.id,
        bot_id=bot.user.id,
        level="1",
        guild_id=world.guild.id,
        channel_id=world.channel.id,
    )
    bot.runtime.service.heard()  # the bot opens (its listening is off in these tests)
    await _wait_for(lambda: any("Move 1: White" in b.content for b in boards(world.channel)))
    notation = await _web_move(web_process, match.id)  # Alice's answer; the bot is not woken to reply
    await _wait_for(lambda: "Move 2: " in last_board(world.channel).content)
    posted = len(boards(world.channel))
    taken = await web_process.agreements.request_takeback(match.id, world.alice.id)
    assert [m.notation for m in taken.undone] == [notation]  # type: ignore[union-attr]
    await _wait_for(lambda: len(boards(world.channel)) > posted)
    assert f"Taken back: {notation}." in last_board(world.channel).content


async def _restart_relay(world: Any, web_process: Service) -> None:
    """The bot process restarts: its relay and its record of posted messages start afresh (what they knew
    in memory is gone)."""
    from bot.board_posts import BoardPosts
    from bot.web.relay import DiscordPoster, Relay

    bot = world.env.bot
    old = web_process.relay  # type: ignore[attr-defined]
    await old.close()
    parts = bot.parts
    bot.parts = replace(parts, posts=BoardPosts(parts.service, parts.channels, parts.order))
    fresh = Relay(bot.runtime.service, DiscordPoster(bot))
    fresh.start()
    web_process.relay = fresh  # type: ignore[attr-defined]
    await asyncio.sleep(0.3)  # its listening connection is up


async def test_a_restart_between_a_takeback_request_and_its_answer_loses_nothing(
    world: Any, web_process: Service
) -> None:
    """The bot process restarts between a request asked on the web and its answer there: a decline still
    rewords the request message and takes its buttons off, naming who declined; an accept still posts the
    board with its "Taken back" line, and the request says it was accepted, without its buttons."""
    match_id, notation, mover, other, request = await _takeback_asked_on_the_web(world, web_process)
    await _restart_relay(world, web_process)
    await web_process.agreements.decline_takeback(match_id, other)
    await _wait_for(lambda: f"<@{other}> declined the takeback." in _by_id(world, request.id).content)
    assert button_labels(_by_id(world, request.id)) == []

    await web_process.agreements.request_takeback(match_id, mover)
    await _wait_for(lambda: (_asked(world, "Accept takeback") or request).id != request.id)
    second = _asked(world, "Accept takeback")
    assert second is not None
    await _restart_relay(world, web_process)
    posted = len(boards(world.channel))
    await web_process.agreements.accept_takeback(match_id, other)
    await _wait_for(lambda: len(boards(world.channel)) > posted)
    assert f"Taken back: {notation}." in last_board(world.channel).content
    await _wait_for(lambda: button_labels(_by_id(world, second.id)) == [])
    assert _by_id(world, second.id).content == "Takeback accepted."  # as its own Accept button says


async def test_a_partial_accept_in_a_web_process_updates_who_is_still_to_answer(
    world: Any, web_process: Service
) -> None:
    """Three players: one of the two asked accepts a takeback (or agrees to abort) in a web process; the
    request message in Discord then waits for the last one only, with its buttons, as its own Accept button
    leaves it; that one's decline is then worded with their name."""
    alice, bob, carol = world.alice.id, world.bob.id, world.carol.id
    lobby = await web_process.lobbies.create(
        "tilingking", {}, alice, guild_id=world.guild.id, channel_id=world.channel.id, max_players=3
    )
    for user in (bob, carol):
        await web_process.lobbies.join(lobby.id, user)
    match = await web_process.lobbies.start(lobby.id, alice)
    for _ in range(3):  # everyone moves once
        await _web_move(web_process, match.id)
    await _wait_for(lambda: any("Move 3: " in b.content for b in boards(world.channel)))
    match = await web_process.matches.get(match.id)
    asker = match.seats[(match.to_move - 1) % 3].user_id
    first, last = [p.user_id for p in match.seats if p.user_id != asker]
    await web_process.agreements.request_takeback(match.id, asker)
    await _wait_for(lambda: _asked(world, "Accept takeback") is not None)
    request = _asked(world, "Accept takeback")
    assert request is not None and f"Waiting for <@{first}>, <@{last}>." in request.content
    await web_process.agreements.accept_takeback(match.id, first)
    await _wait_for(lambda: f"Waiting for <@{last}>." in _by_id(world, request.id).content)
    assert "Accept takeback" in button_labels(_by_id(world, request.id))
    await web_process.agreements.decline_takeback(match.id, last)
    await _wait_for(lambda: f"<@{last}> declined the takeback." in _by_id(world, request.id).content)
    assert button_labels(_by_id(world, request.id)) == []

    await web_process.agreements.request_abort(match.id, asker)
    await _wait_for(lambda: _asked(world, "Agree to abort") is not None)
    vote = _asked(world, "Agree to abort")
    assert vote is not None and f"<@{first}>, <@{last}>: agree?" in vote.content
    await web_process.agreements.request_abort(match.id, first)
    await _wait_for(lambda: f"(no result). <@{last}>: agree?" in _by_id(world, vote.id).content)
    assert "Agree to abort" in button_labels(_by_id(world, vote.id))
    assert carol in (asker, first, last)


def _now(world: Any, message_id: int) -> Any:
    """A message of the channel as it is now."""
    return next(m for m in world.channel.history() if m.id == message_id)


async def test_draw_and_rematch_offers_made_in_a_web_process_are_posted_with_their_buttons(
    world: Any, web_process: Service
) -> None:
    """A draw offered in the web process is posted with Accept draw and Decline; declined there, its
    message says so and loses its buttons; offered again there, a move lapses it; a rematch offered there
    is accepted with its Discord button."""
    alice, bob = world.alice, world.bob
    await start_challenge(world, alice, bob, "paint")
    match_id = match_id_of(last_board(world.channel))
    await _web_move(web_process, match_id)
    await _web_move(web_process, match_id)
    await _wait_for(lambda: "Move 2: " in last_board(world.channel).content)
    match = await web_process.matches.get(match_id)
    first = match.seats[0].user_id
    other = bob.id if first == alice.id else alice.id
    await web_process.draws.offer(match_id, first)
    offer = await _message_with_button(world, "Accept draw")
    assert f"<@{first}> offers a draw in match #{match_id}" in offer.content
    await web_process.draws.decline(match_id, other)
    await _wait_for(lambda: button_labels(_now(world, offer.id)) == [])
    assert _now(world, offer.id).content == "The draw offer was declined or withdrawn."

    await web_process.draws.offer(match_id, other)
    again = await _message_with_button(world, "Accept draw")
    await _web_move(web_process, match_id)
    await _wait_for(lambda: button_labels(_now(world, again.id)) == [])
    assert _now(world, again.id).content == "The match moved on, so the draw offer lapsed."

    await web_process.matches.resign(match_id, alice.id)
    await _wait_for(lambda: "Rematch" in button_labels(last_board(world.channel)))
    await web_process.rematches.offer(match_id, alice.id)
    rematch = await _message_with_button(world, "Accept rematch")
    await bob.click(rematch, label="Accept rematch")
    assert await web_process.rematches.rematch_of(match_id) is not None
    await _wait_for(lambda: any("Rematch of match" in m.content for m in world.channel.history()))
