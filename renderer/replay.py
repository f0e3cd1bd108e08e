"""Animated replays: a match (its start and move list) to a GIF, one frame per position, written as drawn.

The first frame is the start, then one frame after each move with that move marked, and the last frame is
held longer and shows the result (the engine's, or `outcome` when the match service ended the game by a
resignation, timeout or abort). Every frame is quantized to the theme's fixed palette, which is the GIF's
one global colour table; each frame after the first stores only the rectangle that changed, with unchanged
pixels transparent (index `TRANSPARENT`, which no theme colour uses).

Frames are encoded as they are drawn and written to the output at once, so a replay holds two frames (the
one drawn and the one before it) whatever its length: memory stays flat.

Caps: a replay holds at most `MAX_FRAMES` frames (every position of a Paint game at its default 600-ply
cap). A longer game keeps the start, the final position and evenly spaced positions between them; the
frame after a gap still marks its own last move. If the GIF grows past `MAX_BYTES` (8 MiB), the replay
starts again with half as many frames (the output is rewound when it can seek, else buffered), until it fits.

Every argument of `replay_gif` and `write_replay` pickles, so the bot can run them in a process pool:

    pool.submit(replay_gif, "paint", {"lead_turns": 50}, seed, 2, log, ["Alice", "Bob"],
                theme="colorblind", outcome=Outcome.loss(1, 2, Termination.RESIGNATION))
"""

from __future__ import annotations

import io
import struct
from collections.abc import Mapping, Sequence
from typing import Any, BinaryIO

from PIL import GifImagePlugin, Image, ImageChops

import games
from games.base import Outcome, replay
from games.texts import Translations
from renderer import render_image
from renderer import text as wording
from renderer.canvas import to_palette
from renderer.theme import Theme, get_theme, palette

REPLAY_SIZE = 720
"""Frame width in pixels (smaller than a board image, to keep long replays small; every text scales with the
image, so it reads the same once Discord shows either at its preview width)."""
FRAME_MS = 800
LAST_FRAME_MS = 4000
MAX_FRAMES = 601
MAX_BYTES = 8 * 1024 * 1024
TRANSPARENT = 255
"""The palette index of transparent pixels (theme palettes have at most 255 colours, so it is free)."""


Frame = tuple[Any, str | None]
"""A position and the notation of the move that led to it (None for the start)."""


LogEntry = tuple[int, str]
"""One entry of a move log: the seat that played and the notation (`games.base.replay` reads these)."""


def replay_frames(
    game_id: str, options: Mapping[str, Any], seed: int, seats: int, log: Sequence[LogEntry]
) -> list[Frame]:
    """Every position of a match, from its start through `games.base.replay` of its move log (a resignation
    marks no move). A log that does not replay raises ValueError (`ReplayError`) naming the ply."""
    rules = games.get(game_id)
    start = rules.new(seats, options, seed)
    frames: list[Frame] = [(start, None)]
    for step in replay(rules, start, log):
        frames.append((step.after, step.notation if step.move is not None else None))
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


_UNCHANGED = [255] + [0] * 255
"""A lookup table from an index difference to a mask of the pixels that did not change."""


class _TooBig(Exception):
    """The GIF passed the byte cap; the replay starts again with fewer frames."""


class GifWriter:
    """A GIF written frame by frame to a binary file object: one global palette, frames of palette indices
    ("L" images of the same size), each stored as the rectangle that changed since the frame before."""

    def __init__(self, fp: BinaryIO, size: tuple[int, int], colours: Sequence[tuple[int, int, int]]) -> None:
        if len(colours) > TRANSPARENT:
            raise ValueError(f"a replay palette holds at most {TRANSPARENT} colours, not {len(colours)}")
        self.fp = fp
        self.size = size
        self.written = 0
        self.frames = 0
        self._previous: Image.Image | None = None
        table = bytearray(768)
        for n, colour in enumerate(colours):
            table[3 * n : 3 * n + 3] = bytes(colour)
        width, height = size
        # header, logical screen (global table of 256 colours), the table, then loop forever (NETSCAPE2.0)
        self._write(
            b"GIF89a"
            + struct.pack("<HHBBB", width, height, 0xF7, 0, 0)
            + bytes(table)
            + b"!\xff\x0bNETSCAPE2.0\x03\x01"
            + struct.pack("<H", 0)
            + b"\x00"
        )

    def _write(self, data: bytes) -> None:
        self.fp.write(data)
        self.written += len(data)

    def add(self, indices: Image.Image, duration_ms: int) -> None:
        """Append one frame: an "L" image whose values are palette indices."""
        if indices.mode != "L" or indices.size != self.size:
            raise ValueError(f"frames must be {self.size} palette-index images")
        previous, self._previous = self._previous, indices
        if previous is None:
            region, offset, params = indices, (0, 0), {}
        else:
            changed = ImageChops.difference(previous, indices)
            box = changed.getbbox()
            if box is None:  # nothing moved: a one-pixel transparent frame keeps one frame per position
                region, offset = Image.new("L", (1, 1), TRANSPARENT), (0, 0)
            else:
                region, offset = indices.crop(box), box[:2]
                same = changed.crop(box).point(_UNCHANGED)
                region.paste(TRANSPARENT, (0, 0), same)
            params = {"transparency": TRANSPARENT}
        chunks = GifImagePlugin.getdata(region, offset=offset, duration=duration_ms, disposal=1, **params)
        self._write(b"".join(chunks))
        self.frames += 1

    def close(self) -> None:
        self._write(b";")
        self._previous = None


