"""The search player (games.ai) on toy games where the best move is known, on every registered game, and
the process-pool runner (bot.ai_runner). Budgets are iterations, never seconds, so results are exact."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from bot.service.ai import AIRunner, choose_in_worker
from games.ai import Knowledge, Level, SearchReport, analyse, best_move, knowledge_for, rank_rewards
from games.base import GameOver, Outcome, Rules, Termination
from tests.games.test_ai_toys import CoinRow, TicTacToe


def available_games() -> list[str]:
    """The registered games whose engine has landed (the AI is built while the engines are written)."""
    found = []
    for game_id in games.GAME_IDS:
        try:
            games.get(game_id)
        except ImportError:
            continue
        found.append(game_id)
    return found


GAMES = available_games()
LEVELS = [level.value for level in Level]


def random_position(rules: Rules[Any, Any], seats: int, seed: int, plies: int) -> Any:
    """The position after up to `plies` random moves from a fresh game (stopping before the end)."""
    rng = random.Random(seed)
    state = rules.new(seats, {}, seed)
    for _ in range(plies):
        moves = list(rules.legal_moves(state))
        if not moves:
            break
        after = rules.apply(state, rng.choice(moves))
        if rules.outcome(after) is not None:
            break
        state = after
    return state


# ------------------------------------------------------------------------------------------- rewards


def test_rank_rewards_give_a_win_one_a_loss_zero_and_a_draw_half() -> None:
    assert rank_rewards(Outcome.win(1, 2, Termination.LEAD)) == [0.0, 1.0]
    assert rank_rewards(Outcome.draw(2, Termination.NO_LEAD)) == [0.5, 0.5]
    four = rank_rewards(Outcome.by_score([10, 5, 5, 1], Termination.PASSES))
    assert four == [1.0, 0.5, 0.5, 0.0]


@given(st.lists(st.integers(0, 20), min_size=2, max_size=4))
def test_rank_rewards_are_fair_shares(scores: list[int]) -> None:
    """Rewards lie in [0, 1], sum to n/2 (a zero-sum split of places), and follow the scores."""
    rewards = rank_rewards(Outcome.by_score([float(s) for s in scores], Termination.PASSES))
    assert all(0.0 <= r <= 1.0 for r in rewards)
    assert sum(rewards) == pytest.approx(len(scores) / 2)
    for a in range(len(scores)):
        for b in range(len(scores)):
            if scores[a] > scores[b]:
                assert rewards[a] > rewards[b]


# ------------------------------------------------------------------------------------------- toy games


def test_takes_an_immediate_win() -> None:
    rules = TicTacToe()
    state = rules.from_text("xx./oo./...", mover=0)
    assert rules.notation(state, best_move(rules, state, level="hard", iterations=200)) == "c3"


def test_search_alone_finds_the_win_and_blocks_a_threat() -> None:
    rules = TicTacToe()
    win = rules.from_text("xx./oo./...", mover=0)
    report = analyse(rules, win, level="hard", iterations=600, knowledge=Knowledge())
    assert report.reason == "search" and rules.notation(win, report.move) == "c3"
    # O threatens a2-b2-c2; X has no win of its own and must block at c2.
    block = rules.from_text("x../oo./x..", mover=0)
    report = analyse(rules, block, level="hard", iterations=1500, knowledge=Knowledge())
    assert rules.notation(block, report.move) == "c2"


class RaveTicTacToe(Knowledge):
    """Tic-tac-toe knowledge with all-moves-as-first: a move's key is its cell."""

    rave = 200.0
    exploration = 0.3

    def move_key(self, state: Any, move: Any) -> int:
        return int(move)

    def playout_keys(
        self, rules: Rules[Any, Any], state: Any, rng: random.Random, seats: int
    ) -> tuple[list[float], list[int]]:
        played = [0] * seats
        while rules.outcome(state) is None:
            move = rng.choice(rules.legal_moves(state))
            played[rules.to_move(state)] |= 1 << move
            state = rules.apply(state, move)
        outcome = rules.outcome(state)
        assert outcome is not None
        return rank_rewards(outcome), played


def test_rave_search_still_finds_the_win_and_the_block() -> None:
    rules = TicTacToe()
    win = rules.from_text("xx./oo./...", mover=0)
    report = analyse(rules, win, level="hard", iterations=600, knowledge=RaveTicTacToe())
    assert rules.notation(win, report.move) == "c3"
    block = rules.from_text("x../oo./x..", mover=0)
    report = analyse(rules, block, level="hard", iterations=1500, knowledge=RaveTicTacToe())
    assert rules.notation(block, report.move) == "c2"
    assert report.iterations == 1500


