"""Replays: one frame per position (the start and one per move), a longer last frame, the frame cap."""

from __future__ import annotations

import io
import multiprocessing
import pickle
import weakref
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageChops

import games
import renderer.replay as replay_module
from games.base import Outcome, Termination
from renderer import render_image
from renderer.canvas import to_palette
from renderer.replay import (
    LAST_FRAME_MS,
    REPLAY_SIZE,
    Frame,
    pick_frames,
    replay_frames,
    replay_gif,
    write_frames,
    write_replay,
)
from renderer.theme import THEME_NAMES, Theme, get_theme
from tests.renderer.positions import GAME_SETUPS, log_of, random_game, save_artifact


def frame_durations(data: bytes) -> list[int]:
    gif = Image.open(io.BytesIO(data))
    durations = []
    for n in range(getattr(gif, "n_frames", 1)):
        gif.seek(n)
        durations.append(int(gif.info["duration"]))
    return durations


@pytest.mark.parametrize("setup", ["paintscape-balance", "paint", "tilingking-hex8bi"])
def test_replay_has_one_frame_per_move_and_holds_the_last(setup: str) -> None:
    game_id, seats, options = GAME_SETUPS[setup]
    states, moves = random_game(game_id, seats, options, seed=5, limit=24)
    log = log_of(game_id, states, moves)
    data = replay_gif(game_id, options, 5, seats, log, ["Ann", "Ben", "Cy"][:seats])
    save_artifact(f"{setup}-replay.gif", data)
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF"
    assert getattr(gif, "n_frames", 1) == len(moves) + 1
    durations = frame_durations(data)
    assert durations[-1] == LAST_FRAME_MS
    assert max(durations[:-1]) < LAST_FRAME_MS


def test_replay_frames_follow_the_move_log() -> None:
    game_id, seats, options = GAME_SETUPS["paint"]
    states, moves = random_game(game_id, seats, options, seed=8, limit=15)
    log = log_of(game_id, states, moves)
    frames = replay_frames(game_id, options, 8, seats, log)
    assert [state for state, _ in frames] == states
    assert [move for _, move in frames] == [None, *moves]


def test_a_bad_move_log_names_the_move() -> None:
    game_id, seats, options = GAME_SETUPS["paintscape"]
    states, moves = random_game(game_id, seats, options, seed=1, limit=1)
    log = log_of(game_id, states, moves)
    rules = games.get(game_id)
    with pytest.raises(ValueError, match=r"ply 1: 'z9'"):
        replay_frames(game_id, options, 1, seats, [log[0], (rules.to_move(states[1]), "z9")])


def test_long_games_are_capped_keeping_start_and_end() -> None:
    game_id, seats, options = GAME_SETUPS["paintscape"]
    states, moves = random_game(game_id, seats, options, seed=2, limit=30)
    log = log_of(game_id, states, moves)
    frames = replay_frames(game_id, options, 2, seats, log)
    data, tiny = io.BytesIO(), io.BytesIO()
    write_frames(data, game_id, frames, max_frames=10, size=480)
    assert getattr(Image.open(io.BytesIO(data.getvalue())), "n_frames", 1) == 10
    write_frames(tiny, game_id, frames, max_frames=40, size=480, max_bytes=1)
    assert getattr(Image.open(io.BytesIO(tiny.getvalue())), "n_frames", 1) == 2


@given(count=st.integers(1, 2000), limit=st.integers(2, 500))
def test_picked_frames_keep_the_ends_in_order_within_the_limit(count: int, limit: int) -> None:
    picked = pick_frames(count, limit)
    assert picked[0] == 0
    assert picked[-1] == count - 1
    assert picked == sorted(set(picked))
    assert len(picked) == min(count, limit)


# --------------------------------------------------------------------------------------------- streaming


def decoded_frames(data: bytes) -> list[Image.Image]:
    gif = Image.open(io.BytesIO(data))
    out = []
    for n in range(getattr(gif, "n_frames", 1)):
        gif.seek(n)
        out.append(gif.convert("RGB"))
    return out


def expected_frame(
    game_id: str, frame: Frame, players: list[str], theme: str, outcome: Outcome | None = None
) -> Image.Image:
    state, last_move = frame
    rgb = render_image(
        game_id, state, last_move=last_move, players=players, theme=theme, size=REPLAY_SIZE, outcome=outcome
    )
    return to_palette(rgb, get_theme(theme)).convert("RGB")


