"""One shard process of the multi-process test: a service owning one of two shards, running its turn clock,
that plays the part of a plan the test hands it, at the same moment as the other process.

Usage: python -m tests.service.shard_worker DATABASE_URL SHARD START_TIME. The protocol, one line each way:

    worker: ready            the service is open and its clock runs (the clock reads START_TIME)
    test:   <plan as JSON>   {"moves": [[match, challenger]], "aborts": [[match, user]],
                              "joins": [[lobby, user]], "resigns": [[match, user]]}
    worker: set
    test:   go               (sent to both processes: they play their plans at once)
    worker: <results JSON>   what each call did (see `run_plan`)
    test:   advance SECONDS  the clock jumps; the clock task looks at the deadlines again
    worker: advanced
    test:   stop
    worker: <events JSON>    {"timed_out": [match ids], "expired": [challenge ids]}, fired by this process
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from typing import Any

from bot.service import Service
from bot.service.ai import AIRunner
from bot.service.errors import ServiceError
from bot.service.records import ChallengeExpired, Event, TimedOut
from bot.service.shards import Shards
from bot.service.store import open_store
from tests.service.conftest import FakeClock
from tests.service.tinygames import registry

SHARD_COUNT = 2


def move_for(match_id: int, ply: int) -> str:
    """The move both processes choose in a position: the same in each, so they race for it."""
    return "2" if (match_id + ply) % 3 == 0 else "1"


async def outcome(call: Any) -> str:
    """The name of what an awaited service call returned or raised (a service error, not a crash)."""
    try:
        return type(await call).__name__
    except ServiceError as error:
        return type(error).__name__


async def play_match(
    service: Service, match_id: int, challenger: int, applied: list[list[int]], refused: list[str]
) -> str:
    """Race the other process for every ply of a match until it ends; append each ply this process applied
    (chosen and forced), and the error of each move refused. Returns what the first move, at ply 0, which
    both processes try, did here."""

    pause = random.Random(f"{service.shards}:{match_id}")

    async def attempt(user: int, ply: int) -> str:
        await asyncio.sleep(pause.uniform(0, 0.01))  # so that either process may be first
        try:
            played = await service.matches.play(match_id, user, move_for(match_id, ply), expected_ply=ply)
        except ServiceError as error:
            refused.append(type(error).__name__)
            return type(error).__name__
        applied.extend([match_id, move.ply] for move in (played.move, *played.forced))
        return "Played"

    first = await attempt(challenger, 0)
    while (view := await service.matches.get(match_id)).is_active:
        assert view.user_to_move is not None
        await attempt(view.user_to_move, view.ply)
    return first


async def run_plan(service: Service, plan: dict[str, list[list[int]]]) -> dict[str, Any]:
    """Play every part of the plan at once: moves, abort votes, lobby joins, resignations."""
    applied: list[list[int]] = []
    refused: list[str] = []
    moves = [play_match(service, m, user, applied, refused) for m, user in plan["moves"]]
    aborts = [outcome(service.agreements.request_abort(m, user)) for m, user in plan["aborts"]]
    joins = [outcome(service.lobbies.join(lobby, user)) for lobby, user in plan["joins"]]
    resigns = [outcome(service.matches.resign(m, user)) for m, user in plan["resigns"]]
    results = await asyncio.gather(*moves, *aborts, *joins, *resigns)
    firsts, rest = results[: len(moves)], results[len(moves) :]
    votes, rest = rest[: len(aborts)], rest[len(aborts) :]
    joined, resigned = rest[: len(joins)], rest[len(joins) :]
    return {
        "applied": applied,
        "refused": refused,
        "first": firsts,
        "aborts": votes,
        "joins": joined,
        "resigns": resigned,
    }


async def read_line() -> str:
    line: str = await asyncio.to_thread(sys.stdin.readline)
    return line.strip()


def say(line: str) -> None:
    print(line, flush=True)


async def run(url: str, shard: int, start: float) -> None:
    clock = FakeClock(start)  # time stands still until the test moves it: both processes agree
    shards = Shards(SHARD_COUNT, frozenset({shard}))
    service = Service(
        await open_store(url), registry=registry, now=clock, rng=random.Random(shard), shards=shards
    )
    fired: list[Event] = []

    async def on_event(event: Event) -> None:
        fired.append(event)

    try:  # a worker that fails must exit (closing the store), failing the test
        await service.start(on_event, ai=AIRunner(1), max_sleep=1.0)
        say("ready")
        plan = json.loads(await read_line())
        say("set")
        if await read_line() != "go":
            raise SystemExit("expected go")
        say(json.dumps(await run_plan(service, plan)))
        command, seconds = (await read_line()).split()
        if command != "advance":
            raise SystemExit("expected advance")
        clock.advance(float(seconds))
        service.heard()
        say("advanced")
        if await read_line() != "stop":
            raise SystemExit("expected stop")
    finally:
        await service.close()
    timed_out = [e.match_id for e in fired if isinstance(e, TimedOut)]
    expired = [e.challenge.id for e in fired if isinstance(e, ChallengeExpired)]
    say(json.dumps({"timed_out": timed_out, "expired": expired}))


if __name__ == "__main__":
    asyncio.run(run(sys.argv[1], int(sys.argv[2]), float(sys.argv[3])))
