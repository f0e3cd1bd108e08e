"""Two shard processes on one PostgreSQL database play many matches at once: moves raced for by both, abort
votes cast in both, lobbies joined from both, rated matches sharing a player ended in both, and deadlines in
the guilds of both shards. Nothing is applied twice, nothing is lost, every deadline fires once, in the
process that owns its guild, and check-db finds the database consistent.

The processes are `tests.service.shard_worker`; each waits at a barrier ("set", then "go") so that both play
their plans at the same moment.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.service import Service
from bot.service.checkdb import check_database
from bot.service.records import ChallengeStatus, MatchStatus, RatingChange
from bot.service.shards import Shards
from bot.service.store import MatchStore, open_store
from games.base import Termination
from tests.service.conftest import FakeClock
from tests.service.helpers import everyone_moves, start_match
from tests.service.shard_worker import SHARD_COUNT
from tests.service.tinygames import registry

ROOT = Path(__file__).resolve().parents[2]
GUILDS = [(n << 22) + 7 for n in range(2, 10)]
"""Guild ids on shard 0, 1, 0, 1, ... of two."""
SHARED_PLAYER = 5
"""The player of every rated match that ends at once."""
LINE_TIMEOUT = 60.0


class Worker:
    """A shard process and its line protocol (see tests/service/shard_worker.py)."""

    def __init__(self, url: str, shard: int, start: float) -> None:
        self.shard = shard
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.service.shard_worker", url, str(shard), str(start)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    async def read(self) -> str:
        assert self.process.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(self.process.stdout.readline), LINE_TIMEOUT)
        assert line, f"shard worker {self.shard} exited with {self.process.wait()}"
        return line.strip()

    async def expect(self, word: str) -> None:
        assert await self.read() == word

    def end(self) -> None:
        """Wait for the process to exit (closing its input stops one still waiting for a line); kill it
        if it does not."""
        try:
            self.process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.communicate()


@dataclass
class Plan:
    """What the test sets up, and each process's share of the concurrent work."""

    moves: list[int] = field(default_factory=list)
    aborts: list[int] = field(default_factory=list)
    lobbies: dict[int, list[int]] = field(default_factory=dict)
    """Each lobby's would-be joiners."""
    rated: list[int] = field(default_factory=list)
    timed: dict[int, int] = field(default_factory=dict)
    """The matches left to time out, with their guilds."""
    challenges: dict[int, int] = field(default_factory=dict)
    """The challenges left to expire, with their guilds."""
    parts: list[dict[str, list[list[int]]]] = field(
        default_factory=lambda: [{"moves": [], "aborts": [], "joins": [], "resigns": []} for _ in range(2)]
    )


async def set_up(service: Service) -> Plan:
    """Matches, lobbies and challenges in the guilds of both shards, split between the two processes."""
    users: Iterator[int] = itertools.count(100)
    channels: Iterator[int] = itertools.count(1)
    plan = Plan()

    async def match(
        guild: int, options: dict[str, object] | None = None, *, challenger: int = 0
    ) -> tuple[int, int, int]:
        one, two = challenger or next(users), next(users)
        view = await start_match(
            service, options=options, challenger=one, opponent=two, guild=guild, channel=next(channels)
        )
        return view.id, one, two

    for i in range(20):  # both processes play every ply of these, racing for each
        match_id, challenger, _ = await match(GUILDS[i % 8], {"target": 20})
        plan.moves.append(match_id)
        for part in plan.parts:
            part["moves"].append([match_id, challenger])
    for i in range(10):  # each player votes to abort in a different process (once both have moved, a vote)
        match_id, one, two = await match(GUILDS[i % 8])
        await everyone_moves(service, match_id)
        plan.aborts.append(match_id)
        plan.parts[0]["aborts"].append([match_id, one])
        plan.parts[1]["aborts"].append([match_id, two])
    for i in range(6):  # four seats, the host's taken; eight join, four from each process
        lobby = await service.lobbies.create(
            "hoard", {}, next(users), guild_id=GUILDS[i % 8], channel_id=next(channels), max_players=4
        )
        plan.lobbies[lobby.id] = [next(users) for _ in range(8)]
        for j, user in enumerate(plan.lobbies[lobby.id]):
            plan.parts[j % 2]["joins"].append([lobby.id, user])
    for i in range(12):  # rated, all with the shared player, ended at once by the other player's resignation
        match_id, _, two = await match(GUILDS[i % 8], challenger=SHARED_PLAYER)
        await everyone_moves(service, match_id)  # before it, a resignation would abort unrated
        plan.rated.append(match_id)
        plan.parts[i % 2]["resigns"].append([match_id, two])
    for i in range(10):  # a one-minute turn in every guild, left to run out once both have moved
        match_id = (await match(GUILDS[i % 8], {"turn_timeout": 1}))[0]
        await everyone_moves(service, match_id)  # before it, a timeout would abort
        plan.timed[match_id] = GUILDS[i % 8]
    for i in range(4):  # never answered
        challenge = await service.challenges.create(
            "race", {}, next(users), next(users), guild_id=GUILDS[i], channel_id=next(channels)
        )
        plan.challenges[challenge.id] = GUILDS[i]
    return plan


async def until(condition: Callable[[], Any], seconds: float = 30.0) -> None:
    async def poll() -> None:
        while not await condition():
            await asyncio.sleep(0.05)

    await asyncio.wait_for(poll(), seconds)


