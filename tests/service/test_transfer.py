"""`python -m bot migrate-db` and `python -m bot backup` on real databases: a SQLite file filled through the
real service (all three games, ratings, preferences, settings, posted messages, reminders) is moved to
PostgreSQL and back to a new SQLite file; every table's rows are equal on the way, the store reads the same
records from each, check-db passes, and new ids follow the copied ones. A backup taken while a store holds
the database (as the running bot does) equals the database."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import sys
import uuid
from pathlib import Path
from typing import Any

import asyncpg
import pytest

import games
from bot.service import Service
from bot.service.checkdb import check_database
from bot.service.puzzles import Puzzles, no_starters
from bot.service.records import AI_LEVELS, NewPuzzle, PostedMessage, RequestMessage, TakebackRequested
from bot.service.store import open_store
from bot.service.store.postgres import with_search_path
from bot.service.tournaments.model import Format
from bot.service.tournaments.model import Settings as TournamentSettings
from bot.service.transfer import INTERNAL_TABLES, TransferError, transfer
from tests.entry_helpers import closed_port, run
from tests.service.conftest import FakeClock
from tests.service.helpers import ALICE, BOB, BOT, CAROL, CHANNEL, GUILD, legal, start_match

ROOT = Path(__file__).resolve().parents[2]


async def play(service: Service, match_id: int, plies: int, seed: int) -> None:
    """`plies` random legal moves by whoever is to move (stops at the end of the game or at a bot's turn)."""
    rng = random.Random(seed)
    for _ in range(plies):
        view = await service.matches.get(match_id)
        user = view.user_to_move
        if not view.is_active or user is None or view.ai_seat_to_move():
            return
        await service.matches.play(
            match_id, user, rng.choice(await legal(service, match_id)), expected_ply=view.ply
        )


async def fill(url: str, clock: FakeClock) -> None:
    """A database with a row in every table, written through the real service and its real games."""
    service = Service(await open_store(url), now=clock, rng=random.Random(5))
    try:
        await service.guilds.update(
            GUILD,
            turn_timeout=7200,
            threads=True,
            allowed_channels=range(CHANNEL, CHANNEL + 10),
            locale="ja",
            web_board=False,
        )
        await service.prefs.set_user(ALICE, theme="colorblind", reminders="dm")
        await service.prefs.set_user(BOB, reminders="mention")
        await service.prefs.set_guild_theme(GUILD, "colorblind")
        # Paint, finished and rated: ratings, their changes, the guild's players.
        paint = await start_match(service, "paint", {"white": "opponent"}, channel=CHANNEL)
        await play(service, paint.id, 9, seed=1)
        clock.advance(60)
        await service.matches.resign(paint.id, ALICE)
        # Paintscape, active, with an abort vote waiting, its board posted and its turn reminded.
        paintscape = await start_match(service, "paintscape", {"balancer": "challenger"}, channel=CHANNEL + 1)
        await play(service, paintscape.id, 7, seed=2)
        await service.agreements.request_abort(paintscape.id, ALICE)
        await service.messages.board_posted(paintscape.id, CHANNEL + 1, 5551)
        view = await service.matches.get(paintscape.id)
        assert view.deadline is not None
        assert await service.store.claim_turn_reminder(paintscape.id, view.deadline, clock())
        # TilingKing from a lobby with the bot in a seat, a takeback waiting.
        lobby = await service.lobbies.create(
            "tilingking", {}, ALICE, guild_id=GUILD, channel_id=CHANNEL + 2, seat_order="joined"
        )
        await service.lobbies.join(lobby.id, BOB)
        await service.lobbies.join(lobby.id, BOT, ai_level=AI_LEVELS[0])
        tilingking = await service.lobbies.start(lobby.id, ALICE)
        await play(service, tilingking.id, 2, seed=3)
        asked = await service.agreements.request_takeback(tilingking.id, ALICE)
        assert isinstance(asked, TakebackRequested)
        shown = PostedMessage(CHANNEL + 2, 6661)
        await service.messages.request_posted(
            RequestMessage(shown, tilingking.id, "takeback", asked.match.ply, ALICE, asked.waiting_for)
        )
        # A side table beside Paintscape (started in the channel's Activity): the copy keeps the flag.
        beside = await service.challenges.create(
            "paint", {"white": "challenger"}, BOB, CAROL, guild_id=GUILD, channel_id=CHANNEL + 1, side=True
        )
        assert (await service.challenges.accept(beside.id, CAROL)).side
        # A Paint match whose moves were taken back.
        taken = await start_match(service, "paint", {"white": "challenger"}, channel=CHANNEL + 5)
        await play(service, taken.id, 2, seed=4)
        await service.agreements.request_takeback(taken.id, ALICE)
        await service.agreements.accept_takeback(taken.id, BOB)
        # A rematch offered after the finished Paint match, and a draw offered in a Paint match going on.
        await service.rematches.offer(paint.id, BOB)
        drawn = await start_match(service, "paint", {"white": "challenger"}, channel=CHANNEL + 6)
        await play(service, drawn.id, 2, seed=5)
        await service.draws.offer(drawn.id, ALICE)
        # A challenge still open, with its message.
        challenge = await service.challenges.create(
            "tilingking", {}, CAROL, ALICE, guild_id=GUILD, channel_id=CHANNEL + 3
        )
        await service.messages.challenge_posted(challenge.id, CHANNEL + 3, 7771)
        await service.store.put_meta("commands-global.sha256", "f00d")
        await service.store.revoke_web("user:1", 1.5, 2_000_000_000.0)  # the web board's logouts
        # A Swiss event running its first round (its match in a channel of its own), an action left undone.
        host = service.tournaments
        host.channel_for = lambda t, action: asyncio.sleep(0, result=CHANNEL + 4)  # type: ignore[assignment]
        event = await host.create(GUILD, CHANNEL, ALICE, TournamentSettings("paint", Format.SWISS, rounds=1))
        await host.join(event.id, ALICE)
        await host.join(event.id, CAROL)
        assert (await host.begin(event.id, ALICE)).round_games()[0].match_id is not None
        # A puzzle mined from the Paint match, answered by Alice, and a server's daily puzzle posted.
        assert await service.store.claim_puzzle_mining(paint.id, clock())
        await service.store.finish_puzzle_mining(paint.id, clock())
        rules = service.rules("paint")
        puzzle = NewPuzzle(
            game="paint",
            options={"white": "opponent"},
            seats=2,
            position=rules.dump(rules.new(2, {}, 1)),
            mover=0,
            solution=("c1-c3", "b9-b8"),
            source_match=paint.id,
            source_ply=0,
            figures={"first_best": 0.9, "played": "c1-c2"},
            mu=26.5,
            sigma=8.0,
            theme="push",
        )
        puzzles = Puzzles(service.store, service.matches, now=clock, starters=no_starters)
        puzzle_id = await service.store.insert_puzzle(puzzle, clock())
        assert puzzle_id is not None
        await puzzles.answer(ALICE, puzzle_id, "c1-c3")
        await puzzles.next(BOB)  # shown, not answered
        await puzzles.streak_next(CAROL)  # a Puzzle Streak begun
        await puzzles.set_daily(GUILD, CHANNEL + 4)
        assert await puzzles.post_daily()
    finally:
        await service.store.close()


def sqlite_tables(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows (sorted), each value with its type: 1, 1.0 and '1' differ."""
    db = sqlite3.connect(path)
    try:
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {
            name: sorted(
                (tuple((type(v).__name__, v) for v in row) for row in db.execute(f"SELECT * FROM {name}")),
                key=repr,
            )
            for name in names
            if not name.startswith("sqlite_")
        }
    finally:
        db.close()


async def postgres_types(url: str) -> dict[str, dict[str, str]]:
    """Each table's column types on PostgreSQL."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = current_schema()"
        )
    finally:
        await conn.close()
    types: dict[str, dict[str, str]] = {}
    for r in rows:
        types.setdefault(r["table_name"], {})[r["column_name"]] = r["data_type"]
    return types


def plain(data_type: str, value: Any, *, stored_as_text: bool) -> Any:
    """A value as Python sees it whichever store holds it: JSON parsed, flags as bools, arrays as lists."""
    if value is None:
        return None
    if data_type in ("jsonb", "ARRAY") and stored_as_text:
        return json.loads(value)
    if data_type == "jsonb":
        return json.loads(value)  # asyncpg without the store's codec gives JSONB as text
    if data_type == "ARRAY":
        return list(value)
    if data_type == "boolean":
        return bool(value)
    return value


async def same_rows_on_postgres(sqlite_file: Path, url: str) -> None:
    """Every SQLite table has the same rows (as Python values) in the PostgreSQL database."""
    types = await postgres_types(url)
    db = sqlite3.connect(sqlite_file)
    conn = await asyncpg.connect(url)
    try:
        names = [
            r[0]
            for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if r[0] not in INTERNAL_TABLES  # the SQLite file's own shutdown state is not data
        ]
        assert set(names) == set(types) - INTERNAL_TABLES
        for name in names:
            columns = [r[1] for r in db.execute(f"PRAGMA table_info({name})")]
            kinds = [types[name][c] for c in columns]
            listed = ", ".join(columns)
            here = [
                tuple(plain(k, v, stored_as_text=True) for k, v in zip(kinds, row, strict=True))
                for row in db.execute(f"SELECT {listed} FROM {name}")
            ]
            there = [
                tuple(plain(k, v, stored_as_text=False) for k, v in zip(kinds, record, strict=True))
                for record in await conn.fetch(f"SELECT {listed} FROM {name}")
            ]
            assert sorted(here, key=repr) == sorted(there, key=repr), f"the table {name} differs"
            assert [type(v) for row in sorted(here, key=repr) for v in row] == [
                type(v) for row in sorted(there, key=repr) for v in row
            ], f"the table {name} has other value types"
    finally:
        db.close()
        await conn.close()


async def same_records(first: str, second: str) -> None:
    """The stores read the same matches, moves, ratings, settings and preferences from both databases."""
    a, b = await open_store(first), await open_store(second)
    try:
        ids = await a.match_ids()
        assert ids and ids == await b.match_ids()
        for match_id in ids:
            assert await a.get_match(match_id) == await b.get_match(match_id)
            assert await a.moves(match_id) == await b.moves(match_id)
            assert await a.rating_changes(match_id) == await b.rating_changes(match_id)
            assert await a.get_board_message(match_id) == await b.get_board_message(match_id)
            assert await a.draws(match_id) == await b.draws(match_id)
            assert await a.rematch(match_id) == await b.rematch(match_id)
        for game in games.GAME_IDS:
            assert await a.leaderboard(game, GUILD, 10, 1e9) == await b.leaderboard(game, GUILD, 10, 1e9)
        assert await a.get_guild_settings(GUILD) == await b.get_guild_settings(GUILD)
        for user in (ALICE, BOB, CAROL):
            assert await a.get_user_prefs(user) == await b.get_user_prefs(user)
        assert await a.get_guild_theme(GUILD) == await b.get_guild_theme(GUILD)
        assert await a.pending_challenges() == await b.pending_challenges()
        assert await a.get_meta("commands-global.sha256") == await b.get_meta("commands-global.sha256")
    finally:
        await a.close()
        await b.close()


def migrate(cwd: Path, database_url: str, *args: str) -> Any:
    """`python -m bot migrate-db ...` as an operator runs it, DATABASE_URL naming the source."""
    return run([sys.executable, "-m", "bot", "migrate-db", *args], cwd, DATABASE_URL=database_url)


async def test_a_sqlite_database_moves_to_postgresql_and_back_with_every_row(
    tmp_path: Path, postgres_url: str, clock: FakeClock
) -> None:
    source = tmp_path / "source.sqlite3"
    source_url = f"sqlite:///{source}"
    await fill(source_url, clock)
    before = sqlite_tables(source)
    empty = sorted(name for name, rows in before.items() if not rows)
    assert not empty, f"fill() leaves tables empty, so their copy goes untested: {empty}"

    # While a store holds the file (a running bot), nothing is copied: the bot would go on writing.
    holder = await open_store(source_url)
    try:
        held = migrate(tmp_path, source_url, "--to", postgres_url)
    finally:
        await holder.close()
    assert held.returncode == 2 and "in use by another process" in held.stderr, held.stderr

    there = migrate(tmp_path, source_url, "--to", postgres_url)
    assert there.returncode == 0, there.stderr
    assert "check-db: the copy is consistent" in there.stdout
    await same_rows_on_postgres(source, postgres_url)
    await same_records(source_url, postgres_url)
    assert await check_database(postgres_url) == []
    copied = await open_store(postgres_url)
    try:
        assert [m.side for m in (await copied.get_matches(await copied.match_ids())).values()].count(
            True
        ) == 1
    finally:
        await copied.close()

    # A target with rows is refused, and left as it was; --overwrite replaces its rows.
    again = migrate(tmp_path, source_url, "--to", postgres_url)
    assert again.returncode == 2 and "is not empty" in again.stderr and "--overwrite" in again.stderr
    await same_rows_on_postgres(source, postgres_url)
    replaced = migrate(tmp_path, source_url, "--to", postgres_url, "--overwrite")
    assert replaced.returncode == 0, replaced.stderr
    await same_rows_on_postgres(source, postgres_url)

    back = tmp_path / "back" / "back.sqlite3"
    back.parent.mkdir()
    home = migrate(tmp_path, source_url, "--from", postgres_url, "--to", f"sqlite:///{back}")
    assert home.returncode == 0, home.stderr
    assert sqlite_tables(back) == before, "SQLite -> PostgreSQL -> SQLite changes no value, not even its type"
    assert await check_database(f"sqlite:///{back}") == []

    # The copied ids are taken: new matches, challenges and lobbies on PostgreSQL get the next ones.
    service = Service(await open_store(postgres_url), now=clock, rng=random.Random(9))
    try:
        match = await start_match(service, "paint", channel=CHANNEL + 9)
        lobby = await service.lobbies.create("tilingking", {}, BOB, guild_id=GUILD, channel_id=CHANNEL + 8)
    finally:
        await service.store.close()
    assert match.id == 1 + max(row[0][1] for row in before["matches"])
    assert lobby.id == 1 + max(row[0][1] for row in before["lobbies"])


async def test_a_copy_into_a_non_empty_database_is_refused_unless_asked(
    tmp_path: Path, clock: FakeClock
) -> None:
    first, second = tmp_path / "first.sqlite3", tmp_path / "second.sqlite3"
    await fill(f"sqlite:///{first}", clock)
    other = Service(await open_store(f"sqlite:///{second}"), now=clock, rng=random.Random(3))
    try:
        await start_match(other, "paint", channel=CHANNEL + 5)
        await other.prefs.set_user(CAROL, theme="default")
    finally:
        await other.store.close()
    kept = sqlite_tables(second)
    with pytest.raises(TransferError, match="is not empty"):
        await transfer(f"sqlite:///{first}", f"sqlite:///{second}")
    assert sqlite_tables(second) == kept
    copied = await transfer(f"sqlite:///{first}", f"sqlite:///{second}", overwrite=True)
    assert sqlite_tables(second) == sqlite_tables(first)
    assert copied["matches"] == len(sqlite_tables(first)["matches"]) > 1


async def test_a_damaged_row_stops_the_copy_with_a_line_that_names_it(
    tmp_path: Path, clock: FakeClock, postgres_url: str
) -> None:
    """A value PostgreSQL would refuse (options that are not JSON) names its table, row and column, and
    nothing is copied."""
    source = tmp_path / "source.sqlite3"
    await fill(f"sqlite:///{source}", clock)
    with sqlite3.connect(source) as db:
        db.execute("UPDATE matches SET options = '{bad' WHERE id = 1")
    done = migrate(tmp_path, f"sqlite:///{source}", "--to", postgres_url)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("migrate-db: nothing copied: matches row 1: options is not json"), line
    assert "repair or delete that row" in line


async def test_nothing_is_copied_into_the_same_database_or_from_a_missing_one(tmp_path: Path) -> None:
    path = tmp_path / "one.sqlite3"
    with pytest.raises(TransferError, match="the same database"):
        await transfer(f"sqlite:///{path}", f"sqlite:///{tmp_path}/./one.sqlite3")
    with pytest.raises(TransferError, match="no database file"):
        await transfer(f"sqlite:///{path}", f"sqlite:///{tmp_path / 'new.sqlite3'}")
    assert not (tmp_path / "new.sqlite3").exists()


async def test_an_unreachable_target_copies_nothing_and_says_so_in_one_line(
    tmp_path: Path, clock: FakeClock
) -> None:
    source = tmp_path / "source.sqlite3"
    await fill(f"sqlite:///{source}", clock)
    before = sqlite_tables(source)
    target = f"postgresql://tessera:s3cret@127.0.0.1:{closed_port()}/tessera"
    done = migrate(tmp_path, f"sqlite:///{source}", "--to", target)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("migrate-db: nothing copied:") and "cannot be reached" in line
    assert "s3cret" not in done.stderr + done.stdout
    bad = migrate(tmp_path, f"sqlite:///{source}", "--to", "mysql://db/tessera")
    assert bad.returncode == 2 and "unsupported database URL scheme" in bad.stderr
    assert sqlite_tables(source) == before


async def test_one_postgresql_database_under_two_urls_is_refused(postgres_url: str) -> None:
    other_spelling = postgres_url + "&application_name=tessera-migrate"
    with pytest.raises(TransferError, match="the same database"):
        await transfer(postgres_url, other_spelling, overwrite=True)
    # Another schema of the same server is another database: copied (both are empty here).
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(postgres_url)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        copied = await transfer(with_search_path(postgres_url.split("?")[0], schema), postgres_url)
        assert copied and set(copied.values()) == {0}
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()
