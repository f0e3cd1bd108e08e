"""Paintscape scenarios: every worked example (RULES.md 1.10, E1-E6) and checklist item (1.11), the notation,
the words, the layouts and the position text. Property tests live in test_paintscape_properties.py."""

from __future__ import annotations

import inspect
import json
import random
import re
from dataclasses import FrozenInstanceError, fields
from typing import Any

import pytest

from games.base import GameOver, IllegalMove, InvalidMove, InvalidOptions, MoveError, Termination, advance
from games.grids import SquareGrid
from games.paintscape.rules import (
    DONE,
    PASS,
    PLAY_BLACK,
    PLAY_WHITE,
    RULES,
    Move,
    PaintscapeState,
    Place,
    _pack,
    colour_to_move,
    from_position_text,
    race,
    swap_move,
)

GRID = SquareGrid(8, 8)
YELLOW, RED, CYAN, PINK, BROWN = range(5)


def layout(*ranks: str) -> str:
    """A layout drawn as a picture, rank 8 first, to the option's a1, b1, ..., h8 order."""
    assert len(ranks) == 8
    return "".join("".join(rank.split()) for rank in reversed(ranks))


def sq(label: str) -> int:
    return GRID.parse(label)


def bits(*labels: str) -> int:
    return sum(1 << sq(label) for label in labels)


def start(picture: str, *, balance: bool = False) -> PaintscapeState:
    return RULES.new(2, {"layout": picture, "balance": balance}, 0)


def play(state: PaintscapeState, *texts: str) -> PaintscapeState:
    for text in texts:
        state = RULES.apply(state, RULES.parse(state, text))
    return state


def labels_of(moves: list[Move]) -> set[str]:
    return {GRID.labels[m.square] for m in moves if type(m) is Place}


# Black a1 a2, White g7 h8; d5 is pink, e4 is cyan.
E1 = layout(
    "2 3 4 5 1 2 5 W",  # 8
    "5 1 2 3 4 5 W 1",  # 7
    "2 3 4 5 1 2 3 4",  # 6
    "5 1 2 4 3 4 5 1",  # 5
    "3 4 5 1 3 2 3 4",  # 4
    "5 1 2 3 4 5 1 2",  # 3
    "B 3 4 5 1 2 3 4",  # 2
    "B 1 2 3 4 5 1 2",  # 1
)
# Black c3 f6, White d3 f5, all on bare squares.
E2 = layout(
    "3 4 5 1 2 3 4 5",  # 8
    "5 1 2 3 4 5 1 2",  # 7
    "3 4 5 1 2 B 3 4",  # 6
    "1 2 3 4 5 W 1 2",  # 5
    "3 4 5 1 2 3 4 5",  # 4
    "2 3 B W 4 5 1 2",  # 3
    "4 5 1 2 3 4 5 1",  # 2
    "1 2 3 4 5 1 2 3",  # 1
)
# Red: Black on 5 red tiles (R), White on 3 (r), 4 free; the free red e5 is next to Black's d5.
# Black also has a1 (bare) and g4 (on cyan); White has h8 (bare) and e6 (on yellow).
E3 = layout(
    "R R R R 5 . . W",  # 8
    "3 4 5 1 3 4 5 4",  # 7
    "r r r 3 y 4 5 1",  # 6
    "5 1 3 R 2 4 5 1",  # 5
    "1 3 4 5 1 3 C 4",  # 4
    "3 4 5 1 3 4 5 2",  # 3
    "4 5 1 3 4 5 1 2",  # 2
    "B 1 3 4 5 1 3 2",  # 1
)
# Cyan: Black 5 (a8-e8), White 5 (a6-d6, g1), free h1 and h2, neither next to a Black stone; h1 is next to g1.
E4 = layout(
    "C C C C C . . W",  # 8
    "4 5 2 4 5 2 4 5",  # 7
    "c c c c 4 5 1 2",  # 6
    "4 5 1 2 4 5 1 2",  # 5
    "4 5 1 2 4 5 1 2",  # 4
    "5 1 2 4 5 1 2 1",  # 3
    "2 4 5 1 2 4 1 3",  # 2
    "B 1 2 4 5 1 c 3",  # 1
)
# Black only on a1 and b2; White on a2 (yellow), b1, b3, c2 around them, and on yellow d8-g8 next to the
# free yellow c8.
E5 = layout(
    "5 . 1 y y y y W",  # 8
    "4 5 3 4 5 3 4 5",  # 7
    "5 3 4 5 3 4 5 3",  # 6
    "2 3 4 5 1 2 3 4",  # 5
    "5 1 2 2 3 4 5 1",  # 4
    "2 c 2 5 1 2 3 4",  # 3
    "y B p 2 1 2 3 4",  # 2
    "B r 2 1 2 3 4 5",  # 1
)
# Yellow, red and pink are gone (Black collected yellow and red, White pink). Black has 5 on cyan (a5-e5);
# the free cyan tiles e4 and f5 are next to e5.
E6_BOARD = layout(
    ". . . . . . n W",  # 8
    ". . . . . . . .",  # 7
    ". . . . c . . .",  # 6
    "C C C C C 3 . .",  # 5
    ". . . . 3 . . .",  # 4
    ". . . . . . . .",  # 3
    "5 5 5 5 5 5 5 5",  # 2
    "B 3 5 3 5 3 5 3",  # 1
)


