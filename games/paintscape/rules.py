"""Paintscape (Michael Amundsen, 2022): a bitboard engine for RULES.md section 1.

Squares are numbered i = y * 8 + x (a1 = 0, b1 = 1, ..., h8 = 63); a bitboard is an int with bit i for
square i.

The state
---------
`PaintscapeState` is a frozen, slotted dataclass built by keyword (hashable, equal by value) with these
fields:

- `black`, `white`: bitboards of Black's and White's stones.
- `tiles`: five bitboards, the tiles of colour 1..5 (index 0..4 = yellow, red, cyan, pink, brown). A colour
  that is out of play (collected, or left out of a custom layout) is 0. A stone may stand on a tile.
- `collected`: per colour index 0..4, None while nobody has collected it, else the stone colour that did
  (0 = Black, 1 = White). A colour with no tiles and None here was left out by a custom layout.
- `phase`: a `Phase`, a `StrEnum` that compares equal to its string: "balance" (seat 0 swaps), "choose"
  (seat 1 picks a colour), "play", or "over".
- `black_seat`: the seat playing Black; None until the chooser has chosen.
- `ply`: the number of moves played since the start (swaps, done, the choice and passes included).
- `turn`: the stone colour to move in the play phase (0 = Black, 1 = White; Black starts). It is 0 before
  play (seat 0 balances, seat 1 chooses) and, once over, the colour that would have been next. The seat to
  move in play is `turn ^ black_seat`.
- `swapped`: bitboard of the squares of stones already moved by a swap (their NEW squares). Each stone may
  be swapped once; the number of swaps made is `swapped.bit_count()`.

Moves are small frozen values: `Place(square)` (the engine lists the 64 values of `PLACES`),
`Swap(stone, tile)`, and the `Word`s `PASS`, `DONE` (stop swapping), `PLAY_BLACK`, `PLAY_WHITE` (the
chooser's answer). Notation: `d4`, `swap c3 f6`, `pass`, `done`, `black`, `white`; `parse` reads it back.

Besides `RULES` (the `Rules` object): `race(state)` (per colour: Black stones, White stones, free tiles),
`colour_to_move(state)`, `RULES.targets(state)` (bitboard of the legal placements), `fast_playout(state,
rng)` (a random game to the end without building states, for the AI), `position_text` /
`from_position_text`, and `COLOUR_NAMES`.

Layouts and the position text
-----------------------------
A board is 64 characters for squares a1, b1, ..., h1, a2, ..., h8 (whitespace is ignored):

- `.` an empty square (its tile was removed), `1`-`5` a tile of colour 1-5 (yellow, red, cyan, pink, brown);
- `B` / `W` a Black / White stone on a bare square;
- `Y R C P N` a Black stone on a yellow / red / cyan / pink / brown tile, `y r c p n` a White stone on one.

The match option `layout` is such a board: the start of a game, nobody has collected anything yet. It is
checked: every colour has 12 tiles, or 0 to leave it out; at least 3 colours are in play; each player has at
least one stone on a bare square (stones there are never removed, so a player always has a stone); no colour
already holds 6 stones of one player; with balancing on, every stone stands on a bare square (a swap trades a
stone with a tile, so it needs a bare stone).
If a layout leaves colours out, all colours can be gone before anyone has 3: the game then ends and more
colours wins, equal colours draw (our PROPOSAL; a full set of colours always ends with a 3-colour winner).

`position_text(state)` is the board followed by six fields, separated by single spaces:

    <board> phase=<balance|choose|play|over> turn=<black|white> black=<seat or -> collected=<5 chars>
    swapped=<squares, comma-separated, or -> ply=<n>

`collected` has one character per colour (yellow first): `.` in play, `B` / `W` collected by Black / White,
`x` left out by the layout. Example: White to move after Black (seat 1) has collected red, with the
stone swapped to c4 still on the board: `<64 characters> phase=play turn=white black=1 collected=.B...
swapped=c4 ply=12`.
`from_position_text` reads it back (fields in any order) and checks it the same way as a layout.

Invariants
----------
Every reachable position satisfies these; `from_position_text` raises ValueError for a text that breaks one,
and `RULES.load` (whose snapshot is `{"position": <position text>}` and nothing else) raises InvalidSnapshot:

- one item per square (the board text cannot say otherwise); each colour has 12 tiles or none, and at
  least 3 colours were dealt (in play or collected); a `collected` mark is `.` exactly for a colour in play;
- no player has 6 stones on a colour still in play (it would have been collected), and each keeps a stone
  on a square without a tile;
- at most 4 stones were swapped, and each swapped square holds a stone on a square without a tile;
- balancing and choosing: no colour chosen (`black=-`), `turn=black`, every stone on a square without a
  tile, nothing collected, fewer than 4 swaps while balancing; `ply` counts the swaps (and `done`);
- play and over: `black` names a seat; after swaps, play starts after the balancing plies; the phase is
  over exactly when a player has 3 colours or no colour is left, and only one player can have 3; once over,
  the colour that moved last (not `turn`) made the final collection, and it is the winner if anyone has 3;
- `ply` is at most `MAX_PLY` (300), which no game reaches; in play, `ply` plus twice the squares without a
  stone and the tiles in play (plus one if the mover must pass) is at most `MAX_PLY` (`_check_plies_left`).
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any, ClassVar

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
from games.grids import SquareGrid, bits_of
from games.snapshots import Snapshot
from games.texts import N_, Text

COLOURS = Termination(
    "colours", N_("collecting three colours"), win=N_("{winner} wins by collecting three colours")
)
"""Paintscape's own way to end: three colours collected (`Termination.COLOURS`)."""

__all__ = [
    "COLOUR_NAMES",
    "DONE",
    "PASS",
    "PLACES",
    "PLAY_BLACK",
    "PLAY_WHITE",
    "RULES",
    "Move",
    "PaintscapeRules",
    "PaintscapeState",
    "Phase",
    "Place",
    "Swap",
    "Word",
    "colour_to_move",
    "fast_playout",
    "from_position_text",
    "is_swap",
    "race",
    "swap_move",
    "swap_squares",
]

