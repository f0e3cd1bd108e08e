"""Challenges, lobbies, seats and options."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from bot.matches import (
    AlreadyJoined,
    BadAiLevel,
    ChallengeClosed,
    ChannelBusy,
    ChannelNotAllowed,
    LobbyClosed,
    LobbyFull,
    MatchService,
    NotEnoughPlayers,
    NotHost,
    NotInLobby,
    NotYourChallenge,
    SelfChallenge,
    UnknownChallenge,
    UnknownGame,
)
from games.base import InvalidOptions
from tests.service.conftest import FakeClock, ServiceFactory
from tests.service.helpers import ALICE, BOB, BOT, CAROL, CHANNEL, DAVE, GUILD, start_match


async def test_accepting_a_challenge_starts_the_match_with_resolved_options(service: MatchService) -> None:
    challenge = await service.create_challenge(
        "race", {"target": "12"}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL
    )
    assert challenge.status == "pending" and challenge.options["target"] == 12
    assert [c.id for c in await service.pending_challenges(CHANNEL)] == [challenge.id]
    match = await service.accept_challenge(challenge.id, BOB)
    assert match.options == {"target": 12} and match.state.target == 12
    assert sorted(match.human_user_ids) == [ALICE, BOB] and match.channel_id == CHANNEL
    assert (await service.get_challenge(challenge.id)).match_id == match.id
    assert await service.pending_challenges() == []
    with pytest.raises(ChallengeClosed, match="already accepted"):
        await service.accept_challenge(challenge.id, BOB)


async def test_accepting_into_a_thread_uses_the_thread_as_the_channel(service: MatchService) -> None:
    challenge = await service.create_challenge("race", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL)
    match = await service.accept_challenge(challenge.id, BOB, channel_id=777)
    assert (await service.match_in_channel(777)).id == match.id


async def test_challenge_refusals(service: MatchService) -> None:
    with pytest.raises(SelfChallenge, match="cannot challenge yourself"):
        await service.create_challenge("race", {}, ALICE, ALICE, guild_id=GUILD, channel_id=CHANNEL)
    with pytest.raises(UnknownGame, match="no game called 'chess'"):
        await service.create_challenge("chess", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL)
    with pytest.raises(InvalidOptions, match="target must be at least 3"):
        await service.create_challenge("race", {"target": 1}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL)
    with pytest.raises(InvalidOptions, match="unknown option 'colour'"):
        await service.create_challenge(
            "race", {"colour": "red"}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL
        )
    with pytest.raises(UnknownChallenge):
        await service.accept_challenge(99, BOB)
    await start_match(service)
    with pytest.raises(ChannelBusy, match="already has a match"):
        await service.create_challenge("race", {}, CAROL, DAVE, guild_id=GUILD, channel_id=CHANNEL)


async def test_a_second_match_in_the_channel_is_refused_at_accept_time(service: MatchService) -> None:
    first = await service.create_challenge("race", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL)
    second = await service.create_challenge("race", {}, CAROL, DAVE, guild_id=GUILD, channel_id=CHANNEL)
    await service.accept_challenge(first.id, BOB)
    with pytest.raises(ChannelBusy):
        await service.accept_challenge(second.id, DAVE)
    assert (await service.get_challenge(second.id)).status == "pending"


async def test_only_the_right_player_answers_a_challenge(service: MatchService) -> None:
    challenge = await service.create_challenge("race", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL)
    with pytest.raises(NotYourChallenge, match="Only the challenged player"):
        await service.accept_challenge(challenge.id, CAROL)
    with pytest.raises(NotYourChallenge, match="Only the challenged player"):
        await service.decline_challenge(challenge.id, ALICE)
    with pytest.raises(NotYourChallenge, match="Only the player who sent"):
        await service.withdraw_challenge(challenge.id, BOB)
    assert (await service.decline_challenge(challenge.id, BOB)).status == "declined"
    with pytest.raises(ChallengeClosed, match="declined"):
        await service.withdraw_challenge(challenge.id, ALICE)
    other = await service.create_challenge("race", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL)
    assert (await service.withdraw_challenge(other.id, ALICE)).status == "withdrawn"


async def test_challenges_expire_once(service: MatchService, clock: FakeClock) -> None:
    challenge = await service.create_challenge("race", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL)
    assert await service.next_wakeup() == challenge.expires_at
    clock.advance(service.challenge_ttl + 1)
    expired = await service.expire_challenges()
    assert [c.id for c in expired] == [challenge.id] and expired[0].status == "expired"
    assert await service.expire_challenges() == []
    with pytest.raises(ChallengeClosed, match="expired"):
        await service.accept_challenge(challenge.id, BOB)


async def test_an_overdue_challenge_cannot_be_accepted_even_before_the_clock_runs(
    service: MatchService, clock: FakeClock
) -> None:
    challenge = await service.create_challenge("race", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL)
    clock.advance(service.challenge_ttl + 1)
    with pytest.raises(ChallengeClosed, match="expired"):
        await service.accept_challenge(challenge.id, BOB)


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
    specs = {o.name: o for o in service.option_specs(game)}
    assert specs[option].default == "random" and "rated" in specs and "turn_timeout" in specs
    challenge = await service.create_challenge(
        game, {option: value}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL
    )
    match = await service.accept_challenge(challenge.id, BOB)
    assert match.seats[0].user_id == seat0


async def test_random_seating_gives_both_players_seat_zero(open_service: ServiceFactory) -> None:
    seat0: Counter[int] = Counter()
    service = await open_service(seed=7)
    for channel in range(40):
        challenge = await service.create_challenge("race", {}, ALICE, BOB, guild_id=GUILD, channel_id=channel)
        seat0[(await service.accept_challenge(challenge.id, BOB)).seats[0].user_id] += 1
    assert seat0[ALICE] > 5 and seat0[BOB] > 5


async def test_the_match_timeout_option_and_the_guild_setting(
    service: MatchService, clock: FakeClock
) -> None:
    match = await start_match(service, options={"turn_timeout": 30})
    assert match.turn_timeout == 1800 and match.deadline == clock() + 1800
    settings = await service.update_guild_settings(
        GUILD, turn_timeout=3600, threads=True, allowed_channels=[5, 6]
    )
    assert (await service.guild_settings(GUILD)) == settings
    with pytest.raises(ChannelNotAllowed):
        await service.create_challenge("race", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL + 1)
    other = await start_match(service, channel=5)
    assert other.turn_timeout == 3600
    untouched = await service.update_guild_settings(GUILD, threads=False)
    assert untouched.turn_timeout == 3600 and untouched.allowed_channels == (5, 6)
    with pytest.raises(Exception, match="between one minute and 14 days"):
        await service.update_guild_settings(GUILD, turn_timeout=5)


async def test_ai_matches(service: MatchService) -> None:
    with pytest.raises(BadAiLevel, match="easy, medium, hard"):
        await service.start_ai_match(
            "race", {}, ALICE, ai_user_id=BOT, level="godlike", guild_id=GUILD, channel_id=1
        )
    match = await service.start_ai_match(
        "race", {"first": "opponent"}, ALICE, ai_user_id=BOT, level="easy", guild_id=GUILD, channel_id=1
    )
    seat = match.ai_seat_to_move()
    assert seat is not None and seat.seat == 0 and seat.player_key == "ai:easy" and match.deadline is None


# ----------------------------------------------------------------------------------------------- lobbies


async def test_a_lobby_fills_and_starts_in_joining_order(service: MatchService) -> None:
    lobby = await service.create_lobby(
        "hoard", {"target": 5}, ALICE, guild_id=GUILD, channel_id=CHANNEL, max_players=3, seat_order="joined"
    )
    assert lobby.max_players == 3 and lobby.min_players == 2 and not lobby.can_start
    with pytest.raises(NotEnoughPlayers, match="at least 2"):
        await service.start_lobby(lobby.id, ALICE)
    await service.join_lobby(lobby.id, BOB)
    with pytest.raises(AlreadyJoined):
        await service.join_lobby(lobby.id, BOB)
    lobby = await service.join_lobby(lobby.id, BOT, ai_level="medium")
    assert [m.user_id for m in lobby.members] == [ALICE, BOB, BOT] and lobby.can_start
    with pytest.raises(LobbyFull, match="3 players"):
        await service.join_lobby(lobby.id, CAROL)
    with pytest.raises(NotHost):
        await service.start_lobby(lobby.id, BOB)
    match = await service.start_lobby(lobby.id, ALICE)
    assert [(s.user_id, s.ai_level) for s in match.seats] == [(ALICE, None), (BOB, None), (BOT, "medium")]
    assert (await service.get_lobby(lobby.id)).match_id == match.id
    with pytest.raises(LobbyClosed):
        await service.join_lobby(lobby.id, CAROL)


async def test_leaving_a_lobby_and_the_host_closing_it(service: MatchService) -> None:
    lobby = await service.create_lobby("hoard", {}, ALICE, guild_id=GUILD, channel_id=CHANNEL)
    assert lobby.max_players == 4
    await service.join_lobby(lobby.id, BOB)
    lobby = await service.leave_lobby(lobby.id, BOB)
    assert [m.user_id for m in lobby.members] == [ALICE]
    with pytest.raises(NotInLobby):
        await service.leave_lobby(lobby.id, BOB)
    assert [x.id for x in await service.open_lobbies(CHANNEL)] == [lobby.id]
    closed = await service.leave_lobby(lobby.id, ALICE)
    assert closed.status == "closed" and await service.open_lobbies() == []


async def test_lobby_sizes_and_random_seats(service: MatchService) -> None:
    with pytest.raises(Exception, match="2 to 4 players"):
        await service.create_lobby("hoard", {}, ALICE, guild_id=GUILD, channel_id=CHANNEL, max_players=5)
    orders: set[tuple[Any, ...]] = set()
    for channel in range(12):
        lobby = await service.create_lobby("hoard", {}, ALICE, guild_id=GUILD, channel_id=channel)
        for user in (BOB, CAROL, DAVE):
            await service.join_lobby(lobby.id, user)
        match = await service.start_lobby(lobby.id, ALICE)
        orders.add(tuple(s.user_id for s in match.seats))
        assert sorted(s.user_id for s in match.seats) == [ALICE, BOB, CAROL, DAVE]
    assert len(orders) > 1


async def test_accepting_twice_at_once_starts_one_match(service: MatchService) -> None:
    import asyncio

    challenge = await service.create_challenge("race", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL)
    results = await asyncio.gather(
        service.accept_challenge(challenge.id, BOB),
        service.accept_challenge(challenge.id, BOB),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert [type(r) for r in results if isinstance(r, Exception)] == [ChallengeClosed]
    assert len(await service.store.match_ids()) == 1


async def test_starting_a_lobby_twice_at_once_starts_one_match(service: MatchService) -> None:
    import asyncio

    lobby = await service.create_lobby("hoard", {}, ALICE, guild_id=GUILD, channel_id=CHANNEL)
    await service.join_lobby(lobby.id, BOB)
    results = await asyncio.gather(
        service.start_lobby(lobby.id, ALICE), service.start_lobby(lobby.id, ALICE), return_exceptions=True
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert [type(r) for r in results if isinstance(r, Exception)] == [LobbyClosed]
