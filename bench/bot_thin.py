"""Bursts through the bot without SimCord: the real /move callback, runtime, drawing pool, service and store.

What `bench/bot_burst.py` measures through the simulated Discord, minus the simulation: the real `Runtime`
(with the real `Drawing` and `AIRunner`) over the real `Service` on a fresh SQLite file, and the real
`Moves.move` command callback, called with a fake interaction that implements what the callback uses and
records what would be sent (content, files). N Paint matches are started through the service; in each
round all N players to move call /move at the same instant (N tasks started together). Each /move is timed
from the burst's start to its board reply; every move must be answered with its own board (an image whose
message names its match), which the bench checks and reports.

Boards are drawn in the board processes, as in the bot; `--threads` draws them on the fallback threads
instead (the comparison). `--stub-render` replaces the board render by a constant PNG (drawn on a thread: no
process can run a stub): the difference is the render's share.
CPU per move: `cpu_ms_per_move` is the whole bot's (this process, `main_ms_per_move`, of which the event
loop's thread is `loop_ms_per_move`, plus the board processes, `boards_ms_per_move`, read from /proc): the
figure to compare on a busy machine, where moves/s and latencies follow the other load. Those are medians
of the rounds; `cpu_ms_per_move_all` is the whole run's CPU over its moves (finer: /proc counts in 10 ms
ticks).
`--profile FILE` writes a cProfile of the bursts (the event loop's thread) to FILE. `--started` starts the
whole runtime as the bot does (`Runtime.start`: the turn clock too, which every move wakes); by default only
the board processes are started, as the figures in the README were measured.

    python bench/bot_thin.py                      # N = 50 and 200, 5 rounds each, medians of the rounds
    python bench/bot_thin.py --sizes 50 --rounds 9 --stub-render
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import itertools
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import bot.drawing  # noqa: E402
from bot.drawing import Drawing  # noqa: E402
from bot.parts import Parts  # noqa: E402
from bot.runtime import Runtime  # noqa: E402
from bot.service import Service  # noqa: E402
from bot.service.ai import AIRunner  # noqa: E402
from cogs.moves import Moves  # noqa: E402

GUILD_ID = 7_000_000_000_000_001
_ids = itertools.count(8_000_000_000_000_000)


def process_cpu_seconds(pids: list[int]) -> float:
    """The CPU time (user + system) the processes `pids` have used so far, from /proc (Linux; NaN
    elsewhere): the board processes' share of a move, which `time.process_time` in this process misses."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / ticks


def board_pids(drawing: Drawing) -> list[int]:
    """The board processes' ids (none when boards are drawn on threads)."""
    pool = drawing._board_pool
    return pool.pids if pool is not None else []


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


class FakeUser:
    def __init__(self, user_id: int, name: str) -> None:
        self.id = user_id
        self.display_name = name
        self.name = name


class FakeChannel:
    def __init__(self, channel_id: int) -> None:
        self.id = channel_id


class FakeMessage:
    """A sent message: its id, channel and what it carried."""

    def __init__(self, channel_id: int, content: str, files: list[discord.File]) -> None:
        self.id = next(_ids)
        self.channel = FakeChannel(channel_id)
        self.content = content
        self.files = files

    async def edit(self, **changes: Any) -> None:  # a superseded board loses its buttons
        return None


class FakePartial:
    def __init__(self, channel_id: int) -> None:
        self.id = channel_id

    def get_partial_message(self, message_id: int) -> FakeMessage:
        return FakeMessage(self.id, "", [])

    async def send(self, content: str = "", **kwargs: Any) -> FakeMessage:
        return FakeMessage(self.id, content, [kwargs["file"]] if "file" in kwargs else [])

    async def typing(self) -> None:
        return None


class FakeClient:
    """What the parts and the cog ask of the bot: users, guilds, channels (none cached), the parts."""

    def __init__(self) -> None:
        self.parts: Parts
        self.user = FakeUser(1, "Tessera")

    def get_user(self, user_id: int) -> None:
        return None

    async def fetch_user(self, user_id: int) -> FakeUser:
        return FakeUser(user_id, f"user{user_id}")

    def get_guild(self, guild_id: int) -> None:
        return None

    def get_channel(self, channel_id: int) -> None:
        return None

    def get_partial_messageable(self, channel_id: int) -> FakePartial:
        return FakePartial(channel_id)


