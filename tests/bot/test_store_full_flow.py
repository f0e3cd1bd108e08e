"""A full database seen from Discord (issue 24): a /move the database has no room for gets an ephemeral
"your move was not saved" that says what to do, the board stays as it was, and the same move plays once
there is room again. The database is really full: 512-byte pages, capped at their number."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from bot.replies import unwrap
from bot.service.errors import MoveNotSaved
from bot.service.store import SqliteStore
from bot.settings import Settings
from bot.testing.simcord import boards, reply_text, start_challenge, take_user_errors
from bot.testing.world import make_settings
from tests.service.test_store_full import cap_size, lift_cap, play_until_refused, small_pages


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """The bot's database made with small pages before the bot opens it."""
    (tmp_path / "data").mkdir()
    small_pages(tmp_path / "data" / "tessera.sqlite3")
    return make_settings(tmp_path / "data")


async def test_a_move_into_a_full_database_is_refused_with_a_reply_and_the_board_stays(
    world: Any, caplog: pytest.LogCaptureFixture
) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paintscape", first="challenger")
    service = world.env.bot.runtime.service
    store = service.store
    assert isinstance(store, SqliteStore)
    (match,) = await service.matches.of_user(alice.id)
    await cap_size(store)
    user, move = await play_until_refused(service, match.id)  # the service fills it to the brim
    actor = alice if user == alice.id else bob
    posted = len(boards(channel))

    with caplog.at_level(logging.ERROR):
        refused = await actor.slash(channel, "move", notation=move)
    assert refused.ephemeral
    assert reply_text(refused) == (
        "Your move was not saved: the bot's database is full. Try it again in a few minutes; if this keeps "
        "happening, tell a server admin."
    )
    assert len(boards(channel)) == posted, "no board for a move that was not saved"
    assert [type(unwrap(e)) for e in take_user_errors(world)] == [MoveNotSaved]
    assert any(
        "a move was not saved" in r.getMessage() and "is full" in r.getMessage() for r in caplog.records
    )

    await lift_cap(store)
    again = await actor.slash(channel, "move", notation=move)
    assert not again.ephemeral
    assert len(boards(channel)) == posted + 1


def test_any_other_write_without_room_is_told_as_not_saved() -> None:
    from bot.replies import player_message
    from bot.service.store import StoreFull

    assert player_message(StoreFull("the database /data/tessera.sqlite3 is full")) == (
        "That was not saved: the bot's database is full. Try it again in a few minutes; if this keeps "
        "happening, tell a server admin."
    )
