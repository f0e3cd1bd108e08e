"""Pairing properties of the pure tournament formats: Swiss (Dutch criteria through a matching), round
robin (Berger tables), arena (lichess) and tables of 3-4, checked with hypothesis over random fields and
results."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bot.service.tournaments import arena, roundrobin, swiss, tables


def play_round(
    field: dict[int, swiss.Entrant], pairing: swiss.SwissPairing, rng: random.Random
) -> dict[int, swiss.Entrant]:
    """The field after the round's games (random results; the bye scores 1)."""
    new = dict(field)
    for white, black in pairing.pairs:
        w, b = field[white], field[black]
        got = rng.choice((1.0, 0.5, 0.0))
        new[white] = swiss.Entrant(
            w.id, w.rating, w.number, w.score + got, (*w.colours, 1), w.opponents | {black}, w.byes
        )
        new[black] = swiss.Entrant(
            b.id, b.rating, b.number, b.score + 1 - got, (*b.colours, -1), b.opponents | {white}, b.byes
        )
    if pairing.bye is not None:
        e = field[pairing.bye]
        new[e.id] = swiss.Entrant(e.id, e.rating, e.number, e.score + 1, e.colours, e.opponents, e.byes + 1)
    return new


def new_field(size: int, rng: random.Random) -> dict[int, swiss.Entrant]:
    return {
        100 + n: swiss.Entrant(100 + n, float(rng.randrange(1000, 2000)), n + 1, 0.0) for n in range(size)
    }


def check_round(field: dict[int, swiss.Entrant], pairing: swiss.SwissPairing) -> None:
    seen = [u for pair in pairing.pairs for u in pair] + ([pairing.bye] if pairing.bye is not None else [])
    assert sorted(seen) == sorted(field), "every player paired or given the bye exactly once"
    for white, black in pairing.pairs:
        assert black not in field[white].opponents, f"{white} and {black} met before"
    if pairing.bye is not None and any(e.byes == 0 for e in field.values()):
        assert field[pairing.bye].byes == 0, "a second bye while someone has had none"
    assert (pairing.bye is None) == (len(field) % 2 == 0)


def fide_colours(entrant: swiss.Entrant) -> bool:
    """FIDE's absolute colour rules: a colour difference within 2, never the same colour three times
    running."""
    runs = any(len(set(entrant.colours[i : i + 3])) == 1 for i in range(len(entrant.colours) - 2))
    return abs(sum(entrant.colours)) <= 2 and not runs


def pairable(field: dict[int, swiss.Entrant], fits: Callable[[swiss.Entrant, swiss.Entrant], bool]) -> bool:
    """Brute force (small fields): is there a pairing without a rematch, the bye to a player without one,
    where every pair `fits`?"""

    def ok(rest: list[int]) -> bool:
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        for other in others:
            a, b = field[first], field[other]
            if other not in a.opponents and fits(a, b) and ok([u for u in others if u != other]):
                return True
        return False

    ids = sorted(field)
    if len(ids) % 2 == 0:
        return ok(ids)
    return any(ok([u for u in ids if u != bye]) for bye in ids if field[bye].byes == 0)


def can_keep_colours(field: dict[int, swiss.Entrant]) -> bool:
    """Whether a pairing leaves every colour difference within 1: no pair of two players who both strongly
    want the same colour."""

    def strong(e: swiss.Entrant) -> int:
        want, strength = swiss.preference(e)
        return want if strength >= 2 else 0

    return pairable(field, lambda a, b: strong(a) == 0 or strong(a) != strong(b))


def fide_keepable(field: dict[int, swiss.Entrant]) -> bool:
    """Whether a pairing keeps every player within FIDE's absolute colour rules (`fide_colours`)."""

    def after(e: swiss.Entrant, colour: int) -> bool:
        return fide_colours(swiss.Entrant(e.id, e.rating, e.number, e.score, colours=(*e.colours, colour)))

    return pairable(field, lambda a, b: (after(a, 1) and after(b, -1)) or (after(a, -1) and after(b, 1)))


