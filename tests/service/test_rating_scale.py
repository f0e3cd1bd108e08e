"""The shown rating (`shown_rating`) on simulated pools: equal players stay where new players start (the old
conservative mu - 3 sigma drove a pool of ten equal players to about 2,300 in 400 games), unequal players
spread out by about their true Elo gaps, and the provisional mark lasts about as long as players are told.

Pools are simulated with the same update the service applies (`after_match`) and a seeded RNG; results are
drawn from true Elo strengths (a player D points ahead finishes first with probability
1 / (1 + 10^(-D / 400))).
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st

from bot.service.ratings import (
    ESTABLISHED_AFTER,
    NEW_MU,
    NEW_SIGMA,
    PROVISIONAL_SIGMA,
    START_RATING,
    after_match,
    shown_rating,
)

Ratings = list[tuple[float, float] | None]


def finish_order(strengths: Sequence[float], seats: Sequence[int], rng: random.Random) -> list[float]:
    """Ranks (1 first) for the players `seats`, drawn from their true Elo strengths: first place goes to a
    player with probability proportional to 10^(strength / 400), then second among the rest, and so on."""
    left, order = list(seats), []
    while left:
        pick = rng.choices(left, weights=[10 ** (strengths[i] / 400) for i in left])[0]
        order.append(pick)
        left.remove(pick)
    return [float(order.index(i) + 1) for i in seats]


def simulate(
    strengths: Sequence[float], games: int, seed: int, sizes: Sequence[int] = (2,), every: int = 100
) -> tuple[Ratings, list[float]]:
    """Random pairings (or groups of `sizes` players) for `games` games; returns the final ratings and the
    pool's mean shown rating after every `every` games."""
    rng = random.Random(seed)
    ratings: Ratings = [None] * len(strengths)
    means = []
    for game in range(1, games + 1):
        seats = rng.sample(range(len(strengths)), rng.choice(sizes))
        after = after_match([ratings[i] for i in seats], finish_order(strengths, seats, rng))
        for i, new in zip(seats, after, strict=True):
            ratings[i] = new
        if game % every == 0:
            means.append(statistics.mean(shown(r) for r in ratings))
    return ratings, means


def shown(rating: tuple[float, float] | None) -> int:
    return shown_rating(*(rating or (NEW_MU, NEW_SIGMA))).points


def test_a_new_player_shows_the_start_rating_provisionally() -> None:
    new = shown_rating(NEW_MU, NEW_SIGMA)
    assert (new.points, new.provisional, str(new)) == (START_RATING, True, f"{START_RATING}?")


def test_ten_equal_players_stay_at_the_start_rating() -> None:
    """400 games among ten equal players: the pool's mean shown rating stays within 20 points of 1500 at
    every hundredth game (it climbed past 2,300 with mu - 3 sigma), every player is established, and the
    spread is chance alone."""
    ratings, means = simulate([1500.0] * 10, 400, seed=7)
    assert len(means) == 4 and all(abs(mean - START_RATING) <= 20 for mean in means), means
    points = [shown(r) for r in ratings]
    assert all(r is not None and not shown_rating(*r).provisional for r in ratings)
    assert max(points) - min(points) < 300, points
    assert max(points) < START_RATING + 200, "nobody drifts far above where everybody started"


def test_equal_players_in_games_of_two_to_four_stay_at_the_start_rating() -> None:
    """TilingKing seats two to four: the mean stays near 1500 as well."""
    _, means = simulate([1500.0] * 10, 400, seed=11, sizes=(2, 3, 4))
    assert all(abs(mean - START_RATING) <= 25 for mean in means), means


def test_unequal_players_spread_out_by_about_their_true_gap() -> None:
    """Ten players whose true strengths are 1200 to 1800 Elo, 400 games: the shown ratings come out in
    nearly the true order, the mean stays at 1500, and the gap between the three strongest and the three
    weakest is within 25% below or 45% above the true gap (480 points)."""
    strengths = [1200 + i * 600 / 9 for i in range(10)]
    ratings, means = simulate(strengths, 400, seed=3)
    points = [shown(r) for r in ratings]
    assert all(abs(mean - START_RATING) <= 20 for mean in means), means
    true_gap = statistics.mean(strengths[-3:]) - statistics.mean(strengths[:3])
    gap = statistics.mean(points[-3:]) - statistics.mean(points[:3])
    assert 0.75 * true_gap <= gap <= 1.45 * true_gap, (gap, true_gap, points)
    ranks = sorted(range(10), key=lambda i: points[i])
    spearman = 1 - 6 * sum((ranks.index(i) - i) ** 2 for i in range(10)) / (10 * (10**2 - 1))
    assert spearman >= 0.9, points


def games_to_establish(opponents: Sequence[tuple[float, float] | None], rng: random.Random) -> int:
    """How many rated games a newcomer plays, against random `opponents` who keep their ratings and win
    half the games, before the rating is no longer provisional."""
    me: tuple[float, float] | None = None
    for game in range(1, 200):
        ranks = [1.0, 2.0] if rng.random() < 0.5 else [2.0, 1.0]
        me = after_match([me, opponents[rng.randrange(len(opponents))]], ranks)[0]
        if not shown_rating(*me).provisional:
            return game
    raise AssertionError("never established")


def test_a_rating_is_established_after_about_as_many_games_as_players_are_told() -> None:
    """Players are told a rating is provisional for about `ESTABLISHED_AFTER` rated games: about that many
    in a pool of newcomers, fewer against a settled pool, and not many more for two newcomers who only play
    each other."""
    rng = random.Random(5)
    settled, _ = simulate([1500.0] * 10, 400, seed=5)
    assert statistics.median(games_to_establish(settled, rng) for _ in range(15)) <= ESTABLISHED_AFTER
    pool: Ratings = [None] * 10
    played, established = [0] * 10, [0] * 10
    while not all(established):
        seats = rng.sample(range(10), 2)
        for i, new in zip(seats, after_match([pool[i] for i in seats], [1.0, 2.0]), strict=True):
            pool[i], played[i] = new, played[i] + 1
            if not shown_rating(*new).provisional and not established[i]:
                established[i] = played[i]
    assert abs(statistics.median(established) - ESTABLISHED_AFTER) <= 4, established
    alone, friend = 0, None
    me: tuple[float, float] | None = None
    while me is None or shown_rating(*me).provisional:
        alone += 1
        me, friend = after_match([me, friend], [1.0, 2.0] if rng.random() < 0.5 else [2.0, 1.0])
    assert alone <= 1.3 * ESTABLISHED_AFTER, alone


@given(st.floats(-20, 70), st.floats(-20, 70), st.floats(0.1, 9))
def test_the_shown_rating_orders_as_mu_and_marks_what_is_provisional(
    a: float, b: float, sigma: float
) -> None:
    """Leaderboards sort by mu: the shown rating never orders two players the other way. "?" marks
    exactly a provisional rating."""
    low, high = sorted((a, b))
    assert shown_rating(low, sigma).points <= shown_rating(high, sigma).points
    rating = shown_rating(a, sigma)
    assert rating.provisional == (sigma > PROVISIONAL_SIGMA) == str(rating).endswith("?")
    assert str(rating).rstrip("?") == str(rating.points)
