"""Arena events as lichess runs them: a fixed duration, players paired again as soon as they are free.

Scoring (lichess): a win is 2 points, a draw 1, a loss 0. Two wins in a row put a player on a streak ("on
fire"): while it lasts every win scores 4 and every draw 2 (an extra 2 points per win, as lichess gives);
any game not won ends it. Berserk (on a live clock: bot/service/tournaments/live.py): a player
who halved their clock before their first move scores `BERSERK_BONUS` more for a win (lichess). A bye or
forfeit never happens in an arena: a player who stops playing just waits.

Pairing: whenever a match ends its players wait again, and the waiting players are paired at once, close
ranks (arena points) first, then close ratings, never with the opponent they have just played (no immediate
rematch; they wait for someone else instead). Up to `MATCHING` waiting players go through networkx's
maximum weight matching (as lichess does for small pools); a bigger crowd is paired greedily in rank order,
each with the nearest player who is not their last opponent. A player in a match is never waiting, so no
one is ever in two matches at once. White goes to whoever has had White less often.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx

WIN, DRAW, STREAK_WIN, STREAK_DRAW = 2, 1, 4, 2
BERSERK_BONUS = 1
"""Extra arena points for a win after berserking (lichess)."""
MATCHING = 100


def points(results: Iterable[float]) -> tuple[int, bool]:
    """Arena points of one player's results in order (1 win, 0.5 draw, 0 loss), and whether they are on
    a streak now."""
    total, wins_in_row = 0, 0
    for result in results:
        fire = wins_in_row >= 2
        if result == 1.0:
            total += STREAK_WIN if fire else WIN
            wins_in_row += 1
        else:
            if result == 0.5:
                total += STREAK_DRAW if fire else DRAW
            wins_in_row = 0
    return total, wins_in_row >= 2


@dataclass(frozen=True, slots=True)
class Waiting:
    """A free player as the arena's pairing sees them."""

    id: int
    rating: float
    number: int
    points: int
    last_opponent: int | None = None
    colour_balance: int = 0
    """Games with White minus games with Black."""


def _order(players: Iterable[Waiting]) -> list[Waiting]:
    return sorted(players, key=lambda p: (-p.points, -p.rating, p.number))


def _colours(a: Waiting, b: Waiting) -> tuple[int, int]:
    if (a.colour_balance, a.number) <= (b.colour_balance, b.number):
        return a.id, b.id
    return b.id, a.id


def _can_meet(a: Waiting, b: Waiting) -> bool:
    return a.last_opponent != b.id and b.last_opponent != a.id


def pair(waiting: Sequence[Waiting]) -> tuple[tuple[int, int], ...]:
    """(White, Black) pairs of the waiting players; whoever is left keeps waiting."""
    order = _order(waiting)
    if len(order) > MATCHING:
        return _greedy(order)
    import networkx as nx  # only where a tournament pairs: the bot does not load it at start

    graph: nx.Graph[int] = nx.Graph()
    rank = {p.id: n for n, p in enumerate(order)}
    spread = max(p.rating for p in order) - min(p.rating for p in order) + 1 if order else 1.0
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            if _can_meet(a, b):
                closeness = (rank[b.id] - rank[a.id]) * 1000 + round(abs(a.rating - b.rating) * 999 / spread)
                graph.add_edge(a.id, b.id, weight=10**9 - closeness)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    by_id = {p.id: p for p in order}
    pairs = [_colours(by_id[u], by_id[v]) for u, v in matching]
    return tuple(sorted(pairs, key=lambda pair: min(rank[pair[0]], rank[pair[1]])))


def _greedy(order: list[Waiting]) -> tuple[tuple[int, int], ...]:
    free = list(order)
    pairs: list[tuple[int, int]] = []
    while len(free) >= 2:
        first = free.pop(0)
        for index, other in enumerate(free):
            if _can_meet(first, other):
                pairs.append(_colours(first, free.pop(index)))
                break
    return tuple(pairs)
