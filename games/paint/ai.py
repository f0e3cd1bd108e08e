"""What the search knows about Paint (RULES.md section 2).

A game lasts until someone holds the tile lead for 50 plies, so playouts to the end are long and mostly
noise. Playouts here are short (`PLAYOUT_PLIES`), greedy half of the time (the move that paints the most
new squares and takes the most from the opponent), and then scored by an evaluation: the tile difference
and how far the leader's lead count has run. Tree moves are ordered by the same greed and widened slowly.
The weak (easy) version plays random short playouts in random order.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

from games.ai.knowledge import Knowledge, Rewards
from games.base import MoveError, Rules
from games.paint.rules import (
    DEFAULT_SETTINGS,
    PATH,
    SIZE,
    WHITE,
    PaintState,
    disc_moves,
    lead_counters,
    paint_move,
)

PLAYOUT_PLIES = 12  # 12 beat 24 in 6 of 8 games at equal time; 6 and 12 were even
GREEDY_CHANCE = 0.6
TILE_SCALE = 5.0  # tiles of difference worth one unit of the logistic evaluation
LEAD_WEIGHT = 4.0  # a lead count at the winning mark is worth this many units
BOOK_FILE = "book.json"
"""The opening book (next to this module), written by bench/paint_book.py."""
DATA_FILES = (BOOK_FILE,)
"""The data this knowledge plays by besides its code (a calibration's record of the AI version covers it)."""


def white_value(
    white_tiles: int, black_tiles: int, leader: int | None, lead_count: int, lead_turns: int
) -> float:
    """The evaluation: White's chance in [0, 1] from the tile difference and the running lead count."""
    x = (white_tiles - black_tiles) / TILE_SCALE
    if leader is not None:
        progress = LEAD_WEIGHT * min(1.0, lead_count / lead_turns)
        x += progress if leader == WHITE else -progress
    return 1.0 / (1.0 + math.exp(-x))


def book_key(state: PaintState) -> str:
    """A position's key in the opening book: everything the rules look at (the settings apart: the book holds
    positions of the standard settings only)."""
    fields = (state.light, state.dark, state.white_discs, state.black_discs, state.spheres)
    counts = (state.to_move, -1 if state.leader is None else state.leader, state.lead_count)
    return "/".join(
        [f"{bits:x}" for bits in fields] + [str(n) for n in (*counts, state.no_lead_count, state.ply)]
    )


@cache
def opening_book() -> dict[str, str]:
    """The opening book shipped in the package: position key -> the move in notation."""
    try:
        text = resources.files("games.paint").joinpath(BOOK_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    return {entry["key"]: entry["move"] for entry in json.loads(text)["positions"]}


def gain(own: int, opponent: int, move: tuple[int, int]) -> int:
    """How much a move changes the tile difference before area splits: new own squares plus the opponent
    squares painted over."""
    path = PATH[move[0] * SIZE + move[1]]
    return (path & ~own).bit_count() + (path & opponent).bit_count()


def greedy_pick(
    moves: Sequence[tuple[int, int]], own: int, opponent: int, rng: random.Random
) -> tuple[int, int]:
    """The move with the largest `gain`, ties broken at random (`gain` written out inline: this runs on
    every greedy ply of every playout)."""
    best: list[tuple[int, int]] = []
    best_gain = -1
    not_own = ~own
    for move in moves:
        path = PATH[move[0] * SIZE + move[1]]
        value = (path & not_own).bit_count() + (path & opponent).bit_count()
        if value > best_gain:
            best, best_gain = [move], value
        elif value == best_gain:
            best.append(move)
    return best[rng.randrange(len(best))]


def policy_playout(
    state: PaintState, rng: random.Random, plies: int = PLAYOUT_PLIES, greedy_chance: float = GREEDY_CHANCE
) -> float:
    """Play the policy (the greediest move with `greedy_chance`, else a random one) for up to `plies`
    plies; White's reward: 1/0/0.5 if the game ended, else the evaluation of where it stopped."""
    light, dark = state.light, state.dark
    white_discs, black_discs, spheres = state.white_discs, state.black_discs, state.spheres
    mover, leader, lead_count, no_lead_count, ply = (
        state.to_move, state.leader, state.lead_count, state.no_lead_count, state.ply,
    )  # fmt: skip
    lead_turns, no_lead_turns, move_cap = state.lead_turns, state.no_lead_turns, state.move_cap
    own_turns, lead_on_own_turn = state.turn_unit == "own_turns", state.lead_on_own_turn
    random_float = rng.random
    for _ in range(plies + 1):
        if leader is not None and lead_count >= lead_turns:
            return 1.0 if leader == WHITE else 0.0
        if no_lead_count >= no_lead_turns:
            return 0.5
        if mover == WHITE:
            moves = disc_moves(light, white_discs, dark, black_discs, spheres)
        else:
            moves = disc_moves(dark, black_discs, light, white_discs, spheres)
        if not moves:
            return 0.0 if mover == WHITE else 1.0
        if ply >= move_cap:
            return 0.5
        if _ == plies:
            break
        if random_float() < greedy_chance:
            own, opponent = (light, dark) if mover == WHITE else (dark, light)
            source, dest = greedy_pick(moves, own, opponent, rng)
        else:
            source, dest = moves[int(random_float() * len(moves))]
        if mover == WHITE:
            light, white_discs, dark, black_discs, spheres = paint_move(
                light, white_discs, dark, black_discs, spheres, source, dest
            )
        else:
            dark, black_discs, light, white_discs, spheres = paint_move(
                dark, black_discs, light, white_discs, spheres, source, dest
            )
        leader, lead_count, no_lead_count = lead_counters(
            leader, lead_count, no_lead_count, mover, light.bit_count(), dark.bit_count(), own_turns,
            lead_on_own_turn,
        )  # fmt: skip
        mover = 1 - mover
        ply += 1
    return white_value(light.bit_count(), dark.bit_count(), leader, lead_count, lead_turns)


class PaintKnowledge(Knowledge):
    """Paint: greedy short playouts scored by tiles and lead, greedy move ordering, slow widening."""

    take_wins = True
    widening = (2.0, 0.4)
    """Narrower than the weak version's (3, 0.5): at 0.25 s a move (about 900 iterations) the root looks at
    the 31 greediest moves rather than 90, and this beat (3, 0.5) at equal time in 28.5 of 40 games
    (bench/baselines/time_odds.md). The weak version orders its moves at random, so it keeps the wide one."""
    exploration = 0.5

    def __init__(self, weak: bool = False) -> None:
        super().__init__(weak)
        if weak:
            self.widening = (3.0, 0.5)

    def order(self, rules: Rules[Any, Any], state: Any, moves: list[Any], rng: random.Random) -> list[Any]:
        if self.weak:
            return super().order(rules, state, moves, rng)
        own, opponent = (state.light, state.dark) if state.to_move == WHITE else (state.dark, state.light)
        shuffled = list(moves)
        rng.shuffle(shuffled)
        return sorted(shuffled, key=lambda move: -gain(own, opponent, move))

    def book_move(self, rules: Rules[Any, Any], state: Any) -> Any | None:
        """The book's move for a position of the standard settings (bench/paint_book.py searched each one
        with many times the top level's budget), if the book holds the position and the move is legal."""
        if self.weak or state.settings != DEFAULT_SETTINGS:
            return None
        notation = opening_book().get(book_key(state))
        if notation is None:
            return None
        try:
            return rules.parse(state, notation)  # a legal move, or MoveError
        except MoveError:
            return None

    def evaluate(self, rules: Rules[Any, Any], state: Any, seats: int) -> Rewards:
        white = white_value(
            state.light.bit_count(), state.dark.bit_count(), state.leader, state.lead_count, state.lead_turns
        )
        return [white, 1.0 - white]

    def playout(self, rules: Rules[Any, Any], state: Any, rng: random.Random, seats: int) -> Rewards:
        white = policy_playout(state, rng, greedy_chance=0.0 if self.weak else GREEDY_CHANCE)
        return [white, 1.0 - white]


__all__ = ["PaintKnowledge", "book_key", "gain", "opening_book", "policy_playout", "white_value"]


KNOWLEDGE = PaintKnowledge
"""This game's knowledge, found by `knowledge_for` by convention."""
