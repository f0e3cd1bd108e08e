"""What the search knows about Paintscape (RULES.md section 1).

- Placements are keyed by square for RAVE (all-moves-as-first): in a placement game a square that is good
  later is often good now, which sharpens the first few hundred visits of every node. Playouts are
  uniformly random: a greedy collect/block/prefer-my-colours policy measured weaker than uniform
  playouts at equal thinking time (4 of 13 games against plain UCT, where RAVE won 12 of 16).
- Playouts stop after `cutoff` placements and the colour race evaluation (race.py) scores them:
  shorter, so more of them, and less noisy than a random game's end (bench/tune_paintscape.py measured
  the cutoff by self-play; the notes are in bench/baselines/paintscape_ai.md).
- Tree moves are ordered: a placement that collects a colour first, then one that blocks the opponent's
  collecting square, then the rest.
- The weak (easy) version drops RAVE and does not balance.
- Balancing: the balancer estimates with the search's playouts how likely Black (the first mover) is to
  win, and swaps stones while a swap brings that nearer to even; then `done`. The chooser searches its two
  answers.
"""

from __future__ import annotations

import random
import time
from collections.abc import Hashable
from dataclasses import replace
from typing import Any

from games.ai.knowledge import Knowledge, Rewards
from games.base import Rules
from games.grids import bits_of
from games.paintscape.race import (
    COLLECT_AT,
    COLOURS_TO_WIN,
    FULL,
    NOT_FILE_A,
    NOT_FILE_H,
    WEIGHTS,
    RaceWeights,
    around,
    race_chance,
)
from games.paintscape.rules import DONE, PLACES, PLAY, Move, PaintscapeState, Place, Swap, fast_playout

CENTRE = sum(1 << (8 * y + x) for y in range(2, 6) for x in range(2, 6))


def urgent_squares(mine: int, theirs: int, tiles: list[int] | tuple[int, ...]) -> tuple[int, int]:
    """(squares where the mover collects a colour now, squares where the opponent would collect next)."""
    stones = mine | theirs
    my_targets = around(mine) & ~stones
    their_targets = around(theirs) & ~stones
    collect = block = 0
    for t in tiles:
        if t:
            if (mine & t).bit_count() == COLLECT_AT - 1:
                collect |= my_targets & t
            if (theirs & t).bit_count() == COLLECT_AT - 1:
                block |= their_targets & t
    return collect, block & my_targets


def random_playout(state: PaintscapeState, rng: random.Random) -> tuple[int, list[int]]:
    """Uniformly random placements from a play-phase state to the end: (winning seat or -1, per seat the
    bitboard of squares it placed on during the playout)."""
    value, placed = cut_playout(state, rng, 1 << 30)
    return (-1 if value == 0.5 else 0 if value == 1.0 else 1), placed


