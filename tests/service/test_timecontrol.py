"""The clock arithmetic of live time controls (bot/service/timecontrol.py), property-tested against a fake
clock and a plain chess-clock model: increments, flags, forced moves, restarts (the downtime rule),
takebacks, 2-4 seats; and the parsing of controls, the presets, the bot's thinking budget."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from bot.service.timecontrol import (
    DEFAULT_PRESETS,
    FIRST_MOVE_SECONDS,
    Stamp,
    TimeControl,
    after_move,
    flagged,
    parse_control,
    presets,
    resumed_deadline,
    running,
    think_budget,
    turn_allowance,
)
from games.base import InvalidOptions


@dataclass
class Model:
    """A chess clock as a person would describe it: one clock per seat, the mover's running."""

    control: TimeControl
    seats: int
    now: float = 0.0
    to_move: int = 0
    turn_start: float = 0.0
    clocks: list[float] = field(default_factory=list)
    started: list[bool] = field(default_factory=list)
    history: list[tuple[int, list[float], list[bool]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.clocks = [float(self.control.base)] * self.seats
        self.started = [False] * self.seats

    def left(self) -> float:
        """What the mover has left now (the first move's allowance before its clock runs)."""
        if not self.started[self.to_move]:
            return FIRST_MOVE_SECONDS - (self.now - self.turn_start)
        return self.clocks[self.to_move] - (self.now - self.turn_start)

    def shown(self) -> list[float]:
        shown = list(self.clocks)
        if self.started[self.to_move]:
            shown[self.to_move] = max(0.0, self.left())
        return shown

    def move(self, forced: bool) -> None:
        self.history.append((self.to_move, list(self.clocks), list(self.started)))
        if not forced:
            if self.started[self.to_move]:
                self.clocks[self.to_move] = self.left() + self.control.increment
            self.started[self.to_move] = True
        self.to_move = (self.to_move + 1) % self.seats
        self.turn_start = self.now

    def take_back(self, back: int) -> None:
        self.to_move, self.clocks, self.started = self.history[-back]
        del self.history[-back:]
        self.turn_start = self.now


@dataclass
class Service:
    """What the service keeps: the log of stamps and the deadline, and nothing else."""

    control: TimeControl
    seats: int
    log: list[Stamp] = field(default_factory=list)
    to_move: int = 0
    deadline: float = FIRST_MOVE_SECONDS

    def move(self, now: float, forced: bool) -> None:
        seat = self.to_move
        if forced:
            self.log.append(Stamp(seat, False, None))
        else:
            start = self.deadline - turn_allowance(self.control, seat, self.log)
            self.log.append(Stamp(seat, True, after_move(self.control, seat, self.log, start, now)))
        self.to_move = (seat + 1) % self.seats
        self.deadline = now + turn_allowance(self.control, self.to_move, self.log)

    def take_back(self, now: float, back: int) -> None:
        self.to_move = self.log[-back].seat
        del self.log[-back:]
        self.deadline = now + turn_allowance(self.control, self.to_move, self.log)

    def restart(self, now: float) -> None:
        self.deadline = resumed_deadline(self.control, self.to_move, self.log, now)


controls = st.builds(TimeControl, st.integers(15, 900), st.integers(0, 30))
actions = st.lists(
    st.one_of(
        st.tuples(st.just("move"), st.floats(0, 120, allow_nan=False)),
        st.tuples(st.just("forced"), st.just(0.0)),
        st.tuples(st.just("restart"), st.floats(0, 10_000, allow_nan=False)),
        st.tuples(st.just("back"), st.integers(1, 4)),
    ),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(controls, st.integers(2, 4), actions)
def test_the_stored_clocks_agree_with_a_chess_clock(
    control: TimeControl, seats: int, steps: list[tuple[str, float]]
) -> None:
    model, service = Model(control, seats), Service(control, seats)
    for kind, value in steps:
        if kind == "move":
            model.now += value
            if model.left() <= 0:  # the flag falls first: both agree, and the game would end here
                assert flagged(service.deadline, model.now)
                return
            assert not flagged(service.deadline, model.now)
        elif kind == "restart":  # the service is down `value` seconds, then gives the turn back
            model.now += value
            model.turn_start = model.now
            service.restart(model.now)
            continue
        elif kind == "back":
            back = int(value)
            if back > len(model.history):
                continue
            model.take_back(back)
            service.take_back(model.now, back)
            continue
        if kind in ("move", "forced"):
            model.move(forced=kind == "forced")
            service.move(model.now, forced=kind == "forced")
        shown = running(control, seats, service.log, service.to_move, service.deadline, model.now)
        assert shown == pytest.approx(model.shown(), abs=1e-6)
        assert service.deadline == pytest.approx(model.now + model.left(), abs=1e-6)
        assert all(c >= 0 for c in shown)


@settings(max_examples=200, deadline=None)
@given(controls, st.lists(st.floats(0, 30, allow_nan=False), min_size=2, max_size=40))
def test_time_is_conserved_move_by_move(control: TimeControl, thinks: list[float]) -> None:
    """Two players: the clocks hold the bases, plus an increment per move after the first, minus the time
    spent on the clocks; never more, never less."""
    model, service = Model(control, 2), Service(control, 2)
    spent, earned = 0.0, 0
    for think in thinks:
        model.now += think
        if flagged(service.deadline, model.now):
            return
        if model.started[model.to_move]:
            spent += think
            earned += control.increment
        model.move(False)
        service.move(model.now, False)
        total = sum(running(control, 2, service.log, service.to_move, service.deadline, model.now))
        assert total == pytest.approx(2 * control.base + earned - spent, abs=1e-6)


def test_a_move_exactly_at_the_flag_is_flagged() -> None:
    assert flagged(100.0, 100.0) and not flagged(100.0, 99.999) and not flagged(None, 1e12)


@given(controls)
def test_a_control_reads_back_from_its_text(control: TimeControl) -> None:
    assert parse_control(control.text) == control
    assert parse_control(str(control)) == control


@pytest.mark.parametrize(
    ("text", "base", "increment"),
    [
        ("5+3", 300, 3),
        ("10+5", 600, 5),
        (" 3 + 2 ", 180, 2),
        ("½+0", 30, 0),
        ("1/2+1", 30, 1),
        ("0.25+0", 15, 0),
    ],
)
def test_controls_are_minutes_plus_seconds(text: str, base: int, increment: int) -> None:
    assert parse_control(text) == TimeControl(base, increment)


@pytest.mark.parametrize("text", ["", "none", "correspondence", "  "])
def test_no_control_is_correspondence(text: str) -> None:
    assert parse_control(text) is None


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("5", "minutes\\+seconds"),
        ("5+3+1", "minutes\\+seconds"),
        ("fast", "minutes\\+seconds"),
        ("0+2", "15 seconds to 180 minutes"),
        ("181+0", "15 seconds to 180 minutes"),
        ("5+500", "at most 180 seconds"),
    ],
)
def test_a_bad_control_says_what_to_type(text: str, says: str) -> None:
    with pytest.raises(InvalidOptions, match=says):
        parse_control(text)


def test_every_game_has_presets_for_its_length() -> None:
    for game_id in games.GAMES:
        found = presets(games.get(game_id))
        assert found and found == tuple(sorted(found))
    assert presets(games.get("paintscape")) == (TimeControl(180, 2), TimeControl(300, 3), TimeControl(600, 5))
    assert presets(games.get("tilingking"))[0].base > presets(games.get("paint"))[0].base
    assert presets(object()) == tuple(TimeControl(b, i) for b, i in DEFAULT_PRESETS)


def test_low_time_is_under_ten_seconds_or_a_tenth() -> None:
    assert TimeControl(60, 0).low(9.9) and not TimeControl(60, 0).low(10)
    assert TimeControl(600, 0).low(59) and not TimeControl(600, 0).low(61)


@given(st.floats(0, 10_000, allow_nan=False), st.integers(0, 60), st.integers(1, 200))
def test_the_bots_budget_never_flags(remaining: float, increment: int, moves_left: int) -> None:
    """Thinking for its budget, every move, the bot keeps at least two seconds (or a tenth) on its
    clock: it never flags, however many moves the game lasts."""
    budget = think_budget(remaining, increment, moves_left)
    assert 0 <= budget <= remaining
    if remaining > 0:
        assert remaining - budget >= min(remaining, max(2.0, remaining / 10)) - 1e-9 or budget == 0
    clock = remaining
    for _ in range(300):
        if clock <= 0:
            break
        spend = think_budget(clock, increment, moves_left)
        assert spend < clock
        clock = clock - spend + increment
