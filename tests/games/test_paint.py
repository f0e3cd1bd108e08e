"""Paint scenario tests: the worked examples of RULES.md 2.10 (P1-P6) and the 2.11 checklist, from literal
layouts (rank 9 first; W/B discs, o sphere, w/b light/dark squares, . neutral), plus notation, errors,
layouts, options and the lead counters of 2.7."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

import games
from games.base import GameOver, IllegalMove, InvalidMove, InvalidOptions, MoveError, Termination
from games.grids import SquareGrid
from games.paint.rules import (
    RULES,
    STANDARD_LAYOUT,
    PaintSettings,
    PaintState,
    areas,
    check_invariants,
    disc_ranks,
    fast_playout,
    from_layout_text,
    position_text,
    tiles,
)

GRID = SquareGrid(9, 9)
EMPTY_ROW = "........."
SETTINGS = {spec.name for spec in dataclasses.fields(PaintSettings)}


def changed(state: PaintState, **values: Any) -> PaintState:
    """`dataclasses.replace` that also takes the settings' fields (lead_turns, turn_unit, ...)."""
    settings = {name: values.pop(name) for name in list(values) if name in SETTINGS}
    if settings:
        values["settings"] = dataclasses.replace(state.settings, **settings)
    return dataclasses.replace(state, **values)


def sq(label: str) -> int:
    return GRID.parse(label)


def bb(*labels: str) -> int:
    return sum(1 << sq(label) for label in labels)


def labels(mask: int) -> set[str]:
    return {GRID.label(i) for i in range(81) if mask >> i & 1}


def board(rows: dict[int, str], black_to_move: bool = False) -> PaintState:
    """A position from the rows given by rank number (others empty and neutral)."""
    text = "\n".join(rows.get(rank, EMPTY_ROW) for rank in range(9, 0, -1))
    return from_layout_text(text + ("\nBlack to move" if black_to_move else ""))


def play(state: PaintState, *moves: str) -> PaintState:
    for text in moves:
        state = RULES.apply(state, RULES.parse(state, text))
    return state


def legal(state: PaintState) -> set[str]:
    return {RULES.notation(state, m) for m in RULES.legal_moves(state)}


def from_square(state: PaintState, label: str) -> set[str]:
    return {m.split("-")[1] for m in legal(state) if m.startswith(label + "-")}


def start() -> PaintState:
    return RULES.new(2, {}, 0)


# --------------------------------------------------------------------------------------------- setup


def test_standard_layout_is_section_2_3() -> None:
    state = start()
    assert labels(state.white_discs) == {"b1", "c1", "d1", "f1", "g1", "h1"}
    assert labels(state.black_discs) == {"b9", "c9", "d9", "f9", "g9", "h9"}
    spheres = ["c3", "g3", "b4", "e4", "h4", "c5", "e5", "g5", "b6", "e6", "h6", "c7", "g7"]
    assert labels(state.spheres) == set(spheres)
    assert state.light == state.white_discs and state.dark == state.black_discs
    assert (
        tiles(state) == (6, 6) and state.leader is None and (state.lead_count, state.no_lead_count) == (0, 0)
    )
    assert RULES.to_move(state) == 0 and RULES.seat_label(state, 0) == "White"
    assert areas(state, "white") == [bb("b1", "c1", "d1"), bb("f1", "g1", "h1")]
    assert set(disc_ranks(state).values()) == {3}
    assert check_invariants(state) == []


def test_standard_layout_is_symmetric() -> None:
    rows = STANDARD_LAYOUT.split("\n")
    assert all(row == row[::-1] for row in rows), "mirror image left-right"
    swapped = [row.translate(str.maketrans("WB", "BW")) for row in reversed(rows)]
    assert swapped == rows, "top-bottom mirror (and 180° turn) with the colours swapped"


# --------------------------------------------------------------------------------------------- 2.10


