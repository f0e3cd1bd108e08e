"""`python -m bot migrate-db --to URL`: copy every table of one Tessera database into another (SQLite to
PostgreSQL and back, or between two of one kind), then check the copy with check-db.

Both databases are opened with the store first, so each is at this Tessera's schema (an empty target gets its
tables) and a SQLite file is locked against a running bot for the whole copy. The tables and their columns
are read from the databases themselves, so a table a later migration adds is copied too; they must be the
same on both sides. The two stores differ only in column types, and each value is converted by the type of
its PostgreSQL column: BOOLEAN <-> 0/1, JSONB <-> JSON text (written as the SQLite store writes it),
INTEGER[] <-> a JSON list, BIGINT/INTEGER <-> INTEGER, DOUBLE PRECISION <-> REAL, TEXT as it is.

Tables are copied parents first (by their foreign keys), from one consistent read of the source, in one
transaction on the target: a failure leaves the target as it was. PostgreSQL identity counters are moved past
the copied ids, so new matches, challenges and lobbies get fresh ids. A target that holds any row is refused
unless `--overwrite` (its rows are then replaced, in the same transaction).

Exit codes: 0 copied, and check-db finds the copy consistent; 1 copied, but check-db found problems (listed);
2 nothing copied: a bad URL, the same database twice, a non-empty target, a database that cannot be opened or
a copy that failed (said in one line).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sqlite3
import sys
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import asyncpg

from bot.service.store import POSTGRES_SCHEMES, StoreUnavailable, open_store, sqlite_path
from bot.service.store.postgres import describe

Kind = Literal["bool", "json", "array", "int", "float", "plain"]
"""How a column's values are converted; decided by the PostgreSQL column's type ("plain": as they are)."""

BATCH = 2000
"""Rows read and written at a time."""

INTERNAL_TABLES = frozenset({"schema_version", "file_state"})
"""Tables of a store's own bookkeeping (its schema version, a SQLite file's shutdown state), never copied;
SQLite's sqlite_* neither."""

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_NOT_COPIED = 2

Row = tuple[Any, ...]


class TransferError(Exception):
    """Nothing was copied; the message says why in one line."""


@dataclass
class Table:
    """One table as a database describes it."""

    name: str
    columns: tuple[str, ...]
    parents: frozenset[str] = frozenset()
    """The tables its foreign keys point to (itself left out)."""
    kinds: dict[str, Kind] = field(default_factory=dict)
    """PostgreSQL only: how each column converts."""
    counters: tuple[str, ...] = ()
    """PostgreSQL only: the columns an identity (or serial) counter fills."""


def _kind(data_type: str) -> Kind:
    """The conversion of a PostgreSQL column type (information_schema's data_type)."""
    if data_type == "boolean":
        return "bool"
    if data_type in ("json", "jsonb"):
        return "json"
    if data_type == "ARRAY":
        return "array"
    if data_type in ("smallint", "integer", "bigint"):
        return "int"
    if data_type in ("double precision", "real"):
        return "float"
    return "plain"


def sqlite_json(value: Any) -> str:
    """JSON text as the SQLite store writes it (compact, keys sorted)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _from_sqlite(kind: Kind, value: Any) -> Any:
    """A SQLite value as a Python value of its kind."""
    if value is None:
        return None
    if kind == "bool":
        return bool(value)
    if kind in ("json", "array"):
        return json.loads(value)
    if kind == "int":
        return int(value)
    if kind == "float":
        return float(value)
    return value


def _converted(table: Table, kinds: Sequence[Kind], row: Sequence[Any]) -> Row:
    """A SQLite row as Python values; a value that is not of its column's kind (a damaged row) stops the copy
    with a line naming the table, the row and the column, since the PostgreSQL column would refuse it."""
    values = []
    for column, kind, value in zip(table.columns, kinds, row, strict=True):
        try:
            values.append(_from_sqlite(kind, value))
        except (ValueError, TypeError) as error:
            raise TransferError(
                f"{table.name} row {dict(zip(table.columns, row, strict=True)).get('id', row[0])!r}: "
                f"{column} is not {kind} ({error}); repair or delete that row (check-db names damaged "
                "matches), then run again"
            ) from error
    return tuple(values)


def _to_sqlite(kind: Kind, value: Any) -> Any:
    if value is None:
        return None
    if kind == "bool":
        return int(value)
    if kind in ("json", "array"):
        return sqlite_json(value)
    return value


def _from_postgres(kind: Kind, value: Any) -> Any:
    """A value read without the store's codecs (JSONB comes as text) as a Python value of its kind."""
    if value is None:
        return None
    if kind == "json":
        return json.loads(value)
    if kind == "array":
        return list(value)
    return value


