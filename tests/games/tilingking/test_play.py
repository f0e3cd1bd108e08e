"""TilingKing play (RULES 3.5-3.13): notation, errors, options, passes and resignation, Tile Hoard options."""

from __future__ import annotations

import json

import pytest

from games.base import GameOver, IllegalMove, InvalidMove, InvalidOptions, MoveError, Termination
from games.tilingking import PRESETS, RULES, board, scores, supply
from games.tilingking.boards import custom_id
from games.tilingking.pieces import default_copies, pieces
from games.tilingking.rules import PASS_MOVE, PASSALL_MOVE, PLACE, RESIGN_MOVE, SWAP_MOVE, Move
from tests.games.tilingking.helpers import BLUE, GREEN, RED, build, play_to


def error(state: object, text: str) -> str:
    with pytest.raises(MoveError) as info:
        RULES.parse(state, text)  # type: ignore[arg-type]
    return str(info.value)


# ----------------------------------------------------------------------------------- boards and supply


@pytest.mark.parametrize(
    ("board_id", "playable", "neutral"),
    [
        ("sq9", 81, 0),
        ("sq11b", 81, 40),
        ("sq13bi", 112, 57),
        ("hex5", 61, 0),
        ("hex6b", 61, 30),
        ("hex8bi", 120, 49),
        ("tri4", 96, 0),
        ("tri5b", 96, 54),
        ("tri6bi", 144, 72),
    ],
)
def test_presets_have_the_documented_playable_counts(board_id: str, playable: int, neutral: int) -> None:
    the_board = board(board_id)
    assert the_board.playable_count == playable
    assert len(the_board.neutral) == neutral == the_board.neutral_mask.bit_count()
    assert the_board.playable_count + len(the_board.neutral) == the_board.size


def test_island_layouts() -> None:
    sq = board("sq13bi")
    island = {sq.labels[i] for i in sq.neutral if not sq.touches_outside(i)}
    assert island == {f"{f}{r}" for f in "fgh" for r in (6, 7, 8)}
    hx = board("hex8bi")
    assert {hx.cells[i] for i in hx.neutral if not hx.touches_outside(i)} == {
        (0, 0),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, 0),
        (-1, 1),
        (0, 1),
    }
    tri = board("tri6bi")
    centre = [i for i in tri.neutral if not tri.touches_outside(i)]
    assert len(centre) == 6
    for i in centre:
        assert set(centre) - {i} <= set(tri.vertex_neighbours[i]), "the six share the centre point"
    tri5b = board("tri5b")
    assert all(tri5b.touches_outside(i) for i in tri5b.neutral)


def test_supply_follows_the_copies_formula() -> None:
    for board_id in PRESETS:
        the_board = board(board_id)
        for players in (2, 3, 4):
            assert default_copies(the_board.kind, the_board.playable_count, players) == 1
    assert default_copies("square", 19 * 19, 2) == round(0.7 * 361 / 58) == 4
    state = RULES.new(3, {"board": "hex5"}, 0)
    assert supply(state, GREEN) == {p.id: 1 for p in pieces("hex")}
    assert RULES.new(2, {"copies": 3}, 0).supplies[0] == (3,) * 9
    big = RULES.new(2, {"size": 19}, 0)
    assert big.board.id == "sq19" and big.settings.copies == 4


def test_options_are_checked() -> None:
    with pytest.raises(InvalidOptions):
        RULES.new(5, {}, 0)
    with pytest.raises(InvalidOptions, match="board"):
        RULES.new(2, {"board": "sq10"}, 0)
    with pytest.raises(InvalidOptions, match="plain boards"):
        RULES.new(2, {"board": "sq11b", "size": 7}, 0)
    with pytest.raises(InvalidOptions, match="size"):
        RULES.new(2, {"board": "hex5", "size": 15}, 0)
    assert RULES.new(2, {"board": "tri4", "size": 2}, 0).board.size == 24
    assert custom_id("hex5", 7) == "hex7"
    assert all(o.proposal for o in RULES.options if o.name != "ruleset")
    assert "proposal" in RULES.summary.lower()


def test_tilehoard_ruleset_switches_its_options_on_unless_given() -> None:
    tilehoard = RULES.new(2, {"ruleset": "tilehoard"}, 0).settings
    assert tilehoard.single_piece_capture and tilehoard.protect_capturing_pieces
    assert tilehoard.only_unowned and tilehoard.swap
    mixed = RULES.new(2, {"ruleset": "tilehoard", "swap": False}, 0).settings
    assert not mixed.swap and mixed.only_unowned
    plain = RULES.new(2, {}, 0).settings
    assert not (plain.single_piece_capture or plain.protect_capturing_pieces)
    assert not (plain.only_unowned or plain.swap)


