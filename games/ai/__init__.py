"""Computer opponents for every registered game: `best_move(rules, state, level="hard", seed=0)`.

The search is Monte Carlo tree search over the `Rules` contract (games/ai/search.py); each game adds what
it knows (move ordering and pruning, playouts, evaluation, RAVE keys) in its own module
(`GamePlugin.ai`: games/<id>/ai.py for the built-in games). Pure: standard library and `games` only.

Levels (games/ai/levels.py): eight, "1" to "8", each an iteration budget with a time cap, the weak ones
erring like people (they overlook moves and misjudge); the old time-based easy, medium and hard are kept for
old matches. Pass `iterations=` for a reproducible search (tests), `seconds=` to override the time.
"""

from __future__ import annotations

from games.ai.knowledge import Knowledge, knowledge_for, rank_rewards
from games.ai.levels import LEVEL_IDS, LEVELS, Level, LevelSettings
from games.ai.search import MoveStats, SearchReport, analyse, best_move

__all__ = [
    "LEVELS",
    "LEVEL_IDS",
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
