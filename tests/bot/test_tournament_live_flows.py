"""Tournaments on a live clock through the real bot in SimCord: an arena defaults to the game's first live
preset, and a player berserks from the button under the first board or with /tournament berserk. SimCord
settles for a few seconds only here: the live first-move timer (30 s) must not run out between steps."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import Service
from bot.settings import Settings
from bot.testing.checks.tournament import add_players, create, service_of, thread_of, tournament
from bot.testing.simcord import reply_text, suggestions, take_user_errors
from bot.testing.world import make_settings
from tests.service.conftest import postgres_url  # noqa: F401  (the fixture of the PostgreSQL runs)

pytestmark = pytest.mark.simcord(settle_timeout=10)


@pytest.fixture(params=["sqlite", "postgresql"])
def settings(request: pytest.FixtureRequest, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """The bot's settings on a fresh database of each kind (as tests/bot/test_tournament_flows.py)."""
    if request.param == "sqlite":
        return make_settings(tmp_path / "data")
    monkeypatch.setattr(Service, "listen", lambda self: None)
    url: str = request.getfixturevalue("postgres_url")
    return make_settings(tmp_path / "data", database_url=url)


async def test_a_live_arena_berserk_from_its_button_and_command(world: Any) -> None:
    """An arena without a turn time plays on the game's first live preset; a player berserks with the button
    under the first board (the thread is told), and neither a second berserk nor one after the player's
    first move (`/tournament berserk`) is taken."""
    players = add_players(world, 2)
    by_id = {p.id: p for p in players}
    number = await create(world, game="paint", format="arena", duration=30)
    for player in players:
        await player.slash(world.channel, "tournament join", number=number)
    await world.admin.slash(world.channel, "tournament start", number=number)
    t = await tournament(world, number)
    assert t.settings.clock == "1+1"
    [game] = t.running_games()
    assert game.match_id is not None
    match = await service_of(world).matches.get(game.match_id)
    assert match.time_control is not None and match.time_control.text == "1+1"
    thread = thread_of(world, match.channel_id)
    [offer] = [m for m in thread.history() if m.author.id == world.me.id and "Berserk before" in m.content]
    first, second = by_id[match.seats[0].user_id], by_id[match.seats[1].user_id]
    told = await second.click(offer, label="Berserk")
    assert not told.ephemeral and "berserked" in reply_text(told), reply_text(told)
    again = await second.click(offer, label="Berserk")
    assert again.ephemeral and "once per game" in reply_text(again)
    moves = await suggestions(first, thread)
    await first.slash(thread, "move", notation=moves[0])
    late = await first.slash(thread, "tournament berserk")
    assert late.ephemeral and "before your first move" in reply_text(late)
    take_user_errors(world)
    row = await service_of(world).store.get_match(game.match_id)
    assert row.berserk == (1,)
    assert (await service_of(world).matches.clocks(row, running=False)) == (60.0, 30.0)
