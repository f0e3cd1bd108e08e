"""The tournament life cycle as a state machine, driven through whole events by a tiny simulated host: an
8-player Swiss with a bye, a withdrawal, a no-show and a timeout adjudication; a 5-player round robin; an
arena over simulated time; and hypothesis over random fields, results and withdrawals."""

from __future__ import annotations

import heapq
import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.service.tournaments import arena
from bot.service.tournaments import lifecycle as lc
from bot.service.tournaments.errors import (
    AlreadyJoined,
    AlreadyStarted,
    BadSettings,
    Full,
    NotJoined,
    NotOpen,
    RoleRequired,
    TooFewPlayers,
)
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


class Host:
    """What the persistence/Discord step will do, in memory: keep the value, open matches (ids from 1),
    remember every action."""

    def __init__(self, tournament: Tournament) -> None:
        self.t = tournament
        self.actions: list[lc.Action] = []
        self.running: dict[int, tuple[int, ...]] = {}
        self.ids = itertools.count(1)

    def send(self, event: lc.Event) -> list[lc.Action]:
        result = lc.step(self.t, event)
        self.t = result.tournament
        done = list(result.actions)
        self.actions += done
        for action in result.actions:
            if isinstance(action, lc.OpenMatch):
                match_id = next(self.ids)
                self.running[match_id] = action.seats
                self.send(lc.MatchOpened(action.game, match_id))
        return done

    def end(self, match_id: int, result: Result, at: float) -> list[lc.Action]:
        del self.running[match_id]
        return self.send(lc.MatchEnded(match_id, result, at))

    def by_players(self, *users: int) -> int:
        return next(m for m, seats in self.running.items() if set(users) <= set(seats))


def create(settings: Settings, players: int, first: int = 101) -> Host:
    host = Host(lc.create(1, 10, 20, 30, settings, at=0.0))
    for n in range(players):
        host.send(lc.Join(first + n, 2000.0 - 10 * n, at=1.0))
    return host


def opened(actions: list[lc.Action]) -> list[lc.OpenMatch]:
    return [a for a in actions if isinstance(a, lc.OpenMatch)]


