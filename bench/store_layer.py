"""The store's own SQL layer (store/sql.py: one query text, translated once per database and cached) against
SQLAlchemy Core (async, over the same drivers, aiosqlite and asyncpg), statement by statement.

The same two representative statements run through both, one after the other, on one database that the
store made (so the same schema and rows):

- read: a match row and its seats (the join every move starts with: `SqlStore._one_match`);
- write: a move guarded by the ply (``UPDATE matches ... WHERE id = ? AND ply = ?`` and the INSERT of the
  move, in one transaction: the generic `SqlStore.append_moves`).

Each is timed sequentially (no other load), `--rounds` times alternating which layer goes first, and the
median microseconds per statement are printed with the difference. SQLAlchemy is an optional extra
(``pip install -e ".[bench]"``).

    python bench/store_layer.py                     # SQLite (a file in a temporary folder)
    python bench/store_layer.py --database-url postgresql://postgres@127.0.0.1:5432/postgres
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg
from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Integer,
    MetaData,
    Table,
    Text,
    and_,
    bindparam,
    event,
    insert,
    null,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.service.records import NewMatch, Player
from bot.service.store import open_store
from bot.service.store.base import joined_matches
from bot.service.store.postgres import with_search_path
from bot.service.store.sql import SqlStore

METADATA = MetaData()
MATCHES = Table(
    "matches",
    METADATA,
    Column("id", Integer, primary_key=True),
    Column("game", Text),
    Column("options", Text),
    Column("seed", Integer),
    Column("guild_id", Integer),
    Column("channel_id", Integer),
    Column("status", Text),
    Column("ply", Integer),
    Column("turn_timeout", Float),
    Column("deadline", Float),
    Column("snapshot", Text),
    Column("outcome", Text),
    Column("rated", Boolean),
    Column("ratings_applied", Boolean),
    Column("abort_votes", Text),
    Column("takeback", Text),
    Column("created_at", Float),
    Column("updated_at", Float),
    Column("finished_at", Float),
    Column("quarantine", Text),
)
SEATS = Table(
    "match_seats",
    METADATA,
    Column("match_id", Integer),
    Column("seat", Integer),
    Column("user_id", Integer),
    Column("ai_level", Text),
    Column("player_key", Text),
    Column("result", Text),
)
MOVES = Table(
    "moves",
    METADATA,
    Column("match_id", Integer),
    Column("ply", Integer),
    Column("seat", Integer),
    Column("notation", Text),
    Column("forced", Boolean),
    Column("at", Float),
)
"""The columns the two statements touch (SQLAlchemy needs them declared; JSON columns as they are stored on
SQLite: the statements here do not read or write them through SQLAlchemy's JSON types)."""

READ_CORE = (
    select(MATCHES, SEATS.c.seat, SEATS.c.user_id, SEATS.c.ai_level, SEATS.c.result)
    .select_from(MATCHES.outerjoin(SEATS, SEATS.c.match_id == MATCHES.c.id))
    .where(MATCHES.c.id == bindparam("match_id"))
    .order_by(MATCHES.c.id, SEATS.c.seat)
)
GUARD_CORE = (
    update(MATCHES)
    .where(
        and_(
            MATCHES.c.id == bindparam("match_id"),
            MATCHES.c.ply == bindparam("expected"),
            MATCHES.c.status == "active",
        )
    )
    .values(
        ply=bindparam("new_ply"),
        snapshot=bindparam("new_snapshot"),
        deadline=null(),
        updated_at=bindparam("now"),
        takeback=null(),
    )
)
MOVE_CORE = insert(MOVES)

READ_OWN = joined_matches("WHERE m.id = ?")
GUARD_OWN = (
    "UPDATE matches SET ply = ?, snapshot = ?, deadline = ?, updated_at = ?, takeback = NULL "
    "WHERE id = ? AND ply = ? AND status = 'active'"
)
MOVE_OWN = "INSERT INTO moves (match_id, ply, seat, notation, forced, at) VALUES (?, ?, ?, ?, ?, ?)"


async def timed(work: Callable[[int], Awaitable[None]], count: int) -> float:
    """Microseconds per call of `work(i)`, i = 0..count-1."""
    start = time.perf_counter()
    for i in range(count):
        await work(i)
    return (time.perf_counter() - start) / count * 1e6


async def run(url: str | None, count: int, rounds: int) -> None:
    folder = None
    schema = None
    if url is None:
        folder = tempfile.mkdtemp(prefix="tessera-layer-")
        path = Path(folder) / "bench.sqlite3"
        store_url, engine_url, connect_args = f"sqlite:///{path}", f"sqlite+aiosqlite:///{path}", {}
    else:
        schema = f"bench_{uuid.uuid4().hex[:12]}"
        conn = await asyncpg.connect(url)
        await conn.execute(f"CREATE SCHEMA {schema}")
        await conn.close()
        store_url = with_search_path(url, schema)
        engine_url = url.replace("postgresql://", "postgresql+asyncpg://", 1)
        connect_args = {"server_settings": {"search_path": schema}}
    store = await open_store(store_url)
    assert isinstance(store, SqlStore)
    engine: AsyncEngine = create_async_engine(engine_url, connect_args=connect_args)
    if url is None:

        @event.listens_for(engine.sync_engine, "connect")
        def same_pragmas(connection: Any, _record: Any) -> None:
            """The store's settings on SQLAlchemy's connections too (WAL is the file's already)."""
            cursor = connection.cursor()
            cursor.execute("PRAGMA synchronous = NORMAL")
            cursor.execute("PRAGMA foreign_keys = ON")
            cursor.close()

    try:
        ids = []
        for i in range(count):
            seats = (Player(0, 10 + i), Player(1, 20 + i))
            new = NewMatch("paint", {}, i, 1, 1000 + i, seats, 60.0, None, "{}", False, 0.0)
            ids.append((await store.insert_match(new)).id)
        plies = dict.fromkeys(ids, 0)

        async def read_own(i: int) -> None:
            rows = await store._fetch(READ_OWN, ids[i])
            assert len(rows) == 2

        async def write_own(i: int) -> None:
            match_id = ids[i]
            ply = plies[match_id]
            async with store._transaction() as tx:
                assert await tx.run(GUARD_OWN, ply + 1, "{}", None, 1.0, match_id, ply) == 1
                await tx.run_many(MOVE_OWN, [(match_id, ply, ply % 2, "a1", False, 1.0)])
            plies[match_id] = ply + 1

        # Reads without a transaction around them, as the store reads (AUTOCOMMIT: no BEGIN/COMMIT trips).
        async with engine.connect() as conn, engine.connect() as reader:
            reader = await reader.execution_options(isolation_level="AUTOCOMMIT")

            async def read_core(i: int) -> None:
                rows = (await reader.execute(READ_CORE, {"match_id": ids[i]})).all()
                assert len(rows) == 2

            async def write_core(i: int) -> None:
                match_id = ids[i]
                ply = plies[match_id]
                async with conn.begin():
                    done = await conn.execute(
                        GUARD_CORE,
                        {
                            "match_id": match_id,
                            "expected": ply,
                            "new_ply": ply + 1,
                            "new_snapshot": "{}",
                            "now": 1.0,
                        },
                    )
                    assert done.rowcount == 1
                    await conn.execute(
                        MOVE_CORE,
                        [
                            {
                                "match_id": match_id,
                                "ply": ply,
                                "seat": ply % 2,
                                "notation": "a1",
                                "forced": False,
                                "at": 1.0,
                            }
                        ],
                    )
                plies[match_id] = ply + 1

            figures: dict[str, list[float]] = {
                name: [] for name in ("read own", "read core", "write own", "write core")
            }
            await read_core(0)  # warm up both (connections, statement caches)
            await read_own(0)
            for r in range(rounds):
                order = [("own", read_own, write_own), ("core", read_core, write_core)]
                for name, read, write in order if r % 2 == 0 else reversed(order):
                    figures[f"read {name}"].append(await timed(read, count))
                    figures[f"write {name}"].append(await timed(write, count))
    finally:
        await engine.dispose()
        await store.close()
        if schema is not None and url is not None:
            conn = await asyncpg.connect(url)
            await conn.execute(f"DROP SCHEMA {schema} CASCADE")
            await conn.close()
    kind = "sqlite" if url is None else "postgresql"
    print(f"store_layer store={kind} statements={count} rounds={rounds} (median microseconds per statement)")
    for what in ("read", "write"):
        own = statistics.median(figures[f"{what} own"])
        core = statistics.median(figures[f"{what} core"])
        print(
            f"{what:<6} own {own:8.1f}  sqlalchemy-core {core:8.1f}  "
            f"core-own {core - own:+8.1f} ({core / own - 1:+.0%})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database-url", help="a PostgreSQL server URL (a fresh schema is made there)")
    parser.add_argument("--statements", type=int, default=1000, help="statements of each kind per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(run(args.database_url, args.statements, args.rounds))


if __name__ == "__main__":
    main()