@given(size=st.integers(2, 10), rounds=st.integers(1, 9), seed=st.integers(0, 2**32))
@example(size=8, rounds=6, seed=3670)  # round 6 has no pairing within FIDE's colour rules: the least bad one
def test_swiss_never_repeats_gives_one_bye_each_and_keeps_colours_within_one(
    size: int, rounds: int, seed: int
) -> None:
    rng = random.Random(seed)
    field = new_field(size, rng)
    for _ in range(min(rounds, size - 1)):
        keepable = can_keep_colours(field)
        fide = fide_keepable(field)
        try:
            pairing = swiss.pair(list(field.values()))
        except ValueError:
            return  # no pairing without a rematch is left: the event ends early
        check_round(field, pairing)
        field = play_round(field, pairing, rng)
        if keepable:
            assert all(abs(sum(e.colours)) <= 1 for e in field.values()), "colours beyond 1 though avoidable"
        if fide:
            assert all(fide_colours(e) for e in field.values()), "FIDE's colour rules broken though avoidable"
        assert all(e.byes <= 1 for e in field.values()) or size <= 2


@given(size=st.integers(4, 24), seed=st.integers(0, 2**32))
def test_swiss_rounds_of_a_normal_length_always_pair_within_fides_colour_rules(size: int, seed: int) -> None:
    """The default number of rounds always pairs, and keeps FIDE's absolute colour rules (it is within 1
    whenever a pairing allows it, the test above)."""
    rng = random.Random(seed)
    field = new_field(size, rng)
    for _ in range(swiss.default_rounds(size)):
        pairing = swiss.pair(list(field.values()))
        check_round(field, pairing)
        field = play_round(field, pairing, rng)
        assert all(fide_colours(e) for e in field.values())
        assert all(e.byes <= 1 for e in field.values())


@pytest.mark.parametrize("size", [150, 151])
def test_a_big_swiss_paired_bracket_by_bracket_keeps_the_absolute_criteria(size: int) -> None:
    rng = random.Random(size)
    field = new_field(size, rng)
    for _ in range(7):
        pairing = swiss.pair(list(field.values()))
        check_round(field, pairing)
        field = play_round(field, pairing, rng)
        assert all(abs(sum(e.colours)) <= 1 for e in field.values())


def test_swiss_round_one_is_the_dutch_top_half_against_bottom_half() -> None:
    """8 players, no history: 1-5, 6-2, 3-7, 8-4 (the higher-ranked player has White on odd numbers)."""
    field = {n: swiss.Entrant(n, 2000.0 - n, n, 0.0) for n in range(1, 9)}
    assert swiss.pair(list(field.values())).pairs == ((1, 5), (6, 2), (3, 7), (8, 4))


def test_swiss_pairs_within_score_groups_and_alternates_colours() -> None:
    """After round 1 (1-5, 6-2, 3-7, 8-4, won by the higher-ranked players) the winners 1, 2, 3, 4 meet in
    their group. S1 = {1, 2}, S2 = {3, 4}; the plain 1-3 would give 1 and 3 (both had White) the same
    colour, so the Dutch system transposes S2: 1-4, 2-3, and everyone gets the other colour. The losers
    likewise: 5-7 both had Black, so 5-8, 6-7."""
    won = {1: 1, 2: -1, 3: 1, 4: -1}
    lost = {5: -1, 6: 1, 7: -1, 8: 1}
    opponents = {1: 5, 5: 1, 2: 6, 6: 2, 3: 7, 7: 3, 4: 8, 8: 4}
    field = [
        swiss.Entrant(
            n, 2000.0 - n, n, 1.0 if n in won else 0.0, ({**won, **lost}[n],), frozenset({opponents[n]})
        )
        for n in range(1, 9)
    ]
    pairs = swiss.pair(field).pairs
    assert {frozenset(p) for p in pairs} == {frozenset(p) for p in ((1, 4), (2, 3), (5, 8), (6, 7))}
    colours = {w: 1 for w, _ in pairs} | {b: -1 for _, b in pairs}
    assert all(colours[n] == -first for n, first in {**won, **lost}.items()), "everyone alternates"