GRID = SquareGrid(8, 8)
LABELS = GRID.labels
FULL = GRID.full
COLOUR_NAMES = (Text("yellow"), Text("red"), Text("cyan"), Text("pink"), Text("brown"))
STONE_NAMES = ("Black", "White")
TILES_PER_COLOUR = 12
COLLECT_AT = 6  # half of a colour's tiles
COLOURS_TO_WIN = 3
MAX_SWAPS = 4
MAX_PLY = 300
"""No game gets near: balancing takes at most 6 plies; a placement fills a square without a stone, which
only the 64 squares and the at most 60 tiles removed with their stones provide (124 placements), and no two
passes follow each other (at most 125 passes)."""


class Phase(enum.StrEnum):
    """The part of the game a position is in. A `StrEnum`: `state.phase == "play"` holds, and the position
    text writes the plain value."""

    BALANCE = "balance"
    """Seat 0 swaps stones with tiles (or says done)."""
    CHOOSE = "choose"
    """Seat 1 picks Black or White."""
    PLAY = "play"
    OVER = "over"


BALANCE, CHOOSE, PLAY, OVER = Phase.BALANCE, Phase.CHOOSE, Phase.PLAY, Phase.OVER
PHASES = tuple(Phase)


@dataclass(frozen=True, slots=True)
class Place:
    """A stone placed on `square` (0..63). The engine lists the 64 values of `PLACES`, built once."""

    square: int

    def __post_init__(self) -> None:
        if type(self.square) is not int or not 0 <= self.square < 64:
            raise ValueError(f"a placement names a square 0..63, not {self.square!r}")


@dataclass(frozen=True, slots=True)
class Swap:
    """The balancer's swap: the stone on square `stone` and the tile on square `tile` trade places."""

    stone: int
    tile: int

    def __post_init__(self) -> None:
        for square in (self.stone, self.tile):
            if type(square) is not int or not 0 <= square < 64:
                raise ValueError(f"a swap names two squares 0..63, not {square!r}")


class Word(enum.StrEnum):
    """A move said in a word; its value is its notation."""

    PASS = "pass"
    """No placement in play (always forced)."""
    DONE = "done"
    """The balancer stops swapping."""
    BLACK = "black"
    """The chooser plays Black (first)."""
    WHITE = "white"
    """The chooser plays White (second)."""


Move = Place | Swap | Word
"""A Paintscape move: `Place(square)`, `Swap(stone, tile)` or a `Word`."""
PASS, DONE, PLAY_BLACK, PLAY_WHITE = Word.PASS, Word.DONE, Word.BLACK, Word.WHITE
_MOVE_TYPES = (Place, Swap, Word)
PLACES = tuple(Place(square) for square in range(64))
"""`PLACES[square]`: the placement on `square`; the engine lists these, so listing moves builds nothing."""


def _place_table(j: int) -> tuple[tuple[Place, ...], ...]:
    """Per byte value, the placements on its set bits at byte `j` of a bitboard, lowest first."""
    table: list[tuple[Place, ...]] = [()]
    for byte in range(1, 256):
        low = byte & -byte
        table.append((PLACES[8 * j + low.bit_length() - 1], *table[byte ^ low]))
    return tuple(table)


_PLACE_TABLES = tuple(_place_table(j) for j in range(8))
"""`_PLACE_TABLES[j][byte]`: the placements on the set bits of `byte` at byte `j` of a bitboard, lowest first
(the tables of `games.grids.bits_of`, holding `Place` values)."""

_NEIGHBOURS: tuple[int, ...] = GRID.orthogonal_masks
_FILE_A = sum(1 << (8 * y) for y in range(8))
_FILE_H = _FILE_A << 7
_NOT_FILE_A = FULL & ~_FILE_A
_NOT_FILE_H = FULL & ~_FILE_H

_BOARD_TILE_CHARS = "12345"
_BLACK_ON_TILE = "YRCPN"
_WHITE_ON_TILE = "yrcpn"
_BOARD_ALPHABET = set(".BW" + _BOARD_TILE_CHARS + _BLACK_ON_TILE + _WHITE_ON_TILE)


@dataclass(frozen=True, slots=True, kw_only=True)
class PaintscapeState:
    """A Paintscape position (see the module docstring for every field). Build one by keyword, or with
    `dataclasses.replace` for a changed copy; the engine's hot path uses `_pack` (below)."""

    black: int
    white: int
    tiles: tuple[int, int, int, int, int]
    collected: tuple[int | None, int | None, int | None, int | None, int | None]
    phase: str
    """A `Phase` (engine-built states always hold the member; a `Phase` is a `str`)."""
    black_seat: int | None
    ply: int = 0
    turn: int = 0
    swapped: int = 0


class _Packing:
    """A mutable twin of `PaintscapeState` for `_pack`: the same slots in the same order (so the same memory
    layout), no checks. An instance lives only inside `_pack`, which turns it into a `PaintscapeState`."""

    __slots__ = tuple(spec.name for spec in fields(PaintscapeState))
    black: int
    white: int
    tiles: tuple[int, int, int, int, int]
    collected: tuple[int | None, int | None, int | None, int | None, int | None]
    phase: str
    black_seat: int | None
    ply: int
    turn: int
    swapped: int


_new_state = object.__new__


def _pack(
    black: int,
    white: int,
    tiles: tuple[int, int, int, int, int],
    collected: tuple[int | None, int | None, int | None, int | None, int | None],
    phase: str,
    black_seat: int | None,
    ply: int,
    turn: int,
    swapped: int,
) -> PaintscapeState:
    """The state with these fields, for the hot path: a placement in `apply` (and the collection it may
    make). Everywhere else states are built by keyword or `dataclasses.replace`.

    A frozen dataclass's `__init__` binds the keywords and sets each field through `object.__setattr__`
    by name: about 1.5 us against 0.33 us for packing a NamedTuple (one process, CPU time, 300,000
    placements), and a ply of a random playout is about 3.5 us. Filling the slots through their descriptors'
    `__set__` still cost a contract playout 15% more instructions (bench/baselines/engine_playouts.md).
    So `_pack` fills a `_Packing` (plain slot stores, which CPython specialises) and then sets its
    `__class__`: CPython allows that between classes with the same slots (the data model's `__class__`
    assignment), and the object is from then on an ordinary, frozen `PaintscapeState`, equal and hashed
    like one built by keyword (tests/games/test_paintscape.py checks both)."""
    state = _new_state(_Packing)
    state.black = black
    state.white = white
    state.tiles = tiles
    state.collected = collected
    state.phase = phase
    state.black_seat = black_seat
    state.ply = ply
    state.turn = turn
    state.swapped = swapped
    state.__class__ = PaintscapeState  # type: ignore[assignment]
    return state  # type: ignore[return-value]


