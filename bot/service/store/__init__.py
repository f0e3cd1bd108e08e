"""Persistence behind one protocol: `MatchStore` (store/base.py), implemented once over SQL (store/sql.py),
with a dialect for SQLite (sqlite.py) and one for PostgreSQL (postgres.py: several shard processes).
`open_store(url)` picks by the URL's scheme:
``sqlite:///data/tessera.sqlite3`` (a file relative to the working folder), ``sqlite:////abs/path.db`` or
``sqlite:///:memory:``; ``postgresql://user:password@host:5432/tessera`` (or ``postgres://``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.service.store.base import (
    BadDatabaseUrl,
    ChannelTaken,
    DamagedRow,
    LobbyChanged,
    MatchStore,
    RatingCompute,
    StoreConflict,
    StoreFull,
    StoreUnavailable,
)
from bot.service.store.schema import SCHEMA_VERSION
from bot.service.store.sqlite import SqliteStore, sqlite_path

if TYPE_CHECKING:
    from bot.service.store.postgres import PostgresStore

__all__ = [
    "SCHEMA_VERSION",
    "BadDatabaseUrl",
    "ChannelTaken",
    "DamagedRow",
    "LobbyChanged",
    "MatchStore",
    "PostgresStore",
    "RatingCompute",
    "SqliteStore",
    "StoreConflict",
    "StoreFull",
    "StoreUnavailable",
    "open_store",
    "sqlite_path",
]


POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def __getattr__(name: str) -> Any:
    """`PostgresStore`, imported on first use: a bot on SQLite never loads PostgreSQL's driver."""
    if name == "PostgresStore":
        from bot.service.store.postgres import PostgresStore

        return PostgresStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


async def open_store(url: str) -> MatchStore:
    """Open (and migrate) the store a database URL names; BadDatabaseUrl for a URL no store takes,
    StoreUnavailable for a database that cannot be used."""
    if url.startswith("sqlite:"):
        return await SqliteStore.open(sqlite_path(url))
    if url.startswith(POSTGRES_SCHEMES):
        from bot.service.store.postgres import PostgresStore  # its driver only where the URL asks for it

        return await PostgresStore.open(url)
    scheme = url.split(":", 1)[0]
    raise BadDatabaseUrl(
        f"unsupported database URL scheme {scheme!r}: "
        "use sqlite:///data/tessera.sqlite3 or postgresql://user:password@host:5432/tessera"
    )
