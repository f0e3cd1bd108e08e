"""Time from a /move interaction to the board reply, through the whole bot (real command tree, SimCord).

Starts `--matches` matches (Paint and Paintscape alternately, each in its own channel, challenged and
accepted through /play and the Accept button), then plays `--rounds` rounds: in every active match the
player to move sends /move with a random legal move. Each /move is timed from the interaction to the moment
the bot has answered with the rendered board (SimCord returns once the bot's reply is sent). SimCord's actors
act one at a time, so the matches are interleaved, all active at once in the database.

    python bench/bot_latency.py                 # 200 matches x 5 rounds
    python bench/bot_latency.py --matches 50 --rounds 2

Output (stable format): one line per figure, `name: value`.
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

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import simcord  # noqa: E402

from bot.client import TesseraBot  # noqa: E402
from bot.settings import Settings  # noqa: E402

FAKE_TOKEN = "MTAxMjM0NTY3ODkwMTIzNDU2.GaBcDe.abcdefghijklmnopqrstuvwxyz0123"
GAMES = ("paint", "paintscape")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


async def run(matches: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        settings = Settings(_env_file=None, discord_token=FAKE_TOKEN, database_url=url, shard_count=1)  # type: ignore[call-arg]
        bot = TesseraBot(settings)
        async with simcord.run(bot, settle_timeout=120, check_errors=False) as env:
            try:
                guild = env.create_guild("Bench")
                service = bot.runtime.service
                tables: list[tuple[Any, dict[int, Any], int]] = []
                setup_started = time.perf_counter()
                for index in range(matches):
                    channel = guild.create_text_channel(f"table-{index}")
                    one = guild.add_member(env.create_user(f"p{index}a"))
                    two = guild.add_member(env.create_user(f"p{index}b"))
                    game = GAMES[index % len(GAMES)]
                    options = {"options": "balance=off"} if game == "paintscape" else {}
                    challenge = await one.slash(channel, "play", game=game, opponent=two, **options)
                    await two.click(challenge.response, label="Accept")
                    match = await service.matches.in_channel(channel.id)
                    tables.append((channel, {one.id: one, two.id: two}, match.id))
                setup_seconds = time.perf_counter() - setup_started

                latencies: list[float] = []
                for _ in range(rounds):
                    for channel, players, match_id in tables:
                        match = await service.matches.get(match_id)
                        if not match.is_active or match.user_to_move is None:
                            continue
                        rules = service.rules(match.game)
                        legal = list(rules.legal_moves(match.state))
                        notation = rules.notation(match.state, rng.choice(legal))
                        actor = players[match.user_to_move]
                        started = time.perf_counter()
                        result = await actor.slash(channel, "move", notation=notation)
                        latencies.append(time.perf_counter() - started)
                        if result.response is None or not result.response.attachments:
                            raise SystemExit(f"no board reply in match {match_id}: {result!r}")
                active = 0
                for _, _, match_id in tables:
                    active += (await service.matches.get(match_id)).is_active
            finally:
                await bot.close()  # the store's connection threads must not outlive the run, even on failure

    millis = [value * 1000 for value in latencies]
    print(f"matches: {matches}")
    print(f"active_matches_at_end: {active}")
    print(f"moves_timed: {len(millis)}")
    print(f"setup_seconds: {setup_seconds:.1f}")
    print(f"move_to_board_p50_ms: {statistics.median(millis):.1f}")
    print(f"move_to_board_p99_ms: {percentile(millis, 0.99):.1f}")
    print(f"move_to_board_mean_ms: {statistics.fmean(millis):.1f}")
    print(f"move_to_board_max_ms: {max(millis):.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(run(args.matches, args.rounds, args.seed))


if __name__ == "__main__":
    main()
