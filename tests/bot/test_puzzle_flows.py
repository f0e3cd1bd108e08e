"""/puzzle and /dailypuzzle through the real command tree: a puzzle is shown privately with its image, whose
move and what to find, answered by a button or the answer option (its autocomplete lists the legal moves);
a right answer grows the streak and the rating, a wrong one resets the streak and shows the solution; the
daily puzzle is posted once a day; refusals are private; no player's name appears anywhere, and each seat is
named once, by its role. Each flow runs on SQLite and on PostgreSQL (a schema of its own on the test
server; skipped without TESSERA_TEST_DATABASE_URL)."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from PIL import Image

from bot.service import Service
from bot.service.records import NewPuzzle
from bot.settings import Settings
from bot.testing.simcord import button_labels, start_challenge, take_user_errors
from bot.testing.world import make_settings
from tests.service.conftest import postgres_url  # noqa: F401  (the fixture of the PostgreSQL runs)

pytestmark = pytest.mark.simcord(settle_timeout=60)


@pytest.fixture(params=["sqlite", "postgresql"])
def settings(request: pytest.FixtureRequest, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """The bot's settings on a fresh database of each kind. On PostgreSQL the service's own listening
    connection (NOTIFY from other processes; there are none here) is off: SimCord cannot see through its
    wait."""
    if request.param == "sqlite":
        return make_settings(tmp_path / "data")
    monkeypatch.setattr(Service, "listen", lambda self: None)
    url: str = request.getfixturevalue("postgres_url")
    return make_settings(tmp_path / "data", database_url=url)


async def paint_puzzles(world: Any, count: int) -> list[tuple[int, str]]:
    """`count` Paint puzzles as if from real finished matches (the starting position with a different legal
    move as the solution each: the service only compares; one match gives one puzzle, so each has a source
    match of its own); (id, solution) each."""
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paint", first="challenger", options="lead_turns=2")
    await alice.slash(channel, "move", notation="c1-c3")
    await bob.slash(channel, "move", notation="b9-b8")
    runtime = world.env.bot.runtime
    [(match, _)] = await runtime.service.store.finished_matches(
        user_id=None, guild_id=world.guild.id, game=None, limit=5
    )
    rules = runtime.service.rules("paint")
    state = rules.new(2, {}, 1)
    legal = [rules.notation(state, m) for m in rules.legal_moves(state)]
    made = []
    for n in range(count):
        solution = legal[n * 3]
        new = NewPuzzle(
            game="paint",
            options={},
            seats=2,
            position=rules.dump(state),
            mover=0,
            solution=(solution, legal[-1]),
            source_match=match.id * 100 + n,
            source_ply=n,
            figures={
                "second_best": 0.9,
                "second_runner_up": 0.4,
                "second_runner_up_move": legal[n * 3 + 1],
                "played": legal[n * 3 + 2],
            },
            mu=25.0,
            sigma=8.333,
        )
        puzzle_id = await runtime.service.store.insert_puzzle(new, 1.0)
        made.append((puzzle_id, solution))
    return made


def nameless(world: Any, text: str) -> None:
    """No player's name, mention or id in what a puzzle shows."""
    for member in (world.alice, world.bob):
        assert member.name not in text and str(member.id) not in text, text


def shown(result: Any) -> Any:
    return result.followups[-1] if result.followups else result.response


