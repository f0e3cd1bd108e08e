"""Issue 39's puzzle rules in the service (bot/service/puzzles.py), on both databases: a match gives at most
one puzzle, however often it is mined; the daily puzzle comes from another match and another game day after
day; the starter pools are served until a game has enough puzzles of its own; a theme filters the puzzles;
the Puzzle Streak runs until the first miss and keeps the best run."""

from __future__ import annotations

import datetime
import itertools
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bot.service.puzzles as puzzles_module
import games
from bot.service import Service
from bot.service.errors import NoPuzzles, NotAPuzzleMove, PuzzleAnswered
from bot.service.puzzles import MINING_LEASE, Puzzles, daily_pick, day_of
from bot.service.ratings import NEW_MU, NEW_SIGMA
from bot.service.records import NewPuzzle
from games.ai.puzzles import Examined, Figures, Puzzle, PuzzleBudget
from tests.service.conftest import FakeClock
from tests.service.helpers import ALICE, BOB
from tests.service.test_puzzles import NO_POOL, RIGHT, SMALL, WRONG, InlineRunner, play_out

DAY = 86_400.0


def puzzles_of(service: Service, starters: Any = NO_POOL) -> Puzzles:
    return Puzzles(service.store, service.matches, now=service.now, shards=service.shards, starters=starters)


def new_puzzle(
    game: str, source: int, ply: int = 0, mu: float = NEW_MU, theme: str | None = None
) -> NewPuzzle:
    """A made-up puzzle of `game` from match `source` (the opening position, solution RIGHT for the small
    game, else its first legal move: the service only compares)."""
    rules = games.get(game)
    state = rules.new(2, {}, 0)
    move = RIGHT if game == SMALL else rules.notation(state, next(iter(rules.legal_moves(state))))
    return NewPuzzle(
        game=game,
        options={},
        seats=2,
        position=rules.dump(state),
        mover=0,
        solution=(move,),
        source_match=source,
        source_ply=ply,
        figures={"first_best": 0.9},
        mu=mu,
        sigma=NEW_SIGMA,
        theme=theme,
    )


async def test_a_match_gives_one_puzzle_even_when_stored_twice(service: Service) -> None:
    first = await service.store.insert_puzzle(new_puzzle(SMALL, 7, ply=3), 1.0)
    assert first is not None
    assert await service.store.insert_puzzle(new_puzzle(SMALL, 7, ply=5), 1.0) is None, "another ply"
    assert await service.store.insert_puzzle(new_puzzle(SMALL, 7, ply=3), 1.0) is None, "the same one"
    assert await service.store.count_puzzles() == 1


class EveryPositionRunner(InlineRunner):
    """Every position it examines is a puzzle (its own move played as the solution: made up), so only the
    one-per-match rule limits what a match gives."""

    async def puzzle(self, game_id: str, position: Any, *, budget: PuzzleBudget, seed: int) -> Examined:
        self.jobs.append(f"ply {position.ply}")
        figures = Figures(0.9, 0.1, "x", 10, 0.9, 0.1, "x", 10, position.played, 0.1, 3)
        found = Puzzle(position.ply, 0, dict(position.state), (position.played,), figures, "quiet")
        return Examined(found, None)


async def test_a_match_mined_twice_gives_one_puzzle(service: Service, clock: FakeClock) -> None:
    """Mining stops at the first puzzle (one position examined), and mining the match again (its claim
    taken again after the lease, as after a crash) stores no second one."""
    match_id = await play_out(service)
    runner = EveryPositionRunner()
    puzzles = puzzles_of(service)
    puzzles.start(
        runner, budget=PuzzleBudget(first=10, second=20, rival=10), daily_every=None, sweep_every=None
    )
    try:
        assert await puzzles.mine(match_id) == 1
        assert [job for job in runner.jobs if job.startswith("ply")] == [runner.jobs[1]], "the first ends it"
        await service.store._write("DELETE FROM puzzle_mining_done WHERE match_id = ?", match_id)
        clock.advance(MINING_LEASE + 1)
        assert await puzzles.mine(match_id) == 0
        assert await service.store.count_puzzles() == 1
    finally:
        await puzzles.close()


async def test_three_days_in_a_row_never_show_one_match_and_the_games_take_turns(
    service: Service, clock: FakeClock
) -> None:
    """Two games' puzzles, one old match with two (stored before the one-per-match rule): over two weeks,
    days in a row alternate the games and any three days in a row come from three matches."""
    source_of = {}
    for source, game in ((1, SMALL), (2, SMALL), (3, SMALL), (4, "paint"), (5, "paint")):
        puzzle_id = await service.store.insert_puzzle(new_puzzle(game, source), 1.0)
        source_of[puzzle_id] = source
    await service.store._write(  # an older database's second puzzle of match 1
        "INSERT INTO puzzles (game, options, seats, position, mover, solution, source_match, source_ply, "
        "figures, mu, sigma, created_at) SELECT game, options, seats, position, mover, solution, "
        "source_match, 9, figures, mu, sigma, created_at FROM puzzles WHERE source_match = 1"
    )
    puzzles = puzzles_of(service)
    days = []
    for _ in range(14):
        picked = await puzzles.puzzle_of_day(day_of(clock()))
        assert picked is not None
        days.append((picked.game, source_of.get(picked.id)))
        clock.advance(DAY)
    assert all(None not in day for day in days), "never the old match's second puzzle"
    assert all(a[0] != b[0] for a, b in itertools.pairwise(days)), days
    assert all(len({d[1] for d in days[i : i + 3]}) == 3 for i in range(len(days) - 2)), days
    assert len({d[1] for d in days}) == 5, "every match's puzzle comes in turn"
    assert datetime.date.fromisoformat(day_of(clock()))  # the day is a date