def swap_move(stone: int, tile: int) -> Swap:
    """The move that swaps the stone on square `stone` with the tile on square `tile`."""
    return Swap(stone, tile)


def is_swap(move: object) -> bool:
    return type(move) is Swap


def swap_squares(move: Swap) -> tuple[int, int]:
    """(stone square, tile square) of a swap move."""
    return move.stone, move.tile


def _around(stones: int) -> int:
    """The squares orthogonally next to any of `stones`."""
    return (
        ((stones << 8) & FULL) | (stones >> 8) | ((stones & _NOT_FILE_H) << 1) | ((stones & _NOT_FILE_A) >> 1)
    )


def _all_tiles(tiles: Sequence[int]) -> int:
    return tiles[0] | tiles[1] | tiles[2] | tiles[3] | tiles[4]


def _colour_at(tiles: Sequence[int], square: int) -> int | None:
    """The tile colour index on `square`, or None for a bare square."""
    for k in range(5):
        if tiles[k] >> square & 1:
            return k
    return None


def colour_to_move(state: PaintscapeState) -> int | None:
    """The stone colour to move (0 = Black, 1 = White); None before colours are chosen or once it is over."""
    if state.phase != PLAY:
        return None
    return state.turn


def race(state: PaintscapeState) -> tuple[tuple[int, int, int], ...]:
    """Per colour (yellow first): (Black stones on it, White stones on it, free tiles); (0, 0, 0) if gone."""
    black, white = state.black, state.white
    return tuple(
        ((black & t).bit_count(), (white & t).bit_count(), (t & ~(black | white)).bit_count())
        for t in state.tiles
    )


def scores_by_colour(state: PaintscapeState) -> tuple[int, int]:
    """Colours collected by (Black, White)."""
    return (state.collected.count(0), state.collected.count(1))


def _no_colour_left(tiles: Sequence[int]) -> bool:
    """True when every colour is off the board, which without 3 collected happens only after a layout left
    colours out: the game then ends on the colours collected."""
    return not (tiles[0] or tiles[1] or tiles[2] or tiles[3] or tiles[4])


def _outcome_of(state: PaintscapeState) -> Outcome:
    """The result of a finished game: three colours win; after a layout that left colours out and no colour
    is left, more colours wins and equal is a draw."""
    black_seat = state.black_seat if state.black_seat is not None else 0
    by_colour = scores_by_colour(state)
    seat_scores = (by_colour[black_seat], by_colour[1 - black_seat])
    for seat in (0, 1):
        if seat_scores[seat] >= COLOURS_TO_WIN:
            return Outcome.win(seat, 2, Termination.COLOURS, seat_scores)
    return Outcome.by_score(seat_scores, Termination.COLOURS)


# --------------------------------------------------------------------------------------------- boards


def _parse_board(text: str, what: str) -> tuple[int, int, list[int]]:
    """(black, white, tiles) from a 64-character board; raises ValueError naming the first problem."""
    board = "".join(text.split())
    if len(board) != 64:
        raise ValueError(f"{what} must list 64 squares (a1, b1, ..., h8); this one has {len(board)}")
    for i, char in enumerate(board):
        if char not in _BOARD_ALPHABET:
            raise ValueError(
                f"{what} has {char!r} on {LABELS[i]}; use . empty, 1-5 a tile, B/W a stone, "
                f"YRCPN/yrcpn a Black/White stone on a tile"
            )
    black = white = 0
    tiles = [0, 0, 0, 0, 0]
    for i, char in enumerate(board):
        bit = 1 << i
        if char == "B":
            black |= bit
        elif char == "W":
            white |= bit
        elif char in _BOARD_TILE_CHARS:
            tiles[_BOARD_TILE_CHARS.index(char)] |= bit
        elif char in _BLACK_ON_TILE:
            black |= bit
            tiles[_BLACK_ON_TILE.index(char)] |= bit
        elif char in _WHITE_ON_TILE:
            white |= bit
            tiles[_WHITE_ON_TILE.index(char)] |= bit
    return black, white, tiles


def _board_text(black: int, white: int, tiles: Sequence[int]) -> str:
    chars = []
    for i in range(64):
        bit = 1 << i
        colour = _colour_at(tiles, i)
        if black & bit:
            chars.append("B" if colour is None else _BLACK_ON_TILE[colour])
        elif white & bit:
            chars.append("W" if colour is None else _WHITE_ON_TILE[colour])
        else:
            chars.append("." if colour is None else _BOARD_TILE_CHARS[colour])
    return "".join(chars)


def _check_material(black: int, white: int, tiles: Sequence[int], what: str) -> None:
    """The checks every board must pass: whole colours, no 6th stone, a permanent stone per player."""
    for k, t in enumerate(tiles):
        count = t.bit_count()
        if count not in (0, TILES_PER_COLOUR):
            raise ValueError(
                f"{what} has {count} {COLOUR_NAMES[k]} tiles; a colour has 12 tiles, or 0 once removed"
            )
        for colour, stones in ((0, black), (1, white)):
            if (stones & t).bit_count() >= COLLECT_AT:
                raise ValueError(
                    f"{what} has {COLLECT_AT} or more {STONE_NAMES[colour]} stones on {COLOUR_NAMES[k]}, "
                    f"which would already have been collected"
                )
    bare = FULL & ~_all_tiles(tiles)
    for colour, stones in ((0, black), (1, white)):
        if not stones & bare:
            raise ValueError(
                f"{what} needs at least one {STONE_NAMES[colour]} stone on a square without a tile"
            )


def _layout_state(layout: str, balance: bool) -> PaintscapeState:
    """The starting state of a custom layout (see the module docstring)."""
    what = "layout"
    try:
        black, white, tiles = _parse_board(layout, what)
        _check_material(black, white, tiles, what)
    except ValueError as error:
        raise InvalidOptions(*error.args) from None
    if sum(1 for t in tiles if t) < COLOURS_TO_WIN:
        raise InvalidOptions(Text("layout needs at least 3 colours of tiles, or nobody could collect three"))
    if balance and (black | white) & _all_tiles(tiles):
        raise InvalidOptions(
            Text("with balancing on, every stone in the layout must stand on a square without a tile")
        )
    return _start_state(black, white, tiles, balance)


