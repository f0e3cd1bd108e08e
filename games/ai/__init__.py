"""Computer opponents for every registered game: `best_move(rules, state, level="hard", seed=0)`.

The search is Monte Carlo tree search over the `Rules` contract (games/ai/search.py); each game adds what
it knows (move ordering, playout policy, evaluation) in its own module here. Pure: standard library only.
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