def e6(black_seat: int = 0) -> PaintscapeState:
    return from_position_text(
        f"{E6_BOARD} phase=play turn=black black={black_seat} collected=BB.W. swapped=- ply=40"
    )


# --------------------------------------------------------------------------------------------- E1-E6


def test_e1_balancer_swaps_twice_then_the_chooser_takes_black_and_moves_first() -> None:
    state = start(E1, balance=True)
    assert state.phase == "balance" and RULES.to_move(state) == 0
    assert RULES.seat_label(state, 0) == "Balancer" and RULES.seat_label(state, 1) == "Chooser"

    move = RULES.parse(state, "swap a1 d5")
    assert RULES.describe(state, move) == "Balancer swaps the stone on a1 with the pink tile on d5"
    state = RULES.apply(state, move)
    assert state.black == bits("a2", "d5")
    assert state.tiles[PINK] >> sq("a1") & 1 and not state.tiles[PINK] >> sq("d5") & 1
    assert state.phase == "balance" and RULES.to_move(state) == 0, "the balancer moves again"

    state = play(state, "swap h8 e4")
    assert state.white == bits("g7", "e4")
    assert state.tiles[CYAN] >> sq("h8") & 1
    assert state.swapped == bits("d5", "e4"), "the stones' new squares are remembered"

    state = play(state, "done")
    assert state.phase == "choose" and RULES.to_move(state) == 1
    choice = RULES.parse(state, "black")
    assert RULES.describe(state, choice) == "Chooser plays Black (first)"
    state = RULES.apply(state, choice)
    assert state.phase == "play" and state.black_seat == 1
    assert RULES.to_move(state) == 1 and colour_to_move(state) == 0
    assert RULES.seat_label(state, 1) == "Black" and RULES.seat_label(state, 0) == "White"
    assert [t.bit_count() for t in state.tiles] == [12] * 5, "swaps never create or remove tiles"


def test_e2_black_places_orthogonally_next_to_its_stones_on_squares_without_a_stone() -> None:
    state = start(E2)
    assert labels_of(RULES.legal_moves(state)) == {"b3", "c2", "c4", "e6", "g6", "f7"}
    with pytest.raises(IllegalMove, match="d4 is not next to any of your stones"):
        RULES.parse(state, "d4")
    with pytest.raises(IllegalMove, match="d3 holds a stone"):
        RULES.parse(state, "d3")
    with pytest.raises(IllegalMove):
        RULES.apply(state, Place(sq("d4")))


