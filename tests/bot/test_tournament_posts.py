"""What a tournament shows the channel, through the real bot in SimCord: /tournament standings in the
server's language whoever asks; standings in the middle of a round count the rounds their title names; an
event's default time per turn fits its length; an arena's end rates and scores only games that were played;
after a restart (no user cache) threads and standings name players, and a thread titled while Discord could
not name a player is renamed when the name arrives."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.i18n import catalog_locale, tr_for
from bot.service.records import MatchStatus
from bot.service.tournaments.model import ResultKind, Status, Tournament
from bot.service.tournaments.standings import compute
from bot.testing.checks.tournament import add_players, play_and_resign, thread_of
from bot.testing.simcord import last_board, reply_text, suggestions
from cogs.info import GROUP_INTROS
from tests.bot.test_i18n_flows import locales  # noqa: F401  (the fixture: each user's Discord locale)

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
    alt = str(post.attachments[0].description)
    assert alt.startswith("Classement avant la ronde 1 sur 2 : 1. "), alt
    assert "Points 0" in alt and "Jouées 0" in alt, alt


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
    posted = [m for m in world.channel.history() if m.author.id == world.me.id and m.attachments]

    def post(start: str) -> Any:
        return next(m for m in posted if m.content.startswith(start))

    after_one, final_post = post("Standings after round 1 of 2"), post("Final standings")
    podium = post(f"Tournament #{number} is over")
    names = ["alice", "bob", "carol", "ada"]
    for message, start in (
        (after_one, "Standings after round 1 of 2: 1. "),
        (final_post, "Final standings: 1. "),
        (podium, f"Tournament #{number}: the podium: 1. "),
    ):
        alt = str(message.attachments[0].description)
        assert alt.startswith(start), alt
        shown = names if message is not podium else [n for n in names if f"{n}, Points: " in alt]
        assert shown and all(name in alt for name in shown), alt
    assert "Points 1, " in str(after_one.attachments[0].description)
    final = reply_text(await world.bob.slash(world.channel, "tournament standings", number=number))
    assert final.startswith("Final standings"), final
    line = next(line for line in final.splitlines() if f"<@{winner}>" in line)
    assert re.search(rf"<@{winner}>: {int(before_round_two) + 1} \(", line), line


async def test_a_short_arena_defaults_to_a_turn_time_that_fits_it(world: Any) -> None:
    """A 15-minute arena whose organiser names no turn time plays on the game's first live preset (its turn
    time, should a clock be turned off, a minute, not a day); an hour's arena 3 minutes; a Swiss whose rounds
    wait for their last match keeps a day; a named time is kept (and no clock)."""
    made = await world.admin.slash(
        world.channel, "tournament create", game="paint", format="arena", duration=15
    )
    assert "1+1 live clock" in reply_text(made), reply_text(made)
    number = int(re.findall(r"#(\d+)", reply_text(made))[0])
    made_settings = (await tournament(world.env, number)).settings
    assert made_settings.turn_s == 60 and made_settings.clock == "1+1"
    await world.admin.slash(world.channel, "tournament cancel", number=number)
    expected = {
        (("format", "arena"), ("duration", 60)): 180,
        (("format", "swiss"),): 86400,
        (("format", "swiss"), ("round_hours", 24)): 3600,
        (("format", "arena"), ("duration", 15), ("turn_timeout", 60)): 3600,
    }
    for options, turn_s in expected.items():
        number = await create(world.admin, world.channel, game="paint", **dict(options))
        made_settings = (await tournament(world.env, number)).settings
        assert made_settings.turn_s == turn_s, options
        assert (made_settings.clock is not None) == (options == (("format", "arena"), ("duration", 60)))
        await world.admin.slash(world.channel, "tournament cancel", number=number)


async def move_once_each(world: Any, by_id: dict[int, Any], match_id: int) -> Any:
    """Both players of a two-seat match move once (a move the autocomplete offers); the match's thread."""
    match = await service_of(world.env).matches.get(match_id)
    thread = thread_of(world, match.channel_id)
    for _ in range(2):
        found = re.search(r"<@(\d+)>, your turn", last_board(thread).content)
        assert found, last_board(thread).content
        player = by_id[int(found.group(1))]
        played = await player.slash(thread, "move", notation=(await suggestions(player, thread))[0])
        assert not played.ephemeral, reply_text(played)
    return thread


