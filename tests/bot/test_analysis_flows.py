"""/analyse, the Analyse button and /hint through the real command tree; the AI thinks in its worker process
with the tiny test budget."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import pytest
from PIL import Image

import renderer
from bot.testing.simcord import (
    boards,
    bot_member,
    button_labels,
    dispatch_slash,
    image_theme,
    last_board,
    match_id_of,
    reply_text,
    start_challenge,
    take_user_errors,
)
from tests.games.test_ai_analysis import blunder_game
from tests.service.helpers import until

pytestmark = pytest.mark.simcord(settle_timeout=60)


async def short_paint_match(world: Any) -> int:
    """Alice beats Bob at Paint in two moves (the lead held for two turns); returns the match id."""
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paint", first="challenger", options="lead_turns=2")
    await alice.slash(channel, "move", notation="c1-c3")
    await bob.slash(channel, "move", notation="b9-b8")
    return match_id_of(last_board(channel))


async def test_the_analyse_button_under_a_final_board(world: Any) -> None:
    match_id = await short_paint_match(world)
    final = last_board(world.channel)
    assert button_labels(final) == ["Replay", "Analyse", "Rematch"]
    clicked = await world.carol.click(final, label="Analyse")
    assert not clicked.ephemeral
    text = reply_text(clicked)
    assert f"**Analysis of match #{match_id}** (Paint, 2 moves)" in text
    assert f"**<@{world.alice.id}>** (White)" in text and f"**<@{world.bob.id}>** (Black)" in text
    runtime = world.env.bot.runtime
    assert runtime.analyses.runs == 1
    again = await world.alice.slash(world.channel, "analyse", match_id=match_id)
    assert reply_text(again) == text and runtime.analyses.runs == 1, "a finished match is analysed once"


async def blunder_match(service: Any, guild: Any, channel: Any, alice: Any, bob: Any) -> int:
    """A long real Paintscape game with a blunder between Alice and Bob, stored through the service and
    finished; returns its match id."""
    start, log, _ = blunder_game(35)
    match = await service.matches.start(
        "paintscape",
        {"balance": False},
        [(alice.id, None), (bob.id, None)],
        seed=35,
        rated=False,
        turn_timeout=86400,
        guild_id=guild.id,
        channel_id=channel.id,
    )
    rules = service.rules("paintscape")
    assert rules.position_text(match.state) == rules.position_text(start)
    players = {0: alice.id, 1: bob.id}
    for seat, notation in log:
        view = await service.matches.get(match.id)
        if view.is_active and rules.forced_move(view.state) is None:
            await service.matches.play(match.id, players[seat], notation)
    assert not (await service.matches.get(match.id)).is_active
    return int(match.id)


async def test_analyse_shows_the_biggest_turning_point(world: Any) -> None:
    """A long real game with a blunder, then /analyse: the turning points per player and the image of the
    biggest, in the user's theme."""
    runtime = world.env.bot.runtime
    alice = world.alice
    match_id = await blunder_match(runtime.service, world.guild, world.channel, alice, world.bob)
    await alice.slash(world.channel, "prefs", theme="colorblind")
    result = await alice.slash(world.channel, "analyse", match_id=match_id)
    text = reply_text(result)
    edits = [
        str(r.json.get("content"))
        for r in world.env.http_requests
        if r.method == "PATCH" and r.path.endswith("/messages/@original") and isinstance(r.json, dict)
    ]
    progress = [e for e in edits if e.startswith(f"Analysing match #{match_id}… ")]
    assert progress and progress[0] == f"Analysing match #{match_id}… move 1 of 94.", "at once, in place"
    numbers = [int(e.split("move ")[1].split(" of")[0]) for e in progress if " move " in e]
    assert numbers == sorted(numbers), "the reply counts up as the search goes"
    assert edits[-1] == text and not result.followups, "the result replaces the progress line"
    analysis = runtime.analyses.cached(match_id)
    biggest = analysis.biggest()
    assert biggest is not None
    assert f"played **{biggest.played}**, **{biggest.preferred}** was better" in text
    assert f"The image shows the biggest, move {biggest.ply + 1}" in text
    reply = result.followups[-1] if result.followups else result.response
    (attachment,) = reply.attachments
    assert attachment.filename == f"analysis-{match_id}.png"
    assert f"after the move played, {biggest.played}" in str(attachment.description)
    assert image_theme(world.env, attachment) == "colorblind"
    image = Image.open(io.BytesIO(world.env.backend.cdn.get(attachment.url)))
    start = runtime.service.rules("paintscape").new(2, {"balance": False}, 35)
    board = Image.open(io.BytesIO(renderer.render("paintscape", start)))
    assert image.width >= board.width and image.height >= 2 * board.height, (
        "two whole boards, one above the other"
    )


