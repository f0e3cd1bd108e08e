"""Priorities: a match's bot move and a burst of human /moves, with and without four hard AI searches beside.

The real runtime (drawing pools, AI runner with its default levels, BotTurns) over the real service on a
fresh SQLite file, and the real /move callback with the fake interaction of `bench/bot_thin.py`. Match A is
a person against the bot at `--level` (medium: 1 s of thinking); matches B..E are people against the hard
bot (3 s each); N more matches are between people. Each round, quiet then loaded:

- quiet: A's person moves and, at the same moment, the N people /move (the burst);
- loaded: first the people of B..E move, so four hard searches run, then the same as quiet.

Printed: the delay of A's bot move (from its person's board reply to the bot's board being posted, less the
level's thinking time) and the burst's p99 (burst start to each board reply), quiet and loaded, medians of
the rounds; the targets: the delay at most the thinking time, the p99 at most 20% above quiet.

    python bench/priorities.py                  # N = 50, 3 rounds
    python bench/priorities.py --size 50 --rounds 5 --level medium
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot_thin import (  # bench/ is the script's folder
    GUILD_ID,
    FakeClient,
    FakeInteraction,
    FakeMessage,
    FakePartial,
    FakeUser,
    _ids,
    percentile,
)

from bot.drawing import Drawing
from bot.parts import Parts
from bot.runtime import Runtime
from bot.service import Service
from bot.service.ai import AIRunner
from cogs.moves import Moves
from games.ai import Level
from games.ai.levels import LEVELS

BOT_ID = 1


class Posts:
    """The boards the bot posted on its own (its moves), by channel, with the time each was sent."""

    def __init__(self) -> None:
        self.sent: dict[int, list[float]] = {}
        self.changed = asyncio.Event()


class RecordingPartial(FakePartial):
    def __init__(self, channel_id: int, posts: Posts) -> None:
        super().__init__(channel_id)
        self.posts = posts

    async def send(self, content: str = "", **kwargs: Any) -> FakeMessage:
        self.posts.sent.setdefault(self.id, []).append(time.perf_counter())
        self.posts.changed.set()
        return await super().send(content, **kwargs)


class RecordingClient(FakeClient):
    def __init__(self) -> None:
        super().__init__()
        self.posts = Posts()

    def get_partial_messageable(self, channel_id: int) -> RecordingPartial:
        return RecordingPartial(channel_id, self.posts)


class Table:
    """A match and its people."""

    def __init__(self, channel: int, match_id: int, people: dict[int, FakeUser]) -> None:
        self.channel = channel
        self.match_id = match_id
        self.people = people


async def new_table(service: Service, index: int, bot_level: str | None) -> Table:
    channel = next(_ids)
    one = FakeUser(next(_ids), f"p{index}a")
    if bot_level is not None:
        seats: list[tuple[int, str | None]] = [(one.id, None), (BOT_ID, bot_level)]
        people = {one.id: one}
    else:
        two = FakeUser(next(_ids), f"p{index}b")
        seats, people = [(one.id, None), (two.id, None)], {one.id: one, two.id: two}
    match = await service.matches.start(
        "paint", {}, seats, seed=index, rated=False, turn_timeout=86400, guild_id=GUILD_ID, channel_id=channel
    )
    return Table(channel, match.id, people)


async def person_moves(
    runtime: Runtime, cog: Moves, client: RecordingClient, table: Table, rng: random.Random
) -> FakeInteraction:
    """The person to move in `table` calls /move with a random legal move (not yet awaited: returns the
    interaction, whose replies fill in when the call is awaited)."""
    match = await runtime.service.matches.get(table.match_id)
    assert match.user_to_move in table.people, "a person is to move"
    rules = runtime.service.rules(match.game)
    move = rng.choice(list(rules.legal_moves(match.state)))
    interaction = FakeInteraction(client, table.people[match.user_to_move], table.channel)
    interaction.extras["notation"] = rules.notation(match.state, move)
    return interaction


async def call(cog: Moves, interaction: FakeInteraction) -> None:
    await Moves.move.callback(cog, interaction, interaction.extras["notation"])  # type: ignore[arg-type]


async def bot_posted(client: RecordingClient, table: Table, before: int, timeout: float = 60) -> float:
    """Wait until the bot posted a new board in the table's channel; the time it was sent."""
    deadline = time.perf_counter() + timeout
    while len(client.posts.sent.get(table.channel, [])) <= before:
        client.posts.changed.clear()
        await asyncio.wait_for(client.posts.changed.wait(), max(0.01, deadline - time.perf_counter()))
    return client.posts.sent[table.channel][before]


