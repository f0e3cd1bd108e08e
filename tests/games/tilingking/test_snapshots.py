"""TilingKing snapshots: `load` takes back every reachable position and refuses, with a one-line ValueError
naming the field or the broken invariant, anything else."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from games.tilingking import RULES, TilingState
from games.tilingking.rules import MAX_COPIES, check_invariants
from tests.games.tilingking.helpers import BLUE, RED, build

Edit = Callable[[dict[str, Any]], object]


def captured() -> TilingState:
    """Blue has captured b2 c2 (territory) with a piece that took part in the capture; Red is to move."""
    return build("sq11b", [(BLUE, "b3 c3 d3 d2"), (RED, "b4 c4 d4 e4")])


def dumped(state: TilingState | None = None) -> dict[str, Any]:
    return json.loads(json.dumps(RULES.dump(state or captured())))


def test_the_example_is_a_sound_reachable_position() -> None:
    state = captured()
    assert check_invariants(state) == []
    assert state.territory.count(BLUE) == 2 and state.placed[0].capturer
    assert RULES.load(dumped(state)) == state


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_keep_every_invariant_and_reload(seats: int) -> None:
    for seed in range(3):
        rng = random.Random(seed)
        state = RULES.new(seats, {"board": ["sq9", "hex5", "tri4"][seed], "swap": seed == 1}, seed)
        while RULES.outcome(state) is None:
            assert check_invariants(state) == []
            assert RULES.load(dumped(state)) == state
            moves = RULES.legal_moves(state)
            placements = [m for m in moves if m.action == "place"]
            if rng.random() < 0.05:
                state = RULES.resign(state, rng.choice([s for s in range(seats) if not state.resigned[s]]))
                continue
            if placements and rng.random() < 0.9:
                moves = placements
            state = RULES.apply(state, rng.choice(moves))
        assert check_invariants(state) == [] and RULES.load(dumped(state)) == state


def setter(path: str, value: object) -> Edit:
    """An edit that sets one field, `settings.copies` or `placed.0.2` style paths included."""

    def edit(data: dict[str, Any]) -> object:
        *parents, last = path.split(".")
        target: Any = data
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
        return None

    return edit


def remover(key: str) -> Edit:
    return lambda data: data.pop(key)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (remover("turn"), "turn is missing"),
        (setter("colour", [0, 1]), "unknown field 'colour'"),
        (setter("settings.board", "sq99"), "settings.board must be a board id"),
        (setter("settings.board", 9), "settings.board must be text"),
        (setter("settings.copies", MAX_COPIES + 1), "settings.copies must be a whole number"),
        (setter("settings.copies", "2"), "settings.copies"),
        (setter("settings.swap", 1), "settings.swap must be true or false"),
        (setter("settings.ruleset", "go"), "settings.ruleset must be one of"),
        (remover("settings"), "settings is missing"),
        (setter("settings", []), "settings must be a JSON object"),
        (setter("supplies", [[1] * 9]), "supplies must be one list per seat"),
        (setter("supplies.0", [1] * 8), r"supplies\[0\] must be 9 counts"),
        (setter("supplies.0.3", -1), r"supplies\[0\] must be 9 counts"),
        (setter("territory", [None] * 5), "territory must be a list of 121 items"),
        (setter("territory.13", 2), r"territory\[13\] must be null or a seat"),
        (setter("passall", [False]), "passall must be a list of 2 items"),
        (setter("resigned.1", "no"), r"resigned\[1\] must be true or false"),
        (setter("colours.0", 7), r"colours\[0\] must be a seat"),
        (setter("placed.0", [1, "T4"]), r"placed\[0\] must be"),
        (setter("placed.0.1", "Q9"), r"placed\[0\] must be"),
        (setter("placed.0.1", ["T4"]), r"placed\[0\] must be"),
        (setter("placed.0.2", [1000]), r"placed\[0\] must be .* with cells on the board"),
        (setter("placed.0.2", [25, 26, 27, 29]), r"placed\[0\] must be a placement of L4"),
        (setter("placed.0.3", 99), r"placed\[0\] must be .* with a ply before"),
        (setter("turn", 2), "turn must be a whole number from 0 to 1"),
        (setter("ply", -3), "ply must be"),
        (setter("passed", 4), "passed must be a whole number from 0 to 3"),
        (setter("started", -1), "started must be"),
        (setter("ended", "timeout"), "ended must be one of"),
    ],
)
def test_load_refuses_fields_of_the_wrong_shape_and_names_them(edit: Edit, message: str) -> None:
    data = dumped()
    edit(data)
    with pytest.raises(ValueError, match=message) as info:
        RULES.load(data)
    assert str(info.value).startswith("TilingKing snapshot: ") and "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (setter("supplies.1.7", 1), "seat 1 has 1 L4 in supply and 1 on the board"),
        (setter("placed.1.2", [13, 14, 15, 16]), "overlaps another piece"),  # Red's I4 onto Blue's cells
        (setter("placed.1.3", 0), "not in placement order"),
        (setter("territory.0", BLUE), "territory includes a neutral cell or one at the edge"),
        (setter("territory.34", BLUE), "a piece stands on seat 1's territory"),
        (setter("colours", [1, 0]), "only the pie swap exchanges colours"),
        (setter("colours", [1, 1]), "must give each seat its own colour"),
        (setter("passed", 3), "every seat in the game has passed in a row"),
        (setter("resigned", [True, False]), "all but one seat have resigned"),
        (setter("ended", "resignation"), "exactly one seat is left"),
    ],
)
def test_load_refuses_positions_that_no_game_reaches(edit: Edit, message: str) -> None:
    data = dumped()
    edit(data)
    with pytest.raises(ValueError, match=message):
        RULES.load(data)


def test_load_refuses_passes_by_seats_that_never_had_a_turn() -> None:
    start = RULES.new(3, {}, 0)
    for field, value, message in [
        ("passed", 2, "passed without having had a turn"),
        ("passall", [False, True, False], "passes for the rest of the game without having had a turn"),
    ]:
        with pytest.raises(ValueError, match=message):
            RULES.load({**dumped(start), field: value})


def test_load_refuses_what_is_not_a_snapshot() -> None:
    for data in (None, [], "settings", 3, {"settings": {}}):
        with pytest.raises(ValueError, match="TilingKing snapshot"):
            RULES.load(data)  # type: ignore[arg-type]


def test_a_game_over_by_resignation_and_a_resigned_seat_in_a_game_that_goes_on_reload() -> None:
    three = RULES.resign(RULES.new(3, {}, 0), BLUE)
    assert RULES.load(dumped(three)) == three
    over = RULES.resign(captured(), RED)
    assert RULES.outcome(over) is not None
    assert RULES.load(dumped(over)) == over


def test_an_untouched_dump_is_not_changed_by_a_failed_load() -> None:
    data = dumped()
    kept = copy.deepcopy(data)
    data["turn"] = 9
    with pytest.raises(ValueError):
        RULES.load(data)
    data["turn"] = kept["turn"]
    assert data == kept and RULES.load(data) == captured()


def test_a_snapshot_from_before_the_timeout_option_keeps_the_rule() -> None:
    """Snapshots written before the `timeout` option existed load with the published rule (pass all)."""
    from games.tilingking import RULES
    from games.tilingking.rules import PASSALL_MOVE, RESIGN_MOVE

    data = RULES.dump(RULES.new(2, {}, 0))
    del data["settings"]["timeout"]
    assert RULES.timeout_move(RULES.load(data)) == PASSALL_MOVE
    resigning = RULES.new(2, {"timeout": "resign"}, 0)
    assert RULES.timeout_move(RULES.load(RULES.dump(resigning))) == RESIGN_MOVE