async def test_analyse_refuses_what_it_cannot_analyse(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paintscape", first="challenger")
    active = match_id_of(last_board(channel))
    still = await alice.slash(channel, "analyse", match_id=active)
    assert still.ephemeral and "still being played" in reply_text(still)
    unknown = await alice.slash(channel, "analyse", match_id=999)
    assert unknown.ephemeral and "There is no match #999" in reply_text(unknown)
    await world.admin.slash(channel, "abort")
    aborted = await alice.slash(channel, "analyse", match_id=active)
    assert aborted.ephemeral and "was aborted" in reply_text(aborted)
    assert "Analyse" not in button_labels(last_board(channel)), "no Analyse button under an aborted match"
    other_guild = world.env.create_guild("Elsewhere")
    outside = other_guild.create_text_channel("games")
    stranger = other_guild.add_member(world.env.create_user("dora"))
    hidden = await stranger.slash(outside, "analyse", match_id=active)
    assert hidden.ephemeral and f"There is no match #{active}" in reply_text(hidden)
    take_user_errors(world)


async def test_analyse_offers_your_recent_finished_matches(world: Any) -> None:
    match_id = await short_paint_match(world)
    await start_challenge(world, world.alice, world.carol, "paintscape", first="challenger")
    choices = await world.alice.autocomplete(world.channel, "analyse", "match_id", "")
    assert [c["value"] for c in choices] == [match_id], "finished ones only"
    assert choices[0]["name"].startswith(f"#{match_id} Paint vs bob, 2 moves")
    assert await world.alice.autocomplete(world.channel, "analyse", "match_id", "7") == []
    assert await world.carol.autocomplete(world.channel, "analyse", "match_id", "") == []


async def casual_bot_match(world: Any, channel: Any, *, rated: bool) -> None:
    await world.alice.slash(
        channel,
        "play",
        game="paintscape",
        opponent=bot_member(world),
        level="1",
        first="challenger",
        options="balance=off",
        rated=rated,
    )


async def test_a_hint_in_a_casual_match_against_the_bot(world: Any) -> None:
    alice, channel = world.alice, world.channel
    await casual_bot_match(world, channel, rated=False)
    board = last_board(channel)
    assert f"<@{alice.id}>, your turn as Black" in board.content
    hinted = await alice.slash(channel, "hint")
    assert hinted.ephemeral
    text = reply_text(hinted)
    assert text.startswith("Try **") and "Why: " in text and text.endswith(".")
    move = text.split("**")[1]
    await alice.slash(channel, "move", notation=move)
    assert any(f"Black {move}\n" in b.content for b in boards(channel)), "the hinted move was played"
    outsider = await world.bob.slash(channel, "hint")
    assert outsider.ephemeral and "You are not playing in match" in reply_text(outsider)
    question = await alice.slash(channel, "resign")
    await alice.click(question.response, label="Yes, resign")
    over = await alice.slash(channel, "hint")
    assert over.ephemeral and "There is no match in this channel" in reply_text(over)
    take_user_errors(world)


async def test_hints_are_only_for_casual_matches_against_the_bot(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await casual_bot_match(world, channel, rated=True)
    rated = await alice.slash(channel, "hint")
    assert rated.ephemeral and "is rated. Play me with </play:" in reply_text(rated)
    second = world.guild.create_text_channel("more-games")
    await bob.slash(second, "play", game="paint", opponent=alice, first="challenger", rated=False)
    await alice.click(second.history()[-1], label="Accept")
    humans = await bob.slash(second, "hint")
    assert humans.ephemeral and "Hints are only for matches against me" in reply_text(humans)
    take_user_errors(world)


async def test_one_analysis_at_a_time_per_user_with_a_private_answer(world: Any) -> None:
    """While Alice's analysis runs, her second one is refused privately with what to do; Bob's is not."""
    runtime = world.env.bot.runtime
    alice, bob, channel = world.alice, world.bob, world.channel
    first = await short_paint_match(world)
    second = await short_paint_match(world)
    gate = asyncio.Event()
    runner = runtime.analyses.runner
    real = runner.analysis_positions

    async def gated(*args: Any) -> Any:
        await world.env.external_wait(gate.wait(), reason="the test holds Alice's analysis")
        return await real(*args)

    runner.analysis_positions = gated
    try:
        dispatch_slash(alice, channel, "analyse", match_id=first)
        await until(lambda: runtime.analyses.in_progress == 1)
        refused = await alice.slash(channel, "analyse", match_id=second)
        assert refused.ephemeral
        assert reply_text(refused) == (
            f"You already have an analysis running (match #{first}). Wait for it to finish, then ask again."
        )
        gate.set()
        other = await bob.slash(channel, "analyse", match_id=second)
        assert f"**Analysis of match #{second}**" in reply_text(other)
    finally:
        gate.set()
        runner.analysis_positions = real
    take_user_errors(world)


async def test_one_replay_at_a_time_per_user_with_a_private_answer(world: Any) -> None:
    """While Alice's replay waits to be drawn, her second one is refused privately with what to expect;
    Bob's is drawn."""
    runtime = world.env.bot.runtime
    alice, bob, channel = world.alice, world.bob, world.channel
    first = await short_paint_match(world)
    second = await short_paint_match(world)
    gate = asyncio.Event()

    class HeldSlots:
        """The replay workers' slots, held until the test lets them go."""

        async def __aenter__(self) -> None:
            await world.env.external_wait(gate.wait(), reason="the test holds the replay workers")

        async def __aexit__(self, *exc_info: Any) -> None:
            return None

    slots = runtime.drawing._replay_slots
    runtime.drawing._replay_slots = HeldSlots()
    try:
        dispatch_slash(alice, channel, "replay", match_id=first)
        await until(lambda: alice.id in runtime.drawing._users)
        refused = await alice.slash(channel, "replay", match_id=second)
        assert refused.ephemeral
        assert reply_text(refused) == (
            "Your previous replay is still being drawn; it will be posted in a moment."
        )
        gate.set()
        other = await bob.slash(channel, "replay", match_id=second)
        reply = other.followups[-1] if other.followups else other.response
        assert reply is not None and reply.attachments[0].filename.endswith(".gif")
    finally:
        gate.set()
        runtime.drawing._replay_slots = slots
    take_user_errors(world)


async def test_an_analysis_that_breaks_halfway_leaves_no_stale_progress(world: Any) -> None:
    """The progress line goes when the analysis fails after it was shown; the asker gets the apology."""
    runtime = world.env.bot.runtime
    alice = world.alice
    match_id = await blunder_match(runtime.service, world.guild, world.channel, alice, world.bob)
    runner = runtime.analyses.runner
    real = runner.review
    calls = 0

    async def breaks(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls > 5:
            raise RuntimeError("the worker died")
        return await real(*args, **kwargs)

    runner.review = breaks
    try:
        result = await alice.slash(world.channel, "analyse", match_id=match_id)
    finally:
        runner.review = real
    shown = [
        r
        for r in world.env.http_requests
        if r.method == "PATCH" and isinstance(r.json, dict) and "Analysing" in str(r.json.get("content"))
    ]
    assert shown, "the progress was shown before it broke"
    assert result.response is None, "the progress line was deleted"
    assert result.followups and result.followups[-1].ephemeral
    assert reply_text(result).startswith("Sorry, something went wrong on our side.")
    with pytest.raises(ExceptionGroup, match="1 error"):
        world.env.raise_errors()  # the failure was logged and answered; acknowledged here
