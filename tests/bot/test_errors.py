"""Every mistake a user can make gets an ephemeral answer in plain words; nothing fails silently."""

from __future__ import annotations

from typing import Any

import pytest

import games
import renderer
from bot.testing.simcord import last_board, reply_text, start_challenge, take_user_errors


async def test_only_the_challenged_player_can_accept(world: Any) -> None:
    result = await world.alice.slash(world.channel, "play", game="paint", opponent=world.bob)
    challenge = result.response
    wrong = await world.carol.click(challenge, label="Accept")
    assert wrong.ephemeral and f"Only <@{world.bob.id}>, who was challenged, can answer" in reply_text(wrong)
    # The challenger cannot accept either, and nobody else can withdraw.
    own = await world.alice.click(challenge, label="Accept")
    assert own.ephemeral and "Only" in reply_text(own)
    not_theirs = await world.bob.click(challenge, label="Withdraw")
    assert not_theirs.ephemeral and "who sent this challenge, can withdraw" in reply_text(not_theirs)
    withdrawn = await world.alice.click(challenge, label="Withdraw")
    assert not withdrawn.ephemeral
    assert "withdrew" in world.channel.history()[-1].content


async def test_turns_illegal_and_malformed_moves(world: Any) -> None:
    alice, bob, carol, channel = world.alice, world.bob, world.carol, world.channel
    await start_challenge(world, alice, bob, "paint", first="challenger")

    not_yours = await bob.slash(channel, "move", notation="b9-b8")
    assert not_yours.ephemeral and "turn, not yours" in not_yours.response.content

    stranger = await carol.slash(channel, "move", notation="c1-c3")
    assert stranger.ephemeral and "not playing in match" in stranger.response.content

    malformed = await alice.slash(channel, "move", notation="zz99")
    assert malformed.ephemeral and malformed.response.content

    illegal = await alice.slash(channel, "move", notation="c1-d2")  # not a rook line
    assert illegal.ephemeral and illegal.response.content

    passing = await alice.slash(channel, "pass")
    assert passing.ephemeral and "cannot pass in paint" in passing.response.content.lower()

    takeback = await alice.slash(channel, "takeback")
    assert takeback.ephemeral and "no move to take back" in takeback.response.content.lower()

    pieces = await alice.slash(channel, "pieces")
    with_pieces = ", ".join(games.name(g) for g in games.GAME_IDS if renderer.has_pieces(g))
    assert pieces.ephemeral
    assert f"Paint has no pieces to show; /pieces works in matches of {with_pieces}." in reply_text(pieces)

    errors = take_user_errors(world)
    assert len(errors) == 7
    # The board did not move: still White's first turn.
    assert f"<@{alice.id}>, your turn as White" in last_board(channel).content


async def test_pieces_names_the_games_whose_drawer_shows_pieces(
    world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/pieces outside such a game says which games have pieces, as the registry's drawers say it (no game
    named in the host): here Paintscape's drawer is made to show pieces too."""
    real = renderer.has_pieces
    monkeypatch.setattr(renderer, "has_pieces", lambda game_id: game_id == "paintscape" or real(game_id))
    await start_challenge(world, world.alice, world.bob, "paint", first="challenger")
    answer = await world.alice.slash(world.channel, "pieces")
    names = [games.name(g) for g in games.GAME_IDS if g == "paintscape" or real(g)]
    assert "Paintscape" in names and len(names) >= 2
    assert answer.ephemeral
    expected = f"Paint has no pieces to show; /pieces works in matches of {', '.join(names)}."
    assert expected in reply_text(answer)
    assert len(take_user_errors(world)) == 1


async def test_a_stale_button_does_not_act_on_a_newer_position(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paintscape", first="challenger")
    first_board = last_board(channel)
    # A superseded board loses its buttons; here that edit fails (Discord hiccups), so they stay.
    world.env.inject_error("PATCH", "/channels/*/messages/*", status=500, times=1)
    await alice.click(first_board, label="Done swapping")
    # The chooser's board is newer; the old Done button carries ply 0 and is refused.
    stale = await alice.click(first_board, label="Done swapping")
    assert stale.ephemeral
    assert "board has changed" in reply_text(stale)
    assert "Chooser" in last_board(channel).content


async def test_a_second_match_in_the_same_channel_is_refused(world: Any) -> None:
    await start_challenge(world, world.alice, world.bob, "paint")
    second = await world.carol.slash(world.channel, "play", game="paintscape", opponent=world.admin)
    assert second.ephemeral and "already has a match" in second.response.content
    take_user_errors(world)


async def test_options_that_do_not_fit_the_game(world: Any) -> None:
    board = await world.alice.slash(
        world.channel, "play", game="paint", opponent=world.bob, options="board=hex5"
    )
    assert board.ephemeral and "`board` is not an option of Paint" in board.response.content
    assert "lead_turns" in board.response.content, "the reply lists the game's options"
    garbled = await world.alice.slash(
        world.channel, "play", game="paint", opponent=world.bob, options="lead_turns"
    )
    assert garbled.ephemeral and "write name=value" in garbled.response.content
    bad_value = await world.alice.slash(
        world.channel, "play", game="paint", opponent=world.bob, options="lead_turns=many"
    )
    assert bad_value.ephemeral and "`lead_turns` must be a whole number" in bad_value.response.content
    players = await world.alice.slash(world.channel, "play", game="paint", opponent=world.bob, players=3)
    assert players.ephemeral and "2-2 players" in players.response.content
    itself = await world.alice.slash(world.channel, "play", game="paint", opponent=world.alice)
    assert itself.ephemeral and "cannot challenge yourself" in itself.response.content
    nobody = await world.alice.slash(world.channel, "play", game="paint")
    assert nobody.ephemeral and "Choose an opponent" in nobody.response.content
    assert len(take_user_errors(world)) == 6


GAME_WITHOUT_OPTIONS = next((g for g in games.GAME_IDS if not games.get(g).options), None)
"""A registered game with no options (the example game package has none), or None."""


@pytest.mark.skipif(
    GAME_WITHOUT_OPTIONS is None, reason="needs a game without options (pip install -e examples/*/)"
)
async def test_options_for_a_game_that_has_none(world: Any) -> None:
    """Options typed for a game that has none: the reply says so (it listed "none")."""
    assert GAME_WITHOUT_OPTIONS is not None
    reply = await world.alice.slash(
        world.channel, "play", game=GAME_WITHOUT_OPTIONS, opponent=world.bob, options="size=7"
    )
    assert reply.ephemeral
    name = games.name(GAME_WITHOUT_OPTIONS)
    assert f"{name} has no options: leave `options` empty." in reply.response.content
    assert "none" not in reply.response.content
    take_user_errors(world)


async def test_settings_need_manage_server(world: Any) -> None:
    refused = await world.alice.slash(world.channel, "settings", threads=True)
    assert refused.ephemeral and "Manage Server" in refused.response.content
    take_user_errors(world)
    allowed = await world.admin.slash(world.channel, "settings", turn_timeout=60, allow_channel=world.channel)
    assert allowed.ephemeral and "Saved" in allowed.response.content and "1 hour" in allowed.response.content


async def test_no_match_here(world: Any) -> None:
    for command in ("move", "board", "resign", "abort", "takeback"):
        options = {"notation": "d4"} if command == "move" else {}
        result = await world.alice.slash(world.channel, command, **options)
        assert result.ephemeral and "no match in this channel" in result.response.content.lower()
    assert len(take_user_errors(world)) == 5
