"""The turning point image: the board after the move played beside the board after the preferred move, each
the drawer's own image with its last-move mark, under a caption with the move and the win chance."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

import games
import renderer
import renderer.analysis
from bot.i18n import translations

RULES = games.get("paintscape")


def position() -> tuple[object, str, str]:
    """A Paintscape position in play, with two different legal moves."""
    state = RULES.new(2, {"balance": False}, 3)
    moves = [RULES.notation(state, m) for m in RULES.legal_moves(state)]
    return state, moves[0], moves[-1]


def test_the_two_boards_are_the_drawer_s_own_images_of_each_move() -> None:
    state, played, preferred = position()
    png = renderer.analysis.turning_point(
        "paintscape", state, played, preferred, chances=(0.62, 0.31), players=["Alice", "Bob"], size=960
    )
    image = Image.open(io.BytesIO(png)).convert("RGB")
    half = round(960 / 2.02)
    strip = round(half * renderer.analysis.CAPTION_SHARE)
    assert image.width == 2 * half + round(half * renderer.analysis.GAP_SHARE)
    gap = image.width - 2 * half
    for index, move in enumerate((played, preferred)):
        after = RULES.apply(state, RULES.parse(state, move))
        alone = renderer.render("paintscape", after, last_move=move, players=["Alice", "Bob"], size=half)
        expected = Image.open(io.BytesIO(alone)).convert("RGB")
        left = index * (half + gap)
        drawn = image.crop((left, strip, left + half, strip + expected.height))
        assert ImageChops.difference(drawn, expected).getbbox() is None, f"board {index} is the drawer's own"
    assert image.height == strip + expected.height
    caption = image.crop((0, 0, image.width, strip))
    assert caption.getcolors(10_000) is not None and len(caption.getcolors(10_000) or []) > 1, (
        "captions drawn"
    )


def test_the_captions_and_the_alt_text_name_the_moves_and_chances() -> None:
    from renderer import text as wording

    assert (
        wording.text("analysis.played", name="Alice", move="d4", chance="31%")
        == "Alice played d4: 31% to win"
    )
    assert wording.text("analysis.preferred", move="e5", chance="62%") == "Better, e5: 62% to win"
    alt = renderer.analysis.alt_text("d4", "e5", (0.62, 0.31))
    assert "d4: 31% to win" in alt and "after e5: 62%" in alt


def test_the_turning_point_is_drawn_and_described_in_the_language_of_its_translations() -> None:
    """Captions, the boards' own texts and the alt text follow `translations`, like the other drawings."""
    state, played, preferred = position()
    words = translations("ja")
    drawn = {
        language: Image.open(
            io.BytesIO(
                renderer.analysis.turning_point(
                    "paintscape",
                    state,
                    played,
                    preferred,
                    chances=(0.62, 0.31),
                    players=["Alice", "Bob"],
                    size=960,
                    translations=catalog,
                )
            )
        ).convert("RGB")
        for language, catalog in (("en", None), ("ja", words))
    }
    half = round(960 / 2.02)
    strip = round(half * renderer.analysis.CAPTION_SHARE)
    captions = [image.crop((0, 0, image.width, strip)) for image in drawn.values()]
    assert ImageChops.difference(*captions).getbbox() is not None, "the captions are in Japanese"
    after = RULES.apply(state, RULES.parse(state, played))
    board = renderer.render(
        "paintscape", after, last_move=played, players=["Alice", "Bob"], size=half, translations=words
    )
    expected = Image.open(io.BytesIO(board)).convert("RGB")
    left = drawn["ja"].crop((0, strip, half, strip + expected.height))
    assert ImageChops.difference(left, expected).getbbox() is None, "the board is the Japanese board"
    assert renderer.analysis.alt_text("d4", "e5", (0.62, 0.31), translations=translations("fr")) == (
        "Deux plateaux. À gauche, après le coup joué, d4 : 31% de chances de gagner. "
        "À droite, après e5 : 62%."
    )
    assert renderer.analysis.alt_text("d4", "e5", (0.62, 0.31)).startswith("Two boards."), "English again"
