"""Issue 39's finder rules and the starter pools shipped with the games: a match gives at most one puzzle (its
mining stops at the first), every legal move is searched alone where there are few, each puzzle has a theme
that the game's puzzle module gives again; every shipped starter puzzle holds the finder's checks, and the
pool is reproducible from its match seed (bench/starter_puzzles.py)."""

from __future__ import annotations

import dataclasses
import json
import sys
import types
import zlib
from pathlib import Path
from typing import Any

import pytest

import games
from games.ai.puzzles import (
    MARGIN,
    MIN_CHOICES,
    PLAYED_LOSS,
    THEMES,
    PuzzleBudget,
    find_puzzles,
    starter_pool,
    theme_of,
)
from tests.games.test_puzzles import SMALL, self_play, small_game

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import starter_puzzles

BUDGET = PuzzleBudget(first=100, second=200, rival=100)
POOLED = ("paintscape", "paint", "tilingking")


@small_game
def test_a_match_gives_at_most_one_puzzle_and_its_mining_stops_there() -> None:
    rules = games.get(SMALL)
    found_any = False
    for seed in (4, 5, 7):
        log = self_play(SMALL, seed)
        seen: list[Any] = []

        def heard(step: Any, examined: Any, seen: list[Any] = seen) -> None:
            seen.append(examined)

        found = find_puzzles(rules, rules.new(2, {}, seed), log, budget=BUDGET, seed=seed, on_examined=heard)
        assert len(found) <= 1
        if found:
            found_any = True
            assert seen[-1].puzzle == found[0], "nothing is examined after the puzzle"
            state = rules.load(found[0].position)
            legal = len(list(rules.legal_moves(state)))
            assert legal <= BUDGET.alone and found[0].figures.alone == legal - 1, "every other move alone"
            assert all(verdict.puzzle is None for verdict in seen[:-1])
    assert found_any


THEMES_CHECKED = 20
"""Pool puzzles whose theme is worked out again (the first of each game: TilingKing's tries every move)."""


def check_entry(game: str, entry: dict[str, Any], theme: bool = True) -> None:
    """A starter puzzle is a position of `game` with the seat to move, its solution legal there, the
    finder's margins in its figures (every other move searched alone where there are few), a theme the
    game's puzzle module gives again."""
    rules = games.get(game)
    state = rules.load(entry["position"])
    assert rules.to_move(state) == entry["mover"]
    legal = {rules.notation(state, move): move for move in rules.legal_moves(state)}
    assert len(legal) >= MIN_CHOICES and entry["solution"][0] in legal
    figures = entry["figures"]
    assert figures["second_best"] - figures["second_runner_up"] >= MARGIN
    assert figures["first_best"] - figures["first_runner_up"] >= MARGIN
    assert figures["second_best"] - figures["played_value"] >= PLAYED_LOSS
    assert figures["played"] in legal and figures["played"] != entry["solution"][0]
    if len(legal) <= PuzzleBudget().alone:
        assert figures["alone"] == len(legal) - 1, "every other legal move searched alone"
    assert entry["theme"] in THEMES
    if not theme:
        return
    solution, played = legal[entry["solution"][0]], legal[figures["played"]]
    after, played_after = rules.apply(state, solution), rules.apply(state, played)
    assert theme_of(rules, state, solution, after, played_after) == entry["theme"]


@pytest.mark.parametrize("game", POOLED)
def test_every_starter_puzzle_holds_the_finders_checks(game: str) -> None:
    pool = starter_pool(game)
    matches = [entry["match"] for entry in pool]
    assert matches == sorted(set(matches)), "one puzzle a match, in match order"
    for number, entry in enumerate(pool):
        assert entry["game"] == game
        check_entry(game, entry, theme=number < THEMES_CHECKED)


def test_the_pools_keys_differ() -> None:
    """Each game's starter puzzles are stored under a source match of its own (bot/service/puzzles.py)."""
    keys = {zlib.crc32(game.encode()) & 0x7FFFFFFF for game in games.GAME_IDS}
    assert len(keys) == len(games.GAME_IDS)


def test_a_starter_puzzle_is_made_again_from_its_match_seed() -> None:
    """Reproducible: the bench's match seed plays the same match and mines the same puzzle."""
    pool = starter_pool("paintscape")
    if not pool:
        pytest.skip("no Paintscape starter pool")
    entry = pool[0]
    again = starter_puzzles.mine("paintscape", entry["match"])
    assert again.puzzle is not None
    assert starter_puzzles.entry("paintscape", entry["match"], again.puzzle) == entry
    for earlier in range(entry["match"]):  # the matches before it gave none
        assert starter_puzzles.mine("paintscape", earlier).puzzle is None


def test_a_plugin_ships_its_own_pool_and_themes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game from its own package declares its puzzle module in its plugin (`GamePlugin.puzzles`): its
    `STARTER` pool is served and its `theme` names its puzzles' themes (an unknown key reads as quiet)."""
    pool = tmp_path / "puzzles.jsonl"
    pool.write_text(json.dumps({"match": 3, "theme": "capture"}) + "\n\n", encoding="utf-8")
    module = types.ModuleType("outside_puzzles")
    module.STARTER = pool  # type: ignore[attr-defined]
    answers = iter(["capture", "no such theme"])
    module.theme = lambda *args: next(answers)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "outside_puzzles", module)
    monkeypatch.setitem(
        games.PLUGINS, SMALL, dataclasses.replace(games.plugin(SMALL), puzzles="outside_puzzles")
    )
    assert starter_pool(SMALL) == [{"match": 3, "theme": "capture"}]
    rules = games.get(SMALL)
    state = rules.new(2, {}, 0)
    move = next(iter(rules.legal_moves(state)))
    after = rules.apply(state, move)
    assert rules.outcome(after) is None
    assert theme_of(rules, state, move, after, after) == "capture"
    assert theme_of(rules, state, move, after, after) == "quiet"
    monkeypatch.setitem(games.PLUGINS, SMALL, dataclasses.replace(games.plugin(SMALL), puzzles=None))
    assert starter_pool(SMALL) == [] and theme_of(rules, state, move, after, after) == "quiet"
