"""Names in many scripts are drawn with real glyphs: every character finds a font of the chain, and the glyph
it draws is neither "?" nor that font's missing-glyph box. Without fonts the renderer falls back to Pillow's
bundled font with one warning and still renders.

A test skips only when the font file a script needs is absent on this machine; the skip names the Debian
package to install (fonts-dejavu-core, fonts-noto-cjk or fonts-droid-fallback, fonts-symbola).
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops

import renderer
from games.paintscape import drawer as paintscape_drawer
from renderer import fonts
from renderer.canvas import SeatChip, draw_header, page, text_line, text_mask, text_width
from renderer.theme import get_theme
from tests.renderer.positions import decode, positions, save_artifact

LATIN, CJK, EMOJI = (label for label, _ in fonts.STANDARD_FONTS)
NAMES: dict[str, tuple[str, str]] = {
    # script: (name, the standard font it needs)
    "latin": ("Jürgen Øæ Łukasz Şahin", LATIN),
    "cyrillic": ("Дмитрий Ёлкин", LATIN),
    "greek": ("Νίκος Παπαδόπουλος", LATIN),
    "arabic": ("محمد", LATIN),
    "hebrew": ("דוד כהן", LATIN),
    "chinese": ("山田太郎 王小明", CJK),
    "japanese": ("さくら カタカナ", CJK),
    "korean": ("김민준", CJK),
    "emoji": ("🦊 Zoe 🎲", EMOJI),
}
MISSING_CODEPOINT = "\U0010fffd"
"""A private-use character no font maps: it draws the font's missing-glyph box."""


@pytest.fixture(autouse=True)
def standard_fonts() -> Iterator[None]:
    fonts.use_fonts(None)
    yield
    fonts.use_fonts(None)


def need(font_label: str) -> None:
    """Skip, naming the package, when the standard font a script needs is not installed here."""
    if not any(face.name == font_label for face in fonts.standard_faces()):
        pytest.skip(f"font absent on this machine: {font_label}")


def visible(name: str) -> list[str]:
    return [ch for ch in name if not ch.isspace() and unicodedata.category(ch) not in ("Mn", "Me")]


@pytest.mark.parametrize("script", sorted(NAMES))
def test_every_character_finds_a_font_and_draws_a_real_glyph(script: str) -> None:
    name, font_label = NAMES[script]
    need(font_label)
    chain = fonts.chain()
    for ch in visible(name):
        index = chain.face_for(ch)
        assert index is not None, f"no font has {ch!r} (U+{ord(ch):04X})"
        font = chain.faces[index].font(32)
        glyph = font.getmask(ch)
        assert glyph.getbbox() is not None, f"{ch!r} draws no ink"
        assert bytes(glyph) != bytes(font.getmask(MISSING_CODEPOINT)), f"{ch!r} is the missing-glyph box"
        assert bytes(glyph) != bytes(font.getmask("?")), f"{ch!r} is drawn as '?'"
    assert fonts.MISSING not in "".join(run for _, run in chain.runs(name))


@pytest.mark.parametrize("script", sorted(NAMES))
def test_a_name_in_the_header_is_its_own_ink_not_question_marks(script: str) -> None:
    name, font_label = NAMES[script]
    need(font_label)
    drawn = text_mask(name, 21)
    placeholder = text_mask("?" * len(name), 21)
    assert drawn.getbbox() is not None
    if drawn.size == placeholder.size:
        assert ImageChops.difference(drawn, placeholder).getbbox() is not None
    # the whole header, drawn with the name, differs from the same header with "?" in its place
    pg = page(960)
    theme = get_theme("default")
    images = []
    for shown in (name, "?" * len(name)):
        img = Image.new("RGB", (pg.width, pg.height))
        stone = paintscape_drawer.own_colours(theme)
        chip = SeatChip(shown, "Black", "", stone.stone_black, stone.stone_black_rim)
        draw_header(img, pg, theme, [chip], "status")
        images.append(img.crop(pg.header))
    assert ImageChops.difference(*images).getbbox() is not None


def test_a_board_with_names_in_eight_scripts_renders_them(tmp_path: Path) -> None:
    for label in (LATIN, CJK, EMOJI):
        need(label)
    position = positions("tilingking-tri6bi")[1]
    players = ("Jürgen 🦊", "山田太郎", "김민준 Дмитрий", "محمد Νίκος")
    data = renderer.render("tilingking", position.state, last_move=position.last_move, players=players)
    save_artifact("tilingking-scripts.png", data)
    assert decode(data).size == (960, 640)
    chain = fonts.chain()
    used = {chain.faces[face].name for name in players for face, _ in chain.runs(name)}
    assert used == {LATIN, CJK, EMOJI}, "Latin/Cyrillic/Greek/Arabic, CJK and emoji each from their font"


