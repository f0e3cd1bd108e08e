"""Challenges, lobbies, seats and options."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from bot.service import Service
from bot.service.errors import (
    AlreadyJoined,
    BadAiLevel,
    ChallengeClosed,
    ChannelBusy,
    ChannelNotAllowed,
    LobbyClosed,
    LobbyFull,
    NotEnoughPlayers,
    NotHost,
    NotInLobby,
    SelfChallenge,
    ServiceError,
    UnknownChallenge,
    UnknownGame,
)
from bot.service.options import match_options
from games.base import InvalidOptions
from tests.service.conftest import FakeClock, ServiceFactory
from tests.service.helpers import ALICE, BOB, BOT, CAROL, CHANNEL, DAVE, GUILD, next_wakeup, start_match


async def test_accepting_a_challenge_starts_the_match_with_resolved_options(service: Service) -> None:
    challenge = await service.challenges.create(
        "race", {"target": "12"}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL
    )
    assert challenge.status == "pending" and challenge.options["target"] == 12
    assert [c.id for c in await service.challenges.pending(CHANNEL)] == [challenge.id]
    match = await service.challenges.accept(challenge.id, BOB)
    assert match.options == {"target": 12} and match.state.target == 12
    assert sorted(match.human_user_ids) == [ALICE, BOB] and match.channel_id == CHANNEL
    assert (await service.challenges.get(challenge.id)).match_id == match.id
    assert await service.challenges.pending() == []
    with pytest.raises(ChallengeClosed, match="already accepted"):
        await service.challenges.accept(challenge.id, BOB)


async def test_accepting_into_a_thread_uses_the_thread_as_the_channel(service: Service) -> None:
    challenge = await service.challenges.create("race", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL)
    match = await service.challenges.accept(challenge.id, BOB, channel_id=777)
    assert (await service.matches.in_channel(777)).id == match.id


async def test_challenge_refusals(service: Service) -> None:
    with pytest.raises(SelfChallenge, match="cannot challenge yourself"):
        await service.challenges.create("race", {}, ALICE, ALICE, guild_id=GUILD, channel_id=CHANNEL)
    with pytest.raises(UnknownGame, match="no game called 'chess'"):
        await service.challenges.create("chess", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL)
    with pytest.raises(InvalidOptions, match="`target` must be at least 3"):
        await service.challenges.create("race", {"target": 1}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL)
    with pytest.raises(InvalidOptions, match="unknown option 'colour'"):
        await service.challenges.create(
            "race", {"colour": "red"}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL
        )
    with pytest.raises(UnknownChallenge):
        await service.challenges.accept(99, BOB)
    await start_match(service)
    with pytest.raises(ChannelBusy, match="already has a match"):
        await service.challenges.create("race", {}, CAROL, DAVE, guild_id=GUILD, channel_id=CHANNEL)


async def test_a_second_match_in_the_channel_is_refused_at_accept_time(service: Service) -> None:
    first = await service.challenges.create("race", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL)
    second = await service.challenges.create("race", {}, CAROL, DAVE, guild_id=GUILD, channel_id=CHANNEL)
    await service.challenges.accept(first.id, BOB)
    with pytest.raises(ChannelBusy):
        await service.challenges.accept(second.id, DAVE)
    assert (await service.challenges.get(second.id)).status == "pending"


async def test_only_the_right_player_answers_a_challenge(service: Service) -> None:
    challenge = await service.challenges.create("race", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL)
    with pytest.raises(ServiceError, match="who was challenged"):
        await service.challenges.accept(challenge.id, CAROL)
    with pytest.raises(ServiceError, match="who was challenged"):
        await service.challenges.decline(challenge.id, ALICE)
    with pytest.raises(ServiceError, match="who sent this challenge"):
        await service.challenges.withdraw(challenge.id, BOB)
    assert (await service.challenges.decline(challenge.id, BOB)).status == "declined"
    with pytest.raises(ChallengeClosed, match="declined"):
        await service.challenges.withdraw(challenge.id, ALICE)
    other = await service.challenges.create("race", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL)
    assert (await service.challenges.withdraw(other.id, ALICE)).status == "withdrawn"


async def test_challenges_expire_once(service: Service, clock: FakeClock) -> None:
    challenge = await service.challenges.create("race", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL)
    assert await next_wakeup(service) == challenge.expires_at
    clock.advance(service.challenges.ttl + 1)
    expired = await service.challenges.expire()
    assert [c.id for c in expired] == [challenge.id] and expired[0].status == "expired"
    assert await service.challenges.expire() == []
    with pytest.raises(ChallengeClosed, match="expired"):
        await service.challenges.accept(challenge.id, BOB)


async def test_an_overdue_challenge_cannot_be_accepted_even_before_the_clock_runs(
    service: Service, clock: FakeClock
) -> None:
    challenge = await service.challenges.create("race", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL)
    clock.advance(service.challenges.ttl + 1)
    with pytest.raises(ChallengeClosed, match="expired"):
        await service.challenges.accept(challenge.id, BOB)


@pytest.mark.parametrize(
    ("game", "option", "value", "seat0"),
    [
        ("paintscape", "balancer", "challenger", ALICE),
        ("paintscape", "balancer", "opponent", BOB),
        ("paint", "white", "challenger", ALICE),
        ("paint", "white", "opponent", BOB),
        ("race", "first", "opponent", BOB),
    ],
)
async def test_the_seat_option_decides_who_sits_in_seat_zero(
    open_service: ServiceFactory, game: str, option: str, value: str, seat0: int
) -> None:
    service = await open_service()
    try:
        service.rules(game)
    except UnknownGame:
        pytest.skip(f"{game} engine not available yet")
    specs = {o.name: o for o in match_options(service.rules(game))}
    assert specs[option].default == "random" and "rated" in specs and "turn_timeout" in specs
    challenge = await service.challenges.create(
        game, {option: value}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL
    )
    match = await service.challenges.accept(challenge.id, BOB)
    assert match.seats[0].user_id == seat0


async def test_random_seating_gives_both_players_seat_zero(open_service: ServiceFactory) -> None:
    seat0: Counter[int] = Counter()
    service = await open_service(seed=7)
    for channel in range(1, 41):
        challenge = await service.challenges.create(
            "race", {}, ALICE, BOB, guild_id=GUILD, channel_id=channel
        )
        seat0[(await service.challenges.accept(challenge.id, BOB)).seats[0].user_id] += 1
    assert seat0[ALICE] > 5 and seat0[BOB] > 5


async def test_the_match_timeout_option_and_the_guild_setting(service: Service, clock: FakeClock) -> None:
    match = await start_match(service, options={"turn_timeout": 30})
    assert match.turn_timeout == 1800 and match.deadline == clock() + 1800
    settings = await service.guilds.update(GUILD, turn_timeout=3600, threads=True, allowed_channels=[5, 6])
    assert (await service.guilds.settings(GUILD)) == settings
    with pytest.raises(ChannelNotAllowed):
        await service.challenges.create("race", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL + 1)
    other = await start_match(service, channel=5)
    assert other.turn_timeout == 3600
    untouched = await service.guilds.update(GUILD, threads=False)
    assert untouched.turn_timeout == 3600 and untouched.allowed_channels == (5, 6)
    with pytest.raises(Exception, match="between one minute and 14 days"):
        await service.guilds.update(GUILD, turn_timeout=5)


async def test_ai_matches(service: Service) -> None:
    with pytest.raises(BadAiLevel, match="from 1 to 8"):
        await service.challenges.play_bot(
            "race", {}, ALICE, bot_id=BOT, level="godlike", guild_id=GUILD, channel_id=1
        )
    match = await service.challenges.play_bot(
        "race", {"first": "opponent"}, ALICE, bot_id=BOT, level="1", guild_id=GUILD, channel_id=1
    )
    seat = match.ai_seat_to_move()
    assert seat is not None and seat.seat == 0 and seat.player_key == "ai:1" and match.deadline is None


# ----------------------------------------------------------------------------------------------- lobbies


async def test_a_lobby_fills_and_starts_in_joining_order(service: Service) -> None:
    lobby = await service.lobbies.create(
        "hoard", {"target": 5}, ALICE, guild_id=GUILD, channel_id=CHANNEL, max_players=3, seat_order="joined"
    )
    assert lobby.max_players == 3 and service.lobbies.min_players(lobby) == 2
    with pytest.raises(NotEnoughPlayers, match="has 1 of the 2 players"):
        await service.lobbies.start(lobby.id, ALICE)
    await service.lobbies.join(lobby.id, BOB)
    with pytest.raises(AlreadyJoined):
        await service.lobbies.join(lobby.id, BOB)
    lobby = await service.lobbies.join(lobby.id, BOT, ai_level="5")
    assert [m.user_id for m in lobby.members] == [ALICE, BOB, BOT]
    with pytest.raises(LobbyFull, match="3 players"):
        await service.lobbies.join(lobby.id, CAROL)
    with pytest.raises(NotHost):
        await service.lobbies.start(lobby.id, BOB)
    match = await service.lobbies.start(lobby.id, ALICE)
    assert [(s.user_id, s.ai_level) for s in match.seats] == [(ALICE, None), (BOB, None), (BOT, "5")]
    assert (await service.lobbies.get(lobby.id)).match_id == match.id
    with pytest.raises(LobbyClosed):
        await service.lobbies.join(lobby.id, CAROL)


async def test_leaving_a_lobby_and_the_host_closing_it(service: Service) -> None:
    lobby = await service.lobbies.create("hoard", {}, ALICE, guild_id=GUILD, channel_id=CHANNEL)
    assert lobby.max_players == 4
    await service.lobbies.join(lobby.id, BOB)
    lobby = await service.lobbies.leave(lobby.id, BOB)
    assert [m.user_id for m in lobby.members] == [ALICE]
    with pytest.raises(NotInLobby):
        await service.lobbies.leave(lobby.id, BOB)
    assert [x.id for x in await service.lobbies.open_in(CHANNEL)] == [lobby.id]
    closed = await service.lobbies.leave(lobby.id, ALICE)
    assert closed.status == "closed" and await service.lobbies.open_in() == []


async def test_lobby_sizes_and_random_seats(service: Service) -> None:
    with pytest.raises(Exception, match="2 to 4 players"):
        await service.lobbies.create("hoard", {}, ALICE, guild_id=GUILD, channel_id=CHANNEL, max_players=5)
    orders: set[tuple[Any, ...]] = set()
    for channel in range(1, 13):
        lobby = await service.lobbies.create("hoard", {}, ALICE, guild_id=GUILD, channel_id=channel)
        for user in (BOB, CAROL, DAVE):
            await service.lobbies.join(lobby.id, user)
        match = await service.lobbies.start(lobby.id, ALICE)
        orders.add(tuple(s.user_id for s in match.seats))
        assert sorted(s.user_id for s in match.seats) == [ALICE, BOB, CAROL, DAVE]
    assert len(orders) > 1


async def test_accepting_twice_at_once_starts_one_match(service: Service) -> None:
    import asyncio

    challenge = await service.challenges.create("race", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL)
    results = await asyncio.gather(
        service.challenges.accept(challenge.id, BOB),
        service.challenges.accept(challenge.id, BOB),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert [type(r) for r in results if isinstance(r, Exception)] == [ChallengeClosed]
    assert len(await service.store.match_ids()) == 1


async def test_starting_a_lobby_twice_at_once_starts_one_match(service: Service) -> None:
    import asyncio

    lobby = await service.lobbies.create("hoard", {}, ALICE, guild_id=GUILD, channel_id=CHANNEL)
    await service.lobbies.join(lobby.id, BOB)
    results = await asyncio.gather(
        service.lobbies.start(lobby.id, ALICE), service.lobbies.start(lobby.id, ALICE), return_exceptions=True
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert [type(r) for r in results if isinstance(r, Exception)] == [LobbyClosed]
