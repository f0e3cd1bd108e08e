"""The challenge's and lobby's "Options:" line reads the host's options apart from the game's
(`MatchOptions`) and says exactly what it said when it read them out of one dict: the former function is
kept here as the oracle, and every game's options, the host's choices and a few languages are compared."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import games
from bot.i18n import ENGLISH, Tr, tr_for
from bot.service.options import SEAT_CHOICES, MatchOptions, host_given, match_options, resolve
from cogs.common import SEATS_IN_WORDS, duration_text, option_summary
from games.base import Option, Rules, SeatChoice

PLAYERS = {"challenger": "<@1>", "opponent": "<@2>"}


def former_option_summary(
    options: Mapping[str, Any],
    specs: Sequence[Option] = (),
    tr: Tr = ENGLISH,
    *,
    first_seat: SeatChoice | None = None,
    players: Mapping[str, str] | None = None,
) -> str:
    """cogs.common.option_summary as it was before the host's options had a type of their own."""
    defaults = {spec.name: spec.default for spec in specs}
    seat_options = {spec.name for spec in specs if "challenger" in spec.choices}
    shown = []
    for name, value in options.items():
        if name in defaults and defaults[name] == value:
            continue
        if first_seat is not None and name == first_seat.option and players and value in players:
            shown.append(tr("{choice}: {player}", choice=tr(first_seat.help), player=players[value]))
        elif name == "turn_timeout":
            shown.append(tr("{duration} per turn", duration=duration_text(int(value) * 60, tr)))
        elif name == "rated":
            shown.append(tr("rated") if value else tr("casual match"))
        elif name in seat_options and value in SEATS_IN_WORDS:
            shown.append(tr(SEATS_IN_WORDS[value]))
        elif isinstance(value, bool):
            shown.append(f"`{name}={'on' if value else 'off'}`")
        else:
            shown.append(f"`{name}={value}`")
    return " · ".join(shown)


def values(spec: Option) -> st.SearchStrategy[Any]:
    if spec.choices:
        return st.sampled_from(spec.choices)
    if isinstance(spec.default, bool):
        return st.booleans()
    if isinstance(spec.default, int):
        low = spec.minimum if spec.minimum is not None else spec.default - 5
        high = spec.maximum if spec.maximum is not None else spec.default + 5
        return st.sampled_from(sorted({low, spec.default, high}))
    return st.just(spec.default)


@st.composite
def a_match(draw: st.DrawFn) -> tuple[Rules[Any, Any], dict[str, Any], bool]:
    rules = games.get(draw(st.sampled_from(sorted(games.GAMES))))
    chosen = {spec.name: draw(values(spec)) for spec in rules.options if draw(st.booleans())}
    lobby = draw(st.booleans())
    chosen.update(
        host_given(
            rules,
            rated=draw(st.none() | st.booleans()),
            turn_timeout=draw(st.none() | st.sampled_from([0, 10, 60, 12 * 60, 3 * 24 * 60])),
            first=None if lobby else draw(st.none() | st.sampled_from(SEAT_CHOICES)),
        )
    )
    return rules, chosen, lobby


@settings(max_examples=150, deadline=None)
@given(a_match(), st.sampled_from(["en", "de", "ja"]))
def test_the_options_line_is_what_it_was(
    match: tuple[Rules[Any, Any], dict[str, Any], bool], locale: str
) -> None:
    rules, chosen, lobby = match
    tr = tr_for(locale)
    try:
        options = resolve(rules, chosen, lobby=lobby)
    except ValueError:  # a combination the game refuses (InvalidOptions) is refused before any line
        return
    stored = options.stored(rules)
    assert MatchOptions.load(rules, stored, lobby=lobby) == options
    if lobby:
        former = former_option_summary(stored, match_options(rules, lobby=True), tr)
        assert option_summary(options, rules, tr) == former
    else:
        former = former_option_summary(
            stored, match_options(rules), tr, first_seat=rules.first_seat, players=PLAYERS
        )
        assert option_summary(options, rules, tr, players=PLAYERS) == former


def test_an_older_row_without_the_host_options_reads_with_their_defaults() -> None:
    rules = games.get("paint")
    engine = {o.name: o.default for o in rules.options}
    loaded = MatchOptions.load(rules, engine)
    assert loaded.engine == engine
    assert (loaded.host.rated, loaded.host.turn_timeout, loaded.host.first_seat) == (True, 0, "random")
    assert MatchOptions.load(rules, engine, lobby=True).host.first_seat is None
