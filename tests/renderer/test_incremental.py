"""A board drawn from its match's last board (`renderer.incremental`) is byte for byte the PNG of a full draw:
after every move of random games of every game, through takebacks, theme and language changes, results
decided outside the engine, and a forgotten last board."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import games
import renderer
from bot.i18n import translations
from bot.testing import fixtures
from games.base import RESIGNATION, Outcome
from renderer.incremental import Boards
from tests.renderer.positions import GAME_SETUPS, NAMES

SETUPS = sorted(GAME_SETUPS)
LOCALES = ["en", "fr", "ja", "de"]
STEPS = ["move", "move", "move", "move", "back", "theme", "language", "resign", "miss", "rename"]


def full_draw(game_id: str, board: dict[str, Any]) -> bytes:
    return renderer.render(
        game_id,
        board["state"],
        last_move=board["last_move"],
        players=board["players"],
        outcome=board["outcome"],
        theme=board["theme"],
        translations=translations(board["locale"]),
    )


def drawn_from_last(boards: Boards, key: int, game_id: str, board: dict[str, Any]) -> bytes:
    return boards.render(
        key,
        game_id,
        board["state"],
        last_move=board["last_move"],
        players=board["players"],
        outcome=board["outcome"],
        theme=board["theme"],
        size=renderer.DEFAULT_SIZE,
        translations=translations(board["locale"]),
    )


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    setup=st.sampled_from(SETUPS),
    seed=st.integers(0, 10**6),
    steps=st.lists(st.sampled_from(STEPS), min_size=1, max_size=25),
)
@example(setup="paint", seed=519, steps=["move"] * 10 + ["language", "move"])  # the key moved down a line
def test_a_board_drawn_from_its_last_board_is_the_png_of_a_full_draw(
    setup: str, seed: int, steps: list[str]
) -> None:
    game_id, seats, options = GAME_SETUPS[setup]
    rules = games.get(game_id)
    rng = random.Random(seed)
    history: list[tuple[Any, str | None]] = [(rules.new(seats, options, seed), None)]
    board: dict[str, Any] = {
        "players": list(NAMES[:seats]),
        "outcome": None,
        "theme": "default",
        "locale": "en",
    }
    boards = Boards()
    for step in ["move", *steps]:
        state = history[-1][0]
        if step == "move" and rules.outcome(state) is None:
            move = rng.choice(fixtures.random_moves(game_id, state, list(rules.legal_moves(state))))
            history.append((rules.apply(state, move), rules.notation(state, move)))
        elif step == "back" and len(history) > 1:  # a takeback: the board of the ply before
            history.pop()
        elif step == "theme":
            board["theme"] = rng.choice(renderer.THEME_NAMES)
        elif step == "language":
            board["locale"] = rng.choice(LOCALES)
        elif step == "resign":  # a result decided outside the engine, and taken back again
            loser = rng.randrange(seats)
            ranks = tuple(1 if s == loser else 0 for s in range(seats))
            board["outcome"] = None if board["outcome"] else Outcome(RESIGNATION, ranks)
        elif step == "miss":  # the last board forgotten (a process restarted, the match evicted)
            boards.clear()
        elif step == "rename":
            board["players"][rng.randrange(seats)] = rng.choice(
                ["Zoë", "李雷", "محمد", "A very long name indeed"]
            )
        board["state"], board["last_move"] = history[-1]
        assert drawn_from_last(boards, seed, game_id, board) == full_draw(game_id, board), (
            step,
            len(history),
        )


def test_every_move_of_a_game_drawn_from_the_last_board_is_the_png_of_a_full_draw() -> None:
    """Whole games, one board per move; every game whose drawer builds a scene draws almost every board
    from the last one (only the first in full)."""
    for setup in SETUPS:
        game_id, seats, options = GAME_SETUPS[setup]
        rules = games.get(game_id)
        rng = random.Random(7)
        state, last_move = rules.new(seats, options, 7), None
        boards = Boards()
        drawn, in_full, theme = 0, 0, None
        while drawn < 60 and rules.outcome(state) is None:
            board = {
                "state": state,
                "last_move": last_move,
                "players": list(NAMES[:seats]),
                "outcome": None,
                "theme": "colorblind" if drawn % 20 >= 10 else "default",
                "locale": "en",
            }
            assert drawn_from_last(boards, 1, game_id, board) == full_draw(game_id, board), (setup, drawn)
            in_full += board["theme"] != theme  # the first board, and each after a change of theme
            theme = board["theme"]
            drawn += 1
            move = rng.choice(fixtures.random_moves(game_id, state, list(rules.legal_moves(state))))
            state, last_move = rules.apply(state, move), rules.notation(state, move)
        if hasattr(renderer.drawer(game_id), "scene"):
            assert boards.redrawn == drawn - in_full, setup


def test_the_last_boards_kept_are_bounded_in_bytes_least_recently_used_first() -> None:
    rules = games.get("paint")
    state = rules.new(2, {}, 1)
    one = renderer.DEFAULT_SIZE * renderer.DEFAULT_SIZE * 2 // 3  # a board's palette indices
    boards = Boards(limit_bytes=3 * one)
    for key in range(4):
        boards.render(key, "paint", state, players=NAMES[:2], size=renderer.DEFAULT_SIZE)
    assert len(boards) == 3 and boards.size == 3 * one
    boards.render(1, "paint", state, players=NAMES[:2], size=renderer.DEFAULT_SIZE)
    assert boards.redrawn == 1  # key 1 was kept; key 0 was the least recently used and went
    boards.render(0, "paint", state, players=NAMES[:2], size=renderer.DEFAULT_SIZE)
    assert boards.redrawn == 1 and len(boards) == 3