def test_e3_sixth_stone_removes_the_colour_and_every_stone_on_it() -> None:
    state = start(E3)
    assert race(state)[RED] == (5, 3, 4)
    move = RULES.parse(state, "e5")
    assert RULES.describe(state, move) == "Black e5 and collects red (1 colour)"
    after = RULES.apply(state, move)
    assert after.tiles[RED] == 0 and after.collected[RED] == 0
    assert race(after)[RED] == (0, 0, 0)
    red_squares = state.tiles[RED]
    assert not (after.black | after.white) & red_squares, "every stone on red is gone, both colours"
    assert after.black == bits("a1", "g4") and after.white == bits("h8", "e6")
    assert after.tiles[YELLOW] == state.tiles[YELLOW] and after.tiles[CYAN] == state.tiles[CYAN]
    assert RULES.outcome(after) is None
    # every remaining Black stone still counts for adjacency, and emptied squares are ordinary targets
    after = play(after, "h7")  # White
    targets = RULES.targets(after)
    assert targets == bits("a2", "b1", "g5", "g3", "f4", "h4")


def test_e3_removed_squares_become_empty_and_placing_there_never_triggers() -> None:
    state = play(start(E3), "e5")
    # White's stone e6 is next to the emptied e5
    white_before = state.white
    state = play(state, "e5")
    assert state.white == white_before | bits("e5")
    assert all(c is None for k, c in enumerate(state.collected) if k != RED)
    assert [t.bit_count() for t in state.tiles] == [12, 0, 12, 12, 12]


def test_e4_race_only_a_player_next_to_a_free_tile_can_collect_it() -> None:
    state = start(E4)
    assert race(state)[CYAN] == (5, 5, 2)
    for move in RULES.legal_moves(state):
        assert RULES.apply(state, move).tiles[CYAN], "Black cannot win cyan directly"
    state = play(state, "b1")
    assert RULES.describe(state, Place(sq("h1"))) == "White h1 and collects cyan (1 colour)"
    state = play(state, "h1")
    assert state.collected[CYAN] == 1 and state.tiles[CYAN] == 0
    assert RULES.outcome(state) is None


def test_e5_a_player_without_placement_passes_and_the_opponent_moves_again() -> None:
    state = start(E5)
    assert RULES.legal_moves(state) == [PASS]
    assert RULES.forced_move(state) == PASS
    assert RULES.describe(state, PASS) == "Black has no placement and passes"
    with pytest.raises(IllegalMove, match="no placement"):
        RULES.parse(state, "d4")
    after, played = advance(RULES, state)
    assert played == [PASS], "the pass is a real move in the log"
    assert RULES.notation(state, PASS) == "pass" and RULES.parse(state, " PASS ") == PASS
    assert colour_to_move(after) == 1 and after.ply == state.ply + 1
    assert after.black == state.black and after.white == state.white
    assert RULES.forced_move(after) is None
    # White collects yellow (a2 among it), which frees a2 for Black
    after = play(after, "c8")
    assert after.collected[YELLOW] == 1
    assert RULES.forced_move(after) is None
    assert "a2" in labels_of(RULES.legal_moves(after))


def test_e6_third_colour_wins_at_once() -> None:
    state = e6()
    move = RULES.parse(state, "e4")
    assert RULES.describe(state, move) == "Black e4 and collects cyan (3 colours)"
    after = RULES.apply(state, move)
    outcome = RULES.outcome(after)
    assert outcome is not None
    assert outcome.termination is Termination.COLOURS
    assert outcome.winners == (0,) and outcome.scores == (3, 1)
    assert after.phase == "over" and RULES.to_move(after) is None and colour_to_move(after) is None
    assert list(RULES.legal_moves(after)) == []
    with pytest.raises(GameOver):
        RULES.parse(after, "f5")
    with pytest.raises(GameOver):
        RULES.apply(after, Place(sq("f5")))


