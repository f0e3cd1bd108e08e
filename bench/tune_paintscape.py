"""Tune the Paintscape AI by self-play: each candidate setting plays paired games against an opponent.

A candidate is a comma-separated list of `name=value` over the search settings (cutoff: placements before
the race evaluation scores a playout, rave, exploration) and the race weights (scale, tempo, path, block,
depth). Each one plays --games games (start k // 2, seats swapped on odd k, no balancing so the colours
swap) against --opponent: "hard" (the current hard knowledge), "grave" or "plain", at --seconds per move.

    python bench/tune_paintscape.py --seconds 0.2 --games 20 --jobs 2 "cutoff=8" "cutoff=8,scale=1.2"
"""

from __future__ import annotations

import argparse
import dataclasses

from ai_strength import Match, Player, run

from games.paintscape.ai import PaintscapeKnowledge
from games.paintscape.race import RaceWeights

SEARCH_SETTINGS = {"cutoff": int, "rave": float, "exploration": float}
WEIGHT_FIELDS = {f.name: (int if f.name == "depth" else float) for f in dataclasses.fields(RaceWeights)}


def candidate(text: str) -> PaintscapeKnowledge:
    """The hard knowledge with the settings of `text` ("cutoff=8,scale=1.2") changed."""
    knowledge = PaintscapeKnowledge()
    weights: dict[str, float | int] = {}
    for item in filter(None, text.split(",")):
        name, value = item.split("=")
        if name in SEARCH_SETTINGS:
            setattr(knowledge, name, SEARCH_SETTINGS[name](value))
        elif name in WEIGHT_FIELDS:
            weights[name] = WEIGHT_FIELDS[name](value)
        else:
            raise SystemExit(f"unknown setting {name}")
    knowledge.weights = dataclasses.replace(knowledge.weights, **weights)
    return knowledge


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("candidates", nargs="+", help='settings such as "cutoff=8,scale=1.2"')
    parser.add_argument("--opponent", default="hard", choices=("hard", "grave", "plain"))
    parser.add_argument("--seconds", type=float, default=0.2, help="time per move for both (default 0.2)")
    parser.add_argument("--games", type=int, default=20, help="games per candidate (default 20)")
    parser.add_argument("--first-game", type=int, default=0, help="k of the first game (other layouts)")
    parser.add_argument("--jobs", type=int, default=2, help="games played in parallel processes (default 2)")
    args = parser.parse_args()
    opponent = Player(f"{args.opponent}@{args.seconds:g}s", args.opponent, seconds=args.seconds)
    schedule = []
    for text in args.candidates:
        player = Player(text or "hard", "hard", seconds=args.seconds, knowledge=candidate(text))
        schedule.append(
            [
                Match("paintscape", player, opponent, k, options=(("balance", False),))
                for k in range(args.first_game, args.first_game + args.games)
            ]
        )
    run(args.jobs, schedule)


if __name__ == "__main__":
    main()
