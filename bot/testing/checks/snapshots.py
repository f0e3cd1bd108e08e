"""Stored snapshots for each chosen game's `load`: every uncorrupted dump loads back, and corrupted ones
are refused or sound.

Real dumps of random reachable positions are corrupted the way a bug, a hand edit or a damaged database
would: keys deleted, added, renamed or swapped; values of another type; random, negative, huge and nearby
integers; hex bitboards made negative or too long; strings and lists truncated, shuffled or extended;
Paintscape's position text edited token by token; random JSON. `load` must either raise a ValueError or
return a state that is sound: it dumps and loads back to itself, `legal_moves` finishes (with a bounded
number of moves) and the contract holds for a few random moves from it.

A hang is what one corrupted Paint snapshot caused; `no_hang` turns one into a test failure instead of a
stuck run (a generous guard, not a timing check). Run this module as a script for the audit figures:
`python -m bot.testing.checks.snapshots [snapshots per game]`.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import random
import signal
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from bot.testing import fixtures
from games.base import Rules, advance

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HANG_SECONDS = 30
DERANDOMIZE = True
"""The audit draws the same corruptions on every run, so that its figures compare across versions."""

# What each game's package says of it (bot/testing/fixtures.py): the option sets to play with, and a
# bound on the legal moves of any position.


# ------------------------------------------------------------------------------------- snapshots


@functools.cache
def snapshots(game_id: str) -> tuple[dict[str, Any], ...]:
    """JSON dumps of positions from random games: every phase, every seat count, finished games too."""
    rules = games.get(game_id)
    found: list[dict[str, Any]] = []
    for seats in rules.seats:
        for k, options in enumerate(fixtures.options(game_id)):
            rng = random.Random(seats * 10 + k)
            state, _ = advance(rules, rules.new(seats, options, k))
            trail = [state]
            while rules.outcome(state) is None and len(trail) < 300:
                moves = list(rules.legal_moves(state))
                placements = [m for m in moves if getattr(m, "action", "place") == "place"]
                pick = rng.choice(placements if placements and rng.random() < 0.9 else moves)
                state, _ = advance(rules, rules.apply(state, pick))
                trail.append(state)
            for state in [*trail[:: max(1, len(trail) // 5)], trail[-1]]:
                found.append(json.loads(json.dumps(rules.dump(state))))
    return tuple(found)


# ------------------------------------------------------------------------------------- corruption

JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**90), max_value=2**90)
    | st.sampled_from([0, 1, -1, 2, 3, 4, 5, 81, 2**63, -(2**63), 10**30])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["0x0", "-0x1", "0x" + "f" * 30, "ply", "play", "over", "passes", "T4", "sq9", ""])
)
JSON = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
POSITION_TOKENS = [
    "phase=balance", "phase=choose", "phase=play", "phase=over", "phase=", "turn=black", "turn=white",
    "turn=1", "black=0", "black=1", "black=-", "black=2", "collected=.....", "collected=BBB..",
    "collected=x....", "collected=W", "swapped=-", "swapped=a1", "swapped=a1,b2,c3,d4,e5", "swapped=z9",
    "ply=0", "ply=7", "ply=-1", "ply=299", "ply=301", "ply=9999999", "ply=١", "=", "extra=1",
]  # fmt: skip


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON tree, the root first."""
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from paths(value, (*prefix, i))


