"""Ratings once per finished rated match, leaderboards, stats and history."""

from __future__ import annotations

import itertools

import pytest

from bot.service import Service
from bot.service.records import Finish, Finished, MatchStatus
from games.base import Outcome, Termination
from tests.service.helpers import ALICE, BOB, BOT, CAROL, GUILD, everyone_moves, start_match


async def win_race(service: Service, winner: int, loser: int, channel: int, guild: int = GUILD) -> Finished:
    match = await start_match(service, challenger=winner, opponent=loser, channel=channel, guild=guild)
    await everyone_moves(service, match.id)
    result = await service.matches.resign(match.id, loser)
    assert isinstance(result, Finished)
    return result


async def test_a_rated_match_changes_ratings_once(service: Service) -> None:
    finished = await win_race(service, ALICE, BOB, 1)
    changes = {c.user_id: c for c in finished.rating_changes}
    assert set(changes) == {ALICE, BOB}
    assert changes[ALICE].before is None and changes[ALICE].mu_after > 25 > changes[BOB].mu_after
    ratings = await service.store.get_ratings("race", ["user:1", "user:2"])
    assert await service.ratings.rate(finished.match.id) == list(finished.rating_changes)
    assert await service.ratings.recover() == 0
    assert await service.store.get_ratings("race", ["user:1", "user:2"]) == ratings
    second = await win_race(service, ALICE, BOB, 2)
    alice = next(c for c in second.rating_changes if c.user_id == ALICE)
    assert alice.mu_before == changes[ALICE].mu_after and alice.mu_after > alice.mu_before


async def test_unrated_and_aborted_matches_change_nothing(service: Service) -> None:
    match = await start_match(service, options={"rated": False})
    await everyone_moves(service, match.id)
    result = await service.matches.resign(match.id, BOB)
    assert isinstance(result, Finished) and result.rating_changes == ()
    other = await start_match(service, channel=2)
    aborted = await service.agreements.request_abort(other.id, ALICE, admin=True)
    assert isinstance(aborted, Finished) and aborted.rating_changes == ()
    assert await service.ratings.leaderboard("race") == []
    [stats] = await service.history.stats(
        ALICE
    )  # the unrated match counts as played; the aborted one does not
    assert (stats.played, stats.won) == (1, 1)


async def test_a_crash_between_the_end_and_the_rating_is_repaired_by_recover(service: Service) -> None:
    match = await start_match(service)
    outcome = Outcome.loss(1, 2, Termination.RESIGNATION)
    finish = Finish(MatchStatus.FINISHED, outcome, service.now())
    assert await service.store.finish_match(match.id, 0, finish)
    assert await service.ratings.recover() == 1
    assert await service.ratings.recover() == 0
    board = await service.ratings.leaderboard("race")
    assert [e.user_id for e in board] == [ALICE, BOB]


async def test_leaderboards_per_guild_and_overall_and_the_ai_key(service: Service) -> None:
    await win_race(service, ALICE, BOB, 1, guild=GUILD)
    await win_race(service, CAROL, ALICE, 2, guild=GUILD + 1)
    ai = await service.challenges.play_bot(
        "race", {"first": "challenger"}, BOB, bot_id=BOT, level="hard", guild_id=GUILD, channel_id=3
    )
    await everyone_moves(service, ai.id)
    result = await service.matches.resign(ai.id, BOB)
    assert isinstance(result, Finished)
    assert {c.player_key for c in result.rating_changes} == {"user:2", "ai:hard"}
    overall = await service.ratings.leaderboard("race")
    assert {e.player_key for e in overall} == {"user:1", "user:2", "user:3", "ai:hard"}
    assert len(overall) == 4
    assert all(a.conservative >= b.conservative for a, b in itertools.pairwise(overall))
    local = await service.ratings.leaderboard("race", guild_id=GUILD)
    assert {e.player_key for e in local} == {"user:1", "user:2", "ai:hard"}
    assert next(e for e in local if e.player_key == "ai:hard").ai_level == "hard"
    assert next(e for e in overall if e.user_id == ALICE).played == 2
    assert (await service.ratings.rating("race", ALICE)) is not None and await service.ratings.rating(
        "race", 12345
    ) is None
    with pytest.raises(Exception, match="no game called"):
        await service.ratings.leaderboard("chess")


async def test_stats_count_wins_losses_and_draws(service: Service) -> None:
    await win_race(service, ALICE, BOB, 1)
    await win_race(service, BOB, ALICE, 2)
    await win_race(service, ALICE, BOB, 3, guild=GUILD + 1)
    draw = await start_match(service, "hoard", channel=4)
    await service.matches.pass_turn(draw.id, ALICE)
    played = await service.matches.pass_turn(draw.id, BOB)
    assert played.finished is not None and played.finished.outcome.is_draw
    stats = {s.game: s for s in await service.history.stats(ALICE)}
    assert (stats["race"].played, stats["race"].won, stats["race"].lost, stats["race"].drawn) == (3, 2, 1, 0)
    assert (stats["hoard"].played, stats["hoard"].drawn) == (1, 1)
    local = {s.game: s for s in await service.history.stats(ALICE, guild_id=GUILD + 1)}
    assert local["race"].played == 1 and "hoard" not in local


async def test_history_lists_finished_matches_with_their_moves(service: Service) -> None:
    match = await start_match(service, options={"target": 3})
    await service.matches.play(match.id, ALICE, "1")
    await service.matches.play(match.id, BOB, "2")
    await win_race(service, BOB, ALICE, 2)
    history = await service.history.finished(user_id=ALICE)
    assert len(history) == 2
    first = next(h for h in history if h.match.id == match.id)
    assert first.moves == 2
    assert first.match.outcome is not None and first.match.outcome.winners == (1,)
    assert [h.match.id for h in await service.history.finished(user_id=ALICE, limit=1)] == [
        history[0].match.id
    ]
    assert await service.history.finished(game="hoard") == []
