"""Autocomplete ranking: only matching legal moves, at most 25, the exact move first, shortest first."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.moves import rank_moves

cells = st.sampled_from([f"{f}{r}" for f in "abcdef" for r in range(1, 7)])
moves = st.lists(st.lists(cells, min_size=1, max_size=4).map(" ".join), unique=True, max_size=80)


def matches(move: str, typed: str) -> bool:
    words = typed.lower().split()
    tokens = move.lower().split()
    return move.lower().startswith(" ".join(words)) or all(
        any(t.startswith(w) for t in tokens) for w in words
    )


@settings(max_examples=60, deadline=None)
@given(moves, st.text(alphabet="abcdef123456 ", max_size=8))
def test_ranked_moves_are_legal_matching_and_bounded(legal: list[str], typed: str) -> None:
    ranked = rank_moves(legal, typed)
    assert len(ranked) <= 25
    assert len(set(ranked)) == len(ranked)
    assert set(ranked) <= set(legal)
    assert all(matches(move, typed) for move in ranked)
    wanted = " ".join(typed.lower().split())
    if wanted in legal:
        assert ranked[0] == wanted
    if len([m for m in legal if matches(m, typed)]) <= 25:
        assert {m for m in legal if matches(m, typed)} == set(ranked)


@settings(max_examples=30, deadline=None)
@given(moves)
def test_without_typing_the_shortest_moves_come_first(legal: list[str]) -> None:
    ranked = rank_moves(legal, "")
    assert [len(m) for m in ranked] == sorted(len(m) for m in ranked)


def test_words_in_any_order_find_a_cell_list() -> None:
    legal = ["c3 c4 c5 d4", "a1", "c4 d4", "pass"]
    assert rank_moves(legal, "d4 c3") == ["c3 c4 c5 d4"]
    assert rank_moves(legal, "pass") == ["pass"]
    assert rank_moves(legal, "c4")[0] == "c4 d4"


@settings(max_examples=60, deadline=None)
@given(moves, st.text(alphabet="abcdefps123456 ", max_size=4), st.integers(min_value=3, max_value=25))
def test_words_follow_placements_and_irreversible_words_come_last(
    legal: list[str], typed: str, limit: int
) -> None:
    """Whatever is typed and however short the list: placements (tier 0) first, then the one-word moves,
    the ones that cannot be undone last, and a matching word is never cut off by placements."""
    tiers = {"pass": 1, "swap": 1, "passall": 2, "resign": 2}
    offered = [*legal, *tiers]
    ranked = rank_moves(offered, typed, tiers=tiers, limit=limit)
    assert len(ranked) <= limit
    levels = [tiers.get(m, 0) for m in ranked]
    assert levels == sorted(levels)
    matching_words = [w for w in tiers if rank_moves([w], typed)]
    if len(matching_words) <= limit:
        assert all(w in ranked for w in matching_words)
