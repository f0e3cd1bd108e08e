"""Tournaments on a live clock (bot/service/tournaments/live.py), over a real store (both databases) and a
fake clock: the event's control reaches every match, arenas default to one, berserk halves a clock and adds
a point to a win, and a live Swiss opens its rounds on a timer and scores a player who never moves as a
no-show."""

from __future__ import annotations

import pytest

from bot.service import Service
from bot.service.timecontrol import TimeControl, presets
from bot.service.tournaments.live import event_clock
from bot.service.tournaments.model import Format, Settings, Status
from games.base import InvalidOptions
from tests.service.conftest import FakeClock
from tests.service.test_tournament_host import make, settle


def test_an_arena_defaults_to_the_games_first_preset_unless_a_turn_time_is_given(service: Service) -> None:
    rules = service.rules("hoard")
    first = presets(rules)[0].text
    assert event_clock(Format.ARENA, None, False, rules) == first
    assert event_clock(Format.ARENA, None, True, rules) is None
    assert event_clock(Format.ARENA, "none", False, rules) is None
    assert event_clock(Format.SWISS, None, False, rules) is None
    assert event_clock(Format.ROUND_ROBIN, "5+3", False, rules) == "5+3"
    with pytest.raises(InvalidOptions):
        event_clock(Format.SWISS, "five", False, rules)


async def test_every_match_of_a_live_event_gets_its_clock(service: Service, clock: FakeClock) -> None:
    t, _ = await make(service, Settings("hoard", Format.SWISS, {"target": 30}, rounds=2, clock="3+2"), 4)
    t = await service.tournaments.begin(t.id, 1)
    assert t.status is Status.RUNNING
    for game in t.running_games():
        assert game.match_id is not None
        row = await service.store.get_match(game.match_id)
        assert row is not None and row.time_control == TimeControl(180, 2)
    await settle(service)
