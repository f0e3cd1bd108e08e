"""Paintscape's colour race as a win chance: how likely Black is to collect three colours first.

Per colour still on the board, a player's *cost* is the placements it needs to collect it: one per stone
missing to reach 6 (RULES 1.5), plus `path` for each step beyond the first to reach the nearest free tiles of
the colour (distance through squares without a stone). A colour is out of a player's reach while fewer free
tiles than it needs can be reached without crossing a stone (opponents wall colours off; a later collection
may open them again). Black's chance to collect the colour is a logistic function of its lead (White's cost
less Black's, the side to move counted `tempo` placements ahead), damped while both are far from the colour.

The colours are then taken as independent: Black wins if its collected colours plus those it collects of
the rest reach 3 (a Poisson-binomial sum); White wins if its do. Swapping the colours of every stone (and
the turn and the scores) turns a chance p into 1 - p.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from games.paintscape.rules import PaintscapeState

FULL = (1 << 64) - 1
_FILE_A = sum(1 << (8 * y) for y in range(8))
NOT_FILE_A = FULL & ~_FILE_A
NOT_FILE_H = FULL & ~(_FILE_A << 7)
COLLECT_AT = 6
COLOURS_TO_WIN = 3


@dataclass(frozen=True, slots=True)
class RaceWeights:
    """The evaluation's parameters, fitted to self-play games by bench/fit_race.py."""

    scale: float = 1.24
    """Logistic slope: how sure a lead of one placement makes a colour."""
    tempo: float = 0.99
    """Placements the side to move is counted ahead by."""
    path: float = 2.84
    """Cost of each step beyond the first to reach a needed free tile."""
    damp: float = 0.154
    """How much less a lead counts while both players are far from the colour: the lead is divided by
    1 + damp * (the two costs added)."""
    depth: int = 4
    """Steps of reach looked at; a tile farther away counts as depth + 1 steps."""


WEIGHTS = RaceWeights()


def around(stones: int) -> int:
    """The squares orthogonally next to any of `stones`."""
    return (
        ((stones << 8) & FULL) | (stones >> 8) | ((stones & NOT_FILE_H) << 1) | ((stones & NOT_FILE_A) >> 1)
    )


def reach(mine: int, stones: int, depth: int) -> tuple[list[int], int]:
    """(`layers`, `reachable`): `layers[d]` holds the squares without a stone that `mine` reaches in d + 1
    placements (each placement goes next to a stone of its own, so only through squares without a stone);
    `reachable` all such squares at any distance (the rest are walled off by stones)."""
    open_squares = FULL & ~stones
    seen = frontier = mine
    layers: list[int] = []
    while frontier:
        frontier = around(frontier) & open_squares & ~seen
        seen |= frontier
        if len(layers) < depth:
            layers.append(frontier)
    return layers, seen & ~mine


def placement_cost(count: int, free_tiles: int, reached: tuple[list[int], int], path: float) -> float | None:
    """Placements a player needs to put stones on `count` of the free tiles (bitboard) `free_tiles`, given
    what it `reach`es: one per tile plus `path` per step beyond the first to reach each (the nearest first;
    a tile beyond the layers counts as one step farther). None when fewer than `count` are reachable."""
    layers, reachable = reached
    free_tiles &= reachable
    if free_tiles.bit_count() < count:
        return None
    steps = 0
    found = 0
    for distance, layer in enumerate(layers):
        if found == count:
            break
        here = min((layer & free_tiles).bit_count(), count - found)
        steps += here * distance
        found += here
    steps += (count - found) * len(layers)
    return count + path * steps


def _logistic(x: float) -> float:
    if x < -30.0:
        return 0.0
    if x > 30.0:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def colour_chances(
    black: int, white: int, tiles: Sequence[int], black_to_move: bool, weights: RaceWeights = WEIGHTS
) -> list[float]:
    """Black's chance to collect each colour still on the board (colours gone are left out)."""
    stones = black | white
    black_reach = reach(black, stones, weights.depth)
    white_reach = reach(white, stones, weights.depth)
    tempo = weights.tempo if black_to_move else -weights.tempo
    chances = []
    for t in tiles:
        if not t:
            continue
        free = t & ~stones
        black_cost = placement_cost(COLLECT_AT - (black & t).bit_count(), free, black_reach, weights.path)
        white_cost = placement_cost(COLLECT_AT - (white & t).bit_count(), free, white_reach, weights.path)
        if black_cost is None:
            chances.append(0.0 if white_cost is not None else 0.5)
        elif white_cost is None:
            chances.append(1.0)
        else:
            lead = (white_cost - black_cost + tempo) / (1.0 + weights.damp * (white_cost + black_cost))
            chances.append(_logistic(weights.scale * lead))
    return chances


def race_chance(
    black: int,
    white: int,
    tiles: Sequence[int],
    scores: Sequence[int],
    black_to_move: bool,
    weights: RaceWeights = WEIGHTS,
) -> float:
    """Black's chance to win (a draw counts half) from the bitboards, the colours collected by (Black,
    White), and who moves."""
    black_needs = COLOURS_TO_WIN - scores[0]
    white_needs = COLOURS_TO_WIN - scores[1]
    if black_needs <= 0 or white_needs <= 0:
        return 1.0 if black_needs <= 0 < white_needs else 0.0 if white_needs <= 0 < black_needs else 0.5
    chances = colour_chances(black, white, tiles, black_to_move, weights)
    # spread[j]: the chance that Black collects exactly j of the remaining colours
    spread = [1.0]
    for p in chances:
        grown = [0.0] * (len(spread) + 1)
        for j, q in enumerate(spread):
            grown[j] += q * (1.0 - p)
            grown[j + 1] += q * p
        spread = grown
    left = len(chances)
    win = sum(q for j, q in enumerate(spread) if j >= black_needs)
    loss = sum(q for j, q in enumerate(spread) if left - j >= white_needs)
    return min(1.0, max(0.0, win + 0.5 * (1.0 - win - loss)))


def win_chance(state: PaintscapeState, weights: RaceWeights = WEIGHTS) -> float:
    """Black's chance to win a play-phase position (1 or 0 once decided)."""
    scores = (state.collected.count(0), state.collected.count(1))
    return race_chance(state.black, state.white, state.tiles, scores, state.turn == 0, weights)


__all__ = [
    "COLLECT_AT",
    "COLOURS_TO_WIN",
    "FULL",
    "WEIGHTS",
    "RaceWeights",
    "around",
    "colour_chances",
    "placement_cost",
    "race_chance",
    "reach",
    "win_chance",
]
