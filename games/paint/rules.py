"""Paint (GiocatGeneric, 2020): rook-moving discs paint the squares they cross; hold the tile lead to win.

Rules: RULES.md section 2. Only the seed text survives, so the starting layout and the lead counting are
reconstructions (PROPOSAL items), each a match option with the documented default (see `OPTIONS`).

The state (`PaintState`, frozen and hashable) is a handful of bitboards, Python ints with bit i for square
i = y * 9 + x (a1 = 0, i1 = 8, a9 = 72, i9 = 80):

- `light`, `dark`: the white-coloured and black-coloured squares (a square in neither is neutral);
- `white_discs`, `black_discs`, `spheres`: the occupants;
- `to_move`: the seat to move (0 = White, 1 = Black; the game may be over, see `PaintRules.to_move`);
- `leader` (seat or None), `lead_count`, `no_lead_count`: the lead counters of section 2.7;
- `ply`: plies played; `settings`: the match options `lead_turns`, `no_lead_turns`, `move_cap`, `turn_unit`
  and `lead_on_own_turn` (a `PaintSettings`, also readable as `state.lead_turns` and so on), so that
  `outcome` needs nothing but the state.
- `pushed_to`: the square the last move pushed a sphere onto, or -1 (display only; not compared).

Invariants of every reachable position (`check_invariants` lists what breaks them; `RULES.load` refuses
such a snapshot with an InvalidSnapshot, a ValueError, as it refuses wrong types, missing or unknown keys):

- the bitboards hold squares of the 9x9 board only; no square is both light and dark or holds two pieces;
- a disc stands on a square of its colour, a sphere on a neutral square; each side has 1 to 6 discs and
  there are at most 13 spheres; every coloured area holds a disc of its colour (2.6);
- the settings lie in their options' ranges; `ply` <= `move_cap`, `lead_count` <= `lead_turns` and
  `no_lead_count` <= `no_lead_turns` (the game stops when one is reached);
- before the first move nobody leads, both counts are 0 and `pushed_to` is -1; after it, a leader has
  `no_lead_count` 0 (and, counting plies, `lead_count` >= 1), no leader means `lead_count` 0 and
  `no_lead_count` >= 1; the leader is the side with more tiles, and a side with more tiles leads unless
  `lead_on_own_turn` held its lead back, which can only happen to the side to move;
- `pushed_to` is -1 or the square of a sphere.

Module functions: `tiles(state)` (White, Black), `disc_ranks(state)` (square -> rank), `areas(state, colour)`
(bitboards), `check_invariants(state)`, `from_layout_text(text)`, `position_text(state)`,
`fast_playout(state, rng)`. A move is a `Move(source, dest)`, a pair of squares; a push is implied by the
destination.

Layout text (the `layout` option, `position_text`, `from_layout_text`): games.paint.layout reads and
writes it. A layout is refused (InvalidOptions) when a coloured area has no disc of its colour (section 2.6),
when a side has no disc or more than 6, or with more than 13 spheres. Fewer pieces than the game's
6 + 6 + 13 are allowed, for puzzles and lessons.

Lead counting (section 2.7, the PROPOSAL options): after every ply the side with more tiles leads and a tie
leaves nobody in the lead. `turn_unit="ply"` (default): every ply adds 1 to the leader's lead count, or to
the no-lead count. `turn_unit="own_turns"`: the lead count goes up only at the end of the leader's own turns
(a lead taken during the opponent's turn, which only an own push can cause, starts at 0), while the no-lead
count still goes up every ply, since every ply is some player's own turn without a leader.
`lead_on_own_turn=True`: the opponent cannot take the lead during your turn (the seed's wording, "at the end
of their turn"); a majority they get from your push only ends your lead. The result is checked after every
ply in this order: lead held `lead_turns` times (win), `no_lead_turns` without a leader (draw), the player
to move has no legal move (loss, also at the start), `move_cap` plies played (draw).

PROPOSALs that are not options, because the alternatives say the same thing as the seed text: ranks are
taken at the start of the move and an enemy area is judged by its rank before the move cuts it (2.4, 2.5);
after every move every disc-less area of either colour turns neutral (2.6, equal to the split rule from any
sound position). A pushed sphere may land on a square of any colour, which turns neutral.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from random import Random
from typing import TYPE_CHECKING, Any, ClassVar, Final, NamedTuple

from games.base import (
    ClickMove,
    GameOver,
    IllegalMove,
    InvalidMove,
    InvalidOptions,
    Option,
    Outcome,
    Rules,
    Seat,
    SeatChoice,
    Termination,
    WordMove,
    move_text,
    resolve_options,
)
from games.caches import cache_field, remember
from games.grids import SquareGrid, bits_of
from games.paint.layout import BLACK as BLACK  # the names games.paint has always had
from games.paint.layout import STANDARD_LAYOUT as STANDARD_LAYOUT
from games.paint.layout import WHITE as WHITE
from games.paint.layout import layout_rows, parse_layout
from games.snapshots import Snapshot
from games.texts import N_, Text

LEAD = Termination("lead", N_("holding the lead"), win=N_("{winner} wins by holding the lead"))
NO_LEAD = Termination("no_lead", N_("nobody holding the lead"), draw=N_("Draw: nobody held the lead"))
MOVE_CAP = Termination(
    "move_cap",
    N_("reaching the move limit"),
    win=N_("{winner} wins at the move limit"),
    draw=N_("Draw: the move limit was reached"),
)
NO_MOVES = Termination(
    "no_moves", N_("leaving the opponent without a move"), win=N_("{winner} wins: the opponent has no move")
)
"""Paint's own ways to end (`Termination.LEAD` names the same objects)."""

# --------------------------------------------------------------------------------------------- geometry

GRID: Final = SquareGrid(9, 9)
SIZE: Final = 81
FULL: Final = (1 << SIZE) - 1
FILE_A: Final = sum(1 << (9 * y) for y in range(9))
FILE_I: Final = FILE_A << 8
NOT_FILE_A: Final = FULL & ~FILE_A
NOT_FILE_I: Final = FULL & ~FILE_I

