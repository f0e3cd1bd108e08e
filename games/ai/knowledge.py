"""What the search knows about a game beyond the `Rules` contract.

The base `Knowledge` knows nothing but the contract: it considers every legal move in a random order and
plays uniformly random playouts to the end (or to a ply cap, scored as a draw). Game modules subclass it
with move ordering and pruning, a smarter playout policy and an evaluation for cut-off playouts.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Hashable
from typing import Any

from games.base import Outcome, Rules

Rewards = list[float]
"""One reward in [0, 1] per seat: 1 for a clear first place, 0 for a clear last place."""


FastPlayout = Callable[[Any, random.Random], tuple[Rewards, set[tuple[int, Hashable]]] | None]
"""A whole uniform playout in the engine's own fast code: the rewards and the (seat, move key) pairs played,
or None where it does not apply to the state."""


def rank_rewards(outcome: Outcome) -> Rewards:
    """Each seat's share of the places it beat: (seats ranked below + half the seats tied with it) / (n-1).

    Two players: a win is 1, a loss 0, a draw 0.5. Four players ranked (0, 1, 1, 2) get 1, 0.5, 0.5, 0.
    """
    ranks = outcome.ranks
    n = len(ranks)
    if n <= 1:
        return [1.0] * n
    result = []
    for mine in ranks:
        below = sum(1 for r in ranks if r > mine)
        tied = sum(1 for r in ranks if r == mine) - 1
        result.append((below + 0.5 * tied) / (n - 1))
    return result


def even_rewards(seats: int) -> Rewards:
    """No idea who is ahead: every seat gets the same reward."""
    return [0.5] * seats


class Knowledge:
    """Game knowledge for the search. The base class is the contract alone (used for games without a
    knowledge module). `weak` asks a game's knowledge for its easy-level version: the same pruning, so moves
    stay sensible, but plainer playouts."""

    def __init__(self, weak: bool = False) -> None:
        self.weak = weak

    playout_cap: int = 400
    """Plies a playout may run before it is cut off and `evaluate`d."""

    widening: tuple[float, float] | None = None
    """Progressive widening (k, alpha): a node visited n times has at most ceil(k * n**alpha) children.
    None expands every legal move."""

    take_wins: bool = False
    """Check every root move for an outright win before searching (game knowledge turns this on)."""

    rave: float = 0.0
    """RAVE equivalence constant k (0 = off): a child's value mixes in its all-moves-as-first value with
    weight sqrt(k / (3n + k)). Needs `move_key` and `playout_keys`."""

    exploration: float = 0.7
    """The UCT exploration constant (rewards are in [0, 1])."""

    grave_playout: Callable[[Any, random.Random], tuple[Rewards, set[tuple[int, Hashable]]] | None] | None = (
        None
    )
    """A fast uniform playout for GRAVE (games/ai/grave.py) where the engine has one: the rewards and the
    (seat, move key) pairs played, or None where it does not apply to `state`. None: the contract's."""

    def order(self, rules: Rules[Any, Any], state: Any, moves: list[Any], rng: random.Random) -> list[Any]:
        """The moves a tree node considers, most promising first (it may leave moves out)."""
        shuffled = list(moves)
        rng.shuffle(shuffled)
        return shuffled

    def root_moves(
        self, rules: Rules[Any, Any], state: Any, moves: list[Any], rng: random.Random
    ) -> list[Any]:
        """The moves the root considers; the same as any other node unless a game knows better."""
        return self.order(rules, state, moves, rng)

    def special_move(
        self,
        rules: Rules[Any, Any],
        state: Any,
        moves: list[Any],
        rng: random.Random,
        iterations: int | None,
        seconds: float | None,
    ) -> Any | None:
        """A move chosen without the tree search (a phase the game handles its own way), or None to search.
        It must respect the same budget: `iterations` (deterministic) or `seconds`."""
        return None

    def book_move(self, rules: Rules[Any, Any], state: Any) -> Any | None:
        """The move the game's opening book holds for this position (searched far deeper ahead of time than
        any level can at the table), or None: no book, or a position outside it. Only the top level asks."""
        return None

    def move_key(self, state: Any, move: Any) -> int:
        """The move's AMAF key: a small bit index shared by "the same move" in different positions, or -1."""
        return -1

    def playout_keys(
        self, rules: Rules[Any, Any], state: Any, rng: random.Random, seats: int
    ) -> tuple[Rewards, list[int]]:
        """A playout's rewards and, per seat, the bitmask of the move keys that seat played in it."""
        return self.playout(rules, state, rng, seats), [0] * seats

    def outcome_rewards(self, rules: Rules[Any, Any], state: Any, outcome: Outcome) -> Rewards:
        """The rewards of a finished game: places, not margins, by default."""
        return rank_rewards(outcome)

    def evaluate(self, rules: Rules[Any, Any], state: Any, seats: int) -> Rewards:
        """An estimate of the rewards of an unfinished position; the base class cannot tell, so even."""
        return even_rewards(seats)

    def playout(self, rules: Rules[Any, Any], state: Any, rng: random.Random, seats: int) -> Rewards:
        """Play uniformly random legal moves to the end (or the cap) and return the rewards."""
        for _ in range(self.playout_cap):
            outcome = rules.outcome(state)
            if outcome is not None:
                return self.outcome_rewards(rules, state, outcome)
            moves = list(rules.legal_moves(state))
            state = rules.apply(state, moves[rng.randrange(len(moves))])
        outcome = rules.outcome(state)
        if outcome is not None:
            return self.outcome_rewards(rules, state, outcome)
        return self.evaluate(rules, state, seats)


def knowledge_for(game_id: str, *, weak: bool = False) -> Knowledge:
    """The knowledge the search uses for a game (its easy-level version if `weak`): the `KNOWLEDGE` class of
    the module its plugin names (`GamePlugin.ai`), so a game's AI lives in its own package; the base class
    for a game without one (or a game the registry does not know, as the tests' toy games)."""
    import games

    plugin = games.PLUGINS.get(game_id)
    if plugin is None or plugin.ai is None:
        return Knowledge(weak)
    knowledge = importlib.import_module(plugin.ai).KNOWLEDGE(weak)
    assert isinstance(knowledge, Knowledge)
    return knowledge
