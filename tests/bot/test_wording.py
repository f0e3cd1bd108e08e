"""One wording for one thing: turn times as people say them (in every language), the first seat as who takes
it, and a result in /history as the final board said it."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import LOCALES, tr_for
from bot.testing.simcord import last_board, start_challenge
from cogs.common import duration_text

pytestmark = pytest.mark.simcord(settle_timeout=60)


@pytest.mark.parametrize(
    ("minutes", "english", "german"),
    [
        (720, "12 hours", "12 Stunden"),
        (90, "1 hour and 30 minutes", "1 Stunde und 30 Minuten"),
        (10 * 24 * 60, "10 days", "10 Tage"),
        (1, "1 minute", "1 Minute"),
    ],
)
def test_turn_times_read_as_people_say_them(minutes: int, english: str, german: str) -> None:
    assert duration_text(minutes * 60, tr_for("en")) == english
    assert duration_text(minutes * 60, tr_for("de")) == german


def test_every_language_words_its_durations() -> None:
    for locale in LOCALES:
        said = duration_text(36 * 3600, tr_for(locale))
        assert "duration" not in said and "36" not in said and "1" in said and "12" in said, (locale, said)


async def test_a_challenge_says_the_turn_time_and_who_takes_the_first_seat(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await alice.slash(channel, "play", game="paint", opponent=bob, first="challenger", turn_timeout=720)
    challenge = channel.history()[-1].content
    assert f"Who plays White and moves first: <@{alice.id}>" in challenge, challenge
    assert (
        "12 hours per turn" in challenge and "720" not in challenge and "white: challenger" not in challenge
    )


async def test_history_words_a_timeout_as_the_final_board_did(world: Any) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    await start_challenge(world, alice, bob, "paint", first="challenger", turn_timeout=10)
    await alice.slash(channel, "move", notation="c1-c3")
    await bob.slash(channel, "move", notation="b9-b8")
    await env.advance_time(11 * 60)
    assert f"<@{bob.id}> wins on time" in last_board(channel).content
    history = await alice.slash(channel, "history")
    assert f"<@{bob.id}> wins on time · 2 moves" in history.response.content
    assert "timeout" not in history.response.content
