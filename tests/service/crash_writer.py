"""The writer the crash test kills: plays bursts of moves on many matches and prints each committed ply.

Usage: python -m tests.service.crash_writer DATABASE_URL MATCHES. Prints "ready", then "<match id> <ply>"
after each `play()` has returned (so the move is committed), flushing every line.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.service import Service
from bot.service.store import open_store
from tests.service.tinygames import registry


async def run(url: str, count: int) -> None:
    store = await open_store(url)
    try:
        await play(Service(store, registry=registry, rng=random.Random(0)), count)
    finally:  # a writer that fails must exit (an open store's threads would keep it alive), failing the test
        await store.close()


async def play(service: Service, count: int) -> None:
    to_move: dict[int, int] = {}
    for i in range(count):
        challenge = await service.challenges.create(
            "race",
            {"target": 1000, "first": "challenger"},
            2 * i + 1,
            2 * i + 2,
            guild_id=1,
            channel_id=i + 1,
        )
        match = await service.challenges.accept(challenge.id, 2 * i + 2)
        to_move[match.id] = 2 * i + 1
    print("ready", flush=True)

    async def burst(match_id: int) -> None:
        while True:
            played = await service.matches.play(match_id, to_move[match_id], "1")
            print(f"{match_id} {played.match.ply}", flush=True)
            assert played.match.user_to_move is not None
            to_move[match_id] = played.match.user_to_move

    await asyncio.gather(*(burst(m) for m in to_move))


if __name__ == "__main__":
    asyncio.run(run(sys.argv[1], int(sys.argv[2])))
