"""The kit's pytest plugin (entry point `pytest11`, so installing Tessera with its `testing` extra loads it
in every pytest run): the real TesseraBot on a temporary database, driven through the real command tree in
SimCord, and the shared game checks' choice of games.

Fixtures (bot/testing/world.py): `settings` (a database in the test's folder, no .env read), `ai_runner`
(one worker thinking 40 iterations a move, so bot-opponent tests stay fast), `make_bot` (builds bots,
closes them all at teardown), `simcord_bot` (what SimCord's own plugin starts; `simcord_env` is that
running bot), `world` (a guild, a channel, three members and an admin).

SimCord waits for the bot to settle at most `SETTLE_SECONDS` of real time (a test's own
`@pytest.mark.simcord(settle_timeout=...)` wins) and looks again every `SETTLE_POLL_SECONDS` while a bot
task still runs, so that no flow fails, or crawls, because the machine is slow.

A test that takes a `game_id` argument it does not parametrize itself runs once per game: the games
`--tessera-games` names (comma separated), else those its module's `TESSERA_GAMES` names, else every
registered game (`games.GAME_IDS`). A plugin's own test module runs the shared checks for its game alone:

    from bot.testing.checks import *  # noqa: F403
    TESSERA_GAMES = ("my_game",)  # the id of the game this package registers
"""

from __future__ import annotations

import pytest

try:
    import simcord.env as simcord_env
except ImportError:  # Tessera installed without its `testing` extra: the plugin stays out of the way
    simcord_env = None  # type: ignore[assignment]

SETTLE_SECONDS = 60.0
"""The real seconds SimCord waits for the bot to settle before failing a test (its own default is 5): the
bot drawing boards or thinking on a busy 2-core machine may take longer, and only a hung bot takes this."""

SETTLE_POLL_SECONDS = 0.005
"""How often SimCord looks again whether the bot has settled while a task of the bot still runs (its own
default is 0.05). The bot's background loops (the turn clock, the bot's turn sweep) never finish, so SimCord
waited the whole 0.05 s after every step of virtual time in which they touched the database, though they were
parked again within milliseconds: hours of virtual time took 15 s of waiting. SimCord has no setting for it
(simcord is pinned in pyproject.toml; tests/bot/test_settle_limit.py checks that this still applies)."""
if simcord_env is not None:
    _SETTLE_DEFAULTS = getattr(simcord_env.Env._settle_internal, "__kwdefaults__", None) or {}
    if "idle" in _SETTLE_DEFAULTS:
        _SETTLE_DEFAULTS["idle"] = SETTLE_POLL_SECONDS

GAMES_OPTION = "--tessera-games"
GAMES_ATTRIBUTE = "TESSERA_GAMES"


def pytest_configure(config: pytest.Config) -> None:
    """The fixtures (bot.testing.world) are registered now, after every plugin installed: SimCord's own
    `simcord_bot`, which only says to define one, is then the one they override. Without SimCord (Tessera
    installed without its `testing` extra) there are none."""
    if simcord_env is not None:
        config.pluginmanager.import_plugin("bot.testing.world")
    if config.getoption(GAMES_OPTION):
        chosen_games(config)  # a usage error at once for a game that is not registered


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("tessera").addoption(
        GAMES_OPTION,
        default="",
        help="the game ids (comma separated) the shared game checks run for; default: every registered game",
    )


def chosen_games(config: pytest.Config, module: object = None) -> tuple[str, ...]:
    """The games a test taking `game_id` runs for (see the module doc); an unknown id is a usage error."""
    import games

    given = str(config.getoption(GAMES_OPTION) or "")
    named = tuple(g.strip() for g in given.split(",") if g.strip())
    named = named or tuple(getattr(module, GAMES_ATTRIBUTE, ()))
    unknown = [g for g in named if g not in games.GAME_IDS]
    if unknown:
        known = ", ".join(games.GAME_IDS)
        raise pytest.UsageError(
            f"{GAMES_OPTION}: no registered game {', '.join(unknown)} (registered: {known})"
        )
    return named or tuple(games.GAME_IDS)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """`game_id`, where the test does not parametrize it itself: one run per chosen game."""
    if "game_id" not in metafunc.fixturenames:
        return
    for marker in metafunc.definition.iter_markers("parametrize"):
        names = marker.args[0] if marker.args else marker.kwargs.get("argnames", "")
        if "game_id" in (names.replace(" ", "").split(",") if isinstance(names, str) else names):
            return
    metafunc.parametrize("game_id", chosen_games(metafunc.config, metafunc.module))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Give every test SimCord's settle limit of SETTLE_SECONDS unless its own marker sets one."""
    for item in items:
        marker = item.get_closest_marker("simcord")
        options = dict(marker.kwargs) if marker is not None else {}
        if "settle_timeout" not in options:
            options["settle_timeout"] = SETTLE_SECONDS
            item.add_marker(pytest.mark.simcord(**options), append=False)
