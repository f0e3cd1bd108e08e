"""The search on Paintscape positions with a known best move, the playout policy, and the balancing phase."""

from __future__ import annotations

import random
import time
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.ai import analyse, best_move
from games.paintscape.ai import PaintscapeKnowledge, random_playout, state_after_swap, urgent_squares
from games.paintscape.rules import DONE, PLAY_BLACK, PLAY_WHITE, PaintscapeState, Place, fast_playout, is_swap

RULES = games.get("paintscape")
TILE_CHARS = "12345"


def layout(fixed: dict[str, str], empties: int = 0, leave_out: str = "") -> str:
    """A 64-character layout: the `fixed` squares ("a1": "B"), then every colour but `leave_out` topped up
    to 12 tiles in square order, with `empties` empty squares at the end of the board."""
    board = [""] * 64
    for label, char in fixed.items():
        board[RULES._square(label)] = char
    counts = {c: 0 for c in TILE_CHARS}
    for char in board:
        if char:
            lower = char.lower()
            if char in TILE_CHARS:
                counts[char] += 1
            elif lower in "yrcpn":
                counts[TILE_CHARS["yrcpn".index(lower)]] += 1
    free = [i for i in range(64) if not board[i]]
    for i in free[len(free) - empties :]:
        board[i] = "."
    fill = [c for c in TILE_CHARS if c not in leave_out for _ in range(12 - counts[c])]
    for i, char in zip([i for i in range(64) if not board[i]], fill, strict=True):
        board[i] = char
    return "".join(board)


def play_position(fixed: dict[str, str], empties: int = 0, leave_out: str = "") -> PaintscapeState:
    """Black (seat 0) to move in the play phase on that layout."""
    return RULES.new(2, {"layout": layout(fixed, empties, leave_out), "balance": False}, 0)


# Black (seat 0, to move) has 5 stones on red (b1-f1) and a free red tile on g1 next to f1; White's stone
# on h1 could step on g1 next turn and spoil it, so collecting now is urgent.
RED_RACE = {"a1": "B", "b1": "R", "c1": "R", "d1": "R", "e1": "R", "f1": "R", "g1": "2", "h1": "W"}


def test_search_collects_a_colour_when_it_can() -> None:
    state = play_position(RED_RACE, empties=2)
    report = analyse(RULES, state, level="hard", iterations=400, seed=1)
    assert report.reason == "search"
    assert RULES.notation(state, report.move) == "g1"
    after = RULES.apply(state, report.move)
    assert after.collected[1] == 0 and after.tiles[1] == 0, "red was collected by Black"


def test_search_blocks_the_opponents_only_collecting_square() -> None:
    """White has 5 stones on cyan and one free cyan tile (d4) next to a White stone; Black can reach d4
    and has nothing better, so Black steps on it."""
    fixed = {
        "a8": "c", "b8": "c", "c8": "c", "d8": "c", "e8": "c", "d5": "W", "d4": "3", "d3": "B", "h1": "B",
        # the other cyan tiles lie away from White, so that d4 is White's only collecting square
        "a2": "C", "b2": "C", "c2": "C", "e2": "3", "f2": "3", "h3": "3",
    }  # fmt: skip
    state = play_position(fixed, empties=1)
    collect, block = urgent_squares(state.black, state.white, state.tiles)
    assert collect == 0 and block == 1 << RULES._square("d4")
    move = best_move(RULES, state, level="hard", iterations=600, seed=2)
    assert RULES.notation(state, move) == "d4"


def test_third_colour_is_taken_at_once() -> None:
    state = play_position(RED_RACE, empties=2)
    state = replace(
        state,
        tiles=(0, state.tiles[1], 0, state.tiles[3], state.tiles[4]),
        collected=(0, None, 0, None, None),
        black=state.black & ~(state.tiles[0] | state.tiles[2]),
        white=state.white & ~(state.tiles[0] | state.tiles[2]),
    )
    report = analyse(RULES, state, level="medium", iterations=50)
    assert report.reason == "winning move" and RULES.notation(state, report.move) == "g1"


def test_forced_pass_is_returned_without_search() -> None:
    fixed = {"a1": "B", "b2": "B", "a2": "W", "b1": "W", "b3": "W", "c2": "W"}
    state = play_position(fixed, empties=10, leave_out="5")
    assert RULES.forced_move(state) is not None
    report = analyse(RULES, state, level="hard", iterations=10_000)
    assert report.reason == "forced" and RULES.notation(state, report.move) == "pass"


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_random_playouts_end_with_a_winner_and_report_fresh_squares(seed: int) -> None:
    """The RAVE playouts: a winner (no draws from a standard start), and per seat the squares it placed on,
    never a square that held a stone when the playout started."""
    state = RULES.new(2, {"balance": False}, seed)
    winner, placed = random_playout(state, random.Random(seed))
    assert winner in (0, 1)
    assert placed[0] and placed[1]
    assert not (placed[0] | placed[1]) & (state.black | state.white)