COLOUR_NAMES: Final = (Text("White"), Text("Black"))
_STEPS: Final = ((0, 1), (1, 0), (0, -1), (-1, 0))  # north, east, south, west


def _ray(square: int, dx: int, dy: int) -> int:
    x, y = GRID.xy(square)
    bits = 0
    x, y = x + dx, y + dy
    while GRID.on_board(x, y):
        bits |= 1 << GRID.index(x, y)
        x, y = x + dx, y + dy
    return bits


def _next_bit(square: int, dx: int, dy: int) -> int:
    x, y = GRID.xy(square)
    return 1 << GRID.index(x + dx, y + dy) if GRID.on_board(x + dx, y + dy) else 0


# RAY_*[s]: the squares beyond s in one direction, to the edge. NEXT_*[s]: the next square's bit, 0 off-board.
RAY_N, RAY_E, RAY_S, RAY_W = (tuple(_ray(s, dx, dy) for s in range(SIZE)) for dx, dy in _STEPS)
NEXT_N, NEXT_E, NEXT_S, NEXT_W = (tuple(_next_bit(s, dx, dy) for s in range(SIZE)) for dx, dy in _STEPS)


def _line_tables() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """PATH[s*81+t]: the squares a disc crosses and reaches going s -> t (0 if not on one line);
    BEHIND[s*81+t]: the square after t in that direction (0 off-board), where a pushed sphere lands."""
    path = [0] * (SIZE * SIZE)
    behind = [0] * (SIZE * SIZE)
    for s in range(SIZE):
        for rays, nexts in ((RAY_N, NEXT_N), (RAY_E, NEXT_E), (RAY_S, NEXT_S), (RAY_W, NEXT_W)):
            for t in range(SIZE):
                if rays[s] >> t & 1:
                    path[s * SIZE + t] = rays[s] ^ rays[t]
                    behind[s * SIZE + t] = nexts[t]
    return tuple(path), tuple(behind)


PATH, BEHIND = _line_tables()


def _fill(seeds: int, mask: int) -> int:
    """The squares of `mask` orthogonally connected to `seeds` (seeds must lie in mask): grow one step in
    all four directions at a time (measured faster on game positions than carry-based row fills)."""
    area = seeds
    while True:
        grown = (
            area | (area << 9) | (area >> 9) | ((area & NOT_FILE_I) << 1) | ((area & NOT_FILE_A) >> 1)
        ) & mask
        if grown == area:
            return area
        area = grown


# --------------------------------------------------------------------------------------------- state


@dataclass(frozen=True, slots=True, kw_only=True)
class PaintSettings:
    """The match options a position carries, so that `outcome` needs nothing but the state (see `OPTIONS`).
    One value is shared by every position of a game."""

    lead_turns: int = 50
    no_lead_turns: int = 20
    move_cap: int = 600
    turn_unit: str = "ply"
    lead_on_own_turn: bool = False


DEFAULT_SETTINGS: Final = PaintSettings()


@dataclass(frozen=True, slots=True, kw_only=True)
class PaintState:
    """A Paint position (see the module docstring for the fields). Build one with `from_layout_text`, or by
    keyword (`dataclasses.replace` for a changed copy)."""

    light: int
    dark: int
    white_discs: int
    black_discs: int
    spheres: int
    to_move: Seat = WHITE
    leader: Seat | None = None
    lead_count: int = 0
    no_lead_count: int = 0
    ply: int = 0
    settings: PaintSettings = DEFAULT_SETTINGS
    # Where the move that led here pushed a sphere (-1: no push). Shown on the board; not part of the
    # position, so it takes no part in equality.
    pushed_to: int = field(default=-1, compare=False, hash=False)
    # Hidden cache (games.caches): the mover's legal moves (section 2.5, whatever the result).
    _moves: tuple[Move, ...] | None = cache_field()

    @property
    def lead_turns(self) -> int:
        return self.settings.lead_turns

    @property
    def no_lead_turns(self) -> int:
        return self.settings.no_lead_turns

    @property
    def move_cap(self) -> int:
        return self.settings.move_cap

    @property
    def turn_unit(self) -> str:
        return self.settings.turn_unit

    @property
    def lead_on_own_turn(self) -> bool:
        return self.settings.lead_on_own_turn

    @property
    def ranks(self) -> dict[int, int]:
        """Each disc's square -> its rank (the number of its colour's discs in its area)."""
        return disc_ranks(self)


def tiles(state: PaintState) -> tuple[int, int]:
    """(White, Black): how many squares each colour controls."""
    return state.light.bit_count(), state.dark.bit_count()


def _colour_seat(colour: int | str) -> Seat:
    if colour in (WHITE, BLACK):
        return int(colour)
    if isinstance(colour, str) and colour.lower() in ("white", "light", "w"):
        return WHITE
    if isinstance(colour, str) and colour.lower() in ("black", "dark", "b"):
        return BLACK
    raise ValueError(f"unknown colour {colour!r}; use 0/'white' or 1/'black'")


def areas(state: PaintState, colour: int | str) -> list[int]:
    """Every area (maximal orthogonally connected set of squares) of one colour, lowest square first.

    `colour` is a seat (0 White/light, 1 Black/dark) or its name."""
    mask = state.light if _colour_seat(colour) == WHITE else state.dark
    found = []
    while mask:
        area = _fill(mask & -mask, mask)
        found.append(area)
        mask &= ~area
    return found


_AREA_CACHE: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}