def test_e6_with_the_chooser_as_black_the_chooser_seat_wins() -> None:
    after = play(e6(black_seat=1), "f5")
    outcome = RULES.outcome(after)
    assert outcome is not None and outcome.winners == (1,) and outcome.scores == (1, 3)


# --------------------------------------------------------------------------------------------- 1.11 checklist


@pytest.mark.parametrize("seed", range(20))
def test_random_setup_has_two_stones_each_on_bare_squares_and_twelve_tiles_per_colour(seed: int) -> None:
    state = RULES.new(2, {}, seed)
    assert state.black.bit_count() == 2 and state.white.bit_count() == 2
    assert [t.bit_count() for t in state.tiles] == [12] * 5
    every_item = state.black | state.white
    for t in state.tiles:
        assert not every_item & t
        every_item |= t
    assert every_item == (1 << 64) - 1, "every square holds exactly one item"
    assert state.phase == "balance" and state.ply == 0 and state.swapped == 0


def test_random_setup_is_reproducible_from_the_seed_and_varies_with_it() -> None:
    assert RULES.new(2, {}, 5) == RULES.new(2, {}, 5)
    assert len({RULES.new(2, {}, seed) for seed in range(30)}) == 30


def test_random_setup_puts_stones_uniformly_over_the_board() -> None:
    hits = [0] * 64
    for seed in range(1600):
        stones = RULES.new(2, {"balance": False}, seed)
        for i in range(64):
            hits[i] += (stones.black | stones.white) >> i & 1
    # 1600 * 4 / 64 = 100 expected per square
    assert min(hits) > 55 and max(hits) < 150


def test_four_swaps_end_the_balancing_phase_by_themselves() -> None:
    state = start(E1, balance=True)
    state = play(state, "swap a1 d5", "swap a2 e4", "swap g7 a1", "swap h8 b1")
    assert state.phase == "choose" and RULES.to_move(state) == 1
    assert state.swapped.bit_count() == 4
    assert RULES.legal_moves(state) == [PLAY_BLACK, PLAY_WHITE]
    with pytest.raises(IllegalMove):
        RULES.parse(state, "swap d5 c1")


def test_a_swapped_stone_cannot_be_swapped_again_but_its_tile_can_be_a_target() -> None:
    state = play(start(E1, balance=True), "swap a1 d5")
    with pytest.raises(IllegalMove, match="already been swapped"):
        RULES.parse(state, "swap d5 c1")
    stones_moves = {m for m in RULES.legal_moves(state) if m != DONE}
    assert swap_move(sq("d5"), sq("c1")) not in stones_moves
    # a1 now holds the pink tile from d5, and another stone may take it
    state = play(state, "swap a2 a1")
    assert state.black == bits("a1", "d5") and state.tiles[PINK] >> sq("a2") & 1


def test_done_after_no_swaps_and_white_lead_to_blacks_first_placement() -> None:
    state = play(start(E1, balance=True), "done", "white")
    assert state.phase == "play" and RULES.outcome(state) is None
    assert state.black_seat == 0 and RULES.to_move(state) == 0 and colour_to_move(state) == 0
    assert all(type(m) is Place for m in RULES.legal_moves(state))


def test_the_choosers_black_makes_the_chooser_move_first() -> None:
    state = play(start(E2, balance=True), "done", "black")
    assert state.black_seat == 1 and RULES.to_move(state) == 1
    state = play(state, "c4")
    assert RULES.to_move(state) == 0 and colour_to_move(state) == 1


def test_without_balancing_seat_zero_is_black_and_moves_first() -> None:
    state = start(E2)
    assert state.phase == "play" and state.black_seat == 0 and RULES.to_move(state) == 0
    assert RULES.seat_label(state, 0) == "Black" and RULES.seat_label(state, 1) == "White"
    assert RULES.new(2, {"balance": "off"}, 3).phase == "play"


