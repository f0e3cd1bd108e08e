"""TilingKing's eight levels of the bot: each level's search budget and errors (games/ai/levels.py says
what they mean), weakest first, and their calibrated ratings in `levels.json` next to this module.

Level 1 as first set, level 8 the full search for about a second of one core of the development machine;
the levels between re-spaced after each calibration (`python bench/calibrate_levels.py respace`): placed
where the calibrated curve (rating against settings) reaches evenly spaced ratings, their settings
interpolated there.

TilingKing has thousands of placements, and the best of a random tenth of them is still a fair move: its
beginners overlook more. Its last ladder came from `respace --from-games`, the curve fitted to every pass's
games (its strength is flat over stretches of budget, and one pass's 40-game pairs could not see where).
"""

from __future__ import annotations

from pathlib import Path

from games.plugins import Levels, Rung

LEVELS = Levels(
    ladder=(
        Rung(16, 0.97, 0.35),
        Rung(38, 0.851, 0.154),
        Rung(57, 0.731, 0.109),
        Rung(83, 0.622, 0.088),
        Rung(212, 0.343, 0.044),
        Rung(558, 0.083, 0.009),
        Rung(850, 0.009, 0.001),
        Rung(1500, 0.0, 0.0),
    ),
    calibration=Path(__file__).with_name("levels.json"),
)
