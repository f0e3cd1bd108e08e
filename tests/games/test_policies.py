"""The game policies of the `Rules` contract, scenario by scenario for each engine: the one-word moves that
get buttons (`word_moves`), passing (`pass_move`), the move made when time runs out (`timeout_move`) and
resignation (`resign`, and its replay from a move log)."""

from __future__ import annotations

import pytest

from games.base import (
    RESIGN,
    IllegalMove,
    InvalidMove,
    ReplayError,
    Termination,
    WordMove,
    replay,
    replay_state,
)
from games.paint.rules import RULES as PAINT
from games.paintscape.rules import DONE, PASS, PLAY_BLACK, PLAY_WHITE, Phase
from games.paintscape.rules import RULES as PAINTSCAPE
from games.tilingking import RULES as TILINGKING
from games.tilingking import TilingState
from games.tilingking.rules import PASS_MOVE, PASSALL_MOVE
from tests.games.test_paintscape import E5
from tests.games.tilingking.helpers import BLUE, GREEN, RED, build

# --------------------------------------------------------------------------------------------- Paintscape


def test_paintscape_balancer_has_done_as_its_only_word_and_a_pass_means_done() -> None:
    state = PAINTSCAPE.new(2, {}, 0)
    assert state.phase is Phase.BALANCE and PAINTSCAPE.to_move(state) == 0
    assert PAINTSCAPE.word_moves(state) == (WordMove("done", "Done swapping", main=True),)
    assert PAINTSCAPE.pass_move(state) == DONE
    assert PAINTSCAPE.parse(state, "pass") == DONE
    assert PAINTSCAPE.apply(state, PAINTSCAPE.pass_move(state)).phase is Phase.CHOOSE
    assert PAINTSCAPE.timeout_move(state) is None and PAINTSCAPE.resign(state, 0) is None


def test_paintscape_chooser_has_black_and_white_and_cannot_pass() -> None:
    state = PAINTSCAPE.apply(PAINTSCAPE.new(2, {}, 0), DONE)
    assert state.phase is Phase.CHOOSE and PAINTSCAPE.to_move(state) == 1
    words = PAINTSCAPE.word_moves(state)
    assert [w.notation for w in words] == ["black", "white"]
    assert [PAINTSCAPE.parse(state, w.notation) for w in words] == [PLAY_BLACK, PLAY_WHITE]
    assert not any(w.irreversible for w in words)
    assert PAINTSCAPE.pass_move(state) is None
    assert PAINTSCAPE.timeout_move(state) is None and PAINTSCAPE.resign(state, 1) is None


def test_paintscape_play_has_no_word_moves_and_its_forced_pass_is_no_chosen_pass() -> None:
    state = PAINTSCAPE.new(2, {"balance": False}, 4)
    assert state.phase is Phase.PLAY
    assert PAINTSCAPE.word_moves(state) == () and PAINTSCAPE.pass_move(state) is None
    walled = PAINTSCAPE.new(2, {"balance": False, "layout": E5}, 0)  # Black is walled in: it must pass
    assert PAINTSCAPE.forced_move(walled) == PASS and PAINTSCAPE.legal_moves(walled) == [PASS]
    assert PAINTSCAPE.word_moves(walled) == (), "an automatic pass is never a button"
    assert PAINTSCAPE.pass_move(walled) is None, "nobody chooses to pass in play"
    assert PAINTSCAPE.timeout_move(walled) is None
    assert PAINTSCAPE.resign(walled, 0) is None and PAINTSCAPE.resign(walled, 1) is None


def test_paintscape_and_paint_resignations_are_never_logged_moves() -> None:
    for rules in (PAINTSCAPE, PAINT):
        start = rules.new(2, {}, 0)
        with pytest.raises(ReplayError, match="never a logged move"):
            list(replay(rules, start, [(1, RESIGN)]))


# --------------------------------------------------------------------------------------------- Paint


def test_paint_has_no_word_moves_no_pass_and_a_timeout_or_resignation_loses() -> None:
    state = PAINT.new(2, {}, 0)
    for _ in range(2):
        assert PAINT.word_moves(state) == ()
        assert PAINT.pass_move(state) is None and PAINT.timeout_move(state) is None
        assert PAINT.resign(state, 0) is None and PAINT.resign(state, 1) is None
        with pytest.raises(InvalidMove, match="no passing in Paint"):
            PAINT.parse(state, "pass")
        state = PAINT.apply(state, PAINT.legal_moves(state)[0])


# --------------------------------------------------------------------------------------------- TilingKing


def words(state: TilingState) -> list[str]:
    return [w.notation for w in TILINGKING.word_moves(state)]


def test_tilingking_offers_pass_and_an_irreversible_passall() -> None:
    state = TILINGKING.new(2, {}, 0)
    assert words(state) == ["pass", "passall"]
    passall = TILINGKING.word_moves(state)[1]
    assert passall.irreversible and not TILINGKING.word_moves(state)[0].irreversible
    assert TILINGKING.pass_move(state) == PASS_MOVE
    after = TILINGKING.apply(state, TILINGKING.parse(state, passall.notation))
    assert after.passall[RED], "passall is for the rest of the game"
    after = TILINGKING.apply(after, TILINGKING.parse(after, "c3 c4 c5 d4"))
    assert TILINGKING.forced_move(after) == PASS_MOVE, "Red now passes automatically"
    assert words(after) == [], "a forced pass offers no buttons"


