"""Bursts through the real bot: N players send /move at the same moment, each in their own match.

The real TesseraBot runs under SimCord (Discord simulated in memory) on a fresh SQLite file; N Paint
matches are started through /play and Accept, then in each round all N players to move send /move at the
same instant: the N interactions reach the bot's gateway together, before any is answered. SimCord's public
actors run one operation at a time, so the burst is dispatched with its interaction builders (simcord 3.2.1,
pinned). Each /move is timed from the burst to the moment its board reply was sent; every move must be
answered with its board (an image attachment), which the bench checks and reports. CPU per move is given for
the whole process (bot, renders and the simulated Discord) and for the event loop's thread alone.

    python bench/bot_burst.py                 # N = 50 and 200, 3 rounds each
    python bench/bot_burst.py --sizes 50 --rounds 5
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import simcord

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import bot.service as tessera_service  # noqa: E402
from bot.client import TesseraBot  # noqa: E402
from bot.settings import Settings  # noqa: E402
from bot.testing.simcord import dispatch_move  # noqa: E402  (also used by the burst test)

FAKE_TOKEN = "MTAxMjM0NTY3ODkwMTIzNDU2.GaBcDe.abcdefghijklmnopqrstuvwxyz0123"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def burst(size: int, rounds: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'burst.sqlite3'}"
        settings = Settings(_env_file=None, discord_token=FAKE_TOKEN, database_url=url, shard_count=1)  # type: ignore[call-arg]
        # SimCord settles when no task is left waiting; the bot's turn sweep (a timer every five minutes, a
        # safety net for turns nothing scheduled) always is, so every settle would wait out settle_timeout.
        # No match here is the bot's, so the bench runs without it.
        tessera_service.SWEEP_EVERY = None  # type: ignore[assignment]
        bot = TesseraBot(settings)
        async with simcord.run(bot, settle_timeout=300, check_errors=False) as env:
            try:
                guild = env.create_guild("Burst")
                service = bot.runtime.service
                tables: list[tuple[Any, dict[int, Any], int]] = []
                for index in range(size):
                    channel = guild.create_text_channel(f"table-{index}")
                    one = guild.add_member(env.create_user(f"p{index}a"))
                    two = guild.add_member(env.create_user(f"p{index}b"))
                    challenge = await one.slash(
                        channel, "play", game="paint", opponent=two, first="challenger"
                    )
                    await two.click(challenge.response, label="Accept")
                    match = await service.matches.in_channel(channel.id)
                    tables.append((channel, {one.id: one, two.id: two}, match.id))

                latencies: list[float] = []
                missing = 0
                elapsed = process_cpu = main_cpu = 0.0
                answered: dict[int, float] = {}
                moves_cog = bot.get_cog("Moves")
                assert moves_cog is not None
                reply = moves_cog.reply_with_board  # type: ignore[attr-defined]

                async def timed_reply(interaction: Any, played: Any) -> None:
                    await reply(interaction, played)
                    answered[interaction.id] = time.perf_counter()

                moves_cog.reply_with_board = timed_reply  # type: ignore[attr-defined]
                for _ in range(rounds):
                    records = []
                    answered.clear()
                    for channel, players, match_id in tables:
                        match = await service.matches.get(match_id)
                        if match.user_to_move is None:
                            continue
                        rules = service.rules(match.game)
                        move = rng.choice(list(rules.legal_moves(match.state)))
                        records.append(
                            dispatch_move(
                                players[match.user_to_move], channel, rules.notation(match.state, move)
                            )
                        )
                    if not records:  # every match has ended
                        break
                    started = time.perf_counter()
                    cpu, loop_cpu = time.process_time(), time.thread_time()
                    await env._settle_internal(dispatch="INTERACTION_CREATE")
                    elapsed += time.perf_counter() - started
                    process_cpu += time.process_time() - cpu
                    main_cpu += time.thread_time() - loop_cpu
                    for record in records:
                        result = simcord.InteractionResult(env, record)
                        board = result.followups[-1] if result.followups else result.response
                        if board is None or not board.attachments or record.id not in answered:
                            missing += 1
                        else:
                            latencies.append(answered[record.id] - started)
            finally:
                await bot.close()
    millis = [value * 1000 for value in latencies]
    return {
        "moves": len(millis),
        "moves_per_s": len(millis) / elapsed,
        "p50_ms": statistics.median(millis),
        "p99_ms": percentile(millis, 0.99),
        "max_ms": max(millis),
        "without_board": missing,
        "cpu_ms_per_move": 1000 * process_cpu / len(millis),
        "loop_ms_per_move": 1000 * main_cpu / len(millis),
    }


async def run(args: argparse.Namespace) -> None:
    for size in args.sizes:
        figures = await burst(size, args.rounds, args.seed)
        print(f"bot_burst N={size} rounds={args.rounds}")
        for name, value in figures.items():
            print(f"  {name:<14}{value:10.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
