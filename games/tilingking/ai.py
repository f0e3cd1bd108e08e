"""What the search knows about TilingKing (RULES.md section 3), for any seat of a 2-4 player game.

A position has thousands of placements, so the search never looks at all of them:
- Pruning: `resign` and `passall` are never considered, and `pass` only when it wins the game at once or
  no piece fits; the pie `swap` (an option) is always considered when allowed. Placements are scored by a
  cheap heuristic (cells covered, touching the mover's own pieces to grow rings, touching opponents' pieces
  to contest them, next to neutral cells or the rim that help close rings, no gain on the mover's own
  territory), and a node keeps only the best `NODE_CANDIDATES`, widened progressively. At the root the
  best `ROOT_PROBES` are played to see captures exactly.
- Playouts: each player places the best of a few sampled placements (big pieces first) for up to
  `PLAYOUT_PLIES` plies; the position is then scored by places (and a small share for the margin) on the
  score so far plus most of the cells still in each supply. A finished game is scored the same way.
- The weak (easy) version prunes the same way but its playouts place pieces on random spots.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.ai.knowledge import Knowledge, Rewards, rank_rewards
from games.base import Outcome, Rules, Termination
from games.tilingking import Move, TilingState, pieces, scores
from games.tilingking.rules import PASS_MOVE, PLACE

NODE_CANDIDATES = 24
ROOT_CANDIDATES = 40
ROOT_PROBES = 150
PLAYOUT_SAMPLES = 6
PLAYOUT_PLIES = 10  # a playout stops after this many plies and is scored by `estimated_rewards`
SUPPLY_VALUE = 0.8  # share of the cells left in a supply expected to be placed
MARGIN_SHARE = 0.2  # part of a finished game's reward that follows the score margin rather than the places


def grow(mask: int, neighbour_masks: tuple[int, ...]) -> int:
    """The cells next to any cell of `mask` (by the given neighbour table)."""
    out = 0
    while mask:
        low = mask & -mask
        out |= neighbour_masks[low.bit_length() - 1]
        mask ^= low
    return out


class Features:
    """What the placement heuristic needs about one seat in one position, computed once."""

    __slots__ = ("blocked", "opponents_near", "own_near", "own_territory", "walls_near")

    def __init__(self, rules: Any, state: TilingState, seat: int) -> None:
        board = state.board
        own = state.covered_masks[seat]
        opponents = state.covered & ~own
        self.blocked: int = rules.blocked(state, seat)
        self.own_near = grow(own, board.edge_masks)
        self.opponents_near = grow(opponents, board.vertex_masks)
        self.walls_near = grow(board.neutral_mask, board.vertex_masks) | board.outside_mask
        self.own_territory = state.territory_masks[seat]

    def score(self, mask: int) -> float:
        """The placement heuristic (higher is better)."""
        size = mask.bit_count()
        value = float(size - (mask & self.own_territory).bit_count())
        if mask & self.own_near:
            value += 1.5
        if mask & self.opponents_near:
            value += 1.0
        if mask & self.walls_near:
            value += 0.5
        return value


def estimated_rewards(state: TilingState, rules: Any = None) -> Rewards:
    """Rewards of an unfinished position: places and margins by the score each seat has now plus most of
    the cells still in its supply. Given `rules`, only pieces that still fit somewhere count (space that is
    running out is what decides close games); without, every piece left counts."""
    kinds = pieces(state.board.kind)
    table = state.board.placements(state.settings.reflections) if rules is not None else None
    estimate = []
    for seat, score in enumerate(scores(state)):
        if state.resigned[seat] or state.passall[seat]:
            estimate.append(float(score))
            continue
        blocked = rules.blocked(state, seat) if rules is not None else 0
        left = 0
        for i, n in enumerate(state.supplies[seat]):
            if n and (table is None or any(not m & blocked for m in table[i])):
                left += n * len(kinds[i].shape)
        estimate.append(score + SUPPLY_VALUE * left)
    losers = [s for s in range(state.seats) if state.resigned[s]]
    outcome = Outcome.by_score(estimate, Termination.PASSES, last=losers)
    return margin_rewards(rank_rewards(outcome), estimate, state.board.playable_count)


def margin_rewards(places: Rewards, final: Sequence[float], playable: int) -> Rewards:
    """Blend rank rewards with each seat's margin over the best other seat, scaled to the board."""
    out = []
    for seat, place in enumerate(places):
        best_other = max(final[s] for s in range(len(final)) if s != seat)
        margin = 0.5 + (final[seat] - best_other) / (2.0 * max(1, playable))
        out.append((1 - MARGIN_SHARE) * place + MARGIN_SHARE * min(1.0, max(0.0, margin)))
    return out


