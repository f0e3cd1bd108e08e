"""The tournament host over a real store (both databases): tournaments stepped, stored with their outbox and
carried out through the match service; deadlines adjudicated; failures retried; matches opened once."""

from __future__ import annotations

import itertools
import signal
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

import games
from bot.service import Service
from bot.service.records import MatchStatus
from bot.service.shards import Shards
from bot.service.store.base import TournamentGameTaken, TournamentWrite
from bot.service.tournaments import codec, lifecycle
from bot.service.tournaments.host import ADJUDICATION, ARENA_EARLY_PLIES, IDLE_RETRY, TournamentHost
from bot.service.tournaments.model import (
    DeadlineRule,
    Format,
    Result,
    ResultKind,
    Settings,
    Status,
    Tournament,
)
from bot.service.tournaments.standings import compute
from tests.service.conftest import FakeClock, ServiceFactory

GUILD = 1 << 22
CHANNEL = 500
ROOT = Path(__file__).resolve().parents[2]


class Recorder:
    """The Discord side, faked: a channel per match, and every announcement kept."""

    def __init__(self, host: TournamentHost) -> None:
        self.channels = itertools.count(10_000)
        self.actions: list[lifecycle.Action] = []
        self.fail_opening = 0
        host.channel_for = self.channel_for
        host.announce = self.announce

    async def channel_for(self, t: Tournament, action: lifecycle.OpenMatch) -> int:
        if self.fail_opening:
            self.fail_opening -= 1
            raise RuntimeError("Discord is down")
        return next(self.channels)

    async def announce(self, t: Tournament, action: lifecycle.Action) -> None:
        self.actions.append(action)

    def count(self, kind: type) -> int:
        return sum(1 for a in self.actions if isinstance(a, kind))


async def make(service: Service, settings: Settings, players: int) -> tuple[Tournament, Recorder]:
    host = service.tournaments
    recorder = Recorder(host)
    t = await host.create(GUILD, CHANNEL, 1, settings)
    for user in range(101, 101 + players):
        await host.join(t.id, user)
    return t, recorder


async def play_out(service: Service, match_id: int, winner_seat: int = 1) -> None:
    """Race to 3: seat 0 adds 2, then seat 1 adds 1 and wins (or seat 0 wins with 2 + 1 after a 1 by seat
    1... kept simple: `winner_seat` 0 has seat 1 resign after both moved)."""
    view = await service.matches.get(match_id)
    first, second = view.seats[0].user_id, view.seats[1].user_id
    await service.matches.play(match_id, first, "1")
    if winner_seat == 1:
        await service.matches.play(match_id, second, "2")
    else:
        await service.matches.play(match_id, second, "1")
        await service.matches.resign(match_id, second)


async def settle(service: Service) -> None:
    """Let the match listener's reports run."""
    for task in list(service.tournaments._tasks):
        await task


async def test_a_swiss_with_a_bye_runs_to_its_podium_and_every_match_is_opened_once(service: Service) -> None:
    t, recorder = await make(service, Settings("race", Format.SWISS, {"target": 3}, rounds=3), 5)
    host = service.tournaments
    t = await host.begin(t.id, 1)
    for _ in range(20):
        t = await host.get(t.id)
        if t.status is not Status.RUNNING:
            break
        for game in t.running_games():
            assert game.match_id is not None
            await play_out(service, game.match_id, winner_seat=game.number % 2)
        await settle(service)
    t = await host.get(t.id)
    assert t.status is Status.FINISHED and t.round == 3
    byes = Counter(g.seats[0] for g in t.games if g.is_bye)
    assert sum(byes.values()) == 3 and max(byes.values()) == 1
    matches = [g.match_id for g in t.games if not g.is_bye]
    assert len(matches) == len(set(matches)) == 6
    for game in t.games:
        if not game.is_bye:
            assert game.match_id is not None
            assert await service.store.tournament_of_match(game.match_id) == (t.id, game.number)
            row = await service.store.get_match(game.match_id)
            assert row is not None and row.rated and row.guild_id == GUILD
    assert recorder.count(lifecycle.Podium) == 1
    assert recorder.count(lifecycle.PostPairings) == 3
    assert not await service.store.pending_actions()
    assert [x.id for x in await host.of_user(101)] == [t.id]