def cut_playout(
    state: PaintscapeState, rng: random.Random, plies: int, weights: RaceWeights = WEIGHTS
) -> tuple[float, list[int]]:
    """Uniformly random placements from a play-phase state for at most `plies` placements: (seat 0's reward,
    per seat the bitboard of squares it placed on). The reward is 1, 0 or 0.5 (a draw) when the game ended,
    else seat 0's `race_chance` where the playout stopped."""
    black_seat = state.black_seat
    assert black_seat is not None
    black, white = state.black, state.white
    tiles = list(state.tiles)
    scores = [state.collected.count(0), state.collected.count(1)]
    placed = [0, 0]  # by stone colour
    if max(scores) >= COLOURS_TO_WIN:
        return _seat0_reward(0 if scores[0] > scores[1] else 1, black_seat), placed
    in_play = sum(1 for t in tiles if t)
    colour = state.turn
    random_float = rng.random
    passed = False
    while plies > 0:
        mine = white if colour else black
        stones = black | white
        targets = (
            ((mine << 8) & FULL) | (mine >> 8) | ((mine & NOT_FILE_H) << 1) | ((mine & NOT_FILE_A) >> 1)
        ) & ~stones
        if not targets:
            if passed:
                return 0.5, _by_seat(placed, black_seat)
            passed = True
            colour ^= 1
            continue
        passed = False
        plies -= 1
        for _ in range(int(random_float() * targets.bit_count())):
            targets &= targets - 1
        bit = targets & -targets
        placed[colour] |= bit
        mine |= bit
        for k in range(5):
            t = tiles[k]
            if t & bit:
                if (mine & t).bit_count() == COLLECT_AT:
                    tiles[k] = 0
                    in_play -= 1
                    mine &= ~t
                    if colour:
                        black &= ~t
                    else:
                        white &= ~t
                    scores[colour] += 1
                    if scores[colour] >= COLOURS_TO_WIN:
                        return _seat0_reward(colour, black_seat), _by_seat(placed, black_seat)
                    if max(scores) + in_play < COLOURS_TO_WIN:
                        if scores[0] == scores[1]:
                            return 0.5, _by_seat(placed, black_seat)
                        winner = 0 if scores[0] > scores[1] else 1
                        return _seat0_reward(winner, black_seat), _by_seat(placed, black_seat)
                break
        if colour:
            white = mine
        else:
            black = mine
        colour ^= 1
    chance = race_chance(black, white, tiles, scores, colour == 0, weights)
    return (chance if black_seat == 0 else 1.0 - chance), _by_seat(placed, black_seat)


def _seat0_reward(winner_colour: int, black_seat: int) -> float:
    """Seat 0's reward when the stone colour `winner_colour` (0 Black) won."""
    return 1.0 if winner_colour ^ black_seat == 0 else 0.0


def _by_seat(by_colour: list[int], black_seat: int) -> list[int]:
    return by_colour if black_seat == 0 else [by_colour[1], by_colour[0]]


def _winner_rewards(winner: int) -> Rewards:
    if winner < 0:
        return [0.5, 0.5]
    return [1.0, 0.0] if winner == 0 else [0.0, 1.0]


