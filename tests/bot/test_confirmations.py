"""What players hit (issue 23), each driven through SimCord: whatever cannot be undone asks first whichever
way it is asked for, a question loses its button once answered, an open takeback or abort request stays
answerable until it is answered, withdrawn or made stale (a /board does not close it), and an abort is told
once."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.testing.simcord import (
    boards,
    button_labels,
    last_board,
    reply_text,
    start_challenge,
    suggestions,
    take_user_errors,
)
from tests.bot.test_player_flows import three_player_tilingking, turn_of

pytestmark = pytest.mark.simcord(settle_timeout=60)

WORDS = {"pass", "passall", "resign", "swap"}


async def tilingking(world: Any) -> None:
    alice, bob = world.alice, world.bob
    await start_challenge(world, alice, bob, "tilingking", first="challenger", options="board=sq9")


async def paint_after_two_moves(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paint", first="challenger")
    await alice.slash(channel, "move", notation="c1-c3")
    await bob.slash(channel, "move", notation="b9-b8")


# ------------------------------------------------------------------------------- irreversible words


@pytest.mark.parametrize("typed", ["resign", "Resign", "  RESIGN "])
async def test_move_resign_asks_like_resign_on_your_turn(world: Any, typed: str) -> None:
    alice, channel = world.alice, world.channel
    await tilingking(world)
    board = last_board(channel)
    asked = await alice.slash(channel, "move", notation=typed)
    assert asked.ephemeral and reply_text(asked).startswith("Resign match #1?")
    assert "aborted instead" in reply_text(asked) and "This cannot be undone." in reply_text(asked)
    assert button_labels(asked.response) == ["Yes, resign"]
    assert last_board(channel).id == board.id, "nothing happened before the answer"
    await alice.click(asked.response, label="Yes, resign")
    assert "resign" in last_board(channel).content.lower()
    assert button_labels(asked.response) == [], "the answered question has no button left"


async def test_move_resign_asks_out_of_turn_too(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await tilingking(world)
    for player in (alice, bob):  # both have moved: a resignation now is a result, not an early abort
        await player.slash(channel, "move", notation=(await suggestions(player, channel, ""))[0])
    board = last_board(channel)
    assert f"<@{alice.id}>, your turn" in board.content
    asked = await bob.slash(channel, "move", notation="resign")  # Alice is to move
    assert asked.ephemeral and "Resign match #1?" in reply_text(asked)
    assert not take_user_errors(world)
    assert last_board(channel).id == board.id
    await bob.click(asked.response, label="Yes, resign")
    assert "Blue resigns" in last_board(channel).content and "Replay" in button_labels(last_board(channel))


async def test_move_resign_asks_in_a_game_without_the_word(world: Any) -> None:
    """Paint has no `resign` move, yet a player who types it means it: the same question as /resign."""
    alice, channel = world.alice, world.channel
    await paint_after_two_moves(world)
    asked = await alice.slash(channel, "move", notation="resign")
    assert asked.ephemeral and "Resign match #1?" in reply_text(asked)
    assert not take_user_errors(world)


async def test_typing_pass_all_asks_and_out_of_turn_is_refused(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await tilingking(world)
    board = last_board(channel)
    refused = await bob.slash(channel, "move", notation="passall")
    assert refused.ephemeral and "turn" in reply_text(refused) and last_board(channel).id == board.id
    take_user_errors(world)
    asked = await alice.slash(channel, "move", notation="passall")
    assert asked.ephemeral and "cannot be undone" in reply_text(asked)
    assert last_board(channel).id == board.id


async def test_the_pass_all_question_loses_its_button_once_answered(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await tilingking(world)
    asked = await alice.click(last_board(channel), label="Pass all remaining turns")
    assert button_labels(asked.response) == ["Yes: pass all remaining turns"]
    await alice.click(asked.response, label="Yes: pass all remaining turns")
    assert button_labels(asked.response) == [], "no live button after Yes"
    assert "passes for the rest of the game" in asked.response.message.content
    after = last_board(channel)
    assert "passes for the rest of the game" in after.content and f"<@{bob.id}>, your turn" in after.content


async def test_autocomplete_lists_placements_first_and_what_cannot_be_undone_last(world: Any) -> None:
    alice, channel = world.alice, world.channel
    await tilingking(world)
    listed = await suggestions(alice, channel, "")
    assert len(listed) == 25
    words = [n for n in listed if n in WORDS]
    assert sorted(words) == ["pass", "passall", "resign"], listed
    assert set(listed[-2:]) == {"passall", "resign"}, "irreversible words come last"
    assert listed.index("pass") == len(listed) - 3 and all(n not in WORDS for n in listed[:-3])
    assert await suggestions(alice, channel, "pa") == ["pass", "passall"]
    assert await suggestions(alice, channel, "re") == ["resign"]


# ------------------------------------------------------------------------------------ open requests


async def test_a_board_leaves_an_open_takeback_answerable(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await paint_after_two_moves(world)
    asked = await alice.slash(channel, "takeback")
    await bob.slash(channel, "board")
    await alice.slash(channel, "board")
    assert "Accept takeback" in button_labels(asked.response), "a /board does not close the request"
    await bob.click(asked.response, label="Accept takeback")
    assert "Taken back: c1-c3, b9-b8" in last_board(channel).content
    assert button_labels(asked.response) == []


async def test_a_board_leaves_an_open_abort_vote_answerable(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await paint_after_two_moves(world)
    asked = await alice.slash(channel, "abort")
    await bob.slash(channel, "board")
    assert "Agree to abort" in button_labels(asked.response)
    await bob.click(asked.response, label="Agree to abort")
    assert "aborted" in last_board(channel).content and button_labels(asked.response) == []


async def test_asking_again_shows_the_open_request_which_its_asker_may_withdraw(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await paint_after_two_moves(world)
    first = await alice.slash(channel, "takeback")
    again = await alice.slash(channel, "takeback")
    assert not again.ephemeral and f"<@{alice.id}> asks to take back" in reply_text(again)
    assert button_labels(again.response) == ["Accept takeback", "Decline", "Withdraw request"]
    assert button_labels(first.response) == [], "one message shows the request's buttons: the newest"

    onlooker = await world.carol.slash(channel, "takeback")  # shown to players only
    assert onlooker.ephemeral and "You are not playing in match #1" in reply_text(onlooker)
    assert "Accept takeback" in button_labels(again.response)
    refused = await bob.click(again.response, label="Withdraw request")
    assert refused.ephemeral and f"Only <@{alice.id}>, who asked, can withdraw" in reply_text(refused)
    own = await alice.click(again.response, label="Accept takeback")
    assert own.ephemeral and "You asked for this yourself" in reply_text(own)
    take_user_errors(world)

    await alice.click(again.response, label="Withdraw request")
    assert "withdrew their takeback request" in again.response.message.content
    assert button_labels(again.response) == []
    assert f"<@{alice.id}>, your turn" in last_board(channel).content, "nothing was taken back"
    # withdrawn, a new request can be made, and answered
    later = await bob.slash(channel, "takeback")
    assert f"<@{bob.id}> asks to take back" in reply_text(later)
    await alice.click(later.response, label="Accept takeback")
    assert "Taken back: b9-b8" in last_board(channel).content


# ------------------------------------------------------------------------------------------- abort


def said_aborted(channel: Any) -> list[str]:
    return [m.content for m in channel.history() if re.search(r"was aborted", m.content)]


async def test_an_abort_by_command_is_told_once(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await paint_after_two_moves(world)
    await alice.slash(channel, "abort")
    done = await bob.slash(channel, "abort")
    told = said_aborted(channel)
    assert len(told) == 1, told
    assert done.response is not None and done.response.id == last_board(channel).id, "the board is the reply"
    assert "No result, no rating change." in last_board(channel).content


async def test_an_abort_by_button_is_told_once(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await paint_after_two_moves(world)
    asked = await alice.slash(channel, "abort")
    before = len(boards(channel))
    await bob.click(asked.response, label="Agree to abort")
    assert len(boards(channel)) == before + 1
    told = said_aborted(channel)
    assert len(told) == 1, told
    assert button_labels(asked.response) == []


async def test_asking_to_abort_again_shows_the_open_vote_which_its_starter_may_withdraw(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await paint_after_two_moves(world)
    first = await alice.slash(channel, "abort")
    again = await alice.slash(channel, "abort")  # Alice has agreed already: the vote is shown again
    assert not again.ephemeral and f"<@{alice.id}> wants to abort match #1" in reply_text(again)
    assert button_labels(again.response) == ["Agree to abort", "Withdraw request"]
    assert button_labels(first.response) == [], "one message shows the vote's buttons: the newest"

    onlooker = await world.carol.slash(channel, "abort")
    assert onlooker.ephemeral and "Only the players" in reply_text(onlooker)
    refused = await bob.click(again.response, label="Withdraw request")
    assert refused.ephemeral and f"Only <@{alice.id}>, who asked, can withdraw" in reply_text(refused)
    own = await alice.click(again.response, label="Agree to abort")
    assert own.ephemeral and "You have agreed already" in reply_text(own)
    take_user_errors(world)

    await alice.click(again.response, label="Withdraw request")
    assert "withdrew their abort request" in again.response.message.content
    assert button_labels(again.response) == []
    assert not said_aborted(channel) and f"<@{alice.id}>, your turn" in last_board(channel).content
    # withdrawn, a new vote can be started, by the other player too, and agreed to
    later = await bob.slash(channel, "abort")
    assert f"<@{bob.id}> wants to abort match #1" in reply_text(later)
    await alice.click(later.response, label="Agree to abort")
    assert len(said_aborted(channel)) == 1 and button_labels(later.response) == []


async def test_a_third_player_asking_again_sees_who_started_the_vote(world: Any) -> None:
    channel = world.channel
    await three_player_tilingking(world)
    players = [world.alice, world.bob, world.carol]
    for _ in players:  # every seat moves once: from then on an abort is a vote
        mover = turn_of(world, last_board(channel))
        placements = [m for m in await suggestions(mover, channel) if not m.startswith("pass")]
        await mover.slash(channel, "move", notation=placements[0])
    starter, second, third = players
    await starter.slash(channel, "abort")
    joined = await second.slash(channel, "abort")
    assert f"<@{starter.id}> wants to abort" in reply_text(joined) and f"<@{third.id}>: agree?" in reply_text(
        joined
    )
    again = await second.slash(channel, "abort")
    assert f"<@{starter.id}> wants to abort" in reply_text(again)
    assert button_labels(joined.response) == [] and "Withdraw request" in button_labels(again.response)
    refused = await second.click(again.response, label="Withdraw request")
    assert refused.ephemeral and f"Only <@{starter.id}>, who asked" in reply_text(refused)
    take_user_errors(world)
    await starter.click(again.response, label="Withdraw request")
    assert not said_aborted(channel) and "your turn" in last_board(channel).content
    assert await world.env.bot.runtime.service.agreements.open_abort(1) is None, "the agreements went too"