def test_an_eight_player_swiss_with_a_bye_a_withdrawal_a_no_show_and_a_timeout() -> None:
    host = create(Settings("paint", Format.SWISS, round_s=3600, deadline_rule=DeadlineRule.LOSS_TO_MOVE), 8)
    actions = host.send(lc.Start(at=10.0))
    t = host.t
    assert t.status is Status.RUNNING and t.rounds_total == 4 and t.round == 1
    assert isinstance(actions[0], lc.PostPairings)
    assert [a.seats for a in opened(actions)] == [(101, 105), (106, 102), (103, 107), (108, 104)]
    ping = next(a for a in actions if isinstance(a, lc.Ping))
    assert sorted(ping.user_ids) == list(range(101, 109))
    assert lc.next_wakeup(t) == 10.0 + 3600

    # round 1: the first seat wins everywhere; then 108 withdraws (7 left: a bye from round 2 on)
    for match_id in list(host.running):
        host.end(match_id, Result((1.0, 0.0)), at=100.0)
    assert host.t.round == 2
    assert sum(isinstance(a, lc.PostStandings) and not a.final for a in host.actions) == 1
    host.send(lc.Leave(108, at=150.0))
    assert host.t.player(108) is not None and host.t.player(108).withdrawn_after == 2  # type: ignore[union-attr]
    # 108 was already paired in round 2: their match is resigned for them
    assert any(isinstance(a, lc.ResignMatch) and a.user_id == 108 for a in host.actions)
    for match_id in list(host.running):
        seats = host.running[match_id]
        host.end(
            match_id, Result((0.0, 1.0)) if 108 in seats and seats[0] == 108 else Result((1.0, 0.0)), 200.0
        )
    assert host.t.round == 3
    round3 = host.t.round_games(3)
    byes = [g for g in round3 if g.is_bye]
    assert len(byes) == 1 and 108 not in {u for g in round3 for u in g.seats}
    assert byes[0].result == Result((1.0,), ResultKind.BYE)

    # round 3: one match never ends; at the deadline it is adjudicated (the seat to move, Black, loses); in
    # another the second seat never moved (a no-show): a forfeit, unrated
    stuck, no_show, *rest = sorted(host.running)
    for match_id in rest:
        host.end(match_id, Result((0.5, 0.5)), 300.0)
    host.end(no_show, lc.adjudicate(DeadlineRule.LOSS_TO_MOVE, 2, to_move=1, no_shows=[1]), 400.0)
    assert not lc.is_rated(host.t, next(g.result for g in host.t.games if g.match_id == no_show))  # type: ignore[arg-type]
    assert host.send(lc.Tick(at=500.0)) == []  # nothing due yet
    deadline = host.t.round_deadline
    assert deadline is not None
    adjudicate = host.send(lc.Tick(at=deadline))
    assert adjudicate == [lc.Adjudicate(stuck, DeadlineRule.LOSS_TO_MOVE)]
    assert host.send(lc.Tick(at=deadline + 1)) == [], "asked once"
    result = lc.adjudicate(DeadlineRule.LOSS_TO_MOVE, 2, to_move=1)
    assert result == Result((1.0, 0.0), ResultKind.ADJUDICATED) and lc.is_rated(host.t, result)
    host.end(stuck, result, deadline + 5)

    # round 4, then the end
    assert host.t.round == 4
    for match_id in list(host.running):
        host.end(match_id, Result((0.0, 1.0)), 9000.0)
    t = host.t
    assert t.status is Status.FINISHED
    assert isinstance(host.actions[-2], lc.PostStandings) and host.actions[-2].final
    podium = host.actions[-1]
    assert isinstance(podium, lc.Podium)
    table = compute(t)
    assert [s.user_id for s in podium.places] == [s.user_id for s in table if s.place <= 3]
    # every round: each player still in paired or given the bye exactly once; nobody met twice
    for number in range(1, 5):
        seats = [u for g in t.round_games(number) for u in g.seats]
        still_in = [p.user_id for p in t.players if p.withdrawn_after is None or p.withdrawn_after >= number]
        assert sorted(seats) == sorted(still_in)
    pairs = Counter(frozenset(g.seats) for g in t.games if not g.is_bye)
    assert max(pairs.values()) == 1
    assert Counter(g.seats[0] for g in t.games if g.is_bye).most_common(1)[0][1] == 1
    # points: one per game (two seats) and per bye
    assert sum(s.score for s in table) == pytest.approx(
        sum(sum(g.result.points) for g in t.games if g.result)
    )


def test_a_five_player_round_robin() -> None:
    host = create(Settings("paintscape", Format.ROUND_ROBIN), 5)
    host.send(lc.Start(at=0.0))
    assert host.t.rounds_total == 5
    rng = random.Random(5)
    while host.t.status is Status.RUNNING:
        for match_id in list(host.running):
            host.end(match_id, rng.choice([Result((1.0, 0.0)), Result((0.5, 0.5)), Result((0.0, 1.0))]), 1.0)
    t = host.t
    assert t.status is Status.FINISHED and t.round == 5
    met = Counter(frozenset(g.seats) for g in t.games if not g.is_bye)
    assert met == Counter({frozenset(p): 1 for p in itertools.combinations(range(101, 106), 2)})
    rests = Counter(g.seats[0] for g in t.games if g.is_bye)
    assert rests == Counter(dict.fromkeys(range(101, 106), 1)) and all(
        g.result == Result((0.0,), ResultKind.BYE) for g in t.games if g.is_bye
    ), "each rests once, for no points"
    whites = Counter(g.seats[0] for g in t.games if not g.is_bye)
    assert all(whites[u] == 2 for u in range(101, 106)), "4 games each: 2 with the first seat"
    assert sum(s.score for s in compute(t)) == 10.0


def test_a_round_robin_withdrawal_turns_the_later_games_into_forfeits() -> None:
    host = create(Settings("paint", Format.ROUND_ROBIN), 4)
    host.send(lc.Start(at=0.0))
    for match_id in list(host.running):
        host.end(match_id, Result((0.5, 0.5)), 1.0)
    host.send(lc.Leave(104, at=2.0))
    (resign,) = [a for a in host.actions if isinstance(a, lc.ResignMatch)]
    host.end(
        resign.match_id, Result((1.0, 0.0) if host.running[resign.match_id][1] == 104 else (0.0, 1.0)), 3.0
    )
    while host.running:
        host.end(min(host.running), Result((1.0, 0.0)), 4.0)
    t = host.t
    assert t.status is Status.FINISHED
    third = t.round_games(3)
    forfeits = [g for g in third if 104 in g.seats]
    assert len(forfeits) == 1 and forfeits[0].match_id is None
    assert forfeits[0].result is not None and forfeits[0].result.kind is ResultKind.FORFEIT
    assert forfeits[0].result.points[forfeits[0].seats.index(104)] == 0.0