def palette_indices(rgb: Image.Image, theme: Theme, game_id: str | None = None) -> Image.Image:
    """An RGB drawing as an "L" image of indices into the theme's palette (no dithering)."""
    quantized = to_palette(rgb, theme, game_id)
    return Image.frombytes("L", quantized.size, quantized.tobytes())


def write_frames(
    fp: BinaryIO,
    game_id: str,
    frames: Sequence[Frame],
    players: Sequence[str] | None = None,
    *,
    theme: str | Theme = "default",
    size: int = REPLAY_SIZE,
    outcome: Outcome | None = None,
    frame_ms: int = FRAME_MS,
    last_frame_ms: int = LAST_FRAME_MS,
    max_frames: int = MAX_FRAMES,
    max_bytes: int = MAX_BYTES,
) -> int:
    """Write an animated GIF of the given positions to `fp` (see the module docstring for the caps) and
    return the number of frames. `outcome` is shown on the last frame."""
    if not frames:
        raise ValueError("a replay needs at least one position")
    chosen = get_theme(theme)
    seekable = fp.seekable()
    start = fp.tell() if seekable else 0
    limit = max_frames
    while True:
        target: BinaryIO = fp if seekable else io.BytesIO()
        try:
            count = _write_gif(
                target,
                game_id,
                frames,
                players,
                chosen,
                size,
                outcome,
                frame_ms,
                last_frame_ms,
                limit,
                max_bytes if limit > 2 else None,
            )
        except _TooBig:
            if seekable:
                fp.seek(start)
                fp.truncate()
            limit = max(2, limit // 2)
            continue
        if not seekable:
            assert isinstance(target, io.BytesIO)
            fp.write(target.getvalue())
        return count


def _write_gif(
    fp: BinaryIO,
    game_id: str,
    frames: Sequence[Frame],
    players: Sequence[str] | None,
    theme: Theme,
    size: int,
    outcome: Outcome | None,
    frame_ms: int,
    last_frame_ms: int,
    limit: int,
    max_bytes: int | None,
) -> int:
    picked = pick_frames(len(frames), limit)
    writer: GifWriter | None = None
    for n, index in enumerate(picked):
        state, last_move = frames[index]
        last = n == len(picked) - 1
        rgb = render_image(
            game_id,
            state,
            last_move=last_move,
            players=players,
            theme=theme,
            size=size,
            outcome=outcome if last else None,
        )
        if writer is None:
            writer = GifWriter(fp, rgb.size, palette(theme, game_id))
        writer.add(palette_indices(rgb, theme, game_id), last_frame_ms if last else frame_ms)
        if max_bytes is not None and writer.written > max_bytes:
            raise _TooBig
    assert writer is not None
    writer.close()
    if max_bytes is not None and writer.written > max_bytes:
        raise _TooBig
    return writer.frames


def write_replay(
    fp: BinaryIO,
    game_id: str,
    options: Mapping[str, Any],
    seed: int,
    seats: int,
    log: Sequence[LogEntry],
    players: Sequence[str] | None = None,
    *,
    theme: str | Theme = "default",
    size: int = REPLAY_SIZE,
    outcome: Outcome | None = None,
    frame_ms: int = FRAME_MS,
    last_frame_ms: int = LAST_FRAME_MS,
    max_frames: int = MAX_FRAMES,
    max_bytes: int = MAX_BYTES,
) -> int:
    """Replay a match from its start and move log ((seat, notation) entries) and write it as an animated
    GIF to `fp` (a binary file object); returns the number of frames. ValueError names the ply of a move
    that cannot be replayed."""
    frames = replay_frames(game_id, options, seed, seats, log)
    return write_frames(
        fp,
        game_id,
        frames,
        players,
        theme=theme,
        size=size,
        outcome=outcome,
        frame_ms=frame_ms,
        last_frame_ms=last_frame_ms,
        max_frames=max_frames,
        max_bytes=max_bytes,
    )


def replay_gif(
    game_id: str,
    options: Mapping[str, Any],
    seed: int,
    seats: int,
    log: Sequence[LogEntry],
    players: Sequence[str] | None = None,
    *,
    theme: str | Theme = "default",
    size: int = REPLAY_SIZE,
    outcome: Outcome | None = None,
    frame_ms: int = FRAME_MS,
    last_frame_ms: int = LAST_FRAME_MS,
    max_frames: int = MAX_FRAMES,
    max_bytes: int = MAX_BYTES,
    translations: Translations | None = None,
) -> bytes:
    """A match as an animated GIF (`write_replay` into bytes): the start, then one frame per move, the
    result on the last frame; its texts in the language of `translations` (None: English)."""
    out = io.BytesIO()
    with wording.using(translations):
        write_replay(
            out,
            game_id,
            options,
            seed,
            seats,
            log,
            players,
            theme=theme,
            size=size,
            outcome=outcome,
            frame_ms=frame_ms,
            last_frame_ms=last_frame_ms,
            max_frames=max_frames,
            max_bytes=max_bytes,
        )
    return out.getvalue()