def _random_state(seed: int, balance: bool) -> PaintscapeState:
    """A uniform shuffle of 2 Black stones, 2 White stones and 12 tiles of each colour over the 64 squares."""
    items = ["B", "B", "W", "W"] + [c for c in _BOARD_TILE_CHARS for _ in range(TILES_PER_COLOUR)]
    random.Random(seed).shuffle(items)
    black, white, tiles = _parse_board("".join(items), "start")
    return _start_state(black, white, tiles, balance)


def _start_state(black: int, white: int, tiles: Sequence[int], balance: bool) -> PaintscapeState:
    tiles5 = (tiles[0], tiles[1], tiles[2], tiles[3], tiles[4])
    nobody = (None, None, None, None, None)
    if balance:
        return PaintscapeState(
            black=black, white=white, tiles=tiles5, collected=nobody, phase=BALANCE, black_seat=None
        )
    return PaintscapeState(black=black, white=white, tiles=tiles5, collected=nobody, phase=PLAY, black_seat=0)


# --------------------------------------------------------------------------------------------- position text


def position_text(state: PaintscapeState) -> str:
    """The compact, round-tripping text of a position (format in the module docstring)."""
    collected = "".join(
        "." if t else ("x" if c is None else "BW"[c])
        for t, c in zip(state.tiles, state.collected, strict=True)
    )
    swapped = ",".join(LABELS[i] for i in bits_of(state.swapped)) or "-"
    black_seat = "-" if state.black_seat is None else str(state.black_seat)
    board = _board_text(state.black, state.white, state.tiles)
    return (
        f"{board} phase={state.phase} turn={_TURN_WORDS[state.turn]} black={black_seat}"
        f" collected={collected} swapped={swapped} ply={state.ply}"
    )


_FIELDS = ("phase", "turn", "black", "collected", "swapped", "ply")
MAX_POSITION_TEXT = 1000
"""Far longer than any position text (about 150 characters)."""
_TURN_WORDS = ("black", "white")


def from_position_text(text: str) -> PaintscapeState:
    """The state a `position_text` describes; raises ValueError naming the first problem."""
    parts = text.split()
    if len(parts) != 1 + len(_FIELDS):
        raise ValueError(f"a position is a 64-character board and the fields {', '.join(_FIELDS)}")
    black, white, tiles = _parse_board(parts[0], "position")
    fields: dict[str, str] = {}
    for part in parts[1:]:
        key, sep, value = part.partition("=")
        if not sep or key not in _FIELDS or key in fields:
            raise ValueError(f"position field {part!r} is not one of {', '.join(_FIELDS)} (each once)")
        fields[key] = value
    if fields["phase"] not in PHASES:
        raise ValueError(f"phase must be one of {', '.join(PHASES)}")
    phase = Phase(fields["phase"])
    if fields["turn"] not in _TURN_WORDS:
        raise ValueError("turn must be the colour to move: black or white")
    turn = _TURN_WORDS.index(fields["turn"])
    if fields["black"] not in ("0", "1", "-"):
        raise ValueError("black must be the seat playing Black (0 or 1), or - before it is chosen")
    black_seat = None if fields["black"] == "-" else int(fields["black"])
    ply_text = fields["ply"]
    if not (ply_text.isascii() and ply_text.isdigit() and len(ply_text) <= 3 and int(ply_text) <= MAX_PLY):
        raise ValueError(f"ply must be a whole number from 0 to {MAX_PLY}")
    ply = int(ply_text)
    marks = fields["collected"]
    if len(marks) != 5 or any(m not in ".BWx" for m in marks):
        raise ValueError(
            "collected must be 5 characters, one per colour: . in play, B or W collected, x left out"
        )
    collected_list: list[int | None] = []
    for k, mark in enumerate(marks):
        if (mark == ".") != bool(tiles[k]):
            state_word = "is in play" if tiles[k] else "has no tiles"
            raise ValueError(f"{COLOUR_NAMES[k]} {state_word}, so its collected mark cannot be {mark!r}")
        collected_list.append("BW".index(mark) if mark in "BW" else None)
    swapped = 0
    if fields["swapped"] != "-":
        for label in fields["swapped"].split(","):
            swapped |= 1 << GRID.parse(label)
    _check_material(black, white, tiles, "position")
    _check_phase(black, white, tiles, collected_list, phase, black_seat, turn, swapped, ply)
    if phase == PLAY:
        _check_plies_left(black, white, tiles, turn, ply)
    collected = (
        collected_list[0],
        collected_list[1],
        collected_list[2],
        collected_list[3],
        collected_list[4],
    )
    tiles5 = (tiles[0], tiles[1], tiles[2], tiles[3], tiles[4])
    return PaintscapeState(
        black=black,
        white=white,
        tiles=tiles5,
        collected=collected,
        phase=phase,
        black_seat=black_seat,
        ply=ply,
        turn=turn,
        swapped=swapped,
    )


def _check_plies_left(black: int, white: int, tiles: Sequence[int], turn: int, ply: int) -> None:
    """In play, every placement fills a square without a stone, and a collection frees at most the 12 squares
    of the tiles it removes: so `free + tiled` (squares without a stone, tiles in play) drops by at least one
    a placement, and a pass (only when the mover has no placement) is followed by a placement. Hence
    `ply + 2 * (free + tiled) + (1 if the mover must pass)` never grows along a game: at most 254 when play
    starts, and a position over `MAX_PLY` can never be reached. Refusing one keeps every position reached
    from a loaded one loadable (its ply stays within `MAX_PLY`)."""
    stones = black | white
    free = (FULL & ~stones).bit_count()
    tiled = _all_tiles(tiles).bit_count()
    mine = white if turn else black
    must_pass = not (_around(mine) & ~stones)
    if ply + 2 * (free + tiled) + must_pass > MAX_PLY:
        raise ValueError(
            f"ply {ply} is more than a game can reach with {free} squares without a stone and {tiled} tiles"
            " in play"
        )


