"""The turning point image: the board after the move played above the board after the preferred move, each
the drawer's own full-size image with its last-move mark, under a caption with the move and the win chance;
no text on it is cut short, in any language."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

import games
import games.paint.drawer
import games.paintscape.drawer
import games.tilingking.drawer
import renderer
import renderer.analysis
import renderer.canvas
from bot.i18n import DISCORD_LOCALES, SOURCE_LOCALE, translations
from bot.testing import fixtures
from games.texts import Translations
from renderer import DEFAULT_SIZE
from renderer import text as wording

RULES = games.get("paintscape")
LANGUAGES = sorted({SOURCE_LOCALE, *DISCORD_LOCALES.values()})


def position() -> tuple[object, str, str]:
    """A Paintscape position in play, with two different legal moves."""
    state = RULES.new(2, {"balance": False}, 3)
    moves = [RULES.notation(state, m) for m in RULES.legal_moves(state)]
    return state, moves[0], moves[-1]


def open_png(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def find_board(image: Image.Image, board: Image.Image) -> int:
    """The top of the one place where `board` appears whole in `image` (full width)."""
    first_row = board.crop((0, 0, board.width, 1)).tobytes()
    found = [
        top
        for top in range(image.height - board.height + 1)
        if image.crop((0, top, board.width, top + 1)).tobytes() == first_row
        and ImageChops.difference(image.crop((0, top, board.width, top + board.height)), board).getbbox()
        is None
    ]
    assert len(found) == 1, f"the board appears {len(found)} times"
    return found[0]


def test_the_two_boards_are_the_drawer_s_own_full_size_images_of_each_move() -> None:
    state, played, preferred = position()
    png = renderer.analysis.turning_point(
        "paintscape", state, played, preferred, chances=(0.62, 0.31), players=["Alice", "Bob"]
    )
    image = open_png(png)
    tops = []
    for move in (played, preferred):
        after = RULES.apply(state, RULES.parse(state, move))
        alone = open_png(renderer.render("paintscape", after, last_move=move, players=["Alice", "Bob"]))
        assert alone.width == DEFAULT_SIZE
        tops.append(find_board(image, alone))
    assert image.width == alone.width, "as wide as a board"
    assert image.height >= 2 * alone.height, "two whole boards"
    assert 0 < tops[0] < tops[0] + alone.height <= tops[1], "the move played above, the better one below"
    for top in tops:
        caption = image.crop((0, top - 30, image.width, top - 4))
        assert len(caption.getcolors(10_000) or []) > 1, "a caption above each board"


def test_the_captions_and_the_alt_text_name_the_moves_and_chances() -> None:
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
        language: open_png(
            renderer.analysis.turning_point(
                "paintscape",
                state,
                played,
                preferred,
                chances=(0.62, 0.31),
                players=["Alice", "Bob"],
                translations=catalog,
            )
        )
        for language, catalog in (("en", None), ("ja", words))
    }
    after = RULES.apply(state, RULES.parse(state, played))
    board = renderer.render(
        "paintscape", after, last_move=played, players=["Alice", "Bob"], translations=words
    )
    top = find_board(drawn["ja"], open_png(board))
    captions = [image.crop((0, 0, image.width, top)) for image in drawn.values()]
    assert ImageChops.difference(*captions).getbbox() is not None, "the captions are in Japanese"
    assert renderer.analysis.alt_text("d4", "e5", (0.62, 0.31), translations=translations("fr")) == (
        "Deux plateaux. En haut, après le coup joué, d4 : 31% de chances de gagner. En bas, après e5 : 62%."
    )
    assert renderer.analysis.alt_text("d4", "e5", (0.62, 0.31)).startswith("Two boards."), "English again"


def first_position(
    game_id: str, seats: int, options: dict[str, Any], seed: int, wanted: Callable[[Any], bool]
) -> tuple[Any, str, str]:
    """The first position of a seeded random game where `wanted` holds, with two legal moves from it."""
    rules = games.get(game_id)
    rng = random.Random(seed)
    state = rules.new(seats, options, seed)
    while rules.to_move(state) is not None:
        moves = [rules.notation(state, m) for m in rules.legal_moves(state)]
        if wanted(state) and len(moves) > 1:
            return state, moves[0], moves[-1]
        move = rng.choice(moves)
        state = rules.apply(state, rules.parse(state, move))
    raise AssertionError("no such position")


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_no_text_of_the_image_is_cut_in_any_language(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text drawn below the header strips (captions, side panels) is whole in every language: long ones
    are wrapped onto more lines, none is cut short with an ellipsis, and the words of each caption all
    appear. (A header chip of a four-player game has little room; its words are in the panel whole.)"""
    seats, options, seed, wanted = fixtures.turning_point(game_id)  # where the game's panel says most
    state, played, preferred = first_position(game_id, seats, options, seed, wanted)
    players = ["Alice", "Bob", "Carol", "Dave"][:seats]
    drawn: list[str] = []
    real = renderer.canvas._line  # every drawn line is laid out here (once: the caches are cleared below)
    in_header = [False]

    def spy(chain: Any, text: str, px: int) -> Any:
        if not in_header[0]:
            drawn.append(text)
        return real(chain, text, px)

    def header(*args: Any) -> None:
        in_header[0] = True
        try:
            renderer.canvas.draw_header(*args)
        finally:
            in_header[0] = False

    monkeypatch.setattr(renderer.canvas, "_line", spy)
    monkeypatch.setattr(renderer.painter, "draw_header", header)  # the header strip of every scene
    for language in LANGUAGES:
        words: Translations | None = translations(language)
        drawn.clear()
        renderer.clear_caches()  # every text is then laid out afresh, so the spy sees it
        png = renderer.analysis.turning_point(
            game_id, state, played, preferred, chances=(0.62, 0.31), players=players, translations=words
        )
        with wording.using(words):
            dots = wording.text("ellipsis")
            captions = renderer.analysis.captions(game_id, state, played, preferred, (0.62, 0.31), players)
        cut = [t for t in drawn if t.endswith(dots)]
        assert not cut, f"{language}: cut short: {cut}"
        text = " ".join(drawn)
        for caption in captions:
            assert all(word in text for word in caption.split()), f"{language}: {caption!r} is not whole"
        assert open_png(png).width >= DEFAULT_SIZE


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.sampled_from(["a", "word", "Farbrennen", "ディスク", "（数）、", "です。", "x" * 30]), max_size=12
    ),
    st.integers(min_value=60, max_value=400),
)
def test_wrapping_keeps_every_word_and_each_line_fits(pieces: list[str], width: int) -> None:
    text = " ".join(pieces)
    lines = renderer.canvas.wrap_text(text, 16, width)
    dots = wording.text("ellipsis")
    for line in lines:
        assert renderer.canvas.text_width(line, 16) <= width or " " not in line, line
        assert not line.startswith(tuple(renderer.canvas.NO_BREAK_BEFORE)) or line == lines[0]
    if all(renderer.canvas.text_width(word, 16) <= width for word in text.split()):
        assert not any(line.endswith(dots) for line in lines)
        assert "".join("".join(lines).split()) == "".join(text.split()), "nothing is left out"
