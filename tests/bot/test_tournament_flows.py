"""Tournaments through the real bot in SimCord: /tournament create, join, start, leave, standings, pairings
and cancel; each round's matches in their own threads, played with /move and /resign; a timeout, a
withdrawal, a bye and a restart in the middle of a Swiss; a round robin of five; an arena; the podium and the
standings image as posted; events in /history, /stats and /help. Every flow runs on SQLite and on
PostgreSQL (a schema of its own on the test server)."""

from __future__ import annotations

from typing import Any

import pytest

import games
from bot.service import Service
from bot.service.tournaments.model import Status
from bot.settings import Settings
from bot.testing.checks.tournament import (
    add_players,
    create,
    image_of,
    play_and_resign,
    play_round,
    posted,
    tournament,
)
from bot.testing.simcord import reply_text, take_user_errors
from bot.testing.world import make_settings
from tests.service.conftest import postgres_url  # noqa: F401  (the fixture of the PostgreSQL runs)

pytestmark = pytest.mark.simcord(settle_timeout=120)

GAMES = [g for g in games.GAME_IDS if 2 in games.get(g).seats]
"""Every registered game for two, plugins included."""


@pytest.fixture(params=["sqlite", "postgresql"])
def settings(request: pytest.FixtureRequest, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """The bot's settings on a fresh database of each kind. On PostgreSQL the service's own listening
    connection (NOTIFY from other processes; there are none here) is off: SimCord cannot see through its
    wait."""
    if request.param == "sqlite":
        return make_settings(tmp_path / "data")
    monkeypatch.setattr(Service, "listen", lambda self: None)
    url: str = request.getfixturevalue("postgres_url")
    return make_settings(tmp_path / "data", database_url=url)


@pytest.mark.parametrize("game", GAMES)
async def test_an_eight_player_swiss_with_a_timeout_a_withdrawal_a_bye_and_a_restart(
    world: Any, make_bot: Any, game: str
) -> None:
    players = add_players(world, 8)
    by_id = {p.id: p for p in players}
    number = await create(world, game=game, format="swiss", rounds=3, turn_timeout=10)
    for player in players:
        joined = await player.slash(world.channel, "tournament join", number=number)
        assert not joined.ephemeral, reply_text(joined)
    early = await world.alice.slash(world.channel, "tournament start", number=number)
    assert early.ephemeral and "Only the organiser" in reply_text(early)
    take_user_errors(world)
    await world.admin.slash(world.channel, "tournament start", number=number)
    t = await tournament(world, number)
    assert t.status is Status.RUNNING and len(t.round_games()) == 4
    assert len(world.channel.threads) == 4
    pings = [m for m in posted(world) if "round 1 of tournament" in m.content]
    assert len(pings) == 1 and all(f"<@{p.id}>" in pings[0].content for p in players)

    # Round 1: one match times out before anyone moved (a forfeit), the others end by resignation.
    first, *others = t.round_games()
    for game_ in others:
        assert game_.match_id is not None
        await play_and_resign(world, by_id, game_.match_id)
    await world.env.advance_time(11 * 60)
    t = await tournament(world, number)
    assert t.round == 2, [g for g in t.games if g.round == 1]
    timed_out = next(g for g in t.games if g.number == first.number)
    assert timed_out.result is not None and timed_out.result.kind.value == "forfeit"
    [after_one] = [m for m in posted(world) if m.attachments]
    assert after_one.content.startswith("Standings after round 1 of 3"), after_one.content
    assert image_of(world, after_one).width == 960

    # A withdrawal in round 2: the match is resigned for them; round 3 has a bye.
    leaver = by_id[t.round_games()[0].seats[0]]
    left = await leaver.slash(world.channel, "tournament leave", number=number)
    assert left.ephemeral and "withdrew" in reply_text(left)
    await world.env.restart_bot(make_bot())
    await play_round(world, by_id, number)
    t = await tournament(world, number)
    assert t.round == 3 and any(g.is_bye for g in t.round_games())
    await play_round(world, by_id, number)
    t = await tournament(world, number)
    assert t.status is Status.FINISHED
    podium = [m for m in posted(world) if "is over. The podium" in m.content]
    assert len(podium) == 1 and podium[0].attachments
    image = image_of(world, podium[0])
    assert image.width > image.height
    standings = await world.bob.slash(world.channel, "tournament standings", number=number)
    assert "Final standings" in reply_text(standings)
    history = await world.bob.slash(world.channel, "history")
    assert "Tournaments" in reply_text(history) and f"#{number}" in reply_text(history)


async def test_a_round_robin_of_five_and_its_pairings(world: Any) -> None:
    players = add_players(world, 5)
    by_id = {p.id: p for p in players}
    number = await create(world, game="paint", format="round_robin", rated=False)
    for player in players:
        await player.slash(world.channel, "tournament join", number=number)
    await world.admin.slash(world.channel, "tournament start", number=number)
    shown = await world.alice.slash(world.channel, "tournament pairings", number=number)
    assert "Round 1: pairings" in reply_text(shown) and "sits this round out" in reply_text(shown)
    for _ in range(5):
        await play_round(world, by_id, number)
    t = await tournament(world, number)
    assert t.status is Status.FINISHED and t.round == 5
    assert len({frozenset(g.seats) for g in t.games if not g.is_bye}) == 10
    stats = await world.carol.slash(world.channel, "stats")
    assert "Tournaments" in reply_text(stats)


async def test_an_arena_pairs_again_and_ends_on_time(world: Any) -> None:
    players = add_players(world, 4)
    by_id = {p.id: p for p in players}
    number = await create(world, game="paint", format="arena", duration=30, turn_timeout=60)
    for player in players:
        await player.slash(world.channel, "tournament join", number=number)
    await world.admin.slash(world.channel, "tournament start", number=number)
    t = await tournament(world, number)
    assert len(t.running_games()) == 2
    game = t.running_games()[0]
    assert game.match_id is not None
    await play_and_resign(world, by_id, game.match_id)
    t = await tournament(world, number)
    assert len(t.games) == 2 or len(t.running_games()) == 2  # the two free players wait for new opponents
    await world.env.advance_time(31 * 60)
    t = await tournament(world, number)
    assert t.status is Status.FINISHED
    assert all(g.result is not None for g in t.games)


async def test_cancel_and_the_errors_say_what_to_do(world: Any) -> None:
    number = await create(world, game="paint", format="swiss")
    outsider = await world.alice.slash(world.channel, "tournament leave", number=number)
    assert outsider.ephemeral and "join it first" in reply_text(outsider)
    few = await world.admin.slash(world.channel, "tournament start", number=number)
    assert few.ephemeral and "needs more players" in reply_text(few)
    unknown = await world.alice.slash(world.channel, "tournament join", number=number + 5)
    assert unknown.ephemeral and "There is no tournament" in reply_text(unknown)
    cancelled = await world.admin.slash(world.channel, "tournament cancel", number=number)
    assert cancelled.ephemeral and "cancelled" in reply_text(cancelled)
    late = await world.alice.slash(world.channel, "tournament join", number=number)
    assert late.ephemeral and "not taking players" in reply_text(late)
    member = await world.alice.slash(world.channel, "tournament create", game="paint", format="swiss")
    assert not member.ephemeral  # any member may organise one at a time
    again = await world.alice.slash(world.channel, "tournament create", game="paint", format="swiss")
    assert again.ephemeral and "already organise" in reply_text(again)
    shown = await world.bob.slash(world.channel, "help")
    assert "tournament create" in str(shown.response.embeds[0].to_dict())
    take_user_errors(world)


async def test_tournament_options_are_read_as_plays_even_without_the_play_cog(world: Any) -> None:
    """/tournament create reads `options` with the one public reading /play uses (bot.service.options):
    the same refusals, and the options kept, with or without the Play cog loaded (it borrowed that cog's
    private helper, and dropped the options when the cog was not there)."""
    await world.env.bot.remove_cog("Play")
    typo = await world.admin.slash(
        world.channel, "tournament create", game="tilingking", format="swiss", options="board hex5"
    )
    assert typo.ephemeral and "'board' is not an option: write name=value" in reply_text(typo)
    wrong = await world.admin.slash(
        world.channel, "tournament create", game="paint", format="swiss", options="board=hex5"
    )
    assert wrong.ephemeral and "`board` is not an option of Paint. Its options are:" in reply_text(wrong)
    take_user_errors(world)
    number = await create(world, game="tilingking", format="swiss", options="board=hex5")
    assert (await tournament(world, number)).settings.options["board"] == "hex5"
