"""The Activity's start screen as data (bot/web/activity_menu.py): every value a game's controls can set is
one the game accepts, every declared option has a control, the presets are host options, and the page's
mapping of options is checked before the service sees it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from bot.i18n import tr_for
from bot.service.options import match_options
from bot.web.activity_menu import PRESETS, given_mapping, option_controls, preset_options
from games.base import InvalidOptions

TR = tr_for("en")


def _value(control: dict[str, Any]) -> st.SearchStrategy[Any]:
    """What the page's control for `control` can send."""
    kind = control["kind"]
    if kind == "toggle":
        return st.booleans()
    if kind == "select":
        return st.sampled_from(control["choices"])
    if kind == "slider":
        return st.integers(control["min"], control["max"])
    if kind == "number":
        low = control["min"] if control["min"] is not None else -(10**6)
        high = control["max"] if control["max"] is not None else 10**6
        return st.integers(low, high)
    return st.just(control["default"])  # a text field sends what the player typed: the game judges it


@pytest.mark.parametrize("game", games.GAME_IDS)
def test_every_declared_option_has_its_control(game: str) -> None:
    rules = games.get(game)
    names = [c["name"] for c in option_controls(rules, TR)]
    assert names[: len(rules.options)] == [o.name for o in rules.options]
    if 2 in rules.seats:
        assert names[-1] == rules.first_seat.option


@settings(max_examples=60, deadline=None)
@given(data=st.data(), game=st.sampled_from(games.GAME_IDS))
def test_every_control_value_is_one_the_game_accepts(data: st.DataObject, game: str) -> None:
    """A toggle, a select, a slider or a bounded number field can only send values its option accepts."""
    rules = games.get(game)
    specs = {o.name: o for o in match_options(rules)}
    for control in option_controls(rules, TR):
        if control["kind"] == "text":
            continue
        value = data.draw(_value(control), label=control["name"])
        try:
            specs[control["name"]].coerce(value)
        except InvalidOptions:
            assert control["kind"] == "number", f"{game}.{control['name']}: the control sent {value!r}"


def test_presets_are_host_options() -> None:
    """Each preset names only host options, so a clock preset is one more entry of the same kind."""
    host = {o.name for o in match_options(games.get("paint"))} - {o.name for o in games.get("paint").options}
    for preset in PRESETS:
        assert set(preset.options) <= host
    assert preset_options("quick", False) == {"turn_timeout": 2, "rated": False}
    assert preset_options(None, True) == {"rated": True}


@given(
    st.dictionaries(
        st.text(max_size=10),
        st.one_of(st.booleans(), st.integers(-(10**9), 10**9), st.text(max_size=20)),
        max_size=40,
    )
)
def test_a_mapping_of_plain_values_passes(given_: dict[str, Any]) -> None:
    assert given_mapping(given_) == given_


@pytest.mark.parametrize("bad", [[("a", 1)], "a=1", {"a": [1]}, {"a": None}, {1: 2}, {"a": "x" * 201}])
def test_anything_else_is_refused(bad: Any) -> None:
    with pytest.raises(ValueError):
        given_mapping(bad)
