"""Games as plugins: a game is found through the entry point group `tessera.games`.

Each entry point names a `GamePlugin`, everything a host needs of one game, so a game can live in its own
installable package (examples/ holds one). The three built-in games register themselves the same
way, in the project's pyproject.toml:

    [project.entry-points."tessera.games"]
    paint = "games.paint:PLUGIN"

The descriptor holds the rules object and names the rest by module path, imported on first use, so `games`
never imports the renderer: the drawer (`scene` or a declared board, `describe`, optionally `pieces_scene`),
the AI knowledge (a module with a `KNOWLEDGE` class; none: the generic search), the gettext catalog of the
game's own words (none: the words are in the bot's catalog), colours per theme, the eight levels of the bot
with their calibrated ratings (none: the default ladder at nominal ratings), and the fixtures the shared
checks need.

Loading fails loudly: an entry point that does not load, that names something other than a `GamePlugin`,
whose name is not its game's id, or whose id another plugin has already taken stops `import games` with a
`PluginError` that names the entry point. A game silently missing would quarantine its stored matches as
damaged ones, which is worse than a start that refuses with one line.

Where the group is empty (the project run from a checkout whose installed metadata predates the entry
points), the built-in games are found in this package instead, by their `PLUGIN` attributes, with a
warning to install the project again (`pip install -e .`).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import logging
import pkgutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.base import Rules

log = logging.getLogger("tessera.games")

GROUP = "tessera.games"
"""The entry point group a game registers in."""

RGB = tuple[int, int, int]


class PluginError(RuntimeError):
    """A game plugin that cannot be registered; the message names the entry point and the problem."""


@dataclass(frozen=True, slots=True)
class Catalog:
    """A game's own gettext catalog: `<directory>/<locale>/LC_MESSAGES/<domain>.po` for each of the bot's
    languages, extracted from the Python files under `sources` (`python -m bot.i18n update` keeps it)."""

    domain: str
    directory: Path
    sources: Path

    def path(self, locale: str) -> Path:
        return self.directory / locale / "LC_MESSAGES" / f"{self.domain}.po"

    @property
    def template(self) -> Path:
        return self.directory / f"{self.domain}.pot"


LEVEL_COUNT = 8
"""How many levels a player chooses from ("1" to "8", games/ai/levels.py)."""


@dataclass(frozen=True, slots=True)
class Rung:
    """One level's place on a game's ladder: its iteration budget, the share of legal moves it overlooks at
    the root, and its misjudgement (the noise's standard deviation at the final choice)."""

    iterations: int
    overlook: float
    noise: float


@dataclass(frozen=True, slots=True)
class Levels:
    """A game's eight levels of the bot, weakest first (`ladder`: each level's search budget and errors),
    and the file of their calibrated ratings (`calibration`: JSON `{"ratings": {"1": 1408, ...}}`, written
    by `python bench/calibrate_levels.py fit`; None or missing: each level at its nominal rating)."""

    ladder: tuple[Rung, ...]
    calibration: Path | None = None

    def __post_init__(self) -> None:
        if len(self.ladder) != LEVEL_COUNT:
            raise ValueError(f"a ladder has {LEVEL_COUNT} levels, not {len(self.ladder)}")
        budgets = [rung.iterations for rung in self.ladder]
        if budgets != sorted(set(budgets)) or budgets[0] < 1:
            raise ValueError(f"each level searches more than the one below: {budgets}")

    def ratings(self) -> dict[str, int]:
        """The calibrated ratings by level id (the eight and any old level measured); empty without a
        calibration file."""
        if self.calibration is None or not self.calibration.exists():
            return {}
        data = json.loads(self.calibration.read_text(encoding="utf-8"))
        return {str(level): int(rating) for level, rating in data["ratings"].items()}


@dataclass(frozen=True, slots=True)
class GamePlugin:
    """Everything a host needs of one game. Module paths are imported on first use."""

    rules: Rules[Any, Any]
    drawer: str
    """The module that says what the board shows: `scene` (or a declared cell board: `BOARD` and
    `position`, `renderer.cellboard`), `describe`, and `pieces_scene` if players hold pieces."""
    ai: str | None = None
    """The module whose `KNOWLEDGE` class the search uses; None: the generic search (`Knowledge`)."""
    catalog: Catalog | None = None
    """The game's own catalog; None: its words are in the bot's catalog (the built-in games)."""
    colours: Mapping[str, Mapping[str, RGB]] = field(default_factory=dict)
    """Colours per theme name ("default", "colorblind", "dark") by the drawer's names for them (its colour
    tokens); a theme's palette includes them so that they are drawn exactly. A theme not listed uses the
    "default" entry."""
    shared_palette: int | None = None
    """The bot's own games share one palette holding all their colours, so that their images stay pixel for
    pixel what they were before each game brought its own colours: this game's place in it (its colours
    follow those of lower places). None, as for a game from its own package: only this game's images hold
    its colours."""
    levels: Levels | None = None
    """The bot's eight levels in this game and their calibration; None: the default ladder (each level
    doubles the budget of the one below) at nominal ratings."""
    fixtures: str | None = None
    """The module with what the shared checks need of this game (see bot/testing/fixtures.py)."""
    puzzles: str | None = None
    """The module with the game's puzzle themes (`theme`, games/ai/puzzles.py) and its starter pool of
    puzzles (`STARTER`: the path of a JSON-lines file, bench/starter_puzzles.py makes it; None or missing:
    no pool); None: every puzzle of the game is a quiet move or a win, and it has no starter pool."""

    @property
    def id(self) -> str:
        return self.rules.id


def _check(name: str, loaded: object, found: Mapping[str, GamePlugin]) -> GamePlugin:
    if not isinstance(loaded, GamePlugin):
        raise PluginError(f"game plugin {name!r} names a {type(loaded).__name__}, not a GamePlugin")
    if loaded.id != name:
        raise PluginError(f"game plugin {name!r} registers the game {loaded.id!r}: the names must match")
    if name in found:
        raise PluginError(f"two game plugins share the id {name!r}")
    return loaded


def from_entry_points(points: Iterable[importlib.metadata.EntryPoint]) -> dict[str, GamePlugin]:
    """The plugins the entry points name, by id; PluginError for the first that cannot be registered."""
    found: dict[str, GamePlugin] = {}
    for point in points:
        try:
            loaded = point.load()
        except Exception as error:
            raise PluginError(
                f"game plugin {point.name!r} ({point.value}) failed to load: {type(error).__name__}: {error}"
            ) from error
        found[point.name] = _check(point.name, loaded, found)
    return found


def _builtin() -> dict[str, GamePlugin]:
    """The games of this package (by their `PLUGIN`), for a checkout whose metadata lacks the group."""
    found: dict[str, GamePlugin] = {}
    for info in pkgutil.iter_modules([str(Path(__file__).parent)], prefix="games."):
        plugin = getattr(importlib.import_module(info.name), "PLUGIN", None)
        if isinstance(plugin, GamePlugin):
            found[plugin.id] = _check(plugin.id, plugin, found)
    return found


def discover() -> dict[str, GamePlugin]:
    """Every registered game's plugin by id, in the order of the display names."""
    points = list(importlib.metadata.entry_points(group=GROUP))
    if points:
        found = from_entry_points(points)
    else:
        log.warning(
            "no %s entry points: the installed metadata is stale (pip install -e .); using the "
            "built-in games",
            GROUP,
        )
        found = _builtin()
    return dict(sorted(found.items(), key=lambda item: item[1].rules.name.lower()))