def test_perfect_play_from_the_empty_board_is_a_draw() -> None:
    """Hard against hard with a decent budget never loses tic-tac-toe (a real check of the tree values)."""
    rules = TicTacToe()
    state = rules.new(2, {}, 0)
    seed = 0
    while rules.outcome(state) is None:
        state = rules.apply(state, best_move(rules, state, level="hard", iterations=3000, seed=seed))
        seed += 1
    outcome = rules.outcome(state)
    assert outcome is not None and outcome.is_draw


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_seat_of_a_multiplayer_game_plays_for_itself(seats: int) -> None:
    """Coins (1, 9, 1, ...): taking the 1 on the left hands the 9 to the next player, so everyone takes the
    right end first; with per-seat rewards each seat must see that for itself."""
    rules = CoinRow()
    coins = (1, 9) + (1,) * (seats * 2)
    state = rules.new(seats, {"coins": coins}, 0)
    for seat in range(seats):
        assert rules.to_move(state) == seat
        move = best_move(rules, state, level="hard", iterations=800, seed=seat)
        assert move == "r", f"seat {seat} gave the 9 away"
        state = rules.apply(state, move)


def test_same_seed_and_iterations_give_the_same_move_and_statistics() -> None:
    rules = TicTacToe()
    state = rules.from_text("x../.o./...", mover=0)
    first = analyse(rules, state, level="medium", iterations=300, seed=11)
    again = analyse(rules, state, level="medium", iterations=300, seed=11)
    assert first.move == again.move

    def table(report: SearchReport) -> list[tuple[Any, int, float]]:
        return [(s.move, s.visits, s.value) for s in report.moves]

    assert table(first) == table(again)
    assert first.iterations == 300


def test_easy_is_looser_than_hard_but_still_legal() -> None:
    rules = TicTacToe()
    state = rules.new(2, {}, 0)
    picks = {best_move(rules, state, level="easy", iterations=60, seed=s) for s in range(30)}
    assert picks <= set(rules.legal_moves(state))
    assert len(picks) > 1, "easy draws its move, so different seeds vary"


def test_a_single_legal_move_is_returned_without_search() -> None:
    rules = TicTacToe()
    state = rules.from_text("xox/oox/xx.", mover=1)
    report = analyse(rules, state, level="hard", iterations=10_000)
    assert report.reason in {"only move", "winning move"} and rules.notation(state, report.move) == "c1"
    assert report.iterations == 0


def test_a_finished_game_has_no_best_move() -> None:
    rules = TicTacToe()
    state = rules.from_text("xxx/oo./...", mover=1)
    with pytest.raises(GameOver):
        best_move(rules, state, level="hard", iterations=10)


def test_unknown_level_is_refused() -> None:
    rules = TicTacToe()
    with pytest.raises(ValueError):
        best_move(rules, rules.new(2, {}, 0), level="grandmaster", iterations=10)


def test_a_time_budget_stops_the_search() -> None:
    rules = TicTacToe()
    report = analyse(rules, rules.new(2, {}, 0), level="hard", seconds=0.05)
    assert 0.04 <= report.seconds < 1.0 and report.iterations > 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(0, 8), st.sampled_from(LEVELS))
def test_the_move_is_always_legal_in_tictactoe(seed: int, plies: int, level: str) -> None:
    rules = TicTacToe()
    state = random_position(rules, 2, seed, plies)
    move = best_move(rules, state, level=level, iterations=40, seed=seed)
    assert move in rules.legal_moves(state)


# ------------------------------------------------------------------------------------------- registered games


@pytest.mark.parametrize("game_id", GAMES)
def test_knowledge_is_what_the_games_plugin_names(game_id: str) -> None:
    """A game's own AI module (`GamePlugin.ai`) gives its knowledge; a game without one (an installed game
    package may bring none) is searched with the generic `Knowledge`."""
    knowledge = knowledge_for(game_id)
    ai = games.plugin(game_id).ai
    assert isinstance(knowledge, Knowledge) and not knowledge.weak
    assert type(knowledge).__module__ == (ai or "games.ai.knowledge")
    assert (type(knowledge) is Knowledge) == (ai is None)
    weak = knowledge_for(game_id, weak=True)
    assert type(weak) is type(knowledge) and weak.weak