class FakeResponse:
    def __init__(self, interaction: FakeInteraction) -> None:
        self.interaction = interaction
        self.done = False

    def is_done(self) -> bool:
        return self.done

    async def defer(self, **kwargs: Any) -> None:
        self.done = True

    async def send_message(self, content: str = "", **kwargs: Any) -> Any:
        self.done = True
        self.interaction.record(content, kwargs)

        class Sent:
            message_id = next(_ids)

        return Sent()


class FakeFollowup:
    def __init__(self, interaction: FakeInteraction) -> None:
        self.interaction = interaction

    async def send(self, content: str = "", **kwargs: Any) -> FakeMessage:
        return self.interaction.record(content, kwargs)


class FakeInteraction:
    """A /move interaction: what the callback reads, and the replies it sends (with the time of each)."""

    def __init__(self, client: FakeClient, user: FakeUser, channel_id: int) -> None:
        self.id = next(_ids)
        self.client = client
        self.user = user
        self.guild_id = GUILD_ID
        self.channel_id = channel_id
        self.locale = discord.Locale.american_english
        self.guild_locale = discord.Locale.american_english
        self.extras: dict[str, Any] = {}
        self.type = discord.InteractionType.application_command
        self.message = None
        self.response = FakeResponse(self)
        self.followup = FakeFollowup(self)
        self.replies: list[tuple[float, FakeMessage]] = []

    def record(self, content: str, kwargs: dict[str, Any]) -> FakeMessage:
        files = list(kwargs.get("files", [])) + ([kwargs["file"]] if "file" in kwargs else [])
        sent = FakeMessage(self.channel_id, content, files)
        self.replies.append((time.perf_counter(), sent))
        return sent


def stub_render() -> None:
    """Replace the board render by a constant PNG (what is left is everything but the drawing)."""
    png = b"\x89PNG\r\n\x1a\n" + b"\0" * 64

    def draw_board(*args: Any, **kwargs: Any) -> tuple[bytes, str]:
        return png, "a board"

    bot.drawing.draw_board = draw_board  # type: ignore[assignment]