def test_p1_opening_push_paints_path_and_moves_the_sphere() -> None:
    state = play(start(), "c1-c3")
    assert state.light >> sq("c2") & 1 and state.light >> sq("c3") & 1
    assert labels(state.spheres & bb("c3", "c4")) == {"c4"}
    assert not (state.light | state.dark) >> sq("c4") & 1, "the pushed sphere's square is neutral"
    assert bb("b1", "c1", "d1", "c2", "c3") in areas(state, 0)
    assert disc_ranks(state)[sq("c3")] == 3
    assert tiles(state) == (8, 6)
    assert (state.leader, state.lead_count, state.no_lead_count) == (0, 1, 0)


def test_p2_long_slide_makes_a_rank_3_area_black_cannot_cross() -> None:
    state = play(start(), "d1-d8")
    assert labels(state.light) == {"b1", "c1", "d1", "f1", "g1", "h1"} | {f"d{r}" for r in range(2, 9)}
    assert tiles(state) == (13, 6)
    ranks = disc_ranks(state)
    assert ranks[sq("b1")] == ranks[sq("c1")] == ranks[sq("d8")] == 3
    # Every Black disc has rank 3, so no Black move may cross or enter a White square (all areas rank 3).
    for move in RULES.legal_moves(state):
        path = {GRID.label(i) for i in range(81) if _between_and_to(*move) >> i & 1}
        assert not path & labels(state.light), RULES.notation(state, move)


def _between_and_to(source: int, dest: int) -> int:
    (x0, y0), (x1, y1) = GRID.xy(source), GRID.xy(dest)
    dx, dy = (x1 > x0) - (x1 < x0), (y1 > y0) - (y1 < y0)
    mask, (x, y) = 0, (x0, y0)
    while (x, y) != (x1, y1):
        x, y = x + dx, y + dy
        mask |= 1 << GRID.index(x, y)
    return mask


def test_p3_a_push_needs_a_free_square_behind_the_sphere() -> None:
    rows = STANDARD_LAYOUT.split("\n")
    rows[5] = "..o.o..o."  # rank 4: the b4 sphere moved to c4, behind the c3 sphere
    state = from_layout_text("\n".join(rows))
    assert "c1-c3" not in legal(state)
    assert {m for m in from_square(state, "c1")} == {"c2"}
    with pytest.raises(IllegalMove, match="sphere on c3 cannot be pushed: c4 is not free"):
        RULES.parse(state, "c1-c3")
    rows[5] = "..B.o..o."  # a Black disc on c4 blocks the push as well
    rows[0] = ".B.B.BBB."
    assert "c1-c3" not in legal(from_layout_text("\n".join(rows)))


P4_ROWS = {7: "...Bbb...", 3: "....W....", 2: "....W...."}


def test_p4_a_higher_rank_disc_crosses_and_splits_the_enemy_area() -> None:
    state = board(P4_ROWS)
    assert disc_ranks(state)[sq("e3")] == 2 and disc_ranks(state)[sq("d7")] == 1
    assert {"e4", "e5", "e6", "e7", "e8", "e9"} <= from_square(state, "e3")
    after = play(state, "e3-e8")
    assert labels(after.light) == {"e2"} | {f"e{r}" for r in range(3, 9)}
    assert labels(after.dark) == {"d7"}, "{d7} keeps its disc and stays black; {f7} turns neutral"
    assert "f7" in RULES.describe(state, RULES.parse(state, "e3-e8"))


def test_p4_a_rank_1_disc_is_stopped_by_a_rank_1_area() -> None:
    state = board({7: "...Bbb...", 3: "....W...."})
    assert from_square(state, "e3") & {"e4", "e5", "e6", "e7", "e8"} == {"e4", "e5", "e6"}
    with pytest.raises(IllegalMove) as info:
        RULES.parse(state, "e3-e8")
    assert str(info.value).startswith("the black area at e7 has rank 1, your disc on e3 has rank 1")


def test_p5_a_push_neutralises_a_square_and_splits_the_area_it_cut() -> None:
    state = board({6: "..W......", 5: "Bow......", 4: "..w......"}, black_to_move=True)
    assert RULES.to_move(state) == 1
    move = RULES.parse(state, "a5-b5")
    assert RULES.describe(state, move).startswith("Black a5-b5, pushing the sphere to c5")
    after = RULES.apply(state, move)
    assert labels(after.spheres) == {"c5"}
    assert labels(after.dark) == {"a5", "b5"}
    assert labels(after.light) == {"c6"}, "c5 neutral (sphere), c4 cut off without a disc"


