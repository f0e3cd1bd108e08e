"""TilingKing's values: the position (`TilingState`, frozen, built by keyword), its resolved options
(`Settings`), a piece on the board (`Placed`) and a move (`Move`), and the constants the rules, the snapshot
loader (games.tilingking.loading) and the AI share. No rules here: games.tilingking.rules plays them.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.base import Seat, Termination
from games.caches import cache_field, remember
from games.grids import bits_of
from games.texts import Text
from games.tilingking.boards import Board
from games.tilingking.pieces import pieces

SEATS = range(2, 5)
"""2 to 4 players."""
RULESETS = ("tilingking", "tilehoard")
"""The `ruleset` option's values."""
COLOURS: tuple[str, ...] = (Text("Red"), Text("Blue"), Text("Green"), Text("Yellow"))
"""Colour names by colour index; seat s starts with colour s (the pie swap exchanges them)."""

PLACE, PASS, PASSALL, RESIGN, SWAP = "place", "pass", "passall", "resign", "swap"
MAX_COPIES = 20
"""The most copies of the piece set a player can have (the option's limit; the default is at most 5)."""
MAX_PLY = 1_000_000
"""A sanity bound on a stored ply count, far beyond any game."""
TILE_HOARD = ("single_piece_capture", "protect_capturing_pieces", "only_unowned", "swap")
"""The options the `tilehoard` ruleset switches on unless they are given explicitly."""


# --------------------------------------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class Move:
    """One move: `action` is place, pass, passall, resign or swap; a placement names its piece id and its
    cells as a bitmask over the board's cell indices."""

    action: str
    piece: str = ""
    mask: int = 0

    @property
    def cells(self) -> tuple[int, ...]:
        """The cell indices of a placement, lowest first."""
        return tuple(bits_of(self.mask))


PASS_MOVE = Move(PASS)
PASSALL_MOVE = Move(PASSALL)
RESIGN_MOVE = Move(RESIGN)

TIMEOUT_PASSALL, TIMEOUT_RESIGN = "passall", "resign"
TIMEOUTS = (TIMEOUT_PASSALL, TIMEOUT_RESIGN)
"""The `timeout` option: what running out of time does (the rule: pass all; our proposal: resign)."""
SWAP_MOVE = Move(SWAP)


@dataclass(frozen=True, slots=True, kw_only=True)
class Placed:
    """A piece on the board: its owner seat, piece id, cell indices, the ply it was placed on, the same cells
    as a bitmask, and whether it has taken part in a capture (for `protect_capturing_pieces`)."""

    owner: Seat
    piece: str
    cells: tuple[int, ...]
    ply: int
    mask: int
    capturer: bool = False


@dataclass(frozen=True, slots=True)
class Settings:
    """The resolved match options (see `TilingKingRules.options`)."""

    board: str = "sq9"
    copies: int = 1
    reflections: bool = True
    half_cap: bool = True
    ruleset: str = "tilingking"
    single_piece_capture: bool = False
    protect_capturing_pieces: bool = False
    only_unowned: bool = False
    swap: bool = False
    end_when_stuck: bool = True
    timeout: str = "passall"


@dataclass(frozen=True, slots=True, kw_only=True)
class TilingState:
    """A TilingKing position (frozen, hashable). See the package docstring for the fields others use.

    `turn` is the seat to move (meaningless once `ended` is set); `passed` is the bitmask of seats that have
    passed since the last placement or swap; `started` the bitmask of seats that have had a turn (for the
    pie swap); `colours[s]` is seat s's colour index in `COLOURS`.
    """

    board: Board
    settings: Settings
    supplies: tuple[tuple[int, ...], ...]
    territory_masks: tuple[int, ...]
    passall: tuple[bool, ...]
    resigned: tuple[bool, ...]
    colours: tuple[int, ...]
    placed: tuple[Placed, ...] = ()
    turn: Seat = 0
    ply: int = 0
    passed: int = 0
    started: int = 0
    ended: Termination | None = None
    # Hidden caches (games.caches), derived from the fields above on first use.
    _territory: tuple[Seat | None, ...] | None = cache_field()
    _covered_masks: tuple[int, ...] | None = cache_field()
    _blocked: tuple[int, ...] | None = cache_field()
    _must_pass: bool | None = cache_field()

    @property
    def seats(self) -> int:
        return len(self.supplies)

    @property
    def territory(self) -> tuple[Seat | None, ...]:
        """Per cell index, the seat owning it as territory, or None."""
        owners = self._territory
        if owners is None:
            found: list[Seat | None] = [None] * self.board.size
            for seat, mask in enumerate(self.territory_masks):
                for i in bits_of(mask):
                    found[i] = seat
            owners = remember(self, "_territory", tuple(found))
        return owners

    @property
    def covered_masks(self) -> tuple[int, ...]:
        """Per seat, the cells its pieces cover."""
        masks = self._covered_masks
        if masks is None:
            found = [0] * self.seats
            for piece in self.placed:
                found[piece.owner] |= piece.mask
            masks = remember(self, "_covered_masks", tuple(found))
        return masks

    @property
    def covered(self) -> int:
        """Every covered cell."""
        out = 0
        for mask in self.covered_masks:
            out |= mask
        return out


def supply(state: TilingState, seat: Seat) -> dict[str, int]:
    """The pieces seat `seat` still has to place: piece id -> count, in set order."""
    return {p.id: n for p, n in zip(pieces(state.board.kind), state.supplies[seat], strict=True)}


def scores(state: TilingState) -> tuple[int, ...]:
    """Per seat: cells covered by its pieces or owned as its territory, each cell once (RULES 3.8)."""
    return tuple(
        (covered | territory).bit_count()
        for covered, territory in zip(state.covered_masks, state.territory_masks, strict=True)
    )


__all__ = [
    "COLOURS",
    "MAX_COPIES",
    "MAX_PLY",
    "RULESETS",
    "SEATS",
    "Move",
    "Placed",
    "Settings",
    "TilingState",
    "scores",
    "supply",
]
