"""Calibrate the bot's eight levels (games/ai/levels.py; each game's ladder is its plugin's `levels`) by
self-play, and the three old levels against them.

Steps:

  play   Games between levels, in every game given: every neighbouring pair of the eight (1-2, ..., 7-8)
         --games times, then the old levels against the new ones nearest them (`OLD_PAIRS`) --easy-games,
         --medium-games and --hard-games times (they think 0.2 s, 1 s and 3 s a move, far more than the
         low levels). Game k of a pair starts from the seeded start k // 2 with the seats swapped on odd k,
         so every start is played from both sides; each of the eight levels searches its whole iteration
         budget (the bot's wall-clock cap, for a busy machine, is left out, so that a loaded machine measures
         the levels the bot plays; the old levels think for their time). Results go to a JSON lines file,
         a game a line, written as each game ends; a rerun skips the games already there (played with the
         same level settings and the same AI code), so a cut-off run resumes. The eight levels' pairs come
         first, then easy's, medium's and hard's, each phase round by round, so a run stopped by
         --core-minutes loses the anchors first and leaves the pairs of a phase with about as many games.
         Standard library (and the game code) only: the step for a big machine.
  plan   The schedule and its estimated cost (from `COST`, measured here).
  think  Thinking time per move of every level on this machine: --games self-play games per level and
         game, the wall-clock and CPU time of each move (a level must stay under 3 s at p99).
  fit    Ratings from the results (openskill's Plackett-Luce, the model of bot/service/ratings.py, fitted
         over many shuffled passes), anchored so that level 2 shows what a new player shows (1500); writes
         bench/baselines/levels_<game>.md (level, settings, shown rating, thinking time, games per pair,
         scores with Wilson 95% intervals) and the ratings the bot shows and keeps: each game's
         calibration file (`GamePlugin.levels.calibration`, games/<id>/levels.json for the built-in games).
         Needs openskill (the development machine).
  rekey  After a change that makes a game's AI faster and plays the same moves: replay the shortest game
         (--check-per-pair) of each pair's games of each earlier code version with today's code; where it is
         the same game, that pair's games of that version (the eight levels', today's settings) are current
         again. The old levels think for their time, so theirs stay stale; so does a group played otherwise.
  respace  Settings for levels 2-7 spaced evenly in rating between levels 1 and 8, to put in the game's
         ladder (games/<id>/levels.py) before the next pass: on the curve of the last fit's ratings, or with
         --from-games on a curve fitted to every game played with today's code, whatever ladder it was
         played under (each player named by its settings; the curve made to rise with the budget).

    python bench/calibrate_levels.py plan                                   # the schedule and its cost
    python bench/calibrate_levels.py play --jobs 16 --medium-games 6        # the big run (16 cores, ~12 min)
    python bench/calibrate_levels.py think --games 2 --jobs 1               # thinking times here
    python bench/calibrate_levels.py fit                                    # tables and ratings
    python bench/calibrate_levels.py respace --from-games --game tilingking # the next pass's ladder
    python bench/calibrate_levels.py play --games 4 --game paint --pairs 1-2,2-3 --jobs 2 --out /tmp/r.jsonl
"""

from __future__ import annotations

import argparse
import bisect
import functools
import hashlib
import importlib
import itertools
import json
import math
import multiprocessing
import os
import random
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from anywhere, installed or not

from ai_strength import wilson  # this folder is on the path: run as a script, or by the tests

import games
from games.ai import analyse
from games.ai.knowledge import Knowledge, knowledge_for
from games.ai.levels import (
    CAP_SECONDS,
    LEVEL_IDS,
    NOMINAL_ANCHOR,
    OLD_LEVEL_IDS,
    Level,
    Rung,
    calibrated,
    level_rating,
    level_settings,
)

GAMES = tuple(
    g for g, p in games.PLUGINS.items() if p.levels is not None and p.levels.calibration is not None
)
"""The games calibrated by default: every registered game whose plugin keeps a calibration file."""
ROOT = Path(__file__).resolve().parent.parent
BASELINES = ROOT / "bench" / "baselines"
RESULTS = BASELINES / "levels_results.jsonl"
THINK = BASELINES / "levels_think.json"
MAX_PLIES = 2000
"""A game this long counts as a draw."""

NEIGHBOURS: tuple[tuple[str, str], ...] = tuple(itertools.pairwise(LEVEL_IDS))
OLD_PAIRS: tuple[tuple[str, str], ...] = (("easy", "2"), ("medium", "8"), ("hard", "8"))
"""The old levels against the new ones nearest them (easy, weak and loose, near the low levels; medium
and hard, with 4 and 12 times level 8's thinking time, above the top)."""

COST: dict[str, tuple[float, float]] = {
    # (plies per game, CPU seconds per iteration) measured on the 2-core development machine, one core (the
    # strong levels' Paint games are longer: about 150 plies).
    "paintscape": (58, 1 / 15000),
    "paint": (100, 1 / 3300),
    "tilingking": (18, 1 / 1300),
}
"""What `plan` estimates the cost from."""


# ------------------------------------------------------------------------------------------------- play