def test_p6_a_player_without_a_move_loses_on_their_turn() -> None:
    # Black's only disc, on a9, is boxed in by White's disc arriving on a8 and two spheres on b9 and c9.
    state = board({9: "Boo......", 1: "W........"})
    assert RULES.outcome(state) is None
    after = play(state, "a1-a8")
    outcome = RULES.outcome(after)
    assert outcome is not None and outcome.termination is Termination.NO_MOVES
    assert outcome.winners == (0,) and outcome.scores == (8, 1)
    assert RULES.to_move(after) is None and RULES.legal_moves(after) == []
    with pytest.raises(GameOver):
        RULES.parse(after, "a9-a8")


def test_p6_boxed_in_by_white_areas_of_equal_rank() -> None:
    state = board({9: "Bw.......", 8: "ww.......", 7: "W........", 1: "........W"}, black_to_move=True)
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.termination is Termination.NO_MOVES and outcome.winners == (0,)


# --------------------------------------------------------------------------------------------- 2.11


def test_rays_stop_at_discs_spheres_and_equal_or_higher_rank_areas() -> None:
    state = board(
        {
            9: "....b....",
            8: "....B....",  # rank 1 Black area {e8, e9}
            6: "....o....",
            5: ".B..W.bB.",  # b5 Black disc; g5-h5 Black area of rank 1
            4: "....W....",  # e4-e5 White area of rank 2
            3: "..bbb....",  # c3-e3 dark, but no: d3/e3 connect to c3 only through dark squares with a disc
            2: "..B......",
        }
    )
    assert from_square(state, "e5") == {"d5", "c5", "f5", "g5", "e6"}
    # West stops before the b5 disc; east crosses g5 (rank 1 < 2) and stops before h5's disc; north pushes
    # the e6 sphere to e7; south is the e4 disc.
    assert from_square(state, "e4") == {"e3", "e2", "e1", "d4", "c4", "b4", "a4", "f4", "g4", "h4", "i4"}


RANK_ROWS = {
    7: "...B.....",
    6: "...B.....",
    5: "...b.....",  # d5-d7: a rank 2 Black area
    4: "..B......",  # c3-c4: a rank 1 Black area
    3: "..bW.bBBB",  # f3-i3: a rank 3 Black area
    2: "...W.....",  # d2-d3: a rank 2 White area
}


def test_equal_and_higher_ranks_block_lower_ranks_pass_and_may_be_stopped_on() -> None:
    state = board(RANK_ROWS)
    ranks = disc_ranks(state)
    assert (ranks[sq("d3")], ranks[sq("d6")], ranks[sq("c4")], ranks[sq("g3")]) == (2, 2, 1, 3)
    assert from_square(state, "d3") == {"d4", "e3", "c3", "b3", "a3"}
    rank_3 = board({**RANK_ROWS, 1: "...W....."})
    assert disc_ranks(rank_3)[sq("d3")] == 3
    assert from_square(rank_3, "d3") == {"d4", "d5", "e3", "c3", "b3", "a3"}
    with pytest.raises(IllegalMove, match="the black area at f3 has rank 3, your disc on d3 has rank 3"):
        RULES.parse(rank_3, "d3-g3")


def test_painting_covers_exactly_the_path_and_destination() -> None:
    before = start()
    after = play(before, "d1-d5")
    assert after.light == before.light | bb("d2", "d3", "d4", "d5")
    assert after.dark == before.dark


def test_ranks_are_frozen_at_the_start_of_the_move() -> None:
    # e3 is alone (rank 1). Moving north joins the d4 White area, which would make rank 2 after the move,
    # but during the move the disc still has rank 1 and the rank-1 Black area on e5 blocks it.
    state = board({5: "...Bb....", 4: "...W.....", 3: "....W...."})
    assert disc_ranks(state)[sq("e3")] == 1
    assert from_square(state, "e3") & {"e4", "e5", "e6"} == {"e4"}
    after = play(state, "e3-e4")
    assert disc_ranks(after)[sq("e4")] == 2, "the new rank counts from the next move on"


