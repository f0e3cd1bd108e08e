"""Threads, takebacks, aborts, replays, the reading commands, and the apology for our own failures."""

from __future__ import annotations

import re
from typing import Any

from bot.service.ratings import ESTABLISHED_AFTER
from bot.testing.simcord import button_labels, last_board, reply_text, start_challenge, take_user_errors


async def test_thread_option_moves_the_match_into_a_new_thread(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paint", first="challenger", thread=True)
    threads = channel.threads
    assert len(threads) == 1
    thread = threads[0]
    board = last_board(thread)
    assert f"<@{alice.id}>, your turn as White" in board.content
    await alice.slash(thread, "move", notation="c1-c3")
    assert f"<@{bob.id}>, your turn as Black" in last_board(thread).content
    # The parent channel is free for another match.
    other = await world.carol.slash(channel, "play", game="paint", opponent=world.admin)
    assert not other.ephemeral


async def test_takeback_asked_and_accepted(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paint", first="challenger")
    await alice.slash(channel, "move", notation="c1-c3")
    asked = await alice.slash(channel, "takeback")
    assert not asked.ephemeral and f"<@{bob.id}>" in asked.response.content
    wrong = await alice.click(asked.response, label="Accept takeback")
    assert wrong.ephemeral
    take_user_errors(world)
    await bob.click(asked.response, label="Accept takeback")
    board = last_board(channel)
    assert "Taken back: c1-c3" in board.content and f"<@{alice.id}>, your turn as White" in board.content


async def test_abort_needs_both_players_or_an_admin(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paint", first="challenger")
    await alice.slash(channel, "move", notation="c1-c3")
    await bob.slash(channel, "move", notation="b9-b8")
    asked = await alice.slash(channel, "abort")
    assert "wants to abort" in asked.response.content
    outsider = await world.carol.click(asked.response, label="Agree to abort")
    assert outsider.ephemeral and "Only the players" in reply_text(outsider)
    await bob.click(asked.response, label="Agree to abort")
    assert "aborted" in channel.history()[-1].content
    # A server manager can abort alone.
    await start_challenge(world, alice, bob, "paintscape")
    done = await world.admin.slash(channel, "abort")
    assert "aborted" in done.response.content


async def test_after_the_end_replay_history_leaderboard_stats(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paint", first="challenger", options="lead_turns=2")
    await alice.slash(channel, "move", notation="c1-c3")
    await bob.slash(channel, "move", notation="b9-b8")
    final = last_board(channel)
    assert "Replay" in button_labels(final)

    replay = await bob.click(final, label="Replay")
    gif = replay.followups[-1] if replay.followups else replay.response
    assert gif.attachments[0].filename.endswith(".gif")
    by_command = await alice.slash(channel, "replay", match_id=1)
    assert by_command.response.attachments[0].filename == "match-1.gif"

    history = await bob.slash(channel, "history")
    assert (
        history.ephemeral
        and "#1 Paint" in history.response.content
        and "wins by holding the lead" in history.response.content
    )
    # One rating scale, rounded the same way on the final board, the leaderboard and /stats; plurals agree.
    shown = re.search(rf"<@{alice.id}>: 1500 → (\d+) \(\+\d+\), first rated game, provisional", final.content)
    assert shown, final.content
    # After one game both ratings are provisional: nobody is ranked yet, and the leaderboard says why.
    board = await alice.slash(channel, "leaderboard", game="paint")
    assert board.ephemeral and "No Paint player has an established rating yet" in board.response.content
    stats = await alice.slash(channel, "stats")
    assert f"Paint: 1 played, 1 won, 0 lost, 0 drawn · rating {shown.group(1)}?\n" in stats.response.content
    footer = f"-# A rating marked ? is provisional until about {ESTABLISHED_AFTER} rated games."
    assert footer in stats.response.content
    assert "· 2 moves" in history.response.content
    mine = await alice.slash(channel, "matches")
    assert "no active match" in mine.response.content


async def test_matches_lists_active_matches_with_links(world: Any) -> None:
    await start_challenge(world, world.alice, world.bob, "paint", first="challenger")
    listed = await world.alice.slash(world.channel, "matches")
    assert (
        listed.ephemeral and "#1 Paint" in listed.response.content and "your turn" in listed.response.content
    )


async def test_an_unexpected_failure_gets_an_apology_not_silence(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paint", first="challenger")
    world.env.inject_error("POST", "/webhooks/*", status=500, times=1)  # the board reply fails once
    result = await alice.slash(channel, "move", notation="c1-c3")
    assert "Sorry, something went wrong" in reply_text(result)
    errors = world.env.errors
    assert errors and "500" in str(errors[-1])
    world._seen_errors = len(errors)
    # The move itself was stored; the next /board shows it.
    await alice.slash(channel, "board")
    assert f"<@{bob.id}>, your turn as Black" in last_board(channel).content
