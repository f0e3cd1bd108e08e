"""The service reads each row once per flow and hands it along, never across flows: the match a move, a
resignation or a timeout ends is not read back (its row is what the write left, and equals a fresh read);
a match handed to `play` is used as read, and the store's ply check refuses it once the match moved on."""

from __future__ import annotations

import asyncio
from dataclasses import fields, replace

import pytest

from bot.service import Service
from bot.service.errors import StaleMove
from bot.service.records import Finished, GuildSettings, MatchRecord, Played
from tests.service.conftest import FakeClock
from tests.service.helpers import ALICE, BOB, CHANNEL, everyone_moves, start_match
from tests.service.reads import CHALLENGE_ROW, GUILD_SETTINGS, LOBBY_ROW, MATCH_ROW, counting_reads

CAROL = 3


def columns(row: MatchRecord) -> dict[str, object]:
    """A match's stored columns (a MatchView's position and turn left out)."""
    return {f.name: getattr(row, f.name) for f in fields(MatchRecord)}


async def stored(service: Service, match_id: int) -> dict[str, object]:
    row = await service.store.get_match(match_id)
    assert row is not None
    return columns(row)


async def test_a_finishing_move_reads_the_match_once_and_returns_what_was_stored(service: Service) -> None:
    match = await start_match(service, options={"target": 3})
    await service.matches.play(match.id, ALICE, "1")
    with counting_reads(service) as reads:
        played = await service.matches.play(match.id, BOB, "2")
    assert played.finished is not None and played.finished.winners == (BOB,)
    assert reads.of(MATCH_ROW) == 1, reads.reads
    assert columns(played.match) == await stored(service, match.id)
    assert columns(played.finished.match) == await stored(service, match.id)


async def test_a_match_handed_along_is_not_read_again(service: Service) -> None:
    match = await start_match(service, options={"target": 5})
    with counting_reads(service) as reads:
        here = await service.matches.in_channel(CHANNEL)
        played = await service.matches.play(here, ALICE, "1")
    assert reads.of(MATCH_ROW) == 1, reads.reads
    assert columns(played.match) == await stored(service, match.id)


async def test_a_match_handed_along_after_it_moved_on_is_refused_and_nothing_is_stored(
    service: Service,
) -> None:
    """Two /move of one player racing: both read the match at ply 0; the second must not play at ply 1."""
    match = await start_match(service, options={"target": 9})
    first = await service.matches.in_channel(CHANNEL)
    second = await service.matches.in_channel(CHANNEL)
    await service.matches.play(first, ALICE, "1")
    with pytest.raises(StaleMove):
        await service.matches.play(second, ALICE, "2")
    assert [m.notation for m in await service.store.moves(match.id)] == ["1"]
    assert (await service.matches.get(match.id)).user_to_move == BOB


async def test_a_resignation_and_an_abort_return_what_was_stored(service: Service) -> None:
    match = await start_match(service, options={"target": 9})
    await everyone_moves(service, match.id)
    resigned = await service.matches.resign(match.id, ALICE)
    assert isinstance(resigned, Finished) and resigned.winners == (BOB,)
    assert columns(resigned.match) == await stored(service, match.id)

    early = await start_match(service, options={"target": 9}, channel=CHANNEL + 1)
    aborted = await service.matches.resign(early.id, BOB)
    assert isinstance(aborted, Finished) and aborted.match.status == "aborted"
    assert columns(aborted.match) == await stored(service, early.id)


async def test_a_timeout_returns_what_was_stored(service: Service, clock: FakeClock) -> None:
    match = await start_match(service, options={"target": 9, "turn_timeout": 1})
    await everyone_moves(service, match.id)
    clock.advance(61)
    [event] = await service.matches.expire_due()
    assert event.finished is not None
    assert columns(event.finished.match) == await stored(service, match.id)