def test_an_enemy_area_is_judged_by_its_rank_before_the_cut() -> None:
    # The Black area d5-e5-f5 has rank 2; crossing at e5 would leave two rank-1 parts, but it still blocks
    # a rank-2 White disc.
    state = board({5: "...BbB...", 3: "....W....", 2: "....W...."})
    assert from_square(state, "e3") & {"e4", "e5", "e6"} == {"e4"}


def test_own_areas_are_always_passable() -> None:
    state = board({5: "....w....", 4: "....w....", 3: "....W....", 6: "....B...."})
    assert from_square(state, "e3") & {"e4", "e5"} == {"e4", "e5"}


def test_a_sphere_cannot_be_pushed_onto_a_disc_off_the_board_or_passed() -> None:
    state = board({9: "....o....", 8: "....W....", 2: "B.o.o..Wo", 1: "o......W."})
    assert "e9" not in from_square(state, "e8"), "the sphere on e9 would leave the board"
    assert from_square(state, "h2") & {"i2", "g2", "f2", "e2", "d2"} == {"g2", "f2", "e2"}
    # e2's sphere can be pushed to d2 (free); i2's sphere would leave the board.
    assert "h1" not in from_square(state, "h2"), "h1 holds a disc"
    with pytest.raises(IllegalMove, match="d2 is behind the sphere on e2"):
        RULES.parse(state, "h2-d2")
    with pytest.raises(IllegalMove, match="cannot be pushed off the board"):
        RULES.parse(state, "h2-i2")


def test_a_pushed_sphere_neutralises_an_enemy_square_it_lands_on() -> None:
    # White c1-c3 pushes the sphere onto c4, a Black square of a Black area held by c5's disc.
    state = board({5: "..B......", 4: "..b......", 3: "..o......", 1: "..W......"})
    after = play(state, "c1-c3")
    assert labels(after.dark) == {"c5"} and labels(after.spheres) == {"c4"}


OWN_PUSH_ROWS = {3: ".wwwww...", 2: ".wo......", 1: ".wW......", 9: "BBBBBB..."}


def test_an_own_push_can_split_the_movers_area_and_hand_over_the_majority() -> None:
    # White's area b1-b2-b3-c3-d3-e3-f3 + c1 has one disc (c1). c1-c2 pushes the sphere to c3, cutting off
    # d3-f3, which has no disc: White drops from 8 to 5 tiles, below Black's 6.
    state = board(OWN_PUSH_ROWS)
    assert tiles(state) == (8, 6)
    after = play(state, "c1-c2")
    assert labels(after.light) == {"b1", "c1", "b2", "c2", "b3"}
    assert tiles(after) == (5, 6)
    assert (after.leader, after.lead_count, after.no_lead_count) == (1, 1, 0), "the majority decides"
    strict = changed(state, lead_on_own_turn=True)
    after = play(strict, "c1-c2")
    assert (after.leader, after.lead_count, after.no_lead_count) == (None, 0, 1), (
        "nobody takes it on White's turn"
    )
    led = changed(state, leader=0, lead_count=7, lead_on_own_turn=True)
    after = play(led, "c1-c2")
    assert (after.leader, after.lead_count) == (None, 0), "White's lead ends, Black does not take it"
    black_led = changed(state, leader=1, lead_count=7, lead_on_own_turn=True)
    assert (play(black_led, "c1-c2").leader, play(black_led, "c1-c2").lead_count) == (1, 8), "Black keeps it"


# --------------------------------------------------------------------------------------------- 2.7


def _one_square_position(**settings: object) -> PaintState:
    """White to move at 1 tile each; c1-c2 makes it 2 - 1."""
    return changed(board({9: "B........", 1: "..W......"}), **settings)


def test_the_leader_wins_after_lead_turns_in_a_row() -> None:
    state = _one_square_position(leader=0, lead_count=49)
    after = play(state, "c1-c2")
    outcome = RULES.outcome(after)
    assert after.lead_count == 50
    assert outcome is not None and outcome.termination is Termination.LEAD and outcome.winners == (0,)
    assert outcome.scores == (2, 1)
    assert RULES.outcome(play(_one_square_position(leader=0, lead_count=48), "c1-c2")) is None


