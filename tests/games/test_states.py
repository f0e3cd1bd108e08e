"""The shape of the engines' states: hidden caches never leak into equality, hashing or dumps; states are
built by keyword; Paintscape's phase is a `StrEnum` that still reads as its plain string."""

from __future__ import annotations

import json
import random
from dataclasses import FrozenInstanceError, fields, replace
from typing import Any

import pytest

import games
from games.base import Rules, advance
from games.paint.rules import PaintState
from games.paintscape.rules import PHASES, PaintscapeState, Phase, position_text
from games.tilingking import TilingState

GAME_IDS = games.GAME_IDS


def played(rules: Rules[Any, Any], seed: int, plies: int) -> Any:
    """The position after `plies` random moves (forced moves played) from the start of `seed`."""
    rng = random.Random(seed)
    state, _ = advance(rules, rules.new(min(rules.seats), {}, seed))
    for _ in range(plies):
        moves = list(rules.legal_moves(state))
        if not moves:
            break
        state, _ = advance(rules, rules.apply(state, rng.choice(moves)))
    return state


def fill_caches(rules: Rules[Any, Any], state: Any) -> None:
    """Ask everything an engine may remember on the state."""
    rules.legal_moves(state)
    rules.forced_move(state)
    rules.outcome(state)
    rules.position_text(state)
    if isinstance(state, TilingState):
        for seat in range(state.seats):
            rules.blocked(state, seat)  # type: ignore[attr-defined]
        assert state.territory and state.covered_masks


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_hidden_caches_never_change_equality_hashing_or_dumps(game_id: str) -> None:
    rules = games.get(game_id)
    for seed in range(3):
        state = played(rules, seed, 12)
        fresh = rules.load(json.loads(json.dumps(rules.dump(state))))
        dump_before = rules.dump(state)
        fill_caches(rules, state)
        assert state == fresh and hash(state) == hash(fresh)
        assert rules.dump(state) == dump_before == rules.dump(fresh)
        assert "_" not in "".join(key[0] for key in dump_before), "no hidden field is dumped"


@pytest.mark.parametrize("state_type", [PaintState, TilingState])
def test_cache_fields_are_hidden_and_not_constructor_arguments(state_type: type) -> None:
    for spec in fields(state_type):
        if spec.name.startswith("_"):
            assert not spec.init and not spec.compare and not spec.repr and spec.hash is False, spec.name


def test_replace_starts_with_an_empty_cache() -> None:
    rules = games.get("tilingking")
    state = played(rules, 4, 6)
    fill_caches(rules, state)
    assert state._must_pass is not None and state._blocked is not None
    copy = replace(state)
    assert copy == state
    assert copy._must_pass is None and copy._blocked is None and copy._territory is None
    paint = games.get("paint")
    position = played(paint, 1, 5)
    paint.legal_moves(position)
    assert position._moves is not None and replace(position)._moves is None


def test_states_are_built_by_keyword() -> None:
    tilingking = played(games.get("tilingking"), 1, 0)
    paintscape = played(games.get("paintscape"), 1, 0)
    positional = {
        PaintState: (1, 2, 3, 4, 5),
        TilingState: (tilingking.board, tilingking.settings),
        PaintscapeState: tuple(getattr(paintscape, spec.name) for spec in fields(PaintscapeState)),
    }
    for state_type, arguments in positional.items():
        build: Any = state_type
        with pytest.raises(TypeError):
            build(*arguments)
    with pytest.raises(FrozenInstanceError):
        paintscape.ply = 3


def test_paintscape_phase_is_a_str_enum_that_reads_as_its_string() -> None:
    rules = games.get("paintscape")
    assert [str(phase) for phase in PHASES] == ["balance", "choose", "play", "over"]
    state: PaintscapeState = rules.new(2, {}, 3)
    phase: str = state.phase
    assert phase == "balance"
    assert phase is Phase.BALANCE
    assert " phase=balance " in position_text(state)
    loaded = rules.load(rules.dump(state))
    assert loaded.phase is Phase.BALANCE
    as_string = replace(state, phase="balance")  # what code outside the engine may still write
    assert as_string == state and hash(as_string) == hash(state)
