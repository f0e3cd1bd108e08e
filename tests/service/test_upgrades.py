"""Upgrading a database the previous version wrote (bot/service/store/upgrades.py), on both stores.

The previous TilingKing engine counted a ply for a resignation on one's own turn, and wrote no `timeout`
setting. A database from then is built here by writing matches through the real service and putting back
the snapshots that engine made of their logs (`PreviousRules`, a model of it) and the schema version before
the upgrade. Opening it with this version recounts exactly those snapshots, once; check-db is silent after
it, and an active match plays on with the move numbers its log gives.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.service import Service
from bot.service.checkdb import check_database
from bot.service.matches import snapshot_text
from bot.service.records import MatchView
from bot.service.store import SCHEMA_VERSION, PostgresStore, open_store, sqlite_path
from bot.service.store.schema import RECOUNT_RESIGNATION_PLIES
from bot.service.store.upgrades import recounted_snapshot
from bot.service.transfer import transfer
from games.base import RESIGN, Seat, move_numbers, replay_state
from games.tilingking import RULES, TilingKingRules, TilingState
from tests.service.conftest import FakeClock
from tests.service.helpers import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD
from tests.service.old_databases import postgres_recorded


class PreviousRules(TilingKingRules):
    """The previous engine as far as its snapshots go: a resignation on one's own turn went through `apply`,
    whose `_next` always counted a ply, and `dump` wrote no `timeout` setting (the option came later)."""

    def _next(self, state: TilingState, mover: Seat, *, changed: bool, counted: bool = True) -> TilingState:
        return super()._next(state, mover, changed=changed, counted=True)

    def dump(self, state: TilingState) -> dict[str, Any]:
        data = super().dump(state)
        assert data["settings"].pop("timeout") == "passall"
        return data


PREVIOUS = PreviousRules()


def previous_snapshot(seats: int, options: dict[str, Any], seed: int, log: list[tuple[Seat, str]]) -> str:
    """The snapshot the previous engine stored for a match with this log."""
    state = replay_state(PREVIOUS, PREVIOUS.new(seats, options, seed), log)
    return json.dumps(PREVIOUS.dump(state), separators=(",", ":"), sort_keys=True)


def replayed_snapshot(seats: int, options: dict[str, Any], seed: int, log: list[tuple[Seat, str]]) -> str:
    """The snapshot this engine stores for it."""
    return snapshot_text(RULES, replay_state(RULES, RULES.new(seats, options, seed), log))


# ---------------------------------------------------------------------------------------- the rule itself


@st.composite
def games_with_resignations(draw: st.DrawFn) -> tuple[int, dict[str, Any], int, list[tuple[Seat, str]]]:
    """A TilingKing game of random placements and passes, with resignations on and off turn."""
    seats = draw(st.integers(2, 4))
    options = draw(st.sampled_from([{}, {"board": "hex5"}, {"board": "tri4"}, {"ruleset": "tilehoard"}]))
    seed = draw(st.integers(0, 999))
    state = RULES.new(seats, options, seed)
    log: list[tuple[Seat, str]] = []
    for _ in range(draw(st.integers(1, 24))):
        if RULES.to_move(state) is None:
            break
        if draw(st.integers(0, 5)) == 0:
            seat = draw(st.sampled_from(range(seats)))
            state = RULES.resign(state, seat)
            log.append((seat, RESIGN))
            continue
        forced = RULES.forced_move(state)  # else placements, then pass, passall, resign (by `apply`) or swap
        moves = (
            [forced] if forced is not None else RULES.placements(state)[:40] + RULES.legal_moves(state)[-3:]
        )
        move = draw(st.sampled_from(moves))
        log.append((state.turn, RULES.notation(state, move)))
        state = RULES.apply(state, move)
    return seats, options, seed, log


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games_with_resignations())
def test_the_previous_engines_snapshot_becomes_the_replays_and_nothing_else_changes(
    game: tuple[int, dict[str, Any], int, list[tuple[Seat, str]]],
) -> None:
    seats, options, seed, log = game
    old, new = previous_snapshot(seats, options, seed, log), replayed_snapshot(seats, options, seed, log)
    recounted = recounted_snapshot(seats, options, seed, log, old, json_value=lambda v: v)
    on_turn = json.loads(old)["ply"] != json.loads(new)["ply"]
    if on_turn:  # a resignation on one's own turn: the snapshot is the replay's now
        assert recounted == new
    else:  # none: only the timeout setting differs, which the engine reads as its default
        assert recounted is None
        assert snapshot_text(RULES, RULES.load(json.loads(old))) == new
    # Already this engine's, or off by more than the recount explains: left alone.
    assert recounted_snapshot(seats, options, seed, log, new, json_value=lambda v: v) is None
    data = json.loads(old)
    data["ply"] += 1
    assert recounted_snapshot(seats, options, seed, log, json.dumps(data), json_value=lambda v: v) is None


# ---------------------------------------------------------------------------------- an old database, opened


async def place(service: Service, match_id: int, rng: random.Random, count: int = 1) -> MatchView:
    """`count` random placements by whoever is to move (forced passes are the service's)."""
    view = await service.matches.get(match_id)
    for _ in range(count):
        user = view.user_to_move
        assert user is not None and view.is_active
        text = RULES.notation(view.state, rng.choice(RULES.placements(view.state)))
        view = (await service.matches.play(match_id, user, text, expected_ply=view.ply)).match
    return view


async def resign_on_turn(service: Service, match_id: int) -> None:
    view = await service.matches.get(match_id)
    assert view.user_to_move is not None
    await service.matches.resign(match_id, view.user_to_move)


async def tilingking_match(
    service: Service, channel: int, players: tuple[int, ...] = (ALICE, BOB, CAROL)
) -> int:
    """A TilingKing match from a lobby, seats in the players' order."""
    lobby = await service.lobbies.create(
        "tilingking", {}, players[0], guild_id=GUILD, channel_id=channel, seat_order="joined"
    )
    for user in players[1:]:
        await service.lobbies.join(lobby.id, user)
    match = await service.lobbies.start(lobby.id, players[0])
    return match.id


def on_sqlite(url: str) -> bool:
    return url.startswith("sqlite:")


async def raw_snapshot(url: str, match_id: int) -> str:
    """The stored snapshot text, read from the database itself."""
    if on_sqlite(url):
        db = sqlite3.connect(sqlite_path(url))
        try:
            return str(db.execute("SELECT snapshot FROM matches WHERE id = ?", (match_id,)).fetchone()[0])
        finally:
            db.close()
    conn = await asyncpg.connect(url)
    try:
        return str(await conn.fetchval("SELECT snapshot FROM matches WHERE id = $1", match_id))
    finally:
        await conn.close()


def version_before(url: str) -> int:
    """The schema version of the previous release: the one before the upgrade's migration."""
    return RECOUNT_RESIGNATION_PLIES if on_sqlite(url) else postgres_recorded(RECOUNT_RESIGNATION_PLIES)


def version_now(url: str) -> int:
    return SCHEMA_VERSION


async def write_directly(url: str, snapshots: dict[int, str], version: int) -> None:
    """Put `snapshots` and the schema `version` in the database itself, not through the store."""
    rows = [(text, match_id) for match_id, text in snapshots.items()]
    if on_sqlite(url):
        db = sqlite3.connect(sqlite_path(url))
        try:
            with db:
                db.executemany("UPDATE matches SET snapshot = ? WHERE id = ?", rows)
            db.execute(f"PRAGMA user_version = {version}")
        finally:
            db.close()
        return
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            await conn.executemany("UPDATE matches SET snapshot = $1 WHERE id = $2", rows)
            await conn.execute("UPDATE schema_version SET version = $1", version)
    finally:
        await conn.close()


async def schema_version(url: str) -> int:
    if on_sqlite(url):
        db = sqlite3.connect(sqlite_path(url))
        try:
            return int(db.execute("PRAGMA user_version").fetchone()[0])
        finally:
            db.close()
    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval("SELECT version FROM schema_version"))
    finally:
        await conn.close()