def _to_postgres(kind: Kind, value: Any) -> Any:
    if value is None:
        return None
    if kind == "bool":
        return bool(value)
    if kind == "json":
        return json.dumps(value, separators=(",", ":"), sort_keys=True)
    if kind == "int":
        return int(value)
    if kind == "float":
        return float(value)
    return value


def quote(name: str) -> str:
    """An SQL identifier, quoted."""
    return '"' + name.replace('"', '""') + '"'


def parents_first(tables: dict[str, Table]) -> list[str]:
    """The table names, each after the tables its foreign keys point to (then by name)."""
    done: list[str] = []
    left = dict(tables)
    while left:
        ready = sorted(name for name, t in left.items() if not (t.parents & left.keys()))
        if not ready:  # a cycle of foreign keys: copy the rest in one go (none in Tessera's schema)
            ready = sorted(left)
        for name in ready:
            done.append(name)
            del left[name]
    return done


def where(url: str) -> str:
    """A database URL as an operator reads it, never with a password."""
    return describe(url) if url.startswith(POSTGRES_SCHEMES) else f"the SQLite database {sqlite_path(url)}"


class Side(ABC):
    """One end of a copy, over its own raw connection (the store's codecs would convert for us)."""

    @abstractmethod
    async def describe(self) -> dict[str, Table]:
        """The tables, their columns and the tables their foreign keys point to."""

    @abstractmethod
    def read(self, table: Table, kinds: dict[str, Kind]) -> AsyncIterator[list[Row]]:
        """The rows of `table` in batches, as Python values of each column's kind."""

    @abstractmethod
    async def begin(self, *, write: bool) -> None:
        """Open the one transaction the copy reads (or writes) in."""

    @abstractmethod
    async def end(self, *, commit: bool) -> None:
        """Close that transaction, keeping what it wrote or not."""

    @abstractmethod
    async def filled(self, tables: Iterable[Table]) -> list[str]:
        """The tables that hold at least one row."""

    @abstractmethod
    async def clear(self, tables: Sequence[Table]) -> None:
        """Delete every row of `tables` (given parents first)."""

    @abstractmethod
    async def write(self, table: Table, kinds: dict[str, Kind], rows: list[Row]) -> None:
        """Insert `rows` into `table`, converted from Python values to this database's."""

    async def advance_counters(self, tables: Iterable[Table]) -> None:
        """Move identity counters past the ids now in the tables (SQLite has none to move)."""
        return None

    async def same(self, other: Side) -> bool:
        """Whether `other` is this very database (SQLite files are compared by path before opening)."""
        return False

    @abstractmethod
    async def close(self) -> None:
        """Close the connection."""


