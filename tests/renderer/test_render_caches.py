"""The renderer's caches change nothing: a board drawn from them is pixel for pixel the board drawn from
scratch, whatever the position, theme, language or size; the caches are bounded and safe to share between
the threads that draw boards."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

import renderer
from bot.i18n import translations
from renderer import fonts
from renderer.canvas import RegionCache
from tests.renderer.positions import GAME_SETUPS, NAMES, random_game

SETUPS = sorted(GAME_SETUPS)


@pytest.fixture(autouse=True)
def checked_regions(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every part of a board stored for later must have been drawn inside its box."""
    fonts.use_fonts(None)
    monkeypatch.setattr(RegionCache, "check", True)
    yield
    renderer.clear_caches()


def board(setup: str, seed: int, fraction: float, theme: str, locale: str, size: int) -> Image.Image:
    game_id, seats, options = GAME_SETUPS[setup]
    states, moves = random_game(game_id, seats, options, seed, limit=150)
    n = round(fraction * (len(states) - 1))
    return renderer.render_image(
        game_id,
        states[n],
        last_move=moves[n - 1] if n else None,
        players=NAMES[:seats],
        theme=theme,
        size=size,
        translations=translations(locale),
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    setup=st.sampled_from(SETUPS),
    seed=st.integers(0, 50),
    fractions=st.lists(st.floats(0, 1), min_size=3, max_size=3),
    theme=st.sampled_from(renderer.THEME_NAMES),
    locale=st.sampled_from(["en", "fr", "ja", "de"]),
    size=st.sampled_from([renderer.DEFAULT_SIZE, renderer.DEFAULT_SIZE, 320, 480, 1280]),
)
def test_a_board_drawn_from_the_caches_is_the_board_drawn_from_scratch(
    setup: str, seed: int, fractions: list[float], theme: str, locale: str, size: int
) -> None:
    for fraction in fractions[:-1]:  # earlier positions of the match fill the caches
        board(setup, seed, fraction, theme, locale, size)
    cached = board(setup, seed, fractions[-1], theme, locale, size)
    renderer.clear_caches()
    fresh = board(setup, seed, fractions[-1], theme, locale, size)
    assert ImageChops.difference(cached, fresh).getbbox() is None


def test_a_region_cache_keeps_the_most_recently_used_boxes_up_to_its_bound() -> None:
    cache = RegionCache(3)
    drawn: list[int] = []

    def dot(n: int) -> Image.Image:
        """A blank image with dot n drawn through the cache; returns the image."""
        img = Image.new("RGB", (40, 10), (0, 0, 0))
        cache.draw(
            img,
            (n, 0, n + 1, 1),
            ("dot", n),
            lambda: (drawn.append(n), img.paste((n, n, n), (n, 0, n + 1, 1))),
        )
        return img

    for n in range(5):
        dot(n)
    assert len(cache) == 3 and drawn == [0, 1, 2, 3, 4]
    assert dot(2).getpixel((2, 0)) == (2, 2, 2)  # kept: pasted, not drawn again
    dot(5)  # evicts the least recently used: 3
    dot(3)
    assert drawn == [0, 1, 2, 3, 4, 5, 3] and len(cache) == 3


def test_a_key_that_misses_what_lay_under_the_drawing_is_caught_in_tests() -> None:
    cache = RegionCache(4)
    for background in ((0, 0, 0), (9, 9, 9)):
        img = Image.new("RGB", (20, 20), background)
        paint = partial(img.paste, (255, 0, 0), (1, 1, 3, 3))
        if background == (0, 0, 0):
            cache.draw(img, (0, 0, 5, 5), "red square", paint)
        else:
            with pytest.raises(AssertionError, match="differ from those it was drawn over"):
                cache.draw(img, (0, 0, 5, 5), "red square", paint)


def test_a_drawing_that_leaves_its_box_is_caught_in_tests() -> None:
    img = Image.new("RGB", (20, 20), (0, 0, 0))
    with pytest.raises(AssertionError, match="outside its box"):
        RegionCache(4).draw(img, (0, 0, 5, 5), "spill", lambda: img.paste((255, 0, 0), (6, 6, 8, 8)))


def test_boards_drawn_at_once_in_threads_are_the_boards_drawn_one_by_one() -> None:
    jobs = [
        (setup, seed, fraction, theme, locale, renderer.DEFAULT_SIZE)
        for setup in SETUPS
        for seed, fraction, theme, locale in ((1, 0.5, "default", "en"), (2, 0.7, "colorblind", "ja"))
    ] * 2
    renderer.clear_caches()
    with ThreadPoolExecutor(4) as pool:
        together = [image.tobytes() for image in pool.map(lambda job: board(*job), jobs)]
    renderer.clear_caches()
    one_by_one = [board(*job).tobytes() for job in jobs]
    assert together == one_by_one
