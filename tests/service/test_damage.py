"""Broken data and hostile requests: damaged matches are set aside instead of stopping anything, requests are
limited and scoped, and every bad argument gets a clear error (issue 12)."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

from bot.service import Service
from bot.service.errors import (
    ChannelFullOfChallenges,
    ChannelFullOfLobbies,
    InvalidSetting,
    MatchDamaged,
    NoMatchHere,
    TooManyChallenges,
    TooManyLobbies,
    TurnTimeoutRange,
    UnknownChallenge,
    UnknownLobby,
    UnknownMatch,
)
from bot.service.records import MatchStatus
from bot.views import CUSTOM_ID
from games.base import InvalidMove, InvalidOptions
from tests.service.conftest import FakeClock, ServiceFactory
from tests.service.helpers import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD, start_match


async def corrupt(db_path: Path, sql: str, *params: object) -> None:
    async with aiosqlite.connect(db_path) as db:
        await db.execute(sql, params)
        await db.commit()


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    "snapshot",
    [
        "not json at all",
        '{"seats": 2}',  # keys missing
        '{"position": "garbage"}',  # a Paintscape snapshot in a race match
        "[1, 2, 3]",
    ],
)
async def test_a_damaged_snapshot_is_quarantined_at_start_up_and_frees_the_channel(
    open_service: ServiceFactory, db_path: Path, clock: FakeClock, snapshot: str
) -> None:
    first = await open_service()
    damaged = await start_match(first, options={"turn_timeout": 1})
    sound = await start_match(first, challenger=CAROL, opponent=DAVE, channel=CHANNEL + 1)
    await corrupt(db_path, "UPDATE matches SET snapshot = ? WHERE id = ?", snapshot, damaged.id)

    restarted = await Service.open(f"sqlite:///{db_path}", registry=first.matches.rules, now=clock)
    try:
        assert restarted.quarantined == [damaged.id]
        with pytest.raises(MatchDamaged, match=f"Match #{damaged.id} was set aside"):
            await restarted.matches.get(damaged.id)
        with pytest.raises(NoMatchHere):
            await restarted.matches.in_channel(CHANNEL)  # the channel is free again
        assert [m.id for m in await restarted.matches.of_user(ALICE)] == []
        assert (await restarted.matches.get(sound.id)).is_active
        clock.advance(10**6)
        timed_out = await restarted.matches.expire_due()
        assert [e.match_id for e in timed_out] == [sound.id], "a quarantined match has no clock"
        again = await start_match(restarted)
        assert again.channel_id == CHANNEL and again.is_active
        row = await restarted.store.get_match(damaged.id)
        assert row is not None and row.quarantine is not None and row.status is MatchStatus.ACTIVE
    finally:
        await restarted.close()


@pytest.mark.sqlite_only
async def test_a_snapshot_damaged_while_running_is_set_aside_on_first_read(
    service: Service, db_path: Path
) -> None:
    match = await start_match(service)
    service.matches.states.drop(match.id)
    await corrupt(db_path, "UPDATE matches SET snapshot = '{}' WHERE id = ?", match.id)
    with pytest.raises(MatchDamaged):
        await service.matches.play(match.id, ALICE, "1")
    assert await service.store.quarantined_match_ids() == [match.id]


@pytest.mark.sqlite_only
async def test_a_move_log_that_does_not_replay_makes_the_match_damaged(
    service: Service, db_path: Path
) -> None:
    match = await start_match(service)
    await service.matches.play(match.id, ALICE, "1")
    await corrupt(db_path, "UPDATE moves SET notation = 'zz' WHERE match_id = ?", match.id)
    with pytest.raises(MatchDamaged):
        await service.matches.moves(match.id)
    assert await service.store.quarantined_match_ids() == [match.id]


async def test_one_user_cannot_flood_a_channel_with_challenges(service: Service) -> None:
    for opponent in range(5):
        await service.challenges.create("race", {}, ALICE, 100 + opponent, guild_id=GUILD, channel_id=CHANNEL)
    with pytest.raises(TooManyChallenges, match="5 open challenges"):
        await service.challenges.create("race", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL + 1)
    for challenger in range(5):
        await service.challenges.create("race", {}, 200 + challenger, BOB, guild_id=GUILD, channel_id=CHANNEL)
    with pytest.raises(ChannelFullOfChallenges, match="10 open challenges"):
        await service.challenges.create("race", {}, CAROL, DAVE, guild_id=GUILD, channel_id=CHANNEL)
    first = (await service.challenges.pending(CHANNEL))[0]
    await service.challenges.withdraw(first.id, ALICE)
    await service.challenges.create("race", {}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL + 2)


async def test_one_user_cannot_flood_a_channel_with_lobbies(service: Service) -> None:
    for channel in (1, 2):
        await service.lobbies.create("hoard", {}, ALICE, guild_id=GUILD, channel_id=channel)
    with pytest.raises(TooManyLobbies, match="2 open lobbies"):
        await service.lobbies.create("hoard", {}, ALICE, guild_id=GUILD, channel_id=3)
    for host in range(5):
        await service.lobbies.create("hoard", {}, 300 + host, guild_id=GUILD, channel_id=9)
    with pytest.raises(ChannelFullOfLobbies, match="5 open lobbies"):
        await service.lobbies.create("hoard", {}, BOB, guild_id=GUILD, channel_id=9)


async def test_a_match_is_seen_only_in_its_server_or_by_its_players(service: Service) -> None:
    match = await start_match(service, guild=GUILD)
    assert (await service.matches.get_visible(match.id, guild_id=GUILD, user_id=CAROL)).id == match.id
    assert (await service.matches.get_visible(match.id, guild_id=GUILD + 1, user_id=ALICE)).id == match.id
    with pytest.raises(UnknownMatch, match=f"no match #{match.id}"):
        await service.matches.get_visible(match.id, guild_id=GUILD + 1, user_id=CAROL)


@pytest.mark.parametrize("bad_id", [0, -1, 2**63, 2**64, 10**30])
async def test_out_of_range_ids_are_unknown_not_overflow_errors(service: Service, bad_id: int) -> None:
    with pytest.raises(UnknownMatch):
        await service.matches.get(bad_id)
    with pytest.raises(UnknownMatch):
        await service.matches.play(bad_id, ALICE, "1")
    with pytest.raises(UnknownChallenge):
        await service.challenges.accept(bad_id, BOB)
    with pytest.raises(UnknownLobby):
        await service.lobbies.join(bad_id, BOB)


def test_button_ids_are_bounded_so_every_id_fits_the_database() -> None:
    assert CUSTOM_ID.fullmatch("t:move:42:7:done")
    assert CUSTOM_ID.fullmatch(f"t:move:{10**18 - 1}:7") is not None
    assert CUSTOM_ID.fullmatch(f"t:move:{2**63}:7") is None
    assert CUSTOM_ID.fullmatch("t:move:1:1234567890") is None
    assert CUSTOM_ID.fullmatch("t:" + "a" * 40 + ":1:1") is None


@pytest.mark.parametrize("notation", [123, None, 4.5, ["1"], b"1"])
async def test_a_notation_that_is_not_text_is_an_invalid_move(service: Service, notation: object) -> None:
    match = await start_match(service)
    with pytest.raises(InvalidMove, match="a move is text"):
        await service.matches.play(match.id, ALICE, notation)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("field", "value", "error"),
    [
        ("turn_timeout", "60", TurnTimeoutRange),
        ("turn_timeout", True, TurnTimeoutRange),
        ("turn_timeout", float("inf"), TurnTimeoutRange),
        ("turn_timeout", float("nan"), TurnTimeoutRange),
        ("threads", "yes", InvalidSetting),
        ("allowed_channels", ["general"], InvalidSetting),
        ("allowed_channels", [2**64], InvalidSetting),
    ],
)
async def test_guild_settings_of_the_wrong_type_get_clear_errors(
    service: Service, field: str, value: object, error: type[Exception]
) -> None:
    with pytest.raises(error):
        await service.guilds.update(GUILD, **{field: value})  # type: ignore[arg-type]
    assert (await service.guilds.settings(GUILD)).turn_timeout == service.guilds.default_turn_timeout


async def test_options_only_the_engine_can_judge_are_refused_when_the_challenge_is_made(
    open_service: ServiceFactory,
) -> None:
    service = await open_service()
    with pytest.raises(InvalidOptions):
        await service.challenges.create(
            "paintscape", {"layout": "B" * 64}, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL
        )
    with pytest.raises(InvalidOptions):
        await service.lobbies.create(
            "tilingking", {"board": "sq9", "size": 3}, ALICE, guild_id=GUILD, channel_id=CHANNEL
        )
    assert await service.challenges.pending(CHANNEL) == [] and await service.lobbies.open_in(CHANNEL) == []