def test_an_arena_over_simulated_time() -> None:
    host = create(Settings("paint", Format.ARENA, duration_s=3600, deadline_rule=DeadlineRule.DRAW), 9)
    rng = random.Random(3)
    host.send(lc.Start(at=0.0))
    assert host.t.ends_at == 3600.0 and len(host.running) == 4
    clock: list[tuple[float, int]] = []

    def schedule(now: float) -> None:
        scheduled = {m for _, m in clock}
        for match_id in host.running:
            if match_id not in scheduled:
                heapq.heappush(clock, (now + rng.uniform(60, 600), match_id))

    schedule(0.0)
    late_joiner_in = False
    last_opponent: dict[int, int] = {}
    while clock:
        now, match_id = heapq.heappop(clock)
        if now >= 3600.0:
            heapq.heappush(clock, (now, match_id))
            break
        if not late_joiner_in and now > 1200:
            host.send(lc.Join(999, 1500.0, at=now))  # arenas take players while they run
            late_joiner_in = True
        seats = host.running[match_id]
        for a, b in (seats, seats[::-1]):
            assert last_opponent.get(a) != b, "an immediate rematch"
        busy = [u for s in host.running.values() for u in s]
        assert len(busy) == len(set(busy)), "a player in two matches at once"
        host.end(match_id, rng.choice([Result((1.0, 0.0)), Result((0.5, 0.5)), Result((0.0, 1.0))]), now)
        last_opponent.update({seats[0]: seats[1], seats[1]: seats[0]})
        schedule(now)
    assert host.t.status is Status.RUNNING and host.running
    assert lc.next_wakeup(host.t) == 3600.0
    actions = host.send(lc.Tick(at=3600.0))
    assert sorted(a.match_id for a in actions if isinstance(a, lc.Adjudicate)) == sorted(host.running)
    for match_id in list(host.running):
        host.end(match_id, lc.adjudicate(DeadlineRule.DRAW, 2, to_move=0), 3700.0)
    t = host.t
    assert t.status is Status.FINISHED and isinstance(host.actions[-1], lc.Podium)
    assert any(999 in g.seats for g in t.games)
    games = len([g for g in t.games if g.result is not None])
    assert games > 20
    # arena points as lichess counts them, streaks included
    for standing in compute(t):
        results = [
            g.result.points[g.seats.index(standing.user_id)]  # type: ignore[union-attr]
            for g in t.games
            if standing.user_id in g.seats
        ]
        assert standing.score == arena.points(results)[0]


def test_joining_leaving_and_starting_say_what_is_wrong() -> None:
    host = create(Settings("paint", Format.SWISS, max_players=3, role_id=77), 0)
    with pytest.raises(RoleRequired):
        host.send(lc.Join(1, 1500.0, at=0.0))
    for user in (1, 2):
        host.send(lc.Join(user, 1500.0, at=0.0, roles=frozenset({77})))
    with pytest.raises(AlreadyJoined):
        host.send(lc.Join(1, 1500.0, at=0.0, roles=frozenset({77})))
    host.send(lc.Join(3, 1500.0, at=0.0, roles=frozenset({77})))
    with pytest.raises(Full) as full:
        host.send(lc.Join(4, 1500.0, at=0.0, roles=frozenset({77})))
    assert str(full.value) == "Tournament #1 is full (player limit: 3)."
    host.send(lc.Leave(3, at=0.0))
    assert [p.user_id for p in host.t.players] == [1, 2], "leaving before the start removes the player"
    with pytest.raises(NotJoined):
        host.send(lc.Leave(3, at=0.0))
    host.send(lc.Start(at=1.0))
    with pytest.raises(AlreadyStarted):
        host.send(lc.Start(at=1.0))
    with pytest.raises(NotOpen):
        host.send(lc.Join(5, 1500.0, at=2.0, roles=frozenset({77})))
    lonely = create(Settings("paint", Format.SWISS), 1)
    with pytest.raises(TooFewPlayers) as error:
        lonely.send(lc.Start(at=0.0))
    assert str(error.value) == "Tournament #1 needs more players to start (joined: 1, needed: at least 2)."
    with pytest.raises(BadSettings):
        lc.create(2, 1, 1, 1, Settings("paint", Format.ROUND_ROBIN, seats=3), at=0.0)