def test_diagonal_placements_and_placements_on_stones_are_illegal() -> None:
    state = start(E2)
    for label in ("b2", "d2", "b4", "d4", "e5", "g5", "e7", "g7"):
        with pytest.raises(IllegalMove, match="not next to"):
            RULES.parse(state, label)
    for label in ("c3", "d3", "f5", "f6"):
        with pytest.raises(IllegalMove, match="holds a stone"):
            RULES.parse(state, label)


def test_placing_on_an_empty_square_is_legal_and_never_collects() -> None:
    # f8 is empty (no tile); Black reaches it through e8
    state = start(E3)
    assert RULES.parse(state, "e8") == Place(sq("e8"))
    empty = RULES.parse(play(state, "e8", "h7"), "f8")
    after = RULES.apply(play(state, "e8", "h7"), empty)
    assert after.tiles == state.tiles and after.collected == state.collected
    assert after.black >> sq("f8") & 1


def test_only_the_movers_stones_count_towards_six() -> None:
    # Black has 5 on red; White's 4th stone on red removes nothing, though 9 stones stand on red.
    state = play(start(E3), "e8", "e5")
    assert race(state)[RED] == (5, 4, 3)
    assert state.tiles[RED].bit_count() == 12 and state.collected[RED] is None
    # and Black can no longer collect red from here: no free red tile is next to a Black stone
    assert all(RULES.apply(state, m).tiles[RED] for m in RULES.legal_moves(state))


def test_every_race_keeps_at_most_five_stones_of_a_player_on_a_colour() -> None:
    bad = layout(
        "R R R R 5 . . W",
        "3 4 5 1 3 4 5 4",
        "r r r 3 y 4 5 1",
        "5 1 3 R R 4 5 1",
        "1 3 4 5 1 3 C 4",
        "3 4 5 1 3 4 5 2",
        "4 5 1 3 4 5 1 2",
        "B 1 3 4 5 1 3 2",
    )
    with pytest.raises(InvalidOptions, match="6 or more Black stones on red"):
        start(bad)


# --------------------------------------------------------------------------------------------- notation


def test_parsing_ignores_case_and_extra_spaces() -> None:
    state = start(E1, balance=True)
    assert RULES.parse(state, "  SWAP   A1  D5 ") == swap_move(sq("a1"), sq("d5"))
    assert RULES.parse(state, "swap a1-d5") == swap_move(sq("a1"), sq("d5"))
    assert RULES.parse(state, " Done ") == DONE
    chooser = play(state, "done")
    assert RULES.parse(chooser, "WHITE") == PLAY_WHITE and RULES.parse(chooser, "Black") == PLAY_BLACK
    assert RULES.parse(start(E2), " C4 ") == Place(sq("c4"))


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("d9", InvalidMove, "d9 is off the board (files a-h, ranks 1-8)"),
        ("zz", InvalidMove, "not a square"),
        ("swap c3", InvalidMove, "two squares"),
        ("c4 c2", InvalidMove, "not a move"),
        ("black", IllegalMove, "balancing phase"),
    ],
)
def test_bad_text_gets_an_error_in_a_players_words(text: str, error: type[MoveError], words: str) -> None:
    with pytest.raises(error, match=re.escape(words)):
        RULES.parse(start(E2, balance=True), text)


def test_balancing_errors_name_the_problem() -> None:
    state = start(E2, balance=True)
    with pytest.raises(IllegalMove, match="it is the balancing phase: swap, or done"):
        RULES.parse(state, "d4")
    with pytest.raises(IllegalMove, match="f6 holds a stone, not a tile"):
        RULES.parse(state, "swap c3 f6")
    with pytest.raises(IllegalMove, match="a1 holds no stone"):
        RULES.parse(state, "swap a1 b1")
    assert RULES.parse(state, "pass") == DONE, "pass ends the swapping, as in Ludii"
    with pytest.raises(IllegalMove, match="it is the balancing phase"):
        RULES.apply(state, Place(sq("c4")))


