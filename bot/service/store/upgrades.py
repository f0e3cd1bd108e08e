"""Data upgrades: the Python steps some schema migrations run, inside the migration's own transaction. So a
step runs exactly once (the new schema version commits with its writes, or neither does), and on
PostgreSQL under the migration's advisory lock: processes that start together wait for the one doing it.
The stores (store/sqlite.py, store/postgres.py) read and write the rows; the decisions are here. Whatever
opens the database runs them: the bot (`Service.open`), check-db and migrate-db (all through `open_store`).

**TilingKing resignation plies** (SQLite schema 7, PostgreSQL schema 4). A resignation on one's own turn no
longer counts a ply (games/tilingking/rules.py), as one out of turn never did, so that move numbers agree
everywhere. A snapshot the previous engine wrote holds a state ply one higher for each such resignation in
its log, and so does the ply recorded by each piece placed after one; check-db would call it "differs from
the replay", and an active match would go on from the wrong ply. The rule (`recounted_snapshot`): a
TilingKing snapshot is replaced by the end of the replay of its move log exactly when it is what the
previous engine made of that log (every other field equal); any other mismatch is left alone for check-db to
report. Snapshots are compared as the engine loads them: the previous engine wrote no `timeout` setting
either (a snapshot without it loads as `passall`), which is no mismatch here nor for check-db.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from games.base import RESIGN, Seat, replay
from games.tilingking import RULES, TilingState

log = logging.getLogger(__name__)

TILINGKING = RULES.id
"""The game whose snapshots the resignation-ply upgrade recounts (the `game` column's value)."""


def previous_engine_state(state: TilingState, resigned_at: Sequence[int]) -> TilingState:
    """The state the previous engine reached where this engine reached `state`, given the plies at which
    seats resigned on their own turn: the old engine counted each of them, so its ply is higher by all of
    them, and a piece's by those made before it was placed (at a ply not above the piece's own)."""

    def shift(ply: int) -> int:
        return ply + sum(1 for at in resigned_at if at <= ply)

    placed = tuple(replace(p, ply=shift(p.ply)) for p in state.placed)
    return replace(state, ply=state.ply + len(resigned_at), placed=placed)


def recounted_snapshot(
    seats: int,
    options: Any,
    seed: int,
    moves: Sequence[tuple[Seat, str]],
    stored: str,
    json_value: Callable[[Any], Any] = json.loads,
) -> str | None:
    """The snapshot text to store for a TilingKing match instead of `stored`, or None to leave it.

    `seats`, `options` (decoded by `json_value`, as `store.base.match_from_row` does), `seed` and the log
    of (seat, notation) `moves` are the match's row. The log is replayed from `RULES.new(seats, options,
    seed)`; the replay's snapshot replaces `stored` only when `stored` is, field for field, what the previous
    engine made of the same log (`previous_engine_state`) and differs from the replay. A row that cannot be
    replayed, or differs in anything else, is left as it is."""
    try:
        state = RULES.new(seats, json_value(options), seed)
        resigned_at: list[int] = []
        for step in replay(RULES, state, moves):
            before: TilingState = step.before
            if step.notation == RESIGN and step.seat == before.turn and not before.resigned[step.seat]:
                resigned_at.append(before.ply)  # on its own turn: the previous engine counted a ply here
            state = step.after
        if not resigned_at:
            return None
        was = _text(RULES.load(json.loads(stored)))  # as the engine reads it: a later field has its default
        now = _text(state)
        if was == now or was != _text(previous_engine_state(state, resigned_at)):
            return None
    except Exception as error:  # a row that does not replay or load is check-db's to report, not ours
        log.debug("left a TilingKing snapshot as it was: %r", error)
        return None
    return now


def _text(state: TilingState) -> str:
    """A state as the service stores it (`matches.snapshot_text`: compact JSON, keys sorted)."""
    return json.dumps(RULES.dump(state), separators=(",", ":"), sort_keys=True)


def report_recounted(match_ids: Sequence[int]) -> None:
    """One log line for the matches whose snapshot the upgrade recounted (none: no line)."""
    if match_ids:
        shown = ", ".join(f"#{i}" for i in match_ids[:20]) + (", ..." if len(match_ids) > 20 else "")
        log.info(
            "recounted the plies of %d TilingKing matches written before a resignation on one's own turn "
            "stopped counting one: %s",
            len(match_ids),
            shown,
        )
