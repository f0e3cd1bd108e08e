"""TilingKing (RULES.md section 3): placement, captures by rings, passes, resignation, the Tile Hoard options.

Everything is bitmasks over the board's cell indices (bit i = cell i). Placements are precomputed per board
(`Board.placements`), so listing the legal ones is one `mask & blocked == 0` test each, and captures are
flood fills over the vertex-neighbour masks, started only next to the new piece.

The values (state, settings, moves) live in games.tilingking.state, the snapshot format and the invariants
of every reachable position, which `RULES.load` checks, in games.tilingking.loading.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from functools import cache
from typing import Any, ClassVar

from games.base import (
    FIRST_SEAT,
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
from games.caches import remember
from games.grids import bits_of
from games.texts import N_, Text
from games.tilingking.boards import PRESETS, Board, board, custom_id
from games.tilingking.loading import check_invariants, dump_state, load_state
from games.tilingking.pieces import MAX_SIZE, Piece, default_copies, piece_index, pieces
from games.tilingking.state import (
    COLOURS,
    MAX_COPIES,
    PASS,
    PASS_MOVE,
    PASSALL,
    PASSALL_MOVE,
    PLACE,
    RESIGN,
    RESIGN_MOVE,
    RULESETS,
    SEATS,
    SWAP,
    SWAP_MOVE,
    TILE_HOARD,
    TIMEOUT_PASSALL,
    TIMEOUT_RESIGN,
    Move,
    Placed,
    Settings,
    TilingState,
    scores,
    supply,
)

PASSES = Termination(
    "passes",
    N_("score after a full round of passes"),
    win=N_("{winner} wins on score"),
    shared=N_("{winners} share first place on score"),
    draw=N_("Draw on score"),
)
"""TilingKing's own way to end: a full round of passes, scores compared (`Termination.PASSES`)."""

# --------------------------------------------------------------------------------------------- tables


@cache
def _placement_moves(board_: Board, reflections: bool) -> tuple[tuple[Move, ...], ...]:
    """Per piece, a Move for every placement on the board (built once per board and option)."""
    ids = [p.id for p in pieces(board_.kind)]
    return tuple(
        tuple(Move(PLACE, ids[p], mask) for mask in masks)
        for p, masks in enumerate(board_.placements(reflections))
    )


@cache
def _notation_cache(board_: Board) -> dict[int, str]:
    return {}


def cell_list(board_: Board, mask: int) -> str:
    """The canonical written form of a set of cells: labels in notation order, "c3 c4 c5 d4"."""
    texts = _notation_cache(board_)
    text = texts.get(mask)
    if text is None:
        rank = board_.notation_rank
        text = " ".join(board_.labels[i] for i in sorted(bits_of(mask), key=rank.__getitem__))
        texts[mask] = text
    return text


def _flood(board_: Board, seed: int, allowed: int) -> int:
    """The cells of `allowed` connected to `seed` under vertex adjacency."""
    region = frontier = seed
    masks = board_.vertex_masks
    while frontier:
        grown = 0
        while frontier:
            low = frontier & -frontier
            grown |= masks[low.bit_length() - 1]
            frontier ^= low
        frontier = grown & allowed & ~region
        region |= frontier
    return region


# --------------------------------------------------------------------------------------------- rules


_SHORT_AT = re.compile(r"^([a-z0-9]+)\s*@\s*([a-z]+[0-9]+)(?:\s*r([0-9]+)|\s+([0-9]+))?(?:\s*(m))?$")
_SHORT_SPACED = re.compile(r"^([a-z0-9]+)\s+([a-z]+[0-9]+)\s+r([0-9]+)()(?:\s+(m))?$")

_SUMMARY = N_("""\
**TilingKing**: 2 to 4 players take turns placing one of their pieces (polyominoes, polyhexes or \
polyiamonds, turned or flipped) on free cells. A piece may not cover neutral (black) cells, other pieces or \
an opponent's territory. Close a ring of your pieces (neutral cells help, the board edge does not; pieces \
join only along full edges) around an area holding at most one piece of each opponent: you capture it, the \
enclosed pieces go back to their owners, and the area is your territory for good. Instead of placing you may \
`pass`, `passall` (pass for the rest of the game) or `resign`; with no piece that fits you pass \
automatically. A player whose time runs out passes all remaining turns, like `passall`. The game ends \
after a full round of passes; score = cells you cover + your territory, ties possible; resigned players rank \
last.
Moves: the cells, e.g. `c3 c4 c5 d4`, or piece@anchor rotation mirror, e.g. `T4@c3 r1 m`.
**Proposals** (our choices where the sources are silent, all match options): the boards and their neutral \
cells (`board`, `size`), the piece sets and copies (`copies`), flipping pieces (`reflections`), at most half \
the board captured per turn (`half_cap`), territory is permanent, ending as soon as nobody can place \
(`end_when_stuck`), and the Tile Hoard options (`ruleset: tilehoard`): `single_piece_capture`, \
`protect_capturing_pieces`, `only_unowned`, and the pie `swap` on a player's first turn; and `timeout: \
resign`, for servers that want running out of time to count as resigning.""")


