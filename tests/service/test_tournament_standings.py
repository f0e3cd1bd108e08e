"""Standings and tie-breaks against hand-worked examples (FIDE C.07, unplayed rounds as its article 16
treats them), and the speed of 1,000 players' standings."""

from __future__ import annotations

import random
import time

from bot.service.tournaments.model import (
    Format,
    Game,
    Player,
    Result,
    ResultKind,
    Settings,
    Status,
    TieBreak,
    Tournament,
)
from bot.service.tournaments.standings import compute

A, B, C, D, E = 1, 2, 3, 4, 5
WIN, DRAW, LOSS = Result((1.0, 0.0)), Result((0.5, 0.5)), Result((0.0, 1.0))
BYE = Result((1.0,), ResultKind.BYE)


def tournament(
    settings: Settings, players: list[Player], games: list[tuple[int, tuple[int, ...], Result]]
) -> Tournament:
    return Tournament(
        1,
        10,
        20,
        30,
        settings,
        created_at=0.0,
        status=Status.RUNNING,
        players=tuple(players),
        games=tuple(Game(n, r, seats, match_id=n, result=res) for n, (r, seats, res) in enumerate(games, 1)),
        round=max(r for r, _, _ in games),
        rounds_total=3,
    )


def swiss_with_unplayed_rounds() -> Tournament:
    """Five players, three rounds, with every kind of unplayed round:

    R1: A-B 1-0, C-D 1/2, E bye.
    R2: A-C 1-0, E-B 1/2, D bye.
    R3: A-D 1/2, C-E won by C by forfeit (E never moved); B withdrew after round 2 and is absent.
    """
    players = [Player(A, 1900, 1), Player(B, 1800, 2, withdrawn_after=2), Player(C, 1700, 3)]
    players += [Player(D, 1600, 4), Player(E, 1500, 5)]
    forfeit = Result((1.0, 0.0), ResultKind.FORFEIT)
    games = [
        (1, (A, B), WIN),
        (1, (C, D), DRAW),
        (1, (E,), BYE),
        (2, (A, C), WIN),
        (2, (E, B), DRAW),
        (2, (D,), BYE),
        (3, (A, D), DRAW),
        (3, (C, E), forfeit),
    ]
    return tournament(Settings("paint", Format.SWISS), players, games)


def test_buchholz_median_and_sonneborn_berger_with_byes_forfeits_and_a_withdrawal() -> None:
    """Scores: A 1+1+1/2 = 2.5, B 0+1/2+0 = 0.5, C 1/2+0+1 = 1.5, D 1/2+1+1/2 = 2, E 1+1/2+0 = 1.5.
    Adjusted scores (a voluntary unplayed round counts 1/2): B 0.5 + 0.5 (absent R3) = 1, E 1.5 + 0.5
    (forfeit lost) = 2; A 2.5, C 1.5 (a forfeit won keeps its point), D 2 (so does a bye).

    Buchholz (played: the opponent's adjusted score; unplayed: the player's own score, the dummy):
      A: B 1 + C 1.5 + D 2 = 4.5            B: A 2.5 + E 2 + own 0.5 = 5
      C: D 2 + A 2.5 + own 1.5 = 6          D: C 1.5 + own 2 + A 2.5 = 6
      E: own 1.5 + B 1 + own 1.5 = 4
    Median Buchholz (without the highest and the lowest): A 1.5, B 2, C 2, D 2, E 1.5.
    Sonneborn-Berger (points against an opponent x their adjusted score; unplayed: points x own score):
      A: 1x1 + 1x1.5 + 1/2x2 = 3.5         B: 0x2.5 + 1/2x2 + 0x0.5 = 1
      C: 1/2x2 + 0x2.5 + 1x1.5 = 2.5        D: 1/2x1.5 + 1x2 + 1/2x2.5 = 4
      E: 1x1.5 + 1/2x1 + 0x1.5 = 2
    Wins (FIDE's WIN, unplayed wins too): A 2, B 0, C 1 (forfeit), D 1 (bye), E 1 (bye).
    Order: A 2.5, D 2, then C and E on 1.5 split by Buchholz (6 against 4), B last."""
    table = compute(swiss_with_unplayed_rounds())
    order = (TieBreak.BUCHHOLZ, TieBreak.MEDIAN_BUCHHOLZ, TieBreak.SONNEBORN_BERGER)
    rows = {
        s.user_id: (s.place, s.score, *(s.tiebreaks[i] for i in range(len(order))), s.tiebreaks[4])
        for s in table
    }
    assert rows == {
        A: (1, 2.5, 4.5, 1.5, 3.5, 2.0),
        D: (2, 2.0, 6.0, 2.0, 4.0, 1.0),
        C: (3, 1.5, 6.0, 2.0, 2.5, 1.0),
        E: (4, 1.5, 4.0, 1.5, 2.0, 1.0),
        B: (5, 0.5, 5.0, 2.0, 1.0, 0.0),
    }
    assert [s.user_id for s in table] == [A, D, C, E, B]
    by_user = {s.user_id: s for s in table}
    assert by_user[B].withdrawn and not by_user[A].withdrawn
    assert (by_user[A].played, by_user[A].wins, by_user[A].draws, by_user[A].losses) == (3, 2, 1, 0)
    assert by_user[E].played == 1, "a bye and a forfeit are not games played"