class SqliteSide(Side):
    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA foreign_keys = ON")
        self.db.execute("PRAGMA busy_timeout = 5000")

    async def describe(self) -> dict[str, Table]:
        names = [
            r[0]
            for r in self.db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, 7) <> 'sqlite_'"
            )
        ]
        tables = {}
        for name in names:
            if name in INTERNAL_TABLES:
                continue
            columns = tuple(r[1] for r in self.db.execute(f"PRAGMA table_info({quote(name)})"))
            parents = {r[2] for r in self.db.execute(f"PRAGMA foreign_key_list({quote(name)})")} - {name}
            tables[name] = Table(name, columns, frozenset(parents))
        return tables

    async def read(self, table: Table, kinds: dict[str, Kind]) -> AsyncIterator[list[Row]]:
        columns = ", ".join(quote(c) for c in table.columns)
        cursor = self.db.execute(f"SELECT {columns} FROM {quote(table.name)}")
        conversions = [kinds.get(c, "plain") for c in table.columns]
        while batch := cursor.fetchmany(BATCH):
            yield [_converted(table, conversions, row) for row in batch]

    async def begin(self, *, write: bool) -> None:
        self.db.execute("BEGIN IMMEDIATE" if write else "BEGIN")

    async def end(self, *, commit: bool) -> None:
        if self.db.in_transaction:
            self.db.execute("COMMIT" if commit else "ROLLBACK")

    async def filled(self, tables: Iterable[Table]) -> list[str]:
        return [
            t.name for t in tables if self.db.execute(f"SELECT 1 FROM {quote(t.name)} LIMIT 1").fetchone()
        ]

    async def clear(self, tables: Sequence[Table]) -> None:
        for table in reversed(tables):
            self.db.execute(f"DELETE FROM {quote(table.name)}")

    async def write(self, table: Table, kinds: dict[str, Kind], rows: list[Row]) -> None:
        conversions = [kinds.get(c, "plain") for c in table.columns]
        columns = ", ".join(quote(c) for c in table.columns)
        marks = ", ".join("?" for _ in table.columns)
        self.db.executemany(
            f"INSERT INTO {quote(table.name)} ({columns}) VALUES ({marks})",
            ([_to_sqlite(k, v) for k, v in zip(conversions, row, strict=True)] for row in rows),
        )

    async def close(self) -> None:
        self.db.close()


class PostgresSide(Side):
    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn
        self._transaction: Any = None

    @classmethod
    async def connect(cls, url: str) -> PostgresSide:
        return cls(await asyncpg.connect(url))

    async def same(self, other: Side) -> bool:
        """Whether `other` works on this connection's tables, however its URL spells the server: its session
        is seen on this server, in this database, with this schema."""
        if not isinstance(other, PostgresSide):
            return False
        them = await other.conn.fetchrow(
            "SELECT pg_backend_pid() AS pid, current_database() AS name, current_schema() AS schema, "
            "backend_start AS started FROM pg_stat_activity WHERE pid = pg_backend_pid()"
        )
        if them is None:
            return False
        found = await self.conn.fetchval(
            """SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND datname = $2
                   AND (backend_start IS NULL OR backend_start = $3))
               AND current_database() = $2 AND current_schema() = $4""",
            them["pid"],
            them["name"],
            them["started"],
            them["schema"],
        )
        return bool(found)

    async def describe(self) -> dict[str, Table]:
        rows = await self.conn.fetch(
            """SELECT c.table_name, c.column_name, c.data_type, c.is_identity, c.column_default
               FROM information_schema.columns c
               JOIN information_schema.tables t USING (table_schema, table_name)
               WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
               ORDER BY c.table_name, c.ordinal_position"""
        )
        links = await self.conn.fetch(
            """SELECT conrelid::regclass::text AS child, confrelid::regclass::text AS parent
               FROM pg_constraint
               WHERE contype = 'f' AND connamespace = current_schema()::regnamespace"""
        )
        tables: dict[str, Table] = {}
        for r in rows:
            name = r["table_name"]
            if name in INTERNAL_TABLES:
                continue
            table = tables.setdefault(name, Table(name, ()))
            table.columns += (r["column_name"],)
            table.kinds[r["column_name"]] = _kind(r["data_type"])
            if r["is_identity"] == "YES" or str(r["column_default"] or "").startswith("nextval("):
                table.counters += (r["column_name"],)
        for link in links:
            child, parent = link["child"].strip('"'), link["parent"].strip('"')
            if child in tables and parent != child:
                tables[child].parents |= {parent}
        return tables

    async def read(self, table: Table, kinds: dict[str, Kind]) -> AsyncIterator[list[Row]]:
        columns = ", ".join(quote(c) for c in table.columns)
        conversions = [kinds.get(c, "plain") for c in table.columns]
        batch: list[Row] = []
        async for record in self.conn.cursor(f"SELECT {columns} FROM {quote(table.name)}", prefetch=BATCH):
            batch.append(tuple(_from_postgres(k, v) for k, v in zip(conversions, record, strict=True)))
            if len(batch) >= BATCH:
                yield batch
                batch = []
        if batch:
            yield batch

    async def begin(self, *, write: bool) -> None:
        # A read sees one snapshot of the whole database, however long the copy takes.
        self._transaction = self.conn.transaction(
            isolation="read_committed" if write else "repeatable_read", readonly=not write
        )
        await self._transaction.start()

    async def end(self, *, commit: bool) -> None:
        transaction, self._transaction = self._transaction, None
        if transaction is not None:
            await (transaction.commit() if commit else transaction.rollback())

    async def filled(self, tables: Iterable[Table]) -> list[str]:
        found = []
        for table in tables:
            if await self.conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {quote(table.name)})"):
                found.append(table.name)
        return found

    async def clear(self, tables: Sequence[Table]) -> None:
        if tables:
            await self.conn.execute(f"TRUNCATE {', '.join(quote(t.name) for t in tables)} RESTART IDENTITY")

    async def write(self, table: Table, kinds: dict[str, Kind], rows: list[Row]) -> None:
        conversions = [kinds.get(c, "plain") for c in table.columns]
        await self.conn.copy_records_to_table(
            table.name,
            records=[
                tuple(_to_postgres(k, v) for k, v in zip(conversions, row, strict=True)) for row in rows
            ],
            columns=list(table.columns),
        )

    async def advance_counters(self, tables: Iterable[Table]) -> None:
        for table in tables:
            for column in table.counters:
                await self.conn.execute(
                    f"""SELECT setval(pg_get_serial_sequence($1, $2),
                           COALESCE((SELECT MAX({quote(column)}) FROM {quote(table.name)}), 0) + 1, false)""",
                    quote(table.name),
                    column,
                )

    async def close(self) -> None:
        await self.conn.close()


