"""The options a match accepts: the game's own (`Rules.options`) and the host's (`HostOptions`).

The host adds `rated`, `turn_timeout` and, for a two-player challenge, the option that says who takes seat 0
(its name and meaning come from the game: `Rules.first_seat`, e.g. Paintscape's ``balancer``). Lobbies draw
or keep seats by `seat_order` instead. Options are resolved (checked and filled with defaults) when a
challenge or lobby is made, never later, into `MatchOptions`: the engine's part, which is all the engine
ever sees, and the host's, which no engine reads. Challenges and lobbies store both as one JSON object
(`MatchOptions.stored`, the form older rows have too; `MatchOptions.load` reads it back).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.service.errors import ServiceError
from bot.service.timecontrol import TimeControl, parse_control
from games.base import Option, Rules, resolve_options
from games.texts import N_, Text

SEAT_CHOICES: tuple[str, ...] = ("challenger", "opponent", "random")
"""Who takes seat 0 of a two-player match."""
SEAT_ORDERS: tuple[str, ...] = ("random", "joined")
"""How a lobby seats its members: drawn at random, or in the order they joined."""
MAX_TURN_TIMEOUT_MINUTES = 14 * 24 * 60

RATED = Option("rated", True, N_("Whether the result changes ratings"))
TURN_TIMEOUT = Option(
    "turn_timeout",
    0,
    N_("Minutes per turn; 0 uses the server's setting"),
    minimum=0,
    maximum=MAX_TURN_TIMEOUT_MINUTES,
)
CLOCK = Option(
    "clock",
    "",
    N_("A live clock, minutes+seconds a move (5+3); empty: correspondence, with a time per turn"),
)


def first_seat_option(rules: Rules[Any, Any]) -> Option:
    """The option that decides who takes seat 0 in a two-player match of this game."""
    choice = rules.first_seat
    return Option(
        choice.option,
        "random",
        Text("{help}: challenger, opponent or random", help=Text.of(choice.help)),
        choices=SEAT_CHOICES,
        proposal=choice.proposal,
    )


def match_options(rules: Rules[Any, Any], *, lobby: bool = False) -> tuple[Option, ...]:
    """Every option a match of this game accepts: the engine's, then the host's."""
    specs = [*rules.options, RATED, TURN_TIMEOUT, CLOCK]
    if not lobby:
        specs.append(first_seat_option(rules))
    return tuple(specs)


def host_given(
    rules: Rules[Any, Any],
    *,
    rated: bool | None = None,
    turn_timeout: int | None = None,
    first: str | None = None,
    clock: str | None = None,
) -> dict[str, Any]:
    """The host's choices as options given by name (those left None are not given), to go with the game's
    own options into `resolve`: the first seat under the name the game gives it."""
    named = {"rated": rated, "turn_timeout": turn_timeout, rules.first_seat.option: first, "clock": clock}
    return {name: value for name, value in named.items() if value is not None}


@dataclass(frozen=True, slots=True)
class HostOptions:
    """What the host decides about a match besides the game's rules; no engine reads these."""

    rated: bool = True
    turn_timeout: int = 0
    """Minutes per turn; 0: the server's setting."""
    first_seat: str | None = "random"
    """Who takes seat 0 of a two-player challenge (`SEAT_CHOICES`); None in a lobby, which seats its members
    by its own `seat_order`."""
    clock: str = ""
    """The live time control as written (`TimeControl.text`, ``5+3``); empty: correspondence."""

    @property
    def time_control(self) -> TimeControl | None:
        """The live time control, None for correspondence."""
        return parse_control(self.clock)


@dataclass(frozen=True, slots=True)
class MatchOptions:
    """A match's resolved options: the engine's part (all that `Rules.new` gets) and the host's."""

    engine: Mapping[str, Any] = field(default_factory=dict)
    host: HostOptions = HostOptions()

    def stored(self, rules: Rules[Any, Any]) -> dict[str, Any]:
        """The one JSON object a challenge or lobby stores: the engine's options, then `rated`, `turn_timeout`
        and the first seat under the game's name for it (what `resolve_options` gives, in its order)."""
        host: dict[str, Any] = {"rated": self.host.rated, "turn_timeout": self.host.turn_timeout}
        if self.host.first_seat is not None:
            host[rules.first_seat.option] = self.host.first_seat
        if self.host.clock:
            host["clock"] = self.host.clock
        return {**self.engine, **host}

    @classmethod
    def load(cls, rules: Rules[Any, Any], stored: Mapping[str, Any], *, lobby: bool = False) -> MatchOptions:
        """A challenge's or lobby's stored options, split again. Older rows may lack a host option: it has
        its default (rated, the server's time per turn, a random first seat)."""
        names = {o.name for o in rules.options}
        first = None if lobby else str(stored.get(rules.first_seat.option, "random"))
        return cls(
            {name: value for name, value in stored.items() if name in names},
            HostOptions(
                bool(stored.get("rated", True)),
                int(stored.get("turn_timeout", 0)),
                first,
                _stored_clock(stored.get("clock", "")),
            ),
        )


def _stored_clock(value: Any) -> str:
    """A clock option in its one written form (``5+3``; empty for correspondence); InvalidOptions for text
    that is no time control."""
    control = parse_control(str(value or ""))
    return control.text if control is not None else ""


