"""Paintscape's eight levels of the bot: each level's search budget and errors (games/ai/levels.py says
what they mean), weakest first, and their calibrated ratings in `levels.json` next to this module.

Level 1 as first set, level 8 the full search for about a second of one core of the development machine;
the levels between re-spaced after each calibration (`python bench/calibrate_levels.py respace`): placed
where the calibrated curve (rating against settings) reaches evenly spaced ratings, their settings
interpolated there.
"""

from __future__ import annotations

from pathlib import Path

from games.plugins import Levels, Rung

LEVELS = Levels(
    ladder=(
        Rung(60, 0.85, 0.35),
        Rung(103, 0.647, 0.235),
        Rung(187, 0.426, 0.132),
        Rung(309, 0.291, 0.086),
        Rung(485, 0.206, 0.061),
        Rung(787, 0.132, 0.041),
        Rung(1379, 0.071, 0.023),
        Rung(12000, 0.0, 0.0),
    ),
    calibration=Path(__file__).with_name("levels.json"),
)