async def test_a_takeback_request_open_at_the_end_is_gone_from_the_returned_match(service: Service) -> None:
    match = await start_match(service, options={"target": 9})
    await everyone_moves(service, match.id)
    await service.agreements.request_takeback(match.id, BOB)
    ended = await service.matches.resign(match.id, ALICE)
    assert isinstance(ended, Finished | Played)
    assert ended.match.takeback is None
    assert columns(ended.match) == await stored(service, match.id)


async def test_accept_reads_the_challenge_and_the_settings_once(service: Service) -> None:
    challenge = await service.challenges.create("race", {}, ALICE, BOB, guild_id=10, channel_id=CHANNEL)
    with counting_reads(service) as reads:
        match = await service.challenges.accept(challenge.id, BOB)
    assert match.turn_timeout == service.guilds.default_turn_timeout
    assert reads.of(CHALLENGE_ROW) == 1, reads.reads
    assert reads.of(GUILD_SETTINGS) == 1, reads.reads


async def test_a_lobby_start_reads_the_lobby_and_the_settings_once(service: Service) -> None:
    lobby = await service.lobbies.create("hoard", {}, ALICE, guild_id=10, channel_id=CHANNEL)
    await service.lobbies.join(lobby.id, BOB)
    await service.lobbies.join(lobby.id, CAROL)
    with counting_reads(service) as reads:
        match = await service.lobbies.start(lobby.id, ALICE)
    assert sorted(p.user_id for p in match.seats) == [ALICE, BOB, CAROL]
    assert reads.of(LOBBY_ROW) == 1, reads.reads
    assert reads.of(GUILD_SETTINGS) == 1, reads.reads


async def test_a_flow_reads_a_servers_settings_once_and_keeps_nothing_past_its_end(service: Service) -> None:
    """`Guilds.flow`: one read per flow, the flow's own writes seen, and a task it started reads afresh
    (another process's change is never hidden from it), during the flow or after it."""
    guilds = service.guilds
    await guilds.update(10, turn_timeout=600)
    later: list[asyncio.Task[GuildSettings]] = []
    go_on = asyncio.Event()

    async def after_the_flow() -> GuildSettings:
        await go_on.wait()
        return await guilds.settings(10)

    with counting_reads(service) as reads:
        with guilds.flow():
            assert (await guilds.settings(10)).turn_timeout == 600
            assert await guilds.turn_timeout(10, 0) == 600
            later.append(asyncio.create_task(after_the_flow()))
            assert reads.of(GUILD_SETTINGS) == 1, reads.reads
            assert (await asyncio.create_task(guilds.settings(10))).turn_timeout == 600  # not the flow's read
            assert reads.of(GUILD_SETTINGS) == 2, reads.reads
            changed = await guilds.update(10, threads=True)  # reads the settings it changes: the flow's read
            assert changed.threads and (await guilds.settings(10)).threads  # the flow sees its own write
            assert reads.of(GUILD_SETTINGS) == 3, reads.reads
        await service.store.put_guild_settings(replace(changed, turn_timeout=900))  # another process
        go_on.set()
        assert (await later[0]).turn_timeout == 900
        assert reads.of(GUILD_SETTINGS) == 4, reads.reads


@pytest.mark.parametrize("answer", ["decline", "withdraw", "expire"])
async def test_closing_a_challenge_reads_it_once_and_returns_what_was_stored(
    service: Service, clock: FakeClock, answer: str
) -> None:
    challenge = await service.challenges.create("race", {}, ALICE, BOB, guild_id=10, channel_id=CHANNEL)
    with counting_reads(service) as reads:
        if answer == "decline":
            closed = await service.challenges.decline(challenge.id, BOB)
        elif answer == "withdraw":
            closed = await service.challenges.withdraw(challenge.id, ALICE)
        else:
            clock.advance(service.challenges.ttl + 1)
            [closed] = await service.challenges.expire()
    assert closed.status == {"decline": "declined", "withdraw": "withdrawn", "expire": "expired"}[answer]
    assert closed == await service.store.get_challenge(challenge.id)
    assert reads.of(CHALLENGE_ROW) == (0 if answer == "expire" else 1), reads.reads
