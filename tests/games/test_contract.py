"""One test over every registered game (OpenSpiel-style): random games from many seeds must respect the
`Rules` contract of games/base.py."""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest

import games
from games.base import GameOver, MoveError, Outcome, Rules, advance, play

GAMES_PER_CASE = int(os.environ.get("CONTRACT_GAMES", "12"))
PLY_LIMIT = 3000  # far above any game's natural length; reaching it means the game does not end


def cases() -> list[tuple[str, int]]:
    return [(game_id, n) for game_id, rules in games.all_games().items() for n in rules.seats]


def roundtrip(rules: Rules[Any, Any], state: Any) -> Any:
    return rules.load(json.loads(json.dumps(rules.dump(state))))


@pytest.mark.parametrize(("game_id", "seats"), cases())
def test_random_games_respect_the_contract(game_id: str, seats: int) -> None:
    rules = games.get(game_id)
    assert rules.id == game_id
    for seed in range(GAMES_PER_CASE):
        rng = random.Random(seed)
        state = rules.new(seats, {}, seed)
        assert roundtrip(rules, state) == state
        for _ply in range(PLY_LIMIT):
            outcome = rules.outcome(state)
            moves = list(rules.legal_moves(state))
            if outcome is not None:
                assert moves == [], "a finished game has no legal moves"
                assert rules.to_move(state) is None
                assert isinstance(outcome, Outcome)
                assert len(outcome.ranks) == seats
                with pytest.raises(GameOver):
                    rules.parse(state, "pass")
                break
            assert moves, "legal_moves is empty only when the game is over"
            assert rules.to_move(state) in range(seats)
            texts = [rules.notation(state, m) for m in moves]
            assert len(set(texts)) == len(texts), "two legal moves share a notation"
            for move, text in zip(moves, texts, strict=True):
                assert rules.parse(state, text) == move
                assert rules.parse(state, f"  {text.upper()}  ") == move, "parsing ignores case and spaces"
            forced = rules.forced_move(state)
            if forced is not None:
                assert moves == [forced], "a forced move is the only legal move"
            move = rng.choice(moves)
            assert rules.describe(state, move)
            before = rules.dump(state)
            state = rules.apply(state, move)
            assert rules.dump(rules.load(before)) == before, "apply must not mutate its input"
            assert roundtrip(rules, state) == state
            assert isinstance(rules.position_text(state), str)
        else:
            pytest.fail(f"{game_id} seed {seed} did not end within {PLY_LIMIT} plies")


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_garbage_is_rejected_with_a_move_error(game_id: str) -> None:
    rules = games.get(game_id)
    state = rules.new(min(rules.seats), {}, 1)
    for text in ["", "   ", "zz99", "hello world", "a1-", "swap", "💥"]:
        with pytest.raises(MoveError) as info:
            rules.parse(state, text)
        assert str(info.value), "errors carry a message for the player"


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_replaying_the_log_with_forced_moves_reproduces_the_game(game_id: str) -> None:
    rules = games.get(game_id)
    rng = random.Random(7)
    seats = min(rules.seats)
    state = rules.new(seats, {}, 7)
    log: list[str] = []
    for _ in range(80):
        if rules.outcome(state) is not None:
            break
        move = rules.forced_move(state) or rng.choice(list(rules.legal_moves(state)))
        log.append(rules.notation(state, move))
        state = rules.apply(state, move)
    assert rules.dump(play(rules, log, seats=seats, seed=7)) == rules.dump(state)


def test_advance_plays_only_forced_moves() -> None:
    rules = games.get("paintscape")
    state = rules.new(2, {}, 0)
    after, played = advance(rules, state)
    assert played == [] and after == state, "the opening position has a real choice"


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_illegal_move_does_not_change_the_state(game_id: str) -> None:
    rules = games.get(game_id)
    state = rules.new(min(rules.seats), {}, 3)
    before = rules.dump(state)
    with pytest.raises(MoveError):
        rules.parse(state, "a1-a1")
    assert rules.dump(state) == before
