"""What players noticed in a play-through (issue 15), each driven through SimCord: resigning out of turn in a
3-player TilingKing game, one takeback request at a time, "Pass all" asks first, every declared option is
settable, no buttons on the bot's turn, cells in lower case, autocomplete that says why it is empty, and
your own "Agree to abort" answered."""

from __future__ import annotations

import re
from typing import Any

import pytest

import games
from bot.service.options import match_options
from bot.testing import fixtures
from bot.testing.simcord import (
    boards,
    bot_member,
    button_labels,
    last_board,
    match_id_of,
    reply_text,
    start_challenge,
    suggestions,
    take_user_errors,
)

pytestmark = pytest.mark.simcord(settle_timeout=60)


def turn_of(world: Any, board: Any) -> Any:
    """The member whose turn the board announces."""
    found = re.search(r"<@(\d+)>, your turn", board.content)
    assert found, board.content
    return next(m for m in (world.alice, world.bob, world.carol) if m.id == int(found.group(1)))


async def three_player_tilingking(world: Any) -> None:
    alice, bob, carol, channel = world.alice, world.bob, world.carol, world.channel
    lobby = await alice.slash(channel, "play", game="tilingking", players=3, options="board=sq9")
    await bob.click(lobby.response, label="Join")
    await carol.click(channel.history()[-1], label="Join")
    await alice.click(channel.history()[-1], label="Start")


# ------------------------------------------------------------------------------------ item 2: resign


async def test_a_player_resigns_out_of_turn_and_the_others_play_on(world: Any) -> None:
    channel = world.channel
    await three_player_tilingking(world)
    for _ in range(3):  # before every seat has moved, leaving would abort the match
        player = turn_of(world, last_board(channel))
        placements = [m for m in await suggestions(player, channel) if not m.startswith("pass")]
        await player.slash(channel, "move", notation=placements[0])
    board = last_board(channel)
    mover = turn_of(world, board)
    waiting = next(m for m in (world.alice, world.bob, world.carol) if m.id != mover.id)

    question = await waiting.slash(channel, "resign")
    assert question.ephemeral and "Resign match #1?" in reply_text(question)
    await waiting.click(question.response, label="Yes, resign")
    after = last_board(channel)
    assert "resigns" in after.content and "Replay" not in button_labels(after), "the game goes on"
    assert f"<@{mover.id}>, your turn" in after.content, "still the same player's turn"

    again = await waiting.slash(channel, "resign")  # refused before any confirmation is shown
    assert again.ephemeral and "already resigned" in reply_text(again) and button_labels(again.response) == []
    assert len(take_user_errors(world)) == 1
    await mover.slash(channel, "pass")
    assert "your turn" in last_board(channel).content


# ---------------------------------------------------------------------------------- item 3: takebacks


