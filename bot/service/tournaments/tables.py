"""Tables of 3 or 4 for many-player games (TilingKing), seated by score.

Players are ranked by score, then rating, then pairing number, and cut into consecutive tables, so players
with close scores meet. n players at tables of `size` make ceil(n / size) tables whose sizes differ by at
most one (10 at tables of 4: 4, 3, 3); a lone player (n = 1) gets a bye. A table never has fewer than two
seats. Seat 0 moves first: at each table it goes to whoever has moved first least often (then to the lower
ranked player), and so on down the seats, so first moves are shared out. Repeats: if two tables next to each
other can swap their edge players so that fewer pairs meet again, they do.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Seatable:
    id: int
    rating: float
    number: int
    score: float
    seat_counts: tuple[int, ...] = ()
    """How often the player sat in each seat so far (index = seat)."""
    opponents: Mapping[int, int] | None = None
    """How often the player met each other player."""


def _repeats(table: Sequence[Seatable]) -> int:
    return sum((a.opponents or {}).get(b.id, 0) for i, a in enumerate(table) for b in table[i + 1 :])


def seat(players: Sequence[Seatable], size: int) -> tuple[tuple[tuple[int, ...], ...], int | None]:
    """The tables (user ids in seat order), best scores first, and the player with a bye (or None)."""
    if size < 2:
        raise ValueError("a table has at least two seats")
    order = sorted(players, key=lambda p: (-p.score, -p.rating, p.number))
    if len(order) < 2:
        return (), order[0].id if order else None
    count = -(-len(order) // size)
    base, extra = divmod(len(order), count)
    tables: list[list[Seatable]] = []
    start = 0
    for t in range(count):
        width = base + (1 if t < extra else 0)
        tables.append(order[start : start + width])
        start += width
    for upper, lower in itertools.pairwise(tables):
        swapped_upper = upper[:-1] + lower[:1]
        swapped_lower = upper[-1:] + lower[1:]
        if _repeats(swapped_upper) + _repeats(swapped_lower) < _repeats(upper) + _repeats(lower):
            upper[:], lower[:] = swapped_upper, swapped_lower
    return tuple(_seated(table) for table in tables), None


def _seated(table: Sequence[Seatable]) -> tuple[int, ...]:
    """Seat by seat from the first: whoever sat there least often, the lower-ranked first on a tie (the
    table is in rank order)."""
    free = list(enumerate(table))
    seats: list[int] = []
    for index in range(len(table)):
        chosen = min(
            free,
            key=lambda ranked: (
                ranked[1].seat_counts[index] if index < len(ranked[1].seat_counts) else 0,
                -ranked[0],
            ),
        )
        free.remove(chosen)
        seats.append(chosen[1].id)
    return tuple(seats)
