"""Issue 39 through the real command tree: /stats shows a player's puzzle rating, puzzles solved and both
streaks; the Puzzle Streak (`/puzzle streak:True`) goes from puzzle to puzzle until the first miss and keeps
the best run; `/puzzle theme:` shows only puzzles of that theme; a new installation is served the starter
pools shipped with the games. On SQLite and PostgreSQL (skipped without TESSERA_TEST_DATABASE_URL)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import Service
from bot.service.records import NewPuzzle
from bot.settings import Settings
from bot.testing.simcord import button_labels, take_user_errors
from bot.testing.world import make_settings
from games.ai.puzzles import starter_pool
from tests.service.conftest import postgres_url  # noqa: F401  (the fixture of the PostgreSQL runs)

pytestmark = pytest.mark.simcord(settle_timeout=60)


@pytest.fixture(params=["sqlite", "postgresql"])
def settings(request: pytest.FixtureRequest, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Settings:
    if request.param == "sqlite":
        return make_settings(tmp_path / "data")
    monkeypatch.setattr(Service, "listen", lambda self: None)
    url: str = request.getfixturevalue("postgres_url")
    return make_settings(tmp_path / "data", database_url=url)


MUS = (25.0, 20.0, 30.0)
"""The puzzles' ratings: the first at a new player's (the rated /puzzle's pick), the second the easiest (the
streak's first), the third harder."""


async def paint_puzzles(world: Any, themes: list[str]) -> list[tuple[int, str]]:
    """A Paint puzzle per theme, each from a match of its own (the starting position, a different legal move
    as the solution each: the service only compares), rated `MUS`; (id, solution) each."""
    runtime = world.env.bot.runtime
    rules = runtime.service.rules("paint")
    state = rules.new(2, {}, 1)
    legal = [rules.notation(state, m) for m in rules.legal_moves(state)]
    made = []
    for n, theme in enumerate(themes):
        solution = legal[n * 3]
        new = NewPuzzle(
            game="paint",
            options={},
            seats=2,
            position=rules.dump(state),
            mover=0,
            solution=(solution,),
            source_match=1000 + n,
            source_ply=n,
            figures={"second_best": 0.9, "second_runner_up": 0.4, "second_runner_up_move": legal[n * 3 + 1]},
            mu=MUS[n],
            sigma=8.333,
            theme=theme,
        )
        puzzle_id = await runtime.service.store.insert_puzzle(new, 1.0)
        assert puzzle_id is not None
        made.append((puzzle_id, solution))
    return made


def shown(result: Any) -> Any:
    """The message a deferred puzzle reply became."""
    return result.followups[-1] if getattr(result, "followups", None) else result.response


async def test_stats_shows_the_puzzle_rating_solved_and_both_streaks(world: Any) -> None:
    (first, first_move), (second, second_move), (third, third_move) = await paint_puzzles(
        world, ["push", "take_lead", "hold_lead"]
    )
    alice, channel = world.alice, world.channel
    before = await alice.slash(channel, "stats")
    assert "Puzzles:" not in str(before.response.content), "no puzzle line before a first puzzle"
    take_user_errors(world)

    rated = shown(await alice.slash(channel, "puzzle"))
    assert f"**Puzzle #{first}**" in str(rated.content) and "Theme: push a sphere." in str(rated.content)
    await alice.click(rated, label=first_move)

    streak = shown(await alice.slash(channel, "puzzle", streak=True))
    text = str(streak.content)
    assert f"**Puzzle #{second}**" in text and "Puzzle Streak: 0 in a row so far (best 0)." in text
    right = await alice.click(streak, label=second_move)
    after_right = shown(right)
    text = str(after_right.content)
    assert "Right: **" in text and "Puzzle Streak: 1 in a row." in text
    assert f"**Puzzle #{third}**" in text, "a right answer shows the next puzzle at once"
    assert len(button_labels(after_right)) == 4
    wrong_label = next(label for label in button_labels(after_right) if label != third_move)
    missed = await alice.click(after_right, label=wrong_label)
    text = str(missed.response.content)
    assert missed.ephemeral and "Puzzle Streak over: 1 in a row (best 1)." in text
    again = await alice.click(after_right, label=third_move)
    assert again.ephemeral and "You have answered that puzzle already" in str(again.response.content)
    take_user_errors(world)

    stats = await alice.slash(channel, "stats")
    text = str(stats.response.content)
    assert stats.ephemeral
    assert "Puzzles: rating " in text and ", 1 solved of 1, 1 in a row now (best 1)." in text
    assert "Puzzle Streak: best 1, current run 0." in text


async def test_a_theme_filters_the_puzzles_shown(world: Any) -> None:
    [(_, _), (lead, _)] = await paint_puzzles(world, ["push", "take_lead"])
    alice, channel = world.alice, world.channel
    result = shown(await alice.slash(channel, "puzzle", motif="take_lead"))
    assert f"**Puzzle #{lead}**" in str(result.content) and "Theme: take the lead." in str(result.content)
    none = await alice.slash(channel, "puzzle", motif="capture")
    assert none.ephemeral and "There is no new puzzle for you yet" in str(none.response.content)
    take_user_errors(world)


async def test_a_new_installation_is_served_the_starter_pools(world: Any) -> None:
    """Nothing mined yet: /puzzle shows a starter puzzle of a game that ships a pool."""
    runtime = world.env.bot.runtime
    runtime.puzzles.use_starters(starter_pool)  # PUZZLE_STARTERS, off in the other tests
    pooled = [game for game in ("paintscape", "paint", "tilingking") if starter_pool(game)]
    assert pooled, "the package ships starter pools"
    result = shown(await world.alice.slash(world.channel, "puzzle", game=pooled[0]))
    assert result.ephemeral and "**Puzzle #" in str(result.content) and result.attachments
    assert await runtime.service.store.count_puzzles(pooled[0], starter=True) == len(starter_pool(pooled[0]))