async def write_matches(url: str, clock: FakeClock) -> dict[str, int]:
    """Matches of every kind the upgrade meets, written through the real service: an active 3-player match
    with a resignation on the player's turn, a finished one (two of them), one with a resignation out of
    turn only, and a 2-player match a resignation on turn ended."""
    service = await Service.open(url, now=clock, rng=random.Random(2))
    rng = random.Random(7)
    try:
        active = await tilingking_match(service, CHANNEL)
        await place(service, active, rng, 4)
        await resign_on_turn(service, active)
        await place(service, active, rng, 3)

        finished = await tilingking_match(service, CHANNEL + 1)
        await place(service, finished, rng, 3)
        await resign_on_turn(service, finished)
        await place(service, finished, rng, 2)
        await resign_on_turn(service, finished)

        out_of_turn = await tilingking_match(service, CHANNEL + 2)
        await place(service, out_of_turn, rng, 4)
        waiting = (await service.matches.get(out_of_turn)).user_to_move
        await service.matches.resign(out_of_turn, next(u for u in (ALICE, BOB, CAROL) if u != waiting))
        await place(service, out_of_turn, rng, 2)

        two = await tilingking_match(service, CHANNEL + 3, (DAVE, ALICE))
        await place(service, two, rng, 3)
        await resign_on_turn(service, two)
        matches = {"active": active, "finished": finished, "out_of_turn": out_of_turn, "two": two}
        assert [(await service.matches.get(i)).is_active for i in matches.values()] == [
            True,
            False,
            True,
            False,
        ]
        return matches
    finally:
        await service.close()


