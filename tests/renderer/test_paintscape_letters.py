"""Paintscape's tile letters are words of each language: five letters that differ from each other and from
that language's stone letters (French brown is M, since N is Noir's; Polish cyan is Cy, since C is
Czarny's), and the board draws them in the language it is drawn in."""

from __future__ import annotations

import pytest

import games
import renderer
from bot.i18n import translations
from bot.service.guilds import LOCALES
from games.paintscape import drawer
from renderer import text as wording
from renderer.scene import TextLine


def letters_of(locale: str) -> tuple[tuple[str, ...], tuple[str, str]]:
    with wording.using(translations(locale)):
        stones = (
            wording.text("paintscape.stone_letter.black"),
            wording.text("paintscape.stone_letter.white"),
        )
        return drawer.tile_letters(), stones


@pytest.mark.parametrize("locale", LOCALES)
def test_each_languages_tile_letters_never_clash(locale: str) -> None:
    tiles, stones = letters_of(locale)
    assert len(tiles) == 5
    every = [letter.casefold() for letter in (*tiles, *stones)]
    assert len(set(every)) == 7, f"{locale}: tiles {tiles}, stones {stones}"


def test_english_keeps_the_rules_letters() -> None:
    assert letters_of("en") == (("Y", "R", "C", "P", "N"), ("B", "W"))


@pytest.mark.parametrize("locale", ["fr", "pl", "ja"])
def test_the_board_draws_the_tile_letters_of_its_language(locale: str) -> None:
    rules = games.GAMES["paintscape"]
    state = rules.new(2, {}, 7)
    built = renderer.board_scene(
        "paintscape", state, players=["Alice", "Bob"], translations=translations(locale)
    )
    drawn = [item.text for item in built.items if isinstance(item, TextLine)]
    tiles, stones = letters_of(locale)
    assert set(tiles) <= set(drawn), (tiles, drawn)
    english_only = {"Y", "P", "N"} - set(tiles) - set(stones)
    assert not english_only & set(drawn), drawn
