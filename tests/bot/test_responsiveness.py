"""Under load (issue 14): simultaneous moves each get their board, and the commands that can take seconds
defer while the quick reads answer at once."""

from __future__ import annotations

import random
from typing import Any

import simcord

from bot.testing.simcord import button_labels, dispatch_move, last_board, start_challenge


async def test_simultaneous_moves_in_many_matches_each_get_their_board(world: Any) -> None:
    """Twelve players send /move at the same instant, twice over: every move is applied once and answered
    with its own board image, whatever order the bot finishes them in."""
    env, guild = world.env, world.guild
    service = env.bot.runtime.service
    tables = []
    for index in range(12):
        channel = guild.create_text_channel(f"table-{index}")
        one = guild.add_member(env.create_user(f"p{index}a"))
        two = guild.add_member(env.create_user(f"p{index}b"))
        challenge = await one.slash(channel, "play", game="paint", opponent=two, first="challenger")
        await two.click(challenge.response, label="Accept")
        match = await service.matches.in_channel(channel.id)
        tables.append((channel, {one.id: one, two.id: two}, match.id))

    rng = random.Random(7)
    for _ in range(2):
        sent = []
        for channel, players, match_id in tables:
            match = await service.matches.get(match_id)
            rules = service.rules(match.game)
            notation = rules.notation(match.state, rng.choice(list(rules.legal_moves(match.state))))
            sent.append((match_id, match.ply, dispatch_move(players[match.user_to_move], channel, notation)))
        await env._settle_internal(dispatch="INTERACTION_CREATE")
        for match_id, ply, record in sent:
            result = simcord.InteractionResult(env, record)
            board = result.followups[-1] if result.followups else result.response
            assert board is not None and [a.filename for a in board.attachments] == ["board.png"]
            assert (await service.matches.get(match_id)).ply == ply + 1


DEFERRED, MESSAGE = 5, 4
"""Discord's interaction callback types: a deferred reply ("thinking..."), a reply with its content."""


async def first_callback(env: Any, send: Any) -> int:
    """The callback type the bot answered one interaction with (SimCord records every REST call)."""
    before = len(env.http_requests)
    await send
    callbacks = [r.json["type"] for r in env.http_requests[before:] if r.path.endswith("/callback")]
    assert len(callbacks) == 1, callbacks
    return int(callbacks[0])


async def test_slow_commands_defer_and_quick_reads_answer_at_once(world: Any) -> None:
    """/move and /replay (a render, a GIF) defer before their work; /leaderboard, /history, /stats and
    /matches read indexed data and answer in one response (deferring would cost them a second API call)."""
    env, alice, bob, channel = world.env, world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paint", first="challenger", options="lead_turns=2")
    assert await first_callback(env, alice.slash(channel, "move", notation="c1-c3")) == DEFERRED
    await bob.slash(channel, "move", notation="b9-b8")
    assert "Replay" in button_labels(last_board(channel))

    assert await first_callback(env, alice.slash(channel, "replay", match_id=1)) == DEFERRED
    quick_reads = [("leaderboard", {"game": "paint"}), ("history", {}), ("stats", {}), ("matches", {})]
    for name, options in quick_reads:
        assert await first_callback(env, alice.slash(channel, name, **options)) == MESSAGE, name