def test_play_phase_errors_name_the_problem() -> None:
    state = start(E2)
    with pytest.raises(IllegalMove, match="cannot pass"):
        RULES.parse(state, "pass")
    with pytest.raises(IllegalMove, match="balancing phase"):
        RULES.parse(state, "swap c3 a1")
    with pytest.raises(IllegalMove, match="balancing phase"):
        RULES.parse(state, "done")
    with pytest.raises(IllegalMove, match="cannot pass"):
        RULES.apply(state, PASS)


def test_choice_errors_name_the_problem() -> None:
    state = play(start(E2, balance=True), "done")
    with pytest.raises(IllegalMove, match=re.escape("black (play first) or white (play second)")):
        RULES.parse(state, "c4")
    with pytest.raises(IllegalMove, match=re.escape("black (play first) or white (play second)")):
        RULES.parse(state, "done")


def test_notation_round_trips_in_every_phase() -> None:
    for state in (start(E1, balance=True), play(start(E1, balance=True), "done"), start(E2), start(E5)):
        for move in RULES.legal_moves(state):
            assert RULES.parse(state, RULES.notation(state, move)) == move


def test_describe_says_the_move_in_words() -> None:
    state = start(E2, balance=True)
    assert RULES.describe(state, DONE) == "Balancer is done swapping (0 swaps)"
    chooser = play(state, "done")
    assert RULES.describe(chooser, PLAY_WHITE) == "Chooser plays White (second)"
    assert RULES.describe(start(E2), Place(sq("c4"))) == "Black c4"


# --------------------------------------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("picture", "words"),
    [
        (E2[:-1], "must list 64 squares"),
        (E2[:-1] + "Z", "'Z' on h8"),
        (E2.replace("5", "1", 1), "11 pink tiles|13 yellow tiles|11 brown tiles"),
        (E2.replace("B", "."), "at least one Black stone"),
        (E2.replace("W", "."), "at least one White stone"),
        (E2.replace("1", ".").replace("2", ".").replace("3", "."), "at least 3 colours"),
    ],
)
def test_bad_layouts_are_rejected_with_a_clear_message(picture: str, words: str) -> None:
    with pytest.raises(InvalidOptions, match=words):
        start(picture)


def test_a_layout_may_leave_a_colour_out() -> None:
    state = start(E2.replace("5", "."))
    assert state.tiles[BROWN] == 0 and state.collected[BROWN] is None
    assert race(state)[BROWN] == (0, 0, 0)


def test_a_layout_with_stones_on_tiles_needs_balancing_off() -> None:
    with pytest.raises(InvalidOptions, match="balancing on"):
        start(E3, balance=True)


def test_a_layout_that_leaves_colours_out_ends_on_colours_when_none_is_left() -> None:
    # Black has yellow and red, pink and brown were left out; when White takes cyan, the last colour,
    # nobody has three and more colours wins.
    state = from_position_text(
        layout(
            ". . . . . . . W",
            ". . . . . . . .",
            ". . . . . . . .",
            ". . . . . . . .",
            "3 3 . . . . . .",
            "3 3 3 3 c c c c",
            "c 3 . . . . . .",
            "B . . . . . . .",
        )
        + " phase=play turn=white black=0 collected=BB.xx swapped=- ply=50"
    )
    assert state.tiles[CYAN].bit_count() == 12
    after = play(state, "b2")
    outcome = RULES.outcome(after)
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (2, 1)


def test_a_layout_that_leaves_a_colour_out_can_end_in_a_draw() -> None:
    state = from_position_text(
        layout(
            ". . . . . . . W",
            ". . . . . . . .",
            ". . . . . . . .",
            ". . . . . . . .",
            "4 4 . . . . . .",
            "4 4 4 4 p p p p",
            "p 4 . . . . . .",
            "B . . . . . . .",
        )
        + " phase=play turn=white black=1 collected=BBW.x swapped=- ply=60"
    )
    after = play(state, "b2")
    outcome = RULES.outcome(after)
    assert outcome is not None and outcome.is_draw and outcome.scores == (2, 2)
    assert RULES.to_move(after) is None


