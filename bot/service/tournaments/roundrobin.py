"""Round robin by Berger tables (FIDE C.05 Annex 1), single or double.

Players are numbered 1..n in seeding order; with an odd n a dummy n+1 joins and whoever meets it rests that
round (no points, FIDE's round robin rule). With n' = n rounded up to even and m = n' - 1, round r pairs i
with j when i + j = r + 1 (mod m), for i != j in 1..m; the i with 2i = r + 1 (mod m) meets n'. Colours: of
i < j < n', i has White when j - i is odd, j when it is even; against n', n' has White when i > n'/2. These
are FIDE's tables (for 6: 1-6 2-5 3-4, then 6-4 5-3 1-2, ...). Every player ends
a cycle with White and Black balanced within 1 (within 2 along the way: a round robin cannot avoid every
"break" of alternation). A double round robin plays the cycle again with colours reversed.
"""

from __future__ import annotations

from collections.abc import Sequence


def rounds_for(players: int, double: bool = False) -> int:
    cycle = players - 1 + players % 2
    return cycle * (2 if double else 1)


def berger_round(numbers: int, round_number: int, double: bool = False) -> tuple[tuple[int, int], ...]:
    """The pairs (White, Black) of 1-based seeding numbers in round `round_number` (from 1); a pair with
    the dummy n'+... (an odd field's rest) has the resting player first and `numbers + 1` second."""
    even = numbers + numbers % 2
    m = even - 1
    cycle = rounds_for(numbers)
    if not 1 <= round_number <= rounds_for(numbers, double):
        raise ValueError(f"round {round_number} is outside 1..{rounds_for(numbers, double)}")
    second = round_number > cycle
    r = round_number - cycle if second else round_number
    pairs: list[tuple[int, int]] = []
    for i in range(1, m + 1):
        j = (r + 1 - i) % m or m
        if j == i:
            white, black = (even, i) if i > even // 2 else (i, even)
        elif i < j:
            white, black = (i, j) if (j - i) % 2 == 1 else (j, i)
        else:
            continue
        if second:
            white, black = black, white
        pairs.append((white, black))
    if numbers % 2:  # the dummy's "game" is a rest: resting player first
        pairs = [(b, a) if a == even else (a, b) for a, b in pairs]
    return tuple(pairs)


def pair(
    seeded: Sequence[int], round_number: int, double: bool = False
) -> tuple[tuple[tuple[int, int], ...], int | None]:
    """The round's (White, Black) user id pairs and the resting player (None with an even field), for
    players in seeding order."""
    n = len(seeded)
    pairs: list[tuple[int, int]] = []
    rest: int | None = None
    for a, b in berger_round(n, round_number, double):
        if b > n:
            rest = seeded[a - 1]
        else:
            pairs.append((seeded[a - 1], seeded[b - 1]))
    return tuple(pairs), rest
