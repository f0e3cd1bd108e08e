"""Images in the players' languages: the renderer takes a translator (default English), Japanese texts are
drawn with real glyphs from the CJK font fallback (not the missing-glyph box), and drawings in several
languages never mix (a cached part of an image is cached per language)."""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Iterator

import pytest
from PIL import Image, ImageChops

import games
import renderer
from bot.i18n import translations
from renderer import fonts
from renderer import text as wording
from renderer.canvas import text_mask
from renderer.replay import replay_gif

MISSING_CODEPOINT = "\U0010fffd"


@pytest.fixture(autouse=True)
def standard_fonts() -> Iterator[None]:
    fonts.use_fonts(None)
    yield
    fonts.use_fonts(None)


def played(game: str, plies: int) -> tuple[object, str]:
    """A position `plies` moves into a seeded game and its last move: each time the last legal move that is
    not a pass, a resignation or a swap (a pass when there is nothing else)."""
    rules = games.get(game)
    state = rules.new(2, {}, 3)
    last = ""
    for _ in range(plies):
        legal = [rules.notation(state, m) for m in rules.legal_moves(state)]
        chosen = [n for n in legal if n not in ("pass", "passall", "resign", "swap")] or legal
        last = chosen[-1]
        state = rules.apply(state, rules.parse(state, last))
    return state, last


def image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def japanese_renderer_texts() -> list[str]:
    """Every renderer text of the Japanese catalog (all plural forms)."""
    words = translations("ja")
    found = []
    for key, english in wording.TEXTS.items():
        if key.endswith(".other"):
            continue
        if key.endswith(".one"):
            found.append(words.ngettext(english, wording.TEXTS[key.removesuffix(".one") + ".other"], 2))
        else:
            found.append(words.gettext(english))
    return found


def test_every_japanese_image_text_has_real_glyphs_not_tofu() -> None:
    chain = fonts.chain()
    texts = japanese_renderer_texts()
    assert any("色" in text for text in texts)
    for text in texts:
        for ch in {c for c in text if not c.isascii() and not c.isspace()}:
            index = chain.face_for(ch)
            assert index is not None, f"no font draws {ch!r} of {text!r}"
            font = chain.faces[index].font(32)
            glyph = font.getmask(ch)
            assert glyph.getbbox() is not None, f"{ch!r} draws no ink"
            assert bytes(glyph) != bytes(font.getmask(MISSING_CODEPOINT)), f"{ch!r} is the missing-glyph box"


def test_a_japanese_header_is_drawn_in_ink_not_question_marks() -> None:
    with wording.using(translations("ja")):
        header = wording.status(wording.move_caption(6, over=False), "Alice (黒)")
    assert header == "7手目 · Alice (黒)の手番"
    drawn = text_mask(header, 21)
    placeholder = text_mask("".join("?" if not c.isascii() else c for c in header), 21)
    assert drawn.getbbox() is not None
    assert drawn.size != placeholder.size or ImageChops.difference(drawn, placeholder).getbbox() is not None
    # the whole board: with a font chain that has no CJK font, the same header turns into "?" and differs
    state, last = played("paintscape", 6)
    japanese = image(renderer.render("paintscape", state, last_move=last, translations=translations("ja")))
    fonts.use_fonts([face.path for face in fonts.standard_faces()[:1] if face.path])
    tofu = image(renderer.render("paintscape", state, last_move=last, translations=translations("ja")))
    assert ImageChops.difference(japanese, tofu).getbbox() is not None


def test_without_a_translator_images_and_alt_text_are_english() -> None:
    state, last = played("paint", 4)
    english = renderer.render("paint", state, last_move=last)
    assert renderer.render("paint", state, last_move=last, translations=gettext.NullTranslations()) == english
    alt = renderer.alt_text("paint", state, last_move=last)
    assert alt.startswith("Paint board. Move 5") and "Spheres:" in alt


@pytest.mark.parametrize(
    ("game", "french", "japanese"),
    [
        ("paintscape", "Plateau de Paintscape. Coup 7", "Paintscape の盤面。7手目"),
        ("paint", "Plateau de Paint. Coup 5", "Paint の盤面。5手目"),
        ("tilingking", "Plateau TilingKing sq9 (cellules carrées).", "TilingKing の盤 sq9（正方形のマス）。"),
    ],
)
def test_alt_text_is_in_the_language_of_the_translator(game: str, french: str, japanese: str) -> None:
    state, last = played(game, 6 if game == "paintscape" else 4)
    assert renderer.alt_text(game, state, last_move=last, translations=translations("fr")).startswith(french)
    assert renderer.alt_text(game, state, last_move=last, translations=translations("ja")).startswith(
        japanese
    )


def test_drawings_in_several_languages_do_not_mix() -> None:
    """The Paintscape panel title is cached with the background: once per language, never shared."""
    state, last = played("paintscape", 6)
    first = renderer.render("paintscape", state, last_move=last, translations=translations("fr"))
    japanese = renderer.render("paintscape", state, last_move=last, translations=translations("ja"))
    again = renderer.render("paintscape", state, last_move=last, translations=translations("fr"))
    english = renderer.render("paintscape", state, last_move=last)
    assert first == again
    assert len({first, japanese, english}) == 3
    panel = (720, 80, 960, 140)  # the panel title ("Colour race") at the default size
    crops = [image(data).crop(panel) for data in (first, japanese, english)]
    assert ImageChops.difference(crops[0], crops[1]).getbbox() is not None
    assert ImageChops.difference(crops[1], crops[2]).getbbox() is not None


def test_pieces_and_replays_take_the_translator_too() -> None:
    state, _ = played("tilingking", 2)
    english = renderer.render_pieces("tilingking", state, 0)
    french = renderer.render_pieces("tilingking", state, 0, translations=translations("fr"))
    assert english != french
    log = [(0, "pass"), (1, "pass")]
    gif_en = replay_gif("tilingking", {}, 1, 2, log, ["A", "B"], size=480)
    gif_ja = replay_gif("tilingking", {}, 1, 2, log, ["A", "B"], size=480, translations=translations("ja"))
    assert gif_en != gif_ja


@pytest.mark.parametrize("locale", ["de", "es", "fr", "it", "ja", "pl", "pt_BR"])
def test_word_moves_and_the_colour_choice_are_words_of_the_readers_language(locale: str) -> None:
    """An image never shows notation ("Last move: done", "choose: black"): the renderer words a one-word
    move and the choice in the reader's language, and joins an alt text's sentences as that language does
    (no ". " or "; " between Japanese sentences)."""
    rules = games.get("paintscape")
    state = rules.new(2, {}, 3)
    state = rules.apply(state, rules.parse(state, "done"))  # the Chooser picks a colour now
    words = translations(locale)
    alt = renderer.alt_text("paintscape", state, last_move="done", translations=words)
    assert words.gettext("done swapping") in alt
    assert not re.search(r"\b(done|black|white)\b", alt), alt
    assert renderer.alt_text("paintscape", state, last_move="done").count("Last move: done swapping.") == 1
    chosen = rules.apply(state, rules.parse(state, "black"))
    alt = renderer.alt_text("paintscape", chosen, last_move="black", translations=words)
    assert words.gettext("chose Black") in alt and not re.search(r"\bblack\b", alt), alt
    if locale == "ja":
        assert not re.search(r"[.;] ", alt), alt
