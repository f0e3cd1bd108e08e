"""Every result sentence of a board, for each ending and each kind of seat, and the rating lines under it:
well-formed markdown (the bot's name once broke the bold: "****Tessera** (easy) won**"), the same words as
the image, one scale for ratings with differences that add up, and plurals that agree."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

import games
from bot.boards import rating_lines, result_lines, result_sentence
from bot.i18n import ENGLISH
from bot.service.ratings import (
    NEW_MU,
    NEW_SIGMA,
    POINTS_PER_MU,
    PROVISIONAL_SIGMA,
    SETTLED_SIGMA,
    after_match,
    shown_rating,
)
from bot.service.records import Finished, MatchRecord, MatchStatus, MatchView, Player, RatingChange
from games.base import Outcome, Termination

ALICE, BOB, CAROL, BOT_ID = 11, 22, 33, 99


def person(seat: int, user_id: int) -> Player:
    return Player(seat, user_id)


def bot(seat: int, level: str = "easy") -> Player:
    return Player(seat, BOT_ID, level)


def finished(
    game: str,
    seats: Sequence[Player],
    outcome: Outcome,
    *,
    by_user: int | None = None,
    changes: Sequence[RatingChange] = (),
) -> Finished:
    rules = games.get(game)
    state = rules.new(len(seats), {}, 1)
    aborted = outcome.termination is Termination.ABORTED
    record = MatchRecord(
        id=7,
        game=game,
        options={},
        seed=1,
        guild_id=1,
        channel_id=2,
        seats=tuple(seats),
        status=MatchStatus.ABORTED if aborted else MatchStatus.FINISHED,
        ply=12,
        turn_timeout=3600.0,
        deadline=None,
        snapshot="{}",
        outcome=outcome,
        rated=True,
        ratings_applied=True,
        abort_votes=(),
        takeback=None,
        created_at=0.0,
        updated_at=0.0,
        finished_at=0.0,
    )
    view = MatchView.of(record, state, None)
    winners = tuple(seats[s].user_id for s in outcome.winners)
    return Finished(view, outcome, winners, by_user, tuple(changes))


TWO = (person(0, ALICE), person(1, BOB))
VS_BOT = (person(0, ALICE), bot(1))
BOT_FIRST = (bot(0, "hard"), person(1, ALICE))
THREE = (person(0, ALICE), person(1, BOB), person(2, CAROL))
T = Termination

CASES = [
    # (game, seats, outcome, by_user, the sentence)
    (
        "paintscape",
        TWO,
        Outcome.win(0, 2, T.COLOURS),
        None,
        f"**<@{ALICE}> wins by collecting three colours.**",
    ),
    (
        "paintscape",
        VS_BOT,
        Outcome.win(1, 2, T.COLOURS),
        None,
        "**Tessera (easy) wins by collecting three colours.**",
    ),
    ("paint", TWO, Outcome.win(1, 2, T.LEAD), None, f"**<@{BOB}> wins by holding the lead.**"),
    ("paint", BOT_FIRST, Outcome.win(0, 2, T.LEAD), None, "**Tessera (hard) wins by holding the lead.**"),
    ("paint", TWO, Outcome.draw(2, T.NO_LEAD), None, "**Draw: nobody held the lead.**"),
    ("paint", TWO, Outcome.draw(2, T.MOVE_CAP), None, "**Draw: the move limit was reached.**"),
    (
        "paint",
        VS_BOT,
        Outcome.loss(1, 2, T.NO_MOVES),
        None,
        f"**<@{ALICE}> wins: the opponent has no move.**",
    ),
    ("tilingking", TWO, Outcome.by_score((30, 21), T.PASSES), None, f"**<@{ALICE}> wins on score.**"),
    (
        "tilingking",
        THREE,
        Outcome.by_score((30, 30, 21), T.PASSES),
        None,
        f"**<@{ALICE}> and <@{BOB}> share first place on score.**",
    ),
    ("tilingking", THREE, Outcome.by_score((25, 25, 25), T.PASSES), None, "**Draw on score.**"),
    (
        "tilingking",
        (person(0, ALICE), bot(1), person(2, CAROL)),
        Outcome.by_score((20, 31, 20), T.PASSES),
        None,
        "**Tessera (easy) wins on score.**",
    ),
    (
        "paintscape",
        TWO,
        Outcome.loss(1, 2, T.RESIGNATION),
        BOB,
        f"<@{BOB}> resigned. **<@{ALICE}> wins by resignation.**",
    ),
    (
        "paint",
        VS_BOT,
        Outcome.loss(0, 2, T.RESIGNATION),
        ALICE,
        f"<@{ALICE}> resigned. **Tessera (easy) wins by resignation.**",
    ),
    (
        "tilingking",
        THREE,
        Outcome.loss(2, 3, T.RESIGNATION),
        CAROL,
        f"<@{CAROL}> resigned. **<@{ALICE}> and <@{BOB}> share first place after a resignation.**",
    ),
    (
        "paint",
        TWO,
        Outcome.loss(0, 2, T.TIMEOUT),
        ALICE,
        f"<@{ALICE}> ran out of time. **<@{BOB}> wins on time.**",
    ),
    (
        "paintscape",
        BOT_FIRST,
        Outcome.loss(1, 2, T.TIMEOUT),
        ALICE,
        f"<@{ALICE}> ran out of time. **Tessera (hard) wins on time.**",
    ),
    (
        "paint",
        TWO,
        Outcome(T.ABORTED, (0, 0)),
        CAROL,
        f"**Match #7 was aborted by <@{CAROL}>.** No result, no rating change.",
    ),
    (
        "tilingking",
        THREE,
        Outcome(T.ABORTED, (0, 0, 0)),
        None,
        "**Match #7 was aborted.** No result, no rating change.",
    ),
]


def well_formed(markdown: str) -> None:
    """Bold markers come in pairs, never doubled or empty, and never hug a space on the inside."""
    assert "****" not in markdown and "** **" not in markdown, markdown
    assert markdown.count("**") % 2 == 0, markdown
    for inner in re.findall(r"\*\*(.*?)\*\*", markdown):
        assert inner and inner == inner.strip() and "*" not in inner, markdown


@pytest.mark.parametrize(("game", "seats", "outcome", "by_user", "expected"), CASES)
def test_every_ending_reads_right_for_every_kind_of_seat(
    game: str, seats: Sequence[Player], outcome: Outcome, by_user: int | None, expected: str
) -> None:
    done = finished(game, seats, outcome, by_user=by_user)
    sentence = result_sentence(done)
    assert sentence == expected
    well_formed(sentence)
    lines = result_lines(done, games.get(game))
    assert lines[0] == sentence
    assert sum("resigned" in line or "ran out of time" in line for line in lines) == (by_user is not None) * (
        outcome.termination in (T.RESIGNATION, T.TIMEOUT)
    ), "who resigned or timed out is said once"
    for line in lines:
        well_formed(line)


def test_scores_follow_the_result_and_an_abort_shows_none() -> None:
    done = finished("tilingking", TWO, Outcome.by_score((30, 21), T.PASSES))
    lines = result_lines(done, games.get("tilingking"))
    assert lines[1] == "Score (Red–Blue): 30–21"
    aborted = finished("tilingking", TWO, Outcome(T.ABORTED, (0, 0), (3, 4)))
    assert len(result_lines(aborted, games.get("tilingking"))) == 1


# ------------------------------------------------------------------------------------------------ ratings


def change(key: str, before: tuple[float, float] | None, after: tuple[float, float]) -> RatingChange:
    mu0, sigma0 = before if before is not None else (None, None)
    return RatingChange(7, key, mu0, sigma0, after[0], after[1])


def test_a_new_player_shows_1500_and_the_scale_is_elo_like() -> None:
    assert shown_rating(NEW_MU, NEW_SIGMA).points == 1500
    # The shown rating is mu on the scale: sigma does not move it (mu - 3 sigma rose for everyone).
    assert shown_rating(30.0, 2.0).points == shown_rating(30.0, 7.0).points == round(1500 + 5 * POINTS_PER_MU)
    assert (
        shown_rating(NEW_MU, NEW_SIGMA).provisional
        and not shown_rating(NEW_MU, PROVISIONAL_SIGMA).provisional
    )
    # 200 points mean what they mean in Elo: the update expects the settled favourite to score about 76%
    # (what it loses by losing, over what it gains and loses by either result).
    favourite, underdog = (NEW_MU + 200 / POINTS_PER_MU, SETTLED_SIGMA), (NEW_MU, SETTLED_SIGMA)
    gain = after_match([favourite, underdog], [1.0, 2.0])[0][0] - favourite[0]
    loss = favourite[0] - after_match([favourite, underdog], [2.0, 1.0])[0][0]
    assert loss / (gain + loss) == pytest.approx(1 / (1 + 10 ** (-200 / 400)), abs=0.005)


def test_rating_lines_for_a_first_game_and_an_established_player() -> None:
    lines = rating_lines(
        [
            change(f"user:{ALICE}", None, (27.635389, 8.065901)),
            change("ai:easy", None, (22.364611, 8.065901)),
            change(f"user:{BOB}", (30.0, 3.0), (30.6, 2.95)),
        ]
    )
    assert lines == [
        f"<@{ALICE}>: 1500 → 1567 (+67), first rated game, provisional",
        "Tessera (easy): 1500 → 1433 (-67), first rated game, provisional",
        f"<@{BOB}>: 1626 → 1642 (+16)",
    ]


@given(st.floats(0, 60), st.floats(0.5, 8.4), st.floats(-5, 5), st.floats(-1, 0), st.booleans())
def test_a_rating_line_always_adds_up(
    mu: float, sigma: float, dmu: float, dsigma: float, first: bool
) -> None:
    before = None if first else (mu, sigma)
    after = (mu + dmu, max(0.1, sigma + dsigma))
    [line] = rating_lines([change(f"user:{ALICE}", before, after)])
    found = re.fullmatch(
        r"<@\d+>: (-?\d+) → (-?\d+) \(([+-]\d+)\)(, first rated game)?(, provisional)?", line
    )
    assert found, line
    shown_before, shown_after, delta = (int(found.group(i)) for i in (1, 2, 3))
    assert shown_after - shown_before == delta
    assert shown_after == shown_rating(*after).points
    assert (found.group(4) is not None) == first
    assert (found.group(5) is not None) == shown_rating(*after).provisional


def test_rating_text_and_plurals() -> None:
    assert str(shown_rating(NEW_MU, NEW_SIGMA)) == "1500?"
    assert str(shown_rating(30.0, 2.0)) == "1626"
    games = [ENGLISH.ngettext("{count} game", "{count} games", n, count=n) for n in (0, 1, 2)]
    assert games == ["0 games", "1 game", "2 games"]