async def make_old(url: str, clock: FakeClock) -> tuple[dict[str, int], dict[int, str], dict[int, str]]:
    """A database as the previous version left it: the matches of `write_matches` with the snapshots the
    previous engine stored, at the schema version before the upgrade. Returns the matches by name, and
    their snapshots as the previous and as this version store them."""
    matches = await write_matches(url, clock)
    store = await open_store(url)
    old, new = {}, {}
    try:
        for match_id in matches.values():
            row = await store.get_match(match_id)
            assert row is not None
            log = [(m.seat, m.notation) for m in await store.moves(match_id)]
            old[match_id] = previous_snapshot(len(row.seats), dict(row.options), row.seed, log)
            new[match_id] = row.snapshot
    finally:
        await store.close()
    await write_directly(url, old, version_before(url))
    return matches, old, new


async def test_an_old_database_is_upgraded_once_and_check_db_finds_nothing(
    store_url: str, clock: FakeClock
) -> None:
    matches, old, new = await make_old(store_url, clock)
    for name, resignations in (("active", 1), ("finished", 2), ("two", 1), ("out_of_turn", 0)):
        match_id = matches[name]  # the previous engine counted a ply per resignation on one's turn
        assert json.loads(old[match_id])["ply"] == json.loads(new[match_id])["ply"] + resignations
        assert "timeout" not in json.loads(old[match_id])["settings"]

    service = await Service.open(store_url, now=clock, rng=random.Random(3))
    try:
        assert service.quarantined == []
        for match_id in matches.values():  # rewritten to the replay's; the out-of-turn one had nothing to do
            expected = old[match_id] if match_id == matches["out_of_turn"] else new[match_id]
            assert await raw_snapshot(store_url, match_id) == expected
        # The active match plays on: its move numbers are its log's, and the next piece gets the next one.
        view = await service.matches.get(matches["active"])
        numbers = move_numbers(m.notation for m in await service.matches.log(matches["active"]))
        assert RULES.moves_played(view.state) == numbers[-1] == 7
        view = await place(service, matches["active"], random.Random(9))
        assert RULES.moves_played(view.state) == 8 and view.state.placed[-1].ply == 7
    finally:
        await service.close()
    assert await check_database(store_url) == []
    assert await schema_version(store_url) == version_now(store_url)

    # Recorded: a second open does not run it again (a snapshot put back as it was stays so).
    await write_directly(store_url, {matches["finished"]: old[matches["finished"]]}, version_now(store_url))
    service = await Service.open(store_url, now=clock)
    await service.close()
    assert await raw_snapshot(store_url, matches["finished"]) == old[matches["finished"]]


async def test_a_snapshot_the_recount_does_not_explain_is_left_untouched(
    store_url: str, clock: FakeClock
) -> None:
    matches, old, new = await make_old(store_url, clock)
    odd = json.loads(old[matches["finished"]])
    odd["ply"] += 1  # three above this engine's count, where the previous engine wrote two
    odd_text = json.dumps(odd, separators=(",", ":"), sort_keys=True)
    await write_directly(store_url, {matches["finished"]: odd_text}, version_before(store_url))
    service = await Service.open(store_url, now=clock)
    await service.close()
    assert await raw_snapshot(store_url, matches["finished"]) == odd_text
    assert await raw_snapshot(store_url, matches["two"]) == new[matches["two"]]
    [problem] = await check_database(store_url)
    assert problem.startswith(
        f"match #{matches['finished']} (tilingking): the snapshot differs from the replay"
    )


async def test_processes_starting_together_upgrade_once(
    postgres_url: str, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    matches, _old, new = await make_old(postgres_url, clock)
    with caplog.at_level(logging.INFO, logger="bot.service.store.upgrades"):
        stores = await asyncio.gather(*(PostgresStore.open(postgres_url) for _ in range(4)))
        await asyncio.gather(*(s.close() for s in stores))
    [line] = [r.getMessage() for r in caplog.records if "recounted the plies" in r.getMessage()]
    assert line.startswith("recounted the plies of 3 TilingKing matches")
    for match_id in matches.values():
        if match_id != matches["out_of_turn"]:
            assert await raw_snapshot(postgres_url, match_id) == new[match_id]
    assert await check_database(postgres_url) == []


async def test_an_old_sqlite_database_moves_to_postgresql_upgraded(
    db_path: Path, postgres_url: str, clock: FakeClock
) -> None:
    """migrate-db opens the source with the store first, so the copy is of the upgraded rows."""
    source = f"sqlite:///{db_path}"
    matches, _old, new = await make_old(source, clock)
    copied = await transfer(source, postgres_url)
    assert copied["matches"] == len(matches)
    assert await raw_snapshot(postgres_url, matches["active"]) == new[matches["active"]]
    assert await check_database(postgres_url) == []