async def beat(world: Any, by_id: dict[int, Any], match_id: int, winner: int) -> None:
    """Both move once, then the other player resigns: `winner` wins."""
    thread = await move_once_each(world, by_id, match_id)
    match = await service_of(world.env).matches.get(match_id)
    loser = by_id[next(p.user_id for p in match.seats if p.user_id != winner)]
    question = await loser.slash(thread, "resign")
    await loser.click(question.response, label="Yes, resign")


async def running_match(world: Any, number: int, user: int) -> int:
    t = await tournament(world.env, number)
    game = next(g for g in t.running_games() if user in g.seats)
    assert game.match_id is not None
    return game.match_id


async def test_an_arenas_end_aborts_an_unplayed_game_and_adjudicates_a_played_one_by_the_stated_rule(
    world: Any,
) -> None:
    """Alice wins twice (on a streak) and is paired a third time; the arena ends before that game's first
    move, while the other two players have each moved once in theirs. Alice's game is aborted: unrated, no
    arena points, her streak intact (it gave her 2 points as a streak draw, and changed ratings). The other
    game is adjudicated by the event's rule (a draw) and rated, and scores nothing as any arena draw in the
    first moves. /help states the rule."""
    alice, bob, carol, dan = players = add_players(world, 4)
    by_id = {p.id: p for p in players}
    service = service_of(world.env)
    number = await create(
        world.admin, world.channel, game="paint", format="arena", duration=30, turn_timeout=60
    )
    for player in players:
        await player.slash(world.channel, "tournament join", number=number)
    await world.admin.slash(world.channel, "tournament start", number=number)
    t = await tournament(world.env, number)
    assert sorted(tuple(sorted(g.seats)) for g in t.running_games()) == sorted(
        [tuple(sorted((alice.id, bob.id))), tuple(sorted((carol.id, dan.id)))]
    )
    await beat(world, by_id, await running_match(world, number, alice.id), alice.id)
    await beat(world, by_id, await running_match(world, number, carol.id), carol.id)
    await beat(world, by_id, await running_match(world, number, alice.id), alice.id)  # against Carol
    await beat(world, by_id, await running_match(world, number, dan.id), dan.id)  # against Bob: all paired
    t = await tournament(world.env, number)
    third = next(g for g in t.running_games() if alice.id in g.seats)
    other = next(g for g in t.running_games() if alice.id not in g.seats)
    assert third.match_id is not None and other.match_id is not None
    await move_once_each(world, by_id, other.match_id)
    before = await service.store.get_ratings("paint", [f"user:{alice.id}"])

    await world.env.advance_time(31 * 60)
    t = await tournament(world.env, number)
    assert t.status is Status.FINISHED
    results = {g.number: g.result for g in t.games}
    unplayed = results[third.number]
    assert unplayed is not None and unplayed.kind is ResultKind.FORFEIT and unplayed.points == (0.0, 0.0)
    aborted = await service.store.get_match(third.match_id)
    assert aborted is not None and aborted.status is MatchStatus.ABORTED and not aborted.ratings_applied
    assert await service.store.get_ratings("paint", [f"user:{alice.id}"]) == before
    adjudicated = results[other.number]
    assert adjudicated is not None and adjudicated.kind is ResultKind.ADJUDICATED
    assert adjudicated.points == (0.0, 0.0)  # a draw in the first moves scores nothing in an arena
    row = await service.store.get_match(other.match_id)
    assert row is not None and row.status is MatchStatus.FINISHED and row.ratings_applied
    table = {s.user_id: s for s in compute(t)}
    assert table[alice.id].score == 4.0 and table[alice.id].on_fire  # 2 + 2, and nothing for the aborted game

    shown = await bob.slash(world.channel, "help")
    rules = str(shown.response.embeds[0].to_dict())
    assert "not moved yet is aborted" in rules, rules


