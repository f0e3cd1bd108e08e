"""The tournament host the crash test kills: runs round 1 of a 4-player Swiss and dies by SIGKILL at a set
point of round 2's opening.

Usage: python -m tests.service.tournament_crash_worker DATABASE_URL POINT. Prints "tournament <id>", then
kills itself with SIGKILL at POINT: ``saved`` (round 2 and its actions committed, none carried out) or
``opened`` (round 2's first match inserted, its opening not yet recorded in the tournament).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import signal
import sys
from typing import Any

from bot.service import Service
from bot.service.store import open_store
from bot.service.tournaments import lifecycle
from bot.service.tournaments.model import Format, Settings, Tournament
from tests.service.tinygames import registry

GUILD = 1 << 22


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


async def run(url: str, point: str) -> None:
    store = await open_store(url)
    service = Service(store, registry=registry, rng=random.Random(0))
    host = service.tournaments
    channels = itertools.count(10_000)

    async def channel_for(t: Tournament, action: lifecycle.OpenMatch) -> int:
        return next(channels)

    async def announce(t: Tournament, action: lifecycle.Action) -> None:
        return None

    host.channel_for, host.announce = channel_for, announce
    save, start = store.save_tournament, service.matches.start

    async def save_then_die(*args: Any, **kwargs: Any) -> Any:
        items = await save(*args, **kwargs)
        if point == "saved" and any(
            isinstance(a, dict) and a.get("_t") == "OpenMatch" and a.get("round") == 2 for a in args[3]
        ):
            die()
        return items

    async def start_then_die(*args: Any, **kwargs: Any) -> Any:
        view = await start(*args, **kwargs)
        game = kwargs.get("tournament_game")
        if point == "opened" and game is not None and game[1] > 2:  # games 1-2 are round 1's
            die()
        return view

    store.save_tournament = save_then_die  # type: ignore[method-assign]
    service.matches.start = start_then_die  # type: ignore[method-assign]
    t = await host.create(GUILD, 1, 1, Settings("race", Format.SWISS, {"target": 3}, rounds=2))
    print("tournament", t.id, flush=True)
    for user in (101, 102, 103, 104):
        await host.join(t.id, user)
    t = await host.begin(t.id, 1)
    for game in t.running_games():
        assert game.match_id is not None
        first, second = game.seats
        await service.matches.play(game.match_id, first, "1")
        await service.matches.play(game.match_id, second, "2")
        await host.match_ended(game.match_id)
    while host._tasks:  # the match listener's reports, which may be the ones opening round 2
        await next(iter(host._tasks))
    await store.close()
    print("not killed", flush=True)


if __name__ == "__main__":
    asyncio.run(run(sys.argv[1], sys.argv[2]))
