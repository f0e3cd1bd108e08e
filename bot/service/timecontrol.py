"""Live time controls and the clock arithmetic behind them: pure, no I/O, no event loop.

A live match has a `TimeControl`: a base time per seat and a Fischer increment, written ``5+3`` (minutes +
seconds, as lichess and chess clocks write it). A correspondence match has none and keeps its per-turn
deadline (`MatchRecord.turn_timeout`).

The rules of the clock (the service stamps each move with the time it receives it; `MatchService`):

- Each seat starts with `base` seconds. A seat's clock runs only while it is to move.
- **First move**: until a seat has chosen its first move its clock does not run; it has `FIRST_MOVE_SECONDS`
  for that move instead, and missing it aborts the match, unrated (the existing early-timeout rule).
  The first move costs nothing and earns no increment.
- **A chosen move** costs the time since the turn began and earns the increment:
  ``after = before - (now - turn_start) + increment``. A forced move (an automatic pass) and a resignation
  cost and earn nothing: the turn of the next seat to choose begins at the same stamp.
- **Flag**: a seat whose remaining time reaches 0 while it is to move has flagged; the service then applies
  the game's timeout rule (a loss, or TilingKing's pass-all or resign option).
- **Berserk** (an arena's, lichess): a berserked seat starts with half the base and earns no increment;
  every function below takes the berserked seats (`berserk`).
- **Takeback**: the clocks go back with the moves: each seat has what it had after its last move that
  remains (the log stores it), and the turn of the seat to move begins at the takeback.
- **Downtime** (as lichess gives time back after its restarts): time while the service is down is not
  charged. When the service starts, the turn of the seat to move in every running live match begins again
  with the clock that seat had when its turn began (`resumed_deadline`).

The running clock lives in the match's deadline: ``deadline = turn_start + remaining`` (or
``turn_start + FIRST_MOVE_SECONDS`` before a seat's first move), so the flag time is the deadline, and the
remaining time of the seat to move is ``deadline - now``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.base import RESIGN, InvalidOptions
from games.texts import Text

FIRST_MOVE_SECONDS = 30.0
"""Seconds each seat has for its first move in a live match; missing it aborts the match, unrated."""
MIN_BASE = 15
"""The shortest base time allowed, in seconds."""
MAX_BASE = 180 * 60
"""The longest base time allowed, in seconds (three hours: longer is correspondence)."""
MAX_INCREMENT = 180
"""The largest increment allowed, in seconds."""
DEFAULT_PRESETS: tuple[tuple[int, int], ...] = ((180, 2), (300, 3), (600, 5))
"""Presets (base seconds, increment) for a game that names none (`Rules.clock_presets`)."""
LOW_TIME_SECONDS = 10.0
"""Under this much time (or under 10% of the base) a clock is shown as low."""

_CONTROL = re.compile(r"^\s*(\d{1,3}(?:\.\d{1,2})?|½|1/2|1/4|3/4)\s*\+\s*(\d{1,3})\s*$")
_FRACTIONS = {"½": 0.5, "1/2": 0.5, "1/4": 0.25, "3/4": 0.75}


@dataclass(frozen=True, slots=True, order=True)
class TimeControl:
    """A live time control: `base` seconds per seat and a Fischer `increment` in seconds per move."""

    base: int
    increment: int

    def __post_init__(self) -> None:
        if not MIN_BASE <= self.base <= MAX_BASE or not 0 <= self.increment <= MAX_INCREMENT:
            raise ValueError(f"no such time control: {self.base}+{self.increment}")

    @property
    def text(self) -> str:
        """The control as players write it: ``5+3`` (minutes + seconds; ``0.5+0`` for 30 seconds)."""
        minutes = self.base / 60
        shown = f"{minutes:g}" if minutes == round(minutes, 2) else f"{minutes:.2f}"
        return f"{shown}+{self.increment}"

    @classmethod
    def of(cls, text: str | None) -> TimeControl | None:
        """A stored control (its `text`), None for none; ValueError for text that is none."""
        if not text:
            return None
        try:
            return parse_control(text)
        except InvalidOptions as error:
            raise ValueError(str(error)) from None

    @property
    def low_under(self) -> float:
        """Seconds under which a clock is low: 10 s, or 10% of the base where that is more."""
        return max(LOW_TIME_SECONDS, self.base / 10)

    def low(self, remaining: float) -> bool:
        """Whether `remaining` seconds is low time (`low_under`)."""
        return remaining < self.low_under

    def __str__(self) -> str:
        return self.text


def parse_control(text: str) -> TimeControl | None:
    """A time control typed by a player: ``5+3`` (5 minutes, 3 seconds a move); ``½+0``, ``0.5+0`` or
    ``1/2+0`` for 30 seconds. Empty, ``none`` or ``correspondence`` is no live clock (None). Raises
    InvalidOptions with a message that says what to type."""
    cleaned = text.strip().lower()
    if cleaned in ("", "none", "off", "correspondence", "corr"):
        return None
    found = _CONTROL.match(cleaned)
    if found is None:
        raise InvalidOptions(
            Text(
                "{text!r} is not a time control: write minutes+seconds, like 5+3 (3 seconds a move)",
                text=text,
            )
        )
    minutes_text, increment_text = found.groups()
    minutes = _FRACTIONS.get(minutes_text) or float(minutes_text)
    base, increment = round(minutes * 60), int(increment_text)
    if not MIN_BASE <= base <= MAX_BASE:
        raise InvalidOptions(
            Text(
                "a live clock has {least} seconds to {most} minutes: choose a base in that range, like 5+3",
                least=MIN_BASE,
                most=MAX_BASE // 60,
            )
        )
    if increment > MAX_INCREMENT:
        raise InvalidOptions(
            Text("the increment is at most {most} seconds a move, like 5+3", most=MAX_INCREMENT)
        )
    return TimeControl(base, increment)


def presets(rules: Any) -> tuple[TimeControl, ...]:
    """The live presets of a game (`Rules.clock_presets`, chosen for its length), or the default ones."""
    pairs: Sequence[tuple[int, int]] = getattr(rules, "clock_presets", ()) or DEFAULT_PRESETS
    return tuple(TimeControl(base, increment) for base, increment in pairs)


# ------------------------------------------------------------------------------------------- arithmetic


@dataclass(frozen=True, slots=True)
class Stamp:
    """What the clock needs of one stored move: who made it, whether it was chosen (not forced, not a
    resignation), and the mover's remaining seconds after it (None where no clock was kept)."""

    seat: int
    chosen: bool
    clock: float | None


