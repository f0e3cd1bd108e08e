"""The worked examples T1-T6 of RULES 3.12: literally on squares, and the same situations on hexes and
triangles."""

from __future__ import annotations

import pytest

from games.base import Termination
from games.tilingking import RULES, TilingState, board, scores, supply
from games.tilingking.rules import PASS_MOVE, PASSALL_MOVE, PLACE
from tests.games.tilingking.helpers import (
    BLUE,
    BORDERED,
    PLAIN,
    RED,
    build,
    centre_line,
    chunks,
    labels,
    next_to_neutral,
    play_to,
    ring_around,
)

KINDS = ["square", "hex", "triangle"]


def territory_labels(state: TilingState, seat: int) -> set[str]:
    return {state.board.labels[i] for i, owner in enumerate(state.territory) if owner == seat}


def pieces_of(state: TilingState, seat: int) -> list[str]:
    return [p.piece for p in state.placed if p.owner == seat]


# ------------------------------------------------------------------------------------ squares, literally


T1_RING = [(RED, "b2 c2 d2 e2"), (RED, "b5 c5 d5 e5"), (RED, "b3 b4")]


def test_t1_a_ring_captures_one_enemy_piece() -> None:
    before = build("sq9", [*T1_RING, (BLUE, "d4")], copies=2)
    assert territory_labels(before, RED) == set()
    after = play_to(before, RED, "e3 e4")
    assert territory_labels(after, RED) == {"c3", "c4", "d3", "d4"}
    assert pieces_of(after, BLUE) == []
    assert supply(after, BLUE)["1"] == 2, "the captured monomino is back in Blue's supply"
    assert scores(after) == (16, 0)
    assert RULES.describe(before, RULES.parse(before, "e3 e4")) == (
        "Red places 2 on e3 e4 and captures 4 cells (Blue's 1 returns to Blue)"
    )


def test_t2_two_enemy_pieces_make_the_pocket_safe() -> None:
    state = build("sq9", [*T1_RING, (BLUE, "d4"), (BLUE, "c3"), (RED, "e3 e4")], copies=2)
    assert territory_labels(state, RED) == set()
    assert sorted(pieces_of(state, BLUE)) == ["1", "1"]
    assert scores(state) == (12, 2)


def test_t3_a_corner_gap_leaks() -> None:
    steps = [(RED, "c2 d2 e2"), (RED, "b5 c5 d5 e5"), (RED, "b3 b4"), (BLUE, "d4"), (RED, "e3 e4")]
    state = build("sq9", steps, copies=2)
    assert territory_labels(state, RED) == set()
    assert pieces_of(state, BLUE) == ["1"]
    closed = play_to(state, RED, "b2")
    assert territory_labels(closed, RED) == {"c3", "c4", "d3", "d4"}, "closing the corner captures"


def test_t4_neutral_cells_are_part_of_the_ring() -> None:
    before = build("sq11b", [(RED, "d2 d3 d4")])
    after = play_to(before, RED, "b4 c4")
    assert territory_labels(after, RED) == {"b2", "c2", "b3", "c3"}
    assert scores(after)[RED] == 5 + 4


def test_t5_the_half_board_cap_stops_a_border_piece_capturing_the_rest() -> None:
    capped = build("sq11b", [(RED, "b2 b3 b4 b5")])
    assert territory_labels(capped, RED) == set()
    uncapped = build("sq11b", [(RED, "b2 b3 b4 b5")], half_cap=False)
    assert len(territory_labels(uncapped, RED)) == 77


# ------------------------------------------------------------------------------------ all three tilings


def ring_steps(cells: list[int], the_board_id: str) -> list[tuple[int, str]]:
    the_board = board(the_board_id)
    return [(RED, labels(the_board, chunk)) for chunk in chunks(the_board, cells)]


@pytest.mark.parametrize("kind", KINDS)
def test_t1_on_every_tiling(kind: str) -> None:
    the_board = board(PLAIN[kind])
    pocket = centre_line(the_board, 3)
    ring = ring_around(the_board, pocket)
    steps = [(BLUE, the_board.labels[pocket[0]]), *ring_steps(ring, the_board.id)]
    before = build(the_board.id, steps[:-1], copies=12)
    assert territory_labels(before, RED) == set()
    after = play_to(before, RED, steps[-1][1])
    assert {i for i, o in enumerate(after.territory) if o == RED} == set(pocket)
    assert pieces_of(after, BLUE) == []
    assert supply(after, BLUE)["1"] == 12
    assert scores(after) == (len(ring) + len(pocket), 0)
    replayed = play_to(after, BLUE, the_board.labels[0])
    assert supply(replayed, BLUE)["1"] == 11, "the returned piece can be played again"