class TilingKingKnowledge(Knowledge):
    """TilingKing: pruned, heuristically ordered placements and sampled greedy playouts."""

    take_wins = False  # the root checks `pass` for an immediate win itself
    fit_check = True  # cut-off estimates count only pieces that still fit
    widening = (1.5, 0.5)
    exploration = 0.5

    def outcome_rewards(self, rules: Rules[Any, Any], state: Any, outcome: Outcome) -> Rewards:
        return margin_rewards(rank_rewards(outcome), scores(state), state.board.playable_count)

    def evaluate(self, rules: Rules[Any, Any], state: Any, seats: int) -> Rewards:
        return estimated_rewards(state)

    def _placements(self, moves: list[Any]) -> list[Move]:
        return [m for m in moves if m.action == PLACE]

    def _pass_if_sensible(self, rules: Rules[Any, Any], state: Any, moves: list[Any]) -> list[Move]:
        """`pass` when it ends the game with the mover alone in first place."""
        if PASS_MOVE not in moves:
            return []
        after = rules.apply(state, PASS_MOVE)
        outcome = rules.outcome(after)
        return [PASS_MOVE] if outcome is not None and outcome.winners == (state.turn,) else []

    def ranked(self, rules: Rules[Any, Any], state: Any, moves: list[Move], rng: random.Random) -> list[Move]:
        """Placements best first by the heuristic (random tie-breaks)."""
        features = Features(rules, state, state.turn)
        keyed = [(features.score(m.mask) + rng.random() * 0.01, i) for i, m in enumerate(moves)]
        keyed.sort(reverse=True)
        return [moves[i] for _, i in keyed]

    def order(self, rules: Rules[Any, Any], state: Any, moves: list[Any], rng: random.Random) -> list[Any]:
        placements = self._placements(moves)
        if not placements:
            return [m for m in moves if m.action != "resign"][:1] or list(moves)
        return self._swaps(moves) + self.ranked(rules, state, placements, rng)[:NODE_CANDIDATES]

    @staticmethod
    def _swaps(moves: list[Any]) -> list[Any]:
        """The pie swap, when the match allows it and it is this seat's first turn: always worth a look."""
        return [m for m in moves if m.action == "swap"]

    def root_moves(
        self, rules: Rules[Any, Any], state: Any, moves: list[Any], rng: random.Random
    ) -> list[Any]:
        winning_pass = self._pass_if_sensible(rules, state, moves)
        if winning_pass:
            return winning_pass
        placements = self._placements(moves)
        if not placements:
            return [m for m in moves if m.action == "pass"][:1] or list(moves)
        ranked = self.ranked(rules, state, placements, rng)[:ROOT_PROBES]
        seat = state.turn
        before = scores(state)

        def probe(move: Move) -> float:
            after = scores(rules.apply(state, move))
            taken = sum(before[s] - after[s] for s in range(len(before)) if s != seat)
            return float(after[seat] - before[seat] + taken)

        gains = {id(m): probe(m) for m in ranked}
        features = Features(rules, state, seat)
        ranked.sort(key=lambda m: -(gains[id(m)] * 2 + features.score(m.mask)))
        return self._swaps(moves) + ranked[:ROOT_CANDIDATES]

    # ------------------------------------------------------------------------------------ playouts

    def pick_placement(self, rules: Any, state: TilingState, rng: random.Random) -> Move | None:
        """Usually the biggest piece that still fits (sometimes another), on the best of a few sampled
        spots by the heuristic; None if no piece fits."""
        board = state.board
        seat = state.turn
        features = Features(rules, state, seat)
        blocked = features.blocked
        table = board.placements(state.settings.reflections)
        kinds = pieces(board.kind)
        supply = state.supplies[seat]
        available = sorted(
            (i for i, n in enumerate(supply) if n), key=lambda i: (-len(kinds[i].shape), rng.random())
        )
        if len(available) > 1 and rng.random() < 0.2:
            available.insert(0, available.pop(rng.randrange(1, len(available))))
        for index in available:
            fitting = [m for m in table[index] if not m & blocked]
            if not fitting:
                continue
            best_mask, best_score = 0, -1.0
            for _ in range(min(1 if self.weak else PLAYOUT_SAMPLES, len(fitting))):
                mask = fitting[int(rng.random() * len(fitting))]
                value = features.score(mask)
                if value > best_score:
                    best_mask, best_score = mask, value
            return Move(PLACE, kinds[index].id, best_mask)
        return None

    def playout(self, rules: Rules[Any, Any], state: Any, rng: random.Random, seats: int) -> Rewards:
        for _ in range(PLAYOUT_PLIES):
            outcome = rules.outcome(state)
            if outcome is not None:
                return self.outcome_rewards(rules, state, outcome)
            forced = rules.forced_move(state)
            move = forced if forced is not None else self.pick_placement(rules, state, rng)
            state = rules.apply(state, PASS_MOVE if move is None else move)
        outcome = rules.outcome(state)
        if outcome is not None:
            return self.outcome_rewards(rules, state, outcome)
        return estimated_rewards(state, rules if self.fit_check else None)


__all__ = ["Features", "TilingKingKnowledge", "estimated_rewards", "grow", "margin_rewards"]


KNOWLEDGE = TilingKingKnowledge
"""This game's knowledge, found by `knowledge_for` by convention."""