async def test_the_round_deadline_adjudicates_by_the_rule_and_a_seat_that_never_moved_forfeits(
    service: Service, clock: FakeClock
) -> None:
    """At the round's deadline a running match where everyone moved is adjudicated by the organiser's rule;
    one where a seat never moved is aborted (unrated): a no-show's forfeit once that seat's own turn time is
    over (here the turn clock has not got to it yet), and no points for anyone while a seat whose first turn
    came late in the round is still within its time."""
    settings = Settings(
        "race",
        Format.SWISS,
        {"target": 30},
        rounds=1,
        turn_s=1800,
        round_s=3600,
        deadline_rule=DeadlineRule.LOSS_TO_MOVE,
    )
    t, _ = await make(service, settings, 6)
    host = service.tournaments
    t = await host.begin(t.id, 1)
    played, absent, late = [g.match_id for g in t.round_games()]
    assert played is not None and absent is not None and late is not None
    view = await service.matches.get(played)
    await service.matches.play(played, view.seats[0].user_id, "1")
    await service.matches.play(played, view.seats[1].user_id, "1")  # seat 0 is to move at the deadline
    clock.advance(3500)
    late_view = await service.matches.get(late)
    await service.matches.play(late, late_view.seats[0].user_id, "1")  # seat 1's first turn: 100 s left
    clock.advance(99)
    await host.tick()
    assert (await host.get(t.id)).running_games()
    clock.advance(2)
    await host.tick()
    await settle(service)
    t = await host.get(t.id)
    assert t.status is Status.FINISHED
    by_match = {g.match_id: g.result for g in t.games}
    assert by_match[played] == Result((0.0, 1.0), ResultKind.ADJUDICATED)
    assert by_match[absent] is not None and by_match[absent].kind is ResultKind.FORFEIT
    assert by_match[absent].points == (0.0, 1.0)  # seat 0 never moved in its 1800 s
    assert by_match[late] == Result((0.0, 0.0), ResultKind.FORFEIT)  # unplayed, nobody's fault: no points
    adjudicated = await service.store.get_match(played)
    assert adjudicated is not None and adjudicated.outcome is not None
    assert adjudicated.outcome.termination is ADJUDICATION and adjudicated.ratings_applied
    for match_id in (absent, late):
        aborted = await service.store.get_match(match_id)
        assert aborted is not None and aborted.status is MatchStatus.ABORTED and not aborted.ratings_applied


@pytest.mark.parametrize("rule", list(DeadlineRule))
async def test_a_seat_within_its_turn_time_at_the_deadline_is_no_no_show(
    service: Service, clock: FakeClock, rule: DeadlineRule
) -> None:
    """Nobody moved yet, the first seat still within its turn time when the round's deadline comes: the
    match is aborted, unrated, and nobody scores, whatever the organiser's rule (it decides games that were
    played); the first seat is no no-show."""
    settings = Settings("race", Format.SWISS, {"target": 30}, rounds=1, round_s=60, deadline_rule=rule)
    t, _ = await make(service, settings, 2)
    host = service.tournaments
    t = await host.begin(t.id, 1)
    [game] = t.round_games()
    clock.advance(61)
    await host.tick()
    await settle(service)
    [game] = (await host.get(t.id)).games
    assert game.result == Result((0.0, 0.0), ResultKind.FORFEIT)
    assert game.match_id is not None
    row = await service.store.get_match(game.match_id)
    assert row is not None and row.status is MatchStatus.ABORTED and not row.ratings_applied


