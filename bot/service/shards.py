"""Shard ownership: which guilds' timed work (turn clock, challenge expiry, reminders, the bot's turns) this
process runs.

Discord assigns a guild to shard ``(guild_id >> 22) % shard_count``; a process that owns a set of shards runs
the timed work of exactly those guilds, so across processes every deadline fires once. Direct messages and
matches without a guild belong to shard 0, as in Discord.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Shards:
    """The shards this process owns out of `count`."""

    count: int
    ids: frozenset[int]

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError("the shard count must be at least 1")
        if not self.ids or any(not 0 <= shard < self.count for shard in self.ids):
            raise ValueError(f"shard ids must be between 0 and {self.count - 1}")

    @classmethod
    def everything(cls) -> Shards:
        """One process owning every guild (the default)."""
        return cls(1, frozenset({0}))

    @property
    def owns_all(self) -> bool:
        return len(self.ids) == self.count

    def shard_of(self, guild_id: int | None) -> int:
        return ((guild_id or 0) >> 22) % self.count

    def owns(self, guild_id: int | None) -> bool:
        return self.shard_of(guild_id) in self.ids

    def sql_filter(self, column: str = "guild_id") -> str:
        """A SQL condition (SQLite and PostgreSQL alike) true for rows whose `column` guild this process owns;
        "1 = 1" when it owns everything. `column` is a trusted column name, never user input."""
        if self.owns_all:
            return "1 = 1"
        ids = ", ".join(str(shard) for shard in sorted(self.ids))
        return f"((COALESCE({column}, 0) >> 22) % {self.count}) IN ({ids})"
