"""The kit for game authors (bot/testing) is installed with the project and works outside it: a game
package's tests, with only their own files, collect the shared checks for their game and pass them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import games
from bot.testing import checks

SHARED = """from bot.testing.checks import *  # noqa: F403
TESSERA_GAMES = ({games})
"""


def run_pytest(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """pytest in `folder`, outside the project: no conftest, no configuration of the project's."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_kit_is_an_installed_pytest_plugin(pytestconfig: pytest.Config) -> None:
    assert pytestconfig.pluginmanager.has_plugin("tessera"), 'pip install -e ".[dev]" registers it'
    assert pytestconfig.pluginmanager.has_plugin("bot.testing.world")
    assert len(checks.__all__) >= 20 and all(name.startswith("test_") for name in checks.__all__)


def other_game() -> str:
    return next(g for g in reversed(games.GAME_IDS) if 2 in games.get(g).seats)


def test_a_module_runs_the_checks_for_the_games_it_names_and_the_option_overrides_it(tmp_path: Path) -> None:
    game = other_game()
    (tmp_path / "test_shared.py").write_text(SHARED.format(games=repr(game) + ","))
    listed = run_pytest(tmp_path, "--collect-only")
    assert listed.returncode == 0, listed.stdout + listed.stderr
    ids = [line for line in listed.stdout.splitlines() if "::" in line]
    assert len(ids) >= len(checks.__all__)
    assert all(f"[{game}" in line or f"-{game}]" in line for line in ids), ids
    first = games.GAME_IDS[0]
    chosen = run_pytest(tmp_path, "--collect-only", f"--tessera-games={first}")
    ids = [line for line in chosen.stdout.splitlines() if "::" in line]
    assert ids and all(f"[{first}" in line or f"-{first}]" in line for line in ids), ids
    wrong = run_pytest(tmp_path, "--collect-only", "--tessera-games=chess")
    assert wrong.returncode == 4 and "no registered game chess" in wrong.stderr


def test_a_game_package_passes_the_shared_checks_outside_the_project(tmp_path: Path) -> None:
    """What an author outside the repository runs: the contract and a SimCord flow (the real bot, /rules)
    pass for their game with no file of the project in their folder."""
    game = other_game()
    (tmp_path / "test_shared.py").write_text(SHARED.format(games=repr(game) + ","))
    ran = run_pytest(tmp_path, "-k", "whole_contract or garbage or rules_shows")
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert "3 passed" in ran.stdout, ran.stdout[-2000:]


def test_the_plugin_stays_out_of_the_way_where_simcord_is_not_installed() -> None:
    """The entry point is registered by every install of Tessera; without the `testing` extra (no SimCord)
    any pytest run in that environment still loads it, and it registers no fixtures."""
    code = """
import builtins
real = builtins.__import__
def without_simcord(name, *args, **kwargs):
    if name.startswith("simcord"):
        raise ImportError(name)
    return real(name, *args, **kwargs)
builtins.__import__ = without_simcord
import bot.testing.plugin as plugin
class Manager:
    def import_plugin(self, name):
        raise AssertionError(name)
class Config:
    pluginmanager = Manager()
    def getoption(self, name):
        return ""
plugin.pytest_configure(Config())
print("loaded", plugin.simcord_env)
"""
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0 and "loaded None" in ran.stdout, ran.stderr[-2000:]
