"""One number style per standings table, text and image alike: a table whose Sonneborn-Berger has quarters
(a 4-seat table) writes every number as a decimal ("1.5", "0.75"), never "1½" beside "0.75"; a table of
halves keeps "1½"."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.service.tournaments import texts
from bot.service.tournaments.model import Format, Game, Player, Result, Settings, Status, Tournament
from bot.service.tournaments.standings import compute
from bot.tournament_posts import rows_of
from games.texts import table_numbers
from renderer import standings as drawing

quarters = st.integers(0, 400).map(lambda n: n / 4)


@given(st.lists(quarters | st.integers(0, 100), min_size=1, max_size=30))
def test_a_table_writes_its_numbers_one_way(values: list[float]) -> None:
    write = table_numbers(values)
    shown = [write(v) for v in values]
    assert not (any("½" in s for s in shown) and any("." in s for s in shown))
    for value, text in zip(values, shown, strict=True):
        assert float(text.replace("½", ".5") if text != "½" else "0.5") == value


def event(seats_results: list[tuple[tuple[int, ...], tuple[int, ...]]], seats: int) -> Tournament:
    users = sorted({u for table, _ in seats_results for u in table})
    players = tuple(Player(u, 1500.0, n) for n, u in enumerate(users, 1))
    games = tuple(
        Game(n, 1, table, result=Result.from_places(list(places)))
        for n, (table, places) in enumerate(seats_results, 1)
    )
    settings = Settings("tilingking", Format.SWISS, seats=seats, rounds=1)
    t = Tournament(1, 1, 1, 1, settings, 0.0, Status.RUNNING, players, games, round=1, rounds_total=1)
    return replace(t, status=Status.FINISHED)


def drawn_numbers(monkeypatch: pytest.MonkeyPatch, draw: Any) -> list[str]:
    """The numbers an image draws (its cells' texts that are numbers)."""
    found: list[str] = []
    real = drawing.draw_text

    def spy(img: Any, x: float, y: float, text: str, *args: Any, **kwargs: Any) -> None:
        found.append(text)
        real(img, x, y, text, *args, **kwargs)

    monkeypatch.setattr(drawing, "draw_text", spy)
    draw()
    return [t.removeprefix("Points: ") for t in found if re.fullmatch(r"(Points: )?(\d+(\.\d+)?½?|½)", t)]


@pytest.mark.parametrize(("places", "style"), [((1, 2, 2, 4), "."), ((1, 2, 3, 4), None)])
def test_standings_write_one_number_style_in_text_and_image(
    monkeypatch: pytest.MonkeyPatch, places: tuple[int, ...], style: str | None
) -> None:
    """Places 1, 2, 2, 4 at a table of four: 3, 1.5, 1.5, 0 points and Sonneborn-Berger 0.75: decimals
    everywhere. Places 1 to 4: whole numbers only."""
    t = event([((11, 12, 13, 14), places)], seats=4)
    table = compute(t)
    text = texts.standings(t, table, {}, final=True)
    numbers = re.findall(r"(?<![#<@\w.])(?:\d+(?:\.\d+)?½?|½)(?![\d>])", text.split("\n", 1)[1])
    keys = [tb.value for tb in t.settings.tiebreak_order()]
    rows = rows_of(table, {})
    image = drawn_numbers(monkeypatch, lambda: drawing.standings_png(rows, keys, "Final standings"))
    podium = drawn_numbers(monkeypatch, lambda: drawing.podium_png(rows, "Podium"))
    for shown in (numbers, image, podium):
        assert not any("½" in n for n in shown) or not any("." in n for n in shown), shown
    if style == ".":
        assert "1.5" in numbers and "0.75" in numbers and "1½" not in text
        assert "1.5" in image and "0.75" in image
    assert any("." in n for n in numbers + image) == (style == ".")