async def test_the_starter_pool_is_served_until_a_game_has_enough_of_its_own(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = {
        "position": games.get(SMALL).dump(games.get(SMALL).new(2, {}, 0)),
        "mover": 0,
        "solution": [RIGHT],
        "figures": {"first_best": 0.9},
        "theme": "quiet",
        "difficulty": 0.5,
    }
    pools = {SMALL: [entry, entry]}
    puzzles = puzzles_of(service, starters=lambda game: pools.get(game, []))
    monkeypatch.setattr(puzzles_module, "STARTER_UNTIL", 1)
    shown = await puzzles.next(ALICE)
    assert await service.store.count_puzzles(SMALL, starter=True) == 2
    assert await puzzles.load_starters() == 0, "stored once"
    again = puzzles_of(service, starters=lambda game: pools.get(game, []))
    assert await again.load_starters() == 0, "and once across restarts"
    assert shown.puzzle.game == SMALL
    await puzzles.answer(ALICE, shown.puzzle.id, RIGHT)
    await service.store.insert_puzzle(new_puzzle(SMALL, 11), 1.0)  # the game's own puzzles now suffice
    assert (await puzzles.next(ALICE)).puzzle.figures == {"first_best": 0.9}
    shown_own = await puzzles.next(BOB)
    assert await service.store.count_puzzles(SMALL, starter=False) == 1
    assert (await puzzles.starter_games()) == [g for g in games.GAME_IDS if g != SMALL]
    await puzzles.answer(BOB, shown_own.puzzle.id, RIGHT)
    with pytest.raises(NoPuzzles):
        await puzzles.next(BOB)


async def test_a_theme_filters_the_puzzles(service: Service) -> None:
    await service.store.insert_puzzle(new_puzzle(SMALL, 1, theme="win"), 1.0)
    collect = await service.store.insert_puzzle(new_puzzle(SMALL, 2, theme="collect"), 1.0)
    puzzles = puzzles_of(service)
    shown = await puzzles.next(ALICE, theme="collect")
    assert shown.puzzle.id == collect and shown.puzzle.theme == "collect"
    await puzzles.answer(ALICE, collect, RIGHT)
    with pytest.raises(NoPuzzles):
        await puzzles.next(ALICE, theme="collect")


async def test_the_puzzle_streak_runs_until_the_first_miss(service: Service) -> None:
    ids = [await service.store.insert_puzzle(new_puzzle(SMALL, n, mu=NEW_MU + n), 1.0) for n in range(1, 5)]
    puzzles = puzzles_of(service)
    assert await puzzles.streak(ALICE) is None
    first = await puzzles.streak_next(ALICE)
    assert first.puzzle.id == ids[0] and first.run.run == 0
    assert (await puzzles.streak_next(ALICE)).puzzle.id == ids[0], "the same until answered"
    with pytest.raises(NotAPuzzleMove):
        await puzzles.streak_answer(ALICE, ids[0], "z99")
    solved = await puzzles.streak_answer(ALICE, ids[0], RIGHT)
    assert solved.solved and solved.after.run == 1
    with pytest.raises(PuzzleAnswered):
        await puzzles.streak_answer(ALICE, ids[0], RIGHT)
    second = await puzzles.streak_next(ALICE)
    assert second.puzzle.id == ids[1], "the next one is a little harder"
    await puzzles.streak_answer(ALICE, ids[1], RIGHT)
    third = await puzzles.streak_next(ALICE)
    missed = await puzzles.streak_answer(ALICE, third.puzzle.id, WRONG)
    assert not missed.solved and missed.before.run == 2 and missed.after.run == 0 and missed.after.best == 2
    run = await puzzles.streak(ALICE)
    assert run is not None and (run.run, run.best, run.puzzle_id) == (0, 2, None)
    assert await puzzles.player(ALICE) is None, "the streak is unrated"
    rated = await puzzles.next(ALICE)
    assert rated.puzzle.id == ids[3], "a puzzle answered in the streak is not shown again"


@given(
    games_of=st.lists(st.sampled_from("abc"), min_size=1, max_size=30),
    day=st.integers(0, 1_000_000),
)
def test_days_in_a_row_never_repeat_a_puzzle_and_take_the_games_in_turn(
    games_of: list[str], day: int
) -> None:
    """Any candidates (one puzzle per match): two days in a row never show the same puzzle unless there is
    only one, nor the same game when there are several; three in a row are three puzzles when every game has
    at least three."""
    candidates = list(enumerate(games_of))
    game_of = dict(candidates)
    picks = [daily_pick(candidates, day + n) for n in range(3)]
    assert all(pick is not None for pick in picks)
    kinds = set(games_of)
    for a, b in itertools.pairwise(picks):
        assert a != b or len(candidates) == 1
        assert len(kinds) == 1 or game_of[a] != game_of[b]  # type: ignore[index]
    if all(games_of.count(kind) >= 3 for kind in kinds):
        assert len(set(picks)) == 3


async def test_the_streaks_open_puzzle_is_not_shown_in_the_rated_puzzles(service: Service) -> None:
    first = await service.store.insert_puzzle(new_puzzle(SMALL, 1, mu=NEW_MU - 5), 1.0)
    other = await service.store.insert_puzzle(new_puzzle(SMALL, 2, mu=NEW_MU + 5), 1.0)
    puzzles = puzzles_of(service)
    assert (await puzzles.streak_next(ALICE)).puzzle.id == first
    assert (await puzzles.next(ALICE)).puzzle.id == other