def resolve(rules: Rules[Any, Any], given: Mapping[str, Any], *, lobby: bool = False) -> MatchOptions:
    """Check `given` (the game's options and the host's, by name) against every option a match of this game
    accepts, fill in the defaults and split them; raises InvalidOptions."""
    return MatchOptions.load(rules, resolve_options(match_options(rules, lobby=lobby), given), lobby=lobby)


P = TypeVar("P")


def seated(players: Sequence[P], order: str | None, rng: random.Random) -> list[P]:
    """The players by seat, seat 0 first, from the order they came in (the challenger first, a lobby's
    members as they joined): "challenger" and "joined" keep it, "opponent" turns two around, "random" draws
    (a coin for two players, a shuffle for more)."""
    seats = list(players)
    if order == "opponent" or (order == "random" and len(seats) == 2 and rng.random() >= 0.5):
        seats.reverse()
    elif order == "random" and len(seats) > 2:
        rng.shuffle(seats)
    return seats


# ------------------------------------------------------------------------------------------ options text


class OptionsTextError(ValueError):
    """Options text that is not a list of ``name=value`` pairs; the message says what to type."""


def parse_options_text(text: str) -> dict[str, str]:
    """``"board=hex5 balance=off"`` (spaces or commas between pairs, ``:`` also allowed) to a dict of texts.

    Values are coerced later by the options' specs (`resolve`), so "off", "no" and "false" all work."""
    found: dict[str, str] = {}
    for token in text.replace(",", " ").split():
        name, sep, value = token.partition("=")
        if not sep:
            name, sep, value = token.partition(":")
        name, value = name.strip().lower(), value.strip()
        if not sep or not name or not value:
            raise OptionsTextError(
                Text("{token!r} is not an option: write name=value, like board=hex5", token=token)
            )
        if name in found:
            raise OptionsTextError(Text("{name} is given twice", name=name))
        found[name] = value
    return found


class BadOptionsText(ServiceError):
    """Options text that is not ``name=value`` pairs; `problem` says what to type."""

    template = N_("{problem}.")


class UnknownOption(ServiceError):
    template = N_("`{name}` is not an option of {game}. Its options are: {known}.")


class NoOptions(ServiceError):
    template = N_("{game} has no options: leave `options` empty.")


def given_options(rules: Rules[Any, Any], text: str | None) -> dict[str, Any]:
    """The game's own options typed as ``name=value`` pairs, the one reading of every place that takes them
    (/play's and /tournament create's `options`, the Activity's form; the host's own options have fields of
    their own): BadOptionsText if the text is not such pairs, UnknownOption for a name the game has not
    (the first, as typed), NoOptions for any name when the game has none. The values are checked later,
    with the rest of the options (`resolve`)."""
    if not text or not text.strip():
        return {}
    try:
        given: dict[str, Any] = dict(parse_options_text(text))
    except OptionsTextError as error:
        raise BadOptionsText(problem=error.args[0]) from None
    own = {o.name for o in rules.options}
    unknown = next((name for name in given if name not in own), None)
    if unknown is not None and not own:
        raise NoOptions(game=rules.name)
    if unknown is not None:
        raise UnknownOption(name=unknown, game=rules.name, known=", ".join(sorted(own)))
    return given


def _values_of(spec: Option) -> list[str]:
    if spec.choices:
        return [str(c) for c in spec.choices]
    if isinstance(spec.default, bool):
        return ["on", "off"]
    if isinstance(spec.default, int):
        values = [spec.default, spec.minimum, spec.maximum]
        return [str(v) for v in dict.fromkeys(v for v in values if v is not None)]
    return []


def suggest_options(specs: tuple[Option, ...], text: str, *, limit: int = 25) -> list[tuple[str, str]]:
    """Completions of options text for autocomplete: (label, completed text) pairs; a label is a `Text`
    (the Discord layer translates it and cuts it to Discord's 100 characters).

    The last word is completed: an option name (``boa`` -> ``board=``) or, after ``name=``, a value from
    the option's choices (``board=h`` -> ``board=hex5``). Options already given are not offered again."""
    head, _, last = text.rpartition(" ") if not text.endswith(" ") else (text.rstrip(), " ", "")
    prefix = f"{head} " if head.strip() else ""
    given = set()
    for token in head.split():
        given.add(token.partition("=")[0].lower())
    name, sep, typed = last.partition("=")
    found: list[tuple[str, str]] = []
    if not sep:
        for spec in specs:
            if spec.name not in given and spec.name.startswith(name.lower()):
                default = _shown(spec.default)
                label = Text(
                    "{name}= ({help}; default {default})",
                    name=spec.name,
                    help=Text.of(spec.help),
                    default=default,
                )
                found.append((label, f"{prefix}{spec.name}="))
    else:
        chosen = next((s for s in specs if s.name == name.lower()), None)
        for value in _values_of(chosen) if chosen is not None else []:
            if value.lower().startswith(typed.lower()):
                found.append((f"{name.lower()}={value}"[:100], f"{prefix}{name.lower()}={value}"))
    return [(label, value) for label, value in found if len(value) <= 100][:limit]


def _shown(value: bool | int | str) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value) if value != "" else "none"
