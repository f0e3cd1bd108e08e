"""Fixtures for the service tests: a fake clock, a file database in tmp_path, and a service over the tiny
test games (plus the real registry for real games)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.service import Service
from bot.service.store import SqliteStore
from tests.service.tinygames import registry


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


@pytest.fixture
async def open_service(db_path: Path, clock: FakeClock) -> AsyncIterator[ServiceFactory]:
    """Open services on the test's database file; every store opened is closed at the end."""
    stores: list[SqliteStore] = []

    async def factory(seed: int = 1, **kwargs: object) -> Service:
        store = await SqliteStore.open(str(db_path))
        stores.append(store)
        return Service(store, registry=registry, now=clock, rng=random.Random(seed), **kwargs)  # type: ignore[arg-type]

    yield factory
    for store in stores:
        await store.close()


@pytest.fixture
async def service(open_service: ServiceFactory) -> Service:
    return await open_service()
