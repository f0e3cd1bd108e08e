"""Reading a stored snapshot (`Rules.load`) without trusting it.

A snapshot comes back from the database, where a bug, a hand edit or a damaged file may have changed it.
`Snapshot` reads its fields with their types and ranges checked and raises `InvalidSnapshot`, a ValueError
with one line that names the game, the field and what was expected, for the first thing that is wrong:
not a mapping, a missing or unknown key, a wrong type, a number out of range. Each engine then checks the
invariants that tie the fields together (see its module docstring) and raises the same error.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, TypeGuard, TypeVar

T = TypeVar("T")

_HEX = re.compile(r"0x[0-9a-f]+")


class InvalidSnapshot(ValueError):
    """A stored position that the engine cannot load: the message names the field and what was expected."""


def shown(value: Any, limit: int = 40) -> str:
    """A short repr of a value for an error message (a corrupted field may be huge)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def is_whole(value: object) -> TypeGuard[int]:
    """An int that is not a bool (JSON's numbers come back as int; True is not a count)."""
    return isinstance(value, int) and not isinstance(value, bool)


class Snapshot:
    """The fields of one game's snapshot, read with checks. Messages start with `where` ("Paint
    snapshot"); a nested object is read through `part`, whose fields are named with their path
    ("settings.copies")."""

    def __init__(
        self,
        data: object,
        where: str,
        required: Collection[str],
        optional: Collection[str] = (),
        prefix: str = "",
    ) -> None:
        self.where = where
        self.prefix = prefix
        if not isinstance(data, Mapping):
            path = f"{prefix[:-1]} " if prefix else ""
            raise InvalidSnapshot(f"{where}: {path}must be a JSON object, got {shown(data)}")
        self.data: Mapping[Any, Any] = data
        unknown = sorted((key for key in data if key not in required and key not in optional), key=repr)
        if unknown:
            raise InvalidSnapshot(f"{where}: unknown field {prefix}{shown(unknown[0])}")
        missing = [key for key in required if key not in data]
        if missing:
            raise InvalidSnapshot(f"{where}: the field {prefix}{missing[0]} is missing")

    def fail(self, name: str, expected: str) -> InvalidSnapshot:
        """The error for field `name`: "Paint snapshot: to_move must be 0 or 1, got 7"."""
        return self.item_error(name, expected, self.data.get(name))

    def item_error(self, name: str, expected: str, value: Any) -> InvalidSnapshot:
        """The error for a field or one item of a list field ("placed[3]")."""
        return InvalidSnapshot(f"{self.where}: {self.prefix}{name} must be {expected}, got {shown(value)}")

    def invalid(self, problem: str) -> InvalidSnapshot:
        """The error for a broken invariant between fields, stated as `problem`."""
        return InvalidSnapshot(f"{self.where}: {problem}")

    def has(self, name: str) -> bool:
        return name in self.data

    def whole(self, name: str, low: int, high: int) -> int:
        """An int (not a bool) in low..high."""
        value = self.data.get(name)
        if not is_whole(value) or not low <= value <= high:
            raise self.fail(name, f"a whole number from {low} to {high}")
        return int(value)

    def flag(self, name: str) -> bool:
        value = self.data.get(name)
        if not isinstance(value, bool):
            raise self.fail(name, "true or false")
        return value

    def choice(self, name: str, choices: Sequence[T]) -> T:
        """One of `choices`, compared by type and value (True is not 1, 1.0 is not 1)."""
        value = self.data.get(name)
        for choice in choices:
            if type(value) is type(choice) and value == choice:
                return choice
        raise self.fail(name, "one of " + ", ".join(shown(c) for c in choices))

    def text(self, name: str, longest: int) -> str:
        value = self.data.get(name)
        if not isinstance(value, str) or len(value) > longest:
            raise self.fail(name, f"text of at most {longest} characters")
        return value

    def bitboard(self, name: str, bits: int) -> int:
        """A bitboard of `bits` cells: an int from 0 to 2**bits - 1, or that number as `hex()` writes it."""
        value = self.data.get(name)
        if isinstance(value, str) and len(value) <= 2 + (bits + 3) // 4 and _HEX.fullmatch(value):
            value = int(value, 16)
        if not is_whole(value) or not 0 <= value < 1 << bits:
            raise self.fail(name, f"a bitboard of {bits} cells (0 to 2**{bits} - 1, or that in hex)")
        return int(value)

    def items(
        self, name: str, count: int | None, read: Callable[[Any, str], T], longest: int = 10_000
    ) -> list[T]:
        """A list (of exactly `count` items when given), each item read by `read(item, "name[i]")`, which
        raises `item_error` for a bad one."""
        value = self.data.get(name)
        if not isinstance(value, list) or len(value) != (len(value) if count is None else count):
            raise self.fail(name, "a list" if count is None else f"a list of {count} items")
        if len(value) > longest:
            raise self.fail(name, f"a list of at most {longest} items")
        return [read(item, f"{name}[{i}]") for i, item in enumerate(value)]

    def part(self, name: str, required: Collection[str], optional: Collection[str] = ()) -> Snapshot:
        """The nested object under `name`, read with the same checks."""
        return Snapshot(self.data.get(name), self.where, required, optional, prefix=f"{self.prefix}{name}.")