def nearby(draw: st.DrawFn, value: Any) -> Any:
    """A value like `value` but wrong in a way real damage makes it wrong."""
    if isinstance(value, bool):
        return draw(st.sampled_from([not value, int(value), str(value).lower(), None]))
    if isinstance(value, int):
        return draw(
            st.sampled_from(
                [value + 1, value - 1, -value - 1, value * 2 + 1, 2**81 + value, str(value), True]
            )
            | st.integers(min_value=-5, max_value=400)
        )
    if isinstance(value, str):
        if value.startswith("0x"):
            return draw(
                st.sampled_from(["-" + value, value + "f" * 10, value.upper(), value[2:], "0x", value[:-1]])
            )
        if " " in value:
            tokens = value.split(" ")
            i = draw(st.integers(0, len(tokens) - 1))
            how = draw(st.sampled_from(["replace", "delete", "swap", "board"]))
            if how == "replace":
                tokens[i] = draw(st.sampled_from(POSITION_TOKENS))
            elif how == "delete":
                del tokens[i]
            elif how == "swap":
                j = draw(st.integers(0, len(tokens) - 1))
                tokens[i], tokens[j] = tokens[j], tokens[i]
            else:
                board = list(tokens[0])
                at = draw(st.integers(0, max(0, len(board) - 1)))
                if board:
                    board[at] = draw(st.sampled_from(list(".BW12345YRCPNyrcpn?")))
                tokens[0] = "".join(board)
            return " ".join(tokens)
        cut = draw(st.integers(0, max(0, len(value) - 1)))
        return draw(st.sampled_from([value[:cut], value + value, value.upper(), value[::-1], value + "x"]))
    if isinstance(value, list):
        how = draw(st.sampled_from(["truncate", "extend", "duplicate", "reverse", "nest"]))
        if how == "truncate":
            return value[: draw(st.integers(0, max(0, len(value) - 1)))]
        if how == "extend":
            return [*value, draw(JSON)]
        if how == "duplicate" and value:
            return [*value, value[-1]]
        if how == "nest":
            return [value]
        return value[::-1]
    return draw(JSON)


def mutate(draw: st.DrawFn, data: Any) -> Any:
    """One corruption somewhere in the tree."""
    places = list(paths(data))
    path = draw(st.sampled_from(places))
    if not path:
        if isinstance(data, dict) and data and draw(st.booleans()):
            return mutate_dict(draw, data)
        return draw(JSON) if draw(st.integers(0, 9)) == 0 else data
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if isinstance(parent, dict) and draw(st.integers(0, 3)) == 0:
        mutate_dict(draw, parent)
        return data
    parent[key] = draw(JSON) if draw(st.integers(0, 4)) == 0 else nearby(draw, parent[key])
    return data


def mutate_dict(draw: st.DrawFn, node: dict[str, Any]) -> dict[str, Any]:
    """Delete, add, rename or swap keys of one object, in place."""
    keys = list(node)
    how = draw(st.sampled_from(["delete", "add", "rename", "swap"]))
    if how == "add" or not keys:
        node[draw(st.sampled_from(["extra", "ply", "Turn", ""]) | st.text(max_size=5))] = draw(JSON)
    elif how == "delete":
        del node[draw(st.sampled_from(keys))]
    elif how == "rename":
        key = draw(st.sampled_from(keys))
        node[key.upper() + "_"] = node.pop(key)
    else:
        first, second = draw(st.sampled_from(keys)), draw(st.sampled_from(keys))
        node[first], node[second] = node[second], node[first]
    return node


@st.composite
def corruption(draw: st.DrawFn, game_id: str) -> tuple[dict[str, Any], Any]:
    """(a real snapshot, the same snapshot after one to three corruptions)."""
    original = draw(st.sampled_from(snapshots(game_id)))
    data: Any = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, 3))):
        data = mutate(draw, data)
    return original, data


def corrupted(game_id: str) -> st.SearchStrategy[Any]:
    return corruption(game_id).map(lambda pair: pair[1])


# ------------------------------------------------------------------------------------- checks


class Hang(AssertionError):
    """An engine call that ran far longer than any should: an endless loop."""