async def test_a_streak_of_puzzles_by_buttons_and_by_the_answer_option(world: Any) -> None:
    (first, first_move), (second, second_move), (_, third_move) = await paint_puzzles(world, 3)
    alice, channel = world.alice, world.channel
    result = await alice.slash(channel, "puzzle")
    message = shown(result)
    assert message.ephemeral
    text = str(message.content)
    heading = f"**Puzzle #{first}** (Paint, rated 1500). White to move: find the move that is clearly best"
    assert heading in text
    assert "Your first puzzle" in text
    nameless(world, text)
    (attachment,) = message.attachments
    assert attachment.filename == f"puzzle-{first}.png"
    nameless(world, str(attachment.description))
    described = str(attachment.description)  # the alt text: each seat named once, by its role
    assert "White" in described and "White (White)" not in described and "Black (Black)" not in described
    image = Image.open(io.BytesIO(world.env.backend.cdn.get(attachment.url)))
    assert image.width > 100 and image.height > 100
    labels = button_labels(message)
    assert len(labels) == 4 and first_move in labels

    right = await alice.click(message, label=first_move)
    assert right.ephemeral
    answer = str(right.response.content)
    assert answer.startswith(f"Right: **{first_move}** is the move.")
    rating = int(re.search(r"Your puzzle rating: (\d+)\?? \(\+(\d+)\), streak 1\.", answer).group(1))
    assert rating > 1500
    nameless(world, answer)

    again = await alice.click(message, label=first_move)
    assert again.ephemeral and "You have answered that puzzle already" in str(again.response.content)

    second_shown = shown(await alice.slash(channel, "puzzle"))
    assert f"**Puzzle #{second}**" in str(second_shown.content) and "streak 1." in str(second_shown.content)
    choices = await alice.autocomplete(channel, "puzzle", "answer", second_move[:2])
    values = [c["value"] for c in choices]
    assert second_move in values and all(v.startswith(second_move[:2]) for v in values)
    typed = await alice.slash(channel, "puzzle", answer=second_move)
    assert typed.ephemeral and "streak 2." in str(typed.response.content)

    third_shown = shown(await alice.slash(channel, "puzzle"))
    wrong_label = next(label for label in button_labels(third_shown) if label != third_move)
    wrong = await alice.click(third_shown, label=wrong_label)
    text = str(wrong.response.content)
    assert text.startswith(f"Not this one: you chose **{wrong_label}**; the move was **{third_move}**.")
    assert f"The line: {third_move} → " in text and "streak 0." in text and "(-" in text
    rating_after = int(re.search(r"Your puzzle rating: (\d+)", text).group(1))
    assert rating_after < rating

    done = await alice.slash(channel, "puzzle")
    assert done.ephemeral and "There is no new puzzle for you yet" in str(done.response.content)
    nothing_open = await alice.slash(channel, "puzzle", answer="a1")
    assert nothing_open.ephemeral and "You have no puzzle to answer" in str(nothing_open.response.content)
    take_user_errors(world)

    bob_sees = await world.bob.slash(channel, "puzzle")
    assert "Your first puzzle" in str(shown(bob_sees).content), "each solver has their own standing"
    illegal = await world.bob.slash(channel, "puzzle", answer="z0")
    assert illegal.ephemeral and "is not a legal move in this puzzle" in str(illegal.response.content)
    take_user_errors(world)


async def test_the_daily_puzzle_is_posted_once_in_the_channel_an_admin_picked(world: Any) -> None:
    [(puzzle_id, _)] = await paint_puzzles(world, 1)
    channel = world.channel
    refused = await world.alice.slash(channel, "dailypuzzle", channel=channel)
    assert refused.ephemeral
    take_user_errors(world)
    picked = await world.admin.slash(channel, "dailypuzzle", channel=channel)
    assert picked.ephemeral and "will be posted in" in str(picked.response.content)
    before = len(channel.history())
    puzzles = world.env.bot.runtime.puzzles
    [post] = await puzzles.post_daily()
    assert (post.guild_id, post.channel_id) == (world.guild.id, channel.id)
    await world.env.settle()
    assert await puzzles.post_daily() == [], "once a day"
    posted = channel.history()[before:]
    daily = [m for m in posted if "The daily puzzle" in m.content]
    assert len(daily) == 1 and f"**Puzzle #{puzzle_id}**" in daily[0].content
    assert daily[0].attachments and button_labels(daily[0]) == ["Solve it"]
    nameless(world, daily[0].content)
    solve = await world.carol.click(daily[0], label="Solve it")
    assert f"**Puzzle #{puzzle_id}**" in str(shown(solve).content) and shown(solve).ephemeral
    off = await world.admin.slash(channel, "dailypuzzle")
    assert off.ephemeral and "The daily puzzle is off" in str(off.response.content)