async def test_an_opening_that_failed_is_retried_by_the_clock(service: Service) -> None:
    t, recorder = await make(service, Settings("race", Format.SWISS, {"target": 3}, rounds=1), 2)
    recorder.fail_opening = 1
    t = await service.tournaments.begin(t.id, 1)
    [game] = t.round_games()
    assert game.match_id is None and len(await service.store.pending_actions(t.id)) == 1
    await service.tournaments.tick()
    [game] = (await service.tournaments.get(t.id)).round_games()
    assert game.match_id is not None and not await service.store.pending_actions(t.id)


async def test_a_withdrawal_before_the_match_opened_forfeits_it_and_the_late_match_is_aborted(
    service: Service,
) -> None:
    t, recorder = await make(service, Settings("race", Format.SWISS, {"target": 3}, rounds=2), 2)
    recorder.fail_opening = 1
    t = await service.tournaments.begin(t.id, 1)
    [game] = t.round_games()
    t = await service.tournaments.leave(t.id, game.seats[0])
    [game] = t.round_games()
    assert game.result == Result((0.0, 1.0), ResultKind.FORFEIT)
    await service.tournaments.tick()  # the opening retried: the match opens and is aborted at once
    await settle(service)
    t = await service.tournaments.get(t.id)
    [game] = t.round_games(1)
    assert game.match_id is not None
    row = await service.store.get_match(game.match_id)
    assert row is not None and row.status is MatchStatus.ABORTED
    assert t.status is Status.FINISHED  # one player left: nobody to pair in round 2


async def test_an_arena_draw_in_the_first_moves_scores_nothing(service: Service, clock: FakeClock) -> None:
    t, _ = await make(service, Settings("hoard", Format.ARENA, {"target": 30}, duration_s=600), 2)
    host = service.tournaments
    t = await host.begin(t.id, 1)
    [game] = t.running_games()
    assert game.match_id is not None
    view = await service.matches.get(game.match_id)
    await service.matches.play(game.match_id, view.seats[0].user_id, "pass")
    await service.matches.play(game.match_id, view.seats[1].user_id, "pass")
    await settle(service)
    t = await host.get(t.id)
    first = next(g for g in t.games if g.number == game.number)
    assert first.result == Result((0.0, 0.0), ResultKind.PLAYED)
    assert ARENA_EARLY_PLIES > 2
    assert [s.score for s in compute(t)] == [0.0, 0.0]
    clock.advance(601)
    await host.tick()
    for g in (await host.get(t.id)).running_games():  # the re-pairing: adjudicated at the end
        assert g.adjudicating
    await settle(service)
    assert (await host.get(t.id)).status is Status.FINISHED


async def test_a_round_robin_of_five_rests_each_player_once(service: Service) -> None:
    t, _ = await make(service, Settings("race", Format.ROUND_ROBIN, {"target": 3}), 5)
    host = service.tournaments
    t = await host.begin(t.id, 1)
    for _ in range(10):
        t = await host.get(t.id)
        if t.status is not Status.RUNNING:
            break
        for game in t.running_games():
            assert game.match_id is not None
            await play_out(service, game.match_id)
        await settle(service)
    t = await host.get(t.id)
    assert t.status is Status.FINISHED and t.round == 5
    pairs = Counter(frozenset(g.seats) for g in t.games if not g.is_bye)
    assert len(pairs) == 10 and set(pairs.values()) == {1}


