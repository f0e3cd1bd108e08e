"""`python -m bot check-db`: verify that every stored match is consistent with its move log.

For each match: the plies are 0..n-1 with n = the match's ply; every move was made by the seat to move and
is legal when replayed from the seed (forced moves are the engine's forced move); the snapshot equals
``games.base.replay_state`` of the log; a game the engine says is over is not marked active, and its stored
outcome is the engine's (resignations, timeouts and aborts decided by the service are the only other endings).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import games
from bot.store import ABORTED, ACTIVE, MatchRow, MoveRow, open_store, sqlite_path
from games.base import MoveError, Outcome, Rules, Termination, replay_state

FALLBACK_URL = "sqlite:///data/tessera.sqlite3"
SERVICE_ENDINGS = {Termination.RESIGNATION, Termination.TIMEOUT}


def _canonical(data: Any) -> Any:
    return json.loads(json.dumps(data, sort_keys=True))


def check_match(rules: Rules[Any, Any], row: MatchRow, moves: Sequence[MoveRow]) -> list[str]:
    """Every mismatch of one match, as lines for a person to read."""
    where = f"match #{row.id} ({row.game})"
    problems: list[str] = []
    plies = [m.ply for m in moves]
    if plies != list(range(len(moves))):
        problems.append(f"{where}: move plies are {plies[:10]}..., expected 0..{len(moves) - 1}")
    if row.ply != len(moves):
        problems.append(f"{where}: ply is {row.ply} but the log has {len(moves)} moves")
    seats = len(row.seats)
    state = rules.new(seats, row.options, row.seed)
    for m in moves:
        to_move = rules.to_move(state)
        if to_move != m.seat:
            problems.append(
                f"{where}: ply {m.ply} was stored for seat {m.seat}, but seat {to_move} was to move"
            )
        try:
            move = rules.parse(state, m.notation)
        except MoveError as error:
            problems.append(f"{where}: ply {m.ply} {m.notation!r} does not replay: {error}")
            return problems
        forced = rules.forced_move(state)
        if m.forced and (forced is None or rules.notation(state, forced) != m.notation):
            problems.append(
                f"{where}: ply {m.ply} {m.notation!r} is marked forced but the rules force nothing"
            )
        state = rules.apply(state, move)
    start = rules.new(seats, row.options, row.seed)
    replayed = replay_state(rules, start, [(m.seat, m.notation) for m in moves])
    if _canonical(rules.dump(replayed)) != json.loads(row.snapshot):
        problems.append(f"{where}: the snapshot differs from the replay of its {len(moves)} moves")
    engine_outcome = rules.outcome(replayed)
    stored = Outcome.from_json(row.outcome) if row.outcome is not None else None
    if row.status == ACTIVE:
        if engine_outcome is not None:
            problems.append(
                f"{where}: the game is over ({engine_outcome.termination}) but the match is active"
            )
        if stored is not None:
            problems.append(f"{where}: an active match has an outcome stored")
    elif stored is None:
        problems.append(f"{where}: the match is {row.status} but has no outcome")
    elif row.status == ABORTED:
        if stored.termination is not Termination.ABORTED:
            problems.append(f"{where}: aborted, but its outcome says {stored.termination}")
    elif engine_outcome is not None:
        if engine_outcome.to_json() != stored.to_json():
            problems.append(
                f"{where}: stored outcome {stored.to_json()} is not the game's {engine_outcome.to_json()}"
            )
    elif stored.termination not in SERVICE_ENDINGS:
        problems.append(f"{where}: finished by {stored.termination}, but the game is not over")
    return problems


async def check_database(url: str, *, registry: Callable[[str], Rules[Any, Any]] | None = None) -> list[str]:
    """Every mismatch in the database at `url` (empty when all is well)."""
    if url.startswith("sqlite:"):
        path = sqlite_path(url)
        if path != ":memory:" and not Path(path).exists():
            return [f"no database file at {path}"]
    lookup = registry or games.get
    store = await open_store(url)
    problems: list[str] = []
    try:
        for match_id in await store.match_ids():
            row = await store.get_match(match_id)
            if row is None:
                continue
            try:
                rules = lookup(row.game)
            except KeyError:
                problems.append(f"match #{row.id}: unknown game {row.game!r}")
                continue
            try:
                problems.extend(check_match(rules, row, await store.moves(match_id)))
            except Exception as error:  # a broken snapshot or engine error is a finding, not a crash
                problems.append(f"match #{row.id} ({row.game}): could not be checked: {error!r}")
    finally:
        await store.close()
    return problems


def _default_url() -> str:
    try:
        from bot.settings import load_settings

        return str(load_settings().database_url)
    except Exception:
        try:
            from bot.settings import DEFAULT_DATABASE_URL

            return str(DEFAULT_DATABASE_URL)
        except Exception:
            return FALLBACK_URL


def main(argv: Sequence[str] | None = None) -> int:
    """Check the database; prints each mismatch. Exit code 0 when consistent, 1 on mismatches, 2 on errors."""
    parser = argparse.ArgumentParser(
        prog="python -m bot check-db",
        description="Check that every match's snapshot equals the replay of its move log.",
    )
    parser.add_argument("--database-url", help="sqlite:///path (default: the bot's DATABASE_URL setting)")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    url = args.database_url or _default_url()
    try:
        problems = asyncio.run(check_database(url))
    except (ValueError, OSError) as error:
        print(f"check-db: {error}", file=sys.stderr)
        return 2
    for line in problems:
        print(line)
    if problems:
        print(f"check-db: {len(problems)} problem(s) in {url}", file=sys.stderr)
        return 1
    print(f"check-db: {url} is consistent")
    return 0