def test_random_playout_follows_the_engine_on_the_same_random_numbers() -> None:
    """The engine's fast path draws one number per placement the same way, so the winners agree."""
    for seed in range(30):
        state = RULES.new(2, {"balance": False}, seed)
        assert random_playout(state, random.Random(seed))[0] == fast_playout(state, random.Random(seed))


def test_urgent_squares_name_the_collecting_square() -> None:
    state = play_position(RED_RACE, empties=2)
    collect, _ = urgent_squares(state.black, state.white, state.tiles)
    assert collect == 1 << RULES._square("g1")


def test_swap_helper_matches_the_engine() -> None:
    state = RULES.new(2, {}, 4)
    for move in [m for m in RULES.legal_moves(state) if is_swap(m)][:40]:
        engine = RULES.apply(state, move)
        mine = state_after_swap(state, move)
        assert (mine.black, mine.white, mine.tiles, mine.swapped) == (
            engine.black, engine.white, engine.tiles, engine.swapped
        )  # fmt: skip


@pytest.mark.parametrize("seed", [2, 3])
def test_balancer_evens_a_lopsided_start_and_then_stops(seed: int) -> None:
    """Seeds 2 and 3 deal starts where Black (first) wins most playouts; the balancer swaps towards even,
    never more than four times, and ends with done or the automatic end after the 4th swap."""
    knowledge = PaintscapeKnowledge()
    rng = random.Random(0)
    state = RULES.new(2, {}, seed)
    before = abs(knowledge.black_win_rate(state, 400, rng) - 0.5)
    assert before > 0.2
    moves = []
    while state.phase == "balance":
        move = best_move(RULES, state, level="hard", iterations=1500, seed=seed)
        moves.append(move)
        state = RULES.apply(state, move)
    assert state.phase == "choose" and len(moves) <= 5
    assert any(is_swap(m) for m in moves) and (moves[-1] == DONE or len(moves) == 4)
    after = abs(knowledge.black_win_rate(state, 400, rng) - 0.5)
    assert after < before - 0.1


def test_chooser_takes_the_side_that_wins_more() -> None:
    knowledge = PaintscapeKnowledge()
    state = RULES.apply(RULES.new(2, {}, 3), DONE)  # seed 3: Black (first) wins about 80% of playouts
    assert knowledge.black_win_rate(state, 400, random.Random(1)) > 0.65
    assert best_move(RULES, state, level="hard", iterations=400, seed=0) == PLAY_BLACK
    state = RULES.apply(RULES.new(2, {}, 6), DONE)  # seed 6: White wins about 2 in 3
    assert knowledge.black_win_rate(state, 400, random.Random(1)) < 0.4
    assert best_move(RULES, state, level="hard", iterations=400, seed=0) == PLAY_WHITE


@pytest.mark.parametrize("balance", [True, False])
def test_hard_keeps_to_its_time(balance: bool) -> None:
    """A timed move (balancing, or a placement in play) ends within its budget, give or take a clock check."""
    state = RULES.new(2, {"balance": balance}, 8)
    start = time.process_time()  # CPU time: the search stops on wall time, so a busy machine only shortens it
    best_move(RULES, state, level="hard", seconds=0.3)
    assert time.process_time() - start < 0.3 + 0.5  # a clock check's worth of iterations, and the set-up


def test_grave_playout_keys_are_the_moves_the_tree_lists() -> None:
    """GRAVE keys its AMAF statistics by (seat, move) as the tree lists moves: the fast playout reports the
    same `Place` values (equal and hashed alike), or its statistics would never meet the tree's."""
    state = RULES.new(2, {"balance": False}, 4)
    result = PaintscapeKnowledge.grave_playout(state, random.Random(1))
    assert result is not None
    _, played = result
    seat = RULES.to_move(state)
    first = set(RULES.legal_moves(state))
    assert played and all(type(move) is Place for _, move in played)
    assert any(move in first for mover, move in played if mover == seat), "the first placement is a root move"
    assert PaintscapeKnowledge().move_key(state, next(iter(first))) in range(64), "RAVE keys by square"