def one_chain(changes: list[RatingChange]) -> bool:
    """Whether `changes` follow one another: each starts from the rating the one before it left, so none
    was computed from a rating another had already replaced."""
    by_start = {c.mu_before: c for c in changes}
    firsts = [c for c in changes if c.mu_before not in {d.mu_after for d in changes}]
    if len(by_start) != len(changes) or len(firsts) != 1:
        return False
    length, change = 1, firsts[0]
    while change.mu_after in by_start:
        length, change = length + 1, by_start[change.mu_after]
    return length == len(changes)


Results = list[dict[str, Any]]
"""What each process's plan did (see `run_plan` in the worker)."""


async def check_moves(store: MatchStore, plan: Plan, results: Results) -> None:
    """Both processes raced for every ply: each was applied once, by one of them, and none is missing."""
    applied = Counter((m, ply) for r in results for m, ply in r["applied"])
    assert max(applied.values()) == 1, "a ply applied twice"
    for match_id in plan.moves:
        row = await store.get_match(match_id)
        assert row is not None and row.status is MatchStatus.FINISHED
        assert sorted(p for m, p in applied if m == match_id) == list(range(row.ply))
        assert len(await store.moves(match_id)) == row.ply
    refused = Counter(error for r in results for error in r["refused"])
    assert set(refused) <= {"StaleMove", "NotYourTurnError", "MatchOver"}, "a refusal other than a conflict"
    for firsts in zip(*(r["first"] for r in results), strict=True):
        assert sorted(firsts) == ["Played", "StaleMove"], "the first move, tried by both, applied once"


async def check_votes(service: Service, plan: Plan, results: Results) -> None:
    """The two abort votes of each match, cast at once in two processes, both counted: every match aborted."""
    for votes in zip(*(r["aborts"] for r in results), strict=True):
        assert sorted(votes) == ["AbortRequested", "Finished"]
    assert [(await service.matches.get(m)).status for m in plan.aborts] == ["aborted"] * len(plan.aborts)


async def check_lobbies(service: Service, plan: Plan, results: Results) -> None:
    """Three of each lobby's eight joiners are in, the others were told it is full; nobody else is in."""
    said = {
        (lobby, user): answer
        for r, part in zip(results, plan.parts, strict=True)
        for (lobby, user), answer in zip(part["joins"], r["joins"], strict=True)
    }
    assert set(said.values()) == {"Lobby", "LobbyFull"}
    for lobby_id, joiners in plan.lobbies.items():
        lobby = await service.lobbies.get(lobby_id)
        ins = [u for u in joiners if said[lobby_id, u] == "Lobby"]
        assert len(ins) == 3
        assert sorted(m.user_id for m in lobby.members) == sorted([lobby.host_id, *ins])


async def check_ratings(store: MatchStore, plan: Plan, results: Results) -> None:
    """The shared player's rated matches, ended at once in two processes, each counted once, in a chain."""
    assert all(answer == "Finished" for r in results for answer in r["resigns"])
    key = f"user:{SHARED_PLAYER}"
    [shared] = (await store.get_ratings("race", [key])).values()
    assert shared.played == len(plan.rated)
    changes = [c for m in plan.rated for c in await store.rating_changes(m) if c.player_key == key]
    assert len(changes) == len(plan.rated) and one_chain(changes)


async def check_deadlines(store: MatchStore, plan: Plan, fired: Results) -> None:
    """Each turn deadline and challenge expiry fired once, in the process owning its guild."""
    for shard, events in enumerate(fired):
        owner = Shards(SHARD_COUNT, frozenset({shard}))
        assert sorted(events["timed_out"]) == sorted(m for m, g in plan.timed.items() if owner.owns(g))
        assert sorted(events["expired"]) == sorted(c for c, g in plan.challenges.items() if owner.owns(g))
    for match_id in plan.timed:
        row = await store.get_match(match_id)
        assert row is not None and row.outcome is not None
        assert row.outcome.termination is Termination.TIMEOUT and row.ply == len(row.seats)


async def test_two_shard_processes_play_many_matches_at_once(postgres_url: str, clock: FakeClock) -> None:
    store = await open_store(postgres_url)
    service = Service(store, registry=registry, now=clock)
    workers: list[Worker] = []
    try:
        plan = await set_up(service)
        workers = [Worker(postgres_url, shard, clock()) for shard in range(SHARD_COUNT)]
        for worker, part in zip(workers, plan.parts, strict=True):
            await worker.expect("ready")
            worker.send(json.dumps(part))
            await worker.expect("set")
        for worker in workers:
            worker.send("go")
        results = [json.loads(await worker.read()) for worker in workers]
        await check_moves(store, plan, results)
        await check_votes(service, plan, results)
        await check_lobbies(service, plan, results)
        await check_ratings(store, plan, results)

        for worker in workers:  # past every turn deadline and challenge expiry
            worker.send(f"advance {service.challenges.ttl + 60}")
            await worker.expect("advanced")

        async def all_fired() -> bool:
            matches = [await service.matches.get(m) for m in plan.timed]
            challenges = [await service.challenges.get(c) for c in plan.challenges]
            return all(m.status is MatchStatus.FINISHED for m in matches) and all(
                c.status is ChallengeStatus.EXPIRED for c in challenges
            )

        await until(all_fired)
        await asyncio.sleep(0.5)  # anything fired twice would be fired now
        for worker in workers:
            worker.send("stop")
        fired = [json.loads(await worker.read()) for worker in workers]
        await check_deadlines(store, plan, fired)
    finally:
        for worker in workers:
            worker.end()
        await store.close()
    assert [w.process.returncode for w in workers] == [0] * SHARD_COUNT
    assert await check_database(postgres_url, registry=registry) == []
