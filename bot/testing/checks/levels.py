"""The bot in each chosen game: its eight levels climb (each searches more and errs less than the one
below, and shows a higher rating), every level plays a legal move from the start and from the middle of a
game, the level nearest a level's own rating is that level, and the analysis and a hint work. Budgets
are capped iterations, never seconds, so results do not depend on the machine."""

from __future__ import annotations

import random
from typing import Any

import games
from games.ai import best_move, knowledge_for
from games.ai.analysis import Budget, analyse_match, hint
from games.ai.levels import LEVEL_IDS, ladder, level_rating, level_settings, nearest_level
from games.base import Rules, advance

MOST_ITERATIONS = 120
"""The most iterations a level searches here (its overlooking and misjudging stay its own)."""


def positions(rules: Rules[Any, Any], seed: int = 4) -> list[Any]:
    """The start (its forced moves played) and a position a dozen random moves in, of a game at the
    fewest seats, while the game goes on."""
    rng = random.Random(seed)
    state, _ = advance(rules, rules.new(min(rules.seats), {}, seed))
    found = [state]
    for _ in range(12):
        moves = list(rules.legal_moves(state))
        after, _ = advance(rules, rules.apply(state, rng.choice(moves)))
        if rules.outcome(after) is not None:
            break
        state = after
    if state is not found[0]:
        found.append(state)
    return found


def test_each_level_searches_more_errs_less_and_shows_a_higher_rating(game_id: str) -> None:
    rungs = ladder(game_id)
    assert len(rungs) == len(LEVEL_IDS)
    budgets = [rung.iterations for rung in rungs]
    assert budgets == sorted(set(budgets)), budgets
    assert [r.overlook for r in rungs] == sorted((r.overlook for r in rungs), reverse=True)
    assert [r.noise for r in rungs] == sorted((r.noise for r in rungs), reverse=True)
    assert rungs[-1].overlook == 0 and rungs[-1].noise == 0, "the top level errs in none of these ways"
    ratings = [level_rating(game_id, level) for level in LEVEL_IDS]
    assert ratings == sorted(ratings), f"{game_id}'s levels show ratings {ratings}"
    for level, rating in zip(LEVEL_IDS, ratings, strict=True):
        if ratings.count(rating) == 1:
            assert nearest_level(game_id, rating) == level


def test_every_level_plays_a_legal_move(game_id: str) -> None:
    rules = games.get(game_id)
    knowledge_for(game_id)  # the plugin's AI module loads (or the generic search's knowledge)
    for state in positions(rules):
        legal = {rules.notation(state, m) for m in rules.legal_moves(state)}
        for level in LEVEL_IDS:
            budget = min(MOST_ITERATIONS, level_settings(level, game_id).iterations or MOST_ITERATIONS)
            move = best_move(rules, state, level=level, iterations=budget, seed=int(level))
            assert rules.notation(state, move) in legal, (level, move)


def test_a_finished_match_is_analysed_and_a_hint_is_a_legal_move(game_id: str) -> None:
    rules = games.get(game_id)
    rng = random.Random(9)
    start = rules.new(min(rules.seats), {}, 9)
    state = start
    log: list[tuple[int, str]] = []
    while rules.outcome(state) is None and len(log) < 40:
        seat = rules.to_move(state)
        assert seat is not None
        move = rng.choice(list(rules.legal_moves(state)))
        log.append((seat, rules.notation(state, move)))
        state = rules.apply(state, move)
    analysis = analyse_match(rules, start, log, budget=Budget(first=20, deep=40, total=800), seed=1)
    assert analysis.reviews and all(0 <= review.ply < len(log) for review in analysis.reviews)
    for seat, points in enumerate(analysis.turning_points):
        assert all(review.seat == seat and review.drop >= 0 for review in points)
    for position in positions(rules):
        advice = hint(rules, position, iterations=60, seed=2)
        assert advice.move in {rules.notation(position, m) for m in rules.legal_moves(position)}
