"""/leaderboard and /stats as lichess players expect them: established ratings of people only, ranked by
the shown rating; provisional ratings marked "?" and left out, with the footer saying how to qualify; the bot
on a line of its own, never ranked."""

from __future__ import annotations

from typing import Any

from bot.service import Service
from bot.service.ratings import ESTABLISHED_AFTER, shown_rating
from bot.service.records import Finished
from games.ai.levels import LEVEL_IDS, level_rating


async def rated_paint_match(
    service: Service, world: Any, seats: list[tuple[int, str | None]], resigner: int
) -> None:
    """A rated Paint match in this server between `seats` (user id, bot level or None) in which each seat
    moves once before `resigner` resigns."""
    match = await service.matches.start(
        "paint",
        {},
        seats,
        seed=1,
        rated=True,
        turn_timeout=86400,
        guild_id=world.guild.id,
        channel_id=world.channel.id,
    )
    rules = service.rules("paint")
    for _ in seats:
        view = await service.matches.get(match.id)
        move = next(iter(rules.legal_moves(view.state)))
        mover = view.seats[rules.to_move(view.state)].user_id
        await service.matches.play(match.id, mover, rules.notation(view.state, move))
    assert isinstance(await service.matches.resign(match.id, resigner), Finished)


async def test_the_leaderboard_ranks_established_players_and_sets_the_bot_apart(world: Any) -> None:
    service = world.env.bot.runtime.service
    alice, bob, carol, channel = world.alice, world.bob, world.carol, world.channel
    for n in range(28):  # Alice wins three in four
        await rated_paint_match(
            service, world, [(alice.id, None), (bob.id, None)], alice.id if n % 4 == 3 else bob.id
        )
    await rated_paint_match(service, world, [(carol.id, None), (bob.id, None)], bob.id)
    await rated_paint_match(service, world, [(carol.id, None), (world.me.id, "hard")], carol.id)
    board = await carol.slash(channel, "leaderboard", game="paint")
    text = board.response.content
    assert not board.ephemeral
    ratings = await service.store.get_ratings("paint", [f"user:{u.id}" for u in (alice, bob, carol)])
    shown = {key: shown_rating(r.mu, r.sigma) for key, r in ratings.items()}
    alice_shown, bob_shown = shown[f"user:{alice.id}"], shown[f"user:{bob.id}"]
    assert not alice_shown.provisional and not bob_shown.provisional and shown[f"user:{carol.id}"].provisional
    lines = text.split("\n")
    assert lines[0] == "**Paint leaderboard** (this server)"
    assert lines[1] == f"1. <@{alice.id}>: {alice_shown} · 28 games"
    assert lines[2] == f"2. <@{bob.id}>: {bob_shown} · 29 games"
    assert f"<@{carol.id}>" not in text, "a provisional rating is not ranked"
    levels = " · ".join(f"level {level} {level_rating('paint', level)}" for level in LEVEL_IDS)
    assert lines[3] == f"Tessera, not ranked: {levels}", "the eight levels at their calibrated ratings"
    assert lines[4] == (
        f"-# Only established ratings are ranked: a rating marked ? is provisional until about "
        f"{ESTABLISHED_AFTER} rated games."
    )
    stats = await carol.slash(channel, "stats")
    assert f"rating {shown[f'user:{carol.id}']}" in stats.response.content
    assert str(shown[f"user:{carol.id}"]).endswith("?") and "-# A rating marked ?" in stats.response.content