def test_unknown_options_and_seat_counts_are_rejected() -> None:
    with pytest.raises(InvalidOptions, match="unknown option"):
        RULES.new(2, {"colours": 4}, 0)
    with pytest.raises(InvalidOptions, match="exactly 2 players"):
        RULES.new(3, {}, 0)
    assert {o.name for o in RULES.options} == {"balance", "layout"}
    assert "proposal" in RULES.summary.lower()


# --------------------------------------------------------------------------------------------- position text


def test_position_text_round_trips_through_every_phase() -> None:
    states = [
        start(E1, balance=True),
        play(start(E1, balance=True), "swap a1 d5"),
        play(start(E1, balance=True), "swap a1 d5", "done"),
        play(start(E1, balance=True), "swap a1 d5", "done", "black"),
        play(start(E3), "e5"),
        play(e6(), "e4"),
    ]
    for state in states:
        text = RULES.position_text(state)
        assert from_position_text(text) == state
        assert RULES.load(json.loads(json.dumps(RULES.dump(state)))) == state


def test_position_text_shows_the_board_and_the_bookkeeping() -> None:
    state = play(start(E1, balance=True), "swap a1 d5", "done", "white")
    text = RULES.position_text(state)
    board, *fields = text.split()
    assert len(board) == 64 and board[sq("d5")] == "B" and board[sq("a1")] == "4"
    assert fields == ["phase=play", "turn=black", "black=0", "collected=.....", "swapped=d5", "ply=3"]
    collected = play(start(E3), "e5")
    assert "collected=.B..." in RULES.position_text(collected)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (("phase=play", "phase=over"), "nobody has won"),
        (("phase=play", "phase=dance"), "phase must be"),
        (("turn=black", "turn=red"), "turn must be"),
        (("black=0", "black=-"), "black must name"),
        (("collected=.....", "collected=B...."), "yellow is in play"),
        (("swapped=-", "swapped=b1"), "swapped squares must hold stones"),
        (("ply=0", "ply=x"), "ply must be"),
        (("ply=0", "ply=0 extra=1"), "fields"),
    ],
)
def test_bad_position_texts_are_rejected(change: tuple[str, str], words: str) -> None:
    text = RULES.position_text(start(E2)).replace(*change)
    with pytest.raises(ValueError, match=words):
        from_position_text(text)


def test_ply_must_match_the_balancing_phase() -> None:
    balancing = play(start(E1, balance=True), "swap a1 d5")
    text = RULES.position_text(balancing)
    assert "ply=1" in text
    with pytest.raises(ValueError, match="ply counts the swaps"):
        from_position_text(text.replace("ply=1", "ply=2"))
    choosing = play(balancing, "done")
    with pytest.raises(ValueError, match="the chooser moves at ply 2"):
        from_position_text(RULES.position_text(choosing).replace("ply=2", "ply=7"))
    playing = play(choosing, "black")
    with pytest.raises(ValueError, match="play starts at ply 3"):
        from_position_text(RULES.position_text(playing).replace("ply=3", "ply=2"))
    with pytest.raises(ValueError, match="ply must be a whole number from 0 to 300"):
        from_position_text(RULES.position_text(playing).replace("ply=3", "ply=301"))