def _check_phase(
    black: int,
    white: int,
    tiles: Sequence[int],
    collected: Sequence[int | None],
    phase: Phase,
    black_seat: int | None,
    turn: int,
    swapped: int,
    ply: int,
) -> None:
    """The checks that tie the board to the phase and the bookkeeping fields (module docstring)."""
    stones = black | white
    bare = FULL & ~_all_tiles(tiles)
    swaps = swapped.bit_count()
    if swapped & ~(stones & bare):
        raise ValueError("swapped squares must hold stones on squares without a tile")
    if swaps > MAX_SWAPS:
        raise ValueError("at most 4 stones can have been swapped")
    if sum(1 for t, c in zip(tiles, collected, strict=True) if t or c is not None) < COLOURS_TO_WIN:
        raise ValueError("a game is dealt at least 3 colours of tiles (in play or collected)")
    balanced = swaps + (1 if swaps < MAX_SWAPS else 0)  # the plies of a balancing phase with these swaps
    if phase == BALANCE and ply != swaps:
        raise ValueError(f"while balancing, ply counts the swaps: {swaps}, not {ply}")
    if phase == CHOOSE and ply != balanced:
        raise ValueError(f"after {swaps} swaps and done the chooser moves at ply {balanced}, not {ply}")
    if phase in (PLAY, OVER) and swaps and ply <= balanced:
        raise ValueError(f"after {swaps} swaps, done and the choice, play starts at ply {balanced + 1}")
    if phase in (BALANCE, CHOOSE):
        if black_seat is not None:
            raise ValueError("black must be - until the chooser has chosen")
        if turn != 0:
            raise ValueError("Black moves first once play starts, so turn is black before play")
        if stones & ~bare:
            raise ValueError("before play starts every stone stands on a square without a tile")
        if any(c is not None for c in collected):
            raise ValueError("no colour can be collected before play starts")
        if phase == BALANCE and swapped.bit_count() >= MAX_SWAPS:
            raise ValueError("the balancing phase ends after the 4th swap")
        if sum(1 for t in tiles if t) < COLOURS_TO_WIN:
            raise ValueError("a game needs at least 3 colours of tiles")
        return
    if black_seat is None:
        raise ValueError("black must name the seat playing Black once play has started")
    scores = (list(collected).count(0), list(collected).count(1))
    finished = max(scores) >= COLOURS_TO_WIN or _no_colour_left(tiles)
    if phase == PLAY and finished:
        raise ValueError("the game is over in this position, so phase must be over")
    if phase == OVER and not finished:
        raise ValueError("nobody has won in this position, so phase cannot be over")
    if min(scores) >= COLOURS_TO_WIN:
        raise ValueError("only one player can collect three colours")
    if phase == OVER:
        last = turn ^ 1  # the colour whose collection ended the game; turn names the one that would be next
        if not scores[last] or (max(scores) >= COLOURS_TO_WIN and scores[last] < COLOURS_TO_WIN):
            raise ValueError(
                f"the game ends on a collection by the colour that moved last ({STONE_NAMES[last]}, "
                f"as turn is {_TURN_WORDS[turn]}), and {STONE_NAMES[last]} has not won this way"
            )


# --------------------------------------------------------------------------------------------- the rules


