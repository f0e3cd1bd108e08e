"""Whole-number options (`games.base.Option`): only whole numbers pass, in any form a player writes them."""

from __future__ import annotations

import math
from typing import Any

import pytest

from games.base import InvalidOptions, Option


@pytest.mark.parametrize(
    "value", [math.inf, -math.inf, math.nan, 2.5, "1e3", "1_000", "١٢", "9" * 5000, True, None, [3], "inf"]
)
def test_whole_number_options_refuse_everything_but_whole_numbers(value: Any) -> None:
    spec = Option("copies", 1, "copies", minimum=0, maximum=20)
    with pytest.raises(InvalidOptions, match="copies"):
        spec.coerce(value)


@pytest.mark.parametrize(("value", "expected"), [(3, 3), (3.0, 3), (" 7 ", 7), ("+4", 4), ("0", 0)])
def test_whole_number_options_accept_whole_numbers_in_any_form(value: Any, expected: int) -> None:
    assert Option("copies", 1, "copies", minimum=0, maximum=20).coerce(value) == expected