def test_swiss_bye_goes_to_the_lowest_score_without_a_bye() -> None:
    """Round 1 of five: 1 beat 2, 3 and 4 drew, 5 had the bye. Round 2's bye goes to 2 (0 points), though
    3 and 4 then both float (1-3, 4-5 or 1-4, 3-5); had 2 already had one, to the lowest-ranked of the next
    score group, 4 (1/2 point, rated below 3)."""

    def field(two_had_a_bye: bool) -> list[swiss.Entrant]:
        return [
            swiss.Entrant(1, 1900.0, 1, 1.0, (1,), frozenset({2})),
            swiss.Entrant(2, 1800.0, 2, 0.0, (-1,), frozenset({1}), byes=int(two_had_a_bye)),
            swiss.Entrant(3, 1600.0, 3, 0.5, (1,), frozenset({4})),
            swiss.Entrant(4, 1500.0, 4, 0.5, (-1,), frozenset({3})),
            swiss.Entrant(5, 1400.0, 5, 1.0, (), frozenset(), byes=1),
        ]

    assert swiss.pair(field(False)).bye == 2
    assert swiss.pair(field(True)).bye == 4


@given(size=st.integers(2, 13), double=st.booleans())
def test_round_robin_everyone_meets_everyone_once_per_cycle_with_balanced_first_seats(
    size: int, double: bool
) -> None:
    seeded = list(range(50, 50 + size))
    total = roundrobin.rounds_for(size, double)
    met: Counter[frozenset[int]] = Counter()
    whites: Counter[int] = Counter()
    rests: Counter[int] = Counter()
    for r in range(1, total + 1):
        pairs, rest = roundrobin.pair(seeded, r, double)
        seen = [u for p in pairs for u in p] + ([rest] if rest is not None else [])
        assert sorted(seen) == seeded, "everyone plays or rests exactly once a round"
        met.update(frozenset(p) for p in pairs)
        whites.update(w for w, _ in pairs)
        if rest is not None:
            rests[rest] += 1
        if r == total // (2 if double else 1):
            games = size - 1
            assert all(abs(2 * whites[u] - games) <= 1 for u in seeded), "first seats within 1 a cycle"
    times = 2 if double else 1
    assert met == Counter({frozenset(p): times for p in itertools.combinations(seeded, 2)})
    if size % 2:
        assert rests == Counter(dict.fromkeys(seeded, times))
    if double:
        assert all(2 * whites[u] == 2 * (size - 1) for u in seeded), "the second cycle reverses colours"