def _ranked_areas(colour: int, discs: int) -> tuple[tuple[int, int], ...]:
    """The areas of `colour` that hold discs of that colour, each with its rank (its number of discs)."""
    key = (colour, discs)
    found = _AREA_CACHE.get(key)
    if found is None:
        result = []
        rest = discs & colour
        while rest:
            area = _fill(rest & -rest, colour)
            result.append((area, (area & discs).bit_count()))
            rest &= ~area
        found = tuple(result)
        if len(_AREA_CACHE) > 20_000:
            _AREA_CACHE.clear()
        _AREA_CACHE[key] = found
    return found


def _rank_at(colour: int, discs: int, square: int) -> int:
    """The rank of the area of `colour` that contains `square` (0 if it is not of that colour)."""
    if not colour >> square & 1:
        return 0
    return (_fill(1 << square, colour) & discs).bit_count()


def disc_ranks(state: PaintState) -> dict[int, int]:
    """Square -> rank for every disc of both colours (a disc's rank is its area's rank)."""
    result: dict[int, int] = {}
    for colour, discs in ((state.light, state.white_discs), (state.dark, state.black_discs)):
        for area, rank in _ranked_areas(colour, discs):
            for square in bits_of(area & discs):
                result[square] = rank
        for square in bits_of(discs & ~colour):  # only in a broken position: a disc off its colour
            result[square] = 0
    return dict(sorted(result.items()))


# --------------------------------------------------------------------------------------------- moves


def _outward(source: int, ray: int) -> list[int]:
    """The squares of a ray from `source`, nearest first."""
    return sorted(bits_of(ray), key=lambda square: abs(square - source))


class Move(NamedTuple):
    """One Paint move: the disc on `source` goes to `dest` (square indices); a push is implied when the
    destination holds a sphere. A pair, so `(source, dest)` equals it; written `c1-c5` (`RULES.notation`,
    `RULES.parse`)."""

    source: int
    dest: int


MoveTable = tuple[tuple[tuple[Move, ...], ...], ...]


def _move_tables(rays: tuple[int, ...]) -> tuple[MoveTable, MoveTable]:
    """For one direction, tables indexed [s][q] (q on the ray from s): the moves from s to every square
    before q, and the moves from s to every square up to and including q, nearest first."""
    nothing: tuple[Move, ...] = ()
    before = [[nothing] * SIZE for _ in range(SIZE)]
    through = [[nothing] * SIZE for _ in range(SIZE)]
    for s in range(SIZE):
        line = _outward(s, rays[s])
        for i, q in enumerate(line):
            before[s][q] = tuple(Move(s, t) for t in line[:i])
            through[s][q] = tuple(Move(s, t) for t in line[: i + 1])
    return tuple(map(tuple, before)), tuple(map(tuple, through))


(BEFORE_N, THROUGH_N), (BEFORE_E, THROUGH_E), (BEFORE_S, THROUGH_S), (BEFORE_W, THROUGH_W) = (
    _move_tables(rays) for rays in (RAY_N, RAY_E, RAY_S, RAY_W)
)
ALL_N, ALL_E, ALL_S, ALL_W = (
    tuple(tuple(Move(s, t) for t in _outward(s, rays[s])) for s in range(SIZE))
    for rays in (RAY_N, RAY_E, RAY_S, RAY_W)
)


def _moves(own: int, own_discs: int, opponent: int, opponent_discs: int, spheres: int) -> list[Move]:
    """Section 2.5 for every disc of the mover: discs in square order, then north, east, south, west,
    nearest square first.

    Ranks are taken from this position (frozen for the move). A ray stops at a disc, at an opponent square
    whose area's rank is not lower than the disc's, or at the first sphere, which is a destination only when
    the square behind it is on the board and free."""
    occupied = own_discs | opponent_discs | spheres
    free = FULL & ~occupied
    # Spheres that could be pushed north / east / south / west: the next square that way is free.
    push_n = spheres & (free >> 9)
    push_e = spheres & ((free & NOT_FILE_A) >> 1)
    push_s = spheres & (free << 9)
    push_w = spheres & ((free & NOT_FILE_I) << 1)
    opponent_areas = _ranked_areas(opponent, opponent_discs)
    groups = [(area & own_discs, rank) for area, rank in _ranked_areas(own, own_discs)]
    if own_discs & ~own:
        groups.append((own_discs & ~own, 0))
    discs_with_block: list[tuple[int, int]] = []
    for discs, rank in groups:
        block = occupied
        for area, area_rank in opponent_areas:
            if area_rank >= rank:
                block |= area
        if rank == 0:
            block |= opponent
        while discs:
            low = discs & -discs
            discs ^= low
            discs_with_block.append((low.bit_length() - 1, block))
    discs_with_block.sort()
    moves: list[Move] = []
    for s, block in discs_with_block:
        hit = RAY_N[s] & block
        if hit:
            first = hit & -hit
            moves += (THROUGH_N if first & push_n else BEFORE_N)[s][first.bit_length() - 1]
        else:
            moves += ALL_N[s]
        hit = RAY_E[s] & block
        if hit:
            first = hit & -hit
            moves += (THROUGH_E if first & push_e else BEFORE_E)[s][first.bit_length() - 1]
        else:
            moves += ALL_E[s]
        hit = RAY_S[s] & block
        if hit:
            at = hit.bit_length() - 1
            moves += (THROUGH_S if push_s >> at & 1 else BEFORE_S)[s][at]
        else:
            moves += ALL_S[s]
        hit = RAY_W[s] & block
        if hit:
            at = hit.bit_length() - 1
            moves += (THROUGH_W if push_w >> at & 1 else BEFORE_W)[s][at]
        else:
            moves += ALL_W[s]
    return moves


def _state_moves(state: PaintState) -> tuple[Move, ...]:
    moves = state._moves
    if moves is None:
        if state.to_move == WHITE:
            found = _moves(state.light, state.white_discs, state.dark, state.black_discs, state.spheres)
        else:
            found = _moves(state.dark, state.black_discs, state.light, state.white_discs, state.spheres)
        moves = remember(state, "_moves", tuple(found))
    return moves


