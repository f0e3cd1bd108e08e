"""The `Rules` contract of games/base.py, checked OpenSpiel-style on random games from many seeds: every
legal move has one notation that parses back, a finished game has no moves, dumps load back, `apply` never
mutates, replays reproduce the game, policies name legal moves, a resignation is a loss or a logged move,
and the move count agrees with the numbers of the log. For each chosen game (`game_id`,
bot/testing/plugin.py)."""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.base import (
    RESIGN,
    GameOver,
    MoveError,
    Outcome,
    ReplayError,
    Rules,
    SeatChoice,
    WordMove,
    advance,
    move_numbers,
    replay,
    replay_state,
)

GAMES_PER_CASE = int(os.environ.get("CONTRACT_GAMES", "12"))
PLY_LIMIT = 3000  # far above any game's natural length; reaching it means the game does not end


CONTRACT = (
    "new", "to_move", "legal_moves", "apply", "outcome", "parse", "notation", "describe", "forced_move",
    "word_moves", "pass_move", "timeout_move", "resign", "moves_played", "seat_label", "position_text",
    "dump", "load",
)  # fmt: skip
"""Every method of `games.base.Rules` a host calls (the policies have defaults in `Rules` itself)."""


def test_the_rules_have_the_whole_contract(game_id: str) -> None:
    """The rules object has every method and class attribute a host uses: a game that subclasses
    `games.base.Rules` gets the policies it does not write from there."""
    rules = games.get(game_id)
    missing = [name for name in CONTRACT if not callable(getattr(rules, name, None))]
    assert not missing, f"{game_id} lacks {missing}: subclass games.base.Rules for their defaults"
    assert rules.id == game_id and rules.name and rules.summary
    assert len(rules.seats) and min(rules.seats) >= 1
    assert isinstance(rules.first_seat, SeatChoice)
    assert all(option.name for option in rules.options)


def roundtrip(rules: Rules[Any, Any], state: Any) -> Any:
    return rules.load(json.loads(json.dumps(rules.dump(state))))


def test_random_games_respect_the_contract(game_id: str) -> None:
    rules = games.get(game_id)
    assert rules.id == game_id
    for seats, seed in ((seats, seed) for seats in rules.seats for seed in range(GAMES_PER_CASE)):
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


def test_garbage_is_rejected_with_a_move_error(game_id: str) -> None:
    rules = games.get(game_id)
    state = rules.new(min(rules.seats), {}, 1)
    for text in ["", "   ", "zz99", "hello world", "a1-", "swap", "💥"]:
        with pytest.raises(MoveError) as info:
            rules.parse(state, text)
        assert str(info.value), "errors carry a message for the player"


def test_replaying_the_log_with_forced_moves_reproduces_the_game(game_id: str) -> None:
    rules = games.get(game_id)
    rng = random.Random(7)
    seats = min(rules.seats)
    state = rules.new(seats, {}, 7)
    log: list[tuple[int, str]] = []
    states = [state]
    for _ in range(80):
        if rules.outcome(state) is not None:
            break
        move = rules.forced_move(state) or rng.choice(list(rules.legal_moves(state)))
        seat = rules.to_move(state)
        assert seat is not None
        log.append((seat, rules.notation(state, move)))
        state = rules.apply(state, move)
        states.append(state)
    start = rules.new(seats, {}, 7)
    assert rules.dump(replay_state(rules, start, log)) == rules.dump(state)
    steps = list(replay(rules, start, log))
    assert [(s.seat, s.notation) for s in steps] == log
    assert [s.ply for s in steps] == list(range(len(log)))
    for step, before, after in zip(steps, states[:-1], states[1:], strict=True):
        assert rules.dump(step.before) == rules.dump(before) and rules.dump(step.after) == rules.dump(after)


def test_replay_reports_a_move_stored_for_the_wrong_seat_or_an_illegal_move(game_id: str) -> None:
    rules = games.get(game_id)
    start = rules.new(min(rules.seats), {}, 5)
    seat = rules.to_move(start)
    assert seat is not None
    move = rules.notation(start, next(iter(rules.legal_moves(start))))
    with pytest.raises(ReplayError, match="ply 0") as info:
        list(replay(rules, start, [((seat + 1) % min(rules.seats), move)]))
    assert info.value.ply == 0
    with pytest.raises(ReplayError, match="ply 1"):
        list(replay(rules, start, [(seat, move), (seat if rules.to_move(start) else 0, "zz99")]))


