"""Start-up loads the matches that are not over in batches (issue 26, "start-up flat"): the store is read in a
bounded number of queries however many matches run, and every damaged one is still set aside."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from bot.service import Service
from bot.service.matches import MatchService
from bot.service.store import DamagedRow, PostgresStore, SqliteStore
from tests.service.conftest import FakeClock, ServiceFactory
from tests.service.helpers import start_match
from tests.service.test_bad_rows import damage
from tests.service.tinygames import registry

MATCHES = 30


def count_reads(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Count the calls to both stores' one-match and many-match reads."""
    calls: Counter[str] = Counter()

    def counted(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        async def read(self: object, *args: Any) -> Any:
            calls[name] += 1
            return await method(self, *args)

        return read

    for store in (SqliteStore, PostgresStore):
        for name in ("get_match", "get_matches"):
            monkeypatch.setattr(store, name, counted(name, getattr(store, name)))
    return calls


@pytest.mark.parametrize(("batch", "queries"), [(MatchService.LOAD_BATCH, 1), (7, 5)])
async def test_start_up_reads_the_matches_in_batches_and_sets_aside_the_damaged(
    open_service: ServiceFactory,
    store_url: str,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    batch: int,
    queries: int,
) -> None:
    first = await open_service()
    ids = [
        (await start_match(first, challenger=1000 + i, opponent=2000 + i, channel=3000 + i)).id
        for i in range(MATCHES)
    ]
    bad_row, bad_snapshot, gone = ids[3], ids[-1], max(ids) + 1000
    await damage(
        store_url,
        f"UPDATE matches SET turn_timeout = -5 WHERE id = {bad_row}",
        f"UPDATE matches SET snapshot = '{{}}' WHERE id = {bad_snapshot}",
    )
    listed = first.store.unsettled_match_ids

    async def with_one_gone() -> list[int]:  # an id listed but not stored (deleted since) is skipped
        return [*(await listed())[:10], gone, *(await listed())[10:]]

    for store in (SqliteStore, PostgresStore):
        monkeypatch.setattr(store, "unsettled_match_ids", lambda self: with_one_gone())
    monkeypatch.setattr(MatchService, "LOAD_BATCH", batch)
    calls = count_reads(monkeypatch)

    restarted = await Service.open(store_url, registry=registry, now=clock)
    try:
        assert restarted.quarantined == [bad_row, bad_snapshot]
        assert calls == {"get_matches": queries}, "no read per match, however many run"
        assert sorted(await restarted.store.quarantined_match_ids()) == [bad_row, bad_snapshot]
        for match_id in ids:
            if match_id not in (bad_row, bad_snapshot):
                await restarted.matches.get(match_id)  # the others load and play on
    finally:
        await restarted.close()


async def test_get_matches_reads_each_match_as_get_match_does(service: Service, store_url: str) -> None:
    """A record per stored id, equal to the one-match read; a damaged row as its DamagedRow, the batch
    unharmed; ids not stored left out."""
    ids = [(await start_match(service, challenger=1000 + i, channel=3000 + i)).id for i in range(3)]
    await damage(store_url, f"UPDATE match_seats SET seat = 5 WHERE match_id = {ids[1]} AND seat = 1")
    got = await service.store.get_matches([*ids, max(ids) + 1000])
    assert sorted(got) == ids
    damaged = got[ids[1]]
    assert isinstance(damaged, DamagedRow) and damaged.match_id == ids[1] and "seat" in damaged.reason
    for match_id in (ids[0], ids[2]):
        assert got[match_id] == await service.store.get_match(match_id)
    assert await service.store.get_matches([]) == {}
