"""Choosing the bot's level: /play @Tessera without a level picks the level nearest the player's rating in
that game (level 2 for a new player), an explicit level is kept, the headline shows the bot's rating at that
level, and the level autocomplete lists the eight levels with their ratings, marking the nearest."""

from __future__ import annotations

from typing import Any

import pytest

from bot.boards import bot_label
from bot.service.ratings import shown_rating
from bot.testing.simcord import bot_member, button_labels, last_board, take_user_errors
from games.ai.levels import LEVEL_IDS, level_rating, nearest_level
from tests.bot.test_leaderboard_flows import rated_paint_match

pytestmark = pytest.mark.simcord(settle_timeout=60)


async def bot_level_of_last_match(world: Any) -> str:
    service = world.env.bot.runtime.service
    [match] = [m for m in await service.matches.of_user(world.alice.id) if m.is_active]
    [seat] = [s for s in match.seats if s.is_ai]
    assert seat.ai_level is not None
    return seat.ai_level


async def test_a_new_player_gets_level_2_with_its_rating_in_the_headline(world: Any) -> None:
    alice, channel = world.alice, world.channel
    result = await alice.slash(channel, "play", game="paint", opponent=bot_member(world), first="challenger")
    assert not result.ephemeral
    assert await bot_level_of_last_match(world) == "2"
    rating = level_rating("paint", "2")
    assert f"A match against me, level 2 (rating {rating})." in last_board(channel).content
    assert "Tessera (level 2" in last_board(channel).content


async def test_an_established_player_gets_the_level_nearest_their_rating(world: Any) -> None:
    service = world.env.bot.runtime.service
    alice, channel = world.alice, world.channel
    for _ in range(3):  # Alice beats the strongest level three times: her rating climbs well above level 2
        await rated_paint_match(service, world, [(alice.id, None), (world.me.id, "8")], world.me.id)
    mine = await service.ratings.rating("paint", alice.id)
    assert mine is not None
    points = shown_rating(mine.mu, mine.sigma).points
    expected = nearest_level("paint", points)
    assert expected != "2", f"a rating of {points} should not be nearest level 2"
    await alice.slash(channel, "play", game="paint", opponent=bot_member(world), first="challenger")
    assert await bot_level_of_last_match(world) == expected
    assert f"level {expected} (rating {level_rating('paint', expected)})" in last_board(channel).content
    # The bot's rating stayed its calibrated one through those three losses.
    bot = (await service.store.get_ratings("paint", ["ai:8"]))["ai:8"]
    assert shown_rating(bot.mu, bot.sigma).points == level_rating("paint", "8")


async def test_an_explicit_level_is_played_and_an_unknown_or_old_one_refused(world: Any) -> None:
    """A level typed in /play is one of the eight; an old name (kept in older matches only) is refused too."""
    alice, channel = world.alice, world.channel
    await alice.slash(
        channel, "play", game="paintscape", opponent=bot_member(world), level="6", first="challenger"
    )
    assert await bot_level_of_last_match(world) == "6"
    assert f"level 6 (rating {level_rating('paintscape', '6')})" in last_board(channel).content
    for typed in ("9", "hard"):
        refused = await world.bob.slash(
            channel, "play", game="paint", opponent=bot_member(world), level=typed
        )
        assert refused.ephemeral and "choose a level from 1 to 8" in refused.response.content
    assert len(take_user_errors(world)) == 2


async def test_the_level_autocomplete_shows_each_rating_and_marks_the_nearest(world: Any) -> None:
    alice, channel = world.alice, world.channel
    choices = await alice.autocomplete(channel, "play", "level", "", game="tilingking")
    assert [c["value"] for c in choices] == list(LEVEL_IDS)
    for choice in choices:
        rating = level_rating("tilingking", choice["value"])
        assert choice["name"].startswith(f"Level {choice['value']} · rating {rating}")
    marked = [c["value"] for c in choices if c["name"].endswith("nearest to yours")]
    assert marked == ["2"], "a new player's nearest level is level 2"
    typed = await alice.autocomplete(channel, "play", "level", "7", game="tilingking")
    assert [c["value"] for c in typed] == ["7"]
    no_game = await alice.autocomplete(channel, "play", "level", "")
    assert [c["name"] for c in no_game] == [f"Level {level}" for level in LEVEL_IDS]


async def test_an_old_match_at_hard_keeps_its_level_name(world: Any) -> None:
    """A match with the old level "hard" (as older matches stored it) reads as before."""
    service = world.env.bot.runtime.service
    alice = world.alice
    match = await service.matches.start(
        "paint",
        {},
        [(alice.id, None), (world.me.id, "hard")],
        seed=1,
        rated=True,
        turn_timeout=86400,
        guild_id=world.guild.id,
        channel_id=world.channel.id,
    )
    view = await service.matches.get(match.id)
    [seat] = [s for s in view.seats if s.is_ai]
    assert seat.ai_level == "hard"
    assert bot_label(seat.ai_level) == "Tessera (hard)"


async def test_a_lobby_with_the_bot_seats_it_at_the_host_s_nearest_level(world: Any) -> None:
    alice, channel = world.alice, world.channel
    lobby = await alice.slash(channel, "play", game="tilingking", players=3, opponent=bot_member(world))
    assert "Tessera (level 2)" in lobby.response.content, "a new host: level 2"
    assert "Add bot (level 2)" in button_labels(lobby.response)
