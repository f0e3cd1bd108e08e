"""Property tests for Paint against a deliberately naive model written straight from RULES.md 2.4-2.7
(square lists and breadth-first areas, no bitboards), over random games from the standard start and from
random valid layouts with random counters and settings.

Checked after every ply: the 2.6 invariants; the legal move set, the board after a move, the ranks and the
areas equal the naive model's; painting is local: a square off the move's path and push square keeps its
colour unless it lay in an area left without a disc of its colour once the path was painted and the sphere
pushed, and exactly those squares turn neutral; the counters follow the 2.7 pseudo-code; the result follows
the 2.7 order of checks."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable

from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import InvalidOptions, MoveError, Termination
from games.grids import SquareGrid
from games.paint.rules import (
    RULES,
    PaintSettings,
    PaintState,
    areas,
    board_rows,
    check_invariants,
    disc_ranks,
    fast_playout,
    from_layout_text,
    position_text,
    tiles,
)

GRID = SquareGrid(9, 9)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
Colours = list[str | None]  # "W" light, "B" dark, None neutral; one per square
Occupants = list[str | None]  # "W", "B" disc, "o" sphere, None empty


# --------------------------------------------------------------------------------------------- naive model


def naive_board(state: PaintState) -> tuple[Colours, Occupants]:
    colours: Colours = [None] * 81
    occupants: Occupants = [None] * 81
    for i in range(81):
        if state.light >> i & 1:
            colours[i] = "W"
        if state.dark >> i & 1:
            colours[i] = "B"
        for symbol, mask in (("W", state.white_discs), ("B", state.black_discs), ("o", state.spheres)):
            if mask >> i & 1:
                occupants[i] = symbol
    return colours, occupants


def naive_areas(colours: Colours, colour: str) -> list[set[int]]:
    seen: set[int] = set()
    found = []
    for i in range(81):
        if colours[i] == colour and i not in seen:
            area, frontier = {i}, [i]
            while frontier:
                for j in GRID.orthogonal[frontier.pop()]:
                    if colours[j] == colour and j not in area:
                        area.add(j)
                        frontier.append(j)
            seen |= area
            found.append(area)
    return found


def naive_rank(colours: Colours, occupants: Occupants, square: int) -> int:
    colour = colours[square]
    if colour is None:
        return 0
    area = next(a for a in naive_areas(colours, colour) if square in a)
    return sum(occupants[q] == colour for q in area)


def naive_legal(colours: Colours, occupants: Occupants, player: str) -> set[tuple[int, int]]:
    """The 2.5 pseudo-code, square by square."""
    moves = set()
    for s in range(81):
        if occupants[s] != player:
            continue
        rank = naive_rank(colours, occupants, s)
        x0, y0 = GRID.xy(s)
        for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            x, y = x0 + dx, y0 + dy
            while GRID.on_board(x, y):
                q = GRID.index(x, y)
                if occupants[q] in ("W", "B"):
                    break
                if occupants[q] == "o":
                    bx, by = x + dx, y + dy
                    if GRID.on_board(bx, by) and occupants[GRID.index(bx, by)] is None:
                        moves.add((s, q))
                    break
                if colours[q] not in (None, player) and naive_rank(colours, occupants, q) >= rank:
                    break
                moves.add((s, q))
                x, y = x + dx, y + dy
    return moves


def naive_apply(
    colours: Colours, occupants: Occupants, player: str, s: int, t: int
) -> tuple[Colours, Occupants, set[int], int | None, Colours]:
    """2.6 steps 1-4: (colours, occupants, painted path, push square, colours before step 4)."""
    colours, occupants = list(colours), list(occupants)
    (x0, y0), (x1, y1) = GRID.xy(s), GRID.xy(t)
    dx, dy = (x1 > x0) - (x1 < x0), (y1 > y0) - (y1 < y0)
    path, (x, y) = set(), (x0, y0)
    while (x, y) != (x1, y1):
        x, y = x + dx, y + dy
        path.add(GRID.index(x, y))
    pushed = occupants[t] == "o"
    occupants[s], occupants[t] = None, player
    for q in path:
        colours[q] = player
    landing = None
    if pushed:
        landing = GRID.index(x1 + dx, y1 + dy)
        occupants[landing] = "o"
        colours[landing] = None
    before_step_4 = list(colours)
    for colour in ("W", "B"):
        for area in naive_areas(colours, colour):
            if not any(occupants[q] == colour for q in area):
                for q in area:
                    colours[q] = None
    return colours, occupants, path, landing, before_step_4


def naive_counters(state: PaintState, white: int, black: int) -> tuple[int | None, int, int]:
    """The 2.7 pseudo-code, with the turn_unit and lead_on_own_turn variants as the options define them."""
    mover = state.to_move
    new_leader = 0 if white > black else 1 if black > white else None
    if state.lead_on_own_turn and new_leader not in (None, mover, state.leader):
        new_leader = None  # the opponent cannot take the lead during the mover's turn
    counts = 1 if state.turn_unit == "ply" or new_leader == mover else 0
    if new_leader is None:
        return None, 0, state.no_lead_count + 1
    if new_leader == state.leader:
        return new_leader, state.lead_count + counts, 0
    return new_leader, counts, 0


def naive_result(state: PaintState) -> tuple[Termination, int | None] | None:
    colours, occupants = naive_board(state)
    if state.leader is not None and state.lead_count >= state.lead_turns:
        return Termination.LEAD, state.leader
    if state.no_lead_count >= state.no_lead_turns:
        return Termination.NO_LEAD, None
    if not naive_legal(colours, occupants, "WB"[state.to_move]):
        return Termination.NO_MOVES, 1 - state.to_move
    if state.ply >= state.move_cap:
        return Termination.MOVE_CAP, None
    return None


def mask(squares: Iterable[int]) -> int:
    return sum(1 << q for q in squares)


# --------------------------------------------------------------------------------------------- positions


def random_layout(rng: random.Random) -> str:
    """A valid random layout: discs and spheres scattered, colour grown out from the discs, then every
    disc-less area made neutral."""
    white, black, spheres = rng.randint(1, 6), rng.randint(1, 6), rng.randint(0, 13)
    cells = rng.sample(range(81), white + black + spheres)
    occupants: Occupants = [None] * 81
    colours: Colours = [None] * 81
    for i, q in enumerate(cells):
        occupants[q] = "W" if i < white else "B" if i < white + black else "o"
        colours[q] = occupants[q] if i < white + black else None
    for _ in range(rng.randint(0, 60)):
        grown = rng.choice([q for q in range(81) if colours[q] is not None])
        q = rng.choice(GRID.orthogonal[grown])
        if occupants[q] is None:
            colours[q] = colours[grown]
    for colour in ("W", "B"):
        for area in naive_areas(colours, colour):
            if not any(occupants[q] == colour for q in area):
                for q in area:
                    colours[q] = None
    symbols = {("W", "W"): "W", ("B", "B"): "B", (None, "o"): "o", ("W", None): "w", ("B", None): "b"}
    rows = []
    for y in range(8, -1, -1):
        rows.append("".join(symbols.get((colours[q], occupants[q]), ".") for q in range(y * 9, y * 9 + 9)))
    return "\n".join(rows) + ("\nBlack to move" if rng.random() < 0.5 else "")


def random_start(rng: random.Random) -> PaintState:
    """The standard start or a random layout, with random settings and random counters consistent with
    them and with the tiles (as `check_invariants` requires of every reachable position)."""
    state = RULES.new(2, {}, 0) if rng.random() < 0.3 else from_layout_text(random_layout(rng))
    lead_turns, no_lead_turns = rng.randint(1, 60), rng.randint(1, 25)
    turn_unit, lead_on_own_turn = rng.choice(["ply", "own_turns"]), rng.random() < 0.5
    ply = rng.choice([0, rng.randint(1, 100)])
    white, black = tiles(state)
    majority = 0 if white > black else 1 if black > white else None
    leader = majority
    if majority is not None and lead_on_own_turn and majority == state.to_move and rng.random() < 0.5:
        leader = None  # the opponent's push gave the mover the majority, which does not count yet
    lead_count = no_lead_count = 0
    if ply and leader is not None:
        least = 1 if turn_unit == "ply" else 0
        lead_count = rng.randint(least, max(least, min(ply, lead_turns - 1)))
    elif ply:
        no_lead_count = rng.randint(1, min(ply, no_lead_turns))
    else:
        leader = None
    return dataclasses.replace(
        state,
        leader=leader,
        lead_count=lead_count,
        no_lead_count=no_lead_count,
        ply=ply,
        settings=PaintSettings(
            lead_turns=lead_turns,
            no_lead_turns=no_lead_turns,
            move_cap=rng.randint(101, 300),
            turn_unit=turn_unit,
            lead_on_own_turn=lead_on_own_turn,
        ),
    )


# --------------------------------------------------------------------------------------------- properties


def check_ply(state: PaintState, rng: random.Random) -> PaintState | None:
    """Check one position and one random move from it; the next position, or None once the game is over."""
    assert check_invariants(state) == []
    colours, occupants = naive_board(state)
    player = "WB"[state.to_move]
    ranks = {q: naive_rank(colours, occupants, q) for q in range(81) if occupants[q] in ("W", "B")}
    assert disc_ranks(state) == ranks
    for seat, colour in ((0, "W"), (1, "B")):
        assert sorted(areas(state, seat)) == sorted(mask(a) for a in naive_areas(colours, colour))
    result = naive_result(state)
    outcome = RULES.outcome(state)
    if result is not None:
        assert outcome is not None and outcome.termination is result[0]
        assert outcome.winners == (() if result[1] is None else (result[1],))
        assert RULES.legal_moves(state) == [] and RULES.to_move(state) is None
        return None
    assert outcome is None and RULES.to_move(state) == state.to_move
    moves = RULES.legal_moves(state)
    assert len(set(moves)) == len(moves)
    assert set(moves) == naive_legal(colours, occupants, player)
    move = rng.choice(moves)
    assert RULES.parse(state, RULES.notation(state, move)) == move
    before = RULES.dump(state)
    after = RULES.apply(state, move)
    assert RULES.dump(state) == before, "apply must not mutate its input"

    new_colours, new_occupants, path, landing, painted = naive_apply(colours, occupants, player, *move)
    assert naive_board(after) == (new_colours, new_occupants)
    # Locality: the path takes the mover's colour, the push square turns neutral, and any other square changes
    # only by turning neutral, exactly when its area (after painting and pushing) holds no disc of its colour.
    assert all(new_colours[q] == player for q in path)
    assert landing is None or new_colours[landing] is None
    orphaned = {
        q
        for colour in ("W", "B")
        for area in naive_areas(painted, colour)
        if not any(new_occupants[p] == colour for p in area)
        for q in area
    }
    for q in set(range(81)) - path - {landing}:
        if q in orphaned:
            assert colours[q] is not None and new_colours[q] is None
        else:
            assert new_colours[q] == colours[q], GRID.label(q)
    assert landing is not None or not orphaned & {q for q in range(81) if colours[q] == player}, (
        "without a push the mover never loses a square"
    )
    white, black = new_colours.count("W"), new_colours.count("B")
    assert (after.leader, after.lead_count, after.no_lead_count) == naive_counters(state, white, black)
    assert (after.ply, after.to_move) == (state.ply + 1, 1 - state.to_move)
    return after


@settings(max_examples=40, deadline=None)
@given(SEEDS)
def test_random_positions_follow_the_naive_rules(seed: int) -> None:
    rng = random.Random(seed)
    state: PaintState | None = random_start(rng)
    for _ in range(40):
        assert state is not None
        state = check_ply(state, rng)
        if state is None:
            break


def test_whole_standard_games_follow_the_naive_rules() -> None:
    for seed in range(3):
        rng = random.Random(seed)
        state: PaintState | None = RULES.new(2, {}, 0)
        while state is not None:
            state = check_ply(state, rng)


@settings(max_examples=40, deadline=None)
@given(SEEDS)
def test_layout_text_round_trips(seed: int) -> None:
    state = from_layout_text(random_layout(random.Random(seed)))
    again = from_layout_text(position_text(state))
    assert dataclasses.replace(again, ply=state.ply) == state
    assert from_layout_text("/".join(board_rows(state))).spheres == state.spheres


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="WBowb.", min_size=9, max_size=9), min_size=9, max_size=9))
def test_a_layout_is_accepted_exactly_when_it_keeps_the_invariants(rows: list[str]) -> None:
    colours: Colours = [None] * 81
    occupants: Occupants = [None] * 81
    for r, row in enumerate(rows):
        for x, symbol in enumerate(row):
            q = (8 - r) * 9 + x
            occupants[q] = {"W": "W", "B": "B", "o": "o"}.get(symbol)
            colours[q] = {"W": "W", "B": "B", "w": "W", "b": "B"}.get(symbol)
    sound = (
        all(1 <= occupants.count(c) <= 6 for c in "WB")
        and occupants.count("o") <= 13
        and all(any(occupants[q] == c for q in a) for c in "WB" for a in naive_areas(colours, c))
    )
    try:
        state = from_layout_text("\n".join(rows))
    except InvalidOptions:
        assert not sound
    else:
        assert sound and naive_board(state) == (colours, occupants)


@settings(max_examples=15, deadline=None)
@given(SEEDS)
def test_fast_playout_matches_the_contract_path_from_random_positions(seed: int) -> None:
    start = random_start(random.Random(seed))
    state = start
    rng = random.Random(seed)
    while (outcome := RULES.outcome(state)) is None:
        state = RULES.apply(state, rng.choice(list(RULES.legal_moves(state))))
    assert fast_playout(start, random.Random(seed)) == (outcome.winners[0] if outcome.winners else None)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="abcdefghijz0123456789-– ABCIpas", max_size=12))
def test_any_text_parses_to_a_legal_move_or_a_move_error(text: str) -> None:
    state = RULES.new(2, {}, 0)
    try:
        move = RULES.parse(state, text)
    except MoveError as error:
        assert str(error)
    else:
        assert move in RULES.legal_moves(state)
        typed = "".join(text.split()).lower().replace("–", "").replace("-", "")
        assert typed == RULES.notation(state, move).replace("-", "")
