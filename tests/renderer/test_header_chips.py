"""The header's chips keep each player's colour word: a 4-player TilingKing final shared by several winners
shows every winner's colour (in a narrow chip the cell count gives way first), alike for every winner, in
every language."""

from __future__ import annotations

import random
from typing import Any

import pytest

import games
import renderer
from bot.i18n import translations
from games.base import Outcome
from renderer import canvas
from renderer import text as wording


def final_of_four() -> Any:
    rules = games.GAMES["tilingking"]
    state = rules.new(4, {}, 3)
    rng = random.Random(1)
    while rules.outcome(state) is None:
        moves = [m for m in rules.legal_moves(state) if rules.notation(state, m) not in ("resign", "passall")]
        state = rules.apply(state, rng.choice(moves))
    return state


@pytest.mark.parametrize("locale", ["en", "fr", "de", "es", "it", "pt_BR", "pl", "ja"])
@pytest.mark.parametrize("ranks", [(0, 0, 1, 2), (1, 0, 0, 2), (0, 1, 0, 0)])
def test_every_winners_chip_keeps_its_colour_word(
    monkeypatch: pytest.MonkeyPatch, locale: str, ranks: tuple[int, ...]
) -> None:
    rules = games.GAMES["tilingking"]
    state = final_of_four()
    drawn: list[str] = []
    real = canvas.draw_text

    def spy(img: Any, x: float, y: float, text: str, *args: Any, **kwargs: Any) -> None:
        drawn.append(text)
        real(img, x, y, text, *args, **kwargs)

    monkeypatch.setattr(canvas, "draw_text", spy)
    termination = rules.outcome(state).termination
    words = translations(locale)
    renderer.render(
        "tilingking",
        state,
        players=["Alice", "Bob", "Carol", "Dan"],
        outcome=Outcome(termination, ranks),
        translations=words,
    )
    with wording.using(words):
        flag = wording.text("chip.winner")
        roles = [wording.word(rules.seat_label(state, seat)) for seat in range(4)]
    lines = [text for text in drawn if text.startswith(flag)]
    winners = [seat for seat, rank in enumerate(ranks) if rank == 0]
    assert len(lines) == len(winners), drawn
    for seat, line in zip(winners, lines, strict=True):
        assert roles[seat] in line, (line, roles[seat])
    assert len({line.count("·") for line in lines}) == 1, f"winners' chips read alike: {lines}"