def test_marks_selectors_joiners_and_skin_tones_stay_with_their_character() -> None:
    need(LATIN)
    chain = fonts.chain()
    assert chain.runs("Jose\u0301") == [(0, "Jose\u0301")]  # a combining accent joins its letter
    assert chain.runs("\u0301x") == [(0, "x")]  # a mark with nothing before it is dropped
    need(EMOJI)
    thumbs = "".join(run for _, run in chain.runs("👍🏽"))
    assert thumbs.startswith("👍") and "🏽" not in thumbs  # a skin tone only colours; monochrome drops it
    family = chain.runs("👨\u200d👩\u200d👧")
    assert "".join(run for _, run in family).replace("\u200d", "") == "👨👩👧"
    assert text_width("👨\u200d👩\u200d👧", 20) > 0


def test_texts_of_characters_met_before_split_into_the_same_runs() -> None:
    """`runs` remembers the characters the first font has (a text of those alone is one run): what it
    gives for a text is what a chain that never met them gives, however often the text comes back."""
    need(LATIN)
    texts = [
        "Zoë · 12 tiles",
        "Move 3 · Zoë (White)",
        "Zoë\u0301 · 名前",
        f"é{MISSING_CODEPOINT}·",
        "👍🏽 · ok",
    ]
    chain = fonts.chain()
    for _ in range(3):
        for text in texts:
            assert chain.runs(text) == fonts.FontChain(chain.faces).runs(text), text
    assert chain.runs("· Zoë ·") == [(0, "· Zoë ·")]


def test_a_character_no_font_has_becomes_a_question_mark() -> None:
    need(LATIN)
    chain = fonts.chain()
    assert "".join(run for _, run in chain.runs(f"a{MISSING_CODEPOINT}b")) == "a?b"


def test_without_fonts_pillows_bundled_font_is_used_with_one_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="renderer.fonts"):
        chain = fonts.use_fonts([])
        fonts.chain()
        fonts.chain()
    warnings = [r for r in caplog.records if "no fonts found" in r.getMessage()]
    assert len(warnings) == 1
    assert chain.faces[0].path is None
    assert "".join(run for _, run in chain.runs("Дмитрий Jose")) == "??????? Jose"
    position = positions("paint")[1]
    data = renderer.render("paint", position.state, players=("Дмитрий", "山田太郎 🦊"))
    assert decode(data).size == (960, 640)


def test_a_missing_standard_font_is_logged_once(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    need(LATIN)
    only_latin = [f for f in fonts.standard_faces() if f.name == LATIN]
    monkeypatch.setattr(fonts, "standard_faces", lambda: only_latin)
    with caplog.at_level(logging.WARNING, logger="renderer.fonts"):
        fonts.use_fonts(None)
        fonts.chain()
    missing = [r for r in caplog.records if "fonts not found" in r.getMessage()]
    assert len(missing) == 1
    assert "fonts-symbola" in missing[0].getMessage()
    assert "".join(run for _, run in fonts.chain().runs("山")) == "?"


def test_the_environment_variable_puts_fonts_first(monkeypatch: pytest.MonkeyPatch) -> None:
    need(LATIN)
    latin = next(f for f in fonts.standard_faces() if f.name == LATIN)
    monkeypatch.setenv(fonts.FONTS_ENV, latin.path or "")
    assert fonts.use_fonts(None).faces[0].path == latin.path
    assert fonts.use_fonts([latin.path or ""]).faces == (fonts.Face(latin.path, Path(latin.path or "").name),)


def test_fallback_glyphs_keep_the_first_fonts_line_box() -> None:
    need(CJK)
    plain, mixed = text_line("Alice", 21), text_line("Alice 山田", 21)
    assert plain.height == mixed.height  # layout (anchors t/m/b) does not move for a fallback font
    assert mixed.mask.height - mixed.top >= mixed.height


def test_only_scripts_that_need_it_are_shaped() -> None:
    assert fonts.needs_shaping("محمد") and fonts.needs_shaping("דוד") and fonts.needs_shaping("Jose\u0301")
    assert not fonts.needs_shaping("Move 27 · Alice (White) to play")
    assert not fonts.needs_shaping("Дмитрий Νίκος 山田太郎 🦊")


def test_right_to_left_names_are_joined_and_read_right_to_left() -> None:
    """With Raqm (Pillow's wheels bundle it; it needs libfribidi0), Arabic letters join: the shaped name is
    narrower than its letters drawn one by one in isolated forms."""
    need(LATIN)
    from PIL import features

    if not features.check_feature("raqm"):
        pytest.skip("Pillow's Raqm layout is unavailable here (install libfribidi0)")
    name = "محمد"
    isolated = sum(text_width(ch, 32) - 2 for ch in name)
    assert text_width(name, 32) - 2 < isolated


@pytest.mark.parametrize("text", ["disc and its rank (discs in its area)", "Move 127 · Alice (Red) to play"])
def test_a_line_put_together_from_words_draws_like_the_whole_line(text: str) -> None:
    need(LATIN)
    from PIL import ImageDraw

    font = fonts.chain().primary.font(16, shaped=False)
    composed = text_mask(text, 16)
    whole = Image.new("L", composed.size)
    ImageDraw.Draw(whole).text((1, font.getmetrics()[0]), text, font=font, fill=255, anchor="ls")
    assert ImageChops.difference(composed, whole).getbbox() is None
    assert text_width(text, 16) == composed.width