def _paint(
    own: int, own_discs: int, opponent: int, opponent_discs: int, spheres: int, source: int, dest: int
) -> tuple[int, int, int, int, int]:
    """Section 2.6 for one legal move: (own, own_discs, opponent, opponent_discs, spheres) afterwards.

    Paint the crossed squares and the destination; a pushed sphere's new square turns neutral; then every
    area without a disc of its colour turns neutral. From a position where every area has a disc, only a
    colour that lost squares can be left with disc-less areas, so only such a colour is flood-filled."""
    key = source * SIZE + dest
    path = PATH[key]
    target = 1 << dest
    own_discs ^= (1 << source) | target
    opponent_cut = opponent & path
    own |= path
    opponent &= ~path
    own_cut = 0
    if spheres & target:
        landing = BEHIND[key]
        spheres ^= target | landing
        own_cut = own & landing
        opponent_cut |= opponent & landing
        own &= ~landing
        opponent &= ~landing
    if opponent_cut:
        opponent = _fill(opponent_discs & opponent, opponent)
    if own_cut:
        own = _fill(own_discs & own, own)
    return own, own_discs, opponent, opponent_discs, spheres


def _counters(
    leader: Seat | None,
    lead_count: int,
    no_lead_count: int,
    mover: Seat,
    white_tiles: int,
    black_tiles: int,
    own_turns: bool,
    lead_on_own_turn: bool,
) -> tuple[Seat | None, int, int]:
    """Section 2.7 after one ply by `mover`: (leader, lead_count, no_lead_count).

    More tiles lead; a tie removes the lead. With `lead_on_own_turn`, a majority the opponent gets during
    your turn does not hand them the lead (it only ends yours). With `own_turns`, the lead count goes up only
    at the end of the leader's own turns (a new lead taken on the opponent's turn starts at 0); the no-lead
    count goes up after every turn, as every turn is one player's own turn."""
    majority = WHITE if white_tiles > black_tiles else BLACK if black_tiles > white_tiles else None
    if lead_on_own_turn and majority is not None and majority != mover and majority != leader:
        majority = None
    if majority is None:
        return None, 0, no_lead_count + 1
    counts = not own_turns or majority == mover
    if majority == leader:
        return leader, lead_count + counts, 0
    return majority, int(counts), 0


def _after(state: PaintState, source: int, dest: int) -> PaintState:
    """The position after a move known to be legal."""
    mover = state.to_move
    if mover == WHITE:
        light, white_discs, dark, black_discs, spheres = _paint(
            state.light, state.white_discs, state.dark, state.black_discs, state.spheres, source, dest
        )
    else:
        dark, black_discs, light, white_discs, spheres = _paint(
            state.dark, state.black_discs, state.light, state.white_discs, state.spheres, source, dest
        )
    leader, lead_count, no_lead_count = _counters(
        state.leader,
        state.lead_count,
        state.no_lead_count,
        mover,
        light.bit_count(),
        dark.bit_count(),
        state.settings.turn_unit == "own_turns",
        state.settings.lead_on_own_turn,
    )
    return PaintState(
        light=light,
        dark=dark,
        white_discs=white_discs,
        black_discs=black_discs,
        spheres=spheres,
        to_move=1 - mover,
        leader=leader,
        lead_count=lead_count,
        no_lead_count=no_lead_count,
        ply=state.ply + 1,
        settings=state.settings,
        pushed_to=(spheres & ~state.spheres).bit_length() - 1,
    )


def _result(state: PaintState) -> tuple[Termination, Seat | None] | None:
    """(termination, winning seat or None for a draw), checked in the order of section 2.7, then the cap."""
    settings = state.settings
    if state.leader is not None and state.lead_count >= settings.lead_turns:
        return Termination.LEAD, state.leader
    if state.no_lead_count >= settings.no_lead_turns:
        return Termination.NO_LEAD, None
    if not _state_moves(state):
        return Termination.NO_MOVES, 1 - state.to_move
    if state.ply >= settings.move_cap:
        return Termination.MOVE_CAP, None
    return None


def fast_playout(state: PaintState, rng: Random) -> int | None:
    """Play uniformly random moves to the end: the winning seat, or None for a draw.

    Same rules and the same random choices as `rng.choice(list(RULES.legal_moves(s)))` on the contract path,
    without building a state per ply."""
    light, dark = state.light, state.dark
    white_discs, black_discs, spheres = state.white_discs, state.black_discs, state.spheres
    mover, leader, lead_count, no_lead_count, ply = (
        state.to_move,
        state.leader,
        state.lead_count,
        state.no_lead_count,
        state.ply,
    )
    lead_turns, no_lead_turns, move_cap = state.lead_turns, state.no_lead_turns, state.move_cap
    own_turns, lead_on_own_turn = state.turn_unit == "own_turns", state.lead_on_own_turn
    while True:
        if leader is not None and lead_count >= lead_turns:
            return leader
        if no_lead_count >= no_lead_turns:
            return None
        if mover == WHITE:
            moves = _moves(light, white_discs, dark, black_discs, spheres)
        else:
            moves = _moves(dark, black_discs, light, white_discs, spheres)
        if not moves:
            return 1 - mover
        if ply >= move_cap:
            return None
        source, dest = rng.choice(moves)
        if mover == WHITE:
            light, white_discs, dark, black_discs, spheres = _paint(
                light, white_discs, dark, black_discs, spheres, source, dest
            )
        else:
            dark, black_discs, light, white_discs, spheres = _paint(
                dark, black_discs, light, white_discs, spheres, source, dest
            )
        leader, lead_count, no_lead_count = _counters(
            leader,
            lead_count,
            no_lead_count,
            mover,
            light.bit_count(),
            dark.bit_count(),
            own_turns,
            lead_on_own_turn,
        )
        mover = 1 - mover
        ply += 1


# --------------------------------------------------------------------------------------------- layouts

MAX_DISCS: Final = 6
MAX_SPHERES: Final = 13


