"""Hidden caches on game states: the one pattern every engine uses.

A state may remember values it derives from itself (Paint's legal moves, TilingKing's territory and the
cells each seat may not cover), so that asking twice costs nothing. Such a cache is

- a field of the state's frozen dataclass declared with `cache_field()`, named with a leading underscore:
  no `__init__` argument, not in `repr`, equality or the hash, so two equal positions stay equal whatever
  each has computed, and a state built by `dataclasses.replace` starts with an empty cache;
- None until first use, then set once with `remember(state, "_name", value)` (a frozen dataclass refuses
  plain assignment) and never changed: the state is immutable, so the value stays right;
- never written by `dump`, which lists the fields it writes by name.

A cached value that may legitimately be None is wrapped (a tuple, or a bool) so that None keeps meaning
"not computed yet". Paintscape's state has no hidden fields and needs none: every query there is a handful
of bit operations.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, TypeVar

T = TypeVar("T")


def cache_field() -> Any:
    """A hidden cache field of a frozen state dataclass: `_moves: tuple[Move, ...] | None = cache_field()`."""
    return field(default=None, init=False, repr=False, compare=False, hash=False)


def remember(state: object, name: str, value: T) -> T:
    """Store `value` in the hidden cache field `name` of a frozen `state`, and return it."""
    object.__setattr__(state, name, value)
    return value
