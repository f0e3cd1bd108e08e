"""Tournaments on a live clock (issue 43): the event's control, arena berserk, and the break between rounds.

- **The control**: `/tournament create clock:3+2` gives every match of the event that live control
  (bot/service/timecontrol.py). An arena with neither a clock nor a time per turn gets the game's first
  preset (Paint 1+1, Paintscape 3+2...): an arena is played now. A Swiss or round robin stays correspondence
  unless a clock is named.
- **Berserk** (arena, as lichess): before their own first move in an arena game on a live clock, a player may
  berserk: their clock is halved and loses its increment (`berserk_base`), and a win then scores one arena
  point more (`arena.BERSERK_BONUS`) if the game lasted seven moves each (`host.BERSERK_MIN_PLIES`, as
  lichess asks a few moves for it). Once per player per game, never after their first move. The match
  keeps the berserked seats (`MatchRecord.berserk`), so a restart keeps the halved clock.
- **Rounds on a timer**: in a live Swiss or round robin the next round opens `Settings.round_break_s`
  seconds after the last match of a round ends (not at once: the players see the standings and get ready).
  A player who never makes their first move in time (the live first-move abort) is a no-show: they lose by
  forfeit and the opponent gets the point, as for any no-show.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.service.records import MatchView
from bot.service.timecontrol import parse_control, presets
from bot.service.tournaments.model import Format


def event_clock(format: Format, typed: str | None, turn_given: bool, rules: Any) -> str | None:
    """The live control an event's matches get, as text (None: correspondence): the one typed (InvalidOptions
    says what to type instead), else an arena's default, the game's first preset, unless a time per turn
    was given."""
    if typed is not None:
        control = parse_control(typed)
        return None if control is None else control.text
    if format is Format.ARENA and not turn_given:
        return presets(rules)[0].text
    return None


@dataclass(frozen=True, slots=True)
class Berserked:
    """A player berserked (`TournamentHost.berserk`): the match as it is now, and who; the match's channel is
    told ("Alice berserked")."""

    match: MatchView
    user_id: int


def berserk_base(base: float) -> float:
    """A berserked seat's starting clock: half the base (its increment is gone too)."""
    return base / 2
