"""Property tests over random TilingKing games: the capture rule against a literal reading of the RULES 3.7
pseudo-code, and the invariants (no cell covered twice, territory never changes owner, captured pieces go
back to the supply, scores add up)."""

from __future__ import annotations

import json
import random
from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import IllegalMove
from games.tilingking import RULES, TilingState, scores
from games.tilingking.pieces import pieces
from games.tilingking.rules import PASS_MOVE, PLACE, Move

BOARDS = ["sq5", "hex3", "tri2", "sq9", "sq11b", "sq11b", "hex6b", "hex6b", "tri5b", "tri5b", "tri6bi"]
"""Bordered boards (listed twice) make rings and captures common in random play."""


def _board_options(board_id: str) -> dict[str, object]:
    preset = {"sq": "sq9", "he": "hex5", "tr": "tri4"}[board_id[:2]]
    if board_id.endswith(("b", "bi")) or board_id in ("sq9", "hex5", "tri4"):
        return {"board": board_id}
    return {"board": preset, "size": int(board_id.lstrip("sqhextri"))}


Result = tuple[tuple[int | None, ...], set[tuple[int, frozenset[int]]], list[list[int]]]


def reference_place(state: TilingState, seat: int, move: Move) -> Result:
    """RULES 3.7 with sets and coordinates: (territory per cell, pieces on the board, supplies) after
    `move`."""
    the_board = state.board
    tiling = the_board.tiling
    on_board = the_board.index_of
    cells = set(move.cells)
    ids = [p.id for p in pieces(the_board.kind)]
    placed = [(p.owner, p.piece, frozenset(p.cells), p.capturer) for p in state.placed]
    placed.append((seat, move.piece, frozenset(cells), False))
    supplies = [list(s) for s in state.supplies]
    supplies[seat][ids.index(move.piece)] -= 1
    territory = list(state.territory)

    def vertex_neighbours(i: int) -> list[int]:
        return [on_board[c] for c in tiling.vertex_neighbours(the_board.cells[i]) if c in on_board]

    def touches_outside(i: int) -> bool:
        return any(c not in on_board for c in tiling.vertex_neighbours(the_board.cells[i]))

    ring_material = {c for owner, _, cs, _ in placed if owner == seat for c in cs} | set(the_board.neutral)
    rest = set(range(the_board.size)) - ring_material
    regions: list[set[int]] = []
    seen: set[int] = set()
    for start in sorted(rest):
        if start in seen:
            continue
        region = {start}
        queue = deque([start])
        while queue:
            for n in vertex_neighbours(queue.popleft()):
                if n in rest and n not in region:
                    region.add(n)
                    queue.append(n)
        seen |= region
        regions.append(region)
    candidates = [
        r
        for r in regions
        if not any(touches_outside(i) for i in r) and any(n in cells for i in r for n in vertex_neighbours(i))
    ]
    captured = 0
    for region in sorted(candidates, key=lambda r: (len(r), min(r))):
        inside = [k for k, (owner, _, cs, _) in enumerate(placed) if owner != seat and cs & region]
        counts = [sum(1 for k in inside if placed[k][0] == o) for o in range(state.seats)]
        if any(n >= 2 for n in counts):
            continue
        if state.settings.single_piece_capture and len(inside) > 1:
            continue
        if state.settings.protect_capturing_pieces and any(placed[k][3] for k in inside):
            continue
        gain = {i for i in region if territory[i] is None}
        if state.settings.half_cap and captured + len(gain) > the_board.playable_count / 2:
            continue
        if not gain and not inside:
            continue
        for k in inside:
            supplies[placed[k][0]][ids.index(placed[k][1])] += 1
        placed = [p for k, p in enumerate(placed) if k not in inside]
        for i in gain:
            territory[i] = seat
        captured += len(gain)
        border = {n for i in region for n in vertex_neighbours(i)} - region
        placed = [(o, pid, cs, cap or (o == seat and bool(cs & border))) for o, pid, cs, cap in placed]
    return tuple(territory), {(o, cs) for o, _, cs, _ in placed}, supplies


def greedy_choice(state: TilingState, rng: random.Random) -> Move:
    """A random placement, preferring (among a sample) one that captures pieces, then one that gains
    territory: random play alone rarely closes a ring around an enemy piece."""
    placements = [m for m in RULES.legal_moves(state) if m.action == PLACE]
    if not placements or rng.random() < 0.05:
        return PASS_MOVE
    sample = rng.sample(placements, min(25, len(placements)))

    def gain(move: Move) -> tuple[int, int]:
        after = RULES.apply(state, move)
        return (len(state.placed) + 1 - len(after.placed), sum(m.bit_count() for m in after.territory_masks))

    best = max(sample, key=gain)
    return best if gain(best) > gain(sample[0]) else sample[0]


