"""Computer opponents for every registered game: `best_move(rules, state, level="hard", seed=0)`.

The search is Monte Carlo tree search over the `Rules` contract (games/ai/search.py); each game adds what
it knows (move ordering and pruning, playouts, evaluation, RAVE keys) in its own module here
(paintscape.py, paint.py, tilingking.py). Pure: standard library and `games` only.

Levels: easy thinks 0.2 s with the weak version of the game's knowledge and draws its move in proportion
to the visits (so it varies and errs); medium thinks 1 s and hard 3 s with the full knowledge, playing the
most visited move. Pass `iterations=` for a reproducible search (tests), `seconds=` to override the time.
"""

from __future__ import annotations

from games.ai.knowledge import Knowledge, knowledge_for, rank_rewards
from games.ai.search import LEVELS, Level, LevelSettings, MoveStats, SearchReport, analyse, best_move

__all__ = [
    "LEVELS",
    "Knowledge",
    "Level",
    "LevelSettings",
    "MoveStats",
    "SearchReport",
    "analyse",
    "best_move",
    "knowledge_for",
    "rank_rewards",
]