def check_invariants(state: PaintState) -> list[str]:
    """What is wrong with a position: the invariants of every reachable state listed in the module docstring
    (board, pieces, counters); [] when it is sound."""
    bitboards = (state.light, state.dark, state.white_discs, state.black_discs, state.spheres)
    if any(board < 0 or board & ~FULL for board in bitboards):
        return ["a bitboard has bits outside a1-i9"]
    problems = []
    pieces = (state.white_discs, state.black_discs, state.spheres)
    if state.light & state.dark:
        problems.append(f"{_names(state.light & state.dark)} cannot be both light and dark")
    for i, first in enumerate(pieces):
        for second in pieces[i + 1 :]:
            if first & second:
                problems.append(f"{_names(first & second)} holds two pieces")
    for seat, discs, colour in (
        (WHITE, state.white_discs, state.light),
        (BLACK, state.black_discs, state.dark),
    ):
        name = COLOUR_NAMES[seat]
        if discs & ~colour:
            problems.append(f"the {name} disc on {_names(discs & ~colour)} is not on a {name.lower()} square")
        count = discs.bit_count()
        if not 1 <= count <= MAX_DISCS:
            problems.append(f"{name} has {count} discs; a side has 1 to {MAX_DISCS}")
        for area in areas(state, seat):
            if not area & discs:
                size = area.bit_count()
                where = _names(area & -area) + (f" ({size} squares)" if size > 1 else "")
                problems.append(
                    f"the {name.lower()} area at {where} has no {name} disc; put one on it or make it neutral"
                )
    if state.spheres & (state.light | state.dark):
        problems.append(
            f"the sphere on {_names(state.spheres & (state.light | state.dark))} is not on neutral"
        )
    if state.spheres.bit_count() > MAX_SPHERES:
        problems.append(f"there are {state.spheres.bit_count()} spheres; the game has {MAX_SPHERES}")
    return problems + _counter_problems(state)


def _counter_problems(state: PaintState) -> list[str]:
    """The invariants of section 2.7's counters (see the module docstring), checked in that order."""
    leader, lead, no_lead, ply = state.leader, state.lead_count, state.no_lead_count, state.ply
    if state.to_move not in (WHITE, BLACK) or leader not in (None, WHITE, BLACK):
        return ["to_move and leader are seats: 0 (White) or 1 (Black)"]
    if not 0 <= ply <= state.move_cap:
        return [f"ply {ply} is outside 0-{state.move_cap} (move_cap)"]
    if not 0 <= lead <= state.lead_turns:
        return [f"lead_count {lead} is outside 0-{state.lead_turns} (lead_turns)"]
    if not 0 <= no_lead <= state.no_lead_turns:
        return [f"no_lead_count {no_lead} is outside 0-{state.no_lead_turns} (no_lead_turns)"]
    pushed_to = state.pushed_to
    if not -1 <= pushed_to < SIZE or (pushed_to >= 0 and not state.spheres >> pushed_to & 1):
        return [f"pushed_to {pushed_to} is neither -1 nor the square of a sphere"]
    if ply == 0:
        if leader is not None or lead or no_lead or pushed_to != -1:
            return ["before the first move nobody leads and every counter is 0"]
        return []
    if leader is None and lead:
        return ["without a leader the lead count is 0"]
    if leader is not None and no_lead:
        return ["with a leader the no-lead count is 0"]
    if leader is None and not no_lead:
        return ["after a move without a leader the no-lead count is at least 1"]
    if leader is not None and state.turn_unit == "ply" and not lead:
        return ["counting plies, a leader has a lead count of at least 1"]
    white, black = tiles(state)
    majority = WHITE if white > black else BLACK if black > white else None
    if leader is not None and leader != majority:
        return [f"{COLOUR_NAMES[leader]} leads but has no more tiles ({white} White, {black} Black)"]
    if leader is None and majority is not None and not (state.lead_on_own_turn and majority == state.to_move):
        return [f"{COLOUR_NAMES[majority]} has more tiles, so it leads after the move"]
    return []


def _cut_off(seat: Seat, count: int, cells: str) -> Text:
    """The squares of one colour that a move cut off and turned neutral, as the end of a description."""
    if seat == WHITE:
        return Text.ngettext(
            "; {count} cut-off white square turns neutral ({cells})",
            "; {count} cut-off white squares turn neutral ({cells})",
            count,
            count=count,
            cells=cells,
        )
    return Text.ngettext(
        "; {count} cut-off black square turns neutral ({cells})",
        "; {count} cut-off black squares turn neutral ({cells})",
        count,
        count=count,
        cells=cells,
    )


def _names(mask: int) -> str:
    return ", ".join(GRID.label(i) for i in bits_of(mask))


def from_layout_text(text: str) -> PaintState:
    """A position from its layout text (games.paint.layout), White to move unless a line says "Black to
    move". The counters start at zero. Raises InvalidOptions (a ValueError) for a layout that breaks the
    rules' invariants: a coloured area without a disc of its colour, more than 6 discs a side or no disc at
    all, more than 13 spheres. Fewer pieces than the game's 6 + 6 + 13 are allowed (puzzles)."""
    layout = parse_layout(text)
    state = PaintState(
        light=layout.light,
        dark=layout.dark,
        white_discs=layout.white_discs,
        black_discs=layout.black_discs,
        spheres=layout.spheres,
        to_move=WHITE if layout.to_move is None else layout.to_move,
    )
    problems = check_invariants(state)
    if problems:
        raise InvalidOptions(Text("this layout breaks the rules: {problems}", problems="; ".join(problems)))
    return state


def board_rows(state: PaintState) -> list[str]:
    """The board as nine strings of layout symbols, rank 9 first."""
    return layout_rows(
        light=state.light,
        dark=state.dark,
        white_discs=state.white_discs,
        black_discs=state.black_discs,
        spheres=state.spheres,
    )