def test_a_tie_removes_the_lead_and_twenty_tied_turns_draw() -> None:
    # Black to move, White 2 - Black 1: Black a9-a8 makes it 2 - 2.
    state = changed(board({9: "B........", 1: "..Ww....."}, black_to_move=True), leader=0)
    state = changed(state, lead_count=30, no_lead_count=0)
    after = play(state, "a9-a8")
    assert (after.leader, after.lead_count, after.no_lead_count) == (None, 0, 1)
    assert RULES.outcome(after) is None
    drawn = play(changed(state, leader=None, lead_count=0, no_lead_count=19), "a9-a8")
    outcome = RULES.outcome(drawn)
    assert outcome is not None and outcome.termination is Termination.NO_LEAD and outcome.is_draw


def test_a_new_leader_starts_at_one_and_resets_the_no_lead_count() -> None:
    state = _one_square_position(no_lead_count=12)
    after = play(state, "c1-c2")
    assert (after.leader, after.lead_count, after.no_lead_count) == (0, 1, 0)
    taken = play(_one_square_position(leader=1, lead_count=9), "c1-c4")
    assert (taken.leader, taken.lead_count) == (0, 1)


def test_own_turns_counts_only_the_leaders_own_turns() -> None:
    # White leads 3 - 1; Black's a9-a8 keeps White ahead (3 - 2).
    rows = {9: "B........", 1: "..Www...."}
    black = changed(board(rows, black_to_move=True), leader=0, lead_count=5)
    assert play(black, "a9-a8").lead_count == 6
    assert play(changed(black, turn_unit="own_turns"), "a9-a8").lead_count == 5
    white = changed(board(rows), leader=0, lead_count=5, turn_unit="own_turns")
    assert play(white, "c1-c2").lead_count == 6
    # A lead gained on the opponent's turn (only an own push can do that) starts at 0 own turns.
    pushed = changed(board(OWN_PUSH_ROWS), turn_unit="own_turns")
    after = play(pushed, "c1-c2")
    assert (after.leader, after.lead_count) == (1, 0)
    assert (play(after, "a9-a8").leader, play(after, "a9-a8").lead_count) == (1, 1)


def test_the_move_cap_draws_and_comes_after_the_other_checks() -> None:
    state = RULES.new(2, {"move_cap": 1}, 0)
    after = play(state, "c1-c2")
    outcome = RULES.outcome(after)
    assert outcome is not None and outcome.termination is Termination.MOVE_CAP and outcome.is_draw
    boxed = changed(board({9: "Boo......", 1: "W........"}), move_cap=1)
    outcome = RULES.outcome(play(boxed, "a1-a8"))
    assert outcome is not None and outcome.termination is Termination.NO_MOVES


def test_the_lead_win_is_checked_before_the_opponent_having_no_move() -> None:
    state = changed(board({9: "Boo......", 1: "W........"}), leader=0, lead_count=49)
    outcome = RULES.outcome(play(state, "a1-a8"))
    assert outcome is not None and outcome.termination is Termination.LEAD


def test_options_reach_the_state_and_are_checked() -> None:
    state = RULES.new(
        2, {"lead_turns": "7", "no_lead_turns": 3, "move_cap": 99, "turn_unit": "own_turns",
            "lead_on_own_turn": "on"}, 0
    )  # fmt: skip
    assert (state.lead_turns, state.no_lead_turns, state.move_cap) == (7, 3, 99)
    assert state.turn_unit == "own_turns" and state.lead_on_own_turn is True
    with pytest.raises(InvalidOptions, match="turn_unit"):
        RULES.new(2, {"turn_unit": "rounds"}, 0)
    with pytest.raises(InvalidOptions, match="lead_turns"):
        RULES.new(2, {"lead_turns": 0}, 0)
    with pytest.raises(InvalidOptions, match="2 players"):
        RULES.new(3, {}, 0)
    proposals = {o.name for o in RULES.options if o.proposal}
    assert proposals == {"layout", "move_cap", "turn_unit", "lead_on_own_turn"}
    defaults = {o.name: o.default for o in RULES.options}
    assert defaults == {
        "layout": "standard",
        "lead_turns": 50,
        "no_lead_turns": 20,
        "move_cap": 600,
        "turn_unit": "ply",
        "lead_on_own_turn": False,
    }