def stamps(moves: Iterable[Any]) -> list[Stamp]:
    """`Stamp`s of stored moves (anything with seat, forced, notation and clock)."""
    return [Stamp(m.seat, not m.forced and m.notation != RESIGN, getattr(m, "clock", None)) for m in moves]


def starting(control: TimeControl, seat: int, berserk: Collection[int] = ()) -> float:
    """A seat's clock before its first move: the base, halved for a berserked seat."""
    return control.base / 2 if seat in berserk else float(control.base)


def increment_of(control: TimeControl, seat: int, berserk: Collection[int] = ()) -> int:
    """What a seat earns per chosen move: the increment, none for a berserked seat."""
    return 0 if seat in berserk else control.increment


def remaining(
    control: TimeControl, seats: int, log: Sequence[Stamp], berserk: Collection[int] = ()
) -> list[float]:
    """Each seat's remaining seconds as of its last move in `log` (its `starting` clock before its first):
    what the clocks show between turns, and what each seat's turn begins with."""
    left = [starting(control, seat, berserk) for seat in range(seats)]
    for stamp in log:
        if stamp.clock is not None and 0 <= stamp.seat < seats:
            left[stamp.seat] = stamp.clock
    return left


def has_chosen(seat: int, log: Sequence[Stamp]) -> bool:
    """Whether `seat` has chosen a move of its own in `log` (its clock runs from then on)."""
    return any(s.seat == seat and s.chosen for s in log)


def turn_allowance(
    control: TimeControl, seat: int, log: Sequence[Stamp], berserk: Collection[int] = ()
) -> float:
    """Seconds `seat` has for the turn it begins now: `FIRST_MOVE_SECONDS` before its first chosen move,
    else its remaining clock."""
    if not has_chosen(seat, log):
        return FIRST_MOVE_SECONDS
    return remaining(control, seat + 1, log, berserk)[seat]


def after_move(
    control: TimeControl,
    seat: int,
    log: Sequence[Stamp],
    turn_start: float,
    now: float,
    berserk: Collection[int] = (),
) -> float:
    """The mover's remaining seconds after choosing a move at `now` in a turn that began at `turn_start`:
    before minus the time spent plus the increment; its first move costs and earns nothing. Never below 0
    (a move that arrives after the flag is refused by the caller: `flagged`)."""
    before = remaining(control, seat + 1, log, berserk)[seat]
    if not has_chosen(seat, log):
        return before
    left = before - max(0.0, now - turn_start)
    return left + increment_of(control, seat, berserk) if left > 0 else 0.0


def flagged(deadline: float | None, now: float) -> bool:
    """Whether a live turn whose flag falls at `deadline` has run out by `now`."""
    return deadline is not None and now >= deadline


def running(
    control: TimeControl,
    seats: int,
    log: Sequence[Stamp],
    to_move: int | None,
    deadline: float | None,
    now: float,
    berserk: Collection[int] = (),
) -> list[float]:
    """Every seat's clock at `now`: the stored ones, and the seat to move's ``deadline - now`` (0 at the
    flag) once its clock runs (before its first move it shows its untouched base)."""
    left = remaining(control, seats, log, berserk)
    if to_move is not None and deadline is not None and has_chosen(to_move, log):
        left[to_move] = max(0.0, deadline - now)
    return left


def resumed_deadline(
    control: TimeControl, seat: int, log: Sequence[Stamp], now: float, berserk: Collection[int] = ()
) -> float:
    """The downtime rule: the deadline of a turn that begins again at `now` after the service was down
    (the seat has the time it had when its turn began)."""
    return now + turn_allowance(control, seat, log, berserk)


def think_budget(remaining_s: float, increment: float, moves_left: int = 30, reserve: float = 2.0) -> float:
    """Seconds the bot may think on a live clock: an even share of its time over the moves it expects to
    play, plus most of the increment, always leaving `reserve` seconds (and a tenth of its time) so it never
    flags. Never negative."""
    if remaining_s <= 0:
        return 0.0
    share = remaining_s / max(1, moves_left) + 0.8 * increment
    safe = remaining_s - max(reserve, remaining_s / 10)
    return max(0.0, min(share, safe, remaining_s / 2))


def seconds_text(seconds: float) -> str:
    """A clock reading: ``4:05``, ``1:02:03``, ``9.4`` under ten seconds."""
    if seconds < 10:
        return f"{math.floor(max(0.0, seconds) * 10) / 10:.1f}"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