@contextlib.contextmanager
def no_hang(seconds: int = HANG_SECONDS) -> Iterator[None]:
    """Fail instead of hanging when the body runs far longer than any engine call should (Unix only)."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise Hang(f"still running after {seconds} s: an endless loop on a loaded state")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def check_sound(rules: Rules[Any, Any], state: Any, rng: random.Random, plies: int = 3) -> None:
    """A loaded state round-trips, has a bounded list of legal moves, and plays by the contract."""
    for _ in range(plies + 1):
        dumped = json.loads(json.dumps(rules.dump(state)))
        again = rules.load(dumped)
        assert again == state and rules.dump(again) == dumped
        moves = list(rules.legal_moves(state))
        assert len(moves) <= fixtures.most_moves(rules.id)
        assert isinstance(rules.position_text(state), str)
        if rules.outcome(state) is not None:
            assert moves == [] and rules.to_move(state) is None and rules.word_moves(state) == ()
            return
        assert moves and rules.to_move(state) is not None
        legal = {rules.notation(state, m) for m in moves}
        assert all(word.notation in legal for word in rules.word_moves(state))
        forced = rules.forced_move(state)
        assert forced is None or moves == [forced]
        move = rng.choice(moves)
        assert rules.parse(state, rules.notation(state, move)) == move
        assert rules.describe(state, move)
        state = rules.apply(state, move)


def try_load(rules: Rules[Any, Any], data: Any) -> Any | None:
    """The loaded state, or None when `load` refused the data with a one-line ValueError."""
    try:
        return rules.load(data)
    except ValueError as error:
        message = str(error)
        assert message and "\n" not in message, "a refusal is one line that names the problem"
        return None


@FUZZ
@given(data=st.data())
def test_load_of_a_corrupted_snapshot_refuses_it_or_gives_a_sound_state(
    game_id: str, data: st.DataObject
) -> None:
    rules = games.get(game_id)
    snapshot = data.draw(corrupted(game_id), label="snapshot")
    with no_hang():
        state = try_load(rules, snapshot)
        if state is not None:
            check_sound(rules, state, random.Random(data.draw(st.integers(0, 2**32))))


@settings(max_examples=100, deadline=None)
@given(data=JSON)
def test_load_of_random_json_is_refused_with_a_value_error(game_id: str, data: Any) -> None:
    rules = games.get(game_id)
    with no_hang(), pytest.raises(ValueError):
        rules.load(data)


def test_every_uncorrupted_snapshot_loads_and_is_sound(game_id: str) -> None:
    rules = games.get(game_id)
    for i, snapshot in enumerate(snapshots(game_id)):
        state = rules.load(copy.deepcopy(snapshot))
        assert rules.dump(state) == snapshot
        check_sound(rules, state, random.Random(i), plies=1)


# ------------------------------------------------------------------------------------- audit


def audit_game(game_id: str, per_game: int, hang_seconds: int = 5) -> dict[str, int]:
    """How `load` answered `per_game` corrupted snapshots of one game: refused with a ValueError; accepted
    as the very position it was before, or as another sound position; or wrong: another exception from
    `load`, a hang, or an accepted state that then breaks the contract (`check_sound`)."""
    from hypothesis import Phase

    rules = games.get(game_id)
    counts: dict[str, int] = {"refused": 0, "same position": 0, "other sound position": 0}

    @settings(
        max_examples=per_game, database=None, deadline=None, phases=[Phase.generate], derandomize=DERANDOMIZE
    )
    @given(pair=corruption(game_id), seed=st.integers(0, 2**32))
    def run(pair: tuple[dict[str, Any], Any], seed: int) -> None:
        original, snapshot = pair
        try:
            with no_hang(hang_seconds):
                state = rules.load(snapshot)
        except Hang:
            verdict = "load hung"
        except ValueError:
            verdict = "refused"
        except Exception as error:
            verdict = f"load raised {type(error).__name__}"
        else:
            try:
                with no_hang(hang_seconds):
                    check_sound(rules, state, random.Random(seed))
                verdict = "same position" if rules.dump(state) == original else "other sound position"
            except Exception:
                verdict = "accepted, then unsound or hung"
        counts[verdict] = counts.get(verdict, 0) + 1

    run()
    return counts


def audit(per_game: int) -> None:
    """Print `audit_game` for every game."""
    for game_id in games.GAME_IDS:
        counts = audit_game(game_id, per_game)
        total = sum(counts.values())
        print(f"{game_id:11} {total:5d} corrupted: " + ", ".join(f"{n} {name}" for name, n in counts.items()))


if __name__ == "__main__":
    audit(int(sys.argv[1]) if len(sys.argv) > 1 else 1160)