def check_invariants(before: TilingState, after: TilingState) -> None:
    the_board = after.board
    covered = 0
    for piece in after.placed:
        assert not covered & piece.mask, "no cell is covered twice"
        assert not piece.mask & the_board.neutral_mask
        covered |= piece.mask
    for i, owner in enumerate(before.territory):
        if owner is not None:
            assert after.territory[i] == owner, "territory never changes owner"
    for i, owner in enumerate(after.territory):
        assert owner is None or not the_board.neutral_mask >> i & 1
    for seat in range(after.seats):
        on_board = [0] * len(after.supplies[seat])
        ids = [p.id for p in pieces(the_board.kind)]
        for piece in after.placed:
            if piece.owner == seat:
                on_board[ids.index(piece.piece)] += 1
        assert all(
            s + b == after.settings.copies for s, b in zip(after.supplies[seat], on_board, strict=True)
        ), "every piece is in the supply or on the board"
    points = scores(after)
    union = 0
    for seat in range(after.seats):
        mine = after.covered_masks[seat] | after.territory_masks[seat]
        assert points[seat] == mine.bit_count()
        assert not union & mine, "no cell scores for two players"
        union |= mine
    assert sum(points) == union.bit_count() <= the_board.playable_count


@settings(max_examples=30, deadline=None)
@given(
    board_id=st.sampled_from(BOARDS),
    seats=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    copies=st.integers(1, 4),
    flags=st.fixed_dictionaries(
        {
            "half_cap": st.booleans(),
            "single_piece_capture": st.booleans(),
            "protect_capturing_pieces": st.booleans(),
            "only_unowned": st.booleans(),
        }
    ),
)
def test_random_games_follow_the_capture_rule_and_keep_the_invariants(
    board_id: str, seats: int, seed: int, copies: int, flags: dict[str, bool]
) -> None:
    rng = random.Random(seed)
    state = RULES.new(seats, {**_board_options(board_id), "copies": copies, **flags}, seed)
    for _ in range(60):
        if RULES.outcome(state) is not None:
            break
        move = greedy_choice(state, rng)
        seat = state.turn
        after = RULES.apply(state, move)
        check_invariants(state, after)
        if move.action == PLACE:
            territory, on_board, supplies = reference_place(state, seat, move)
            assert after.territory == territory
            assert {(p.owner, frozenset(p.cells)) for p in after.placed} == on_board
            assert [list(s) for s in after.supplies] == supplies
        assert RULES.load(json.loads(json.dumps(RULES.dump(after)))) == after
        state = after


def test_random_play_on_bordered_boards_captures() -> None:
    """Guards the property test above: random games on bordered boards do capture, and return pieces."""
    captures = returned = 0
    for board_id in ("sq11b", "hex6b", "tri5b"):
        for seed in range(4):
            rng = random.Random(seed)
            state = RULES.new(2, {"board": board_id, "copies": 3}, seed)
            while RULES.outcome(state) is None:
                before = state
                state = RULES.apply(state, greedy_choice(state, rng))
                captures += state.territory != before.territory
                returned += len(state.placed) < len(before.placed)
    assert captures >= 10


def checked_apply(state: TilingState, move: Move) -> TilingState:
    """Apply a move, checking a placement against the reference and the invariants."""
    seat = state.turn
    after = RULES.apply(state, move)
    check_invariants(state, after)
    if move.action == PLACE:
        territory, on_board, supplies = reference_place(state, seat, move)
        assert after.territory == territory
        assert {(p.owner, frozenset(p.cells)) for p in after.placed} == on_board
        assert [list(s) for s in after.supplies] == supplies
    return after


@settings(max_examples=40, deadline=None)
@given(
    board_id=st.sampled_from(["sq9", "hex5", "tri4", "sq11b", "hex6b", "tri5b"]),
    seats=st.integers(2, 3),
    seed=st.integers(0, 2**32),
    single=st.booleans(),
)
def test_rings_around_random_pockets_capture_as_the_rule_says(
    board_id: str, seats: int, seed: int, single: bool
) -> None:
    """Red rings a random pocket holding random enemy pieces; every placement matches the reference."""
    rng = random.Random(seed)
    state = RULES.new(seats, {"board": board_id, "copies": 12, "single_piece_capture": single}, seed)
    the_board = state.board
    free = [i for i in range(the_board.size) if not the_board.neutral_mask >> i & 1]
    pocket = {rng.choice(free)}
    for _ in range(rng.randint(0, 5)):
        grow = [n for i in pocket for n in the_board.edge_neighbours[i] if n in free and n not in pocket]
        if grow:
            pocket.add(rng.choice(grow))
    enemies = rng.sample(sorted(pocket), min(len(pocket), rng.randint(0, 3)))
    ring_mask = the_board.grow_vertex(the_board.mask_of(pocket)) & ~the_board.mask_of(pocket)
    ring = [i for i in range(the_board.size) if ring_mask >> i & 1 and i in free]
    rng.shuffle(ring)
    steps = [(rng.randint(1, seats - 1), [i]) for i in enemies] + [(0, [i]) for i in ring]
    for seat, cells in steps:
        if RULES.outcome(state) is not None:
            break
        while RULES.to_move(state) != seat and RULES.outcome(state) is None:
            state = checked_apply(state, PASS_MOVE)
        if RULES.outcome(state) is not None:
            break
        text = " ".join(the_board.labels[i] for i in cells)
        try:
            move = RULES.parse(state, text)
        except IllegalMove:
            continue  # the cell was captured meanwhile
        state = checked_apply(state, move)
