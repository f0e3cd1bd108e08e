"""One registry: a game registered through the `tessera.games` entry points is what /play offers, what the
service plays, what the renderer draws and what the AI knows, and nothing else is. A game package outside
the project (examples/) needs no file of the project to name it."""

from __future__ import annotations

import importlib
import importlib.metadata
import pkgutil
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

import games
import renderer
from bot.service import Service
from bot.service.store import SqliteStore
from cogs import GAME_CHOICES
from games.ai import Knowledge, knowledge_for
from games.plugins import GROUP, GamePlugin, PluginError, discover, from_entry_points

ROOT = Path(__file__).resolve().parent.parent
BUILT_IN = {"paint", "paintscape", "tilingking"}


def test_the_registry_is_every_entry_point_of_the_group_and_only_those() -> None:
    points = {point.name for point in importlib.metadata.entry_points(group=GROUP)}
    if points:  # installed as the README says (a stale checkout falls back to the built-ins)
        assert set(games.GAME_IDS) == points
    assert set(games.GAME_IDS) >= BUILT_IN
    assert all(games.get(game_id).id == game_id == games.plugin(game_id).id for game_id in games.GAME_IDS)
    assert list(games.GAME_IDS) == sorted(games.GAME_IDS, key=lambda g: games.name(g).lower())
    with pytest.raises(KeyError, match="known games"):
        games.get("chess")


def test_the_built_in_games_register_through_the_projects_own_entry_points() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    for game_id in BUILT_IN:
        assert f'{game_id} = "games.{game_id}:PLUGIN"' in pyproject
        assert importlib.import_module(f"games.{game_id}").PLUGIN is games.plugin(game_id)


def test_play_offers_exactly_the_registered_games_by_their_names() -> None:
    assert [(c.value, c.name) for c in GAME_CHOICES] == [(g, games.name(g)) for g in games.GAME_IDS]


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_every_game_has_the_drawer_and_ai_its_plugin_names(game_id: str) -> None:
    plugin = games.plugin(game_id)
    drawer = renderer.drawer(game_id)
    module = getattr(drawer, "module", drawer)  # a declared cell board's module, or the drawer module itself
    assert module.__name__ == plugin.drawer
    assert callable(drawer.scene) and callable(drawer.describe)
    rules = games.get(game_id)
    state = rules.new(min(rules.seats), {}, 1)
    assert renderer.render(game_id, state)[:8] == b"\x89PNG\r\n\x1a\n"
    assert type(knowledge_for(game_id)).__module__ == (plugin.ai or Knowledge.__module__)


@pytest.mark.parametrize("game_id", games.GAME_IDS)
async def test_the_service_plays_every_registered_game(game_id: str) -> None:
    service = Service(await SqliteStore.open(":memory:"))
    try:
        assert service.rules(game_id) is games.get(game_id)
        challenge = await service.challenges.create(game_id, {}, 1, 2, guild_id=3, channel_id=4)
        match = await service.challenges.accept(challenge.id, 2)
        assert match.game == game_id and match.is_active
    finally:
        await service.close()


def test_the_renderer_draws_no_game_and_each_built_in_game_is_one_package() -> None:
    """A newcomer finds a game in one folder: the renderer holds no game's drawer, and everything a
    built-in game's plugin names (rules, drawer, AI, fixtures) lies in games/<id>/."""
    drawers = {
        f"renderer.{info.name}"
        for info in pkgutil.iter_modules(renderer.__path__)
        if hasattr(importlib.import_module(f"renderer.{info.name}"), "describe")
    }
    assert drawers == set()
    for game_id in BUILT_IN:
        plugin = games.plugin(game_id)
        package = f"games.{game_id}"
        named = [type(plugin.rules).__module__, plugin.drawer, plugin.ai, plugin.fixtures]
        assert all(name is not None and name.startswith(package + ".") for name in named), named
        folder = ROOT / "games" / game_id
        assert (folder / "__init__.py").is_file() and (folder / "drawer.py").is_file()
        assert not (ROOT / "games" / f"{game_id}.py").exists()
        assert not (ROOT / "games" / "ai" / f"{game_id}.py").exists()
    with pytest.raises(KeyError):
        renderer.drawer("chess")


# ------------------------------------------------------------------------------------- loading plugins