class PaintscapeRules(Rules[PaintscapeState, Move]):
    """The Paintscape rules (RULES.md section 1) behind the `Rules` contract of games/base.py."""

    id: ClassVar[str] = "paintscape"
    name: ClassVar[str] = "Paintscape"
    seats: ClassVar[range] = range(2, 3)
    can_draw: ClassVar[bool] = False  # the play phase always ends with a winner (RULES.md 1)
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "balance",
            True,
            N_("Balancing phase: seat 0 swaps up to 4 stones with tiles, then seat 1 picks Black or White"),
        ),
        Option(
            "layout",
            "",
            N_(
                "A fixed start instead of a random one: 64 characters for a1, b1, ..., h8 "
                "(B/W a stone, 1-5 a tile, . empty)"
            ),
        ),
    )
    clock_presets: ClassVar[tuple[tuple[int, int], ...]] = ((180, 2), (300, 3), (600, 5))
    """Live presets for its length (base seconds, increment)."""
    first_seat: ClassVar[SeatChoice] = SeatChoice(
        "balancer",
        N_(
            "Who balances the start (swaps stones) while the other picks a colour; without balancing, who "
            "plays Black"
        ),
        proposal=True,
    )
    summary: ClassVar[str] = N_(
        "**Paintscape** (Michael Amundsen, 2022). An 8×8 board starts with 60 tiles, 12 in each of five "
        "colours (yellow, red, cyan, pink, brown), and 2 Black and 2 White stones, one item per square, "
        "dealt at random.\n"
        "**Balancing** (option `balance`, on by default): the Balancer swaps 0 to 4 stones, each at most "
        "once, with any tile (`swap c3 f6`: the stone on c3 and the tile on f6 trade places), then says "
        "`done` (automatic after the 4th swap). The Chooser then answers `black` (move first) or `white`.\n"
        "**Play**: on your turn place one stone of your colour on a square orthogonally next to one of your "
        "stones that holds no stone: an empty square or a bare tile (`d4`). When your placement gives you "
        "6 stones on tiles of one colour (half of them), all 12 tiles of that colour leave the board with "
        "every stone on them, of both players, and you collect that colour. Collect 3 colours and you win "
        "at once; there are no draws. The starting stones stand on bare squares, so they always stay.\n"
        "If you have no placement, you pass automatically (`pass`); this never happens to both players.\n"
        "*Our proposals, where the sources are silent:* the notation; automatic passes; who balances "
        "(or, without balancing, who plays Black) is drawn at random when the match starts; a custom "
        "`layout` may leave colours out; if no colour is left and nobody has 3, more colours wins "
        "(equal: a draw)."
    )

    # ----------------------------------------------------------------------------- start

    def new(self, seats: int, options: Mapping[str, Any], seed: int) -> PaintscapeState:
        """A random start from `seed`, or the `layout` option's start; balancing first unless turned off."""
        if type(seats) is not int or seats != 2:
            raise InvalidOptions(Text("Paintscape is a game for exactly 2 players"))
        resolved = resolve_options(self.options, options)
        balance = bool(resolved["balance"])
        layout = str(resolved["layout"])
        if layout.strip():
            return _layout_state(layout, balance)
        return _random_state(seed, balance)

    # ----------------------------------------------------------------------------- queries

    def to_move(self, state: PaintscapeState) -> Seat | None:
        phase = state.phase
        if phase == PLAY:
            return state.turn ^ (state.black_seat or 0)
        if phase == BALANCE:
            return 0
        return 1 if phase == CHOOSE else None

    def legal_moves(self, state: PaintscapeState) -> list[Move]:
        """Play: the target squares, lowest first, or [PASS] when there are none. Setup: swaps and done, or
        the two choices. Over: nothing."""
        phase = state.phase
        if phase == PLAY:
            black, white = state.black, state.white
            mine = white if state.turn else black
            # `_around(mine)` written out: this is the hot path of every playout through the contract.
            targets = (
                ((mine << 8) & FULL) | (mine >> 8) | ((mine & _NOT_FILE_H) << 1) | ((mine & _NOT_FILE_A) >> 1)
            ) & ~(black | white)
            if not targets:
                return [PASS]
            # `bits_of(targets)` with `Place` values: the same byte tables, holding the placements.
            moves: list[Move] = []
            for j, byte in enumerate(targets.to_bytes(8, "little")):
                if byte:
                    moves += _PLACE_TABLES[j][byte]
            return moves
        if phase == BALANCE:
            stones = bits_of((state.black | state.white) & ~state.swapped)
            tile_squares = bits_of(_all_tiles(state.tiles) & ~(state.black | state.white))
            swaps: list[Move] = [Swap(s, t) for s in stones for t in tile_squares]
            swaps.append(DONE)
            return swaps
        if phase == CHOOSE:
            return [PLAY_BLACK, PLAY_WHITE]
        return []

    def targets(self, state: PaintscapeState) -> int:
        """Bitboard of the squares the player to move may place on (0 outside the play phase)."""
        colour = colour_to_move(state)
        if colour is None:
            return 0
        mine = state.white if colour else state.black
        return _around(mine) & ~(state.black | state.white)

    def outcome(self, state: PaintscapeState) -> Outcome | None:
        if state.phase != OVER:
            return None
        return _outcome_of(state)

    def forced_move(self, state: PaintscapeState) -> Move | None:
        """`pass` when the player to move has no placement; otherwise the player chooses."""
        if state.phase == PLAY and not self.targets(state):
            return PASS
        return None

    def word_moves(self, state: PaintscapeState) -> tuple[WordMove, ...]:
        """Balancing: `done`; choosing: `black` and `white`. A pass in play is automatic: never a button."""
        if state.phase == BALANCE:
            return (WordMove("done", Text("Done swapping"), main=True),)
        if state.phase == CHOOSE:
            return (
                WordMove("black", Text("Play Black (first)")),
                WordMove("white", Text("Play White (second)")),
            )
        return ()

    def pass_move(self, state: PaintscapeState) -> Move | None:
        """Only the balancer may pass, and then a pass means `done`; a pass in play is forced, not chosen."""
        return DONE if state.phase == BALANCE else None

    def timeout_move(self, state: PaintscapeState) -> Move | None:
        """A player out of time loses (RULES 1: timeouts are a host feature)."""
        return None

    def resign(self, state: PaintscapeState, seat: Seat) -> PaintscapeState | None:
        """Resigning ends the game: the other player wins."""
        return None

    def moves_played(self, state: PaintscapeState) -> int:
        """Every ply is a move: swaps, done, the choice and passes (a resignation is never logged)."""
        return state.ply

    def seat_label(self, state: PaintscapeState, seat: Seat) -> str:
        """The role: Balancer (seat 0) or Chooser (seat 1) until colours are chosen, then Black or White."""
        if state.black_seat is None:
            return Text("Balancer") if seat == 0 else Text("Chooser")
        return Text("Black") if seat == state.black_seat else Text("White")

    # ----------------------------------------------------------------------------- apply

    def apply(self, state: PaintscapeState, move: Move) -> PaintscapeState:
        """The position after `move`. Raises IllegalMove (with the reason) or GameOver."""
        if state.phase == PLAY and type(move) is Place:
            square = move.square
            black, white, turn = state.black, state.white, state.turn
            bit = 1 << square
            mine = white if turn else black
            if (black | white) & bit or not _NEIGHBOURS[square] & mine:
                raise IllegalMove(self._placement_problem(state, square))
            mine |= bit
            tiles = state.tiles
            for colour_tiles in tiles:
                if colour_tiles & bit:
                    if (mine & colour_tiles).bit_count() == COLLECT_AT:
                        # The colours' tiles are disjoint, so a tile mask names its colour.
                        return self._collect(state, mine, tiles.index(colour_tiles))
                    break
            # The hot path: only the mover's stones, the ply and the turn change (see `_pack`).
            if turn:
                white = mine
            else:
                black = mine
            return _pack(
                black,
                white,
                tiles,
                state.collected,
                state.phase,
                state.black_seat,
                state.ply + 1,
                turn ^ 1,
                state.swapped,
            )
        return self._apply_other(state, move)

    def _collect(self, state: PaintscapeState, mine: int, k: int) -> PaintscapeState:
        """The mover's 6th stone on colour k: its 12 tiles go, with every stone on them; the mover scores."""
        colour = state.turn
        removed = state.tiles[k]
        black, white = (state.black, mine) if colour else (mine, state.white)
        black &= ~removed
        white &= ~removed
        new_tiles = list(state.tiles)
        new_tiles[k] = 0
        new_collected = list(state.collected)
        new_collected[k] = colour
        over = new_collected.count(colour) >= COLOURS_TO_WIN or _no_colour_left(new_tiles)
        # A collection happens about once in nine placements of a random game: packed like a placement
        # (see `_pack`), not by `dataclasses.replace`, which would cost a random playout a few per cent.
        return _pack(
            black,
            white,
            (new_tiles[0], new_tiles[1], new_tiles[2], new_tiles[3], new_tiles[4]),
            (new_collected[0], new_collected[1], new_collected[2], new_collected[3], new_collected[4]),
            OVER if over else PLAY,
            state.black_seat,
            state.ply + 1,
            colour ^ 1,
            state.swapped,
        )

    def _apply_other(self, state: PaintscapeState, move: Move) -> PaintscapeState:
        """Every move but a legal placement: passes, swaps, done, the choice, and the errors."""
        if state.phase == OVER:
            raise GameOver(Text("the game is over; start a new one with {/play}"))
        if type(move) not in _MOVE_TYPES:
            raise IllegalMove(Text("{move!r} is not a Paintscape move", move=move))
        if state.phase == PLAY:
            if move == PASS:
                if self.targets(state):
                    raise IllegalMove(
                        Text("you have a placement, so you cannot pass; place next to one of your stones")
                    )
                after = replace(state, ply=state.ply + 1, turn=state.turn ^ 1)
                assert self.targets(after), "two consecutive passes cannot happen in Paintscape"
                return after
            if type(move) is Place:
                raise IllegalMove(self._placement_problem(state, move.square))
            raise IllegalMove(Text("it is the play phase: place a stone next to one of yours, like d4"))
        if state.phase == BALANCE:
            if move == DONE:
                return replace(state, phase=CHOOSE, ply=state.ply + 1)
            if type(move) is Swap:
                stone, tile = move.stone, move.tile
                problem = self._swap_problem(state, stone, tile)
                if problem:
                    raise IllegalMove(problem)
                return self._swap(state, stone, tile)
            raise IllegalMove(Text("it is the balancing phase: swap, or done"))
        # CHOOSE
        if move in (PLAY_BLACK, PLAY_WHITE):
            black_seat = 1 if move == PLAY_BLACK else 0
            return replace(state, phase=PLAY, black_seat=black_seat, ply=state.ply + 1, turn=0)
        raise IllegalMove(Text("the chooser picks a colour: black (play first) or white (play second)"))

    @staticmethod
    def _swap(state: PaintscapeState, stone: int, tile: int) -> PaintscapeState:
        """The stone on `stone` and the tile on `tile` trade places; the stone's new square is remembered."""
        stone_bit, tile_bit = 1 << stone, 1 << tile
        black, white = state.black, state.white
        if black & stone_bit:
            black = black & ~stone_bit | tile_bit
        else:
            white = white & ~stone_bit | tile_bit
        tiles = tuple(t & ~tile_bit | stone_bit if t & tile_bit else t for t in state.tiles)
        swapped = state.swapped | tile_bit
        phase = CHOOSE if swapped.bit_count() >= MAX_SWAPS else BALANCE
        return replace(
            state,
            black=black,
            white=white,
            tiles=(tiles[0], tiles[1], tiles[2], tiles[3], tiles[4]),
            phase=phase,
            ply=state.ply + 1,
            swapped=swapped,
        )

    def _placement_problem(self, state: PaintscapeState, square: int) -> str:
        """Why a placement on `square` is not legal here, in a player's words."""
        label = LABELS[square]
        bit = 1 << square
        if (state.black | state.white) & bit:
            return Text(
                "{label} holds a stone; place on an empty square or a tile next to one of your stones",
                label=label,
            )
        if not self.targets(state):
            return Text("you have no placement this turn, so you pass")
        return Text("{label} is not next to any of your stones (diagonals do not count)", label=label)

    @staticmethod
    def _swap_problem(state: PaintscapeState, stone: int, tile: int) -> str | None:
        """Why swapping the stone on `stone` with the tile on `tile` is not legal, or None if it is."""
        stones = state.black | state.white
        stone_bit, tile_bit = 1 << stone, 1 << tile
        if not stones & stone_bit:
            return Text(
                "{square} holds no stone; swap a stone with a tile, like swap c3 f6", square=LABELS[stone]
            )
        if state.swapped & stone_bit:
            return Text(
                "the stone on {square} has already been swapped; each stone moves only once",
                square=LABELS[stone],
            )
        if stones & tile_bit:
            return Text("{square} holds a stone, not a tile", square=LABELS[tile])
        if not _all_tiles(state.tiles) & tile_bit:
            return Text("{square} is empty, not a tile", square=LABELS[tile])
        return None

    # ----------------------------------------------------------------------------- text

    def parse(self, state: PaintscapeState, text: str) -> Move:
        """A player's text (any case, extra spaces ignored) to a legal move; errors say what to do instead."""
        text = move_text(text)
        if state.phase == OVER:
            raise GameOver(Text("the game is over; start a new one with {/play}"))
        words = text.lower().split()
        if not words:
            raise InvalidMove(Text("type a move: {hint}", hint=self._hint(state)))
        verb = words[0]
        if verb == "swap":
            if len(words) == 2 and "-" in words[1]:
                words = ["swap", *words[1].split("-", 1)]
            if len(words) != 3:
                raise InvalidMove(
                    Text("a swap names two squares: swap c3 f6 (the stone on c3, the tile on f6)")
                )
            stone, tile = self._square(words[1]), self._square(words[2])
            if state.phase != BALANCE:
                raise IllegalMove(
                    Text("swaps belong to the balancing phase; now {hint}", hint=self._hint(state))
                )
            problem = self._swap_problem(state, stone, tile)
            if problem:
                raise IllegalMove(problem)
            return Swap(stone, tile)
        if len(words) != 1:
            raise InvalidMove(
                Text("{text!r} is not a move; {hint}", text=text.strip(), hint=self._hint(state))
            )
        if verb in ("done", "pass", "black", "white", "first", "second"):
            return self._parse_word(state, verb)
        square = self._square(verb)
        if state.phase == BALANCE:
            raise IllegalMove(Text("it is the balancing phase: swap, or done"))
        if state.phase == CHOOSE:
            raise IllegalMove(
                Text("the chooser picks a colour first: black (play first) or white (play second)")
            )
        if not self.targets(state) >> square & 1:
            raise IllegalMove(self._placement_problem(state, square))
        return PLACES[square]

    def _parse_word(self, state: PaintscapeState, word: str) -> Word:
        phase = state.phase
        if phase == BALANCE:
            if word in ("done", "pass"):
                return DONE
            raise IllegalMove(Text("it is the balancing phase: swap, or done"))
        if phase == CHOOSE:
            if word in ("black", "first"):
                return PLAY_BLACK
            if word in ("white", "second"):
                return PLAY_WHITE
            raise IllegalMove(Text("the chooser picks a colour: black (play first) or white (play second)"))
        if word == "pass":
            if self.targets(state):
                raise IllegalMove(
                    Text("you have a placement, so you cannot pass; place next to one of your stones")
                )
            return PASS
        raise IllegalMove(
            Text("{word} belongs to the balancing phase; now {hint}", word=word, hint=self._hint(state))
        )

    @staticmethod
    def _square(word: str) -> int:
        try:
            return GRID.parse(word)
        except ValueError as error:
            raise InvalidMove(*error.args) from None

    def _hint(self, state: PaintscapeState) -> str:
        if state.phase == BALANCE:
            return Text("swap a stone with a tile (swap c3 f6), or done")
        if state.phase == CHOOSE:
            return Text("black (play first) or white (play second)")
        if not self.targets(state):
            return Text("pass (you have no placement)")
        return Text("place a stone next to one of yours, like d4")

    def click_move(self, state: PaintscapeState, move: Move) -> ClickMove | None:
        """A placement is its square; a swap is its stone, then the tile it swaps with; the words (done,
        black, white, pass) are not played on the board."""
        if type(move) is Place:
            return ClickMove(self.notation(state, move), (move.square,))
        if type(move) is Swap:
            return ClickMove(self.notation(state, move), (move.stone, move.tile))
        return None

    def notation(self, state: PaintscapeState, move: Move) -> str:
        """`d4`, `swap c3 f6`, or the word: what `parse` reads back as the same move."""
        if type(move) is Place:
            return LABELS[move.square]
        if type(move) is Swap:
            return f"swap {LABELS[move.stone]} {LABELS[move.tile]}"
        if type(move) is Word:
            return move.value
        raise IllegalMove(Text("{move!r} is not a Paintscape move", move=move))

    def describe(self, state: PaintscapeState, move: Move) -> str:
        """The move in words, from the position before it."""
        seat = self.to_move(state)
        seat_name = self.seat_label(state, seat if seat is not None else 0)
        if type(move) is Place:
            colour = colour_to_move(state)
            after = self.apply(state, move)
            gained = [k for k in range(5) if after.collected[k] != state.collected[k]]
            if gained and colour is not None:
                total = after.collected.count(colour)
                return Text.ngettext(
                    "{seat_name} {square} and collects {colour} ({count} colour)",
                    "{seat_name} {square} and collects {colour} ({count} colours)",
                    total,
                    seat_name=seat_name,
                    square=LABELS[move.square],
                    colour=COLOUR_NAMES[gained[0]],
                    count=total,
                )
            return Text("{seat_name} {square}", seat_name=seat_name, square=LABELS[move.square])
        if move == PASS:
            return Text("{seat_name} has no placement and passes", seat_name=seat_name)
        if type(move) is Swap:
            stone, tile = move.stone, move.tile
            colour_index = _colour_at(state.tiles, tile)
            tile_name = COLOUR_NAMES[colour_index] if colour_index is not None else Text("missing")
            return Text(
                "{seat_name} swaps the stone on {stone} with the {colour} tile on {tile}",
                seat_name=seat_name,
                stone=LABELS[stone],
                colour=tile_name,
                tile=LABELS[tile],
            )
        if move == DONE:
            count = state.swapped.bit_count()
            return Text.ngettext(
                "{seat_name} is done swapping ({count} swap)",
                "{seat_name} is done swapping ({count} swaps)",
                count,
                seat_name=seat_name,
                count=count,
            )
        if move == PLAY_BLACK:
            return Text("{seat_name} plays Black (first)", seat_name=seat_name)
        if move == PLAY_WHITE:
            return Text("{seat_name} plays White (second)", seat_name=seat_name)
        raise IllegalMove(Text("{move!r} is not a Paintscape move", move=move))

    def position_text(self, state: PaintscapeState) -> str:
        return position_text(state)

    def dump(self, state: PaintscapeState) -> dict[str, Any]:
        """{"position": position_text(state)}: JSON-safe and readable."""
        return {"position": position_text(state)}

    def load(self, data: Mapping[str, Any]) -> PaintscapeState:
        """The state `dump` wrote: {"position": <position text>}, checked as `from_position_text` does.
        Raises InvalidSnapshot (a ValueError) naming the first problem."""
        snapshot = Snapshot(data, "Paintscape snapshot", ("position",))
        text = snapshot.text("position", MAX_POSITION_TEXT)
        try:
            return from_position_text(text)
        except ValueError as error:
            raise snapshot.invalid(f"position: {error}") from None