# --------------------------------------------------------------------------------------------- layouts


def test_a_custom_layout_in_one_line_with_slashes() -> None:
    text = "/".join(["B........"] + [EMPTY_ROW] * 3 + ["....o...."] + [EMPTY_ROW] * 3 + ["wwW......"])
    state = RULES.new(2, {"layout": text}, 0)
    assert labels(state.white_discs) == {"c1"} and labels(state.light) == {"a1", "b1", "c1"}
    assert labels(state.dark) == labels(state.black_discs) == {"a9"} and labels(state.spheres) == {"e5"}
    assert state.to_move == 0 and tiles(state) == (3, 1) and state.leader is None
    labelled = RULES.new(2, {"layout": position_text(state).replace("White to move", "Black to move")}, 0)
    assert labelled.light == state.light and labelled.to_move == 1


def test_layout_that_breaks_the_invariants_is_rejected() -> None:
    base = [EMPTY_ROW] * 9
    cases = {
        "no White disc": (["B........", *base[1:]], "White has 0 discs"),
        "disc-less area": (
            ["B.......b", *base[1:8], "W........"],
            "the black area at i9 has no Black disc",
        ),
        "seven discs": (["BBBBBBB..", *base[1:8], "W........"], "Black has 7 discs"),
        "fourteen spheres": (
            ["B........", "ooooooooo", "ooooo....", *base[3:8], "W........"],
            "14 spheres",
        ),
        "bad symbol": (["B...x....", *base[1:8], "W........"], "'x'"),
        "short row": (["B.......", *base[1:8], "W........"], "8 squares"),
        "eight rows": (["B........", *base[2:8], "W........"], "8 rows"),
    }
    for name, (rows, message) in cases.items():
        with pytest.raises(InvalidOptions) as info:
            RULES.new(2, {"layout": "\n".join(rows)}, 0)
        assert message in str(info.value), name


def test_position_text_reads_back_with_labels_and_status_line() -> None:
    state = play(start(), "c1-c3", "c9-c8")
    text = position_text(state)
    assert text.splitlines()[-1].startswith("White to move | tiles W:8 B:7 | leader: White | lead: 2")
    again = from_layout_text(text)
    fields = ("light", "dark", "white_discs", "black_discs", "spheres", "to_move")
    assert all(getattr(again, f) == getattr(state, f) for f in fields)
    black = play(start(), "c1-c3")
    assert from_layout_text(position_text(black)).to_move == 1
    assert RULES.position_text(state) == text


def test_position_text_names_the_result() -> None:
    after = play(board({9: "Boo......", 1: "W........"}), "a1-a8")
    assert "over: White wins" in position_text(after)


def test_dump_and_load_are_json_safe_and_exact() -> None:
    state = changed(play(start(), "d1-d8"), turn_unit="own_turns", lead_on_own_turn=True)
    data = json.loads(json.dumps(RULES.dump(state)))
    assert RULES.load(data) == state
    assert all(isinstance(data[k], str) for k in ("light", "dark", "white_discs", "black_discs", "spheres"))