def position_text(state: PaintState) -> str:
    """The board in layout text with rank and file labels, then the status line of section 2.9."""
    lines = [f"{9 - i} {' '.join(row)}" for i, row in enumerate(board_rows(state))]
    lines.append("  " + " ".join("abcdefghi"))
    white, black = tiles(state)
    leader = "none" if state.leader is None else COLOUR_NAMES[state.leader]
    status = (
        f"{COLOUR_NAMES[state.to_move]} to move | tiles W:{white} B:{black} | leader: {leader} | "
        f"lead: {state.lead_count} | no lead: {state.no_lead_count} | ply: {state.ply}"
    )
    result = _result(state)
    if result is not None:
        termination, winner = result
        verdict = "draw" if winner is None else f"{COLOUR_NAMES[winner]} wins"
        status += f" | over: {verdict}, {termination.phrase}"
    lines.append(status)
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------- rules

OPTIONS: Final = (
    Option(
        "layout",
        "standard",
        N_(
            "Starting layout: 'standard' (our reconstruction) or 9 rows, rank 9 first, "
            "of W B o w b . split by /"
        ),
        proposal=True,
    ),
    Option(
        "lead_turns", 50, N_("Turns in a row a player must hold the lead to win"), minimum=1, maximum=10_000
    ),
    Option(
        "no_lead_turns",
        20,
        N_("Turns in a row without a leader that end in a draw"),
        minimum=1,
        maximum=10_000,
    ),
    Option(
        "move_cap", 600, N_("Plies after which the game is a draw"), minimum=1, maximum=100_000, proposal=True
    ),
    Option(
        "turn_unit",
        "ply",
        N_("How lead turns are counted: every ply, or only the leader's own turns"),
        choices=("ply", "own_turns"),
        proposal=True,
    ),
    Option(
        "lead_on_own_turn",
        False,
        N_("On: the lead can only be taken at the end of your own turn, as the seed text words it"),
        proposal=True,
    ),
)

SUMMARY: Final = N_("""\
**Paint** (GiocatGeneric, 2020) — two players, White (moves first) and Black, on a 9×9 board.
Only a short summary of the original rules survives; the parts marked *(ours)* are reconstructions and \
can be changed with match options.

**Move.** Move one of your discs like a rook, at least one square. Discs and spheres block. You may cross \
neutral squares and your own colour, and an enemy-coloured area only if its rank is *lower* than your \
disc's rank. A disc may stop on the first sphere it meets if the square behind that sphere is free: the \
sphere is pushed one square. No passing: a player with no move at the start of their turn loses.
**Ranks.** An area is a group of same-coloured squares joined edge to edge; its rank is the number of its \
colour's discs on it, and a disc has the rank of its area (taken at the start of the move).
**Paint.** Every square crossed and the destination take your colour; the square a sphere is pushed onto \
turns neutral. Then any coloured area left without a disc of its colour turns neutral.
**Winning.** After every move, whoever has more squares of their colour leads; a tie means nobody leads. \
Hold the lead for 50 turns in a row to win; 20 turns in a row without a leader is a draw.

*(ours)* The starting layout (option `layout`, or your own board as 9 rows of `W B o w b .`): White \
discs on b1-d1 and f1-h1, Black on b9-d9 and f9-h9, 13 spheres in a symmetric pattern. A tie removing the \
lead is our reading. A "turn" is one player's move (`turn_unit` = ply); with `own_turns` the lead count \
goes up only at the end of the leader's own turns (turns without a leader still count one by one). The \
majority decides the lead even when a push of yours hands it to your opponent; with `lead_on_own_turn` on, \
it only ends your lead. A game with no result after 600 plies is a draw (`move_cap`). The 50 and 20 are \
the designer's (`lead_turns`, `no_lead_turns`).

Moves are written `c1-c5`; a push is implied when the destination holds a sphere.""")


_DUMP_FIELDS: Final = (
    "light",
    "dark",
    "white_discs",
    "black_discs",
    "spheres",
    "to_move",
    "leader",
    "lead_count",
    "no_lead_count",
    "ply",
    "lead_turns",
    "no_lead_turns",
    "move_cap",
    "turn_unit",
    "lead_on_own_turn",
)
"""The fields of a snapshot (`pushed_to` besides, which snapshots stored before it existed lack)."""

_MOVE_TEXT: Final = re.compile(r"^([a-z])([1-9][0-9]?)[-–—]?([a-z])([1-9][0-9]?)$")