@dataclass(frozen=True, slots=True)
class Job:
    """Game k of the pair (a, b) in a game: start k // 2, `a` in seat k % 2."""

    game: str
    a: str
    b: str
    k: int

    @property
    def key(self) -> str:
        """The game's identity: pair, k and both levels' settings (a result of other settings is stale)."""
        return record_key(self.game, self.a, self.b, self.k)


def record_key(game: str, a: str, b: str, k: int) -> str:
    return f"{game}:{a}:{b}:{k}:{settings_text(game, a)}:{settings_text(game, b)}:{levels_code(game, a, b)}"


def levels_code(game: str, *levels: str) -> str:
    """The digest of the code these levels play with (`code_version`; the book counts if one plays it)."""
    return code_version(game, with_data=any(level_settings(level, game).book for level in levels))


@functools.cache
def code_version(game: str, *, with_data: bool = True) -> str:
    """A digest of the code a game's levels play with (the search, the game's knowledge and rules): a result
    played with other code is stale, so a calibration never mixes two versions of the AI. The knowledge's
    data (an opening book) counts only `with_data`: for a game where a level that plays the book took part,
    so a new book leaves the other levels' games current."""
    rules = games.get(game)
    modules = ["games.ai.search", "games.ai.knowledge", type(rules).__module__, games.plugin(game).ai or ""]
    digest = hashlib.sha256()
    for name in modules:
        module = sys.modules.get(name) or (importlib.import_module(name) if name else None)
        source = getattr(module, "__file__", None)
        if source:
            digest.update(Path(source).read_bytes())
            for data in getattr(module, "DATA_FILES", ()) if with_data else ():  # an opening book
                path = Path(source).parent / data
                digest.update(path.read_bytes() if path.exists() else b"")
    return digest.hexdigest()[:12]


def pair_games(a: str, b: str, counts: dict[str, int]) -> int:
    """How many games a pair plays: `counts[old]` with an old level (they think 0.2 s, 1 s and 3 s a move,
    far more than the low levels), else `counts["games"]`."""
    for level in (Level.HARD.value, Level.MEDIUM.value, Level.EASY.value):
        if level in (a, b):
            return counts[level]
    return counts["games"]


