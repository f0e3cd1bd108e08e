"""/move's autocomplete finds a piece by its name (TilingKing's `T4`, `I4`): through the real bot in SimCord,
and the ranking's rule for any list of moves."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from bot.testing.simcord import last_board, start_challenge
from cogs.moves import rank_moves

pytestmark = pytest.mark.simcord(settle_timeout=60)

PIECES = ["I3", "I4", "L4", "T4", "1", "2"]
cells = st.sampled_from([f"{f}{r}" for f in "abcdefi" for r in range(1, 7)])
placements = st.dictionaries(st.lists(cells, min_size=1, max_size=4).map(" ".join), st.sampled_from(PIECES))


@settings(max_examples=60, deadline=None)
@given(placements, st.sampled_from(PIECES), st.sampled_from(["", " a", " c3"]))
def test_a_pieces_name_as_written_keeps_its_placements_only(
    pieces: dict[str, str], piece: str, cell: str
) -> None:
    """A piece's name typed as written (`I4`, with a cell or not) offers that piece's placements on that
    cell, all of them when they fit the list (if some legal move places it); in lower case it is one more
    word to match, a cell's or a piece's."""
    ranked = rank_moves(pieces, piece + cell, pieces=pieces, limit=1000)
    words = cell.split()
    on_cell = {
        move
        for move, name in pieces.items()
        if name == piece and all(any(t.startswith(w) for t in move.split()) for w in words)
    }
    if piece in pieces.values():  # a name no legal move places is only a word, as in lower case
        assert set(ranked) == on_cell
    lowered = (piece + cell).lower()
    for move in rank_moves(pieces, lowered, pieces=pieces, limit=1000):
        tokens = [pieces[move].lower(), *move.split()]
        assert all(any(t.startswith(w) for t in tokens) for w in lowered.split()), (move, lowered)


async def test_typing_a_piece_name_in_move_lists_its_placements(world: Any) -> None:
    """Alice types "I4" (then "T4 ", "I3 a" and "t4") into /move: every choice places that piece, its name
    shows the piece first, and the chosen one is played as that piece."""
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "tilingking", first="challenger")
    service = world.env.bot.parts.service
    match = await service.matches.in_channel(channel.id)
    rules = games.GAMES["tilingking"]
    by_notation = {
        rules.notation(match.state, move): move.piece for move in rules.legal_moves(match.state) if move.piece
    }
    for typed, piece in (("I4", "I4"), ("T4 ", "T4"), ("I3 a", "I3"), ("t4", "T4")):
        choices = await alice.autocomplete(channel, "move", "notation", typed)
        assert choices, typed
        assert all(by_notation.get(c["value"]) == piece for c in choices), (typed, choices[:3])
        assert all(c["name"] == f"{piece}: {c['value']}" for c in choices)
    both = {by_notation.get(c["value"]) for c in await alice.autocomplete(channel, "move", "notation", "i4")}
    assert "I4" in both and len(both) > 1, "in lower case, i4 is the cell as well"
    [first, *_] = await alice.autocomplete(channel, "move", "notation", "T4")
    played = await alice.slash(channel, "move", notation=first["value"])
    assert not played.ephemeral
    assert "places T4" in last_board(channel).content, last_board(channel).content
