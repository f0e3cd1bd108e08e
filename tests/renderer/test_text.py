"""The renderer's texts: one move-number definition, a result sentence for every ending, and every text key
the drawers use exists (so a translation layer can rely on `renderer.text.TEXTS`)."""

from __future__ import annotations

import importlib
import re
import string
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import games
import renderer
from games.base import Outcome, Termination
from renderer import text as wording

RENDERER = Path(renderer.__file__).parent


@given(ply=st.integers(0, 10_000))
def test_the_move_number_is_the_move_about_to_be_played_and_the_count_once_over(ply: int) -> None:
    assert renderer.move_number(ply) == ply + 1
    assert renderer.move_caption(ply, over=False) == f"Move {ply + 1}"
    assert renderer.move_caption(ply, over=True) == (f"{ply} moves" if ply != 1 else "1 move")


@pytest.mark.parametrize("termination", games.terminations())
def test_every_ending_has_a_result_sentence(termination: Termination) -> None:
    names = ["Alice", "Bob", "Carol"]
    win = wording.result(Outcome.win(1, 3, termination), names)
    shared = wording.result(Outcome.loss(0, 3, termination), names)
    draw = wording.result(Outcome.draw(3, termination), names)
    if termination is Termination.ABORTED:
        assert win == shared == draw == "Game aborted: no result"
        return
    assert win.startswith("Bob wins")
    assert shared.startswith("Bob and Carol share first place")
    assert draw.startswith("Draw")
    for sentence in (win, shared, draw):
        assert "{" not in sentence and "  " not in sentence


def test_named_results_read_as_players_expect() -> None:
    names = ["Alice", "Bob"]
    assert wording.result(Outcome.loss(1, 2, Termination.RESIGNATION), names) == "Alice wins by resignation"
    assert wording.result(Outcome.loss(0, 2, Termination.TIMEOUT), names) == "Bob wins on time"
    assert wording.result(Outcome.draw(2, Termination.NO_LEAD), names) == "Draw: nobody held the lead"
    assert wording.join_names(["A", "B", "C", "D"]) == "A, B, C and D"


def test_plural_forms_exist_for_every_counted_text() -> None:
    for key in wording.TEXTS:
        if key.endswith(".one"):
            assert key[: -len(".one")] + ".other" in wording.TEXTS


def _used_keys() -> set[str]:
    """The text keys the renderer and every registered game's drawer use."""
    keys = set()
    drawers = [Path(importlib.import_module(games.plugin(g).drawer).__file__ or "") for g in games.GAME_IDS]
    for path in [*RENDERER.glob("*.py"), *drawers]:
        source = path.read_text()
        keys |= set(re.findall(r'wording\.text\(\s*"([^"]+)"', source))
        keys |= {k + ".other" for k in re.findall(r'wording\.plural\(\s*"([^"]+)"', source)}
    return keys


def test_every_text_key_the_drawers_use_exists_and_fills_in() -> None:
    used = _used_keys()
    assert len(used) > 40
    assert used <= set(wording.TEXTS), sorted(used - set(wording.TEXTS))
    for key, template in wording.TEXTS.items():
        fields = {name for _, name, _, _ in string.Formatter().parse(template) if name}
        assert wording.text(key, **{f: "X" for f in fields})


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Alice", "Alice (Black)"),
        ("Tessera (easy)", "Tessera (easy, Black)"),
        ("Bob (he/him)", "Bob (he/him, Black)"),
        ("(silent)", "(silent) (Black)"),
        ("A (b) c", "A (b) c (Black)"),
    ],
)
def test_a_role_joins_a_bracket_the_name_already_has(name: str, expected: str) -> None:
    assert wording.with_role(name, "Black") == expected


@given(
    words=st.lists(
        st.sampled_from(["Move", "27", "·", "Zoë", "(White)", "to", "play", "of", "600", "moves", "", "WWW"]),
        min_size=2,
        max_size=7,
    ),
    px=st.sampled_from([12, 16, 21, 30]),
    anchor=st.sampled_from(["lt", "mt", "rt", "lm", "mm", "rb"]),
    x=st.floats(60, 140),
    y=st.floats(20, 40),
)
def test_a_line_drawn_word_by_word_is_the_line_drawn_whole(
    words: list[str], px: int, anchor: str, x: float, y: float
) -> None:
    """A line of known words is pasted a word's stamp at a time (no mask of the line is made): exactly
    the pixels of pasting the whole line's stamp."""
    from PIL import Image

    from renderer import canvas, fonts

    text = " ".join(words)
    if not text.strip():
        return
    background = Image.new("RGB", (260, 70), (230, 225, 210))
    by_words = background.copy()
    width = canvas.draw_text(by_words, x, y, text, px, (40, 30, 90), anchor)
    whole = background.copy()
    stamp = canvas._stamp(fonts.chain(), text, px, (40, 30, 90))
    left, top = canvas._text_origin(stamp.line, x, y, anchor)
    if stamp.image is not None:
        whole.paste(stamp.image, (left + stamp.ink[0], top + stamp.ink[1]), stamp.image)
    assert width == stamp.line.width
    assert by_words.tobytes() == whole.tobytes()
