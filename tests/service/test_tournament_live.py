"""Tournaments on a live clock (bot/service/tournaments/live.py), over a real store (both databases) and a
fake clock: the event's control reaches every match, arenas default to one, berserk halves a clock and adds
a point to a win, and a live Swiss opens its rounds on a timer and scores a player who never moves as a
no-show."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.service import Service
from bot.service.errors import AlreadyBerserk, BerserkTooLate, NoBerserk, NotSeated
from bot.service.timecontrol import (
    FIRST_MOVE_SECONDS,
    Stamp,
    TimeControl,
    after_move,
    presets,
    remaining,
)
from bot.service.tournaments import lifecycle
from bot.service.tournaments.arena import BERSERK_BONUS, WIN
from bot.service.tournaments.host import BERSERK_MIN_PLIES
from bot.service.tournaments.live import event_clock
from bot.service.tournaments.model import Format, Result, ResultKind, Settings, Status
from bot.service.tournaments.standings import compute
from games.base import InvalidOptions, Termination
from tests.service.conftest import FakeClock, ServiceFactory
from tests.service.test_tournament_host import make, play_out, settle


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


async def _arena(
    service: Service, clock_text: str | None = "3+2", channels: int = 10_000, target: int = 3
) -> tuple[int, int, int, int]:
    """A running two-player race arena on a live clock: (tournament, match, seat 0's user, seat 1's); its
    matches are played in channels from `channels` on."""
    t, recorder = await make(
        service, Settings("race", Format.ARENA, {"target": target}, duration_s=600, clock=clock_text), 2
    )
    recorder.channels = itertools.count(channels)
    t = await service.tournaments.begin(t.id, 1)
    [game] = t.running_games()
    assert game.match_id is not None
    view = await service.matches.get(game.match_id)
    return t.id, game.match_id, view.seats[0].user_id, view.seats[1].user_id


async def test_berserk_halves_the_clock_drops_the_increment_and_survives_a_restart(
    service: Service, open_service: ServiceFactory, clock: FakeClock
) -> None:
    _, match_id, first, second = await _arena(service)
    berserked = await service.tournaments.berserk(match_id, first)
    assert berserked.match.berserk == (0,) and berserked.user_id == first
    row = await service.store.get_match(match_id)
    assert row is not None and await service.matches.clocks(row) == (90.0, 180.0)
    with pytest.raises(AlreadyBerserk):
        await service.tournaments.berserk(match_id, first)
    await service.matches.play(match_id, first, "1")  # the first move costs nothing
    clock.advance(5)
    await service.matches.play(match_id, second, "1")
    clock.advance(10)
    row = await service.store.get_match(match_id)
    assert row is not None and await service.matches.clocks(row) == (80.0, 180.0)
    later = await open_service()  # another process, or this one after a restart: the seats are stored
    row = await later.store.get_match(match_id)
    assert row is not None and row.berserk == (0,)
    assert await later.matches.clocks(row) == (80.0, 180.0)


async def test_berserk_is_refused_after_the_first_move_and_outside_live_arenas(
    service: Service, clock: FakeClock
) -> None:
    _, match_id, first, _ = await _arena(service)
    await service.matches.play(match_id, first, "1")
    with pytest.raises(BerserkTooLate):
        await service.tournaments.berserk(match_id, first)
    with pytest.raises(NotSeated):
        await service.tournaments.berserk(match_id, 999)
    _, correspondence, user, _ = await _arena(service, clock_text=None, channels=20_000)
    with pytest.raises(NoBerserk):
        await service.tournaments.berserk(correspondence, user)
    t, recorder = await make(service, Settings("race", Format.SWISS, {"target": 3}, rounds=1, clock="3+2"), 2)
    recorder.channels = itertools.count(30_000)
    [game] = (await service.tournaments.begin(t.id, 1)).running_games()
    assert game.match_id is not None
    swiss = await service.matches.get(game.match_id)
    with pytest.raises(NoBerserk):
        await service.tournaments.berserk(game.match_id, swiss.seats[0].user_id)


async def test_a_berserk_win_scores_one_arena_point_more(service: Service, clock: FakeClock) -> None:
    """Both berserk in a race to 30 by ones (well over `BERSERK_MIN_PLIES`): the winner scores one point
    more than a win, the loser nothing."""
    t_id, match_id, first, second = await _arena(service, target=30)
    await service.tournaments.berserk(match_id, first)
    await service.tournaments.berserk(match_id, second)
    view = await service.matches.get(match_id)
    while view.is_active:
        assert view.user_to_move is not None
        view = (await service.matches.play(match_id, view.user_to_move, "1")).match
    assert view.outcome is not None and view.ply >= BERSERK_MIN_PLIES
    winner = view.seats[view.outcome.ranks.index(0)].user_id
    loser = first if winner == second else second
    await settle(service)
    t = await service.tournaments.get(t_id)
    game = next(g for g in t.games if g.match_id == match_id)
    assert set(game.berserk) == {first, second}
    scores = {s.user_id: s.score for s in compute(t)}
    assert scores == {winner: WIN + BERSERK_BONUS, loser: 0.0}


async def test_a_berserk_win_in_a_few_moves_earns_no_bonus(service: Service, clock: FakeClock) -> None:
    """As lichess: the extra point needs a game of `BERSERK_MIN_PLIES`; a quick win is a plain win."""
    t_id, match_id, first, second = await _arena(service)
    await service.tournaments.berserk(match_id, second)
    await service.matches.play(match_id, first, "1")
    await service.matches.play(match_id, second, "2")  # reaches 3 on ply 2: seat 1 wins
    assert BERSERK_MIN_PLIES > 2
    await settle(service)
    t = await service.tournaments.get(t_id)
    game = next(g for g in t.games if g.match_id == match_id)
    assert game.berserk == ()
    assert {s.user_id: s.score for s in compute(t)} == {second: WIN, first: 0.0}


async def test_a_live_swiss_opens_its_next_round_on_a_timer(service: Service, clock: FakeClock) -> None:
    settings = Settings("race", Format.SWISS, {"target": 3}, rounds=2, clock="3+2", round_break_s=90)
    t, recorder = await make(service, settings, 4)
    host = service.tournaments
    t = await host.begin(t.id, 1)
    for game in t.running_games():
        assert game.match_id is not None
        await play_out(service, game.match_id)
    await settle(service)
    t = await host.get(t.id)
    ended = clock()
    assert t.round == 1 and t.next_round_at == ended + 90
    assert lifecycle.next_wakeup(t) == ended + 90
    [posted] = [a for a in recorder.actions if isinstance(a, lifecycle.PostStandings)]
    assert posted.next_round_at == ended + 90
    clock.advance(89)
    await host.tick()
    assert (await host.get(t.id)).round == 1  # not yet
    clock.advance(1)
    await host.tick()
    t = await host.get(t.id)
    assert t.round == 2 and t.next_round_at is None and len(t.running_games()) == 2
    for game in t.running_games():
        assert game.match_id is not None
        await play_out(service, game.match_id)
    await settle(service)
    assert (await host.get(t.id)).status is Status.FINISHED  # after the last round: no break


async def test_a_player_who_never_makes_a_first_move_is_a_no_show(service: Service, clock: FakeClock) -> None:
    t, _ = await make(service, Settings("race", Format.ROUND_ROBIN, {"target": 3}, clock="3+2"), 2)
    host = service.tournaments
    t = await host.begin(t.id, 1)
    [game] = t.running_games()
    assert game.match_id is not None
    view = await service.matches.get(game.match_id)
    await service.matches.play(game.match_id, view.seats[0].user_id, "1")
    clock.advance(FIRST_MOVE_SECONDS)  # seat 1's first move never comes
    event = await service.matches.flag(game.match_id, 1)
    assert event is not None and event.finished is not None
    outcome = event.finished.match.outcome
    assert outcome is not None and outcome.termination is Termination.ABORTED
    await settle(service)
    t = await host.get(t.id)
    [ended] = [g for g in t.games if g.number == game.number]
    assert ended.result == Result((1.0, 0.0), ResultKind.FORFEIT)
    assert not lifecycle.is_rated(t, ended.result)
    scores = {s.user_id: s.score for s in compute(t)}
    assert scores == {view.seats[0].user_id: 1.0, view.seats[1].user_id: 0.0}


@given(
    st.sampled_from([TimeControl(60, 1), TimeControl(180, 2), TimeControl(300, 3), TimeControl(15, 0)]),
    st.lists(st.floats(0, 20, allow_nan=False), min_size=2, max_size=30),
)
def test_a_berserked_clock_is_half_the_base_less_the_time_spent_and_never_earns(
    control: TimeControl, thinks: list[float]
) -> None:
    """Two seats alternate, seat 0 berserked: after each of its moves its clock is half the base less every
    second it spent after its first move (no increment), while seat 1 earns its increment as before."""
    log: list[Stamp] = []
    spent = [0.0, 0.0]
    moves = [0, 0]
    for index, think in enumerate(thinks):
        seat = index % 2
        clock = after_move(control, seat, log, 0.0, think, berserk=(0,))
        if moves[seat]:
            spent[seat] += think
        moves[seat] += 1
        log.append(Stamp(seat, True, clock))
        if seat == 0:
            assert clock == pytest.approx(max(0.0, control.base / 2 - spent[0])) or clock == 0.0
            assert clock <= control.base / 2
    assert remaining(control, 2, [], berserk=(0,)) == [control.base / 2, float(control.base)]