def schedule(game_ids: Sequence[str], pairs: Sequence[tuple[str, str]], counts: dict[str, int]) -> list[Job]:
    """Every game to play: the eight levels' pairs first, then the old levels'; each round by round (both
    sides of start 0 of every pair, then of start 1...), the most expensive first within a round. A run cut
    off at any time leaves every pair of a phase with about as many games, the ladder before the anchors."""
    jobs = [
        Job(game, a, b, k) for game in game_ids for a, b in pairs for k in range(pair_games(a, b, counts))
    ]
    return sorted(jobs, key=lambda job: (phase(job), job.k // 2, -game_cost(job)))


def phase(job: Job) -> int:
    """0 for the eight levels' pairs, then 1, 2, 3 for the pairs with easy, medium, hard."""
    return max(
        (OLD_LEVEL_IDS.index(level) + 1 for level in (job.a, job.b) if level in OLD_LEVEL_IDS), default=0
    )


def move_cost(game: str, level: str) -> float:
    """The estimated CPU seconds of one move of a level (from `COST`)."""
    _, per_iteration = COST.get(game, (40, 1 / 2000))
    settings = level_settings(level, game)
    if settings.iterations is None:
        return settings.seconds
    return min(CAP_SECONDS, settings.iterations * per_iteration + 0.01)


def game_cost(job: Job) -> float:
    plies = COST.get(job.game, (40, 0.0))[0]
    return plies / 2 * (move_cost(job.game, job.a) + move_cost(job.game, job.b))


def play(job: Job) -> dict[str, Any]:
    """Play one game; its result as a JSON-able record (score of `a`: 1, 0.5 or 0; each move's thinking
    time by level, CPU and wall clock, in milliseconds). Each of the eight levels searches its whole
    iteration budget, without the wall-clock cap the bot adds for a busy machine: a calibration on a loaded
    machine would otherwise measure weaker levels than a quiet bot plays (the old levels think for their
    time, as they always did)."""
    rules = games.get(job.game)
    seat_a = job.k % 2
    levels = [job.b, job.b]
    levels[seat_a] = job.a
    state = rules.new(2, {}, job.k // 2)
    rng = random.Random(job.k * 7919 + 1)
    cpu: dict[str, list[int]] = {job.a: [], job.b: []}
    wall: dict[str, list[int]] = {job.a: [], job.b: []}
    plies = 0
    started = time.perf_counter()
    while plies < MAX_PLIES:
        seat = rules.to_move(state)
        if seat is None:
            break
        level = levels[seat]
        t0, c0 = time.perf_counter(), time.process_time()
        budget = level_settings(level, job.game).iterations  # None for the old, time-based levels
        move = analyse(rules, state, level=level, iterations=budget, seed=rng.randrange(1 << 30)).move
        cpu[level].append(round((time.process_time() - c0) * 1000))
        wall[level].append(round((time.perf_counter() - t0) * 1000))
        state = rules.apply(state, move)
        plies += 1
    outcome = rules.outcome(state)
    if outcome is None or outcome.is_draw:
        score = 0.5
    else:
        score = 1.0 / len(outcome.winners) if seat_a in outcome.winners else 0.0
    return {
        "key": job.key,
        "game": job.game,
        "a": job.a,
        "b": job.b,
        "k": job.k,
        "seat_a": seat_a,
        "score_a": score,
        "plies": plies,
        "seconds": round(time.perf_counter() - started, 3),
        "cpu_ms": cpu,
        "wall_ms": wall,
    }


def read_results(paths: Iterable[Path]) -> list[dict[str, Any]]:
    """The games in the results files (a game found twice counts once)."""
    found: dict[str, dict[str, Any]] = {}
    for path in paths:
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                record = json.loads(line)
                found[record["key"]] = record
    return list(found.values())


def current(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records played with the levels' current settings (the others are stale)."""
    return [r for r in records if r["key"] == record_key(r["game"], r["a"], r["b"], r["k"])]


def parse_pairs(text: str) -> list[tuple[str, str]]:
    """ "neighbours,old" or explicit pairs "1-2,easy-3"."""
    pairs: list[tuple[str, str]] = []
    for part in text.split(","):
        part = part.strip()
        if part == "neighbours":
            pairs.extend(NEIGHBOURS)
        elif part == "old":
            pairs.extend(OLD_PAIRS)
        elif part:
            a, _, b = part.partition("-")
            for level in (a, b):
                level_settings(level)  # ValueError on a typo
            pairs.append((a, b))
    return pairs


def counts(args: argparse.Namespace) -> dict[str, int]:
    return {
        "games": args.games,
        "easy": args.easy_games,
        "medium": args.medium_games,
        "hard": args.hard_games,
    }


def run_play(args: argparse.Namespace) -> None:
    jobs = schedule(args.game.split(","), parse_pairs(args.pairs), counts(args))
    out = Path(args.out)
    done = {r["key"] for r in read_results([out])}
    todo = [job for job in jobs if job.key not in done]
    estimate = sum(game_cost(job) for job in todo)
    print(f"{len(todo)} games to play ({len(jobs) - len(todo)} already in {out}); estimate "
          f"{estimate / 60:.0f} core-minutes at the development machine's speed", flush=True)  # fmt: skip
    out.parent.mkdir(parents=True, exist_ok=True)
    jobs_n = max(1, args.jobs)
    started = time.perf_counter()
    deadline = None if args.core_minutes is None else started + args.core_minutes * 60 / jobs_n
    cpu_total = 0.0
    pool = ProcessPoolExecutor(jobs_n)
    pending = {pool.submit(play, job) for job in todo}
    n = 0
    try:
        with out.open("a", encoding="utf-8") as sink:
            while pending:
                left = None if deadline is None else max(0.0, deadline - time.perf_counter())
                finished, pending = wait(pending, timeout=left, return_when=FIRST_COMPLETED)
                for future in finished:
                    record = future.result()
                    sink.write(json.dumps(record, separators=(",", ":")) + "\n")
                    sink.flush()
                    n += 1
                    cpu_total += sum(sum(v) for v in record["cpu_ms"].values()) / 1000
                    if n % 20 == 0 or n == len(todo):
                        print(f"{n}/{len(todo)} games, {time.perf_counter() - started:.0f} s, "
                              f"{cpu_total / 60:.1f} core-minutes thinking", flush=True)  # fmt: skip
                if deadline is not None and time.perf_counter() >= deadline and pending:
                    print(f"time is up: {n} games played, {len(pending)} left for a later run", flush=True)
                    break
    finally:
        # Waiting for a finished pool lets its manager thread end before the interpreter does (not waiting
        # printed "Bad file descriptor" at exit); games still running when time ran out are stopped.
        pool.shutdown(wait=not pending, cancel_futures=True)
        for child in multiprocessing.active_children():
            child.terminate()


def run_plan(args: argparse.Namespace) -> None:
    jobs = schedule(args.game.split(","), parse_pairs(args.pairs), counts(args))
    by_pair: dict[tuple[str, str, str], list[Job]] = defaultdict(list)
    for job in jobs:
        by_pair[job.game, job.a, job.b].append(job)
    total = 0.0
    for (game, a, b), group in sorted(by_pair.items()):
        cost = sum(game_cost(job) for job in group)
        total += cost
        print(f"{game:<11} {a:>6}-{b:<6} {len(group):>3} games {cost / 60:6.1f} core-minutes")
    print(f"{len(jobs)} games, about {total / 60:.0f} core-minutes at the development machine's speed")


# ------------------------------------------------------------------------------------------------ think


def think_job(args: tuple[str, str, int]) -> dict[str, Any]:
    game, level, k = args
    record = play(Job(game, level, level, k))
    return {
        "game": game,
        "level": level,
        "cpu_ms": record["cpu_ms"][level],
        "wall_ms": record["wall_ms"][level],
    }


def run_think(args: argparse.Namespace) -> None:
    levels = args.levels.split(",")
    tasks = [(game, level, k) for game in args.game.split(",") for level in levels for k in range(args.games)]
    times: dict[str, dict[str, dict[str, list[int]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(list))
    )
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        for found in pool.map(think_job, tasks):
            entry = times[found["game"]][found["level"]]
            entry["cpu_ms"].extend(found["cpu_ms"])
            entry["wall_ms"].extend(found["wall_ms"])
    summary = {
        game: {
            level: {
                "moves": len(t["wall_ms"]),
                "wall_mean_s": round(sum(t["wall_ms"]) / max(1, len(t["wall_ms"])) / 1000, 3),
                "wall_p99_s": percentile(t["wall_ms"], 0.99) / 1000,
                "wall_max_s": max(t["wall_ms"], default=0) / 1000,
                "cpu_p99_s": percentile(t["cpu_ms"], 0.99) / 1000,
                "settings": settings_text(game, level),
                "code": levels_code(game, level),
            }
            for level, t in by_level.items()
        }
        for game, by_level in times.items()
    }
    for game, by_level in summary.items():
        for level, s in by_level.items():
            print(
                f"{game:<11} level {level:<6} {s['moves']:>4} moves  wall mean {s['wall_mean_s']:.3f} s  p99 "
                f"{s['wall_p99_s']:.3f} s  max {s['wall_max_s']:.3f} s  cpu p99 {s['cpu_p99_s']:.3f} s"
            )
    if args.out:
        old = json.loads(Path(args.out).read_text(encoding="utf-8")) if Path(args.out).exists() else {}
        machine = (
            f"{args.machine or f'{os.cpu_count()} cores'}; self-play, {args.games} games per level and game, "
            f"{args.jobs} at a time, each level's whole budget"
        )
        if not isinstance(old.get("_machine"), dict):  # one text for every game, before a run per game
            old["_machine"] = dict.fromkeys(GAMES, old["_machine"]) if "_machine" in old else {}
        for game, by_level in summary.items():
            old.setdefault(game, {}).update(by_level)
            old["_machine"][game] = machine  # the games measured now; the others keep theirs
        Path(args.out).write_text(json.dumps(old, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def percentile(values: Sequence[int], q: float) -> int:
    """The q-quantile of the values (nearest rank); 0 for none."""
    if not values:
        return 0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


# -------------------------------------------------------------------------------------------------- fit


def fit_ratings(records: Sequence[dict[str, Any]], passes: int = 60, seed: int = 0) -> dict[str, float]:
    """Every level's skill (openskill mu) from the games: Plackett-Luce updates over the games in shuffled
    order, pass after pass, each pass starting from the last pass's mu with the settled sigma; the mean mu
    over the second half of the passes (online updates alone depend on the order of the games)."""
    from openskill.models import PlackettLuce

    from bot.service.ratings import SETTLED_SIGMA

    model = PlackettLuce()
    levels = sorted({r["a"] for r in records} | {r["b"] for r in records})
    mu = dict.fromkeys(levels, model.mu)
    sums = dict.fromkeys(levels, 0.0)
    counted = 0
    rng = random.Random(seed)
    order = list(records)
    for n in range(passes):
        rng.shuffle(order)
        current = {level: model.rating(mu=mu[level], sigma=SETTLED_SIGMA) for level in levels}
        for r in order:
            a, b = current[r["a"]], current[r["b"]]
            ranks = [1, 1] if r["score_a"] == 0.5 else ([1, 2] if r["score_a"] > 0.5 else [2, 1])
            [[a2], [b2]] = model.rate([[a], [b]], ranks=ranks)
            current[r["a"]], current[r["b"]] = a2, b2
        mu = {level: current[level].mu for level in levels}
        if n >= passes // 2:
            counted += 1
            for level in levels:
                sums[level] += mu[level]
    return {level: sums[level] / counted for level in levels}


def shown(mu: dict[str, float]) -> dict[str, int]:
    """The fitted skills as shown ratings, shifted so that level 2 shows `NOMINAL_ANCHOR`."""
    from bot.service.ratings import NEW_MU, POINTS_PER_MU

    anchor = mu.get("2", NEW_MU)
    return {level: math.floor(NOMINAL_ANCHOR + POINTS_PER_MU * (m - anchor) + 0.5) for level, m in mu.items()}


def settings_text(game: str, level: str) -> str:
    s = level_settings(level, game)
    if s.iterations is None:
        weak = ", weak knowledge" if s.weak else ""
        loose = f", temperature {s.temperature:g}" if s.temperature else ""
        return f"{s.seconds:g} s{weak}{loose}"
    book = ", opening book" if s.book and has_book(game) else ""
    return f"{s.iterations} it, overlook {s.overlook:.0%}, noise {s.noise:g}{book}"


@functools.cache
def has_book(game: str) -> bool:
    """Whether the game's knowledge has an opening book (a level that plays it is another player)."""
    return type(knowledge_for(game)).book_move is not Knowledge.book_move


def table(
    game: str, records: Sequence[dict[str, Any]], ratings: dict[str, int], think: dict[str, Any], source: str
) -> str:
    """The Markdown page of one game's calibration."""
    per_pair: dict[tuple[str, str], list[float]] = defaultdict(list)
    cpu: dict[str, list[int]] = defaultdict(list)
    for r in records:
        per_pair[r["a"], r["b"]].append(r["score_a"])
        for level, times in r["cpu_ms"].items():
            cpu[level].extend(times)
    here = think.get(game, {})
    levels = [lv for lv in LEVEL_IDS + OLD_LEVEL_IDS if lv in ratings]
    lines = [
        f"# Levels of {game}: calibration",
        "",
        "Written by `python bench/calibrate_levels.py fit` from the games in "
        f"`{source}` ({len(records)} games of {game}). Shown ratings on the players' "
        f"scale (bot/service/ratings.py), fitted with openskill's Plackett-Luce model and anchored at level "
        f"2 = {NOMINAL_ANCHOR} (what a new player shows). Think time per move: CPU seconds in the "
        f"calibration games (mean / p99), and the wall-clock p99 / max that `think` measured with these "
        f"settings and code ({think.get('_machine', {}).get(game, 'not measured')}; the bot caps a move at "
        f"{CAP_SECONDS:g} s).",
        "",
        "| level | settings | shown rating | think CPU mean / p99 | wall p99 / max (`think`) |",
        "|---|---|---:|---|---:|",
    ]
    for level in levels:
        times = cpu.get(level, [])
        mean = sum(times) / max(1, len(times)) / 1000
        p99 = percentile(times, 0.99) / 1000
        measured = here.get(level, {})
        wall_text = "-"
        measured_now = measured.get("settings") == settings_text(game, level)  # else other settings...
        if measured_now and measured.get("code") == levels_code(game, level):  # ... or other code
            wall_text = f"{measured['wall_p99_s']:.2f} / {measured['wall_max_s']:.2f} s"
        think_text = f"{mean:.3f} / {p99:.3f} s" if times else "-"
        rating = str(ratings[level]) if level in ratings else "not measured yet"
        lines.append(f"| {level} | {settings_text(game, level)} | {rating} | {think_text} | {wall_text} |")
    lines += [
        "",
        "Pairs (score of the first level, seats swapped, seeded starts):",
        "",
        "| pair | games | W-L-D | score | 95% Wilson | expected from the ratings | if evenly spaced |",
        "|---|---:|---|---:|---|---:|---:|",
    ]
    first, top = LEVEL_IDS[0], LEVEL_IDS[-1]
    even_step = (
        (ratings[top] - ratings[first]) / (len(LEVEL_IDS) - 1)
        if first in ratings and top in ratings
        else None
    )
    neighbours = set(itertools.pairwise(LEVEL_IDS))
    held = []
    for (a, b), scores in sorted(per_pair.items(), key=lambda item: (_order(item[0][0]), _order(item[0][1]))):
        n = len(scores)
        total = sum(scores)
        wins = sum(1 for s in scores if s == 1.0)
        losses = sum(1 for s in scores if s == 0.0)
        low, high = wilson(total, n)
        expected = expected_score(ratings[a], ratings[b])
        even_text = "-"
        if even_step is not None and (a, b) in neighbours:
            even = expected_score(0, even_step)
            held.append(low <= even <= high)
            even_text = f"{even:.1%}"
        lines.append(
            f"| {a} vs {b} | {n} | {wins}-{losses}-{n - wins - losses} | {total / n:.1%} | "
            f"[{low:.1%}, {high:.1%}] | {expected:.1%} | {even_text} |"
        )
    if held:
        lines += [
            "",
            f"Evenly spaced levels between level {first} ({ratings[first]}) and level {top} ({ratings[top]}) "
            f"would be {even_step:.0f} points apart; the score that expects of the weaker level lies inside "
            f"{sum(held)} of the {len(held)} neighbouring pairs' 95% intervals.",
        ]
    lines.append("")
    return "\n".join(lines)


def expected_score(rating: float, other: float) -> float:
    """The score a player of `rating` expects against one of `other` on the shown scale (Elo's curve)."""
    return 1 / (1 + 10 ** ((other - rating) / 400))


def _relative(path: str) -> str:
    """A path as the pages show it: from the repository root when it is inside."""
    resolved = Path(path).resolve()
    return str(resolved.relative_to(ROOT)) if resolved.is_relative_to(ROOT) else str(path)


def _order(level: str) -> int:
    return (LEVEL_IDS + OLD_LEVEL_IDS).index(level)


def run_fit(args: argparse.Namespace) -> None:
    found_all = read_results(Path(p) for p in args.results.split(","))
    records = current(found_all)
    if len(records) < len(found_all):
        print(f"{len(found_all) - len(records)} games left out: played with other settings than today's")
    by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        by_game[r["game"]].append(r)
    think = json.loads(THINK.read_text(encoding="utf-8")) if THINK.exists() else {}
    pages = Path(args.pages)
    trial = Path(args.ratings) if args.ratings else None
    out = json.loads(trial.read_text(encoding="utf-8")) if trial and trial.exists() else {"ratings": {}}
    for game, found in sorted(by_game.items()):
        ratings = shown(fit_ratings(found))
        page = table(game, found, ratings, think, ", ".join(_relative(p) for p in args.results.split(",")))
        (pages / f"levels_{game}.md").write_text(page, encoding="utf-8")
        print(page)
        out["ratings"][game] = {level: ratings[level] for level in sorted(ratings, key=_order)}
    if not args.write_ratings:
        return
    if trial is not None:  # a trial fit: one file for every game, the bot's files untouched
        out["note"] = "Written by bench/calibrate_levels.py fit: the shown rating per game and level."
        trial.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
        return
    for game, levels in out["ratings"].items():
        write_calibration(game, levels)
    calibrated.cache_clear()  # the table reads the files just written
    readme = ROOT / "README.md"  # the README shows the ratings the bot loads, no others
    readme.write_text(with_readme_table(readme.read_text(encoding="utf-8"), calibrated()), encoding="utf-8")


def calibration_file(game: str) -> Path:
    """Where the bot reads a game's calibrated ratings: its plugin's `levels.calibration`."""
    levels = games.plugin(game).levels
    if levels is None or levels.calibration is None:
        raise SystemExit(f"{game} keeps no calibration file (GamePlugin.levels.calibration): use --ratings")
    return levels.calibration


def write_calibration(game: str, levels: dict[str, int]) -> None:
    """A game's calibration file, as `games.plugins.Levels.ratings` reads it."""
    note = "Written by bench/calibrate_levels.py fit: the bot's shown rating per level in this game."
    text = json.dumps({"ratings": levels, "note": note}, indent=1) + "\n"
    calibration_file(game).write_text(text, encoding="utf-8")


README_START, README_END = (
    "<!-- levels table: bench/calibrate_levels.py fit -->",
    "<!-- end of levels table -->",
)


def readme_table(ratings: dict[str, dict[str, int]]) -> str:
    """The README's table of levels: per game, each level's budget and the bot's rating there."""
    names = {game: games.get(game).name for game in GAMES}
    lines = [
        "| level | " + " | ".join(names[g] for g in GAMES) + " |",
        "|---|" + "---:|" * len(GAMES),
    ]
    for level in LEVEL_IDS + OLD_LEVEL_IDS:
        cells = []
        for game in GAMES:
            rating = ratings.get(game, {}).get(level)
            shown = str(rating) if rating is not None else f"{level_rating(game, level)}, not measured yet"
            settings = level_settings(level, game)
            budget = (
                f"{settings.iterations} it" if settings.iterations is not None else f"{settings.seconds:g} s"
            )
            cells.append(f"{shown} ({budget})")
        lines.append(f"| {level} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def with_readme_table(text: str, ratings: dict[str, dict[str, int]]) -> str:
    """The README with the table between its markers replaced (unchanged if it has no markers)."""
    if README_START not in text or README_END not in text:
        return text
    head, rest = text.split(README_START, 1)
    _, tail = rest.split(README_END, 1)
    return f"{head}{README_START}\n{readme_table(ratings)}\n{README_END}{tail}"


# ---------------------------------------------------------------------------------------------- respace


def respaced(game: str, ratings: Mapping[str, int], top: tuple[Rung, int] | None = None) -> list[Rung]:
    """Rungs for eight evenly spaced levels between the measured level 1 and level 8: each target rating is
    placed on the calibrated curve (the ratings of levels 1-8, rising, linear between them) and its settings
    are interpolated there (iterations geometrically, the errors linearly). Levels 1 and 8 keep theirs.

    With `top` (a new level 8 and its expected rating), the curve goes on past the measured level 8 to that
    point, and the levels are spaced between level 1 and it."""
    ladder = [level_settings(level, game) for level in LEVEL_IDS]
    points = [Rung(s.iterations or 1, s.overlook, s.noise) for s in ladder]
    curve = [float(ratings[level]) for level in LEVEL_IDS]
    if top is not None:
        points.append(top[0])
        curve.append(float(max(top[1], curve[-1])))
    steps = len(LEVEL_IDS) - 1
    return [
        settings_at(points, curve, curve[0] + k * (curve[-1] - curve[0]) / steps) for k in range(steps + 1)
    ]


def settings_at(points: Sequence[Rung], curve: Sequence[float], target: float) -> Rung:
    """The settings where the curve (the ratings of `points`, rising, linear between them) reaches the target
    rating: interpolated between the two points around it, iterations geometrically, the errors linearly."""
    i, t = _segment(curve, target)
    low, high = points[i], points[i + 1]
    iterations = round(math.exp(math.log(low.iterations) * (1 - t) + math.log(high.iterations) * t))
    overlook = round(low.overlook * (1 - t) + high.overlook * t, 3)
    return Rung(iterations, overlook, round(low.noise * (1 - t) + high.noise * t, 3))


SETTINGS = re.compile(r"(\d+) it, overlook (\d+)%, noise ([\d.]+)")


def played_with_today_s_code(record: dict[str, Any]) -> bool:
    """Whether a game was played with the game's AI code as it is now, whatever its levels' settings were."""
    key: str = record["key"]
    return key.rsplit(":", 1)[1] == code_version(record["game"], with_data=", opening book" in key)


def respaced_from_games(game: str, records: Sequence[dict[str, Any]]) -> list[Rung]:
    """Rungs for eight evenly spaced levels from every game played with today's code, whatever ladder it was
    played under: each player is its settings (so the passes' games pool into one fit, several times the
    last pass's), the settings with an iteration budget are ordered by it and their ratings made to rise
    with it (pooling adjacent violators, weighted by games: a level that measured weaker than a smaller
    budget is noise or a flat stretch, not a place to put a level), and levels 2-7 are placed evenly between
    today's levels 1 and 8 on that curve; levels 1 and 8 keep their settings."""
    named = [
        record | dict(zip(("a", "b"), record["key"].split(":")[4:6], strict=True))
        for record in records
        if record["game"] == game and played_with_today_s_code(record)
    ]
    ratings = fit_ratings(named)
    games_of = Counter(name for record in named for name in (record["a"], record["b"]))
    on_curve = [(rung, rating, games_of[name]) for name, rating in ratings.items() if (rung := _rung(name))]
    points, curve = rising(on_curve)  # the old, time-based levels are in the fit, not on the curve
    ends = [level_settings(level, game) for level in (LEVEL_IDS[0], LEVEL_IDS[-1])]
    first, top = (Rung(s.iterations or 1, s.overlook, s.noise) for s in ends)
    low, high = (_rating_at(points, curve, rung) for rung in (first, top))
    steps = len(LEVEL_IDS) - 1
    middle = [settings_at(points, curve, low + k * (high - low) / steps) for k in range(1, steps)]
    return [first, *middle, top]


def rising(measured: Sequence[tuple[Rung, float, int]]) -> tuple[list[Rung], list[float]]:
    """The measured settings (each with its rating and games), ordered by budget, made into a curve that
    rises with the budget: where a rating is not above the one before, the run of settings is pooled into
    one point (pool adjacent violators, weighted by games) at their geometric mean budget and mean errors."""
    blocks: list[list[tuple[Rung, float, int]]] = []
    for point in sorted(measured, key=lambda p: (p[0].iterations, -p[0].overlook, -p[0].noise)):
        blocks.append([point])
        while len(blocks) > 1 and _mean_rating(blocks[-2]) >= _mean_rating(blocks[-1]):
            merged = blocks.pop()
            blocks[-1].extend(merged)
    return [_pooled(block) for block in blocks], [_mean_rating(block) for block in blocks]


def _rung(name: str) -> Rung | None:
    match = SETTINGS.match(name)
    if match is None:
        return None
    return Rung(int(match[1]), int(match[2]) / 100, float(match[3]))


def _mean_rating(block: Sequence[tuple[Rung, float, int]]) -> float:
    return sum(rating * games for _, rating, games in block) / sum(games for _, _, games in block)


def _pooled(block: Sequence[tuple[Rung, float, int]]) -> Rung:
    """One point for a run of settings pooled to one rating: their (game-weighted) geometric mean budget and
    mean errors."""
    weight = sum(games for _, _, games in block)
    iterations = math.exp(sum(math.log(r.iterations) * games for r, _, games in block) / weight)
    overlook = sum(r.overlook * games for r, _, games in block) / weight
    noise = sum(r.noise * games for r, _, games in block) / weight
    return Rung(round(iterations), round(overlook, 3), round(noise, 3))


def _rating_at(points: Sequence[Rung], curve: Sequence[float], rung: Rung) -> float:
    """The curve's rating at a budget (linear in log iterations between the points around it)."""
    i, t = _segment([math.log(p.iterations) for p in points], math.log(rung.iterations))
    return curve[i] * (1 - t) + curve[i + 1] * t


def _segment(rising: Sequence[float], x: float) -> tuple[int, float]:
    """The segment [i, i + 1] of a rising list that holds x, and how far along it x lies (0 to 1, clamped
    at the ends)."""
    i = min(max(bisect.bisect_right(rising, x) - 1, 0), len(rising) - 2)
    span = rising[i + 1] - rising[i]
    return i, min(1.0, max(0.0, (x - rising[i]) / span)) if span > 0 else 0.0


def parse_tops(text: str) -> dict[str, int]:
    """`--top paintscape=12000,paint=3200`: a new level 8's iteration budget per game."""
    tops = {}
    for item in filter(None, text.split(",")):
        game, _, iterations = item.partition("=")
        tops[game.strip()] = int(iterations)
    return tops


def run_respace(args: argparse.Namespace) -> None:
    ratings = json.loads(Path(args.ratings).read_text())["ratings"] if args.ratings else calibrated()
    tops = parse_tops(args.top)
    records = read_results([Path(args.results)]) if args.from_games else []
    for game in args.game.split(","):
        top = None
        if game in tops:
            top = (Rung(tops[game], 0.0, 0.0), ratings[game][args.top_like])
        rungs = respaced_from_games(game, records) if args.from_games else respaced(game, ratings[game], top)
        print(f"{game!r}: (")
        for rung in rungs:
            print(f"    Rung({rung.iterations}, {rung.overlook}, {rung.noise}),")
        print("),")


# ------------------------------------------------------------------------------------------------- rekey


def same_game(job: Job) -> bool:
    """Whether the levels of a job both search a fixed number of iterations (so a game is the same game,
    move for move, whatever the machine and its load: a replay can tell whether new code plays it alike)."""
    return all(level_settings(level, job.game).iterations is not None for level in (job.a, job.b))


def stale_by_code_only(game: str, records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records of a game played with today's settings of both levels, both with an iteration budget,
    by other code than today's: the games a change that only made the code faster leaves as they were. Of
    a game (pair, k and settings) played more than once, only the last record counts: an earlier one was
    superseded before today's change (by a new book, say) and must not come back."""
    latest: dict[str, dict[str, Any]] = {}  # the game (pair, k, both settings) -> its last record
    for record in records:
        if record["game"] == game:
            latest[record["key"].rsplit(":", 1)[0]] = record
    found = []
    for game_key, record in latest.items():
        job = Job(game, record["a"], record["b"], record["k"])
        today_game_key = job.key.rpartition(":")[0]  # the key without its code digest
        if game_key == today_game_key and record["key"] != job.key and same_game(job):
            found.append(record)
    return found


def replay_matches(record: dict[str, Any]) -> bool:
    """Whether today's code plays a recorded game again to the same result, length and moves per level."""
    again = play(Job(record["game"], record["a"], record["b"], record["k"]))
    moves = {level: len(times) for level, times in record["cpu_ms"].items()}
    return (again["score_a"], again["plies"]) == (record["score_a"], record["plies"]) and moves == {
        level: len(times) for level, times in again["cpu_ms"].items()
    }


def rekeyed(
    game: str, records: Sequence[dict[str, Any]], check_per_pair: int
) -> tuple[list[dict[str, Any]], int]:
    """After a change meant to make a game's AI faster and no different: among the records stale by code only
    (`stale_by_code_only`), each pair's games of each earlier code version are a group; replay the
    `check_per_pair` shortest games of a group, and if every replay is the same game, give the group today's
    key (they are what today's code plays). A group that plays differently stays stale (play it again). The
    records, and how many were re-keyed. The time-based old levels' games are never re-keyed: faster code
    gives them more iterations."""
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for record in stale_by_code_only(game, records):
        groups[record["a"], record["b"], record["key"].rsplit(":", 1)[1]].append(record)
    renamed: set[int] = set()
    for (a, b, version), group in sorted(groups.items()):
        checks = sorted(group, key=lambda r: (r["plies"], r["k"]))[:check_per_pair]
        if all(replay_matches(record) for record in checks):
            renamed.update(id(record) for record in group)
        else:
            print(
                f"{game} {a}-{b}, code {version}: played differently by today's code; left stale", flush=True
            )
    result = [
        dict(record, key=record_key(game, record["a"], record["b"], record["k"]))
        if id(record) in renamed
        else record
        for record in records
    ]
    return result, len(renamed)


def run_rekey(args: argparse.Namespace) -> None:
    path = Path(args.results)
    records = read_results([path])
    for game in args.game.split(","):
        records, changed = rekeyed(game, records, args.check_per_pair)
        print(f"{game}: {changed} games re-keyed to today's code", flush=True)
    path.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records), encoding="utf-8")


# ------------------------------------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    steps = parser.add_subparsers(dest="step", required=True)
    for name in ("play", "plan"):
        step = steps.add_parser(name)
        step.add_argument("--game", default=",".join(GAMES), help="comma-separated game ids")
        step.add_argument(
            "--pairs", default="neighbours,old", help="neighbours, old, or pairs like 1-2,easy-3"
        )
        step.add_argument("--games", type=int, default=40, help="games per pair (default 40)")
        step.add_argument("--easy-games", type=int, default=20, help="games per pair with easy (20)")
        step.add_argument("--medium-games", type=int, default=4, help="games per pair with medium (4)")
        step.add_argument("--hard-games", type=int, default=2, help="games per pair with hard (2)")
        step.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
        step.add_argument("--out", default=str(RESULTS), help="the results file (JSON lines; resumed)")
        step.add_argument(
            "--core-minutes",
            type=float,
            default=None,
            help="stop after this many core-minutes (wall time x jobs); a later run resumes",
        )
    think = steps.add_parser("think")
    think.add_argument("--game", default=",".join(GAMES))
    think.add_argument("--levels", default=",".join(LEVEL_IDS))
    think.add_argument("--games", type=int, default=2, help="self-play games per level and game")
    think.add_argument("--jobs", type=int, default=1)
    think.add_argument("--out", default=str(THINK), help="where to keep the summary ('' for nowhere)")
    think.add_argument("--machine", default="", help="the machine, in words (games and jobs are added)")
    fit = steps.add_parser("fit")
    fit.add_argument("--results", default=str(RESULTS), help="comma-separated results files")
    fit.add_argument("--no-ratings", dest="write_ratings", action="store_false", help="tables only")
    fit.add_argument(
        "--ratings",
        default="",
        help="a trial: one ratings file for every game (default: each game's calibration file, the bot's)",
    )
    fit.add_argument("--pages", default=str(BASELINES), help="the folder of the levels_<game>.md pages")
    respace = steps.add_parser("respace")
    respace.add_argument("--game", default=",".join(GAMES))
    respace.add_argument(
        "--ratings", default="", help="a trial fit's ratings file (default: each game's calibration file)"
    )
    respace.add_argument(
        "--from-games",
        action="store_true",
        help="space the levels on a curve fitted to every game played with today's code (--results)",
    )
    respace.add_argument("--results", default=str(RESULTS), help="the results file, for --from-games")
    respace.add_argument(
        "--top",
        default="",
        help="a new level 8 per game, full strength at this many iterations: paintscape=12000,paint=3200",
    )
    respace.add_argument(
        "--top-like",
        default=Level.MEDIUM.value,
        help="the old level whose measured rating the new level 8 should have (medium: 1 s at full strength)",
    )
    rekey = steps.add_parser("rekey")
    rekey.add_argument("--game", required=True, help="comma-separated game ids")
    rekey.add_argument("--results", default=str(RESULTS), help="the results file, rewritten in place")
    rekey.add_argument(
        "--check-per-pair", type=int, default=1, help="games of each pair replayed before re-keying (1)"
    )
    args = parser.parse_args()
    run = {
        "play": run_play, "plan": run_plan, "think": run_think, "fit": run_fit, "respace": run_respace,
        "rekey": run_rekey,
    }  # fmt: skip
    run[args.step](args)


if __name__ == "__main__":
    main()