@pytest.mark.parametrize(
    ("players", "table"),
    [
        (4, ["1-4 2-3", "4-3 1-2", "2-4 3-1"]),
        (6, ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"]),
    ],
)
def test_round_robin_is_fides_berger_table(players: int, table: list[str]) -> None:
    """FIDE's Berger tables (C.05 Annex 1), White first, board order aside."""
    for number, expected in enumerate(table, start=1):
        pairs = {tuple(map(int, pair.split("-"))) for pair in expected.split()}
        assert set(roundrobin.berger_round(players, number)) == pairs


@given(
    size=st.integers(2, 30),
    seed=st.integers(0, 2**32),
)
def test_arena_never_pairs_a_player_twice_at_once_nor_straight_back_with_their_last_opponent(
    size: int, seed: int
) -> None:
    rng = random.Random(seed)
    players = {
        n: arena.Waiting(n, float(rng.randrange(1200, 2000)), n, rng.randrange(0, 12)) for n in range(size)
    }
    last = {n: rng.choice([None, *[m for m in range(size) if m != n]]) for n in range(size)}
    waiting = [arena.Waiting(p.id, p.rating, p.number, p.points, last[p.id]) for p in players.values()]
    pairs = arena.pair(waiting)
    ids = [u for pair in pairs for u in pair]
    assert len(ids) == len(set(ids)), "nobody in two matches at once"
    for a, b in pairs:
        assert last[a] != b and last[b] != a, "no immediate rematch"
    left = set(players) - set(ids)
    for a, b in itertools.combinations(left, 2):
        assert last[a] == b or last[b] == a, "two free players who could meet were left waiting"


def test_arena_streaks_score_as_lichess() -> None:
    # W W W D W L W: 2 + 2 + 4 (on fire) + 2 (draw on fire) + 2 (streak broken) + 0 + 2 = 14
    assert arena.points([1, 1, 1, 0.5, 1, 0, 1]) == (14, False)
    # W W W: 2 + 2 + 4, still on fire
    assert arena.points([1, 1, 1]) == (8, True)
    assert arena.points([0.5, 0.5, 0]) == (2, False)


def test_arena_pairs_close_ranks() -> None:
    waiting = [arena.Waiting(n, 1500.0, n, points) for n, points in enumerate([20, 19, 2, 1])]
    assert {frozenset(p) for p in arena.pair(waiting)} == {frozenset((0, 1)), frozenset((2, 3))}


@given(size=st.integers(1, 23), width=st.sampled_from([3, 4]), seed=st.integers(0, 2**32))
def test_tables_seat_everyone_once_by_score_in_tables_of_the_size(size: int, width: int, seed: int) -> None:
    rng = random.Random(seed)
    players = [
        tables.Seatable(
            n, 1500.0, n + 1, float(rng.randrange(0, 6)), tuple(rng.randrange(0, 3) for _ in range(width))
        )
        for n in range(size)
    ]
    seated, bye = tables.seat(players, width)
    ids = [u for table in seated for u in table] + ([bye] if bye is not None else [])
    assert sorted(ids) == list(range(size))
    assert (bye is not None) == (size == 1)
    sizes = [len(t) for t in seated]
    assert all(2 <= s <= width for s in sizes) and (not sizes or max(sizes) - min(sizes) <= 1)
    assert len(seated) == (-(-size // width) if size > 1 else 0)
    score = {p.id: p.score for p in players}
    lowest = [min(score[u] for u in t) for t in seated]
    highest = [max(score[u] for u in t) for t in seated]
    for upper, lower in itertools.pairwise(range(len(seated))):
        # seated by score; a swap of edge players against repeats is the only crossing (none here: no one
        # has met anyone)
        assert lowest[upper] >= highest[lower]


def test_tables_hand_seat_zero_to_whoever_moved_first_least() -> None:
    players = [
        tables.Seatable(1, 1500.0, 1, 3.0, (2, 0, 0)),
        tables.Seatable(2, 1500.0, 2, 3.0, (0, 1, 1)),
        tables.Seatable(3, 1500.0, 3, 3.0, (1, 1, 0)),
    ]
    (table,), _ = tables.seat(players, 3)
    assert table[0] == 2


def test_a_big_round_whose_last_bracket_cannot_pair_alone_merges_it_with_the_one_above() -> None:
    """96 players on 2 points and 4 on 0 who have all met one another: the bottom bracket cannot pair by
    itself, so it is matched together with the slice above it, and everyone still gets a new opponent."""
    rng = random.Random(4)
    bottom = list(range(1, 5))
    field = {
        u: swiss.Entrant(
            u, 1500.0, u, 0.0, (1, -1, 1) if u % 2 else (-1, 1, -1), frozenset(set(bottom) - {u})
        )
        for u in bottom
    }
    for n in range(96):
        u = 100 + n
        field[u] = swiss.Entrant(u, float(rng.randrange(1000, 2000)), u, 2.0, (1, -1) if n % 2 else (-1, 1))
    pairing = swiss.pair(list(field.values()))
    check_round(field, pairing)
    partners = {a: b for a, b in pairing.pairs} | {b: a for a, b in pairing.pairs}
    assert all(field[partners[u]].score == 2.0 for u in bottom)


def test_swiss_does_not_float_the_same_player_down_twice_running() -> None:
    """Three players on 2 points (one must float down to the 1-point group) and three on 1. The lowest of
    the top group, 3, would float; but 3 floated down last round, so 2 floats instead (Dutch C14)."""

    def field(three_floated: bool) -> list[swiss.Entrant]:
        top = [
            swiss.Entrant(n, 2000.0 - n, n, 2.0, last_float=int(three_floated and n == 3)) for n in (1, 2, 3)
        ]
        return top + [swiss.Entrant(n, 2000.0 - n, n, 1.0) for n in (4, 5, 6)]

    def floater(pairing: swiss.SwissPairing) -> int:
        (pair,) = [p for p in pairing.pairs if len({u <= 3 for u in p}) == 2]
        return min(pair)

    assert floater(swiss.pair(field(False))) == 3
    assert floater(swiss.pair(field(True))) == 2