async def burst(
    size: int,
    rounds: int,
    seed: int,
    *,
    threads: bool,
    profile: cProfile.Profile | None,
    started: bool = False,
) -> dict[str, Any]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'thin.sqlite3'}"
        service = await Service.open(url)
        client = FakeClient()
        ai = AIRunner()
        runtime = Runtime(service, ai, owns_ai=True, drawing=Drawing(board_processes=not threads))
        client.parts = Parts.wire(runtime, client)  # type: ignore[arg-type]
        cog = Moves(client)  # type: ignore[arg-type]
        callback: Callable[..., Any] = Moves.move.callback
        try:
            tables: list[tuple[int, dict[int, FakeUser], int]] = []
            for index in range(size):
                channel = next(_ids)
                one, two = FakeUser(next(_ids), f"p{index}a"), FakeUser(next(_ids), f"p{index}b")
                challenge = await service.challenges.create(
                    "paint", {}, one.id, two.id, guild_id=GUILD_ID, channel_id=channel
                )
                match = await service.challenges.accept(challenge.id, two.id)
                tables.append((channel, {one.id: one, two.id: two}, match.id))
            if started:  # the whole runtime as the bot starts it: the turn clock runs during the bursts
                await runtime.start()
            else:  # only what Runtime.start does for boards
                runtime.drawing.start()
            # then a few boards, so every worker is warm
            warm = await service.matches.get(tables[0][2])
            await asyncio.gather(*(client.parts.boards.board(warm) for _ in range(8)))
            per_round: list[dict[str, float]] = []
            for _ in range(rounds):
                calls: list[tuple[FakeInteraction, int]] = []
                for channel, players, match_id in tables:
                    match = await service.matches.get(match_id)
                    if match.user_to_move is None:
                        continue
                    rules = service.rules(match.game)
                    move = rng.choice(list(rules.legal_moves(match.state)))
                    interaction = FakeInteraction(client, players[match.user_to_move], channel)
                    calls.append((interaction, match_id))
                    interaction.extras["notation"] = rules.notation(match.state, move)
                if not calls:
                    break
                if profile is not None:
                    profile.enable()
                pids = board_pids(runtime.drawing)
                boards_cpu = process_cpu_seconds(pids)
                started = time.perf_counter()
                cpu, loop_cpu = time.process_time(), time.thread_time()
                results = await asyncio.gather(
                    *(callback(cog, i, i.extras["notation"]) for i, _ in calls), return_exceptions=True
                )
                elapsed = time.perf_counter() - started
                process_cpu, main_cpu = time.process_time() - cpu, time.thread_time() - loop_cpu
                boards_cpu = process_cpu_seconds(pids) - boards_cpu
                if profile is not None:
                    profile.disable()
                latencies, missing, errors = [], 0, sum(isinstance(r, BaseException) for r in results)
                for interaction, match_id in calls:
                    boards = [
                        (at, sent)
                        for at, sent in interaction.replies
                        if sent.files and f"#{match_id} " in sent.content
                    ]
                    if len(boards) != 1:
                        missing += 1
                    else:
                        latencies.append(boards[0][0] - started)
                millis = [value * 1000 for value in latencies] or [float("nan")]
                per_round.append(
                    {
                        "moves_per_s": len(latencies) / elapsed,
                        "p50_ms": statistics.median(millis),
                        "p99_ms": percentile(millis, 0.99),
                        "cpu_ms_per_move": 1000 * (process_cpu + boards_cpu) / len(calls),
                        "main_ms_per_move": 1000 * process_cpu / len(calls),
                        "loop_ms_per_move": 1000 * main_cpu / len(calls),
                        "boards_ms_per_move": 1000 * boards_cpu / len(calls),
                        "without_board": missing,
                        "errors": errors,
                        "moves": len(calls),
                        "cpu_s": process_cpu + boards_cpu,
                    }
                )
        finally:
            await runtime.close()
    figures: dict[str, Any] = {
        name: statistics.median(r[name] for r in per_round)
        for name in per_round[0]
        if name not in ("errors", "moves", "cpu_s")
    }
    # /proc counts CPU in clock ticks (10 ms): the whole run's total per move is the finer figure
    figures["cpu_ms_per_move_all"] = (
        1000 * sum(r["cpu_s"] for r in per_round) / sum(r["moves"] for r in per_round)
    )
    figures["without_board"] = sum(r["without_board"] for r in per_round)
    figures["errors"] = sum(r["errors"] for r in per_round)
    figures["rounds_moves_per_s"] = [round(r["moves_per_s"]) for r in per_round]
    return figures


async def run(args: argparse.Namespace) -> None:
    if args.stub_render:
        stub_render()
    profile = cProfile.Profile(time.thread_time) if args.profile else None
    for size in args.sizes:
        threads = args.threads or args.stub_render
        figures = await burst(
            size, args.rounds, args.seed, threads=threads, profile=profile, started=args.started
        )
        label = " (render stubbed)" if args.stub_render else " (boards on threads)" if threads else ""
        label += " (runtime started: turn clock on)" if args.started else ""
        print(f"bot_thin N={size} rounds={args.rounds}{label}: medians of the rounds")
        for name, value in figures.items():
            print(f"  {name:<20}{value:10.2f}" if isinstance(value, float) else f"  {name:<20}{value}")
    if profile is not None:
        profile.dump_stats(args.profile)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stub-render", action="store_true")
    parser.add_argument("--threads", action="store_true", help="draw boards on threads, not processes")
    parser.add_argument("--profile", metavar="FILE")
    parser.add_argument(
        "--started",
        action="store_true",
        help="start the whole runtime as the bot does (the turn clock wakes on every move)",
    )
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
