"""Positions for the renderer tests: start, middle and end of seeded random games of every game, and a helper
that writes images out when RENDER_ARTIFACTS=<dir> is set (so a person can look at them)."""

from __future__ import annotations

import io
import os
import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image

import games
from bot.testing import fixtures


@dataclass(frozen=True)
class Position:
    game_id: str
    stage: str
    state: Any
    last_move: str | None
    players: tuple[str, ...]


def random_game(
    game_id: str, seats: int, options: dict[str, Any], seed: int, limit: int = 400
) -> tuple[list[Any], list[str]]:
    """States and notations of a seeded random game, its moves drawn from the game's fixtures'
    `random_moves` (TilingKing's place rather than pass)."""
    rules = games.get(game_id)
    rng = random.Random(seed)
    state = rules.new(seats, options, seed)
    states: list[Any] = [state]
    moves: list[str] = []
    while rules.outcome(state) is None and len(moves) < limit:
        legal = fixtures.random_moves(game_id, state, list(rules.legal_moves(state)))
        move = rng.choice(legal)
        moves.append(rules.notation(state, move))
        state = rules.apply(state, move)
        states.append(state)
    return states, moves


def log_of(game_id: str, states: list[Any], moves: list[str]) -> list[tuple[int, str]]:
    """The move log of a game as the store keeps it: (seat to move, notation) per move."""
    rules = games.get(game_id)
    return [(rules.to_move(state), move) for state, move in zip(states, moves, strict=False)]


GAME_SETUPS: dict[str, tuple[str, int, dict[str, Any]]] = {
    name: (game_id, seats, options)
    for game_id in games.GAME_IDS
    for name, (seats, options) in fixtures.render_setups(game_id).items()
}
"""The seeded games the renderer tests draw, by name: every registered game's fixtures' `RENDER_SETUPS`."""
NAMES = ("Alice", "Bob", "Carol", "Dave")


@cache
def positions(setup: str) -> tuple[Position, Position, Position]:
    """Start, middle and end of one seeded game."""
    game_id, seats, options = GAME_SETUPS[setup]
    states, moves = random_game(game_id, seats, options, seed=11)
    middle = len(moves) // 2
    players = NAMES[:seats]
    return (
        Position(game_id, "start", states[0], None, players),
        Position(game_id, "middle", states[middle], moves[middle - 1] if middle else None, players),
        Position(game_id, "end", states[-1], moves[-1] if moves else None, players),
    )


def save_artifact(name: str, data: bytes) -> None:
    """Write an image to $RENDER_ARTIFACTS/<name> when that variable is set."""
    target = os.environ.get("RENDER_ARTIFACTS")
    if target:
        path = Path(target)
        path.mkdir(parents=True, exist_ok=True)
        (path / name).write_bytes(data)


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image
