"""`python -m bot check-db`: verify that every stored match is consistent with its move log.

For each match: every column of its row and its seat rows holds what the schema means
(`store.base.match_from_row`, the check the bot itself makes; a damaged match is reported with the reason,
and the rest are still checked); a set-aside (quarantined) match is reported; its seats and options fit its
game and position (`matches.fits`); the plies are 0..n-1 with n = the match's ply; every move was made by the
seat to move and is legal when replayed from the seed (forced moves are the engine's forced move); the
snapshot, as the engine loads it, equals the end of ``games.base.replay`` of the log (so a field an older
version did not write, such as TilingKing's ``timeout`` setting, counts as its default); a game the engine
says is over is not marked active, and its stored outcome is the engine's (resignations, timeouts and aborts
decided by the service are the only other endings; a resignation the rules made of a timeout that ended
the game is stored on time).

It checks any store `open_store` opens (SQLite or PostgreSQL). Exit codes: 0 consistent, 1 mismatches found,
2 the database could not be checked (missing, not a database, a damaged file, unreadable, unreachable, made
by a newer Tessera, a bad URL), said in one line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import games
from bot.service.matches import fits, snapshot_text
from bot.service.records import MatchRecord, MatchStatus, MoveRecord
from bot.service.store import (
    BadDatabaseUrl,
    DamagedRow,
    SqliteStore,
    StoreUnavailable,
    open_store,
    sqlite_path,
)
from games.base import RESIGN, Outcome, ReplayError, Rules, Termination, replay

SERVICE_ENDINGS = {Termination.RESIGNATION, Termination.TIMEOUT}


_MATCH_TABLES = re.compile(r" in (matches|match_seats)\b")
"""quick_check's words for a row of the matches or their seats breaking a constraint."""


class CannotCheck(Exception):
    """The database cannot be checked at all (exit code 2); the message is one line."""


def check_match(rules: Rules[Any, Any], row: MatchRecord, moves: Sequence[MoveRecord]) -> list[str]:
    """Every mismatch of one match, as lines for a person to read."""
    where = f"match #{row.id} ({row.game})"
    problems: list[str] = []
    plies = [m.ply for m in moves]
    if plies != list(range(len(moves))):
        problems.append(f"{where}: move plies are {plies[:10]}..., expected 0..{len(moves) - 1}")
    if row.ply != len(moves):
        problems.append(f"{where}: ply is {row.ply} but the log has {len(moves)} moves")
    try:
        loaded = rules.load(json.loads(row.snapshot))
        fits(rules, row, loaded)
    except Exception as error:  # the snapshot, the seats or the options: what the bot would set aside
        problems.append(f"{where}: it cannot be loaded: {error}")
        return problems
    state = rules.new(len(row.seats), row.options, row.seed)
    before = state
    log = [(m.seat, m.notation) for m in moves]
    try:
        for step, stored in zip(replay(rules, state, log), moves, strict=True):
            before = step.before
            forced = rules.forced_move(step.before) if step.move is not None else None
            if stored.forced and (forced is None or rules.notation(step.before, forced) != stored.notation):
                problems.append(f"{where}: ply {step.ply} {stored.notation!r} is marked forced, but is not")
            state = step.after
    except ReplayError as error:
        problems.append(f"{where}: {error}")
        return problems
    if snapshot_text(rules, loaded) != snapshot_text(rules, state):  # as read: a later field has its default
        problems.append(f"{where}: the snapshot differs from the replay of its {len(moves)} moves")
    engine_outcome = rules.outcome(state)
    stored_outcome = row.outcome
    if row.status is MatchStatus.ACTIVE:
        if engine_outcome is not None:
            problems.append(f"{where}: the game is over ({engine_outcome.termination}), the match active")
        if stored_outcome is not None:
            problems.append(f"{where}: an active match has an outcome stored")
    elif stored_outcome is None:
        problems.append(f"{where}: the match is {row.status} but has no outcome")
    elif row.status is MatchStatus.ABORTED:
        if stored_outcome.termination is not Termination.ABORTED:
            problems.append(f"{where}: aborted, but its outcome says {stored_outcome.termination}")
    elif engine_outcome is not None:
        if engine_outcome != stored_outcome and not _ended_on_time(
            rules, before, moves, engine_outcome, stored_outcome
        ):
            problems.append(
                f"{where}: stored outcome {stored_outcome.to_json()}, the game's {engine_outcome.to_json()}"
            )
    elif stored_outcome.termination not in SERVICE_ENDINGS:
        problems.append(f"{where}: finished by {stored_outcome.termination}, but the game is not over")
    return problems


