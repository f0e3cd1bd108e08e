"""The match state cache with more matches moving than it first holds (issue 40, item 10): `--matches` active
matches move in turn (one move each, round after round), and the CPU time of `MatchService.play` per move
is measured with the cache fixed at its first size (512: as before) and with the cache fitting itself to the
matches in play (now), on one SQLite database.

    python bench/state_cache.py
    python bench/state_cache.py --matches 2000 --rounds 4 --game paint

Prints, for each: CPU milliseconds a move (median of the rounds after the first), the cache's size at the
end, and its misses in the last round. (Run from the checkout's root with PYTHONPATH=.)
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import games
from bot.service import Service
from games.base import clickable_moves, resolve_options


async def measure(folder: Path, args: argparse.Namespace, fixed: bool) -> tuple[float, int, int]:
    service = await Service.open(f"sqlite:///{folder / ('fixed' if fixed else 'fitting')}.sqlite3")
    try:
        states = service.matches.states
        if fixed:
            states.most = states.size
        rules = games.get(args.game)
        options = resolve_options(rules.options, {})
        matches = []
        for n in range(args.matches):
            match = await service.matches.start(
                args.game,
                options,
                [(1000 + n, None), (100000 + n, None)],
                seed=n,
                rated=False,
                turn_timeout=86400,
                guild_id=None,
                channel_id=n + 1,
            )
            matches.append(match)
        per_round = []
        misses = 0
        for _ in range(args.rounds):
            misses = states.misses
            spent = 0.0
            for index, match in enumerate(matches):  # the match as its last move left it: no read between
                if match.to_move is None:
                    continue
                move = clickable_moves(rules, match.state)[0].notation
                started = time.process_time()
                played = await service.matches.play(match.id, match.seats[match.to_move].user_id, move)
                spent += time.process_time() - started
                matches[index] = played.match
            per_round.append(spent * 1000 / len(matches))
        return statistics.median(per_round[1:] or per_round), states.size, states.misses - misses
    finally:
        await service.close()


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="tessera-state-cache-") as folder:
        before = await measure(Path(folder), args, fixed=True)
        now = await measure(Path(folder), args, fixed=False)
    print(f"state_cache game={args.game} matches={args.matches} rounds={args.rounds}")
    for name, (ms, size, misses) in (("fixed at 512", before), ("fitting", now)):
        print(f"  {name:<14} {ms:7.3f} ms CPU a move   size {size:>6}   misses in the last round {misses:>6}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--game", default="paintscape")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