class PaintRules(Rules[PaintState, Move]):
    """The rules of Paint (RULES.md section 2) on `PaintState`; moves are (from, to) square pairs."""

    id: ClassVar[str] = "paint"
    name: ClassVar[str] = "Paint"
    seats: ClassVar[range] = range(2, 3)
    options: ClassVar[tuple[Option, ...]] = OPTIONS
    summary: ClassVar[str] = SUMMARY
    clock_presets: ClassVar[tuple[tuple[int, int], ...]] = ((60, 1), (180, 2), (300, 3))
    """Live presets for its length (base seconds, increment)."""
    first_seat: ClassVar[SeatChoice] = SeatChoice("white", N_("Who plays White and moves first"))

    def new(self, seats: int, options: Mapping[str, Any], seed: int) -> PaintState:
        """The starting position: the layout option's board with White (or the side it names) to move."""
        if type(seats) is not int or seats != 2:
            raise InvalidOptions(Text("Paint is a game for exactly 2 players"))
        values = resolve_options(OPTIONS, options)
        layout = str(values["layout"])
        start = from_layout_text(STANDARD_LAYOUT if layout.strip().lower() == "standard" else layout)
        settings = PaintSettings(
            lead_turns=int(values["lead_turns"]),
            no_lead_turns=int(values["no_lead_turns"]),
            move_cap=int(values["move_cap"]),
            turn_unit=str(values["turn_unit"]),
            lead_on_own_turn=bool(values["lead_on_own_turn"]),
        )
        return replace(start, settings=settings)

    def to_move(self, state: PaintState) -> Seat | None:
        """The seat to move (0 White, 1 Black), or None once the game is over."""
        return None if _result(state) is not None else state.to_move

    def legal_moves(self, state: PaintState) -> list[Move]:
        """Every (from, to) of the side to move (discs in square order; north, east, south, west; nearest
        first); [] once the game is over."""
        if _result(state) is not None:
            return []
        return list(_state_moves(state))

    def is_legal(self, state: PaintState, move: Move) -> bool:
        """Whether the game goes on and `move` is one of the side to move's legal moves."""
        if _result(state) is not None:
            return False
        return move in _state_moves(state)

    def apply(self, state: PaintState, move: Move) -> PaintState:
        if _result(state) is not None:
            raise GameOver(Text("this game is over"))
        if move in _state_moves(state):  # a legal move is a pair of squares
            source, dest = move
            return _after(state, source, dest)
        if not (isinstance(move, tuple) and len(move) == 2 and type(move[0]) is int and type(move[1]) is int):
            raise IllegalMove(Text("that is not a Paint move: a move is a (from, to) pair of squares"))
        raise IllegalMove(self._why_illegal(state, *move))

    def outcome(self, state: PaintState) -> Outcome | None:
        """Win by holding the lead, loss with no move, draw without a leader or at the cap; scores = tiles."""
        result = _result(state)
        if result is None:
            return None
        termination, winner = result
        scores = tiles(state)
        if winner is None:
            return Outcome.draw(2, termination, scores)
        return Outcome.win(winner, 2, termination, scores)

    def parse(self, state: PaintState, text: str) -> Move:
        """`c1-c5` (any case; spaces ignored; the dash may be left out) to a legal move."""
        text = move_text(text)
        if _result(state) is not None:
            raise GameOver(Text("this game is over; no more moves can be played"))
        compact = "".join(text.split()).lower()
        if compact == "pass":
            raise InvalidMove(Text("there is no passing in Paint: move one of your discs, like c1-c5"))
        match = _MOVE_TEXT.match(compact)
        if match is None:
            if not compact:
                raise InvalidMove(
                    Text("that is not a move: type the disc's square and where it goes, like c1-c5")
                )
            raise InvalidMove(
                Text(
                    "{text!r} is not a move: type the disc's square and where it goes, like c1-c5",
                    text=text.strip(),
                )
            )
        try:
            source = GRID.parse(match.group(1) + match.group(2))
            dest = GRID.parse(match.group(3) + match.group(4))
        except ValueError as error:
            raise InvalidMove(*error.args) from None
        move = Move(source, dest)
        if not self.is_legal(state, move):
            raise IllegalMove(self._why_illegal(state, source, dest))
        return move

    def _why_illegal(self, state: PaintState, source: int, dest: int) -> str:
        """Why (source, dest) is not legal, walking the line as section 2.5 does."""
        if not (0 <= source < SIZE and 0 <= dest < SIZE):
            return Text("that move leaves the board; squares go from a1 to i9")
        mover = state.to_move
        name = COLOUR_NAMES[mover]
        own_discs, opponent_discs = (
            (state.white_discs, state.black_discs)
            if mover == WHITE
            else (state.black_discs, state.white_discs)
        )
        own, opponent = (state.light, state.dark) if mover == WHITE else (state.dark, state.light)
        start, end = GRID.label(source), GRID.label(dest)
        if not own_discs >> source & 1:
            yours = _names(own_discs)
            if opponent_discs >> source & 1:
                return Text(
                    "{start} holds a {colour} disc; move one of your {name} discs ({yours})",
                    start=start,
                    colour=COLOUR_NAMES[1 - mover],
                    name=name,
                    yours=yours,
                )
            return Text(
                "{start} has no {name} disc; yours are on {yours}", start=start, name=name, yours=yours
            )
        if source == dest:
            return Text(
                "a disc must move at least one square; pick where the disc on {start} goes", start=start
            )
        key = source * SIZE + dest
        if not PATH[key]:
            return Text(
                "discs move in straight lines: {start} and {end} are not on one file or rank",
                start=start,
                end=end,
            )
        rank = _rank_at(own, own_discs, source)
        occupied = state.white_discs | state.black_discs | state.spheres
        for square in bits_of(PATH[key]) if dest > source else reversed(bits_of(PATH[key])):
            label = GRID.label(square)
            if occupied >> square & 1 and not state.spheres >> square & 1:
                if square == dest:
                    return Text("{end} holds a disc; a disc cannot stop on another disc", end=end)
                return Text(
                    "the disc on {label} blocks the way from {start} to {end}",
                    label=label,
                    start=start,
                    end=end,
                )
            if state.spheres >> square & 1:
                if square != dest:
                    return Text(
                        "{end} is behind the sphere on {label}: a disc stops on the first sphere it meets",
                        end=end,
                        label=label,
                    )
                landing = BEHIND[key]
                if not landing:
                    return Text("the sphere on {label} cannot be pushed off the board", label=label)
                return Text(
                    "the sphere on {label} cannot be pushed: {names} is not free",
                    label=label,
                    names=_names(landing),
                )
            if opponent >> square & 1:
                area_rank = _rank_at(opponent, opponent_discs, square)
                if area_rank >= rank:
                    values = {"label": label, "area_rank": area_rank, "start": start, "rank": rank}
                    if mover == WHITE:  # the opponent's area is Black's
                        if square != dest:
                            return Text(
                                "the black area at {label} has rank {area_rank}, your disc on {start} has "
                                "rank {rank}: it cannot cross it; stop before {label}",
                                **values,
                            )
                        return Text(
                            "the black area at {label} has rank {area_rank}, your disc on {start} has rank "
                            "{rank}: it cannot enter it; stop before {label}",
                            **values,
                        )
                    if square != dest:
                        return Text(
                            "the white area at {label} has rank {area_rank}, your disc on {start} has rank "
                            "{rank}: it cannot cross it; stop before {label}",
                            **values,
                        )
                    return Text(
                        "the white area at {label} has rank {area_rank}, your disc on {start} has rank "
                        "{rank}: it cannot enter it; stop before {label}",
                        **values,
                    )
        return Text("{start}-{end} is not a legal move here", start=start, end=end)

    def click_move(self, state: PaintState, move: Move) -> ClickMove | None:
        """A move is its disc's square, then its destination."""
        return ClickMove(self.notation(state, move), (move[0], move[1]))

    def notation(self, state: PaintState, move: Move) -> str:
        """`c1-c5`: the disc's square and its destination."""
        source, dest = move
        return f"{GRID.label(source)}-{GRID.label(dest)}"

    def describe(self, state: PaintState, move: Move) -> str:
        """The move in words ("White c1-c3, pushing the sphere to c4") and any cut-off squares lost."""
        source, dest = move
        parts = [Text("{seat} {move}", seat=COLOUR_NAMES[state.to_move], move=self.notation(state, move))]
        landing = 0
        if state.spheres >> dest & 1:
            landing = BEHIND[source * SIZE + dest]
            parts.append(Text(", pushing the sphere to {cells}", cells=_names(landing)))
        if self.is_legal(state, move):
            after = _after(state, source, dest)
            painted = PATH[source * SIZE + dest] | landing
            for seat, before_mask, after_mask in (
                (WHITE, state.light, after.light),
                (BLACK, state.dark, after.dark),
            ):
                lost = before_mask & ~after_mask & ~painted
                if lost:
                    parts.append(_cut_off(seat, lost.bit_count(), _names(lost)))
        return Text.concat(*parts)

    def forced_move(self, state: PaintState) -> Move | None:
        """Never: Paint has no passing, and a player without a move has lost."""
        return None

    def word_moves(self, state: PaintState) -> tuple[WordMove, ...]:
        """Paint has no one-word moves: every move names a disc and a square."""
        return ()

    def pass_move(self, state: PaintState) -> Move | None:
        """There is no passing in Paint."""
        return None

    def timeout_move(self, state: PaintState) -> Move | None:
        """A player out of time loses."""
        return None

    def resign(self, state: PaintState, seat: Seat) -> PaintState | None:
        """Resigning ends the game: the other player wins."""
        return None

    def moves_played(self, state: PaintState) -> int:
        """Every ply is a move (a resignation ends Paint and is never logged)."""
        return state.ply

    def seat_label(self, state: PaintState, seat: Seat) -> str:
        return COLOUR_NAMES[seat]

    def position_text(self, state: PaintState) -> str:
        return position_text(state)

    def dump(self, state: PaintState) -> dict[str, Any]:
        """JSON-safe: bitboards as hex strings (they exceed 53 bits), everything else as is."""
        return {
            "light": hex(state.light),
            "dark": hex(state.dark),
            "white_discs": hex(state.white_discs),
            "black_discs": hex(state.black_discs),
            "spheres": hex(state.spheres),
            "to_move": state.to_move,
            "leader": state.leader,
            "lead_count": state.lead_count,
            "no_lead_count": state.no_lead_count,
            "ply": state.ply,
            "lead_turns": state.lead_turns,
            "no_lead_turns": state.no_lead_turns,
            "move_cap": state.move_cap,
            "turn_unit": state.turn_unit,
            "lead_on_own_turn": state.lead_on_own_turn,
            "pushed_to": state.pushed_to,
        }

    def load(self, data: Mapping[str, Any]) -> PaintState:
        """The state `dump` wrote (bitboards may also be plain ints; `pushed_to` may be missing, as in
        snapshots stored before it existed). Raises InvalidSnapshot (a ValueError) naming the first field
        or invariant (module docstring) that a reachable position would not break."""
        snapshot = Snapshot(data, "Paint snapshot", _DUMP_FIELDS, optional=("pushed_to",))
        specs = {spec.name: spec for spec in OPTIONS}

        def count_option(name: str) -> int:
            """A counting option, within the range the option allows."""
            low, high = specs[name].minimum, specs[name].maximum
            assert low is not None and high is not None
            return snapshot.whole(name, low, high)

        settings = PaintSettings(
            lead_turns=count_option("lead_turns"),
            no_lead_turns=count_option("no_lead_turns"),
            move_cap=count_option("move_cap"),
            turn_unit=snapshot.choice("turn_unit", specs["turn_unit"].choices),
            lead_on_own_turn=snapshot.flag("lead_on_own_turn"),
        )
        state = PaintState(
            light=snapshot.bitboard("light", SIZE),
            dark=snapshot.bitboard("dark", SIZE),
            white_discs=snapshot.bitboard("white_discs", SIZE),
            black_discs=snapshot.bitboard("black_discs", SIZE),
            spheres=snapshot.bitboard("spheres", SIZE),
            to_move=snapshot.choice("to_move", (WHITE, BLACK)),
            leader=snapshot.choice("leader", (None, WHITE, BLACK)),
            lead_count=snapshot.whole("lead_count", 0, settings.lead_turns),
            no_lead_count=snapshot.whole("no_lead_count", 0, settings.no_lead_turns),
            ply=snapshot.whole("ply", 0, settings.move_cap),
            settings=settings,
            pushed_to=snapshot.whole("pushed_to", -1, SIZE - 1) if snapshot.has("pushed_to") else -1,
        )
        problems = check_invariants(state)
        if problems:
            raise snapshot.invalid("; ".join(problems))
        return state


RULES: Final = PaintRules()

if TYPE_CHECKING:
    _CONFORMS: Rules[PaintState, Move] = RULES  # mypy: the singleton implements the whole contract

# The bitboard primitives behind RULES, public for fast paths that play without building states (the AI's
# playouts): the moves of section 2.5, the effects of section 2.6, and the counters of section 2.7.
disc_moves: Final = _moves
paint_move: Final = _paint
lead_counters: Final = _counters
