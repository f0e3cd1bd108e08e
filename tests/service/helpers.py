"""Shared helpers for the service tests."""

from __future__ import annotations

from bot.matches import MatchService, MatchView

GUILD = 10
CHANNEL = 100
ALICE, BOB, CAROL, DAVE = 1, 2, 3, 4
BOT = 999


async def start_match(
    service: MatchService,
    game: str = "race",
    options: dict[str, object] | None = None,
    *,
    challenger: int = ALICE,
    opponent: int = BOB,
    channel: int = CHANNEL,
    guild: int | None = GUILD,
) -> MatchView:
    """A two-player match with the challenger in seat 0 unless the options say otherwise."""
    given: dict[str, object] = {"first": "challenger"} if game not in ("paintscape", "paint") else {}
    given.update(options or {})
    challenge = await service.create_challenge(
        game, given, challenger, opponent, guild_id=guild, channel_id=channel
    )
    return await service.accept_challenge(challenge.id, opponent)


async def snapshot_matches_replay(service: MatchService, match_id: int) -> bool:
    """Whether the stored snapshot equals the replay of the stored move log."""
    from bot.checkdb import check_match

    row = await service.store.get_match(match_id)
    assert row is not None
    rules = service.rules(row.game)
    return check_match(rules, row, await service.store.moves(match_id)) == []
