"""What the Activity's start screen offers, as data the page turns into controls (issue 44).

- `PRESETS`: the ways to start a game in one tap (quick, standard, long), each a set of host options (today
  the time per turn; a live clock's options slot in as another preset's options, nothing else changes);
  rated or casual is a toggle beside them.
- `option_controls`: every option a game declares (`Rules.options`, plus who moves first in a two-player
  game) as a control: a toggle for on/off, a select for a list of choices, a slider for a bounded number, a
  number field for an unbounded one, a text field for free text.
- `running_score`: the pair's (or table's) score over their finished matches of a game in a server.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import Tr
from bot.service.options import first_seat_option
from bot.service.records import HistoryEntry, MatchStatus
from games.base import Option, Rules
from games.texts import N_, Text

SLIDER_MOST_STEPS = 200
"""A bounded number with more steps than this gets a number field: a slider that fine cannot be aimed."""
MAX_GIVEN_OPTIONS = 40
"""The most options a start may name (every game declares fewer)."""


@dataclass(frozen=True, slots=True)
class Preset:
    """A way to start in one tap: its id, its words and the host options it gives (`match_options`
    names)."""

    id: str
    name: str
    hint: str
    options: Mapping[str, Any] = field(default_factory=dict)


PRESETS: tuple[Preset, ...] = (
    Preset("quick", N_("Quick"), N_("2 minutes a turn"), {"turn_timeout": 2}),
    Preset("standard", N_("Standard"), N_("10 minutes a turn"), {"turn_timeout": 10}),
    Preset("long", N_("Long"), N_("a day a turn"), {"turn_timeout": 24 * 60}),
)
"""The presets every game offers, in the order shown; the first is the default."""
PRESET_IDS = tuple(p.id for p in PRESETS)


def preset_options(preset: str | None, rated: bool) -> dict[str, Any]:
    """The host options of a preset (None: the server's own turn time) with rated or casual."""
    chosen = next((p for p in PRESETS if p.id == preset), None)
    return {**(dict(chosen.options) if chosen else {}), "rated": rated}


def presets(tr: Tr) -> list[dict[str, str]]:
    """The presets in the viewer's language."""
    words = tr.translations.gettext
    return [{"id": p.id, "name": words(p.name), "hint": words(p.hint)} for p in PRESETS]


def _help(tr: Tr, text: str | Text) -> str:
    return tr.text(text) if isinstance(text, Text) else tr.translations.gettext(text)


def control(option: Option, tr: Tr) -> dict[str, Any]:
    """One option as the control that sets it (see the module doc): kind, default, and its bounds or
    choices."""
    entry: dict[str, Any] = {"name": option.name, "default": option.default, "help": _help(tr, option.help)}
    if isinstance(option.default, bool):
        entry["kind"] = "toggle"
    elif option.choices:
        entry["kind"] = "select"
        entry["choices"] = [str(c) for c in option.choices]
    elif isinstance(option.default, int):
        entry["min"], entry["max"] = option.minimum, option.maximum
        bounded = option.minimum is not None and option.maximum is not None
        steps = (option.maximum or 0) - (option.minimum or 0)
        entry["kind"] = "slider" if bounded and steps <= SLIDER_MOST_STEPS else "number"
    else:
        entry["kind"] = "text"
    return entry


def option_controls(rules: Rules[Any, Any], tr: Tr) -> list[dict[str, Any]]:
    """The game's declared options as controls; for a game two may play, who moves first too."""
    controls = [control(o, tr) for o in rules.options]
    if 2 in rules.seats:
        controls.append(control(first_seat_option(rules), tr))
    return controls


def given_mapping(value: Any) -> dict[str, bool | int | str]:
    """The options the page sent as a mapping of names to plain values (the service checks each against
    the game's declared options); ValueError for anything else."""
    if not isinstance(value, Mapping) or len(value) > MAX_GIVEN_OPTIONS:
        raise ValueError("options must map option names to values")
    given: dict[str, bool | int | str] = {}
    for name, item in value.items():
        if not isinstance(name, str) or not isinstance(item, bool | int | str) or len(str(item)) > 200:
            raise ValueError("options must map option names to values")
        given[name] = item
    return given


def running_score(entries: Sequence[HistoryEntry], players: Sequence[int]) -> dict[str, Any]:
    """The score of exactly these players (any seating) over their finished matches in `entries`: wins per
    player (a shared first place counts for each) and draws; aborted matches do not count."""
    wanted = sorted(players)
    wins = {user: 0 for user in players}
    draws = played = 0
    for entry in entries:
        match = entry.match
        if match.outcome is None or sorted(p.user_id for p in match.seats) != wanted:
            continue
        if match.status is not MatchStatus.FINISHED:
            continue
        played += 1
        if not match.outcome.winners:
            draws += 1
        for seat in match.outcome.winners:
            wins[match.seats[seat].user_id] += 1
    return {"played": played, "draws": draws, "wins": {str(u): n for u, n in wins.items()}}