# -------------------------------------------------------------------------------------------- notation


def test_cell_lists_are_sorted_and_round_trip() -> None:
    state = RULES.new(2, {}, 0)
    move = RULES.parse(state, "place d4 c5 C3 c4")
    assert move == Move(PLACE, "T4", move.mask) and RULES.notation(state, move) == "c3 c4 c5 d4"
    assert RULES.parse(state, "c3 c4 c5 d4") == move


@pytest.mark.parametrize("board_id", ["sq9", "hex5", "tri4", "tri5b", "hex8bi"])
def test_short_forms_round_trip_for_every_placement(board_id: str) -> None:
    state = RULES.new(2, {"board": board_id}, 0)
    moves = [m for m in RULES.legal_moves(state) if m.action == PLACE]
    for move in moves[:: max(1, len(moves) // 300)]:
        short = RULES.short_notation(state, move)
        assert RULES.parse(state, short) == move
        assert RULES.parse(state, "place " + short.replace("@", " ")) == move or " r" not in short


def test_short_form_examples() -> None:
    state = RULES.new(2, {}, 0)
    t4 = RULES.parse(state, "T4@c3 r1 m")
    assert RULES.short_notation(state, t4).startswith("T4@")
    assert RULES.parse(state, RULES.short_notation(state, t4)) == t4
    assert RULES.parse(state, "place T4 c3 r1 m") == t4
    for variant in ["t4 @ c3r1m", "T4@c3 1 m", "T4@C3R1 M"]:
        assert RULES.parse(state, variant) == t4
    assert RULES.parse(state, "T4@c3") == RULES.parse(state, "T4@c3 r0")
    s4 = RULES.parse(state, "S4@e5 r0")
    z4 = RULES.parse(state, "S4@e5 r0 m")
    assert s4.piece == z4.piece == "S4" and s4.mask != z4.mask
    assert "rotations go from r0 to r3" in error(state, "T4@c3 r4")
    assert "no piece X9" in error(state, "X9@c3 r0")
    assert "runs off the board" in error(state, "I4@h9 r0")
    tri = RULES.new(2, {"board": "tri4"}, 0)
    up = next(i for i, (x, y) in enumerate(tri.board.cells) if (x + y) % 2 == 0 and y == 3)
    down = up + 1
    assert RULES.parse(tri, f"1@{tri.board.labels[up]}").mask == 1 << up
    assert "points the other way" in error(tri, f"1@{tri.board.labels[down]}")


def test_commands_parse_and_describe() -> None:
    state = RULES.new(3, {}, 0)
    for word, move in [("pass", PASS_MOVE), ("PASSALL", PASSALL_MOVE), (" resign ", RESIGN_MOVE)]:
        assert RULES.parse(state, word) == move
        assert RULES.notation(state, move) == word.strip().lower()
    assert RULES.describe(state, PASSALL_MOVE) == "Red passes for the rest of the game"
    assert RULES.describe(state, RESIGN_MOVE) == "Red resigns"
    assert "swap is off" in error(state, "swap")


# ------------------------------------------------------------------------------------- legal placement


def test_placements_may_not_overlap_neutral_cells_pieces_or_enemy_territory() -> None:
    state = build("sq11b", [(RED, "d2 d3 d4"), (RED, "b4 c4")], copies=2)
    assert RULES.to_move(state) == BLUE
    assert error(state, "a5") == "a5 is neutral; pieces go on the other cells"
    assert error(state, "d3 e3") == "d3 is already covered by Red's piece"
    assert error(state, "b2 c2") == "b2 is Red's territory; play elsewhere"
    assert "not one piece: e4 does not touch c6 or c7" in error(state, "c6 c7 e4")
    assert "pieces have 1 to 4 cells" in error(state, "e5 e6 e7 e8 e9")
    assert isinstance(_raises(state, "zz9"), InvalidMove)
    assert isinstance(_raises(state, "b2 c2"), IllegalMove)
    own = play_to(state, RED, "b2")
    assert scores(own)[RED] == scores(state)[RED], "a piece on your own territory scores nothing more"


def _raises(state: object, text: str) -> MoveError:
    with pytest.raises(MoveError) as info:
        RULES.parse(state, text)  # type: ignore[arg-type]
    return info.value


def test_a_used_piece_is_gone_until_captured() -> None:
    state = build("sq9", [(RED, "a1 b1 c1 b2")])
    state = RULES.apply(state, PASS_MOVE)
    assert error(state, "e5 f5 g5 f6") == "you have no T4 left"
    assert all(m.piece != "T4" for m in RULES.legal_moves(state))


def test_without_reflections_mirror_images_are_refused() -> None:
    free = RULES.new(2, {}, 0)
    one_sided = RULES.new(2, {"reflections": False}, 0)
    s_count = sum(1 for m in RULES.legal_moves(free) if m.piece == "S4")
    assert sum(1 for m in RULES.legal_moves(one_sided) if m.piece == "S4") * 2 == s_count
    mirrored = RULES.short_notation(free, RULES.parse(free, "S4@e5 r0 m"))
    cells = RULES.notation(free, RULES.parse(free, mirrored))
    with pytest.raises(IllegalMove, match="flipped S4"):
        RULES.parse(one_sided, cells)
    with pytest.raises(IllegalMove, match="flipping"):
        RULES.parse(one_sided, "S4@e5 r0 m")


def test_only_unowned_forbids_own_territory() -> None:
    steps = [(RED, "d2 d3 d4"), (RED, "b4 c4")]
    assert RULES.to_move(play_to(build("sq11b", steps, copies=2), RED, "b2")) == BLUE
    strict = build("sq11b", steps, copies=2, only_unowned=True)
    strict = RULES.apply(strict, PASS_MOVE)
    assert "your territory" in error(strict, "b2")


# --------------------------------------------------------------------------------- Tile Hoard captures


def test_single_piece_capture_counts_all_opponents_together() -> None:
    ring = [(RED, "b2 c2 d2 e2"), (RED, "b5 c5 d5 e5"), (RED, "b3 b4")]
    steps = [*ring, (BLUE, "d4"), (GREEN, "c3")]
    tilingking = play_to(build("sq9", steps, seats=3, copies=2), RED, "e3 e4")
    assert tilingking.territory.count(RED) == 4, "one piece of each opponent is capturable"
    tilehoard = play_to(build("sq9", steps, seats=3, copies=2, single_piece_capture=True), RED, "e3 e4")
    assert tilehoard.territory.count(RED) == 0


def test_pieces_that_captured_can_be_protected() -> None:
    steps = [(BLUE, "b3 c3 d3 d2"), (RED, "b4 c4 d4 e4")]
    for protect, captured in [(False, True), (True, False)]:
        state = build("sq11b", steps, protect_capturing_pieces=protect)
        assert {state.board.labels[i] for i, o in enumerate(state.territory) if o == BLUE} == {"b2", "c2"}
        assert state.placed[0].capturer
        state = play_to(state, RED, "e2 e3")
        blue_left = [p for p in state.placed if p.owner == BLUE]
        assert (blue_left == []) == captured
        assert state.territory.count(RED) == (4 if captured else 0)
        assert state.territory.count(BLUE) == 2, "territory never changes owner"


# ----------------------------------------------------------------------------------- turns and the end


def test_pie_swap_exchanges_sides_on_the_second_players_first_turn() -> None:
    state = RULES.new(2, {"swap": True}, 0)
    assert SWAP_MOVE not in RULES.legal_moves(state), "the first player has nobody to swap with"
    state = RULES.apply(state, RULES.parse(state, "c3 c4 c5 d4"))
    assert SWAP_MOVE in RULES.legal_moves(state)
    assert RULES.describe(state, SWAP_MOVE) == "Blue swaps sides with Red and now plays Red"
    swapped = RULES.apply(state, SWAP_MOVE)
    assert swapped.placed[0].owner == BLUE and RULES.seat_label(swapped, BLUE) == "Red"
    assert RULES.seat_label(swapped, RED) == "Blue"
    assert supply(swapped, BLUE)["T4"] == 0 and supply(swapped, RED)["T4"] == 1
    assert scores(swapped) == (0, 4)
    assert RULES.to_move(swapped) == RED and SWAP_MOVE not in RULES.legal_moves(swapped)
    after = RULES.apply(swapped, PASS_MOVE)
    assert SWAP_MOVE not in RULES.legal_moves(after), "only on a player's first turn"


def test_resigned_players_are_skipped_and_rank_last() -> None:
    state = build("sq9", [(RED, "a1"), (BLUE, "i9")], seats=3)
    state = RULES.apply(state, RESIGN_MOVE)  # Green
    assert state.resigned == (False, False, True)
    state = RULES.apply(state, RULES.parse(state, "e5 e6"))
    assert RULES.to_move(state) == BLUE
    state = RULES.apply(state, RESIGN_MOVE)
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.termination is Termination.RESIGNATION
    assert outcome.winners == (RED,) and outcome.ranks[RED] == 0
    assert outcome.ranks[BLUE] > 0 and outcome.ranks[GREEN] > 0
    with pytest.raises(GameOver):
        RULES.apply(state, PASS_MOVE)


def test_resigning_out_of_turn_and_timeouts() -> None:
    state = RULES.new(3, {}, 0)
    state = RULES.resign(state, BLUE)
    assert state.resigned == (False, True, False) and RULES.to_move(state) == RED
    state = RULES.apply(state, RULES.timeout_move(state))
    assert state.passall[RED] and RULES.to_move(state) == GREEN
    state = RULES.apply(state, PASS_MOVE)
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.termination is Termination.PASSES, "a full round of passes"
    assert outcome.ranks[BLUE] == 1 and outcome.ranks[RED] == outcome.ranks[GREEN] == 0


def test_a_player_with_no_fitting_piece_passes_automatically() -> None:
    steps = [(RED, "a1 b1 c1 d1"), (BLUE, "a2 b2 c2 d2"), (RED, "c3 d3 c4 d4")]
    state = build("sq9", steps, size=4, end_when_stuck=False)
    state = play_to(state, BLUE, "a3 b3 a4 b4")
    assert RULES.forced_move(state) == PASS_MOVE and RULES.legal_moves(state) == [PASS_MOVE]
    assert RULES.describe(state, PASS_MOVE) == "Red passes (no piece fits)"
    state = RULES.apply(state, PASS_MOVE)
    state = RULES.apply(state, PASS_MOVE)
    assert RULES.outcome(state) is not None
    stuck = play_to(build("sq9", steps, size=4), BLUE, "a3 b3 a4 b4")
    assert RULES.outcome(stuck) is not None, "ends at once when nobody can place (end_when_stuck)"


def test_a_full_round_of_passes_ends_and_ties_are_possible() -> None:
    state = build("sq9", [(RED, "a1"), (BLUE, "i9")])
    state = RULES.apply(state, PASS_MOVE)
    assert RULES.outcome(state) is None
    state = RULES.apply(state, PASS_MOVE)
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.is_draw and outcome.scores == (1, 1)


def test_dump_and_load_round_trip_through_json() -> None:
    state = RULES.new(2, {"board": "tri5b", "ruleset": "tilehoard"}, 0)
    for _ in range(3):
        state = RULES.apply(state, RULES.legal_moves(state)[-40])
    data = json.loads(json.dumps(RULES.dump(state)))
    assert RULES.load(data) == state
    assert RULES.dump(RULES.load(data)) == RULES.dump(state)
    text = RULES.position_text(state)
    assert "tri5b" in text and "R" in text and "#" in text


def test_piece_ids_and_names() -> None:
    from games.tilingking import piece_shapes
    from games.tilingking.pieces import base_cells

    assert [p.id for p in pieces("square")] == ["1", "2", "I3", "V3", "I4", "O4", "T4", "L4", "S4"]
    assert (base_cells("square"), base_cells("hex"), base_cells("triangle")) == (29, 40, 38)
    for kind in ("square", "hex", "triangle"):
        shapes = piece_shapes(kind)
        assert len({p.name for p in pieces(kind)}) == len(shapes)
        assert all(len(cells) == int(piece_id[-1]) for piece_id, cells in shapes.items())


def test_states_are_hashable_and_compare_by_value() -> None:
    one = build("hex5", [(RED, "e5"), (BLUE, "a1 a2")])
    two = build("hex5", [(RED, "e5"), (BLUE, "a1 a2")])
    assert one == two and hash(one) == hash(two) and len({one, two}) == 1


def test_messages_for_cells_off_the_board_and_bare_piece_ids() -> None:
    hexes = RULES.new(2, {"board": "hex5"}, 0)
    assert error(hexes, "a7") == "a7 is off the board (row a has a1-a5)"
    assert error(hexes, "z1") == "z1 is off the board (rows a-i)"
    assert "say where to put P4" in error(hexes, "p4")
    squares = RULES.new(2, {}, 0)
    assert error(squares, "j1") == "j1 is off the board (files a-i, ranks 1-9)"


def test_apply_refuses_malformed_placements() -> None:
    state = RULES.new(2, {}, 0)
    with pytest.raises(IllegalMove, match="name the cells"):
        RULES.apply(state, Move(PLACE, "T4", 0))
    wrong_piece = Move(PLACE, "L4", RULES.parse(state, "c3 c4 c5 d4").mask)
    with pytest.raises(IllegalMove, match="is not the shape of L4"):
        RULES.apply(state, wrong_piece)
    with pytest.raises(IllegalMove):
        RULES.apply(state, Move("jump"))
