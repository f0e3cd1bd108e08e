"""Event-loop lag and /move latency through the real bot while heavy work runs beside it.

The real TesseraBot runs under SimCord on a fresh SQLite file. One player plays /move after /move in a Paint
match (each timed from the interaction to its board reply) while, started together in the background:
`--replays` replays of a 600-move Paint match (six by default: the replay processes and their queue),
`--renders` board renders (fifty, on the board pool) and `--ai` searches of the hard AI (four, in the AI
processes). A probe task measures the event loop's lag (how late a 10 ms sleep wakes up). The same is
measured with nothing in the background first, then with the replays alone, for comparison. The replay
worker processes are started before measuring, as in a bot that has already drawn a replay. Peak memory of
the bot process is reported too.

    python bench/loop_lag.py
    python bench/loop_lag.py --moves 40 --replays 6 --renders 50 --ai 4
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import simcord
from bot_burst import dispatch_move, percentile  # bench/ is the script's folder

import games
from bot.client import TesseraBot
from bot.settings import Settings

FAKE_TOKEN = "MTAxMjM0NTY3ODkwMTIzNDU2.GaBcDe.abcdefghijklmnopqrstuvwxyz0123"


def long_paint_log(plies: int) -> list[tuple[int, str]]:
    """A Paint move log of `plies` moves (each move the first legal one, so the game goes on)."""
    rules = games.get("paint")
    state = rules.new(2, {"move_cap": 2000, "lead_turns": 2000, "no_lead_turns": 2000}, 1)
    log: list[tuple[int, str]] = []
    while len(log) < plies and (seat := rules.to_move(state)) is not None:
        moves = list(rules.legal_moves(state))
        move = moves[len(log) * 7 % len(moves)]
        log.append((seat, rules.notation(state, move)))
        state = rules.apply(state, move)
    return log


async def probe_lag(stop: asyncio.Event, lags: list[float]) -> None:
    while not stop.is_set():
        started = time.perf_counter()
        await asyncio.sleep(0.01)
        lags.append(time.perf_counter() - started - 0.01)


LONG_GAME = {"move_cap": 2000, "lead_turns": 2000, "no_lead_turns": 2000}


def replay_job(bot: TesseraBot, match_id: int, log: list[tuple[int, str]]) -> Any:
    """A replay of a Paint match, asked by its own user (the fair queue allows one per user)."""
    return bot.runtime.drawing.replay(
        user_id=match_id,
        match_id=match_id,
        game="paint",
        options=LONG_GAME,
        seed=1,
        seats=2,
        log=log,
        players=["Ann", "Ben"],
        outcome=None,
        theme="default",
    )


async def warm_up(bot: TesseraBot) -> None:
    """Start every replay worker process once (a running bot has them after its first replays)."""
    log = long_paint_log(2)
    workers = bot.runtime.drawing.replay_workers
    await asyncio.gather(*(replay_job(bot, 10**8 + n, log) for n in range(workers)))


async def background(bot: TesseraBot, first_id: int, replays: int, renders: int, ai: int) -> list[Any]:
    """Start the background work; replays of new matches (ids from `first_id`), so none is cached."""
    runtime = bot.runtime
    rules = games.get("paint")
    log = long_paint_log(600)
    start = rules.new(2, LONG_GAME, 1)
    jobs = [replay_job(bot, first_id + n, log) for n in range(replays)]
    jobs += [
        runtime.drawing.board(
            "paint", start, last_move=None, players=["A", "B"], outcome=None, theme="default"
        )
        for _ in range(renders)
    ]
    jobs += [runtime.ai.choose("paint", rules.dump(start), "hard", n) for n in range(ai)]
    return [asyncio.ensure_future(job) for job in jobs]


async def measure(moves: int, replays: int, renders: int, ai: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'lag.sqlite3'}"
        settings = Settings(_env_file=None, discord_token=FAKE_TOKEN, database_url=url, shard_count=1)  # type: ignore[call-arg]
        bot = TesseraBot(settings)
        async with simcord.run(bot, settle_timeout=300, check_errors=False) as env:
            try:
                guild = env.create_guild("Lag")
                one = guild.add_member(env.create_user("ann"))
                two = guild.add_member(env.create_user("ben"))
                players = {one.id: one, two.id: two}
                service = bot.runtime.service

                moves_cog = bot.get_cog("Moves")
                assert moves_cog is not None
                reply = moves_cog.reply_with_board  # type: ignore[attr-defined]
                answered: dict[int, asyncio.Event] = {}

                async def timed_reply(interaction: Any, played: Any) -> None:
                    await reply(interaction, played)
                    answered.setdefault(interaction.id, asyncio.Event()).set()

                moves_cog.reply_with_board = timed_reply  # type: ignore[attr-defined]

                async def open_table(name: str) -> tuple[Any, int]:
                    """A fresh match in a new channel (before the background starts: SimCord's settle
                    after /play would wait for it)."""
                    channel = guild.create_text_channel(name)
                    challenge = await one.slash(
                        channel, "play", game="paint", opponent=two, first="challenger"
                    )
                    await two.click(challenge.response, label="Accept")
                    return channel, (await service.matches.in_channel(channel.id)).id

                async def play(count: int, channel: Any, match_id: int) -> list[float]:
                    """Each /move is dispatched without SimCord's settle (which would also wait for the
                    background work) and timed until its board reply was sent."""
                    latencies = []
                    for _ in range(count):
                        match = await service.matches.get(match_id)
                        if match.user_to_move is None:
                            break
                        rules = service.rules(match.game)
                        notation = rules.notation(match.state, next(iter(rules.legal_moves(match.state))))
                        started = time.perf_counter()
                        record = dispatch_move(players[match.user_to_move], channel, notation)
                        done = answered.setdefault(record.id, asyncio.Event())
                        await asyncio.wait_for(done.wait(), timeout=120)
                        latencies.append(time.perf_counter() - started)
                        result = simcord.InteractionResult(env, record)
                        board = result.followups[-1] if result.followups else result.response
                        assert board is not None and board.attachments, "a move got no board"
                    return latencies

                figures: dict[str, float] = {}
                scenarios = (
                    ("quiet", (0, 0, 0)),
                    ("replays", (replays, 0, 0)),
                    ("everything", (replays, renders, ai)),
                )
                await warm_up(bot)
                for number, (label, load) in enumerate(scenarios):
                    channel, match_id = await open_table(label)
                    stop, lags = asyncio.Event(), []
                    prober = asyncio.ensure_future(probe_lag(stop, lags))
                    work = await background(bot, 10**9 * (number + 1), *load) if any(load) else []
                    started = time.perf_counter()
                    latencies = await play(moves, channel, match_id)
                    busy = sum(not job.done() for job in work)
                    stop.set()
                    await prober
                    if work:
                        await asyncio.gather(*work)
                        figures[f"{label}_background_s"] = time.perf_counter() - started
                        figures[f"{label}_jobs_still_running_after_the_moves"] = busy
                    millis = [value * 1000 for value in latencies]
                    figures[f"{label}_move_p50_ms"] = statistics.median(millis)
                    figures[f"{label}_move_p99_ms"] = percentile(millis, 0.99)
                    figures[f"{label}_move_max_ms"] = max(millis)
                    figures[f"{label}_loop_lag_p99_ms"] = percentile(lags, 0.99) * 1000
                    figures[f"{label}_loop_lag_max_ms"] = max(lags) * 1000
            finally:
                await bot.close()
    figures["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--replays", type=int, default=6)
    parser.add_argument("--renders", type=int, default=50)
    parser.add_argument("--ai", type=int, default=4)
    args = parser.parse_args()
    figures = asyncio.run(measure(args.moves, args.replays, args.renders, args.ai))
    print(f"loop_lag moves={args.moves} replays={args.replays} renders={args.renders} ai={args.ai}")
    for name, value in figures.items():
        print(f"  {name:<40}{value:10.1f}")


if __name__ == "__main__":
    main()