async def round_of(
    runtime: Runtime,
    cog: Moves,
    client: RecordingClient,
    mine: Table,
    hard: list[Table],
    burst: list[Table],
    rng: random.Random,
    *,
    loaded: bool,
) -> tuple[float, float, int]:
    """One quiet or loaded round: (A's bot delay before subtracting the thinking time, the burst's p99,
    the searches running when the burst started)."""
    posted_before = {t.channel: len(client.posts.sent.get(t.channel, [])) for t in [mine, *hard]}
    if loaded:
        starters = [await person_moves(runtime, cog, client, t, rng) for t in hard]
        await asyncio.gather(*(call(cog, i) for i in starters))
        await asyncio.sleep(0.2)  # the four hard searches are running
    searching = runtime.ai.running
    mover = await person_moves(runtime, cog, client, mine, rng)
    people = [await person_moves(runtime, cog, client, t, rng) for t in burst]
    started = time.perf_counter()
    await asyncio.gather(call(cog, mover), *(call(cog, i) for i in people))
    latencies = [i.replies[-1][0] - started for i in people if i.replies and i.replies[-1][1].files]
    assert len(latencies) == len(people), "every /move was answered with its board"
    answered = mover.replies[-1][0]
    bot_at = await bot_posted(client, mine, posted_before[mine.channel])
    for table in hard if loaded else []:
        await bot_posted(client, table, posted_before[table.channel])
    return bot_at - answered, percentile(latencies, 0.99), searching


async def bench(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    thinking = LEVELS[Level(args.level)].seconds
    with tempfile.TemporaryDirectory() as folder:
        service = await Service.open(f"sqlite:///{Path(folder) / 'priorities.sqlite3'}")
        client = RecordingClient()
        runtime = Runtime(service, AIRunner(), owns_ai=True, drawing=Drawing())
        client.parts = Parts.wire(runtime, client)  # type: ignore[arg-type]
        cog = Moves(client)  # type: ignore[arg-type]
        try:
            await client.parts.start()
            mine = await new_table(service, 0, args.level)
            hard = [await new_table(service, 1 + n, "hard") for n in range(4)]
            burst = [await new_table(service, 10 + n, None) for n in range(args.size)]
            warm = await service.matches.get(burst[0].match_id)
            boards = client.parts.boards
            await asyncio.gather(*(boards.board(warm) for _ in range(8)))  # the board processes are up
            # One untimed warm-up round starts the AI processes too.
            await round_of(runtime, cog, client, mine, hard, burst, rng, loaded=True)
            figures: dict[str, list[float]] = {k: [] for k in ("quiet_delay", "loaded_delay", "quiet_p99")}
            figures.update(loaded_p99=[], searching=[])
            for _ in range(args.rounds):
                delay, p99, _ = await round_of(runtime, cog, client, mine, hard, burst, rng, loaded=False)
                figures["quiet_delay"].append(delay - thinking)
                figures["quiet_p99"].append(p99)
                delay, p99, searching = await round_of(
                    runtime, cog, client, mine, hard, burst, rng, loaded=True
                )
                figures["loaded_delay"].append(delay - thinking)
                figures["loaded_p99"].append(p99)
                figures["searching"].append(searching)
        finally:
            await runtime.close()
    median = {name: statistics.median(values) for name, values in figures.items()}
    print(f"priorities: N={args.size} rounds={args.rounds}, match A's bot at {args.level} ({thinking:g} s)")
    print(f"  searches running when the loaded burst began: {median['searching']:.0f}")
    print(
        f"  A's bot move delay beyond its thinking: quiet {1000 * median['quiet_delay']:.0f} ms, "
        f"loaded {1000 * median['loaded_delay']:.0f} ms (target <= {1000 * thinking:.0f} ms)"
    )
    growth = median["loaded_p99"] / median["quiet_p99"] - 1
    print(
        f"  burst /move p99: quiet {1000 * median['quiet_p99']:.0f} ms, loaded "
        f"{1000 * median['loaded_p99']:.0f} ms ({100 * growth:+.0f}%, target <= +20%)"
    )
    rounds = (f"{k}={[round(1000 * v) for v in figures[k]]}" for k in figures if k != "searching")
    print("  per round (ms): " + ", ".join(rounds))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--level", default="medium", choices=[level.value for level in Level])
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    main()