def test_load_accepts_plain_int_bitboards_and_snapshots_without_pushed_to() -> None:
    state = play(start(), "c1-c3")
    data = RULES.dump(state)
    older = {key: value for key, value in data.items() if key != "pushed_to"}
    assert RULES.load(older) == state and RULES.load(older).pushed_to == -1
    as_ints = {
        **data,
        **{k: int(data[k], 16) for k in ("light", "dark", "white_discs", "black_discs", "spheres")},
    }
    assert RULES.load(as_ints) == state


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"white_discs": "-0x1"}, "white_discs"),  # hung the bot: move generation never ended
        ({"black_discs": -(1 << 70)}, "black_discs"),
        ({"spheres": hex(1 << 81)}, "spheres"),
        ({"light": "0xZZ"}, "light"),
        ({"to_move": 2}, "to_move"),
        ({"to_move": True}, "to_move"),
        ({"leader": "0"}, "leader"),
        ({"lead_count": 10**9}, "lead_count"),
        ({"ply": 601}, "ply"),
        ({"ply": -1}, "ply"),
        ({"move_cap": 0}, "move_cap"),
        ({"turn_unit": "turns"}, "turn_unit"),
        ({"lead_on_own_turn": "false"}, "lead_on_own_turn"),
        ({"pushed_to": 81}, "pushed_to"),
        ({"extra": 1}, "extra"),
    ],
)
def test_load_refuses_a_field_of_the_wrong_type_or_range_and_names_it(
    change: dict[str, object], field: str
) -> None:
    data = {**RULES.dump(play(start(), "c1-c3")), **change}
    with pytest.raises(ValueError, match=field) as info:
        RULES.load(data)
    assert "\n" not in str(info.value) and str(info.value).startswith("Paint snapshot")


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"white_discs": hex(bb("b1", "c1", "d1", "f1", "g1", "h1") | bb("a5"))}, "not on a white square"),
        ({"spheres": hex(bb("c2"))}, "holds two pieces|not on neutral"),
        ({"leader": 1}, "Black leads but has no more tiles"),
        ({"leader": None, "lead_count": 0}, "no-lead count is at least 1"),
        ({"lead_count": 0}, "lead count of at least 1"),
        ({"no_lead_count": 3}, "with a leader the no-lead count is 0"),
        ({"ply": 0}, "before the first move"),
        ({"pushed_to": sq("a1")}, "pushed_to"),
    ],
)
def test_load_refuses_a_position_no_game_reaches(change: dict[str, object], problem: str) -> None:
    data = {**RULES.dump(play(start(), "c1-c3")), **change}
    with pytest.raises(ValueError, match=problem):
        RULES.load(data)


def test_load_refuses_what_is_not_a_snapshot() -> None:
    for data in (None, [], "light", {"light": "0x0"}):
        with pytest.raises(ValueError, match="Paint snapshot"):
            RULES.load(data)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------- notation


def test_parsing_ignores_case_spaces_and_the_dash() -> None:
    state = start()
    move = (sq("c1"), sq("c3"))
    for text in ["c1-c3", "C1 - C3", "c1c3", "  c1 c3 ", "c1–c3"]:
        assert RULES.parse(state, text) == move
    assert RULES.notation(state, move) == "c1-c3"
    assert RULES.describe(state, move) == "White c1-c3, pushing the sphere to c4"
    assert RULES.describe(state, (sq("d1"), sq("d8"))) == "White d1-d8"


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("c1-c5", IllegalMove, "c5 is behind the sphere on c3"),
        ("e1-e2", IllegalMove, "e1 has no White disc; yours are on b1, c1, d1, f1, g1, h1"),
        ("c9-c8", IllegalMove, "c9 holds a Black disc; move one of your White discs"),
        ("c1-d3", IllegalMove, "discs move in straight lines"),
        ("c1-c1", IllegalMove, "at least one square"),
        ("b1-c1", IllegalMove, "c1 holds a disc"),
        ("b1-e1", IllegalMove, "the disc on c1 blocks the way from b1 to e1"),
        ("pass", InvalidMove, "no passing"),
        ("j1-j2", InvalidMove, "j1 is off the board"),
        ("c1-", InvalidMove, "not a move"),
        ("", InvalidMove, "not a move"),
    ],
)
def test_errors_say_what_is_wrong_in_a_players_words(text: str, error: type[MoveError], message: str) -> None:
    with pytest.raises(error) as info:
        RULES.parse(start(), text)
    assert message in str(info.value)


def test_apply_rejects_an_illegal_move_and_a_finished_game() -> None:
    state = start()
    with pytest.raises(IllegalMove, match="behind the sphere"):
        RULES.apply(state, (sq("c1"), sq("c5")))
    over = play(board({9: "Boo......", 1: "W........"}), "a1-a8")
    with pytest.raises(GameOver):
        RULES.apply(over, (sq("a9"), sq("a8")))


def test_registry_and_summary() -> None:
    rules = games.get("paint")
    assert rules is RULES and rules.forced_move(start()) is None
    assert "reconstruct" in rules.summary and "(ours)" in rules.summary
    for option in ("layout", "turn_unit", "own_turns", "lead_on_own_turn", "move_cap"):
        assert option in rules.summary