class TilingKingRules(Rules[TilingState, Move]):
    """The rules of TilingKing as a pure state machine (see games.base.Rules)."""

    id: ClassVar[str] = "tilingking"
    name: ClassVar[str] = "TilingKing"
    seats: ClassVar[range] = SEATS
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "board",
            "sq9",
            N_("board preset: square, hex or triangle cells, b = neutral border, bi = border and island"),
            choices=PRESETS,
            proposal=True,
        ),
        Option(
            "size",
            0,
            N_(
                "custom size of a plain board (sq9: 4-19 squares a side, hex5: 3-10, "
                "tri4: 2-8); 0 keeps the preset"
            ),
            minimum=0,
            maximum=19,
            proposal=True,
        ),
        Option(
            "copies",
            0,
            N_("copies of the piece set per player; 0 = from the board size and players"),
            minimum=0,
            maximum=MAX_COPIES,
            proposal=True,
        ),
        Option("reflections", True, N_("pieces may be flipped"), proposal=True),
        Option("half_cap", True, N_("at most half the playable cells captured per turn"), proposal=True),
        Option(
            "ruleset",
            "tilingking",
            N_("tilehoard switches on the four Tile Hoard options"),
            choices=RULESETS,
        ),
        Option(
            "single_piece_capture",
            False,
            N_("a ring captures only if it holds at most one opponent piece in total (Tile Hoard)"),
            proposal=True,
        ),
        Option(
            "protect_capturing_pieces",
            False,
            N_("a piece that helped capture cannot be captured (Tile Hoard)"),
            proposal=True,
        ),
        Option(
            "only_unowned", False, N_("no pieces on territory, not even your own (Tile Hoard)"), proposal=True
        ),
        Option(
            "swap",
            False,
            N_("pie rule: on your first turn you may swap sides with the previous player"),
            proposal=True,
        ),
        Option(
            "end_when_stuck", True, N_("the game ends as soon as no player can place a piece"), proposal=True
        ),
        Option(
            "timeout",
            TIMEOUT_PASSALL,
            N_("what running out of time does: passall (the rule: pass all remaining turns) or resign"),
            choices=(TIMEOUT_PASSALL, TIMEOUT_RESIGN),
            proposal=True,
        ),
    )
    summary: ClassVar[str] = _SUMMARY
    clock_presets: ClassVar[tuple[tuple[int, int], ...]] = ((300, 5), (600, 5), (900, 10))
    """Live presets for its length (base seconds, increment)."""
    first_seat: ClassVar[SeatChoice] = FIRST_SEAT

    # ----------------------------------------------------------------------------------------- setup

    def settings(self, seats: int, options: Mapping[str, Any]) -> Settings:
        """Resolve match options; raises InvalidOptions."""
        if type(seats) is not int or seats not in self.seats:
            raise InvalidOptions(Text("TilingKing is for 2 to 4 players"))
        values = resolve_options(self.options, options)
        if values["ruleset"] == "tilehoard":
            for name in TILE_HOARD:
                if name not in options:
                    values[name] = True
        board_id = str(values["board"])
        if values["size"]:
            try:
                board_id = custom_id(board_id, int(values["size"]))
            except ValueError as error:
                raise InvalidOptions(*error.args) from None
        try:
            the_board = board(board_id)
        except ValueError as error:
            raise InvalidOptions(*error.args) from None
        copies = int(values["copies"]) or default_copies(the_board.kind, the_board.playable_count, seats)
        values.pop("size")
        values["board"] = board_id
        values["copies"] = copies
        return Settings(**values)

    def new(self, seats: int, options: Mapping[str, Any], seed: int) -> TilingState:
        """An empty board; seat 0 moves first (seats are dealt by the match service). `seed` is unused."""
        settings = self.settings(seats, options)
        the_board = board(settings.board)
        count = len(pieces(the_board.kind))
        return TilingState(
            board=the_board,
            settings=settings,
            supplies=((settings.copies,) * count,) * seats,
            territory_masks=(0,) * seats,
            passall=(False,) * seats,
            resigned=(False,) * seats,
            colours=tuple(range(seats)),
        )

    # ----------------------------------------------------------------------------------------- queries

    def to_move(self, state: TilingState) -> Seat | None:
        return None if state.ended is not None else state.turn

    def blocked(self, state: TilingState, seat: Seat) -> int:
        """The cells `seat` may not cover: neutral, covered, opponents' territory (and its own with
        `only_unowned`)."""
        per_seat = state._blocked
        if per_seat is None:
            always = state.board.neutral_mask | state.covered
            territories = state.territory_masks
            only_unowned = state.settings.only_unowned
            found = []
            for who in range(state.seats):
                out = always
                for owner, mask in enumerate(territories):
                    if owner != who or only_unowned:
                        out |= mask
                found.append(out)
            per_seat = remember(state, "_blocked", tuple(found))
        return per_seat[seat]

    def placements(self, state: TilingState, seat: Seat | None = None) -> list[Move]:
        """Every placement `seat` (default: the seat to move) could make now, ignoring whose turn it is."""
        seat = state.turn if seat is None else seat
        blocked = self.blocked(state, seat)
        table = _placement_moves(state.board, state.settings.reflections)
        out: list[Move] = []
        for count, moves in zip(state.supplies[seat], table, strict=True):
            if count:
                out += [m for m in moves if not m.mask & blocked]  # a comprehension: no generator per move
        return out

    def can_place(self, state: TilingState, seat: Seat) -> bool:
        """Whether `seat` has a piece that fits somewhere."""
        blocked = self.blocked(state, seat)
        if not state.board.playable_mask & ~blocked:
            return False
        masks = state.board.placements(state.settings.reflections)
        return any(
            count and any(not m & blocked for m in piece_masks)
            for count, piece_masks in zip(state.supplies[seat], masks, strict=True)
        )

    def swap_allowed(self, state: TilingState) -> bool:
        """The pie swap: on a seat's first turn, with the previous seat (which has moved and not resigned)."""
        seat = state.turn
        return (
            state.settings.swap
            and state.ended is None
            and seat > 0
            and not state.started >> seat & 1
            and not state.resigned[seat - 1]
            and self.forced_move(state) is None
        )

    def forced_move(self, state: TilingState) -> Move | None:
        """An automatic pass for a seat in pass-all mode or with no piece that fits; else None."""
        if state.ended is not None:
            return None
        must_pass = state._must_pass
        if must_pass is None:
            seat = state.turn
            must_pass = remember(state, "_must_pass", state.passall[seat] or not self.can_place(state, seat))
        return PASS_MOVE if must_pass else None

    def legal_moves(self, state: TilingState) -> list[Move]:
        """Placements, then pass, passall, resign (and swap when allowed); only `pass` when it is forced.

        A player with a forced pass may still `resign` or `passall` (parse and apply accept them), but they
        are not listed, so that the forced move is the only listed move.
        """
        if state.ended is not None:
            return []
        if self.forced_move(state) is not None:
            return [PASS_MOVE]
        moves = self.placements(state)
        moves += [PASS_MOVE, PASSALL_MOVE, RESIGN_MOVE]
        if self.swap_allowed(state):
            moves.append(SWAP_MOVE)
        return moves

    def outcome(self, state: TilingState) -> Outcome | None:
        if state.ended is None:
            return None
        losers = [s for s in range(state.seats) if state.resigned[s]]
        return Outcome.by_score(scores(state), state.ended, last=losers)

    def moves_played(self, state: TilingState) -> int:
        """The plies: placements, passes, pass-alls and swaps; a resignation, on turn or not, counts none."""
        return state.ply

    def seat_label(self, state: TilingState, seat: Seat) -> str:
        """The seat's colour (after a pie swap, the colour it took over)."""
        return COLOURS[state.colours[seat]]

    # ----------------------------------------------------------------------------------------- moves

    def apply(self, state: TilingState, move: Move) -> TilingState:
        if state.ended is not None:
            raise GameOver(Text("the game is over"))
        if not isinstance(move, Move) or type(move.mask) is not int or move.mask < 0:
            raise IllegalMove(Text("that is not a TilingKing move"))
        seat = state.turn
        bit = 1 << seat
        started = state.started | bit
        if move.action == PLACE:
            index = self._check_placement(state, seat, move)
            after = self._place(state, seat, index, move.mask)
            return self._next(replace(after, started=started, passed=0), seat, changed=True)
        if move.action == PASS:
            return self._next(replace(state, started=started, passed=state.passed | bit), seat, changed=False)
        if move.action == PASSALL:
            passall = _set(state.passall, seat, True)
            after = replace(state, started=started, passed=state.passed | bit, passall=passall)
            return self._next(after, seat, changed=True)
        if move.action == RESIGN:  # not a move: the ply stays, as for a resignation out of turn
            after = replace(state, started=started, resigned=_set(state.resigned, seat, True))
            return self._next(after, seat, changed=True, counted=False)
        if move.action == SWAP:
            if not self.swap_allowed(state):
                raise IllegalMove(self._no_swap_reason(state))
            return self._next(replace(self._swap(state, seat), started=started, passed=0), seat, changed=True)
        raise IllegalMove(Text("{action!r} is not a TilingKing move", action=move.action))

    def word_moves(self, state: TilingState) -> tuple[WordMove, ...]:
        """Pass, pass all (which cannot be undone) and, while the pie rule allows it, swap."""
        if state.ended is not None or self.forced_move(state) is not None:
            return ()
        moves = [
            WordMove("pass", Text("Pass")),
            WordMove("passall", Text("Pass all remaining turns"), irreversible=True),
        ]
        if self.swap_allowed(state):
            moves.append(WordMove("swap", Text("Swap seats (pie rule)")))
        return tuple(moves)

    def pass_move(self, state: TilingState) -> Move | None:
        """Any player may pass on their turn (RULES 3.5)."""
        return None if state.ended is not None else PASS_MOVE

    def resign(self, state: TilingState, seat: Seat) -> TilingState:
        """`seat` resigns, on any turn (RULES 3.1: "resign on any turn"); the game goes on without it until
        all but one player have resigned. Logged as the word `resign` with the resigning seat."""
        if state.ended is not None:
            raise GameOver(Text("the game is over"))
        if type(seat) is not int or not 0 <= seat < state.seats:
            raise IllegalMove(Text("there is no seat {seat!r} in this game", seat=seat))
        if state.resigned[seat]:
            return state
        if seat == state.turn:
            return self.apply(state, RESIGN_MOVE)
        return self._finish(replace(state, resigned=_set(state.resigned, seat, True)), changed=True)

    def timeout_move(self, state: TilingState) -> Move | None:
        """The move for a player whose time ran out: `passall` (RULES 3.5, the Tile Hoard rule), or with
        the option `timeout: resign` (our proposal) a resignation: the others play on, or the last wins."""
        return RESIGN_MOVE if state.settings.timeout == TIMEOUT_RESIGN else PASSALL_MOVE

    def _check_placement(self, state: TilingState, seat: Seat, move: Move) -> int:
        """The piece index of a legal placement; IllegalMove with the reason otherwise."""
        table = state.board.placement_piece(state.settings.reflections)
        index = table.get(move.mask)
        kind = state.board.kind
        if (
            index is not None
            and not state.passall[seat]
            and state.supplies[seat][index]
            and not move.mask & self.blocked(state, seat)
            and pieces(kind)[index].id == move.piece
        ):
            return index
        if state.passall[seat]:
            raise IllegalMove(Text("you passed for the rest of the game, so you can only pass"))
        if not move.mask:
            raise IllegalMove(Text("name the cells of your piece, like c3 c4 c5 d4"))
        if index is None or pieces(kind)[index].id != move.piece:
            self._diagnose(state, seat, list(bits_of(move.mask)))
            raise IllegalMove(
                Text(
                    "{cell_list} is not the shape of {piece}",
                    cell_list=cell_list(state.board, move.mask),
                    piece=move.piece,
                )
            )
        self._check_cells(state, seat, bits_of(move.mask))
        if not state.supplies[seat][index]:
            raise IllegalMove(Text("you have no {piece} left", piece=move.piece))
        return index

    def _check_cells(self, state: TilingState, seat: Seat, cells: Iterable[int]) -> None:
        """Each cell must be playable, free and not an opponent's territory."""
        the_board = state.board
        covered = state.covered
        territory = state.territory
        for i in cells:
            label = the_board.labels[i]
            if the_board.neutral_mask >> i & 1:
                raise IllegalMove(Text("{label} is neutral; pieces go on the other cells", label=label))
            if covered >> i & 1:
                owner = next(p for p in state.placed if p.mask >> i & 1).owner
                if owner == seat:
                    raise IllegalMove(Text("{label} is already covered by your piece", label=label))
                whose = self.seat_label(state, owner)
                raise IllegalMove(
                    Text("{label} is already covered by {whose}'s piece", label=label, whose=whose)
                )
            owner_of = territory[i]
            if owner_of is not None and owner_of != seat:
                whose = self.seat_label(state, owner_of)
                raise IllegalMove(
                    Text("{label} is {whose}'s territory; play elsewhere", label=label, whose=whose)
                )
            if owner_of == seat and state.settings.only_unowned:
                raise IllegalMove(
                    Text(
                        "{label} is your territory; in this match pieces go only on unowned cells",
                        label=label,
                    )
                )

    def _diagnose(self, state: TilingState, seat: Seat, cells: list[int]) -> None:
        """Raise the reason a set of cells is not a piece placement (shape, connection, mirror)."""
        the_board = state.board
        self._check_cells(state, seat, cells)
        labels = " ".join(the_board.labels[i] for i in cells)
        largest = MAX_SIZE[the_board.kind]
        if len(cells) > largest:
            raise IllegalMove(
                Text(
                    "{labels} is not one piece: pieces have 1 to {largest} cells",
                    labels=labels,
                    largest=largest,
                )
            )
        group = {cells[0]}
        grown = True
        while grown:
            grown = False
            for i in cells:
                if i not in group and any(n in group for n in the_board.edge_neighbours[i]):
                    group.add(i)
                    grown = True
        stray = [i for i in cells if i not in group]
        if stray:
            touching = " or ".join(the_board.labels[i] for i in cells if i in group)
            first_stray = the_board.labels[stray[0]]
            raise IllegalMove(
                Text(
                    "{labels} is not one piece: {first_stray} does not touch {touching}",
                    labels=labels,
                    first_stray=first_stray,
                    touching=touching,
                )
            )
        mask = the_board.mask_of(cells)
        flipped = the_board.placement_piece(True).get(mask)
        if flipped is not None and not state.settings.reflections:
            name = pieces(the_board.kind)[flipped].id
            raise IllegalMove(
                Text(
                    "{labels} is a flipped {name}; this match does not allow flipping pieces",
                    labels=labels,
                    name=name,
                )
            )

    def _place(self, state: TilingState, seat: Seat, index: int, mask: int) -> TilingState:
        """Put the piece down, then resolve captures (RULES 3.7)."""
        the_board = state.board
        settings = state.settings
        piece_id = pieces(the_board.kind)[index].id
        piece = Placed(owner=seat, piece=piece_id, cells=tuple(bits_of(mask)), ply=state.ply, mask=mask)
        placed = [*state.placed, piece]
        supplies = [list(s) for s in state.supplies]
        supplies[seat][index] -= 1
        territory = list(state.territory_masks)

        own = state.covered_masks[seat] | mask
        free = the_board.full & ~(own | the_board.neutral_mask)
        seeds = the_board.grow_vertex(mask) & free
        regions = []
        while seeds:
            region = _flood(the_board, seeds & -seeds, free)
            seeds &= ~region
            if not region & the_board.outside_mask:
                regions.append(region)
        if regions:
            regions.sort(key=lambda r: (r.bit_count(), r & -r))
            owned = 0
            for mask_ in territory:
                owned |= mask_
            captured = 0
            removed: set[int] = set()
            ids = piece_index(the_board.kind)
            for region in regions:
                inside = [
                    k
                    for k, p in enumerate(placed)
                    if k not in removed and p.owner != seat and p.mask & region
                ]
                per_owner = [0] * state.seats
                for k in inside:
                    per_owner[placed[k].owner] += 1
                if any(n >= 2 for n in per_owner):
                    continue
                if settings.single_piece_capture and len(inside) > 1:
                    continue
                if settings.protect_capturing_pieces and any(placed[k].capturer for k in inside):
                    continue
                gain = region & ~owned
                if settings.half_cap and 2 * (captured + gain.bit_count()) > the_board.playable_count:
                    continue
                if not gain and not inside:
                    continue
                for k in inside:
                    removed.add(k)
                    supplies[placed[k].owner][ids[placed[k].piece.upper()]] += 1
                territory[seat] |= gain
                owned |= gain
                captured += gain.bit_count()
                ring = the_board.grow_vertex(region) & ~region
                for k, p in enumerate(placed):
                    if p.owner == seat and p.mask & ring and not p.capturer:
                        placed[k] = replace(p, capturer=True)
            placed = [p for k, p in enumerate(placed) if k not in removed]
        return replace(
            state,
            placed=tuple(placed),
            supplies=tuple(tuple(s) for s in supplies),
            territory_masks=tuple(territory),
        )

    def _swap(self, state: TilingState, seat: Seat) -> TilingState:
        """Seat and the previous seat exchange colour, supply, pieces and territory (RULES 3.9)."""
        other = seat - 1

        def swapped(s: Seat) -> Seat:
            return other if s == seat else seat if s == other else s

        def exchange(values: tuple[Any, ...]) -> tuple[Any, ...]:
            return tuple(values[swapped(s)] for s in range(len(values)))

        return replace(
            state,
            colours=exchange(state.colours),
            supplies=exchange(state.supplies),
            territory_masks=exchange(state.territory_masks),
            placed=tuple(replace(p, owner=swapped(p.owner)) for p in state.placed),
        )

    def _no_swap_reason(self, state: TilingState) -> str:
        if not state.settings.swap:
            return Text("swap is off in this match; place a piece or pass")
        if state.turn == 0 or state.started >> state.turn & 1:
            return Text("you can swap only on your first turn, after the previous player has moved")
        return Text("the previous player has resigned, so there is nothing to swap with")

    def _next(self, state: TilingState, mover: Seat, *, changed: bool, counted: bool = True) -> TilingState:
        """Count the ply (a `counted` move), check the end, and hand the turn to the next seat that has not
        resigned."""
        if counted:
            state = replace(state, ply=state.ply + 1)
        n = state.seats
        turn = mover
        for step in range(1, n + 1):
            candidate = (mover + step) % n
            if not state.resigned[candidate]:
                turn = candidate
                break
        return self._finish(replace(state, turn=turn), changed=changed)

    def _finish(self, state: TilingState, *, changed: bool) -> TilingState:
        """End the game after all but one resigned, a full round of passes, or (after a change) nobody able
        to place."""
        active = [s for s in range(state.seats) if not state.resigned[s]]
        if len(active) <= 1:
            return replace(state, ended=Termination.RESIGNATION)
        active_mask = sum(1 << s for s in active)
        if state.passed & active_mask == active_mask:
            return replace(state, ended=Termination.PASSES)
        if (
            changed
            and state.settings.end_when_stuck
            and not any(not state.passall[s] and self.can_place(state, s) for s in active)
        ):
            return replace(state, ended=Termination.PASSES)
        return state

    # ----------------------------------------------------------------------------------------- text

    def parse(self, state: TilingState, text: str) -> Move:
        """Cells ("c3 c4 c5 d4", optional leading "place"), the short form ("T4@c3 r1 m"), or pass, passall,
        resign, swap."""
        text = move_text(text)
        if state.ended is not None:
            raise GameOver(Text("the game is over"))
        words = text.strip().lower().split()
        if not words:
            raise InvalidMove(
                Text("type the cells of your piece, like c3 c4 c5 d4, or pass, passall or resign")
            )
        if len(words) == 1 and words[0] in (PASS, PASSALL, RESIGN, SWAP):
            if words[0] == SWAP and not self.swap_allowed(state):
                raise IllegalMove(self._no_swap_reason(state))
            return Move(words[0])
        if words[0] == PLACE:
            words = words[1:]
            if not words:
                raise InvalidMove(Text("say which cells: place c3 c4 c5 d4"))
        body = " ".join(words)
        if "@" in body:
            return self._parse_short(state, body)
        the_board = state.board
        index = the_board.label_index
        cells = [index.get(w) for w in words]
        if None in cells:
            if _SHORT_SPACED.match(body):
                return self._parse_short(state, body)
            bad = words[cells.index(None)]
            if len(words) == 1 and bad.upper() in piece_index(the_board.kind):
                raise InvalidMove(
                    Text(
                        "say where to put {piece}: its cells (like c3 c4 c5 d4) or {piece}@cell rotation "
                        "(like {piece}@c3 r0)",
                        piece=bad.upper(),
                    )
                )
            try:
                the_board.parse(bad)
            except ValueError as error:
                raise InvalidMove(*error.args) from None
            raise InvalidMove(Text("{bad!r} is not a cell", bad=bad))
        return self._placement(state, [c for c in cells if c is not None])

    def _placement(self, state: TilingState, cells: list[int]) -> Move:
        the_board = state.board
        seat = state.turn
        if len(set(cells)) != len(cells):
            twice = next(c for c in cells if cells.count(c) > 1)
            raise InvalidMove(
                Text("{cell} is listed twice; name each cell once", cell=the_board.labels[twice])
            )
        mask = the_board.mask_of(cells)
        index = the_board.placement_piece(state.settings.reflections).get(mask)
        if index is None:
            self._diagnose(state, seat, cells)
            raise IllegalMove(
                Text("{cells} does not fit on the board", cells=" ".join(the_board.labels[i] for i in cells))
            )
        move = Move(PLACE, pieces(the_board.kind)[index].id, mask)
        self._check_placement(state, seat, move)
        return move

    def _parse_short(self, state: TilingState, body: str) -> Move:
        """`T4@c3 r1 m`: the piece turned by the mirror (first) and r rotations, its first cell on c3."""
        match = _SHORT_AT.match(body) or _SHORT_SPACED.match(body)
        if not match:
            raise InvalidMove(
                Text("write a piece as its cells (c3 c4 c5 d4) or as piece@cell rotation: T4@c3 r1")
            )
        piece_text, anchor_text, rotation_text, bare_rotation, mirror = match.groups()
        rotation_text = rotation_text or bare_rotation
        the_board = state.board
        kind = the_board.kind
        index = piece_index(kind).get(piece_text.upper())
        if index is None:
            names = ", ".join(p.id for p in pieces(kind))
            raise InvalidMove(
                Text(
                    "there is no piece {piece}; the pieces are {names}", piece=piece_text.upper(), names=names
                )
            )
        try:
            anchor = the_board.parse(anchor_text)
        except ValueError as error:
            raise InvalidMove(*error.args) from None
        tiling = the_board.tiling
        rotation = int(rotation_text or 0) if len(rotation_text or "") <= 3 else tiling.rotations
        if rotation >= tiling.rotations:
            raise InvalidMove(Text("rotations go from r0 to r{last}", last=tiling.rotations - 1))
        if mirror and not state.settings.reflections:
            raise IllegalMove(Text("this match does not allow flipping pieces; leave out the m"))
        piece = pieces(kind)[index]
        shape = tiling.oriented(piece.shape, rotation, bool(mirror))
        offset = tiling.translation(shape[0], the_board.cells[anchor])
        written = f"{piece.id}@{the_board.labels[anchor]} r{rotation}{' m' if mirror else ''}"
        if offset is None:
            raise IllegalMove(
                Text(
                    "{written} cannot start on {cell}: that triangle points the other way",
                    written=written,
                    cell=the_board.labels[anchor],
                )
            )
        cells = []
        for x, y in shape:
            i = the_board.index_of.get((x + offset[0], y + offset[1]))
            if i is None:
                raise IllegalMove(Text("{written} runs off the board", written=written))
            cells.append(i)
        return self._placement(state, cells)

    def short_notation(self, state: TilingState, move: Move) -> str:
        """The canonical short form of a placement: `piece@anchor rK` plus ` m` when mirrored, choosing the
        unmirrored form and the lowest rotation that give these cells. The anchor is the placed cell that
        comes first in the piece's (oriented, sorted) cell listing."""
        the_board = state.board
        tiling = the_board.tiling
        coords = sorted(the_board.cells[i] for i in bits_of(move.mask))
        target = tiling.normalise(coords)
        piece = pieces(the_board.kind)[piece_index(the_board.kind)[move.piece.upper()]]
        for rotation, mirror in tiling.symmetries():
            if tiling.oriented(piece.shape, rotation, mirror) == target:
                anchor = the_board.labels[the_board.index_of[coords[0]]]
                return f"{piece.id}@{anchor} r{rotation}{' m' if mirror else ''}"
        raise ValueError(f"{cell_list(the_board, move.mask)} is not the shape of {move.piece}")

    def click_move(self, state: TilingState, move: Move) -> ClickMove | None:
        """A placement is its cells, in any order, grouped by piece, with the turn and mirror of its short
        notation as its pose; pass, pass all, swap and resign are words."""
        if move.action != PLACE:
            return None
        short = self.short_notation(state, move)
        turn = int(short.split(" r", 1)[1].split(" ", 1)[0])
        return ClickMove(
            self.notation(state, move),
            move.cells,
            ordered=False,
            group=move.piece,
            pose=(turn, short.endswith(" m")),
        )

    def notation(self, state: TilingState, move: Move) -> str:
        """A placement as its sorted cell list ("c3 c4 c5 d4"); other moves as their word."""
        if move.action == PLACE:
            return cell_list(state.board, move.mask)
        return move.action

    def describe(self, state: TilingState, move: Move) -> str:
        who = self.seat_label(state, state.turn)
        if move.action == PASS:
            if state.passall[state.turn]:
                return Text("{who} passes (passing for the rest of the game)", who=who)
            if self.forced_move(state) is not None:
                return Text("{who} passes (no piece fits)", who=who)
            return Text("{who} passes", who=who)
        if move.action == PASSALL:
            return Text("{who} passes for the rest of the game", who=who)
        if move.action == RESIGN:
            return Text("{who} resigns", who=who)
        if move.action == SWAP:
            previous = self.seat_label(state, state.turn - 1)
            return Text(
                "{who} swaps sides with {previous} and now plays {previous}", who=who, previous=previous
            )
        after = self.apply(state, move)
        cells = cell_list(state.board, move.mask)
        parts = [Text("{who} places {piece} on {cells}", who=who, piece=move.piece, cells=cells)]
        seat = state.turn
        gained = (after.territory_masks[seat] & ~state.territory_masks[seat]).bit_count()
        left = set(after.placed)
        returned = [p for p in state.placed if p not in left and p.owner != seat]
        if gained:
            captured = Text.ngettext(" and captures {n} cell", " and captures {n} cells", gained, n=gained)
            parts.append(captured)
        elif returned:
            parts.append(Text(" and captures"))
        if returned:
            names = [
                Text("{owner}'s {piece}", owner=self.seat_label(state, p.owner), piece=p.piece)
                for p in returned
            ]
            if len(returned) == 1:
                owner = self.seat_label(state, returned[0].owner)
                parts.append(Text(" ({piece} returns to {owner})", piece=names[0], owner=owner))
            else:
                listed = Text.concat(*[part for name in names[:-1] for part in (name, ", ")][:-1])
                parts.append(
                    Text(" ({pieces} and {last} return to their owners)", pieces=listed, last=names[-1])
                )
        return Text.concat(*parts)

    def position_text(self, state: TilingState) -> str:
        """Header, then the board row by row: `#` neutral, `.` free, a colour letter (R B G Y) for a piece,
        the same letter in lower case for territory."""
        the_board = state.board
        letters = [COLOURS[c][0] for c in state.colours]
        owner_of_cell: dict[int, Seat] = {}
        for p in state.placed:
            for i in p.cells:
                owner_of_cell[i] = p.owner
        territory = state.territory

        def char(i: int) -> str:
            if the_board.neutral_mask >> i & 1:
                return "#"
            if i in owner_of_cell:
                return letters[owner_of_cell[i]]
            owner = territory[i]
            return "." if owner is None else letters[owner].lower()

        rows: dict[int, list[tuple[int, int]]] = {}
        for i, (x, y) in enumerate(the_board.cells):
            rows.setdefault(y, []).append((x, i))
        lowest = min(x for x, _ in the_board.cells)
        lines = []
        for y in sorted(rows, reverse=the_board.kind == "square"):
            row = sorted(rows[y])
            label = the_board.labels[row[0][1]]
            if the_board.kind == "square":
                lines.append(f"{label[1:]:>2} " + "".join(char(i) for _, i in row))
            elif the_board.kind == "hex":
                lines.append(f"{label[0]:>2} " + " " * abs(y) + " ".join(char(i) for _, i in row))
            else:
                indent = " " * (row[0][0] - lowest)
                lines.append(f"{label[0]:>2} " + indent + "".join(char(i) for _, i in row))
        to_move = self.to_move(state)
        status = "game over" if to_move is None else f"{self.seat_label(state, to_move)} to move"
        points = " ".join(f"{self.seat_label(state, s)} {v}" for s, v in enumerate(scores(state)))
        return f"tilingking {the_board.id} ply {state.ply}, {status}; {points}\n" + "\n".join(lines)

    # ----------------------------------------------------------------------------------------- storage

    def dump(self, state: TilingState) -> dict[str, Any]:
        """The snapshot games.tilingking.loading writes."""
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> TilingState:
        """The state `dump` wrote; InvalidSnapshot (a ValueError) naming the first field with the wrong type
        or range, or the invariant of reachable positions it breaks (games.tilingking.loading)."""
        return load_state(data)


# --------------------------------------------------------------------------------------------- helpers


def _set(values: tuple[bool, ...], seat: Seat, value: bool) -> tuple[bool, ...]:
    return tuple(value if s == seat else v for s, v in enumerate(values))


def piece_of(kind: str, piece_id: str) -> Piece:
    """The piece with this id (any case) in the set of a cell type; KeyError if there is none."""
    return pieces(kind)[piece_index(kind)[piece_id.upper()]]


__all__ = [  # the values are games.tilingking.state's, named here too for the AI and the tests
    "COLOURS",
    "MAX_COPIES",
    "PASS",
    "PASSALL",
    "PASSALL_MOVE",
    "PASS_MOVE",
    "PLACE",
    "RESIGN",
    "RESIGN_MOVE",
    "SWAP",
    "SWAP_MOVE",
    "TIMEOUT_PASSALL",
    "TIMEOUT_RESIGN",
    "Move",
    "Placed",
    "Settings",
    "TilingKingRules",
    "TilingState",
    "cell_list",
    "check_invariants",
    "piece_of",
    "scores",
    "supply",
]