async def _side(url: str) -> Side:
    if url.startswith(POSTGRES_SCHEMES):
        try:
            return await PostgresSide.connect(url)
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StoreUnavailable(f"{describe(url)} cannot be used: {error}") from error
    return SqliteSide(sqlite_path(url))


def _same_database(source: str, target: str) -> bool:
    if source.startswith("sqlite:") and target.startswith("sqlite:"):
        return os.path.realpath(sqlite_path(source)) == os.path.realpath(sqlite_path(target))
    return source == target


async def transfer(source_url: str, target_url: str, *, overwrite: bool = False) -> dict[str, int]:
    """Copy every table of `source_url` into `target_url` (see the module doc); returns the rows copied per
    table. TransferError (or StoreUnavailable, ValueError) when nothing was copied."""
    if _same_database(source_url, target_url):
        raise TransferError("the source and the target are the same database")
    if source_url.startswith("sqlite:") and not os.path.exists(sqlite_path(source_url)):
        raise TransferError(f"no database file at {sqlite_path(source_url)}")
    new_file = sqlite_path(target_url) if target_url.startswith("sqlite:") else None
    if new_file is not None and os.path.exists(new_file):
        new_file = None
    try:
        return await _transfer(source_url, target_url, overwrite=overwrite)
    except BaseException:
        if new_file is not None:  # a SQLite file made for this copy goes again
            for suffix in ("", "-wal", "-shm", ".lock"):
                with contextlib.suppress(FileNotFoundError):
                    os.remove(new_file + suffix)
        raise


