"""Fixtures for the service tests: a fake clock, a fresh database of each kind (a SQLite file in tmp_path,
and a PostgreSQL schema of its own on the server `TESSERA_TEST_DATABASE_URL` names), and services over the
tiny test games (plus the real registry for real games).

Tests that use `store_url` (or `open_service`, `service`) run once per store. Without the variable the
PostgreSQL runs are skipped, said so; with ``TESSERA_REQUIRE_POSTGRES=1`` (CI) they fail instead. A test
marked ``sqlite_only`` reaches into the SQLite file itself and runs on SQLite alone.
"""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import asyncpg
import pytest

from bot.service import Service
from bot.service.store import MatchStore, open_store
from bot.service.store.postgres import with_search_path
from tests.service.tinygames import registry

PG_URL_VARIABLE = "TESSERA_TEST_DATABASE_URL"
REQUIRE_PG_VARIABLE = "TESSERA_REQUIRE_POSTGRES"


class FakeClock:
    """A time source the test moves by hand."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


ServiceFactory = Callable[..., Awaitable[Service]]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "tessera.sqlite3"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked sqlite_only are not run on PostgreSQL."""
    dropped = [
        item
        for item in items
        if item.get_closest_marker("sqlite_only") is not None
        and getattr(getattr(item, "callspec", None), "params", {}).get("store_url") == "postgresql"
    ]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if item not in dropped]


def postgres_server() -> str:
    """The PostgreSQL server URL the tests may use; skips the test (fails it in CI) when there is none."""
    url = os.environ.get(PG_URL_VARIABLE, "")
    if not url:
        reason = f"PostgreSQL tests need {PG_URL_VARIABLE} (a server URL where they may create schemas)"
        if os.environ.get(REQUIRE_PG_VARIABLE) == "1":
            pytest.fail(f"{REQUIRE_PG_VARIABLE}=1 but {reason}")
        pytest.skip(reason)
    return url


@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    """A fresh, empty schema on the test server, dropped afterwards: the URL of a database of its own."""
    server = postgres_server()
    schema = f"test_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield with_search_path(server, schema)
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await admin.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, db_path: Path) -> str:
    """The URL of a fresh database: a SQLite file, or a PostgreSQL schema of its own."""
    if request.param == "sqlite":
        return f"sqlite:///{db_path}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
async def open_service(store_url: str, clock: FakeClock) -> AsyncIterator[ServiceFactory]:
    """Open services on the test's database; every store opened is closed at the end. Two services on
    one database stand for two bot processes."""
    stores: list[MatchStore] = []

    async def factory(seed: int = 1, **kwargs: object) -> Service:
        store = await open_store(store_url)
        stores.append(store)
        return Service(store, registry=registry, now=clock, rng=random.Random(seed), **kwargs)  # type: ignore[arg-type]

    yield factory
    for store in stores:
        await store.close()


@pytest.fixture
async def service(open_service: ServiceFactory) -> Service:
    return await open_service()