@pytest.mark.parametrize("kind", KINDS)
def test_t2_on_every_tiling_and_splitting_the_pocket_captures_both_parts(kind: str) -> None:
    the_board = board(PLAIN[kind])
    length = 5 if kind == "triangle" else 3
    pocket = centre_line(the_board, length)
    ends = [pocket[0], pocket[-1]]
    middle = pocket[1:-1]
    ring = ring_around(the_board, pocket)
    steps = [(BLUE, the_board.labels[e]) for e in ends] + ring_steps(ring, the_board.id)
    state = build(the_board.id, steps, copies=12)
    assert territory_labels(state, RED) == set(), "two Blue pieces inside: no capture"
    assert len(pieces_of(state, BLUE)) == 2
    split = play_to(state, RED, labels(the_board, middle))
    assert {i for i, o in enumerate(split.territory) if o == RED} == set(ends), "two regions captured at once"
    assert pieces_of(split, BLUE) == []
    assert supply(split, BLUE)["1"] == 12


@pytest.mark.parametrize("kind", KINDS)
def test_t3_on_every_tiling_a_gap_in_the_ring_leaks(kind: str) -> None:
    the_board = board(PLAIN[kind])
    pocket = centre_line(the_board, 3)
    ring = ring_around(the_board, pocket)
    pocket_edges = {n for i in pocket for n in the_board.edge_neighbours[i]}
    corner_only = [i for i in ring if i not in pocket_edges]
    assert bool(corner_only) == (kind != "hex"), "hexes touch only along edges"
    gap = corner_only[0] if corner_only else ring[0]
    rest = [i for i in ring if i != gap]
    steps = [(BLUE, the_board.labels[pocket[1]]), *ring_steps(rest, the_board.id)]
    state = build(the_board.id, steps, copies=12)
    assert territory_labels(state, RED) == set()
    closed = play_to(state, RED, the_board.labels[gap])
    assert {i for i, o in enumerate(closed.territory) if o == RED} == set(pocket)


@pytest.mark.parametrize("kind", KINDS)
def test_t4_on_every_tiling_neutral_cells_close_the_ring(kind: str) -> None:
    the_board = board(BORDERED[kind])
    near_border = next_to_neutral(the_board)
    first = near_border[0]
    second = next(j for j in the_board.edge_neighbours[first] if j in near_border)
    pocket = [first, second]
    ring = ring_around(the_board, pocket)
    assert ring and all(not the_board.neutral_mask >> i & 1 for i in ring)
    steps = [(BLUE, the_board.labels[first]), *ring_steps(ring, the_board.id)]
    before = build(the_board.id, steps[:-1], copies=12)
    assert territory_labels(before, RED) == set()
    after = play_to(before, RED, steps[-1][1])
    assert {i for i, o in enumerate(after.territory) if o == RED} == set(pocket)
    assert pieces_of(after, BLUE) == []


@pytest.mark.parametrize("kind", KINDS)
def test_t5_on_every_tiling_the_half_board_cap(kind: str) -> None:
    the_board = board(BORDERED[kind])
    start = next_to_neutral(the_board)[0]
    capped = build(the_board.id, [(RED, the_board.labels[start])])
    assert territory_labels(capped, RED) == set()
    uncapped = build(the_board.id, [(RED, the_board.labels[start])], half_cap=False)
    assert len(territory_labels(uncapped, RED)) == the_board.playable_count - 1


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("end_when_stuck", [False, True])
def test_t6_passall_then_a_full_round_of_passes_ends_the_game(kind: str, end_when_stuck: bool) -> None:
    state = RULES.new(2, {"board": PLAIN[kind], "end_when_stuck": end_when_stuck}, 0)
    state = RULES.apply(state, RULES.legal_moves(state)[0])
    state = RULES.apply(state, PASSALL_MOVE)
    assert state.passall == (False, True)
    placed = 1
    while RULES.outcome(state) is None:
        seat = RULES.to_move(state)
        forced = RULES.forced_move(state)
        if seat == BLUE:
            assert forced == PASS_MOVE, "a pass-all player passes automatically"
            state = RULES.apply(state, forced)
            continue
        moves = [m for m in RULES.legal_moves(state) if m.action == PLACE]
        if not moves:
            assert forced == PASS_MOVE
            state = RULES.apply(state, PASS_MOVE)
            continue
        state = RULES.apply(state, moves[0])
        placed += 1
    assert sum(supply(state, RED).values()) == 0 and placed == len(supply(state, RED))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.termination is Termination.PASSES
    assert outcome.winners == (RED,) and outcome.scores == tuple(scores(state))
    assert RULES.legal_moves(state) == [] and RULES.to_move(state) is None
