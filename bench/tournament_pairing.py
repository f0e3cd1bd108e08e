"""Tournament benchmark (issue 29): pairing a 1,000-player Swiss round, a 200-player arena pairing again
as games end, and the standings of 1,000 players.

Targets on the 2-core test machine: a Swiss round paired in <= 1 s; standings of 1,000 players in <= 50 ms;
the arena keeps up (pairings per second far above the rate games end). Times are wall-clock and CPU
(process time, the fairer figure on a busy machine); each Swiss round is timed twice: the pairing alone
(`swiss.pair`) and the whole state-machine step that opens the round (history, pairing, records).

    python bench/tournament_pairing.py
    python bench/tournament_pairing.py --players 1000 --rounds 9 --arena-players 200 --arena-minutes 180
"""

from __future__ import annotations

import argparse
import heapq
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.service.tournaments import lifecycle as lc  # noqa: E402
from bot.service.tournaments import swiss  # noqa: E402
from bot.service.tournaments.model import Format, Result, Settings, Status, Tournament  # noqa: E402
from bot.service.tournaments.standings import compute  # noqa: E402

RESULTS = (Result((1.0, 0.0)), Result((0.5, 0.5)), Result((0.0, 1.0)))


def timed(call: Callable[[], Any]) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    value = call()
    return value, time.perf_counter() - wall, time.process_time() - cpu


def entrants(t: Tournament) -> list[swiss.Entrant]:
    """The field as the pairing sees it (what the state machine builds), for timing the pairing alone."""
    history = lc._history(t)  # the state machine's own view of the games
    return [
        swiss.Entrant(
            p.user_id,
            p.rating,
            p.number,
            history[p.user_id].score,
            tuple(history[p.user_id].colours),
            frozenset(history[p.user_id].met),
            history[p.user_id].byes,
        )
        for p in t.players
        if p.active
    ]


def swiss_bench(players: int, rounds: int, rng: random.Random) -> Tournament:
    t = lc.create(1, 1, 1, 1, Settings("paint", Format.SWISS, rounds=rounds), at=0.0)
    for n in range(players):
        t = lc.step(t, lc.Join(10_000 + n, rng.gauss(1500, 250), at=0.0)).tournament
    print(f"Swiss, {players} players, {rounds} rounds (target: a round paired in <= 1 s)")
    print("  round  pair wall  pair cpu  step wall  step cpu  colour>1  floaters")
    match_ids = iter(range(1, 10**9))
    start: lc.Event = lc.Start(at=0.0)
    for number in range(1, rounds + 1):
        field = entrants(t) if number > 1 else None
        pair_wall = pair_cpu = 0.0
        if field is not None:
            _, pair_wall, pair_cpu = timed(lambda field=field: swiss.pair(field))
        step, step_wall, step_cpu = timed(lambda event=start, t=t: lc.step(t, event))
        t = step.tournament
        opened = [a for a in step.actions if isinstance(a, lc.OpenMatch)]
        for action in opened:
            t = lc.step(t, lc.MatchOpened(action.game, next(match_ids))).tournament
        scores = {e.id: e.score for e in entrants(t)}
        floaters = sum(1 for a in opened if scores[a.seats[0]] != scores[a.seats[1]])
        over = sum(1 for e in entrants(t) if abs(sum(e.colours)) > 1)
        print(
            f"  {number:5d}  {pair_wall:8.3f}s  {pair_cpu:7.3f}s  {step_wall:8.3f}s  {step_cpu:7.3f}s"
            f"  {over:8d}  {floaters:8d}"
        )
        running = [g for g in t.round_games(number) if g.result is None]
        for game in running[:-1]:
            assert game.match_id is not None
            t = lc.step(t, lc.MatchEnded(game.match_id, rng.choice(RESULTS), at=1.0)).tournament
        last = running[-1]
        assert last.match_id is not None
        start = lc.MatchEnded(last.match_id, rng.choice(RESULTS), at=2.0)
    t = lc.step(t, start).tournament
    assert t.status is Status.FINISHED
    return t


def standings_bench(t: Tournament) -> None:
    runs = [timed(lambda: compute(t)) for _ in range(7)]
    wall = [run[1] for run in runs]
    cpu = [run[2] for run in runs]
    print(
        f"Standings of {len(t.players)} players, {len(t.games)} games (target <= 50 ms): "
        f"wall best {min(wall) * 1000:.1f} ms, median {statistics.median(wall) * 1000:.1f} ms; "
        f"CPU best {min(cpu) * 1000:.1f} ms, median {statistics.median(cpu) * 1000:.1f} ms"
    )


def arena_bench(players: int, minutes: int, rng: random.Random) -> None:
    duration = minutes * 60
    t = lc.create(2, 1, 1, 1, Settings("paint", Format.ARENA, duration_s=duration), at=0.0)
    for n in range(players):
        t = lc.step(t, lc.Join(20_000 + n, rng.gauss(1500, 250), at=0.0)).tournament
    ids = iter(range(1, 10**9))
    clock: list[tuple[float, int]] = []
    busy_cpu = 0.0
    steps = 0
    pairings = 0
    worst = 0.0

    def carry(step: lc.Step, now: float) -> Tournament:
        nonlocal pairings
        current = step.tournament
        for action in step.actions:
            if isinstance(action, lc.OpenMatch):
                match_id = next(ids)
                current = lc.step(current, lc.MatchOpened(action.game, match_id)).tournament
                heapq.heappush(clock, (now + rng.uniform(120, 900), match_id))
                pairings += 1
        return current

    step, _, cpu = timed(lambda: lc.step(t, lc.Start(at=0.0)))
    t = carry(step, 0.0)
    while clock:
        now, match_id = heapq.heappop(clock)
        if now >= duration:
            break
        event = lc.MatchEnded(match_id, rng.choice(RESULTS), at=now)
        step, wall, cpu = timed(lambda event=event, t=t: lc.step(t, event))
        busy_cpu += cpu
        steps += 1
        worst = max(worst, wall)
        t = carry(step, now)
    games = sum(1 for g in t.games if g.result is not None)
    print(
        f"Arena, {players} players, {minutes} simulated minutes: {games} games ended, {pairings} pairings; "
        f"a game's end (result + pairing again) took {busy_cpu / max(1, steps) * 1000:.1f} ms CPU on "
        f"average, worst {worst * 1000:.1f} ms wall: {steps / max(busy_cpu, 1e-9):.0f} results with "
        f"pairings per CPU second"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--arena-players", type=int, default=200)
    parser.add_argument("--arena-minutes", type=int, default=180)
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (wall time grows with it)")
    finished = swiss_bench(args.players, args.rounds, rng)
    standings_bench(finished)
    arena_bench(args.arena_players, args.arena_minutes, rng)


if __name__ == "__main__":
    main()
