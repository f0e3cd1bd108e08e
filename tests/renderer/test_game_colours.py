"""Each game's colours come from its own package (`GamePlugin.colours`), not from the theme: the theme holds
only the colours every image shares, a game's plugin is where its drawer finds its colours, and every image
of a game (board, pieces, turning point) holds them in its palette, so they are drawn exactly."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

import games
import renderer
import renderer.analysis
from renderer.theme import RGB, THEME_NAMES, game_colours, get_theme, palette, shared_colours
from tests.test_registry import names

THEME_SOURCE = Path(renderer.__file__).parent / "theme.py"


def _start(game_id: str) -> object:
    rules = games.get(game_id)
    return rules.new(min(rules.seats), {}, 7)


def test_the_theme_module_names_no_game() -> None:
    text = THEME_SOURCE.read_text()
    named = [g for g in games.GAME_IDS if names(text, g) or names(text, games.name(g))]
    assert not named, f"renderer/theme.py names {named}: a game's colours belong in its plugin"


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_every_game_gives_its_colours_for_every_theme(game_id: str) -> None:
    colours = games.plugin(game_id).colours
    assert "default" in colours
    for theme in THEME_NAMES:
        named = game_colours(get_theme(theme), game_id)
        assert named.keys() == colours["default"].keys(), f"{game_id} names other colours in {theme}"


@pytest.fixture
def fresh_caches() -> Iterator[None]:
    renderer.clear_caches()
    yield
    renderer.clear_caches()


def _inverted(colours: dict[str, RGB]) -> dict[str, RGB]:
    return {name: (255 - r, 255 - g, 255 - b) for name, (r, g, b) in colours.items()}


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_a_games_drawer_takes_its_colours_from_its_plugin(
    game_id: str, monkeypatch: pytest.MonkeyPatch, fresh_caches: None
) -> None:
    """Give a game other colours in its plugin: its board shows the new ones instead of the old (exact
    colours: sprites drawn smooth may not keep a thin rim's colour anywhere)."""
    theme = get_theme("default")
    plugin = games.plugin(game_id)
    old = dict(game_colours(theme, game_id))
    new = _inverted(old)
    shared = set(theme.palette_colours())
    state = _start(game_id)
    before = {c for _, c in renderer.render_image(game_id, state, theme=theme).getcolors(1 << 20) or []}
    monkeypatch.setitem(games.PLUGINS, game_id, replace(plugin, colours={"default": new}))
    renderer.clear_caches()
    after = {c for _, c in renderer.render_image(game_id, state, theme=theme).getcolors(1 << 20) or []}
    drawn_before = {name for name, colour in old.items() if colour in before and colour not in shared}
    assert drawn_before, f"the start of {game_id} shows none of its own colours"
    drawn_after = {name for name, colour in new.items() if colour in after}
    left_over = {name for name in drawn_before if old[name] in after}
    assert len(drawn_after & drawn_before) >= max(1, len(drawn_before) // 2), (drawn_before, drawn_after)
    assert len(left_over) <= len(drawn_before) // 4, f"still drawn in the old colours: {left_over}"


@pytest.mark.parametrize("theme", THEME_NAMES)
def test_the_bot_s_own_games_share_one_palette_and_others_add_only_their_own(theme: str) -> None:
    """The games of the bot's package share one palette (so their images do not depend on which other games
    are installed); a game from its own package adds its colours to its own images only."""
    chosen = get_theme(theme)
    sharing = [g for g in games.GAME_IDS if games.plugin(g).shared_palette is not None]
    assert sharing, "the built-in games share a palette"
    for game_id in sharing:
        assert palette(chosen, game_id) == palette(chosen)
        assert set(game_colours(chosen, game_id).values()) <= set(shared_colours(chosen))
    head = list(dict.fromkeys([*chosen.palette_colours(), *shared_colours(chosen)]))
    for game_id in games.GAME_IDS:
        own = [c for c in dict.fromkeys(game_colours(chosen, game_id).values()) if c not in head]
        assert palette(chosen, game_id)[: len(head) + len(own)] == head + own


@pytest.mark.parametrize("theme", THEME_NAMES)
@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_the_turning_point_image_holds_the_games_colours(game_id: str, theme: str) -> None:
    """The analysis image of a turning point quantizes to the game's palette, as its board does (it used
    the theme's alone, which lacks a plugin game's colours)."""
    rules = games.get(game_id)
    rng = random.Random(3)
    state = _start(game_id)
    for _ in range(4):
        if rules.outcome(state) is not None:
            break
        state = rules.apply(state, rng.choice(list(rules.legal_moves(state))))
    moves = [rules.notation(state, m) for m in rules.legal_moves(state)]
    png = renderer.analysis.turning_point(
        game_id, state, moves[0], moves[-1], chances=(0.6, 0.3), theme=theme
    )
    flat = Image.open(io.BytesIO(png)).getpalette() or []
    held = {tuple(flat[i : i + 3]) for i in range(0, len(flat), 3)}
    missing = set(game_colours(get_theme(theme), game_id).values()) - held
    assert not missing, f"the turning point of {game_id} lacks its colours {sorted(missing)}"
