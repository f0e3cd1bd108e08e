"""What a tournament shows the channel, through the real bot in SimCord: /tournament standings in the
server's language whoever asks; standings in the middle of a round count the rounds their title names; an
event's default time per turn fits its length."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.service.tournaments.model import Tournament
from tests.bot.helpers import reply_text
from tests.bot.test_i18n_flows import locales  # noqa: F401  (the fixture: each user's Discord locale)
from tests.bot.test_tournament_flows import add_players, play_and_resign

pytestmark = pytest.mark.simcord(settle_timeout=120)


def service_of(env: Any) -> Any:
    return env.bot.parts.service


async def tournament(env: Any, number: int) -> Tournament:
    t: Tournament = await service_of(env).tournaments.get(number)
    return t


async def create(organiser: Any, channel: Any, **options: Any) -> int:
    made = await organiser.slash(channel, "tournament create", **options)
    text = reply_text(made)
    assert not made.ephemeral, text
    found = re.search(r"#(\d+)", text)
    assert found, text
    return int(found.group(1))


async def test_standings_asked_by_a_german_player_are_posted_in_the_french_servers_language(
    simcord_env: Any,
    locales: dict[int, str],  # noqa: F811
) -> None:
    """/tournament standings answers for the whole channel, so it speaks the server's language (French
    here), not the language of the member who asked (German): its text and its image's title alike."""
    guild = simcord_env.create_guild("Club", preferred_locale="fr")
    channel = guild.create_text_channel("parties")
    players = [guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol", "dan")]
    for player in players:
        locales[player.id] = "de"
    number = await create(players[0], channel, game="paint", format="swiss", rounds=2)
    for player in players:
        await player.slash(channel, "tournament join", number=number)
    await players[0].slash(channel, "tournament start", number=number)
    shown = await players[1].slash(channel, "tournament standings", number=number)
    assert not shown.ephemeral
    text = reply_text(shown)
    assert text.startswith("Classement"), text
    assert "Tabelle" not in text and "Standings" not in text
    (post,) = [m for m in channel.history() if m.content == text]
    assert [a.filename for a in post.attachments] == ["standings.png"]


async def test_standings_in_the_middle_of_a_round_count_only_the_rounds_their_title_names(world: Any) -> None:
    """Round 2 of 2 is in play and one of its games is over: /tournament standings says "after round 1 of 2"
    and its figures are round 1's (the round-2 winner's point is not counted yet); once round 2 is over it
    counts. Before any round ends, the title says so instead of "after round 0"."""
    players = add_players(world, 4)
    by_id = {p.id: p for p in players}
    number = await create(world.admin, world.channel, game="paint", format="swiss", rounds=2, rated=False)
    for player in players:
        await player.slash(world.channel, "tournament join", number=number)
    await world.admin.slash(world.channel, "tournament start", number=number)
    before = reply_text(await world.bob.slash(world.channel, "tournament standings", number=number))
    assert before.startswith("Standings before round 1 of 2"), before
    for game in (await tournament(world.env, number)).running_games():
        assert game.match_id is not None
        await play_and_resign(world, by_id, game.match_id)
    t = await tournament(world.env, number)
    assert t.round == 2
    first, second = t.round_games()
    assert first.match_id is not None
    await play_and_resign(world, by_id, first.match_id)
    t = await tournament(world.env, number)
    ended = next(g for g in t.games if g.number == first.number)
    assert ended.result is not None and second.result is None
    winner = ended.seats[ended.result.points.index(1.0)]
    round_one = next(g for g in t.round_games(1) if winner in g.seats)
    assert round_one.result is not None
    before_round_two = round_one.result.points[round_one.seats.index(winner)]

    shown = reply_text(await world.bob.slash(world.channel, "tournament standings", number=number))
    assert shown.startswith("Standings after round 1 of 2"), shown
    line = next(line for line in shown.splitlines() if f"<@{winner}>" in line)
    assert re.search(rf"<@{winner}>: {int(before_round_two)} \(", line), line

    assert second.match_id is not None
    await play_and_resign(world, by_id, second.match_id)
    final = reply_text(await world.bob.slash(world.channel, "tournament standings", number=number))
    assert final.startswith("Final standings"), final
    line = next(line for line in final.splitlines() if f"<@{winner}>" in line)
    assert re.search(rf"<@{winner}>: {int(before_round_two) + 1} \(", line), line


async def test_a_short_arena_defaults_to_a_turn_time_that_fits_it(world: Any) -> None:
    """A 15-minute arena whose organiser names no turn time plays a minute per turn, not a day; an hour's
    arena 3 minutes; a Swiss whose rounds wait for their last match keeps a day; a named time is kept."""
    made = await world.admin.slash(
        world.channel, "tournament create", game="paint", format="arena", duration=15
    )
    assert "1 minute per turn" in reply_text(made), reply_text(made)
    number = int(re.findall(r"#(\d+)", reply_text(made))[0])
    assert (await tournament(world.env, number)).settings.turn_s == 60
    await world.admin.slash(world.channel, "tournament cancel", number=number)
    expected = {
        (("format", "arena"), ("duration", 60)): 180,
        (("format", "swiss"),): 86400,
        (("format", "swiss"), ("round_hours", 24)): 3600,
        (("format", "arena"), ("duration", 15), ("turn_timeout", 60)): 3600,
    }
    for options, turn_s in expected.items():
        number = await create(world.admin, world.channel, game="paint", **dict(options))
        assert (await tournament(world.env, number)).settings.turn_s == turn_s, options
        await world.admin.slash(world.channel, "tournament cancel", number=number)
