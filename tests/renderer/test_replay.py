"""Replays: one frame per position (the start and one per move), a longer last frame, the frame cap."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from renderer.replay import LAST_FRAME_MS, frames_gif, pick_frames, replay_frames, replay_gif
from tests.renderer.positions import GAME_SETUPS, random_game, save_artifact


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
    _, moves = random_game(game_id, seats, options, seed=5, limit=24)
    data = replay_gif(game_id, options, 5, seats, moves, ["Ann", "Ben", "Cy"][:seats])
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
    frames = replay_frames(game_id, options, 8, seats, moves)
    assert [state for state, _ in frames] == states
    assert [move for _, move in frames] == [None, *moves]


def test_a_bad_move_log_names_the_move() -> None:
    game_id, seats, options = GAME_SETUPS["paintscape"]
    _, moves = random_game(game_id, seats, options, seed=1, limit=1)
    with pytest.raises(ValueError, match=r"move 2 \('z9'\)"):
        replay_frames(game_id, options, 1, seats, [moves[0], "z9"])


def test_long_games_are_capped_keeping_start_and_end() -> None:
    game_id, seats, options = GAME_SETUPS["paintscape"]
    _states, moves = random_game(game_id, seats, options, seed=2, limit=30)
    frames = replay_frames(game_id, options, 2, seats, moves)
    data = frames_gif(game_id, frames, max_frames=10, size=480)
    assert getattr(Image.open(io.BytesIO(data)), "n_frames", 1) == 10
    tiny = frames_gif(game_id, frames, max_frames=40, size=480, max_bytes=1)
    assert getattr(Image.open(io.BytesIO(tiny)), "n_frames", 1) == 2


@given(count=st.integers(1, 2000), limit=st.integers(2, 500))
def test_picked_frames_keep_the_ends_in_order_within_the_limit(count: int, limit: int) -> None:
    picked = pick_frames(count, limit)
    assert picked[0] == 0
    assert picked[-1] == count - 1
    assert picked == sorted(set(picked))
    assert len(picked) == min(count, limit)
