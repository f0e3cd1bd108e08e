"""Paintscape's colour race evaluation (games/paintscape/race.py) and the cut-off playouts that use it."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.paintscape.ai import cut_playout, random_playout
from games.paintscape.race import colour_chances, placement_cost, race_chance, reach, win_chance
from games.paintscape.rules import PaintscapeState, fast_playout
from tests.games.test_ai_paintscape import RED_RACE, play_position

RULES = games.get("paintscape")


def midgame(seed: int, plies: int) -> PaintscapeState:
    """A play-phase position after `plies` uniformly random moves from a random start."""
    rng = random.Random(seed)
    state = RULES.new(2, {"balance": False}, seed)
    for _ in range(plies):
        if RULES.to_move(state) is None:
            break
        moves = RULES.legal_moves(state)
        state = RULES.apply(state, moves[rng.randrange(len(moves))])
    return state


def colours_swapped(state: PaintscapeState) -> PaintscapeState:
    """The same position with every stone, collected colour and the turn given to the other side."""
    collected = tuple(None if c is None else 1 - c for c in state.collected)
    return replace(state, black=state.white, white=state.black, collected=collected, turn=state.turn ^ 1)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 70))
def test_bounded_and_symmetric_under_colour_swap(seed: int, plies: int) -> None:
    state = midgame(seed, plies)
    chance = win_chance(state)
    assert 0.0 <= chance <= 1.0
    assert win_chance(colours_swapped(state)) == pytest.approx(1.0 - chance, abs=1e-9)


def test_a_finished_race_is_certain() -> None:
    assert race_chance(0, 0, (0,) * 5, (3, 1), True) == 1.0
    assert race_chance(0, 0, (0,) * 5, (2, 3), True) == 0.0


def test_two_colours_and_a_collect_in_hand_is_nearly_won() -> None:
    """Black has two colours and five stones on red with a free red tile next to it; White has nothing."""
    state = play_position(RED_RACE, empties=2)
    ahead = replace(state, collected=(0, None, None, 0, None))
    behind = replace(state, collected=(1, None, None, 1, None))
    assert win_chance(ahead) > 0.9
    assert win_chance(behind) < win_chance(state) < win_chance(ahead)


def test_five_on_a_colour_beats_none() -> None:
    """On red Black has 5 stones and a reachable free tile: Black is far likelier to collect red."""
    state = play_position(RED_RACE, empties=2)
    red = colour_chances(state.black, state.white, state.tiles, True)[1]
    assert red > 0.9


A1, B1, C1, D1, A2, B2 = 1, 1 << 1, 1 << 2, 1 << 3, 1 << 8, 1 << 9


def test_placement_costs() -> None:
    """One placement per tile plus `path` per extra step to reach it; None when too few tiles are free."""
    reached = reach(A1, A1, 4)
    assert placement_cost(4, B1 | C1 | D1, reached, 1.0) is None
    assert placement_cost(2, B1 | A2, reached, 1.0) == 2.0
    assert placement_cost(2, B1 | C1, reached, 1.0) == 3.0
    assert placement_cost(2, B1 | D1, reached, 0.5) == 3.0


def test_reach_goes_round_stones_only() -> None:
    """From a1 with a stone on b1: a2 at one step, b2 at two, b1 never."""
    layers, reachable = reach(A1, A1 | B1, 3)
    assert layers[0] == A2
    assert layers[1] & B2
    assert not reachable & B1 and reachable & B2


def test_a_walled_off_colour_goes_to_the_other() -> None:
    """Black's only stone on a1 is walled in by White's b1 and a2: no colour is within Black's reach."""
    black, white = A1, B1 | A2
    colour = sum(1 << square for square in range(20, 32))
    assert reach(black, black | white, 4)[1] == 0
    assert colour_chances(black, white, (colour, 0, 0, 0, 0), True) == [0.0]
    assert colour_chances(white, black, (colour, 0, 0, 0, 0), False) == [1.0]


def test_cut_playout_scores_by_the_race_for_seat_zero() -> None:
    """No placement left to make: the race evaluation, turned to seat 0's side when seat 0 is White."""
    state = midgame(11, 20)
    assert state.phase == "play"
    black_first = replace(state, black_seat=0)
    white_first = replace(state, black_seat=1)
    assert cut_playout(black_first, random.Random(0), 0)[0] == pytest.approx(win_chance(black_first))
    assert cut_playout(white_first, random.Random(0), 0)[0] == pytest.approx(1.0 - win_chance(white_first))


@pytest.mark.parametrize("black_seat", [0, 1])
def test_playouts_move_the_colour_whose_turn_it_is(black_seat: int) -> None:
    """Whichever seat plays Black, a playout moves the stone colour to move, as the engine does."""
    for seed in range(20):
        state = replace(midgame(seed, 7), black_seat=black_seat)
        assert random_playout(state, random.Random(seed))[0] == fast_playout(state, random.Random(seed))