async def test_the_store_guards_the_version_and_keys_matches_by_tournament_game(service: Service) -> None:
    store = service.store
    t, _ = await make(service, Settings("race", Format.SWISS, {"target": 3}), 2)
    row = await store.get_tournament(t.id)
    assert row is not None and row.version == 3  # created, then two joins
    write = TournamentWrite(Status.RUNNING.value, codec.dumps(t), 5.0, (101, 102))
    actions = [codec.encode(lifecycle.Ping(1, (101, 102)))]
    assert await store.save_tournament(t.id, row.version - 1, write, actions, 1.0) is None
    [item] = await store.save_tournament(t.id, row.version, write, actions, 1.0) or []
    assert codec.decode(item.action) == lifecycle.Ping(1, (101, 102))
    assert [i.id for i in await store.pending_actions(t.id)] == [item.id]
    await store.action_done(item.id)
    assert await store.pending_actions(t.id) == []
    assert await store.due_tournaments(5.0) == [t.id] and await store.due_tournaments(4.9) == []
    assert await store.next_tournament_wakeup() == 5.0
    view = await service.matches.start(
        "race",
        {},
        [(101, None), (102, None)],
        seed=1,
        rated=True,
        turn_timeout=60.0,
        guild_id=GUILD,
        channel_id=77,
        tournament_game=(t.id, 1),
    )
    with pytest.raises(TournamentGameTaken):
        await service.matches.start(
            "race",
            {},
            [(101, None), (102, None)],
            seed=1,
            rated=True,
            turn_timeout=60.0,
            guild_id=GUILD,
            channel_id=78,
            tournament_game=(t.id, 1),
        )
    assert await store.tournament_match(t.id, 1) == view.id
    assert await store.active_match_in_channel(78) is None


def test_the_codec_reads_back_what_it_wrote() -> None:
    settings = Settings("paint", Format.SWISS, {"size": [3, 4]}, tiebreaks=None, round_s=60)
    t = lifecycle.create(3, GUILD, CHANNEL, 1, settings, 5.0)
    t = lifecycle.step(t, lifecycle.Join(7, 1500.0, 6.0)).tournament
    t = lifecycle.step(t, lifecycle.Join(8, 1400.0, 6.0)).tournament
    started = lifecycle.step(t, lifecycle.Start(7.0))
    assert codec.loads(codec.dumps(started.tournament)) == replace(
        started.tournament, settings=replace(started.tournament.settings, options={"size": [3, 4]})
    )
    for action in started.actions:
        assert codec.decode(codec.encode(action)) == action
    with pytest.raises(ValueError):
        codec.decode({"_t": "Popen"})


