"""Animated replays: a finished match (its start and move list) to a GIF, one frame per position.

The first frame is the start, then one frame after each move with that move marked, and the last frame is
held longer. Every frame is quantized to the theme's fixed palette, so the GIF needs no per-frame palette
and Pillow stores each frame as the rectangle that changed, with unchanged pixels transparent.

Caps: a replay holds at most `MAX_FRAMES` frames (every position of a Paint game at its default 600-ply
cap). A longer game keeps the start, the final position and evenly spaced positions between them; the
positions left out are dropped, and the frame after a gap still marks its own last move. If the GIF still
exceeds `MAX_BYTES` (8 MiB), the frame count is halved until it fits.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

import games
from renderer import render_image
from renderer.canvas import to_palette
from renderer.theme import Theme, get_theme

REPLAY_SIZE = 720
"""Frame width in pixels (smaller than a board image, to keep long replays small)."""
FRAME_MS = 800
LAST_FRAME_MS = 4000
MAX_FRAMES = 601
MAX_BYTES = 8 * 1024 * 1024


Frame = tuple[Any, str | None]
"""A position and the notation of the move that led to it (None for the start)."""


def replay_frames(
    game_id: str, options: Mapping[str, Any], seed: int, seats: int, moves: Sequence[str]
) -> list[Frame]:
    """Every position of a match, replayed from its start with the game's own parser and rules."""
    rules = games.get(game_id)
    state = rules.new(seats, options, seed)
    frames: list[Frame] = [(state, None)]
    for number, text in enumerate(moves, start=1):
        try:
            state = rules.apply(state, rules.parse(state, text))
        except ValueError as error:
            raise ValueError(f"move {number} ({text!r}) cannot be replayed: {error}") from error
        frames.append((state, text))
    return frames


def pick_frames(count: int, limit: int) -> list[int]:
    """Indices of at most `limit` frames out of `count`: all of them, or the first, the last and evenly
    spaced ones between."""
    if count <= limit:
        return list(range(count))
    if limit < 2:
        return [count - 1]
    step = (count - 1) / (limit - 1)
    picked = sorted({round(n * step) for n in range(limit)})
    return picked


def frames_gif(
    game_id: str,
    frames: Sequence[Frame],
    players: Sequence[str] | None = None,
    *,
    theme: str | Theme = "default",
    size: int = REPLAY_SIZE,
    frame_ms: int = FRAME_MS,
    last_frame_ms: int = LAST_FRAME_MS,
    max_frames: int = MAX_FRAMES,
    max_bytes: int = MAX_BYTES,
) -> bytes:
    """An animated GIF of the given positions (see the module docstring for the caps)."""
    if not frames:
        raise ValueError("a replay needs at least one position")
    chosen = get_theme(theme)
    limit = max_frames
    cache: dict[int, Image.Image] = {}
    while True:
        picked = pick_frames(len(frames), limit)
        images = []
        for index in picked:
            if index not in cache:
                state, last_move = frames[index]
                rgb = render_image(
                    game_id, state, last_move=last_move, players=players, theme=chosen, size=size
                )
                cache[index] = to_palette(rgb, chosen)
            images.append(cache[index])
        durations = [frame_ms] * (len(images) - 1) + [last_frame_ms]
        out = io.BytesIO()
        images[0].save(
            out,
            "GIF",
            save_all=True,
            append_images=images[1:],
            duration=durations,
            loop=0,
            optimize=True,
            disposal=1,
        )
        data = out.getvalue()
        if len(data) <= max_bytes or limit <= 2:
            return data
        limit = max(2, limit // 2)


def replay_gif(
    game_id: str,
    options: Mapping[str, Any],
    seed: int,
    seats: int,
    moves: Sequence[str],
    players: Sequence[str] | None = None,
    *,
    theme: str | Theme = "default",
    size: int = REPLAY_SIZE,
    frame_ms: int = FRAME_MS,
    last_frame_ms: int = LAST_FRAME_MS,
) -> bytes:
    """A finished (or unfinished) match as an animated GIF: the start, then one frame per move."""
    frames = replay_frames(game_id, options, seed, seats, moves)
    return frames_gif(
        game_id, frames, players, theme=theme, size=size, frame_ms=frame_ms, last_frame_ms=last_frame_ms
    )