@pytest.fixture
def fake_games(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """A module `fake_games` with a good plugin, a plugin of another id and something that is no plugin."""
    module = types.ModuleType("fake_games")
    paint = games.plugin("paint")
    module.GOOD = paint  # type: ignore[attr-defined]
    module.NOT_A_PLUGIN = paint.rules  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_games", module)
    return module


def point(name: str, value: str) -> importlib.metadata.EntryPoint:
    return importlib.metadata.EntryPoint(name, value, GROUP)


def test_a_plugin_that_fails_to_load_stops_the_registry_naming_it(fake_games: types.ModuleType) -> None:
    with pytest.raises(
        PluginError, match=r"'chess' \(no_such_module:PLUGIN\) failed to load: ModuleNotFound"
    ):
        from_entry_points([point("paint", "fake_games:GOOD"), point("chess", "no_such_module:PLUGIN")])


def test_two_plugins_with_one_id_are_refused(fake_games: types.ModuleType) -> None:
    with pytest.raises(PluginError, match="two game plugins share the id 'paint'"):
        from_entry_points([point("paint", "fake_games:GOOD"), point("paint", "fake_games:GOOD")])


def test_a_plugin_must_be_a_game_plugin_named_by_its_id(fake_games: types.ModuleType) -> None:
    with pytest.raises(PluginError, match="names a PaintRules, not a GamePlugin"):
        from_entry_points([point("paint", "fake_games:NOT_A_PLUGIN")])
    with pytest.raises(PluginError, match="'chess' registers the game 'paint'"):
        from_entry_points([point("chess", "fake_games:GOOD")])
    found = from_entry_points([point("paint", "fake_games:GOOD")])
    assert list(found) == ["paint"] and isinstance(found["paint"], GamePlugin)


def test_without_entry_points_the_built_in_games_are_found_in_the_package(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: [])
    assert set(discover()) == BUILT_IN
    assert "pip install -e ." in caplog.text


# ------------------------------------------------------------------------------------- game packages


def packaged_games() -> dict[str, Path]:
    """The registered games whose package lives under examples/ (installed from there), by id."""
    found = {}
    for game_id in games.GAME_IDS:
        source = Path(sys.modules[type(games.get(game_id)).__module__].__file__ or "").resolve()
        if (ROOT / "examples") in source.parents:
            found[game_id] = source
    return found


def test_the_example_game_packages_are_installed() -> None:
    """CI installs every package under examples/ (README, .ci/run): each one's game is registered."""
    examples = {p.parent.name for p in (ROOT / "examples").glob("*/pyproject.toml")}
    assert examples, "examples/ holds a game package"
    registered = {path.parents[1].name for path in packaged_games().values()}
    assert registered == examples, "pip install -e each examples/<game> (README: Run the tests)"


def names(text: str, word: str) -> bool:
    """Whether `text` names `word` as a word of its own, in any case: a game "hex" is not named by
    `hex_rgb`, "#hexagon" or "0xhex", but by "Hex", "hex." or "(hex)"."""
    return re.search(rf"(?<![\w]){re.escape(word)}(?![\w])", text, re.IGNORECASE) is not None


def test_a_game_is_named_by_its_name_as_a_word_not_inside_another() -> None:
    assert names("Hex on a rhombus", "hex") and names("games: (hex)", "hex") and names("see HEX.", "hex")
    assert not any(names(text, "hex") for text in ("def hex_rgb(", "hexagon", "0xhex", "hex8bi"))
    assert names("Tile Hoard wins", "Tile Hoard") and not names("Tile Hoarding", "Tile Hoard")


def test_no_file_outside_examples_names_a_packaged_game() -> None:
    """Adding a game in its own package changes no file of the project: nothing outside examples/ names its
    id or its display name (docs/architecture.md, "Adding a game")."""
    tracked = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    outside = [ROOT / f for f in tracked if not f.startswith("examples/") and (ROOT / f).is_file()]
    assert outside
    for game_id in packaged_games():
        words = {game_id, games.name(game_id)}
        naming = [
            str(path.relative_to(ROOT))
            for path in outside
            if any(names(path.read_text(encoding="utf-8", errors="ignore"), word) for word in words)
        ]
        assert naming == [], f"{game_id} is named outside examples/"
