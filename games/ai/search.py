"""Monte Carlo tree search (UCT) for any game behind the `Rules` contract, with 2 to 4 seats.

Every node keeps one reward total per seat, and a node's children are compared by the reward of the seat
to move there (max^n-style multi-player UCT), so the same code plays every seat of a 2-4 player game.
Game knowledge (move ordering and pruning, playout policy, evaluation) comes from a `Knowledge` object.

Determinism: with an iteration budget (`iterations=`) the chosen move depends only on the position, the
level and the seed. A time budget (`seconds=`) stops after a wall-clock time, so it is not reproducible.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.ai.knowledge import Knowledge, Rewards, knowledge_for
from games.ai.levels import Level as Level  # re-exported: callers import the old levels from here
from games.ai.levels import level_settings, misjudged, overlooking
from games.base import GameOver, Rules, Seat
from games.texts import Text

TIME_CHECK_EVERY = 8  # iterations between clock reads


@dataclass(frozen=True, slots=True)
class MoveStats:
    """One root move after a search: how often it was tried and its mean reward for the mover."""

    move: Any
    visits: int
    value: float


@dataclass(frozen=True, slots=True)
class SearchReport:
    """The move chosen, and what the search saw: iterations run, time taken, root moves by visits."""

    move: Any
    iterations: int
    seconds: float
    moves: tuple[MoveStats, ...]
    reason: str
    """Why this move: forced, only move, winning move, book (the game's opening book), special (the game's own
    procedure) or search."""


class _Node:
    """A position in the search tree. `totals[s]` sums the rewards seat s got through this node."""

    __slots__ = (
        "amaf_total", "amaf_visits", "children", "key", "move", "seat", "state", "terminal", "totals",
        "untried", "visits",
    )  # fmt: skip

    def __init__(self, state: Any, move: Any, seat: Seat | None, seats: int, key: int = -1) -> None:
        self.state = state
        self.move = move
        self.key = key  # the move's AMAF key (a bit index), -1 for none
        self.amaf_visits = 0
        self.amaf_total = 0.0  # the chooser's rewards over simulations that played this move later
        self.seat = seat
        self.children: list[_Node] = []
        self.untried: list[Any] | None = None  # filled (most promising last) on the first expansion
        self.visits = 0
        self.totals = [0.0] * seats
        self.terminal: Rewards | None = None


class Search:
    """One search from one position; `run` grows the tree and returns a report."""

    def __init__(self, rules: Rules[Any, Any], knowledge: Knowledge, seats: int, rng: random.Random) -> None:
        self.rules = rules
        self.knowledge = knowledge
        self.seats = seats
        self.rng = rng

    def _node(self, state: Any, move: Any, key: int = -1) -> _Node:
        rules = self.rules
        seat = rules.to_move(state)
        node = _Node(state, move, seat, self.seats, key)
        if seat is None:
            outcome = rules.outcome(state)
            assert outcome is not None, "a position with nobody to move must be finished"
            node.terminal = self.knowledge.outcome_rewards(rules, state, outcome)
        return node

    def _children_allowed(self, node: _Node) -> int:
        widening = self.knowledge.widening
        if widening is None:
            return 1 << 30
        k, alpha = widening
        allowed: int = max(1, math.ceil(k * (node.visits + 1) ** alpha))
        return allowed

    def _select(self, node: _Node) -> _Node:
        seat = node.seat
        assert seat is not None
        c = self.knowledge.exploration
        log_visits = math.log(node.visits)
        best = node.children[0]
        best_score = -1.0
        rave = self.knowledge.rave
        for child in node.children:
            mean = child.totals[seat] / child.visits
            if rave and child.amaf_visits:
                beta = math.sqrt(rave / (3 * child.visits + rave))
                mean = (1 - beta) * mean + beta * child.amaf_total / child.amaf_visits
            score = mean + c * math.sqrt(log_visits / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    def iterate(self, root: _Node) -> None:
        """One iteration: select down the tree, expand one child, play it out, back the rewards up."""
        node = root
        path = [root]
        played = [0] * self.seats
        while True:
            if node.terminal is not None:
                rewards = node.terminal
                break
            if node.untried is None:
                moves = list(self.rules.legal_moves(node.state))
                ordered = self.knowledge.order(self.rules, node.state, moves, self.rng)
                node.untried = ordered[::-1]
            if node.untried and len(node.children) < self._children_allowed(node):
                move = node.untried.pop()
                key = self.knowledge.move_key(node.state, move) if self.knowledge.rave else -1
                child = self._node(self.rules.apply(node.state, move), move, key)
                node.children.append(child)
                path.append(child)
                if child.terminal is not None:
                    rewards = child.terminal
                elif self.knowledge.rave:
                    knowledge = self.knowledge
                    rewards, played = knowledge.playout_keys(self.rules, child.state, self.rng, self.seats)
                else:
                    rewards = self.knowledge.playout(self.rules, child.state, self.rng, self.seats)
                break
            node = self._select(node)
            path.append(node)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for seat in range(self.seats):
                totals[seat] += rewards[seat]
        if self.knowledge.rave:
            self._update_amaf(path, rewards, played)

    @staticmethod
    def _update_amaf(path: list[_Node], rewards: Rewards, played: list[int]) -> None:
        """All-moves-as-first: each node's children whose move its seat played later in this simulation
        (in the tree below or in the playout) share the simulation's reward for that seat."""
        played = list(played)
        for depth in range(len(path) - 2, -1, -1):
            parent, chosen = path[depth], path[depth + 1]
            seat = parent.seat
            if seat is None:
                continue
            if chosen.key >= 0:
                played[seat] |= 1 << chosen.key
            mask = played[seat]
            reward = rewards[seat]
            for child in parent.children:
                if child.key >= 0 and mask >> child.key & 1:
                    child.amaf_visits += 1
                    child.amaf_total += reward

    def run(
        self,
        state: Any,
        root_moves: Sequence[Any],
        *,
        seconds: float | None,
        iterations: int | None,
        temperature: float,
    ) -> SearchReport:
        """Search from `state` over `root_moves` until the time or iteration budget runs out."""
        start = time.perf_counter()
        root = self._node(state, None)
        root.untried = list(root_moves)[::-1]
        deadline = None if seconds is None else start + seconds
        limit = iterations if iterations is not None else 1 << 62
        done = 0
        while done < limit:
            self.iterate(root)
            done += 1
            if deadline is not None and done % TIME_CHECK_EVERY == 0 and time.perf_counter() >= deadline:
                break
        seat = root.seat
        assert seat is not None
        stats = tuple(
            sorted(
                (MoveStats(c.move, c.visits, c.totals[seat] / c.visits) for c in root.children),
                key=lambda s: (-s.visits, -s.value),
            )
        )
        chosen = self._final_choice(stats, temperature)
        return SearchReport(chosen, done, time.perf_counter() - start, stats, "search")

    def _final_choice(self, stats: Sequence[MoveStats], temperature: float) -> Any:
        if temperature <= 0:
            return stats[0].move
        weights = [s.visits ** (1.0 / temperature) for s in stats]
        pick = self.rng.random() * sum(weights)
        for s, weight in zip(stats, weights, strict=True):
            pick -= weight
            if pick < 0:
                return s.move
        return stats[-1].move