def test_a_scheduled_start_starts_itself_or_cancels_without_enough_players() -> None:
    host = create(Settings("paint", Format.SWISS, starts_at=500.0), 3)
    assert lc.next_wakeup(host.t) == 500.0
    assert host.send(lc.Tick(at=499.0)) == []
    host.send(lc.Tick(at=500.0))
    assert host.t.status is Status.RUNNING and len(host.running) == 1
    empty = create(Settings("paint", Format.SWISS, starts_at=500.0), 1)
    actions = empty.send(lc.Tick(at=600.0))
    assert empty.t.status is Status.CANCELLED and actions == [lc.Cancelled("too_few_players")]


def test_cancel_aborts_running_matches_and_repeated_results_change_nothing() -> None:
    host = create(Settings("paint", Format.SWISS), 4)
    host.send(lc.Start(at=0.0))
    first = min(host.running)
    host.end(first, Result((1.0, 0.0)), 1.0)
    before = host.t
    assert lc.step(before, lc.MatchEnded(first, Result((0.0, 1.0)), 2.0)).tournament == before
    actions = host.send(lc.Cancel(at=3.0))
    assert actions == [lc.AbortMatch(m) for m in sorted(host.running)] + [lc.Cancelled("organiser")]
    assert host.t.status is Status.CANCELLED


def test_a_tilingking_event_seats_tables_of_four_by_score() -> None:
    host = create(Settings("tilingking", Format.SWISS, seats=4, rounds=3), 10)
    host.send(lc.Start(at=0.0))
    rng = random.Random(1)
    while host.t.status is Status.RUNNING:
        for match_id in list(host.running):
            seats = host.running[match_id]
            host.end(match_id, Result.from_places(rng.sample(range(1, len(seats) + 1), len(seats))), 1.0)
    t = host.t
    assert t.status is Status.FINISHED
    for number in (1, 2, 3):
        sizes = sorted(len(g.seats) for g in t.round_games(number))
        assert sizes == [3, 3, 4]
    first_seats = Counter(g.seats[0] for g in t.games)
    assert max(first_seats.values()) == 1, "nine first seats in three rounds of ten players: no one twice"


@given(
    size=st.integers(2, 12),
    seed=st.integers(0, 2**32),
    leave=st.lists(st.tuples(st.integers(0, 11), st.integers(1, 4)), max_size=3),
)
def test_every_active_player_is_paired_or_given_the_bye_once_a_round(
    size: int, seed: int, leave: list[tuple[int, int]]
) -> None:
    rng = random.Random(seed)
    host = create(Settings("paint", Format.SWISS), size)
    host.send(lc.Start(at=0.0))
    while host.t.status is Status.RUNNING:
        for index, when in leave:
            user = 101 + index
            player = host.t.player(user)
            if when == host.t.round and player is not None and player.active:
                host.send(lc.Leave(user, at=1.0))
        for match_id in list(host.running):
            if match_id in host.running:
                host.end(
                    match_id, rng.choice([Result((1.0, 0.0)), Result((0.5, 0.5)), Result((0.0, 1.0))]), 1.0
                )
    t = host.t
    assert t.status is Status.FINISHED
    for number in range(1, t.round + 1):
        seats = [u for g in t.round_games(number) for u in g.seats]
        assert len(seats) == len(set(seats))
        still_in = {p.user_id for p in t.players if p.withdrawn_after is None or p.withdrawn_after >= number}
        assert set(seats) == still_in
    assert max(Counter(frozenset(g.seats) for g in t.games if not g.is_bye).values(), default=1) == 1
    byes = Counter(g.seats[0] for g in t.games if g.is_bye)
    assert max(byes.values(), default=0) <= 1


