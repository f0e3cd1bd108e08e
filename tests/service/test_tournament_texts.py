"""Standings, pairings and the podium in words (English, and reworded in another language through the
catalogs), and as images (renderer/standings.py)."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.i18n import tr_for, translations
from bot.service.tournaments import texts
from bot.service.tournaments.model import (
    Format,
    Game,
    Player,
    Result,
    ResultKind,
    Settings,
    Status,
    TieBreak,
    Tournament,
)
from bot.service.tournaments.standings import compute
from renderer import canvas
from renderer.standings import MAX_ROWS, Row, medal_colours, podium_png, standings_png
from renderer.theme import COLORBLIND, DEFAULT
from tests.service.test_tournament_standings import A, B, C, D, E, swiss_with_unplayed_rounds

NAMES = {A: "Ann", B: "Bo", C: "Cy", D: "Di", E: "Ed"}


def test_text_standings_list_places_points_and_tiebreaks() -> None:
    t = swiss_with_unplayed_rounds()
    text = texts.standings(t, compute(t), NAMES, final=False)
    assert text.splitlines() == [
        "Standings after round 3 of 3",
        "1. Ann: 2½ (Bh 4½, MBh 1½, SB 3½, DE 0, Wins 2)",
        "2. Di: 2 (Bh 6, MBh 2, SB 4, DE 0, Wins 1)",
        "3. Cy: 1½ (Bh 6, MBh 2, SB 2½, DE 0, Wins 1)",
        "4. Ed: 1½ (Bh 4, MBh 1½, SB 2, DE 0, Wins 1)",
        "5. Bo: ½ (Bh 5, MBh 2, SB 1, DE 0, Wins 0) · withdrew",
        "Bh: Buchholz, MBh: median Buchholz, SB: Sonneborn-Berger, DE: direct encounter",
    ]
    german = tr_for("de").text(text).splitlines()
    assert german[0] == "Tabelle nach Runde 3 von 3"
    assert german[1] == "1. Ann: 2½ (Bh 4½, MBh 1½, SB 3½, DV 0, Siege 2)"
    assert german[5].endswith("· zurückgezogen")
    assert german[-1] == "Bh: Buchholz, MBh: Median-Buchholz, SB: Sonneborn-Berger, DV: direkter Vergleich"
    japanese = tr_for("ja").text(text).splitlines()
    assert japanese[1] == "1. Ann：2½（Bh 4½、MBh 1½、SB 3½、直接 0、勝数 2）"


def test_the_tiebreak_key_names_only_the_events_tiebreaks() -> None:
    """A round robin breaks ties by direct encounter, Sonneborn-Berger and wins: its key explains those two
    abbreviations and no Buchholz; an event ranked by wins alone has no key at all."""
    swiss = swiss_with_unplayed_rounds()
    robin = replace(swiss, settings=replace(swiss.settings, format=Format.ROUND_ROBIN))
    lines = texts.standings(robin, compute(robin), NAMES, final=True).splitlines()
    assert lines[1].startswith("1. ") and "(DE " in lines[1] and "Bh" not in lines[1]
    assert lines[-1] == "DE: direct encounter, SB: Sonneborn-Berger"
    assert not any("Buchholz" in line for line in lines)
    wins_only = replace(swiss, settings=replace(swiss.settings, tiebreaks=(TieBreak.WINS,)))
    last = texts.standings(wins_only, compute(wins_only), NAMES, final=True).splitlines()[-1]
    assert last.startswith("5. Bo")


def test_text_standings_count_the_players_past_the_limit_in_each_languages_plural() -> None:
    t = swiss_with_unplayed_rounds()
    text = texts.standings(t, compute(t), NAMES, final=True, limit=3)
    lines = text.splitlines()
    assert lines[0] == "Final standings" and lines[-2] == "…and 2 more players"
    assert tr_for("pl").text(text).splitlines()[-2] == "…i jeszcze 2 graczy"
    one_more = texts.standings(t, compute(t), NAMES, final=True, limit=4)
    assert one_more.splitlines()[-2] == "…and 1 more player"


def test_pairings_and_podium_texts() -> None:
    t = swiss_with_unplayed_rounds()
    assert texts.pairings(t, 1, NAMES).splitlines() == [
        "Round 1: pairings",
        "1. Ann – Bo",
        "2. Cy – Di",
        "Ed has a bye (1)",
    ]
    finished = replace(t, status=Status.FINISHED)
    podium = texts.podium(finished, compute(t), NAMES)
    assert podium.splitlines() == [
        "Tournament #1 is over. The podium:",
        "🥇 Ann: 2½",
        "🥈 Di: 2",
        "🥉 Cy: 1½",
    ]
    assert tr_for("fr").text(podium).splitlines()[0] == "Le tournoi n°1 est terminé. Le podium :"


def test_a_round_robin_rest_reads_as_sitting_out() -> None:
    players = (Player(A, 1500, 1), Player(B, 1500, 2), Player(C, 1500, 3))
    t = Tournament(
        1,
        1,
        1,
        1,
        Settings("paint", Format.ROUND_ROBIN),
        0.0,
        Status.RUNNING,
        players,
        (Game(1, 1, (A, B)), Game(2, 1, (C,), result=Result((0.0,), ResultKind.BYE))),
        round=1,
        rounds_total=3,
    )
    assert texts.pairings(t, 1, NAMES).splitlines()[-1] == "Cy sits this round out"


def rows(count: int) -> list[Row]:
    return [Row(n + 1, f"Player {n + 1}", 10 - n * 0.5, (12.0, 8.5, 9.25), 5) for n in range(count)]


def image(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def test_the_standings_image_grows_with_its_rows_in_the_theme_colours() -> None:
    tiebreaks = ["buchholz", "median_buchholz", "sonneborn_berger"]
    small = image(standings_png(rows(3), tiebreaks, "Standings after round 2 of 5"))
    big = image(standings_png(rows(10), tiebreaks, "Standings after round 2 of 5"))
    assert small.mode == "P" and small.width == big.width == 960
    assert big.height - small.height == 7 * 40
    rgb = small.convert("RGB")
    assert rgb.getpixel((5, 5)) == DEFAULT.header
    gold = medal_colours(DEFAULT)[0]
    first_row_centre = (20 + 22, 72 + 40 + 20)
    assert rgb.getpixel((first_row_centre[0] - 8, first_row_centre[1])) == gold
    blind = image(standings_png(rows(3), tiebreaks, "x", theme="colorblind")).convert("RGB")
    assert blind.getpixel((5, 5)) == COLORBLIND.header


def test_the_standings_image_stops_at_its_row_limit_and_counts_the_rest() -> None:
    capped = image(standings_png(rows(MAX_ROWS + 5), [], "Final standings"))
    full = image(standings_png(rows(MAX_ROWS), [], "Final standings"))
    assert capped.height == full.height - 12 + 44, "the footer line takes the place of the bottom margin"


def test_the_images_word_their_heads_in_the_readers_language() -> None:
    english = standings_png(rows(2), ["wins"], "Final standings")
    japanese = standings_png(rows(2), ["wins"], "最終順位", translations=translations("ja"))
    assert english != japanese
    podium = image(podium_png(rows(3), "Tournament #1 is over", translations=translations("de")))
    assert podium.width == 960 and podium.height == round(960 * 0.56)


def test_a_podium_step_shared_by_more_than_three_names_two_and_counts_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Five players tied for first: the step shows two names and "…and 3 more players" (the text podium
    lists all five), never three names as if they were all."""
    drawn: list[str] = []
    real = canvas.draw_text

    def spy(img: Any, x: float, y: float, text: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(text)
        return real(img, x, y, text, *args, **kwargs)

    monkeypatch.setattr("renderer.standings.draw_text", spy)
    tied = [Row(1, f"Player {n + 1}", 3.0, (), 4) for n in range(5)] + [Row(6, "Player 6", 1.0, (), 4)]
    png = podium_png(tied, "Tournament #1: the podium")
    names = [text for text in drawn if text.startswith("Player ")]
    assert names == ["Player 2", "Player 1"]  # drawn bottom up
    assert "…and 3 more players" in drawn
    Path("/tmp/podium-five-way.png").write_bytes(png)
    drawn.clear()
    podium_png(tied[:3] + tied[5:], "Tournament #1: the podium")
    assert [t for t in drawn if t.startswith("Player ")] == ["Player 3", "Player 2", "Player 1"]
    assert not any(t.startswith("…and") for t in drawn)
