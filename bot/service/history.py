"""Finished matches and players' statistics, answered from the stored records (no replays)."""

from __future__ import annotations

from bot.service.records import HistoryEntry, UserStats
from bot.service.store import MatchStore


class History:
    """What players have played."""

    def __init__(self, store: MatchStore) -> None:
        self.store = store

    async def finished(
        self,
        *,
        user_id: int | None = None,
        guild_id: int | None = None,
        game: str | None = None,
        limit: int = 10,
    ) -> list[HistoryEntry]:
        """Finished and aborted matches, newest first, with their number of moves (`HistoryEntry`)."""
        rows = await self.store.finished_matches(user_id=user_id, guild_id=guild_id, game=game, limit=limit)
        return [HistoryEntry(match, moves) for match, moves in rows]

    async def stats(self, user_id: int, *, guild_id: int | None = None) -> list[UserStats]:
        """Played, won, lost and drawn per game (finished matches; aborted ones do not count)."""
        return await self.store.user_stats(user_id, guild_id)