@pytest.mark.parametrize("theme", THEME_NAMES)
@pytest.mark.parametrize("setup", ["paint", "tilingking-hex8bi"])
def test_every_decoded_frame_is_exactly_the_rendered_position(setup: str, theme: str) -> None:
    """Frames store only what changed, with unchanged pixels transparent; decoding must give each position
    back pixel for pixel, and the last frame shows the result given from outside the engine."""
    game_id, seats, options = GAME_SETUPS[setup]
    states, moves = random_game(game_id, seats, options, seed=6, limit=12)
    log = log_of(game_id, states, moves)
    players = ["Ann", "Ben", "Cy"][:seats]
    resigned = Outcome.loss(0, seats, Termination.RESIGNATION)
    data = replay_gif(game_id, options, 6, seats, log, players, theme=theme, outcome=resigned)
    frames = replay_frames(game_id, options, 6, seats, log)
    decoded = decoded_frames(data)
    assert len(decoded) == len(frames)
    for n, (frame, image) in enumerate(zip(frames, decoded, strict=True)):
        last = n == len(frames) - 1
        want = expected_frame(game_id, frame, players, theme, resigned if last else None)
        assert ImageChops.difference(image, want).getbbox() is None, f"frame {n} differs"


def test_the_writer_streams_and_holds_only_two_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each frame reaches the file before the next one is drawn, and at most two frames are alive at once."""
    game_id, seats, options = GAME_SETUPS["paint"]
    states, moves = random_game(game_id, seats, options, seed=3, limit=20)
    log = log_of(game_id, states, moves)
    drawn: list[int] = []
    alive: list[weakref.ref[Image.Image]] = []
    most_alive = [0]
    original = replay_module.palette_indices

    def counting(rgb: Image.Image, theme: Theme, game_id: str | None = None) -> Image.Image:
        frame = original(rgb, theme, game_id)
        alive.append(weakref.ref(frame))
        most_alive[0] = max(most_alive[0], sum(1 for ref in alive if ref() is not None))
        drawn.append(1)
        return frame

    class Recorder(io.BytesIO):
        def __init__(self) -> None:
            super().__init__()
            self.drawn_at_write: list[int] = []

        def write(self, data: Any) -> int:
            self.drawn_at_write.append(len(drawn))
            return super().write(data)

    monkeypatch.setattr(replay_module, "palette_indices", counting)
    out = Recorder()
    frames = write_replay(out, game_id, options, 3, seats, log, ["Ann", "Ben"])
    assert frames == len(moves) + 1
    assert set(range(1, frames + 1)) <= set(out.drawn_at_write), "a frame waited for a later one"
    assert most_alive[0] <= 3
    assert len(decoded_frames(out.getvalue())) == frames


def test_a_file_that_cannot_seek_still_gets_a_capped_gif() -> None:
    game_id, seats, options = GAME_SETUPS["paintscape"]
    states, moves = random_game(game_id, seats, options, seed=2, limit=30)
    log = log_of(game_id, states, moves)

    class Pipe(io.RawIOBase):
        def __init__(self) -> None:
            self.chunks: list[bytes] = []

        def writable(self) -> bool:
            return True

        def write(self, data: Any) -> int:
            self.chunks.append(bytes(data))
            return len(data)

    pipe = Pipe()
    frames = write_replay(pipe, game_id, options, 2, seats, log, max_bytes=60_000, size=480)
    data = b"".join(pipe.chunks)
    assert len(data) <= 60_000
    assert 2 <= frames < len(moves) + 1
    assert len(decoded_frames(data)) == frames


def test_replays_run_in_another_process() -> None:
    """Every argument pickles (the bot runs replays in a process pool)."""
    game_id, seats, options = GAME_SETUPS["paint"]
    states, moves = random_game(game_id, seats, options, seed=4, limit=6)
    log = log_of(game_id, states, moves)
    outcome = Outcome.loss(1, 2, Termination.TIMEOUT)
    args = (game_id, dict(options), 4, seats, list(log), ["Ann", "Ben"])
    assert pickle.loads(pickle.dumps(outcome)) == outcome
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        remote = pool.submit(replay_gif, *args, theme="colorblind", outcome=outcome).result(timeout=120)
    assert remote == replay_gif(*args, theme="colorblind", outcome=outcome)
    first = decoded_frames(remote)[0]
    assert first.getpixel((0, 0)) == get_theme("colorblind").header