def test_a_finished_game_names_the_winner_as_the_colour_that_moved_last() -> None:
    over = play(e6(), "e4")
    text = RULES.position_text(over)
    assert "phase=over turn=white" in text, "Black collected its third colour, so White would move next"
    assert from_position_text(text) == over
    with pytest.raises(ValueError, match="the colour that moved last"):
        from_position_text(text.replace("turn=white", "turn=black"))


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (None, "must be a JSON object"),
        ("phase=play", "must be a JSON object"),
        ({}, "position is missing"),
        ({"position": 7}, "position must be text"),
        ({"position": "x" * 5000}, "at most 1000 characters"),
        ({"position": "", "extra": 1}, "unknown field 'extra'"),
        ({"position": "1 phase=play"}, "position: a position is a 64-character board"),
    ],
)
def test_load_refuses_what_is_not_a_snapshot(data: object, words: str) -> None:
    with pytest.raises(ValueError, match=words) as info:
        RULES.load(data)  # type: ignore[arg-type]
    assert str(info.value).startswith("Paintscape snapshot")


def test_a_pass_cannot_follow_a_pass() -> None:
    state = start(E5)
    after = RULES.apply(state, PASS)
    with pytest.raises(IllegalMove):
        RULES.apply(after, PASS)


def test_apply_never_changes_its_input() -> None:
    state = start(E3)
    before = RULES.position_text(state)
    RULES.apply(state, Place(sq("e5")))
    assert RULES.position_text(state) == before


def test_seeded_random_games_with_balancing_reach_a_winner() -> None:
    rng = random.Random(3)
    for seed in range(5):
        state = RULES.new(2, {}, seed)
        while RULES.outcome(state) is None:
            state = RULES.apply(state, rng.choice(RULES.legal_moves(state)))
        outcome = RULES.outcome(state)
        assert outcome is not None and len(outcome.winners) == 1
        assert max(outcome.scores) == 3


def test_placements_and_collections_pack_their_state_without_init(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every placement, a collecting one included, builds its position with `_pack`, not the dataclass's
    keyword `__init__` (nor `dataclasses.replace`, which calls it): that would cost a random playout through
    the contract about a third more per ply (bench/baselines/engine_playouts.md). The positions are still
    whole and equal to the same position built by keyword."""
    calls: list[dict[str, object]] = []
    original = PaintscapeState.__init__

    def counted(self: PaintscapeState, **values: Any) -> None:
        calls.append(values)
        original(self, **values)

    monkeypatch.setattr(PaintscapeState, "__init__", counted)
    rng = random.Random(3)
    collections = 0
    for seed in range(8):
        state = RULES.new(2, {"balance": False}, seed)
        while RULES.to_move(state) is not None:
            move = rng.choice(RULES.legal_moves(state))
            before = len(calls)
            after = RULES.apply(state, move)
            assert type(after) is PaintscapeState
            assert (after.ply, after.turn) == (state.ply + 1, state.turn ^ 1)
            if type(move) is Place:
                assert len(calls) == before, f"{move} went through __init__"
                by_keyword: dict[str, Any] = {spec.name: getattr(after, spec.name) for spec in fields(after)}
                assert after == PaintscapeState(**by_keyword)
                if after.collected != state.collected:
                    collections += 1
                    assert after == from_position_text(RULES.position_text(after))
            state = after
    assert collections > 8
    assert after.collected[1] == 0 and after.tiles[1] == 0, "red was collected by Black"


def test_pack_fills_every_field_in_declaration_order() -> None:
    """`_pack` takes the fields positionally in declaration order (a field added to the state without
    `_pack` learning it would leave a slot unset), and what it packs is a whole, frozen `PaintscapeState`."""
    names = [spec.name for spec in fields(PaintscapeState)]
    assert list(inspect.signature(_pack).parameters) == names
    values: tuple[Any, ...] = (1, 2, (4, 0, 8, 16, 32), (None, 1, None, None, None), "play", 1, 7, 1, 2)
    packed = _pack(*values)
    by_keyword = PaintscapeState(**dict(zip(names, values, strict=True)))
    assert type(packed) is PaintscapeState
    assert packed == by_keyword and hash(packed) == hash(by_keyword) and repr(packed) == repr(by_keyword)
    assert [getattr(packed, name) for name in names] == list(values)
    with pytest.raises(FrozenInstanceError):
        packed.ply = 8  # type: ignore[misc]
