"""Swiss pairing as the Dutch system (FIDE C.04.3) does it, with networkx's maximum weight matching.

Players are ranked by score, then rating, then pairing number. A pairing is a maximum-cardinality,
maximum-weight matching over the players (plus one "bye" vertex when their number is odd); each edge's weight
encodes the Dutch criteria lexicographically, most important first (each tier's factor exceeds the largest
sum the tiers below it can reach over a whole matching, so no amount of a lower criterion outweighs one unit
of a higher one):

1. no rematch (absolute, C1): players who met have no edge; the bye has edges only to players without a
   bye (C2), unless everyone had one;
2. colours stay within 1 (stricter than FIDE's 2): two players who both need the same colour strongly
   (colour difference +-1) get a penalty so large that such a pair is only made when no pairing of
   everyone avoids it (then one of them goes to 2, which FIDE allows); two who both need it absolutely
   (the same colour twice running, C3) cost three times as much;
3. the bye to the lowest score possible (among players without one): a score step above the lowest
   outweighs any floats it saves;
4. the fewest players paired outside their score group (C6, downfloaters), then the smallest score
   differences (C7, squared, so two small floats beat one big one);
5. the most players get their colour preference (C12/C13): a pair wanting the same mild colour costs 1;
6. no one floats the same way twice running (C14/C15): a downfloater of the last round floating down
   again, or an upfloater floating up again, costs 1;
7. the lowest-ranked player floats down, and meets the top of the next group;
8. the ideal Dutch pairing inside a score group: S1 (the top half) against S2 (the bottom half) in order,
   the 1st against the (k+1)th.

Colours are then allocated as Dutch E.1-E.5: both preferences when they differ; else the stronger one; else
alternate from the last round the two had different colours; else the higher-ranked player's preference;
no preference at all: the higher-ranked player gets White if their pairing number is odd.

Scale: networkx's general matching is cubic in the number of players, so a big round is paired bracket by
bracket, as the Dutch system itself proceeds: score groups from the top, merged until a bracket holds
`BRACKET` players, a huge group cut into slices that take the same ranks of S1 and of S2 (so the ideal
1st-against-(k+1)th pairs stay inside one slice and only the local exchanges the criteria ask for are
searched); whoever a bracket leaves unpaired floats down into the next. If the last bracket cannot pair
everyone it is given (rematches, byes), the last two brackets are matched as one, then the last four, and so
on, and in the end the whole round on the full graph, so the result always satisfies the absolute criteria
when any pairing does.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx

BRACKET = 24
"""Players per matching in a big round (see the module doc)."""
FULL_GRAPH = 64
"""Up to this many players one matching over all of them is cheap enough."""

_FIELD = 1 << 8
"""Every tier's value per edge is capped below this (score steps squared, rank distance)."""
_TIER = 1 << 19
"""Above 1000 players' worth of edges (500) times `_FIELD`: one unit of a tier outweighs any sum below it."""
_TOP = _TIER**8
_BYE = "bye"
_CLASH = _TOP - _TIER**7
"""Weights at or below this pair two players who both need the same colour."""
_FLOAT = "float"


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player as the pairing sees them."""

    id: int
    rating: float
    number: int
    score: float
    colours: tuple[int, ...] = ()
    """+1 for White, -1 for Black, one per game played, in order (byes and forfeits have none)."""
    opponents: frozenset[int] = frozenset()
    byes: int = 0
    last_float: int = 0
    """Last round: +1 if the player floated down (met a lower score), -1 if up, 0 if neither."""


@dataclass(frozen=True, slots=True)
class SwissPairing:
    pairs: tuple[tuple[int, int], ...]
    """(White, Black) user ids, board 1 first (highest score first)."""
    bye: int | None


def default_rounds(players: int) -> int:
    """Enough rounds to find a winner, ceil(log2 n) + 1, but no more than a small field can pair without
    running out of opponents: n - 1 up to 4 players, 3 for 5 or 6."""
    if players <= 4:
        return max(0, players - 1)
    if players <= 6:
        return 3
    return math.ceil(math.log2(players)) + 1


def preference(entrant: Entrant) -> tuple[int, int]:
    """(colour wanted: +1 White, -1 Black, 0 none; strength: 0 none, 1 mild, 2 strong, 3 absolute).

    Dutch A.6: absolute when the colour difference is beyond +-1 or the last two colours are the same;
    strong when it is +-1; mild (alternate) when it is 0; none before the first game."""
    colours = entrant.colours
    if not colours:
        return 0, 0
    difference = sum(colours)
    if difference > 1 or (len(colours) >= 2 and colours[-1] == colours[-2] == 1):
        return -1, 3
    if difference < -1 or (len(colours) >= 2 and colours[-1] == colours[-2] == -1):
        return 1, 3
    if difference:
        return -difference, 2
    return -colours[-1], 1


def ranked(entrants: Iterable[Entrant]) -> list[Entrant]:
    """Score, then rating, then pairing number."""
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, e.number))


class _Context:
    """Ranks and score groups of one round."""

    def __init__(self, order: Sequence[Entrant]) -> None:
        self.rank = {e.id: n for n, e in enumerate(order)}
        groups: dict[float, list[Entrant]] = {}
        for entrant in order:
            groups.setdefault(entrant.score, []).append(entrant)
        self.groups = list(groups.values())
        self.place = {e.id: (n, len(group)) for group in self.groups for n, e in enumerate(group)}
        self.lowest = order[-1].score if order else 0.0
        self.count = len(order)
        self.prefs = {e.id: preference(e) for e in order}

    def weight(self, a: Entrant, b: Entrant) -> int:
        """The edge weight of pairing a with b (a ranked above b): see the module doc."""
        (want_a, strength_a), (want_b, strength_b) = self.prefs[a.id], self.prefs[b.id]
        clash = want_a == want_b != 0
        colour = (
            (1 if min(strength_a, strength_b) == 2 else 3)
            if clash and min(strength_a, strength_b) >= 2
            else 0
        )
        preferences = 1 if clash and not colour else 0
        steps = round(abs(a.score - b.score) * 2)
        pos_a, size_a = self.place[a.id]
        pos_b = self.place[b.id][0]
        repeats = (1 if steps and a.last_float > 0 else 0) + (1 if steps and b.last_float < 0 else 0)
        if a.score == b.score:
            return self._pack(colour, 0, 0, 0, preferences, 0, 0, abs(abs(pos_a - pos_b) - size_a // 2))
        floater = (size_a - 1 - pos_a) + pos_b  # the lowest of the group above meets the top of the next
        return self._pack(colour, 0, 1, steps * steps, preferences, repeats, floater, 0)

    def float_weight(self, entrant: Entrant, below: float, bye: bool) -> int:
        """Leaving `entrant` unpaired in this bracket: the bye (the lowest score first, a tier above the
        floats) or a float down to the next bracket (`below` its top score): the lowest rank goes."""
        steps = round(abs(entrant.score - below) * 2)
        position = self.count - 1 - self.rank[entrant.id]
        if bye:
            above_lowest = round((entrant.score - self.lowest) * 2)
            return self._pack(0, above_lowest, 0, 0, 0, 0, 0, position)
        repeats = 1 if steps and entrant.last_float > 0 else 0
        return self._pack(0, 0, 1 if steps else 0, steps * steps, 0, repeats, position, 0)

    @staticmethod
    def _pack(
        colour: int,
        bye: int,
        floats: int,
        steps: int,
        preferences: int,
        repeats: int,
        floater: int,
        position: int,
    ) -> int:
        """The tiers in one integer (each field capped below `_FIELD`, so `_TIER` bounds a matching's sum)."""
        penalty = colour
        for value in (bye, floats, steps, preferences, repeats, floater, position):
            penalty = penalty * _TIER + min(value, _FIELD - 1)
        return _TOP - penalty


def _match(
    context: _Context, players: Sequence[Entrant], spare: str | None, below: float, clashes: bool = True
) -> tuple[list[tuple[Entrant, Entrant]], list[Entrant], Entrant | None]:
    """One matching: the pairs, who was left unpaired, and who took the spare vertex (bye or float)."""
    import networkx as nx  # only where a tournament pairs: the bot does not load it at start

    graph: nx.Graph[object] = nx.Graph()
    graph.add_nodes_from(e.id for e in players)
    by_id = {e.id: e for e in players}
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            if b.id not in a.opponents:
                high, low = (a, b) if context.rank[a.id] < context.rank[b.id] else (b, a)
                weight = context.weight(high, low)
                if clashes or weight > _CLASH:
                    graph.add_edge(a.id, b.id, weight=weight)
    if spare is not None:
        eligible = [e for e in players if spare != _BYE or e.byes == 0] or list(players)
        for entrant in eligible:
            graph.add_edge(spare, entrant.id, weight=context.float_weight(entrant, below, spare == _BYE))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs: list[tuple[Entrant, Entrant]] = []
    taken: Entrant | None = None
    paired: set[object] = set()
    for u, v in matching:
        paired.update((u, v))
        if u in (_BYE, _FLOAT) or v in (_BYE, _FLOAT):
            taken = by_id[v if u in (_BYE, _FLOAT) else u]
        else:
            pairs.append((by_id[u], by_id[v]))
    left = [e for e in players if e.id not in paired]
    return pairs, left, taken


def _brackets(context: _Context) -> list[list[Entrant]]:
    """Score groups merged until a bracket holds `BRACKET` players; a huge group cut into slices that keep
    S1's and S2's same ranks together."""
    brackets: list[list[Entrant]] = []
    current: list[Entrant] = []
    for group in context.groups:
        if len(group) > 2 * BRACKET:
            if current:
                brackets.append(current)
                current = []
            half = len(group) // 2
            top, bottom = group[:half], group[half:]
            step = BRACKET // 2
            for start in range(0, half, step):
                end = start + step if start + step < half else len(bottom)
                brackets.append(top[start : start + step] + bottom[start:end])
            continue
        current.extend(group)
        if len(current) >= BRACKET:
            brackets.append(current)
            current = []
    if current:
        brackets.append(current)
    return brackets


def _allocate(context: _Context, a: Entrant, b: Entrant) -> tuple[int, int]:
    """(White, Black) of a pair, by Dutch E.1-E.5 (a is ranked above b)."""
    (want_a, strength_a), (want_b, strength_b) = context.prefs[a.id], context.prefs[b.id]
    if want_a and want_a != want_b:
        return (a.id, b.id) if want_a == 1 else (b.id, a.id)
    if want_b and want_a != want_b:
        return (b.id, a.id) if want_b == 1 else (a.id, b.id)
    if want_a:  # the same colour wanted
        if strength_a != strength_b:
            winner = a if strength_a > strength_b else b
            loser = b if winner is a else a
            return (winner.id, loser.id) if want_a == 1 else (loser.id, winner.id)
        for colour_a, colour_b in zip(reversed(a.colours), reversed(b.colours), strict=False):
            if colour_a != colour_b:
                return (b.id, a.id) if colour_a == 1 else (a.id, b.id)
        return (a.id, b.id) if want_a == 1 else (b.id, a.id)
    return (a.id, b.id) if a.number % 2 == 1 else (b.id, a.id)


def _finish(context: _Context, pairs: list[tuple[Entrant, Entrant]], bye: Entrant | None) -> SwissPairing:
    ordered = []
    for x, y in pairs:
        high, low = (x, y) if context.rank[x.id] < context.rank[y.id] else (y, x)
        ordered.append((high, low))
    ordered.sort(key=lambda pair: context.rank[pair[0].id])
    return SwissPairing(tuple(_allocate(context, a, b) for a, b in ordered), bye.id if bye else None)


def pair(entrants: Sequence[Entrant]) -> SwissPairing:
    """Pair one Swiss round of these (active) players. ValueError if no pairing exists without a rematch
    (more rounds than the field allows)."""
    order = ranked(entrants)
    context = _Context(order)
    spare = _BYE if len(order) % 2 else None
    if len(order) > FULL_GRAPH:
        brackets = _brackets(context)
        tail = 1
        while tail < len(brackets):
            result = _by_brackets(context, order, brackets[: len(brackets) - tail], brackets[-tail:])
            if result is not None:
                return result
            tail *= 2
    pairs, left, bye = _match(context, order, spare, context.lowest - 1)
    if left:
        raise ValueError("no pairing without a rematch: the field is too small for this many rounds")
    return _finish(context, pairs, bye)


def _by_brackets(
    context: _Context, order: Sequence[Entrant], head: list[list[Entrant]], tail: list[list[Entrant]]
) -> SwissPairing | None:
    """The `head` brackets one by one from the top, then the `tail` brackets (with whoever floated into
    them) as one last matching; None if that last one cannot pair everyone as the absolute criteria ask."""
    pairs: list[tuple[Entrant, Entrant]] = []
    carried: list[Entrant] = []
    below_head = tail[0][0].score
    for index, bracket in enumerate(head):
        players = carried + bracket
        spare = _FLOAT if len(players) % 2 else None
        below = head[index + 1][0].score if index + 1 < len(head) else below_head
        made, left, taken = _match(context, players, spare, below, clashes=False)
        pairs.extend(made)
        carried = left + ([taken] if taken is not None else [])
    players = carried + [e for bracket in tail for e in bracket]
    made, left, taken = _match(context, players, _BYE if len(players) % 2 else None, context.lowest - 1)
    if left or (taken is not None and taken.byes and any(e.byes == 0 for e in order)):
        return None
    return _finish(context, pairs + made, taken)
