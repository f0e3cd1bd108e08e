"""The bot's rating per level is its calibrated one and never drifts; a person's rating moves against it as
against any player with that rating. The level nearest a player's rating is what /play picks."""

from __future__ import annotations

import pytest

from bot.service import Service
from bot.service.errors import BadAiLevel
from bot.service.ratings import after_match, bot_rating, shown_rating
from bot.service.records import Finished
from games.ai.levels import level_rating, nearest_level
from tests.service.helpers import BOT, CAROL, GUILD, start_old_bot_match


async def lose_to_the_bot(service: Service, level: str, channel: int) -> Finished:
    match = await service.challenges.play_bot(
        "race", {"first": "challenger"}, CAROL, bot_id=BOT, level=level, guild_id=GUILD, channel_id=channel
    )
    await service.matches.play(match.id, CAROL, "1")
    await service.matches.play(match.id, BOT, "1")
    result = await service.matches.resign(match.id, CAROL)
    assert isinstance(result, Finished)
    return result


async def test_a_player_s_rating_moves_against_the_bot_s_fixed_rating(service: Service) -> None:
    assert await service.ratings.level_for("race", CAROL) == "2", "no rating yet: level 2"
    before = None
    for channel in (1, 2, 3):
        result = await lose_to_the_bot(service, "1", channel)
        [change] = result.rating_changes  # the bot's rating does not change, so it is not reported
        assert change.user_id == CAROL
        expected = after_match([before, bot_rating("race", "1")], [2.0, 1.0])[0]
        assert (change.mu_after, change.sigma_after) == pytest.approx(expected)
        before = expected
        bot = (await service.store.get_ratings("race", ["ai:1"]))["ai:1"]
        assert shown_rating(bot.mu, bot.sigma).points == level_rating("race", "1")
        assert not shown_rating(bot.mu, bot.sigma).provisional
    mine = await service.ratings.rating("race", CAROL)
    assert mine is not None and mine.played == 3
    points = shown_rating(mine.mu, mine.sigma).points
    assert points < 1400, "three losses to level 1 (1325)"
    assert await service.ratings.level_for("race", CAROL) == nearest_level("race", points) == "1"


async def test_an_old_level_still_plays_but_a_new_match_takes_only_the_eight(service: Service) -> None:
    """A match stored at the old level "hard" plays and rates as before; a new match or lobby seat at an old
    level (or a made-up one) is refused with the eight to choose from."""
    match = await start_old_bot_match(service, CAROL, channel=1)
    await service.matches.play(match.id, CAROL, "1")
    await service.matches.play(match.id, BOT, "1")
    result = await service.matches.resign(match.id, CAROL)
    assert isinstance(result, Finished) and [c.user_id for c in result.rating_changes] == [CAROL]
    for level in ("hard", "easy", "9"):
        with pytest.raises(BadAiLevel, match="from 1 to 8"):
            await service.challenges.play_bot(
                "race", {}, CAROL, bot_id=BOT, level=level, guild_id=GUILD, channel_id=2
            )
    lobby = await service.lobbies.create("race", {}, CAROL, guild_id=GUILD, channel_id=3)
    with pytest.raises(BadAiLevel, match="from 1 to 8"):
        await service.lobbies.join(lobby.id, BOT, ai_level="medium")


async def test_the_changes_players_read_leave_out_the_bot_s_pinned_rating(service: Service) -> None:
    """The end of a match against the bot, as the web relay words it from the database, shows no bot line
    (its stored row would read "1500 -> calibrated" on a level's first match)."""
    result = await lose_to_the_bot(service, "3", 1)
    stored = await service.store.rating_changes(result.match.id)
    assert any(c.ai_level == "3" for c in stored), "the store keeps the bot's row"
    assert await service.ratings.changes(result.match.id) == list(result.rating_changes)
    assert all(c.ai_level is None for c in await service.ratings.changes(result.match.id))