async def test_one_takeback_request_at_a_time_each_message_bound_to_its_own(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paint", first="challenger")
    await alice.slash(channel, "move", notation="c1-c3")
    await bob.slash(channel, "move", notation="b9-b8")
    first = await alice.slash(channel, "takeback")
    assert not first.ephemeral and "Accept takeback" in button_labels(first.response)

    # A second request while one is open shows the open one again: its buttons move to the new message.
    second = await bob.slash(channel, "takeback")
    assert not second.ephemeral and f"<@{alice.id}> asks to take back" in reply_text(second)
    assert "Accept takeback" in button_labels(second.response) and button_labels(first.response) == []
    declined = await bob.click(second.response, label="Decline")
    assert declined.acknowledged and button_labels(second.response) == []

    # Bob asks now; Alice's old messages have no buttons left, and Bob's request has its own.
    third = await bob.slash(channel, "takeback")
    assert not third.ephemeral and f"<@{bob.id}> asks to take back" in reply_text(third)
    # A move closes Bob's request. Discord fails to take its buttons off, so they stay on screen: pressed,
    # they say the request no longer applies.
    env = world.env
    env.inject_error("PATCH", "/channels/*/messages/*", status=500, times=2)
    await alice.slash(channel, "move", notation="d1-d2")
    world._seen_errors = len(env.errors)
    assert "Accept takeback" in button_labels(third.response)
    stale = await alice.click(third.response, label="Accept takeback")
    assert stale.ephemeral and "no longer applies" in reply_text(stale)
    assert f"<@{bob.id}>, your turn" in last_board(channel).content, "nothing was taken back"
    take_user_errors(world)


async def test_request_buttons_go_when_the_match_moves_on(world: Any) -> None:
    """An open takeback or abort request is closed by the next move: its message loses its buttons with the
    board that supersedes it, like an old board, and says the request lapsed. An answered request is not
    edited again."""
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paint", first="challenger")
    await alice.slash(channel, "move", notation="c1-c3")
    await bob.slash(channel, "move", notation="b9-b8")  # both have moved: an abort needs both now
    takeback = await alice.slash(channel, "takeback")
    abort = await alice.slash(channel, "abort")
    assert "Accept takeback" in button_labels(takeback.response)
    assert "Agree to abort" in button_labels(abort.response)
    await alice.slash(channel, "move", notation="d1-d2")
    assert button_labels(takeback.response) == [] and button_labels(abort.response) == []
    assert "the match moved on, so the request lapsed" in takeback.response.message.content
    assert "the match moved on, so the request lapsed" in abort.response.message.content

    asked = await bob.slash(channel, "takeback")
    await alice.click(asked.response, label="Decline")
    assert "declined the takeback" in asked.response.message.content
    match_id = match_id_of(last_board(channel))
    assert await world.env.bot.parts.posts.open_requests(match_id) == [], "the answered request is forgotten"
    await bob.slash(channel, "move", notation=(await suggestions(bob, channel))[0])
    assert "declined the takeback" in asked.response.message.content
    take_user_errors(world)


async def test_an_old_takeback_message_never_answers_a_newer_request(world: Any) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    await start_challenge(world, alice, bob, "paint", first="challenger")
    await alice.slash(channel, "move", notation="c1-c3")
    await bob.slash(channel, "move", notation="b9-b8")
    first = await alice.slash(channel, "takeback")
    # Bob declines, but Discord fails to update the message, and again to take its buttons off when Bob
    # asks himself: Alice's request keeps its buttons on screen.
    env.inject_error("POST", "/interactions/*/callback", status=500, times=1)
    await bob.click(first.response, label="Decline")
    env.inject_error("PATCH", "/channels/*/messages/*", status=500, times=1)
    second = await bob.slash(channel, "takeback")  # a new request, by the other seat, at the same ply
    world._seen_errors = len(env.errors)
    assert not second.ephemeral and f"<@{bob.id}> asks to take back" in reply_text(second)
    assert "Accept takeback" in button_labels(first.response)

    old = await alice.click(first.response, label="Accept takeback")  # the old message, bound to Alice's
    assert old.ephemeral and "Nobody asked for a takeback" in reply_text(old)
    assert f"<@{alice.id}>, your turn" in last_board(channel).content, "Bob's move was not taken back"
    await alice.click(second.response, label="Accept takeback")
    assert "Taken back: b9-b8" in last_board(channel).content
    take_user_errors(world)


# ----------------------------------------------------------------------------------- item 8: pass all


async def test_pass_all_asks_to_confirm_like_resign(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "tilingking", first="challenger", options="board=sq9")
    board = last_board(channel)
    asked = await alice.click(board, label="Pass all remaining turns")
    assert asked.ephemeral and "cannot be undone" in reply_text(asked)
    assert last_board(channel).id == board.id, "nothing happened before the confirmation"
    refused = await bob.click(board, label="Pass all remaining turns")  # not Bob's turn: no question
    assert refused.ephemeral and "not your turn" in reply_text(refused)
    take_user_errors(world)
    await alice.click(asked.response, label="Yes: pass all remaining turns")
    after = last_board(channel)
    assert "passes for the rest of the game" in after.content and f"<@{bob.id}>, your turn" in after.content


# --------------------------------------------------------------------------------- item 10: options


def non_default_values(game: str, option: Any) -> list[str]:
    """Values other than the default, as a player would type them."""
    own = fixtures.option_values(game, option)  # what the game's package says (a layout's text)
    if own is not None:
        return own
    if option.choices:
        return [str(c) for c in option.choices if c != option.default]
    if isinstance(option.default, bool):
        return ["off" if option.default else "on"]
    if isinstance(option.default, int):
        low = option.minimum if option.minimum is not None else 0
        high = option.maximum if option.maximum is not None else option.default + 5
        return [
            str(v) for v in sorted({low, high, (low + high) // 2, option.default + 1}) if v != option.default
        ]
    return []


@pytest.mark.parametrize("game", list(games.GAMES))
async def test_every_declared_option_is_settable_in_play_and_listed_by_rules(world: Any, game: str) -> None:
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    rules = games.get(game)
    shown = await alice.slash(channel, "rules", game=game)
    [embed] = shown.response.embeds
    listed = [f.value for f in embed.fields if f.name == "Match options"]  # none for a game without options
    assert set(re.findall(r"`(\w+)`", "".join(listed))) == {o.name for o in rules.options}

    # The options field offers exactly the game's own options (rated, turn_timeout, the live clock and the
    # first seat have their own fields).
    named = {c["value"] for c in await alice.autocomplete(channel, "play", "options", "", game=game)}
    assert named == {f"{o.name}=" for o in rules.options}
    assert {o.name for o in match_options(rules)} - {o.name for o in rules.options} == {
        "rated",
        "turn_timeout",
        "clock",
        rules.first_seat.option,
    }
    service = env.bot.runtime.service
    for option in rules.options:
        offered = await alice.autocomplete(channel, "play", "options", option.name, game=game)
        assert f"{option.name}=" in [c["value"] for c in offered], option.name
        accepted = False
        for value in non_default_values(game, option)[:4]:
            result = await alice.slash(
                channel, "play", game=game, opponent=bob, options=f"{option.name}={value}"
            )
            if result.ephemeral:  # the engine judged the value (a size that does not fit the board)
                take_user_errors(world)
                continue
            challenge = (await service.challenges.pending(channel.id))[-1]
            assert challenge.options[option.name] == option.coerce(value)
            await alice.click(result.response, label="Withdraw")
            accepted = True
            break
        assert accepted, f"{game}: no value of {option.name} could be set"


async def test_a_bad_option_is_refused_when_the_challenge_is_made(world: Any) -> None:
    refused = await world.alice.slash(
        world.channel, "play", game="tilingking", opponent=world.bob, options="size=50"
    )
    assert refused.ephemeral and "`size` must be at most" in reply_text(refused)
    assert await world.env.bot.runtime.service.challenges.pending(world.channel.id) == []
    take_user_errors(world)


# ----------------------------------------------------------------------------- item 11: bot's turn


async def test_no_buttons_while_the_bot_moves_and_only_done_for_a_balancer(world: Any) -> None:
    alice, channel, env = world.alice, world.channel, world.env
    await alice.slash(
        channel, "play", game="paintscape", opponent=bot_member(world), level="1", first="challenger"
    )
    board = last_board(channel)
    assert button_labels(board) == ["Done swapping"], "a balancer has one way to say done"
    await alice.click(board, label="Done swapping")
    # As posted (before any later edit): the board shown while the bot chooses carries no buttons.
    posted = [
        r.json
        for r in env.http_requests
        if r.method == "POST"
        and r.path.endswith("/messages")
        and "is thinking" in str((r.json or {}).get("content"))
    ]
    assert posted, "a board was posted while the bot chose"
    assert all(not payload.get("components") for payload in posted), posted
    thinking = [m for m in boards(channel) if "is thinking" in m.content]
    assert thinking and all(button_labels(m) == [] for m in thinking)


def test_word_buttons_are_empty_on_the_bots_turn() -> None:
    from bot.boards import word_buttons
    from bot.service.records import MatchRecord, MatchStatus, MatchView
    from tests.bot.test_result_lines import bot, person

    rules = games.get("paintscape")
    state = rules.new(2, {}, 1)
    for seats, expected in (((bot(0), person(1, 5)), []), ((person(0, 5), bot(1)), ["Done swapping"])):
        record = MatchRecord(
            id=1,
            game="paintscape",
            options={},
            seed=1,
            guild_id=1,
            channel_id=2,
            seats=seats,
            status=MatchStatus.ACTIVE,
            ply=0,
            turn_timeout=60.0,
            deadline=None,
            snapshot="{}",
            outcome=None,
            rated=True,
            ratings_applied=False,
            abort_votes=(),
            takeback=None,
            created_at=0.0,
            updated_at=0.0,
            finished_at=None,
        )
        view = MatchView.of(record, state, rules.to_move(state))
        assert [b.item.label for b in word_buttons(view, rules)] == expected


# ------------------------------------------------------------------------------------- item 14


async def test_cells_stay_lower_case_in_error_replies(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paint", first="challenger")
    refused = await alice.slash(channel, "move", notation="b9-b8")  # Black's disc
    assert refused.ephemeral and reply_text(refused).startswith("b9 holds a Black disc"), reply_text(refused)
    worded = await alice.slash(channel, "move", notation="pass")
    assert reply_text(worded).startswith("There is no passing in Paint"), "a word still starts a sentence"
    take_user_errors(world)


async def test_autocomplete_says_why_you_cannot_move(world: Any) -> None:
    alice, bob, carol, channel = world.alice, world.bob, world.carol, world.channel
    nothing = await alice.autocomplete(channel, "move", "notation", "")
    assert [c["name"] for c in nothing] == ["There is no match in this channel. Start one with /play."]
    await start_challenge(world, alice, bob, "paint", first="challenger")
    [why] = await bob.autocomplete(channel, "move", "notation", "c")
    assert why["name"] == "Not your turn: waiting for alice."
    [outsider] = await carol.autocomplete(channel, "move", "notation", "")
    assert outsider["name"] == "You are not playing in match #1."
    # Sending that choice is harmless: the same answer, no move, no notation error.
    sent = await bob.slash(channel, "move", notation=why["value"])
    assert sent.ephemeral and reply_text(sent) == "Not your turn: waiting for alice."
    assert await suggestions(alice, channel, "c1-c") != []
    take_user_errors(world)


def test_why_not_your_turn_names_the_bot_and_the_end() -> None:
    from bot.service.records import MatchRecord, MatchStatus, MatchView
    from cogs.moves import why_not_your_turn
    from tests.bot.test_result_lines import bot, person

    rules = games.get("paint")
    state = rules.new(2, {}, 1)

    def view(status: MatchStatus) -> MatchView:
        record = MatchRecord(
            id=4,
            game="paint",
            options={},
            seed=1,
            guild_id=1,
            channel_id=2,
            seats=(bot(0), person(1, 5)),
            status=status,
            ply=0,
            turn_timeout=60.0,
            deadline=None,
            snapshot="{}",
            outcome=None,
            rated=True,
            ratings_applied=False,
            abort_votes=(),
            takeback=None,
            created_at=0.0,
            updated_at=0.0,
            finished_at=None,
        )
        return MatchView.of(record, state, rules.to_move(state))

    assert (
        why_not_your_turn(view(MatchStatus.ACTIVE), 5, {})
        == "Not your turn: waiting for Tessera, who is thinking."
    )
    assert why_not_your_turn(view(MatchStatus.FINISHED), 5, {}) == "Match #4 is over."
    assert why_not_your_turn(view(MatchStatus.ACTIVE), 6, {}) == "You are not playing in match #4."


async def test_pressing_your_own_agree_to_abort_answers(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "paint", first="challenger")
    await alice.slash(channel, "move", notation="c1-c3")
    await bob.slash(channel, "move", notation="b9-b8")
    asked = await alice.slash(channel, "abort")
    again = await alice.click(asked.response, label="Agree to abort")
    assert again.ephemeral and reply_text(again) == f"You have agreed already; waiting for <@{bob.id}>."
    take_user_errors(world)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("e5 is Green's territory; play elsewhere", "e5 is Green's territory; play elsewhere"),
        ("c10 holds a stone", "c10 holds a stone"),
        ("'xyz' is not a move", "'xyz' is not a move"),
        ("<@1>'s turn", "<@1>'s turn"),
        ("you have no placement", "You have no placement"),
        ("it's over", "It's over"),
        ("two-player games only", "Two-player games only"),
        ("swaps belong to the balancing phase", "Swaps belong to the balancing phase"),
        ("", ""),
    ],
)
def test_a_reply_capitalises_words_never_cells(text: str, shown: str) -> None:
    from bot.replies import sentence_case

    assert sentence_case(text) == shown


async def test_typing_pass_all_asks_too(world: Any) -> None:
    alice, bob, channel = world.alice, world.bob, world.channel
    await start_challenge(world, alice, bob, "tilingking", first="challenger", options="board=sq9")
    board = last_board(channel)
    asked = await alice.slash(channel, "move", notation="PassAll")
    assert asked.ephemeral and "cannot be undone" in reply_text(asked) and last_board(channel).id == board.id
    await alice.click(asked.response, label="Yes: pass all remaining turns")
    assert "passes for the rest of the game" in last_board(channel).content
