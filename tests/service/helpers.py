"""Shared helpers for the service tests."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.service import Service
from bot.service.records import MatchView
from games.base import FIRST_SEAT

GUILD = 10
CHANNEL = 100
ALICE, BOB, CAROL, DAVE = 1, 2, 3, 4
BOT = 999


async def start_match(
    service: Service,
    game: str = "race",
    options: dict[str, object] | None = None,
    *,
    challenger: int = ALICE,
    opponent: int = BOB,
    channel: int = CHANNEL,
    guild: int | None = GUILD,
) -> MatchView:
    """A two-player match with the challenger in seat 0 unless the options say otherwise."""
    plain = service.rules(game).first_seat.option == FIRST_SEAT.option  # seat 0 with a role: drawn by default
    given: dict[str, object] = {FIRST_SEAT.option: "challenger"} if plain else {}
    given.update(options or {})
    challenge = await service.challenges.create(
        game, given, challenger, opponent, guild_id=guild, channel_id=channel
    )
    return await service.challenges.accept(challenge.id, opponent)


async def start_old_bot_match(service: Service, user: int, channel: int, level: str = "hard") -> MatchView:
    """A rated match against the bot at an old level (easy, medium, hard), as older matches stored it: new
    matches take only the eight levels, so it goes straight to the store's start."""
    return await service.matches.start(
        "race", {"first": "challenger"}, [(user, None), (BOT, level)], seed=1, rated=True,
        turn_timeout=86400, guild_id=GUILD, channel_id=channel,
    )  # fmt: skip


async def snapshot_matches_replay(service: Service, match_id: int) -> bool:
    """Whether the stored snapshot equals the replay of the stored move log."""
    from bot.service.checkdb import check_match

    row = await service.store.get_match(match_id)
    assert row is not None
    rules = service.rules(row.game)
    return check_match(rules, row, await service.store.moves(match_id)) == []


async def legal(service: Service, match_id: int, prefix: str = "", limit: int = 400) -> list[str]:
    """The legal moves of a match starting with `prefix` (any case), as notations."""
    match = await service.matches.get(match_id)
    if not match.is_active:
        return []
    rules = service.rules(match.game)
    texts = [rules.notation(match.state, m) for m in rules.legal_moves(match.state)]
    return [t for t in texts if t.lower().startswith(prefix.lower())][:limit]


async def next_wakeup(service: Service) -> float | None:
    """The earliest turn deadline or challenge expiry, as the turn clock sees it."""
    times = [t for t in (await service.matches.next_deadline(), await service.challenges.next_expiry()) if t]
    return min(times) if times else None


async def until(condition: Callable[[], bool], seconds: float = 60.0) -> None:
    """Wait until `condition()` holds (polling the event loop), failing after `seconds`."""

    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), seconds)


async def everyone_moves(service: Service, match_id: int, move: str = "1") -> MatchView:
    """One chosen move by every seat, in turn order: from then on a resignation, a timeout or an abort vote
    counts as usual (before it, any of them aborts the match)."""
    match = await service.matches.get(match_id)
    for _ in match.seats:
        user = match.user_to_move
        assert user is not None
        match = (await service.matches.play(match_id, user, move)).match
    return match
