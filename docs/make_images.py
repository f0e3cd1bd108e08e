"""Regenerate the sample board images in docs/ (shown in the README) from seeded games.

Run from the repository root: `python docs/make_images.py`. The games are random but seeded, so the images
only change when the rules or the renderer do. TilingKing games lean towards placements that capture, so
the samples show territory.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import games  # noqa: E402
import renderer  # noqa: E402
import renderer.analysis  # noqa: E402
from games.ai.analysis import analyse_match  # noqa: E402
from games.base import replay  # noqa: E402
from games.tilingking import scores  # noqa: E402

NAMES = ("Alice", "Bob", "Carol", "Dave")
WORLD_NAMES = ("Jürgen 🦊", "山田太郎", "Дмитрий", "محمد Νίκος")
"""Names in Latin, CJK, Cyrillic, Arabic and Greek script with an emoji, for the sample that shows fonts."""


def seeded_game(game_id: str, seats: int, options: dict[str, Any], seed: int, plies: int) -> tuple[Any, str]:
    """Play `plies` seeded random moves (TilingKing: the placement that gains most, else a random one)."""
    rules = games.get(game_id)
    rng = random.Random(seed)
    state = rules.new(seats, options, seed)
    last = ""
    for _ in range(plies):
        if rules.outcome(state) is not None:
            break
        legal = list(rules.legal_moves(state))
        if game_id == "tilingking":
            seat = rules.to_move(state)
            placements = [m for m in legal if m.action == "place"] or legal
            sample = rng.sample(placements, min(len(placements), 40))
            move = max(sample, key=lambda m: (scores(rules.apply(state, m))[seat], rng.random()))
        else:
            move = rng.choice(legal)
        last = rules.notation(state, move)
        state = rules.apply(state, move)
    return state, last


SAMPLES: list[tuple[str, str, int, dict[str, Any], int, int, tuple[str, ...]]] = [
    # file stem, game, seats, options, seed, plies, player names
    ("paintscape", "paintscape", 2, {"balance": False}, 11, 48, NAMES),
    ("paint", "paint", 2, {}, 11, 32, NAMES),
    ("tilingking-square", "tilingking", 2, {"board": "sq11b"}, 11, 12, NAMES),
    ("tilingking-hex", "tilingking", 3, {"board": "hex8bi"}, 11, 18, NAMES),
    ("tilingking-triangle", "tilingking", 4, {"board": "tri6bi"}, 11, 20, NAMES),
    ("tilingking-names", "tilingking", 4, {"board": "hex5"}, 5, 14, WORLD_NAMES),
]


DARK_SAMPLES = {"paintscape", "paint", "tilingking-hex"}
"""The samples also shown in the dark theme."""


def analysis_sample(out: Path) -> None:
    """docs/analysis.png: the biggest turning point of a seeded random Paintscape game, analysed with the
    default iterations and no time bound (so the sample is reproducible; /analyse also stops at its time
    budget, which an idle machine does not reach for this game)."""
    rules = games.get("paintscape")
    rng = random.Random(7)
    start = rules.new(2, {"balance": False}, 7)
    state, log = start, []
    while (seat := rules.to_move(state)) is not None:
        move = rng.choice(list(rules.legal_moves(state)))
        log.append((seat, rules.notation(state, move)))
        state = rules.apply(state, move)
    biggest = analyse_match(rules, start, log).biggest()
    assert biggest is not None, "a random game always has a turning point"
    before = start if biggest.ply == 0 else list(replay(rules, start, log[: biggest.ply]))[-1].after
    chances = (biggest.before, biggest.after)
    png = renderer.analysis.turning_point(
        "paintscape", before, biggest.played, biggest.preferred, chances=chances, players=NAMES[:2]
    )
    (out / "analysis.png").write_bytes(png)
    print(f"docs/analysis.png: {renderer.analysis.alt_text(biggest.played, biggest.preferred, chances)}")


def main() -> None:
    out = ROOT / "docs"
    for stem, game_id, seats, options, seed, plies, names in SAMPLES:
        state, last = seeded_game(game_id, seats, options, seed, plies)
        players = names[:seats]
        themes = [("default", "")] + ([] if names is WORLD_NAMES else [("colorblind", "-colorblind")])
        if stem in DARK_SAMPLES:
            themes.append(("dark", "-dark"))
        for theme, suffix in themes:
            png = renderer.render(game_id, state, last_move=last, players=players, theme=theme)
            (out / f"{stem}{suffix}.png").write_bytes(png)
        if stem == "tilingking-hex":
            pieces = renderer.render_pieces(game_id, state, 0, players=players)
            (out / "tilingking-pieces.png").write_bytes(pieces)
        print(f"docs/{stem}.png: {renderer.alt_text(game_id, state, players=players)[:90]}...")
    analysis_sample(out)


if __name__ == "__main__":
    main()
