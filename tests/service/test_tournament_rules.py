"""Rules of tournaments the players meet: an event's default time per turn fits its length."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.service.tournaments.model import (
    DEFAULT_TURN_S,
    TURN_STEPS_S,
    TURNS_TO_FIT,
    Format,
    default_turn_s,
)


@given(st.sampled_from(list(Format)), st.integers(60, 10080 * 60), st.none() | st.integers(3600, 720 * 3600))
def test_the_default_turn_time_fits_the_events_length(
    format: Format, duration_s: int, round_s: int | None
) -> None:
    """A usual step, at most a twentieth of the event's length (never under a minute), the largest such
    step; a day for rounds without a deadline."""
    turn = default_turn_s(format, duration_s, round_s)
    assert turn in TURN_STEPS_S
    length = duration_s if format is Format.ARENA else round_s
    if length is None:
        assert turn == DEFAULT_TURN_S
        return
    assert turn == TURN_STEPS_S[0] or turn * TURNS_TO_FIT <= length
    bigger = [step for step in TURN_STEPS_S if step > turn]
    assert not bigger or bigger[0] * TURNS_TO_FIT > length


def test_the_default_turn_time_of_some_events() -> None:
    assert default_turn_s(Format.ARENA, 15 * 60) == 60
    assert default_turn_s(Format.ARENA, 60 * 60) == 180
    assert default_turn_s(Format.ARENA, 7 * 86400) == 21600
    assert default_turn_s(Format.SWISS, 3600) == DEFAULT_TURN_S
    assert default_turn_s(Format.ROUND_ROBIN, 3600, round_s=86400) == 3600