def test_tilingking_offers_swap_only_while_the_pie_rule_allows_it() -> None:
    assert "swap" not in words(TILINGKING.new(2, {"swap": False}, 0))
    state = TILINGKING.new(3, {"swap": True}, 0)
    assert words(state) == ["pass", "passall"], "the first seat has nobody to swap with"
    state = TILINGKING.apply(state, TILINGKING.parse(state, "c3 c4 c5 d4"))
    assert words(state) == ["pass", "passall", "swap"], "Blue's first turn"
    after_pass = TILINGKING.apply(state, PASS_MOVE)
    assert words(after_pass) == ["pass", "passall", "swap"], "Green's first turn, after Blue passed"
    later = TILINGKING.apply(after_pass, PASS_MOVE)  # Green passes too
    later = TILINGKING.apply(later, TILINGKING.parse(later, "a1"))
    assert TILINGKING.to_move(later) == BLUE and "swap" not in words(later), "only on a first turn"
    red_resigned = TILINGKING.resign(TILINGKING.new(2, {"swap": True}, 0), RED)
    assert TILINGKING.outcome(red_resigned) is not None and words(red_resigned) == []


def test_tilingking_timeout_move_is_passall() -> None:
    state = TILINGKING.new(3, {}, 0)
    assert TILINGKING.timeout_move(state) == PASSALL_MOVE
    after = TILINGKING.apply(state, TILINGKING.timeout_move(state))
    assert after.passall == (True, False, False) and TILINGKING.to_move(after) == BLUE
    assert TILINGKING.timeout_move(after) == PASSALL_MOVE


def test_tilingking_resignation_out_of_turn_and_in_turn() -> None:
    state = build("sq9", [(RED, "a1"), (BLUE, "i9")], seats=3)
    assert TILINGKING.to_move(state) == GREEN
    out_of_turn = TILINGKING.resign(state, RED)
    assert out_of_turn.resigned == (True, False, False)
    assert TILINGKING.to_move(out_of_turn) == GREEN and out_of_turn.ply == state.ply, "not a move of Green's"
    assert TILINGKING.outcome(out_of_turn) is None
    assert TILINGKING.resign(out_of_turn, RED) == out_of_turn, "resigning twice changes nothing"
    in_turn = TILINGKING.resign(out_of_turn, GREEN)
    outcome = TILINGKING.outcome(in_turn)
    assert outcome is not None and outcome.termination is Termination.RESIGNATION
    assert outcome.winners == (BLUE,), "the game ends when all but one have resigned"
    assert outcome.ranks[RED] > 0 and outcome.ranks[GREEN] > 0


def test_tilingking_resigning_to_move_hands_the_turn_on() -> None:
    state = TILINGKING.new(4, {}, 0)
    after = TILINGKING.resign(state, RED)
    assert after.resigned[RED] and TILINGKING.to_move(after) == BLUE
    assert after.ply == TILINGKING.moves_played(after) == 0, "a resignation is not a move, on turn or not"
    assert TILINGKING.outcome(after) is None


def test_tilingking_refuses_resignations_of_seats_that_do_not_exist_or_after_the_end() -> None:
    state = TILINGKING.new(2, {}, 0)
    for seat in (-1, 2, 99):
        with pytest.raises(IllegalMove, match="no seat"):
            TILINGKING.resign(state, seat)
    over = TILINGKING.resign(state, BLUE)
    with pytest.raises(ReplayError, match="ply 1: seat 0 cannot resign"):
        list(replay(TILINGKING, state, [(BLUE, RESIGN), (RED, RESIGN)]))
    assert TILINGKING.outcome(over) is not None


def test_a_logged_out_of_turn_resignation_replays() -> None:
    start = TILINGKING.new(3, {}, 0)
    log = [(RED, "c3 c4 c5 d4"), (GREEN, RESIGN), (BLUE, "f6 f7"), (RED, "a1"), (BLUE, "passall")]
    steps = list(replay(TILINGKING, start, log))
    assert [(s.seat, s.notation) for s in steps] == log
    assert steps[1].move is None and steps[1].after.resigned == (False, False, True)
    assert steps[1].after.turn == BLUE, "Green's resignation out of turn leaves Blue to move"
    end = replay_state(TILINGKING, start, log)
    direct = TILINGKING.new(3, {}, 0)
    direct = TILINGKING.apply(direct, TILINGKING.parse(direct, "c3 c4 c5 d4"))
    direct = TILINGKING.resign(direct, GREEN)
    for text in ("f6 f7", "a1", "passall"):
        direct = TILINGKING.apply(direct, TILINGKING.parse(direct, text))
    assert end == direct and TILINGKING.dump(end) == TILINGKING.dump(direct)
    assert TILINGKING.to_move(end) == RED, "Green is skipped"