class PaintscapeKnowledge(Knowledge):
    """Paintscape: RAVE over squares with uniform playouts cut off by the race evaluation, ordered
    placements, a balancer that evens the start."""

    @staticmethod
    def grave_playout(state: Any, rng: random.Random) -> tuple[Rewards, set[tuple[int, Hashable]]] | None:
        """The play phase by the engine's fast uniform playout, for GRAVE (None outside the play phase)."""
        if state.phase != "play":
            return None
        winner, placed = random_playout(state, rng)
        rewards = [0.5, 0.5] if winner < 0 else [1.0 - winner, float(winner)]
        # GRAVE keys AMAF by (seat, move): the placements as the tree lists them, the `PLACES` values.
        return rewards, {(seat, PLACES[square]) for seat in (0, 1) for square in bits_of(placed[seat])}

    take_wins = True
    rave = 300.0
    exploration = 0.3
    cutoff = 12
    """Placements a playout makes before the colour race evaluation (`race_chance`) scores it."""
    weights = WEIGHTS

    def __init__(self, weak: bool = False) -> None:
        super().__init__(weak)
        if weak:
            self.rave = 0.0
            self.exploration = 0.7

    def order(self, rules: Rules[Any, Any], state: Any, moves: list[Any], rng: random.Random) -> list[Any]:
        ordered = list(moves)
        rng.shuffle(ordered)
        if state.phase != "play" or state.black_seat is None or self.weak:
            return ordered
        colour = state.turn
        mine, theirs = (state.white, state.black) if colour else (state.black, state.white)
        collect, block = urgent_squares(mine, theirs, state.tiles)

        def urgency(move: Move) -> int:
            if type(move) is Place:
                bit = 1 << move.square
                return 0 if collect & bit else 1 if block & bit else 2
            return 3

        return sorted(ordered, key=urgency)

    def move_key(self, state: Any, move: Any) -> int:
        """Placements are keyed by their square; other moves take no part in AMAF."""
        return move.square if type(move) is Place else -1

    def playout_keys(
        self, rules: Rules[Any, Any], state: Any, rng: random.Random, seats: int
    ) -> tuple[Rewards, list[int]]:
        if state.phase == "play":
            value, placed = cut_playout(state, rng, self.cutoff, self.weights)
            return [value, 1.0 - value], placed
        return super().playout_keys(rules, state, rng, seats)

    def playout(self, rules: Rules[Any, Any], state: Any, rng: random.Random, seats: int) -> Rewards:
        if state.phase == "play":
            return _winner_rewards(fast_playout(state, rng))
        return super().playout(rules, state, rng, seats)

    # ------------------------------------------------------------------------------------ balancing

    def black_win_rate(self, state: PaintscapeState, playouts: int, rng: random.Random) -> float:
        """Black's (moving first) mean reward over the search's playouts from a setup position's board."""
        play = replace(state, phase=PLAY, black_seat=0, turn=0)
        total = 0.0
        for _ in range(playouts):
            total += cut_playout(play, rng, self.cutoff, self.weights)[0]
        return total / playouts

    def swap_candidates(
        self, state: PaintscapeState, moves: list[Any], rng: random.Random, count: int
    ) -> list[Swap]:
        """A spread of swaps to try: each movable stone to central tiles and to random tiles."""
        swaps = [m for m in moves if type(m) is Swap]
        central = [m for m in swaps if CENTRE >> m.tile & 1]
        rng.shuffle(central)
        rng.shuffle(swaps)
        chosen: list[Swap] = []
        for move in central[: count // 2] + swaps:
            if move not in chosen:
                chosen.append(move)
            if len(chosen) >= count:
                break
        return chosen

    def balance_move(
        self,
        state: PaintscapeState,
        moves: list[Any],
        rng: random.Random,
        budget: int,
        deadline: float | None,
    ) -> Move:
        """The balancer's move: the candidate swap that brings Black's chances nearest to even, if it beats
        stopping now by a clear margin, else `done`."""
        per_estimate = max(16, budget // 26)
        current = self.black_win_rate(state, per_estimate, rng)
        best_move: Move = DONE
        best_gap = abs(current - 0.5)
        if best_gap < 0.06:
            return DONE
        for move in self.swap_candidates(state, moves, rng, 25):
            if deadline is not None and time.perf_counter() >= deadline:
                break
            gap = abs(self.black_win_rate(state_after_swap(state, move), per_estimate, rng) - 0.5)
            if gap < best_gap - 0.04:
                best_move, best_gap = move, gap
        return best_move

    def special_move(
        self,
        rules: Rules[Any, Any],
        state: Any,
        moves: list[Any],
        rng: random.Random,
        iterations: int | None,
        seconds: float | None,
    ) -> Any | None:
        if state.phase != "balance":
            return None
        if self.weak:  # the easy balancer does not balance
            return DONE
        budget = iterations if iterations is not None else 1 << 30
        deadline = None if seconds is None else time.perf_counter() + seconds
        if iterations is None and seconds is not None:
            budget = int(seconds * 3000)
        return self.balance_move(state, moves, rng, budget, deadline)


def state_after_swap(state: PaintscapeState, move: Swap) -> PaintscapeState:
    """The board after a swap (bookkeeping fields aside): the stone and the tile trade squares."""
    stone, tile = move.stone, move.tile
    stone_bit, tile_bit = 1 << stone, 1 << tile
    black, white = state.black, state.white
    if black & stone_bit:
        black = black & ~stone_bit | tile_bit
    else:
        white = white & ~stone_bit | tile_bit
    t = [t & ~tile_bit | stone_bit if t & tile_bit else t for t in state.tiles]
    tiles = (t[0], t[1], t[2], t[3], t[4])
    return replace(state, black=black, white=white, tiles=tiles, swapped=state.swapped | tile_bit)


__all__ = ["PaintscapeKnowledge", "random_playout", "state_after_swap", "urgent_squares"]


KNOWLEDGE = PaintscapeKnowledge
"""This game's knowledge, found by `knowledge_for` by convention."""
