"""GRAVE, generalised rapid action value estimation (Cazenave 2015), for any game behind the `Rules` contract.

The strongest generic Monte Carlo search we know of, kept as a yardstick for the game AIs (bench/): it
knows nothing but the contract and plays uniformly random playouts.

- Every tree node keeps, besides its visit counts, an all-moves-as-first (AMAF) table: for each (seat,
  move), how often that seat played that move anywhere below the node in a simulation, and its reward total.
- A node chooses among its moves with the AMAF table of its closest ancestor (itself included) that has at
  least `ref` visits; the root's table when none has. A move's value mixes its own mean with that AMAF mean,
  `(1 - beta) * mean + beta * amaf`, where `beta = a / (a + n + bias * a * n)` for n visits and a AMAF
  visits. A move with no visits and no AMAF entry is tried first; there is no exploration term.
- The chosen move is the root's most visited one.

Speed, not knowledge: where an engine offers a uniformly random playout in fast code (Paintscape's play
phase: the `grave_playout` of its knowledge), the playout takes that path; it plays the same uniform random
moves as the contract would.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable
from typing import Any

from games.ai.knowledge import Rewards, knowledge_for, rank_rewards
from games.ai.search import MoveStats, SearchReport, seat_count
from games.base import GameOver, Rules, Seat
from games.texts import Text

REF = 100
"""Visits a node needs before its own AMAF table is used for the choices below it."""

BIAS = 1e-6
"""The bias of the beta schedule: the larger, the sooner a move's own mean outweighs its AMAF mean."""

PLAYOUT_CAP = 1000
"""Plies a playout may run before it is scored as a draw."""

TIME_CHECK_EVERY = 8

AmafKey = tuple[Seat, Hashable]
Played = set[AmafKey]
FastPlayout = Callable[[Any, random.Random], tuple[Rewards, Played] | None]


class GraveNode:
    """A position in the tree: its moves with their visits and reward totals (for the seat to move), its
    children once visited, and its AMAF table."""

    __slots__ = ("amaf", "children", "moves", "seat", "state", "terminal", "totals", "visits", "visits_of")

    def __init__(self, rules: Rules[Any, Any], state: Any, seats: int, rng: random.Random) -> None:
        self.state = state
        self.seat = rules.to_move(state)
        self.visits = 0
        self.amaf: dict[AmafKey, list[float]] = {}  # (seat, move) -> [reward total, count]
        self.terminal: Rewards | None = None
        self.moves: list[Any] = []
        if self.seat is None:
            outcome = rules.outcome(state)
            assert outcome is not None, "a position with nobody to move must be finished"
            self.terminal = rank_rewards(outcome)
        else:
            self.moves = list(rules.legal_moves(state))
            rng.shuffle(self.moves)
        self.visits_of = [0] * len(self.moves)
        self.totals = [0.0] * len(self.moves)
        self.children: list[GraveNode | None] = [None] * len(self.moves)


def reference(path: list[GraveNode], ref: int) -> GraveNode:
    """The node whose AMAF table guides the choice at the last node of `path`: the closest one (the last node
    itself first) with at least `ref` visits, else the root."""
    for node in reversed(path):
        if node.visits >= ref:
            return node
    return path[0]


def grave_value(visits: int, total: float, amaf: list[float] | None, bias: float) -> float:
    """A move's selection value: its mean mixed with its AMAF mean by the beta schedule; an untried move
    with no AMAF entry is worth more than any reward (so it is tried first)."""
    if amaf is None or amaf[1] == 0:
        return total / visits if visits else 2.0
    amaf_visits = amaf[1]
    beta = amaf_visits / (amaf_visits + visits + bias * amaf_visits * visits)
    mean = total / visits if visits else 0.0
    return (1.0 - beta) * mean + beta * amaf[0] / amaf_visits