async def _transfer(source_url: str, target_url: str, *, overwrite: bool) -> dict[str, int]:
    async with contextlib.AsyncExitStack() as stack:
        # The stores bring both schemas to this Tessera's version, and hold a SQLite file's lock meanwhile.
        for url in (source_url, target_url):
            stack.push_async_callback((await open_store(url)).close)
        source = await _side(source_url)
        stack.push_async_callback(source.close)
        target = await _side(target_url)
        stack.push_async_callback(target.close)
        if await target.same(source):
            raise TransferError("the source and the target are the same database")
        source_tables, target_tables = await source.describe(), await target.describe()
        if source_tables.keys() != target_tables.keys():
            differ = sorted(source_tables.keys() ^ target_tables.keys())
            raise TransferError(f"the two databases have different tables ({', '.join(differ)})")
        for name, table in source_tables.items():
            if set(table.columns) != set(target_tables[name].columns):
                raise TransferError(f"the table {name} has different columns in the two databases")
        # The PostgreSQL side's column types say how values convert (two SQLite files: as they are).
        typed = source_tables if isinstance(source, PostgresSide) else target_tables
        converts = isinstance(source, PostgresSide) or isinstance(target, PostgresSide)
        order = [target_tables[name] for name in parents_first(source_tables)]
        copied: dict[str, int] = {}
        await source.begin(write=False)
        await target.begin(write=True)
        try:
            filled = await target.filled(order)
            if filled and not overwrite:
                raise TransferError(
                    f"{where(target_url)} is not empty ({', '.join(filled)} hold rows): "
                    "copy into an empty database, or add --overwrite to replace its rows"
                )
            await target.clear(order)
            for table in order:
                kinds = typed[table.name].kinds if converts else {}
                columns = Table(table.name, source_tables[table.name].columns)
                copied[table.name] = 0
                async for rows in source.read(columns, kinds):
                    await target.write(columns, kinds, rows)
                    copied[table.name] += len(rows)
            await target.advance_counters(order)
        except BaseException:
            await target.end(commit=False)
            await source.end(commit=False)
            raise
        await target.end(commit=True)
        await source.end(commit=True)
    return copied


def main(argv: Sequence[str], *, default_url: str) -> int:
    """`python -m bot migrate-db`: copy, then check the copy; prints what it did. See the module doc for
    the exit codes."""
    from bot.service.checkdb import CannotCheck, check_database

    parser = argparse.ArgumentParser(
        prog="python -m bot migrate-db",
        description=(
            "Copy every match, move, rating, setting and preference into another database (SQLite or "
            "PostgreSQL), then check the copy. Stop the bot first: what it writes later is not copied."
        ),
    )
    parser.add_argument("--to", required=True, help="the target: postgresql://... or sqlite:///path")
    parser.add_argument("--from", dest="source", help="the source (default: the DATABASE_URL setting)")
    parser.add_argument(
        "--overwrite", action="store_true", help="replace the rows of a target that is not empty"
    )
    args = parser.parse_args(list(argv))
    source_url: str = args.source or default_url
    target_url: str = args.to
    try:
        copied = asyncio.run(transfer(source_url, target_url, overwrite=args.overwrite))
    except (TransferError, StoreUnavailable, ValueError) as error:
        return _not_copied(str(error))
    except (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as error:
        return _not_copied(f"the copy failed and was undone: {type(error).__name__}: {error}")
    for name in sorted(copied):
        print(f"  {name}: {copied[name]} rows")
    print(f"migrate-db: copied {sum(copied.values())} rows from {where(source_url)} to {where(target_url)}")
    try:
        problems = asyncio.run(check_database(target_url))
    except (CannotCheck, StoreUnavailable) as error:
        print(f"migrate-db: the copy could not be checked: {' '.join(str(error).split())}", file=sys.stderr)
        return EXIT_PROBLEMS
    for line in problems:
        print(line)
    if problems:
        print(f"migrate-db: check-db found {len(problems)} problem(s) in the copy", file=sys.stderr)
        return EXIT_PROBLEMS
    print("migrate-db: check-db: the copy is consistent")
    return EXIT_OK


def _not_copied(message: str) -> int:
    print(f"migrate-db: nothing copied: {' '.join(message.split())}", file=sys.stderr)
    return EXIT_NOT_COPIED