def test_results_of_matches_that_end_on_their_own() -> None:
    assert lc.finished_result(2, winners=[1]) == Result((0.0, 1.0))
    assert lc.finished_result(2) == Result((0.5, 0.5))
    assert lc.finished_result(4, places=[2, 1, 3, 3]) == Result((2.0, 3.0, 0.5, 0.5))
    no_show = lc.finished_result(2, winners=[0], no_shows=[1])
    assert no_show == Result((1.0, 0.0), ResultKind.FORFEIT)
    assert lc.adjudicate(DeadlineRule.DRAW, 3, to_move=2) == Result((1.0, 1.0, 1.0), ResultKind.ADJUDICATED)
    assert lc.adjudicate(DeadlineRule.LOSS_TO_MOVE, 3, to_move=2) == Result(
        (1.5, 1.5, 0.0), ResultKind.ADJUDICATED
    )
    assert lc.adjudicate(DeadlineRule.DRAW, 2, to_move=0, no_shows=[0, 1]) == Result(
        (0.0, 0.0), ResultKind.FORFEIT
    ), "nobody moved: both lose"


def test_a_swiss_with_more_rounds_than_opponents_ends_when_no_pairing_is_left() -> None:
    host = create(Settings("paint", Format.SWISS, rounds=6), 4)
    host.send(lc.Start(at=0.0))
    while host.t.status is Status.RUNNING:
        host.end(min(host.running), Result((1.0, 0.0)), 1.0)
    assert host.t.status is Status.FINISHED and host.t.round == 3, "three rounds meet everyone once"
    assert isinstance(host.actions[-1], lc.Podium)


def test_an_arena_player_who_leaves_has_their_match_resigned_and_may_come_back() -> None:
    host = create(Settings("paint", Format.ARENA, duration_s=600), 4)
    host.send(lc.Start(at=0.0))
    match_id = host.by_players(101)
    actions = host.send(lc.Leave(101, at=10.0))
    assert actions == [lc.ResignMatch(match_id, 101)]
    seats = host.running[match_id]
    host.end(match_id, Result((0.0, 1.0) if seats[0] == 101 else (1.0, 0.0)), 20.0)
    assert all(101 not in s for s in host.running.values()), "not paired while away"
    host.send(lc.Join(101, 1500.0, at=30.0))
    assert host.t.player(101) is not None and host.t.player(101).active  # type: ignore[union-attr]


@settings(max_examples=25)
@given(players=st.integers(2, 14), seed=st.integers(0, 2**32))
def test_an_arena_never_has_a_player_in_two_matches_nor_an_immediate_rematch(players: int, seed: int) -> None:
    rng = random.Random(seed)
    host = create(Settings("paint", Format.ARENA, duration_s=1800), players)
    host.send(lc.Start(at=0.0))
    last: dict[int, int] = {}
    now = 0.0
    while host.running:
        now += rng.uniform(1, 120)
        if now >= 1800:  # the arena is over: no more pairings
            break
        match_id = rng.choice(sorted(host.running))
        seats = host.running[match_id]
        host.end(match_id, rng.choice([Result((1.0, 0.0)), Result((0.5, 0.5)), Result((0.0, 1.0))]), now)
        last.update({seats[0]: seats[1], seats[1]: seats[0]})
        busy = [u for s in host.running.values() for u in s]
        assert len(busy) == len(set(busy))
        free = set(range(101, 101 + players)) - set(busy)
        for a, b in itertools.combinations(sorted(free), 2):
            assert last.get(a) == b or last.get(b) == a, "two free players who may meet were left waiting"


def test_a_restarted_host_reopens_what_was_not_opened_and_readjudicates() -> None:
    """The host persisted the round but crashed before opening one match, and after asking for an
    adjudication: `recover` lists exactly that work, and nothing for a tournament that is not running."""
    step = lc.step(create(Settings("paint", Format.SWISS, round_s=60), 4).t, lc.Start(at=0.0))
    t = step.tournament
    first, second = [a for a in step.actions if isinstance(a, lc.OpenMatch)]
    t = lc.step(t, lc.MatchOpened(first.game, 41)).tournament  # the second was never opened
    assert lc.recover(t) == (second,)
    t = lc.step(t, lc.Tick(at=60.0)).tournament
    assert lc.recover(t) == (lc.Adjudicate(41, DeadlineRule.DRAW), second)
    assert lc.recover(lc.step(t, lc.Cancel(at=61.0)).tournament) == ()