def round_robin_of_four(tiebreaks: tuple[TieBreak, ...] | None = None) -> Tournament:
    """A beats B and D, loses to C; B beats C and D; C beats A, draws D; D draws C.
    Scores: A 2, B 2, C 1.5, D 0.5."""
    players = [Player(u, 1500, u) for u in (A, B, C, D)]
    games = [
        (1, (A, D), WIN),
        (1, (B, C), WIN),
        (2, (D, C), DRAW),
        (2, (A, B), WIN),
        (3, (B, D), WIN),
        (3, (C, A), WIN),
    ]
    return tournament(Settings("paint", Format.ROUND_ROBIN, tiebreaks=tiebreaks), players, games)


def test_direct_encounter_puts_the_winner_of_the_game_between_the_tied_players_first() -> None:
    """A and B tie on 2 points; A beat B, so direct encounter (first in a round robin) gives A 1, B 0.
    Sonneborn-Berger: A 1x2 (B) + 1x0.5 (D) = 2.5, B 1x1.5 (C) + 1x0.5 (D) = 2."""
    table = compute(round_robin_of_four())
    assert [(s.user_id, s.place) for s in table] == [(A, 1), (B, 2), (C, 3), (D, 4)]
    assert table[0].tiebreaks[:2] == (1.0, 2.5) and table[1].tiebreaks[:2] == (0.0, 2.0)


def test_the_organisers_order_applies_and_players_equal_on_everything_share_a_place() -> None:
    """With wins alone, A and B (2 wins each) share first place."""
    table = compute(round_robin_of_four((TieBreak.WINS,)))
    assert [(s.user_id, s.place) for s in table] == [(A, 1), (B, 1), (C, 3), (D, 4)]


def test_direct_encounter_separates_no_one_when_not_all_tied_players_met() -> None:
    """A beat C, B beat D, C beat D: A, B and C tie on 1. B and C never met, so direct encounter is 0 for
    all three (A's win over C does not count on its own), and they share first place."""
    players = [Player(u, 1500, u) for u in (A, B, C, D)]
    games = [
        (1, (A, C), WIN),
        (1, (B, D), WIN),
        (2, (C, D), WIN),
    ]
    t = tournament(Settings("paint", Format.SWISS, tiebreaks=(TieBreak.DIRECT_ENCOUNTER,)), players, games)
    table = compute(t)
    assert [(s.user_id, s.place, s.tiebreaks[0]) for s in table] == [
        (A, 1, 0.0),
        (B, 1, 0.0),
        (C, 1, 0.0),
        (D, 4, 0.0),
    ]


def test_a_table_of_four_scores_by_place_and_counts_every_seat_as_an_opponent() -> None:
    """Places 1, 2, 2, 4 at one table: 3, 1.5, 1.5, 0 points (one per opponent beaten, 1/2 per tie)."""
    assert Result.from_places([1, 2, 2, 4]).points == (3.0, 1.5, 1.5, 0.0)
    players = [Player(u, 1500, u) for u in (A, B, C, D)]
    t = tournament(
        Settings("tilingking", Format.SWISS, seats=4),
        players,
        [(1, (A, B, C, D), Result.from_places([1, 2, 2, 4]))],
    )
    rows = {s.user_id: (s.score, s.tiebreaks[0], s.wins) for s in compute(t)}
    # Buchholz of A: B 1.5 + C 1.5 + D 0 = 3; of D: 3 + 1.5 + 1.5 = 6
    assert rows[A] == (3.0, 3.0, 1) and rows[D] == (0.0, 6.0, 0)


def test_standings_of_a_thousand_players_take_under_50_ms() -> None:
    rng = random.Random(7)
    players = [Player(u, float(rng.randrange(1000, 2400)), u) for u in range(1, 1001)]
    games: list[tuple[int, tuple[int, ...], Result]] = []
    for r in range(1, 10):
        order = [p.user_id for p in players]
        rng.shuffle(order)
        for i in range(0, len(order), 2):
            games.append((r, (order[i], order[i + 1]), rng.choice((WIN, DRAW, LOSS))))
    t = tournament(Settings("paint", Format.SWISS), players, games)
    compute(t)
    best = min(_timed(t) for _ in range(5))
    # CPU time, with 3x headroom: the test machine is shared (bench/tournament_pairing.py gives the figure)
    assert best < 0.05 * 3, f"{best * 1000:.1f} ms"


def _timed(t: Tournament) -> float:
    start = time.process_time()
    compute(t)
    return time.process_time() - start
