"""A whole Paintscape match as two people play it: challenge, accept, the balancing phase (a swap by /move,
Done and the colour choice by buttons), placements picked from autocomplete, then a resignation."""

from __future__ import annotations

from typing import Any

from bot.testing.simcord import button_labels, last_board, start_challenge, suggestions


async def test_paintscape_from_challenge_to_resignation(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paintscape", first="challenger")

    board = last_board(channel)
    assert f"<@{alice.id}>, your turn as Balancer" in board.content
    assert "Done swapping" in button_labels(board)
    assert board.attachments[0].description  # alt text for screen readers

    # Alice (the balancer) swaps one stone with a tile, chosen from autocomplete.
    swaps = await suggestions(alice, channel, "swap")
    assert swaps and all(s.startswith("swap ") for s in swaps)
    result = await alice.slash(channel, "move", notation=swaps[0])
    assert result.acknowledged and not result.ephemeral
    assert result.response is not None and result.response.attachments[0].filename == "board.png"
    board = last_board(channel)
    assert "swaps the stone on" in board.content
    assert board.attachments[0].filename == "board.png"

    # She is done; the button belongs to the newest board.
    await alice.click(board, label="Done swapping")
    board = last_board(channel)
    assert f"<@{bob.id}>, your turn as Chooser" in board.content
    assert {"Play Black (first)", "Play White (second)"} <= set(button_labels(board))

    await bob.click(board, label="Play Black (first)")
    board = last_board(channel)
    assert f"<@{bob.id}>, your turn as Black" in board.content

    # Six placements, alternating, each picked from the autocomplete of the player to move.
    movers = [bob, alice]
    for turn in range(6):
        mover = movers[turn % 2]
        moves = await suggestions(mover, channel)
        assert 0 < len(moves) <= 25
        # Not your turn: no move is offered, only the reason.
        assert await suggestions(movers[(turn + 1) % 2], channel) == ["(no move)"]
        await mover.slash(channel, "move", notation=moves[0])
        board = last_board(channel)
        assert moves[0] in board.content
        assert board.attachments

    # Bob resigns, confirming with the button on the ephemeral question.
    question = await bob.slash(channel, "resign")
    assert question.ephemeral
    await bob.click(question.response, label="Yes, resign")
    final = last_board(channel)
    assert f"<@{bob.id}> resigned. **<@{alice.id}> wins by resignation.**" in final.content
    assert "Replay" in button_labels(final)
    # Rated by default: the rating changes are shown on the display scale (new players start at 1500).
    assert f"<@{alice.id}>: 1500 → " in final.content and "first rated game, provisional" in final.content
