"""Paint's eight levels of the bot: each level's search budget and errors (games/ai/levels.py says
what they mean), weakest first, and their calibrated ratings in `levels.json` next to this module.

Level 1 as first set, level 8 the full search for about a second of one core of the development machine;
the levels between re-spaced after each calibration (`python bench/calibrate_levels.py respace`): placed
where the calibrated curve (rating against settings) reaches evenly spaced ratings, their settings
interpolated there.

Paint's level 8 plays an opening book (`book.json`) that no other level plays, worth about 230 points
against our own search: its level 7 was moved up by hand (1,684 to 2,500 iterations) to split that jump
between the last two steps (322 points wide before; 258 and 222 after).
"""

from __future__ import annotations

from pathlib import Path

from games.plugins import Levels, Rung

LEVELS = Levels(
    ladder=(
        Rung(30, 0.85, 0.35),
        Rung(39, 0.711, 0.262),
        Rung(67, 0.474, 0.151),
        Rung(150, 0.18, 0.054),
        Rung(250, 0.079, 0.024),
        Rung(391, 0.01, 0.003),
        Rung(2500, 0.0, 0.0),
        Rung(3200, 0.0, 0.0),
    ),
    calibration=Path(__file__).with_name("levels.json"),
)