@pytest.mark.parametrize("locale", ["en-US", "fr", "de", "es-ES", "it", "pt-BR", "pl", "ja"])
async def test_help_states_the_deadline_rule_whole_in_every_language(
    world: Any,
    locales: dict[int, str],  # noqa: F811
    locale: str,
) -> None:
    """The rule of deadlines is in /help's tournament part, uncut, in the reader's language, and the embed
    keeps Discord's limits (a field of 1024 characters, 6000 in all)."""
    locales[world.bob.id] = locale
    shown = await world.bob.slash(world.channel, "help")
    embed = shown.response.embeds[0]
    rule = tr_for(catalog_locale(locale))(GROUP_INTROS["tournament"][1])
    assert any(rule in field.value for field in embed.fields), [f.value for f in embed.fields]
    assert all(len(field.value) <= 1024 for field in embed.fields)
    assert len(embed) <= 6000


async def round_two_after_a_restart(world: Any, make_bot: Any) -> tuple[dict[int, Any], int]:
    """A 2-round Swiss of four: one round-1 game ends, the bot restarts (it has seen nobody since), the
    other ends and round 2 opens. The players by id, and the tournament's number."""
    players = add_players(world, 4)
    by_id = {p.id: p for p in players}
    number = await create(world.admin, world.channel, game="paint", format="swiss", rounds=2, rated=False)
    for player in players:
        await player.slash(world.channel, "tournament join", number=number)
    await world.admin.slash(world.channel, "tournament start", number=number)
    first, second = (await tournament(world.env, number)).round_games()
    assert first.match_id is not None and second.match_id is not None
    await play_and_resign(world, by_id, first.match_id)
    await world.env.restart_bot(make_bot())
    return by_id, number


def down(*args: Any) -> Any:
    raise discord.HTTPException(SimpleNamespace(status=503, reason="Service Unavailable"), "Discord is down")


async def test_after_a_restart_threads_and_standings_name_players_the_bot_has_not_seen(
    world: Any, make_bot: Any
) -> None:
    """After a restart the bot's user cache is empty (no members intent): the round-2 thread titles, the
    standings posted with them (text's image and its alt text) name every player, fetched from Discord."""
    by_id, number = await round_two_after_a_restart(world, make_bot)
    _, second = (await tournament(world.env, number)).round_games(1)
    assert second.match_id is not None
    await play_and_resign(world, by_id, second.match_id)
    t = await tournament(world.env, number)
    assert t.round == 2
    titles = [thread.name for thread in world.channel.threads if "round 2" in thread.name]
    assert len(titles) == 2, [thread.name for thread in world.channel.threads]
    for title in titles:
        assert not re.search(r"\d{15,}", title), title
    standings = next(m for m in world.channel.history() if m.content.startswith("Standings after round 1"))
    alt = str(standings.attachments[0].description)
    assert not re.search(r"\d{15,}", alt) and all(n in alt for n in ("alice", "bob", "carol", "ada")), alt


async def test_a_thread_titled_while_discord_could_not_name_a_player_is_renamed_when_the_name_arrives(
    world: Any, make_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord does not answer for users when round 2 opens after a restart: a thread's title shows a raw id
    for a player the bot has not seen since; once that player plays in the thread (the name arrives), the
    thread is renamed with their name."""
    by_id, number = await round_two_after_a_restart(world, make_bot)
    monkeypatch.setattr(world.env.bot, "fetch_user", down)
    _, second = (await tournament(world.env, number)).round_games(1)
    assert second.match_id is not None
    await play_and_resign(world, by_id, second.match_id)
    t = await tournament(world.env, number)
    raw = [
        thread
        for thread in world.channel.threads
        if "round 2" in thread.name and re.search(r"\d{15,}", thread.name)
    ]
    assert raw, [thread.name for thread in world.channel.threads]
    thread = raw[0]
    unnamed = int(re.findall(r"\d{15,}", thread.name)[0])
    game = next(g for g in t.round_games(2) if unnamed in g.seats)
    assert (
        game.match_id is not None
        and (await service_of(world.env).matches.get(game.match_id)).channel_id == thread.id
    )
    await by_id[unnamed].slash(thread, "board")  # the player shows up: Discord tells the bot their name
    renamed = next(th for th in world.channel.threads if th.id == thread.id)
    assert not re.search(r"\d{15,}", renamed.name), renamed.name
    assert renamed.name.startswith(f"Tournament #{number}, round 2: ")