RULES = PaintscapeRules()

if TYPE_CHECKING:
    _CONFORMS: Rules[PaintscapeState, Move] = RULES  # mypy: the singleton implements the whole contract


# --------------------------------------------------------------------------------------------- fast path


def fast_playout(state: PaintscapeState, rng: random.Random) -> int:
    """Play uniformly random legal moves from a play-phase state to the end; the winning seat (-1: a draw,
    possible only after a layout that left colours out).

    The same rules as `Paintscape.apply`, with bitboards in locals. Each placement is the k-th lowest target
    square with k = int(rng.random() * number of targets); a forced pass draws no random number. A playout
    through the contract that picks `moves[int(rng.random() * len(moves))]` and plays forced passes without
    drawing therefore plays the very same game.
    """
    if state.phase == OVER:
        return _outcome_winner(_outcome_of(state))
    if state.phase != PLAY or state.black_seat is None:
        raise ValueError("fast_playout starts from the play phase")
    black, white = state.black, state.white
    tiles = list(state.tiles)
    collected = list(state.collected)
    scores = [collected.count(0), collected.count(1)]
    in_play = sum(1 for t in tiles if t)
    colour = state.turn
    colour_of = [-1] * 64
    for k, t in enumerate(tiles):
        for square in bits_of(t):
            colour_of[square] = k
    random_float = rng.random
    not_a, not_h, full = _NOT_FILE_A, _NOT_FILE_H, FULL
    passed = False
    while True:
        mine = white if colour else black
        targets = (((mine << 8) & full) | (mine >> 8) | ((mine & not_h) << 1) | ((mine & not_a) >> 1)) & ~(
            black | white
        )
        if not targets:
            if passed:
                raise AssertionError("two consecutive passes cannot happen in Paintscape")
            passed = True
            colour ^= 1
            continue
        passed = False
        pick = int(random_float() * targets.bit_count())
        for _ in range(pick):
            targets &= targets - 1
        bit = targets & -targets
        mine |= bit
        k = colour_of[bit.bit_length() - 1]
        if k >= 0 and (mine & tiles[k]).bit_count() == COLLECT_AT:
            removed = tiles[k]
            tiles[k] = 0
            in_play -= 1
            for square in bits_of(removed):
                colour_of[square] = -1
            mine &= ~removed
            if colour:
                white = mine
                black &= ~removed
            else:
                black = mine
                white &= ~removed
            scores[colour] += 1
            if scores[colour] >= COLOURS_TO_WIN:
                return colour ^ state.black_seat
            if not in_play:
                if scores[0] == scores[1]:
                    return -1
                return (0 if scores[0] > scores[1] else 1) ^ state.black_seat
        elif colour:
            white = mine
        else:
            black = mine
        colour ^= 1


def _outcome_winner(outcome: Outcome) -> int:
    return outcome.winners[0] if outcome.winners else -1
