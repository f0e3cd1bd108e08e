"""Building TilingKing positions for tests: placements by seat, with passes filled in for the other seats."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from games.tilingking import RULES, Board, TilingState
from games.tilingking.rules import PASS_MOVE

RED, BLUE, GREEN = 0, 1, 2
PLAIN = {"square": "sq9", "hex": "hex5", "triangle": "tri4"}
BORDERED = {"square": "sq11b", "hex": "hex6b", "triangle": "tri5b"}


def labels(board: Board, cells: Iterable[int]) -> str:
    return " ".join(board.labels[i] for i in cells)


def play_to(state: TilingState, seat: int, text: str) -> TilingState:
    """`seat` places the piece written `text`; seats before it in turn order pass."""
    while RULES.to_move(state) != seat:
        assert RULES.to_move(state) is not None, "the game ended while setting up"
        state = RULES.apply(state, PASS_MOVE)
    return RULES.apply(state, RULES.parse(state, text))


def build(board_id: str, steps: Sequence[tuple[int, str]], *, seats: int = 2, **options: Any) -> TilingState:
    """A game on `board_id` after the given (seat, cells) placements."""
    state = RULES.new(seats, {"board": board_id, **options}, 0)
    for seat, text in steps:
        state = play_to(state, seat, text)
    return state


def chunks(board: Board, cells: Iterable[int]) -> list[list[int]]:
    """Split cells into edge-connected pairs (dominoes, dihexes, diamonds) and leftover single cells."""
    todo = sorted(cells)
    left = set(todo)
    out: list[list[int]] = []
    for i in todo:
        if i not in left:
            continue
        left.discard(i)
        partner = next((j for j in board.edge_neighbours[i] if j in left), None)
        if partner is None:
            out.append([i])
        else:
            left.discard(partner)
            out.append([i, partner])
    return out


def ring_around(board: Board, pocket: Iterable[int]) -> list[int]:
    """The playable cells vertex-adjacent to the pocket: a ring that encloses it."""
    pocket_mask = board.mask_of(pocket)
    ring = board.grow_vertex(pocket_mask) & ~pocket_mask & board.playable_mask
    return [i for i in range(board.size) if ring >> i & 1]


def row_cells(board: Board, row: int, start: int, length: int) -> list[int]:
    """`length` consecutive cells of a row (y for squares and triangles, r for hexes) from column `start`."""
    return [board.index_of[(x, row)] for x in range(start, start + length)]


def centre_line(board: Board, length: int) -> list[int]:
    """A straight line of `length` cells through the middle of a plain board, away from the rim."""
    if board.kind == "square":
        return row_cells(board, 4, 3, length)
    if board.kind == "hex":
        return row_cells(board, 0, -(length // 2), length)
    xs = [x for x, y in board.cells if y == 3]
    middle = (min(xs) + max(xs)) // 2
    return row_cells(board, 3, middle - length // 2, length)


def next_to_neutral(board: Board) -> list[int]:
    """The playable cells that share a corner with a neutral cell, in index order."""
    neutral = board.neutral_mask
    return [i for i in range(board.size) if not neutral >> i & 1 and board.vertex_masks[i] & neutral]


def score_of(state: TilingState, seat: int) -> int:
    from games.tilingking import scores

    return scores(state)[seat]
