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
    """States and notations of a seeded random game (TilingKing prefers placing to passing)."""
    rules = games.get(game_id)
    rng = random.Random(seed)
    state = rules.new(seats, options, seed)
    states: list[Any] = [state]
    moves: list[str] = []
    while rules.outcome(state) is None and len(moves) < limit:
        legal = list(rules.legal_moves(state))
        if game_id == "tilingking":
            placements = [m for m in legal if getattr(m, "action", "") == "place"]
            legal = placements or legal
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
    "paintscape": ("paintscape", 2, {"balance": False}),
    "paintscape-balance": ("paintscape", 2, {}),
    "paint": ("paint", 2, {}),
    "tilingking-sq9": ("tilingking", 2, {"board": "sq9"}),
    "tilingking-hex8bi": ("tilingking", 3, {"board": "hex8bi"}),
    "tilingking-tri6bi": ("tilingking", 4, {"board": "tri6bi"}),
}
GAME_SETUPS.update(
    {
        game_id: (game_id, min(games.get(game_id).seats), {})
        for game_id in games.GAME_IDS
        if game_id not in {game for game, _, _ in GAME_SETUPS.values()}
    }
)
"""Every other registered game (a game package's) at its fewest seats with its default options."""
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