def test_state_exposes_tiles_and_ranks() -> None:
    state = play(start(), "c1-c3")
    assert (state.light.bit_count(), state.dark.bit_count()) == tiles(state) == (8, 6)
    assert state.ranks == disc_ranks(state)
    assert state.ranks[sq("f1")] == 3 and state.ranks[sq("b9")] == 3


# --------------------------------------------------------------------------------------------- fast path


@pytest.mark.parametrize(
    "options",
    [{}, {"turn_unit": "own_turns", "lead_turns": 8}, {"lead_on_own_turn": True, "no_lead_turns": 4}],
)
def test_fast_playout_agrees_with_the_contract_path(options: dict[str, object]) -> None:
    for seed in range(6):
        state = RULES.new(2, options, 0)
        rng = random.Random(seed)
        while (outcome := RULES.outcome(state)) is None:
            state = RULES.apply(state, rng.choice(list(RULES.legal_moves(state))))
        expected = outcome.winners[0] if outcome.winners else None
        assert fast_playout(RULES.new(2, options, 0), random.Random(seed)) == expected


def test_the_rules_md_diagram_reads_as_the_standard_layout() -> None:
    diagram = """
  9 | .  B  B  B  .  B  B  B  .
  8 | .  .  .  .  .  .  .  .  .
  7 | .  .  S  .  .  .  S  .  .
  6 | .  S  .  .  S  .  .  S  .
  5 | .  .  S  .  S  .  S  .  .
  4 | .  S  .  .  S  .  .  S  .
  3 | .  .  S  .  .  .  S  .  .
  2 | .  .  .  .  .  .  .  .  .
  1 | .  W  W  W  .  W  W  W  .
      a  b  c  d  e  f  g  h  i
"""
    assert from_layout_text(diagram) == start()


def test_check_invariants_names_each_broken_rule() -> None:
    sound = start()
    broken = changed(
        sound,
        light=sound.light & ~bb("b1") | bb("e5", "a5"),  # b1's disc off its colour; a sphere on light e5
        dark=sound.dark | bb("a5"),  # a5 both light and dark
    )
    problems = "; ".join(check_invariants(broken))
    assert "the White disc on b1 is not on a white square" in problems
    assert "the sphere on e5 is not on neutral" in problems
    assert "a5 cannot be both light and dark" in problems
    assert "the white area at a5 has no White disc" in problems
    overlapping = changed(sound, spheres=sound.spheres | bb("b1"))
    assert any("b1 holds two pieces" in p for p in check_invariants(overlapping))


def test_areas_take_a_seat_or_a_colour_name() -> None:
    state = play(start(), "c1-c3")
    assert areas(state, 0) == areas(state, "White") == areas(state, "light")
    assert areas(state, 1) == areas(state, "dark") == [bb("b9", "c9", "d9"), bb("f9", "g9", "h9")]
    with pytest.raises(ValueError, match="unknown colour"):
        areas(state, "green")


def test_describe_names_the_squares_a_cut_leaves_neutral() -> None:
    cut = board({7: "...Bbb...", 3: "....W....", 2: "....W...."})
    text = RULES.describe(cut, RULES.parse(cut, "e3-e9"))
    assert text == "White e3-e9; 1 cut-off black square turns neutral (f7)"


def test_the_state_remembers_where_the_last_move_pushed_a_sphere() -> None:
    from games.paint.rules import RULES as PAINT

    start = PAINT.new(2, {}, 0)
    pushed = PAINT.apply(start, PAINT.parse(start, "c1-c3"))
    assert pushed.pushed_to == PAINT_GRID_C4
    assert PAINT.load(PAINT.dump(pushed)).pushed_to == PAINT_GRID_C4
    assert PAINT.apply(pushed, PAINT.parse(pushed, "b9-b8")).pushed_to == -1, "a plain move pushes nothing"
    stopped = PAINT.apply(start, PAINT.parse(start, "c1-c2"))
    assert stopped.pushed_to == -1, "stopping in front of a sphere is not a push"


PAINT_GRID_C4 = 3 * 9 + 2