def test_a_game_without_an_ai_module_gets_the_generic_knowledge() -> None:
    """`knowledge_for` finds `games.ai.<id>.KNOWLEDGE` by convention; a game with no such module (the test
    games here) searches with the base class, in the weak version when asked."""
    assert type(knowledge_for("tictactoe")) is Knowledge
    assert knowledge_for("tictactoe", weak=True).weak


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_returns_a_legal_move_in_every_game(game_id: str, level: str) -> None:
    rules = games.get(game_id)
    for seats in rules.seats:
        for seed, plies in ((seats, 0), (seats + 10, 7), (seats + 20, 25)):
            state = random_position(rules, seats, seed, plies)
            move = best_move(rules, state, level=level, iterations=30, seed=seed)
            notations = {rules.notation(state, m) for m in rules.legal_moves(state)}
            assert rules.notation(state, move) in notations


@pytest.mark.skipif(not GAMES, reason="no engine has landed yet")
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(GAMES or ["none"]),
    st.integers(0, 2**16),
    st.integers(0, 60),
    st.sampled_from(LEVELS),
    st.integers(2, 4),
)
def test_any_reachable_position_gets_a_legal_move(
    game_id: str, seed: int, plies: int, level: str, seats: int
) -> None:
    """Positions from random play in any phase (Paintscape's balancing and choice included), any seat."""
    rules = games.get(game_id)
    seats = seats if seats in rules.seats else min(rules.seats)
    state = random_position(rules, seats, seed, plies)
    move = best_move(rules, state, level=level, iterations=8, seed=seed)
    assert rules.notation(state, move) in {rules.notation(state, m) for m in rules.legal_moves(state)}


@pytest.mark.parametrize("game_id", GAMES)
def test_same_seed_same_move_in_every_game(game_id: str) -> None:
    rules = games.get(game_id)
    state = random_position(rules, min(rules.seats), 5, 10)
    first, again = (best_move(rules, state, level="hard", iterations=60, seed=3) for _ in range(2))
    assert rules.notation(state, first) == rules.notation(state, again)


# ------------------------------------------------------------------------------------------- runner


def test_worker_function_returns_a_legal_notation() -> None:
    if not GAMES:
        pytest.skip("no engine has landed yet")
    rules = games.get(GAMES[0])
    state = random_position(rules, min(rules.seats), 1, 4)
    text = choose_in_worker(GAMES[0], rules.dump(state), "hard", 1, None, 20)
    assert rules.parse(state, text) in list(rules.legal_moves(state))


async def test_runner_answers_from_a_real_process_pool_without_blocking_the_loop() -> None:
    if not GAMES:
        pytest.skip("no engine has landed yet")
    jobs = []
    for game_id in GAMES:
        rules = games.get(game_id)
        for seed in range(2):
            jobs.append((game_id, random_position(rules, min(rules.seats), seed, 6), seed))
    runner = AIRunner(workers=2, iterations=20)
    ticks = 0

    async def heartbeat() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    beat = asyncio.create_task(heartbeat())
    try:
        texts = await asyncio.gather(
            *(runner.choose(g, games.get(g).dump(state), "hard", seed) for g, state, seed in jobs)
        )
        first_game, first_state, first_seed = jobs[0]
        again = await runner.choose(first_game, games.get(first_game).dump(first_state), "hard", first_seed)
    finally:
        beat.cancel()
        await runner.aclose()
    for (game_id, state, _seed), text in zip(jobs, texts, strict=True):
        rules = games.get(game_id)
        assert rules.parse(state, text) in list(rules.legal_moves(state))
    assert again == texts[0], "same seed and budget, same move, whichever worker ran it"
    assert ticks > 0, "the event loop kept running during the searches"


async def test_runner_runs_at_most_one_search_per_worker_and_queues_the_rest() -> None:
    if not GAMES:
        pytest.skip("no engine has landed yet")
    rules = games.get(GAMES[0])
    dump = rules.dump(random_position(rules, min(rules.seats), 3, 5))
    runner = AIRunner(workers=1, iterations=15)
    try:
        texts = await asyncio.gather(*(runner.choose(GAMES[0], dump, "medium", 4) for _ in range(3)))
    finally:
        runner.close()
    assert runner.peak == 1 and runner.running == 0
    assert len(set(texts)) == 1
    with pytest.raises(RuntimeError):
        await runner.choose(GAMES[0], dump, "easy", 0)


async def test_runner_rejects_an_unknown_level_before_using_a_worker() -> None:
    runner = AIRunner(workers=1, iterations=5)
    try:
        with pytest.raises(ValueError):
            await runner.choose("paintscape", {}, "impossible", 0)
        assert runner._pool is None, "no pool was started for a bad request"
    finally:
        runner.close()