def _ended_on_time(
    rules: Rules[Any, Any], before: Any, moves: Sequence[MoveRecord], engine: Outcome, stored: Outcome
) -> bool:
    """Whether `stored` is the engine's resignation that a timeout made (the rules' timeout move before the
    last move is resigning, as with TilingKing's `timeout=resign`), stored on time by the service."""
    if engine.termination is not Termination.RESIGNATION or not moves or moves[-1].notation != RESIGN:
        return False
    if stored != Outcome(Termination.TIMEOUT, engine.ranks, engine.scores):
        return False
    move = rules.timeout_move(before)
    return move is not None and rules.notation(before, move) == RESIGN


async def check_database(url: str, *, registry: Callable[[str], Rules[Any, Any]] | None = None) -> list[str]:
    """Every mismatch in the database at `url` (empty when all is well); CannotCheck when there is no
    database to check there."""
    if url.startswith("sqlite:"):
        path = sqlite_path(url)
        if path != ":memory:" and not Path(path).exists():
            raise CannotCheck(f"no database file at {path}")
    lookup = registry or games.get
    store = await open_store(url)
    problems: list[str] = []
    try:
        await store.full_check()  # the whole file, also after a clean shutdown (StoreUnavailable if damaged)
        if isinstance(store, SqliteStore):  # matches and their seats are reported row by row below
            others = [line for line in store.broken_constraints if not _MATCH_TABLES.search(line)]
            problems.extend(f"{line} (a row of that table breaks the schema)" for line in others)
        for match_id in await store.match_ids():
            try:
                row = await store.get_match(match_id)
            except DamagedRow as damaged:  # a column or seat row the bot would set aside
                problems.append(str(damaged))
                continue
            if row is None:
                continue
            if row.quarantine is not None:
                problems.append(f"match #{row.id} ({row.game}): set aside (quarantined): {row.quarantine}")
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


def main(argv: Sequence[str], *, default_url: str) -> int:
    """Check the database (`default_url` unless --database-url says otherwise); prints each mismatch.
    Exit code 0 when consistent, 1 on mismatches, 2 on errors."""
    parser = argparse.ArgumentParser(
        prog="python -m bot check-db",
        description="Check that every match's snapshot equals the replay of its move log.",
    )
    parser.add_argument(
        "--database-url", help="sqlite:///path or postgresql://... (default: the DATABASE_URL setting)"
    )
    args = parser.parse_args(list(argv))
    url = args.database_url or default_url
    try:
        problems = asyncio.run(check_database(url))
    except (CannotCheck, StoreUnavailable, BadDatabaseUrl) as error:
        return _cannot_check(str(error))
    except Exception as error:  # a read failing midway (a damaged page, a lost connection): still one line
        return _cannot_check(f"could not read the database {url}: {type(error).__name__}: {error}")
    for line in problems:
        print(line)
    if problems:
        print(f"check-db: {len(problems)} problem(s) in {url}", file=sys.stderr)
        return 1
    print(f"check-db: {url} is consistent")
    return 0


def _cannot_check(message: str) -> int:
    print(f"check-db: {' '.join(message.split())}", file=sys.stderr)
    return 2