def random_positions(rules: Rules[Any, Any], seats: int, seed: int, plies: int = 400) -> list[Any]:
    """Positions of one random game, each with the forced moves after it played (as the service does)."""
    rng = random.Random(seed)
    state, _ = advance(rules, rules.new(seats, {}, seed))
    found = [state]
    for _ in range(plies):
        moves = list(rules.legal_moves(state))
        if not moves:
            break
        state, _ = advance(rules, rules.apply(state, rng.choice(moves)))
        found.append(state)
    return found


def test_policies_name_legal_moves(game_id: str) -> None:
    """Word moves, the pass and the timeout move are legal moves of the seat to move, and word moves are
    exactly the legal one-word moves the rules offer as buttons; none of them exist once the game is over."""
    rules = games.get(game_id)
    assert rules.first_seat.option and rules.first_seat.help
    for seats, seed in ((seats, seed) for seats in rules.seats for seed in range(4)):
        for state in random_positions(rules, seats, seed):
            legal = {rules.notation(state, m) for m in rules.legal_moves(state)}
            words = rules.word_moves(state)
            if rules.outcome(state) is not None:
                assert words == () and rules.pass_move(state) is None
                continue
            for word in words:
                assert isinstance(word, WordMove)
                assert " " not in word.notation and word.label
                assert word.notation in legal, f"{word.notation} is offered but not legal"
                assert rules.notation(state, rules.parse(state, word.notation)) == word.notation
            assert len({w.notation for w in words}) == len(words)
            passing = rules.pass_move(state)
            if passing is not None:
                assert rules.notation(state, passing) in legal
            timeout = rules.timeout_move(state)
            if timeout is not None:
                rules.apply(state, timeout)  # raises if it were illegal


def test_a_resignation_is_a_loss_or_a_logged_move_that_replays(game_id: str) -> None:
    """`resign` either ends a two-player game (None: the host records the loss) or gives a position where
    the seat is out; a logged resignation of any seat, on any turn, replays to the same position."""
    rules = games.get(game_id)
    for seats in rules.seats:
        positions = [p for p in random_positions(rules, seats, 11, plies=30) if rules.outcome(p) is None]
        _check_resignations(rules, positions[-1], seats)


def _check_resignations(rules: Rules[Any, Any], state: Any, seats: int) -> None:
    for seat in range(seats):
        after = rules.resign(state, seat)
        if after is None:
            assert seats == 2, "only a two-player game may end by resignation outside the log"
            continue
        outcome = rules.outcome(after)
        if outcome is not None:
            assert seat not in outcome.winners and outcome.ranks[seat] == max(outcome.ranks)
        else:
            assert rules.to_move(after) != seat, "a resigned seat never moves again"
        assert rules.dump(replay_state(rules, state, [(seat, RESIGN)])) == rules.dump(after)


@settings(deadline=None, max_examples=60)
@given(data=st.data())
def test_the_move_count_is_what_the_log_numbers(game_id: str, data: st.DataObject) -> None:
    """`Rules.moves_played` after a log (resignations on turn and out of turn included) is the count that
    `move_numbers` gives the same log: one definition of a move number, for every game."""
    rules = games.get(game_id)
    seats = data.draw(st.sampled_from(list(rules.seats)))
    state = rules.new(seats, {}, data.draw(st.integers(0, 99)))
    log: list[str] = []
    for _ in range(data.draw(st.integers(0, 12))):
        mover = rules.to_move(state)
        if mover is None:
            break
        leaver = data.draw(st.integers(0, seats - 1))
        after = rules.resign(state, leaver) if data.draw(st.booleans()) else None
        if after is not None and rules.dump(after) != rules.dump(state):
            state = after
            log.append(RESIGN)
        else:
            move = data.draw(st.sampled_from(sorted(rules.legal_moves(state), key=repr)[:30]))
            log.append(rules.notation(state, move))
            state = rules.apply(state, move)
        numbers = [n for n in move_numbers(log) if n is not None]
        assert rules.moves_played(state) == (numbers[-1] if numbers else 0)


def test_every_seat_has_a_label(game_id: str) -> None:
    rules = games.get(game_id)
    for seats in rules.seats:
        state = rules.new(seats, {}, 3)
        labels = [rules.seat_label(state, seat) for seat in range(seats)]
        assert all(isinstance(label, str) and label for label in labels), labels