@pytest.mark.parametrize("point", ["saved", "opened"])
async def test_a_host_killed_while_opening_a_round_completes_it_exactly_once_after_a_restart(
    store_url: str, open_service: ServiceFactory, point: str
) -> None:
    worker = subprocess.Popen(
        [sys.executable, "-m", "tests.service.tournament_crash_worker", store_url, point],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    out, _ = worker.communicate(timeout=120)
    assert worker.returncode == -signal.SIGKILL, out
    tournament_id = int(out.split()[1])

    service = await open_service()
    recorder = Recorder(service.tournaments)
    recorder.channels = itertools.count(20_000)
    before = await service.tournaments.get(tournament_id)
    assert before.round == 2 and before.status is Status.RUNNING
    await service.tournaments.recover()
    await service.tournaments.recover()  # a second start-up finds nothing more to do
    await settle(service)
    t = await service.tournaments.get(tournament_id)
    round_two = t.round_games(2)
    assert len(round_two) == 2 and all(g.match_id is not None for g in round_two)
    active = await service.store.match_ids(MatchStatus.ACTIVE)
    assert sorted(active) == sorted(g.match_id for g in round_two)
    for game in round_two:
        assert game.match_id is not None
        assert await service.store.tournament_match(tournament_id, game.number) == game.match_id
        await play_out(service, game.match_id)
    await settle(service)
    t = await service.tournaments.get(tournament_id)
    assert t.status is Status.FINISHED and len(t.games) == 4
    assert recorder.count(lifecycle.Podium) == 1 and not await service.store.pending_actions()


async def test_tables_of_three_seat_everyone_and_rank_by_places(service: Service) -> None:
    settings = Settings("hoard", Format.SWISS, {"target": 30}, seats=3, rounds=1)
    t, _ = await make(service, settings, 6)
    t = await service.tournaments.begin(t.id, 1)
    tables = t.round_games()
    assert sorted(len(g.seats) for g in tables) == [3, 3]
    for game in tables:
        assert game.match_id is not None
        view = await service.matches.get(game.match_id)
        assert [p.user_id for p in view.seats] == list(game.seats)
        for seat in range(3):  # seat 0 scores 2, the others 1 each, then everyone passes
            await service.matches.play(game.match_id, game.seats[seat], "2" if seat == 0 else "1")
        for seat in range(3):
            await service.matches.play(game.match_id, game.seats[seat], "pass")
    await settle(service)
    t = await service.tournaments.get(t.id)
    assert t.status is Status.FINISHED
    for game in t.games:
        assert game.result == Result((2.0, 0.5, 0.5))


async def test_only_the_process_owning_the_guilds_shard_runs_its_clock(
    open_service: ServiceFactory, clock: FakeClock
) -> None:
    owner = await open_service(shards=Shards(2, frozenset({1})))
    other = await open_service(shards=Shards(2, frozenset({0})))
    assert owner.shards is not None and owner.shards.shard_of(GUILD) == 1
    Recorder(owner.tournaments), Recorder(other.tournaments)
    settings = Settings("race", Format.SWISS, {"target": 3}, rounds=1, starts_at=clock() + 60)
    t = await owner.tournaments.create(GUILD, CHANNEL, 1, settings)
    for user in (101, 102):
        await owner.tournaments.join(t.id, user)
    clock.advance(61)
    await other.tournaments.tick()
    assert (await other.tournaments.get(t.id)).status is Status.OPEN
    await owner.tournaments.tick()
    await owner.tournaments.tick()
    started = await owner.tournaments.get(t.id)
    assert started.status is Status.RUNNING and len(started.games) == 1


async def test_a_due_tournament_with_nothing_to_do_does_not_spin_the_clock(
    service: Service, clock: FakeClock
) -> None:
    settings = Settings("race", Format.SWISS, {"target": 3}, rounds=1, round_s=60)
    t, recorder = await make(service, settings, 2)
    recorder.fail_opening = 10
    t = await service.tournaments.begin(t.id, 1)
    clock.advance(61)  # the deadline passed, but the only game has no match to adjudicate yet
    await service.tournaments.tick()
    assert await service.tournaments.next_due() == clock() + IDLE_RETRY
    recorder.fail_opening = 0
    clock.advance(IDLE_RETRY)
    await service.tournaments.tick()  # the opening is retried, then the next tick adjudicates it
    await service.tournaments.tick()
    await settle(service)
    assert (await service.tournaments.get(t.id)).status is Status.FINISHED


async def test_a_tilingking_seat_of_three_that_never_moves_forfeits(
    service: Service, clock: FakeClock
) -> None:
    """A 3-player TilingKing table whose third seat never moves: its first timeout comes before every seat
    has chosen a move, so the match is aborted (it never goes on with that seat passing) and the game is a
    forfeit lost by the no-show, unrated, as in 2-player events; the two who played share first place."""
    rules = games.get("tilingking")
    settings = Settings("tilingking", Format.SWISS, {"board": "hex5"}, seats=3, rounds=1, turn_s=60)
    t, _ = await make(service, settings, 3)
    t = await service.tournaments.begin(t.id, 1)
    (game,) = t.round_games()
    assert game.match_id is not None
    for _ in range(2):
        view = await service.matches.get(game.match_id)
        move = rules.notation(view.state, next(iter(rules.legal_moves(view.state))))
        assert view.to_move is not None
        await service.matches.play(game.match_id, view.seats[view.to_move].user_id, move)
    view = await service.matches.get(game.match_id)
    absent = view.to_move
    assert absent is not None
    clock.advance(61)
    await service.matches.expire_due()
    await settle(service)
    t = await service.tournaments.get(t.id)
    (result,) = [g.result for g in t.games]
    assert result is not None and result.kind is ResultKind.FORFEIT
    assert [p for s, p in enumerate(result.points) if s == absent] == [0.0]
    assert sorted(result.points) == [0.0, 1.5, 1.5]
    stored = await service.store.get_match(game.match_id)
    assert stored is not None and stored.status is MatchStatus.ABORTED and not stored.ratings_applied
