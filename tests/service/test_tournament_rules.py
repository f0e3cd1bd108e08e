"""Rules of tournaments the players meet: an event's default time per turn fits its length; a match stopped
at a deadline before everyone moved scores nothing (but a no-show's forfeit); an arena scores an early draw
alike, played or adjudicated."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.service.tournaments import lifecycle
from bot.service.tournaments.host import ARENA_EARLY_PLIES, TournamentHost
from bot.service.tournaments.model import (
    DEFAULT_TURN_S,
    TURN_STEPS_S,
    TURNS_TO_FIT,
    Format,
    Result,
    ResultKind,
    Settings,
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


def test_an_unplayed_match_scores_nothing_but_for_a_no_shows_forfeit() -> None:
    assert lifecycle.unplayed(2) == Result((0.0, 0.0), ResultKind.FORFEIT)
    assert lifecycle.unplayed(2, [0]) == Result((0.0, 1.0), ResultKind.FORFEIT)
    assert lifecycle.unplayed(4, [3]) == Result.from_places([1, 1, 1, 2], ResultKind.FORFEIT)
    assert not lifecycle.is_rated(
        lifecycle.create(1, 1, 1, 1, Settings("paint", Format.SWISS), 0.0), lifecycle.unplayed(2)
    )


@pytest.mark.parametrize("kind", [ResultKind.PLAYED, ResultKind.ADJUDICATED])
def test_an_arena_scores_an_early_draw_alike_played_or_adjudicated(kind: ResultKind) -> None:
    """One rule for a game's score: a draw in an arena's first moves scores nothing, whether it was drawn on
    the board or by adjudication at the end; later, or in another format, it is a draw."""
    arena = lifecycle.create(1, 1, 1, 1, Settings("paint", Format.ARENA), 0.0)
    swiss = lifecycle.create(1, 1, 1, 1, Settings("paint", Format.SWISS), 0.0)
    draw = Result((0.5, 0.5), kind)
    assert TournamentHost.scored(arena, draw, ARENA_EARLY_PLIES - 1) == Result((0.0, 0.0), kind)
    assert TournamentHost.scored(arena, draw, ARENA_EARLY_PLIES) == draw
    assert TournamentHost.scored(swiss, draw, 2) == draw
    win = Result((1.0, 0.0), kind)
    assert TournamentHost.scored(arena, win, 2) == win
