"""TilingKing snapshots: `dump_state` writes a position as JSON-safe data, `load_state` reads it back and
refuses anything that is not a position the engine can reach (`RULES.dump` and `RULES.load` are these two).
Stored matches hold these snapshots, so the format never changes for the same state: a field added later
(`settings.timeout`) is optional and read as the rule's default when missing.

Invariants of every reachable position (`check_invariants` lists what breaks them; `load_state` refuses such a
snapshot with an InvalidSnapshot, a ValueError, as it refuses wrong types, missing or unknown keys, a board
id that is not a board, counts out of range, or lists of the wrong length):

- 2 to 4 seats; per seat a supply count for every piece of the board's set, from 0 to `copies`, and a
  supply plus that seat's pieces of the same kind on the board add up to `copies` (captured pieces return,
  RULES 3.4 and 3.7);
- every placed piece covers a placement of its piece on the board (so no neutral cell), pieces never
  overlap (RULES 3.6), and they are listed in placement order: their plies increase and come before the
  state's ply;
- territory lies on no neutral cell and on no cell at the edge (a ring never encloses those, RULES 3.7),
  and a cell of a seat's territory is covered by no piece or, unless `only_unowned`, by a piece of that
  seat (RULES 3.6);
- `colours` gives each seat its own colour, and differs from seat order only after a pie swap (`swap` on,
  RULES 3.9);
- a seat that passed, or passes for the rest of the game, has had a turn (`passed` and `passall` within
  `started`, RULES 3.5);
- a game that goes on has two or more seats in it, not all of whom passed in a row, and the seat to move
  has not resigned; a game that ended by resignation has one seat left, one that ended by passes two or
  more (RULES 3.5 and 3.8).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Seat, Termination
from games.grids import bits_of
from games.snapshots import Snapshot, is_whole
from games.tilingking.boards import board
from games.tilingking.pieces import pieces
from games.tilingking.state import (
    MAX_COPIES,
    MAX_PLY,
    RULESETS,
    SEATS,
    TIMEOUT_PASSALL,
    TIMEOUTS,
    Placed,
    Settings,
    TilingState,
)


def dump_state(state: TilingState) -> dict[str, Any]:
    """The JSON-safe snapshot of a position (`RULES.dump`); stored matches hold it, so its keys and
    values never change for the same state."""
    s = state.settings
    return {
        "settings": {name: getattr(s, name) for name in Settings.__dataclass_fields__},
        "supplies": [list(x) for x in state.supplies],
        "territory": list(state.territory),
        "passall": list(state.passall),
        "resigned": list(state.resigned),
        "colours": list(state.colours),
        "placed": [[p.owner, p.piece, list(p.cells), p.ply, p.capturer] for p in state.placed],
        "turn": state.turn,
        "ply": state.ply,
        "passed": state.passed,
        "started": state.started,
        "ended": None if state.ended is None else state.ended.value,
    }


def load_state(data: Mapping[str, Any]) -> TilingState:
    """The state `dump_state` wrote (`RULES.load`). Raises InvalidSnapshot (a ValueError) naming the first
    field that has the wrong type or range, or the invariants of reachable positions (module docstring) that
    it breaks."""
    snapshot = Snapshot(data, "TilingKing snapshot", _DUMP_FIELDS)
    settings = _load_settings(snapshot)
    the_board = board(settings.board)
    kind_pieces = pieces(the_board.kind)
    fewest, most = min(SEATS), max(SEATS)
    seats = len(snapshot.items("supplies", None, lambda item, where: item, longest=most))
    if seats < fewest:
        raise snapshot.fail("supplies", f"one list per seat, {fewest} to {most} lists")

    def counts(item: Any, where: str) -> tuple[int, ...]:
        if not (
            isinstance(item, list)
            and len(item) == len(kind_pieces)
            and all(is_whole(n) and 0 <= n <= settings.copies for n in item)
        ):
            expected = f"{len(kind_pieces)} counts from 0 to {settings.copies} (copies)"
            raise snapshot.item_error(where, expected, item)
        return tuple(item)

    def owner(item: Any, where: str) -> Seat | None:
        if item is None or (is_whole(item) and 0 <= item < seats):
            return item
        raise snapshot.item_error(where, f"null or a seat from 0 to {seats - 1}", item)

    def flag(item: Any, where: str) -> bool:
        if isinstance(item, bool):
            return item
        raise snapshot.item_error(where, "true or false", item)

    def seat(item: Any, where: str) -> Seat:
        if is_whole(item) and 0 <= item < seats:
            return item
        raise snapshot.item_error(where, f"a seat from 0 to {seats - 1}", item)

    ply = snapshot.whole("ply", 0, MAX_PLY)
    ids = {p.id: i for i, p in enumerate(kind_pieces)}
    by_mask = the_board.placement_piece(settings.reflections)

    def piece(item: Any, where: str) -> Placed:
        expected = "[owner seat, piece id, its cells, the ply it was placed on, capturer]"
        if not (isinstance(item, list) and len(item) == 5):
            raise snapshot.item_error(where, expected, item)
        who, piece_id, cells, placed_on, capturer = item
        known = isinstance(piece_id, str) and piece_id in ids
        if not (is_whole(who) and 0 <= who < seats and known and isinstance(capturer, bool)):
            raise snapshot.item_error(where, expected, item)
        if not (isinstance(cells, list) and all(is_whole(c) and 0 <= c < the_board.size for c in cells)):
            raise snapshot.item_error(where, f"{expected} with cells on the board", item)
        mask = the_board.mask_of(cells)
        if len(cells) != mask.bit_count() or by_mask.get(mask) != ids[piece_id]:
            raise snapshot.item_error(where, f"a placement of {piece_id} on the board", item)
        if not (is_whole(placed_on) and 0 <= placed_on < ply):
            raise snapshot.item_error(where, f"{expected} with a ply before {ply}", item)
        return Placed(
            owner=who,
            piece=piece_id,
            cells=tuple(bits_of(mask)),
            ply=placed_on,
            mask=mask,
            capturer=capturer,
        )

    ended = snapshot.choice("ended", (None, Termination.PASSES.value, Termination.RESIGNATION.value))
    territory = [0] * seats
    for i, who in enumerate(snapshot.items("territory", the_board.size, owner)):
        if who is not None:
            territory[who] |= 1 << i
    every_seat = (1 << seats) - 1
    state = TilingState(
        board=the_board,
        settings=settings,
        supplies=tuple(snapshot.items("supplies", seats, counts)),
        territory_masks=tuple(territory),
        passall=tuple(snapshot.items("passall", seats, flag)),
        resigned=tuple(snapshot.items("resigned", seats, flag)),
        colours=tuple(snapshot.items("colours", seats, seat)),
        placed=tuple(snapshot.items("placed", None, piece, longest=the_board.playable_count)),
        turn=snapshot.whole("turn", 0, seats - 1),
        ply=ply,
        passed=snapshot.whole("passed", 0, every_seat),
        started=snapshot.whole("started", 0, every_seat),
        ended=None if ended is None else Termination(ended),
    )
    problems = check_invariants(state)
    if problems:
        raise snapshot.invalid("; ".join(problems))
    return state


# --------------------------------------------------------------------------------------------- checks

_DUMP_FIELDS = (
    "settings",
    "supplies",
    "territory",
    "passall",
    "resigned",
    "colours",
    "placed",
    "turn",
    "ply",
    "passed",
    "started",
    "ended",
)
_SETTING_FLAGS = (
    "reflections",
    "half_cap",
    "single_piece_capture",
    "protect_capturing_pieces",
    "only_unowned",
    "swap",
    "end_when_stuck",
)


def _load_settings(snapshot: Snapshot) -> Settings:
    """The `settings` object of a snapshot: every field of `Settings`, each as the options allow."""
    optional = ("timeout",)  # added later: a snapshot without it keeps the rule, pass all
    required = [name for name in Settings.__dataclass_fields__ if name not in optional]
    part = snapshot.part("settings", required, optional)
    board_id = part.text("board", 10)
    try:
        board(board_id)
    except ValueError as error:
        raise part.fail("board", f"a board id ({error})") from None
    return Settings(
        board=board_id,
        copies=part.whole("copies", 1, MAX_COPIES),
        ruleset=part.choice("ruleset", RULESETS),
        timeout=part.choice("timeout", TIMEOUTS) if part.has("timeout") else TIMEOUT_PASSALL,
        **{name: part.flag(name) for name in _SETTING_FLAGS},
    )


def check_invariants(state: TilingState) -> list[str]:
    """What is wrong with a position: the invariants of every reachable state (module docstring); [] when
    it is sound. The fields' own types and ranges are `load`'s to check."""
    problems: list[str] = []
    the_board, seats = state.board, state.seats
    kind_pieces = pieces(the_board.kind)
    covered = 0
    for k, piece in enumerate(state.placed):
        if piece.mask & covered:
            problems.append(f"placed[{k}] overlaps another piece")
        covered |= piece.mask
        if k and piece.ply <= state.placed[k - 1].ply:
            problems.append(f"placed[{k}] is not in placement order (plies must increase)")
    copies = state.settings.copies
    for seat in range(seats):
        for index, kind_piece in enumerate(kind_pieces):
            on_board = sum(1 for p in state.placed if p.owner == seat and p.piece == kind_piece.id)
            in_supply = state.supplies[seat][index]
            if in_supply + on_board != copies:
                problems.append(
                    f"seat {seat} has {in_supply} {kind_piece.id} in supply and {on_board} on the board, "
                    f"which must add up to the {copies} copies"
                )
    for seat, mask in enumerate(state.territory_masks):
        if mask & (the_board.neutral_mask | the_board.outside_mask):
            problems.append(f"seat {seat}'s territory includes a neutral cell or one at the edge")
        others = 0
        for p in state.placed:
            if p.owner != seat or state.settings.only_unowned:
                others |= p.mask
        if mask & others:
            problems.append(f"a piece stands on seat {seat}'s territory where it may not")
    if sorted(state.colours) != list(range(seats)):
        problems.append(f"colours {list(state.colours)} must give each seat its own colour")
    elif not state.settings.swap and list(state.colours) != list(range(seats)):
        problems.append("only the pie swap exchanges colours, and swap is off")
    if state.passed & ~state.started:
        problems.append("a seat has passed without having had a turn (passed is not within started)")
    if any(state.passall[s] and not state.started >> s & 1 for s in range(seats)):
        problems.append("a seat passes for the rest of the game without having had a turn")
    active = [s for s in range(seats) if not state.resigned[s]]
    active_mask = sum(1 << s for s in active)
    if state.ended is None:
        if len(active) <= 1:
            problems.append("all but one seat have resigned, so the game has ended (by resignation)")
        elif state.passed & active_mask == active_mask:
            problems.append("every seat in the game has passed in a row, so the game has ended (by passes)")
        if state.resigned[state.turn]:
            problems.append(f"seat {state.turn} is to move but has resigned")
    elif state.ended is Termination.RESIGNATION and len(active) != 1:
        problems.append("a game ends by resignation when exactly one seat is left")
    elif state.ended is Termination.PASSES and len(active) < 2:
        problems.append("a game that ended by passes still has two or more seats in it")
    return problems


__all__ = ["check_invariants", "dump_state", "load_state"]