def seat_count(rules: Rules[Any, Any], state: Any) -> int:
    """How many seats the game in `state` has (the contract does not say, so ask the state)."""
    if len(rules.seats) == 1:
        return rules.seats[0]
    for name in ("seats", "n_seats", "num_seats", "players", "num_players"):
        value = getattr(state, name, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, Sequence) and not isinstance(value, str):
            return len(value)
    dumped = rules.dump(state)
    for name in ("seats", "players", "num_players"):
        value = dumped.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, list):
            return len(value)
    return max(rules.seats)


def _wins_outright(rules: Rules[Any, Any], state: Any, seat: Seat) -> bool:
    outcome = rules.outcome(state)
    return outcome is not None and outcome.winners == (seat,)


def analyse(
    rules: Rules[Any, Any],
    state: Any,
    *,
    level: Level | str = Level.HARD,
    seconds: float | None = None,
    iterations: int | None = None,
    seed: int = 0,
    knowledge: Knowledge | None = None,
) -> SearchReport:
    """Search the position and report the chosen move with the statistics behind it (see `best_move`)."""
    if rules.to_move(state) is None:
        raise GameOver(Text("the game is over; there is nothing to play"))
    settings = level_settings(str(level), rules.id)
    forced = rules.forced_move(state)
    if forced is not None:
        return SearchReport(forced, 0, 0.0, (), "forced")
    moves = list(rules.legal_moves(state))
    if len(moves) == 1:
        return SearchReport(moves[0], 0, 0.0, (), "only move")
    if knowledge is None:
        knowledge = overlooking(knowledge_for(rules.id, weak=settings.weak), settings.overlook)
    rng = random.Random(seed)
    mover = rules.to_move(state)
    assert mover is not None
    if knowledge.take_wins and len(moves) <= 400:
        for move in moves:
            if _wins_outright(rules, rules.apply(state, move), mover):
                return SearchReport(move, 0, 0.0, (), "winning move")
    if settings.book:
        booked = knowledge.book_move(rules, state)
        if booked is not None:
            return SearchReport(booked, 0, 0.0, (), "book")
    if seconds is None and iterations is None:
        seconds, iterations = settings.seconds, settings.iterations
    special = knowledge.special_move(rules, state, moves, rng, iterations, seconds)
    if special is not None:
        return SearchReport(special, 0, 0.0, (), "special")
    candidates = knowledge.root_moves(rules, state, moves, rng)
    if len(candidates) == 1:
        return SearchReport(candidates[0], 0, 0.0, (), "only move")
    search = Search(rules, knowledge, seat_count(rules, state), rng)
    temperature = settings.temperature
    report = search.run(state, candidates, seconds=seconds, iterations=iterations, temperature=temperature)
    if settings.noise > 0 and report.moves:
        report = replace(report, move=misjudged(report.moves, settings.noise, rng))
    return report


def best_move(
    rules: Rules[Any, Any],
    state: Any,
    *,
    level: Level | str = Level.HARD,
    seconds: float | None = None,
    iterations: int | None = None,
    seed: int = 0,
) -> Any:
    """A legal move for the seat to move, chosen by a search at `level`.

    A forced move or a single legal move is returned at once. With `iterations` set (and `seconds` unset)
    the result is the same for the same position, level and seed. With neither set, the level's own budget
    is used (games/ai/levels.py: levels "1" to "8" by iterations, capped in time; the old easy 0.2 s, medium
    1 s, hard 3 s). Raises GameOver on a finished game, ValueError on an unknown level.
    """
    return analyse(rules, state, level=level, seconds=seconds, iterations=iterations, seed=seed).move