class Grave:
    """One GRAVE search from one position."""

    def __init__(
        self,
        rules: Rules[Any, Any],
        seats: int,
        rng: random.Random,
        *,
        ref: int = REF,
        bias: float = BIAS,
        fast_playout: FastPlayout | None = None,
    ) -> None:
        self.rules = rules
        self.seats = seats
        self.rng = rng
        self.ref = ref
        self.bias = bias
        self.fast_playout = fast_playout

    def choose(self, node: GraveNode, guide: GraveNode) -> int:
        """The index of the move to follow at `node`, by GRAVE values from `guide`'s AMAF table."""
        seat, amaf, bias = node.seat, guide.amaf, self.bias
        assert seat is not None
        best, best_value = 0, -1.0
        for i, move in enumerate(node.moves):
            value = grave_value(node.visits_of[i], node.totals[i], amaf.get((seat, move)), bias)
            if value > best_value:
                best, best_value = i, value
        return best

    def playout(self, state: Any) -> tuple[Rewards, Played]:
        """Uniformly random moves to the end: the rewards, and the (seat, move) pairs played."""
        played: Played = set()
        rules, rng = self.rules, self.rng
        for _ in range(PLAYOUT_CAP):
            if self.fast_playout is not None:
                fast = self.fast_playout(state, rng)
                if fast is not None:
                    rewards, rest = fast
                    return rewards, played | rest
            seat = rules.to_move(state)
            if seat is None:
                outcome = rules.outcome(state)
                assert outcome is not None
                return rank_rewards(outcome), played
            moves = list(rules.legal_moves(state))
            move = moves[int(rng.random() * len(moves))]
            played.add((seat, move))
            state = rules.apply(state, move)
        return [0.5] * self.seats, played

    def iterate(self, root: GraveNode) -> None:
        """Select by GRAVE values down to a move never followed, add its node, play out, back up."""
        path = [root]
        chosen: list[int] = []
        node = root
        while node.terminal is None:
            index = self.choose(node, reference(path, self.ref))
            chosen.append(index)
            child = node.children[index]
            if child is None:
                after = self.rules.apply(node.state, node.moves[index])
                child = GraveNode(self.rules, after, self.seats, self.rng)
                node.children[index] = child
                path.append(child)
                break
            node = child
            path.append(node)
        leaf = path[-1]
        if leaf.terminal is not None:
            rewards: Rewards = leaf.terminal
            played: Played = set()
        else:
            rewards, played = self.playout(leaf.state)
        self.back_up(path, chosen, rewards, played)

    @staticmethod
    def back_up(path: list[GraveNode], chosen: list[int], rewards: Rewards, played: Played) -> None:
        """Count the simulation in every node of the path; each node's AMAF table takes every (seat, move)
        played at or below it."""
        below = set(played)
        for depth in range(len(path) - 1, -1, -1):
            node = path[depth]
            node.visits += 1
            if depth < len(chosen):
                index = chosen[depth]
                node.visits_of[index] += 1
                assert node.seat is not None
                node.totals[index] += rewards[node.seat]
                below.add((node.seat, node.moves[index]))
            amaf = node.amaf
            for key in below:
                entry = amaf.get(key)
                if entry is None:
                    amaf[key] = [rewards[key[0]], 1.0]
                else:
                    entry[0] += rewards[key[0]]
                    entry[1] += 1.0

    def run(self, state: Any, *, seconds: float | None, iterations: int | None) -> SearchReport:
        """Search until the time or iteration budget runs out; report the most visited root move."""
        start = time.perf_counter()
        root = GraveNode(self.rules, state, self.seats, self.rng)
        deadline = None if seconds is None else start + seconds
        limit = iterations if iterations is not None else 1 << 62
        done = 0
        while done < limit:
            self.iterate(root)
            done += 1
            if deadline is not None and done % TIME_CHECK_EVERY == 0 and time.perf_counter() >= deadline:
                break
        stats = tuple(
            sorted(
                (
                    MoveStats(move, visits, root.totals[i] / visits if visits else 0.0)
                    for i, (move, visits) in enumerate(zip(root.moves, root.visits_of, strict=True))
                ),
                key=lambda s: (-s.visits, -s.value),
            )
        )
        return SearchReport(stats[0].move, done, time.perf_counter() - start, stats, "search")


def grave_move(
    rules: Rules[Any, Any],
    state: Any,
    *,
    seconds: float | None = None,
    iterations: int | None = None,
    seed: int = 0,
    ref: int = REF,
    bias: float = BIAS,
) -> SearchReport:
    """GRAVE's move for the seat to move within `seconds` or `iterations` (deterministic with iterations).
    A forced or only move is returned without searching; raises GameOver on a finished game."""
    if rules.to_move(state) is None:
        raise GameOver(Text("the game is over; there is nothing to play"))
    forced = rules.forced_move(state)
    if forced is not None:
        return SearchReport(forced, 0, 0.0, (), "forced")
    moves = list(rules.legal_moves(state))
    if len(moves) == 1:
        return SearchReport(moves[0], 0, 0.0, (), "only move")
    if seconds is None and iterations is None:
        raise ValueError("give GRAVE a budget: seconds or iterations")
    search = Grave(
        rules, seat_count(rules, state), random.Random(seed), ref=ref, bias=bias,
        fast_playout=knowledge_for(rules.id).grave_playout,
    )  # fmt: skip
    return search.run(state, seconds=seconds, iterations=iterations)


__all__ = ["BIAS", "REF", "Grave", "GraveNode", "grave_move", "grave_value", "reference"]
