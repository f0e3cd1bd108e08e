"""Playing: turns, permissions, stale moves, forced moves, pass, resign, abort, takeback."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.service import Service
from bot.service.errors import (
    USER_ERRORS,
    AlreadyResigned,
    CannotPass,
    MatchOver,
    NoMatchHere,
    NoTakebackRequest,
    NothingToTakeBack,
    NotSeated,
    NotYourTurnError,
    OwnRequest,
    ServiceError,
    StaleMove,
    TakebacksCasualOnly,
    UnknownMatch,
)
from bot.service.matches import StateCache
from bot.service.records import AbortRequested, Finished, Played, TakebackRequested, TakenBack
from games.base import IllegalMove, InvalidMove, Termination
from tests.service.conftest import FakeClock, ServiceFactory
from tests.service.helpers import (
    ALICE,
    BOB,
    BOT,
    CAROL,
    CHANNEL,
    GUILD,
    everyone_moves,
    legal,
    snapshot_matches_replay,
    start_match,
)


async def test_a_move_is_stored_with_its_description_and_the_turn_passes(service: Service) -> None:
    match = await start_match(service)
    assert (match.to_move, match.user_to_move, match.ply) == (0, ALICE, 0)
    played = await service.matches.play(match.id, ALICE, "2", expected_ply=0)
    assert played.move.notation == "2" and played.move.seat == 0 and played.move.user_id == ALICE
    assert played.move.description == "Seat 0 plays 2"
    assert (played.match.to_move, played.match.user_to_move) == (1, BOB)
    assert played.match.ply == 1 and played.match.outcome is None and played.finished is None
    assert played.match.state.total == 2
    assert [m.notation for m in await service.matches.moves(match.id)] == ["2"]
    assert await snapshot_matches_replay(service, match.id)


async def test_forced_moves_follow_the_move_and_are_stored_as_moves(service: Service) -> None:
    match = await start_match(service)
    await service.matches.play(match.id, ALICE, "2")
    played = await service.matches.play(match.id, BOB, "2")  # total 4: Alice must skip
    assert [(f.notation, f.seat, f.forced) for f in played.forced] == [("skip", 0, True)]
    assert played.match.user_to_move == BOB and played.match.ply == 3
    log = await service.matches.moves(match.id)
    assert [(m.ply, m.notation, m.forced) for m in log] == [
        (0, "2", False),
        (1, "2", False),
        (2, "skip", True),
    ]
    assert await snapshot_matches_replay(service, match.id)


async def test_the_winning_move_finishes_the_match(service: Service) -> None:
    match = await start_match(service, options={"target": 3})
    await service.matches.play(match.id, ALICE, "1")
    played = await service.matches.play(match.id, BOB, "2")
    assert played.finished is not None and played.match.outcome is not None
    assert played.finished.winners == (BOB,)
    assert played.match.to_move is None and played.match.user_to_move is None
    assert played.match.status == "finished" and played.match.deadline is None
    with pytest.raises(MatchOver, match="over"):
        await service.matches.play(match.id, ALICE, "1")


async def test_bad_requests_get_specific_errors_for_players(service: Service) -> None:
    match = await start_match(service)
    with pytest.raises(UnknownMatch, match="no match #4242"):
        await service.matches.play(4242, ALICE, "1")
    with pytest.raises(NotSeated, match="not playing"):
        await service.matches.play(match.id, CAROL, "1")
    with pytest.raises(NotYourTurnError, match=rf"It is <@{ALICE}>'s turn, not yours\."):
        await service.matches.play(match.id, BOB, "1")
    with pytest.raises(StaleMove, match=r"That board has changed: look at the newest board and try again\."):
        await service.matches.play(match.id, ALICE, "1", expected_ply=3)
    with pytest.raises(InvalidMove, match="not a move"):
        await service.matches.play(match.id, ALICE, "zz9")
    await service.matches.play(match.id, ALICE, "2")
    await service.matches.play(match.id, BOB, "2")
    with pytest.raises(IllegalMove, match="cannot play"):  # Alice skipped; Bob may not skip
        await service.matches.play(match.id, BOB, "skip")
    with pytest.raises(NoMatchHere, match="/play"):
        await service.matches.in_channel(555)
    assert (await service.matches.in_channel(CHANNEL)).id == match.id
    for error in (UnknownMatch(match_id=1), StaleMove(), InvalidMove("x")):
        assert isinstance(error, USER_ERRORS)
    assert (await service.matches.get(match.id)).ply == 3  # nothing above changed the match


async def test_pass_only_where_the_game_has_it(service: Service) -> None:
    race = await start_match(service)
    with pytest.raises(CannotPass, match="cannot pass in Race"):
        await service.matches.pass_turn(race.id, ALICE)
    hoard = await start_match(service, "hoard", channel=CHANNEL + 1)
    played = await service.matches.pass_turn(hoard.id, ALICE, expected_ply=0)
    assert played.move.notation == "pass" and played.match.user_to_move == BOB


async def test_resigning_ends_a_two_player_game_even_out_of_turn(service: Service) -> None:
    match = await start_match(service)
    await everyone_moves(service, match.id)
    result = await service.matches.resign(match.id, BOB)
    assert isinstance(result, Finished)
    assert result.termination is Termination.RESIGNATION
    assert result.winners == (ALICE,) and result.by_user == BOB
    assert result.outcome.ranks == (0, 1)
    assert await snapshot_matches_replay(service, match.id)
    with pytest.raises(MatchOver):
        await service.matches.resign(match.id, ALICE)


async def test_in_a_game_of_more_players_anyone_resigns_on_any_turn_and_the_game_goes_on(
    service: Service,
) -> None:
    lobby = await service.lobbies.create(
        "hoard", {}, ALICE, guild_id=GUILD, channel_id=CHANNEL, seat_order="joined"
    )
    await service.lobbies.join(lobby.id, BOB)
    await service.lobbies.join(lobby.id, CAROL)
    match = await service.lobbies.start(lobby.id, ALICE)
    await everyone_moves(service, match.id)
    result = await service.matches.resign(match.id, BOB)  # out of turn: Alice is to move
    assert isinstance(result, Played) and (result.move.notation, result.move.seat) == ("resign", 1)
    assert result.move.description == "Seat 1 resigns"
    assert result.match.user_to_move == ALICE and result.finished is None
    with pytest.raises(AlreadyResigned):
        await service.matches.check_resign(match.id, BOB)
    with pytest.raises(AlreadyResigned):
        await service.matches.resign(match.id, BOB)
    played = await service.matches.play(match.id, ALICE, "1")
    assert played.match.user_to_move == CAROL, "the resigned seat is skipped"
    assert await snapshot_matches_replay(service, match.id)
    result = await service.matches.resign(match.id, ALICE)
    assert isinstance(result, Played) and result.finished is not None
    assert result.finished.winners == (CAROL,)
    assert await snapshot_matches_replay(service, match.id)


async def test_abort_needs_both_players_or_an_admin(service: Service) -> None:
    match = await start_match(service)
    await everyone_moves(service, match.id)
    first = await service.agreements.request_abort(match.id, ALICE)
    assert isinstance(first, AbortRequested) and first.waiting_for == (BOB,)
    assert first.match.abort_votes == (0,)
    second = await service.agreements.request_abort(match.id, BOB)
    assert isinstance(second, Finished) and second.termination is Termination.ABORTED
    assert second.winners == () and second.match.status == "aborted" and second.rating_changes == ()
    other = await start_match(service, channel=CHANNEL + 1)
    by_admin = await service.agreements.request_abort(other.id, CAROL, admin=True)
    assert isinstance(by_admin, Finished) and by_admin.by_user == CAROL
    with pytest.raises(NotSeated):
        await service.agreements.request_abort((await start_match(service, channel=CHANNEL + 2)).id, CAROL)


async def test_a_move_clears_a_pending_abort_request(service: Service) -> None:
    match = await start_match(service)
    await everyone_moves(service, match.id)
    await service.agreements.request_abort(match.id, BOB)
    await service.matches.play(match.id, ALICE, "1")
    assert (await service.matches.get(match.id)).abort_votes == ()
    assert isinstance(await service.agreements.request_abort(match.id, ALICE), AbortRequested)


async def test_takeback_undoes_back_to_the_askers_turn_once_the_opponent_accepts(
    service: Service,
) -> None:
    match = await start_match(service)
    await service.matches.play(match.id, ALICE, "1")
    await service.matches.play(match.id, BOB, "1")
    await service.matches.play(match.id, ALICE, "2")  # total 4: Bob skips, Alice to move again
    with pytest.raises(NoTakebackRequest):
        await service.agreements.accept_takeback(match.id, BOB)
    asked = await service.agreements.request_takeback(match.id, ALICE)
    assert isinstance(asked, TakebackRequested) and asked.waiting_for == (BOB,)
    with pytest.raises(OwnRequest):
        await service.agreements.accept_takeback(match.id, ALICE)
    done = await service.agreements.accept_takeback(match.id, BOB)
    assert isinstance(done, TakenBack)
    assert [(m.notation, m.forced) for m in done.undone] == [("2", False), ("skip", True)]
    assert done.match.ply == 2 and done.match.user_to_move == ALICE and done.match.state.total == 2
    assert await snapshot_matches_replay(service, match.id)
    played = await service.matches.play(match.id, ALICE, "1", expected_ply=2)
    assert played.match.state.total == 3


async def test_takeback_by_the_player_not_to_move_undoes_the_opponents_reply_too(
    service: Service,
) -> None:
    match = await start_match(service)
    await service.matches.play(match.id, ALICE, "1")
    await service.matches.play(match.id, BOB, "1")
    await service.agreements.request_takeback(match.id, ALICE)
    done = await service.agreements.accept_takeback(match.id, BOB)
    assert [m.notation for m in done.undone] == ["1", "1"] and done.match.ply == 0


async def test_takeback_edge_cases(service: Service) -> None:
    match = await start_match(service)
    with pytest.raises(NothingToTakeBack):
        await service.agreements.request_takeback(match.id, ALICE)
    await service.matches.play(match.id, ALICE, "1")
    await service.agreements.request_takeback(match.id, ALICE)
    await service.agreements.decline_takeback(match.id, BOB)
    with pytest.raises(NoTakebackRequest):
        await service.agreements.accept_takeback(match.id, BOB)
    await service.agreements.request_takeback(match.id, ALICE)
    await service.matches.play(match.id, BOB, "1")  # a move voids the request
    with pytest.raises(NoTakebackRequest):
        await service.agreements.accept_takeback(match.id, BOB)


@pytest.mark.parametrize("rated", [False, True])
async def test_against_the_bot_a_takeback_happens_at_once_in_a_casual_match_only(
    service: Service, rated: bool
) -> None:
    """Against the bot a casual match takes back at once; a rated one refuses (its moves stand), which
    changes nothing."""
    match = await service.challenges.play_bot(
        "race",
        {"first": "challenger", "rated": rated},
        ALICE,
        bot_id=BOT,
        level="8",
        guild_id=GUILD,
        channel_id=CHANNEL,
    )
    assert match.seats[1].is_ai and match.ai_seat_to_move() is None
    await service.matches.play(match.id, ALICE, "1")
    view = await service.matches.get(match.id)
    ai_seat = view.ai_seat_to_move()
    assert ai_seat is not None and ai_seat.user_id == BOT and view.deadline is None
    assert [m.id for m in await service.matches.bot_turns()] == [match.id]
    await service.matches.play(match.id, BOT, "1")
    if rated:
        with pytest.raises(TakebacksCasualOnly):
            await service.agreements.request_takeback(match.id, ALICE)
        assert (await service.matches.get(match.id)).ply == 2
        return
    done = await service.agreements.request_takeback(match.id, ALICE)
    assert isinstance(done, TakenBack) and done.match.ply == 0


async def test_legal_notations_for_autocomplete(service: Service) -> None:
    match = await start_match(service, "hoard")
    assert await legal(service, match.id) == ["1", "2", "pass", "passall", "resign"]
    assert await legal(service, match.id, "PA") == ["pass", "passall"]
    assert await legal(service, match.id, "", limit=2) == ["1", "2"]


async def test_the_move_log_is_described_from_the_position_before_each_move(service: Service) -> None:
    match = await start_match(service)
    await service.matches.play(match.id, ALICE, "2")
    await service.matches.play(match.id, BOB, "2")
    moves = await service.matches.moves(match.id)
    assert [(m.notation, m.user_id, m.forced) for m in moves] == [
        ("2", ALICE, False),
        ("2", BOB, False),
        ("skip", ALICE, True),
    ]
    assert [m.description for m in moves] == ["Seat 0 plays 2", "Seat 1 plays 2", "Seat 0 plays skip"]
    assert [m.notation for m in await service.matches.log(match.id)] == ["2", "2", "skip"]
    assert await service.matches.last_move(match.id) == "skip"


async def test_every_domain_error_is_a_service_error() -> None:
    import bot.service.errors as module

    errors = [
        value
        for name, value in vars(module).items()
        if isinstance(value, type) and issubclass(value, Exception) and value.__module__ == module.__name__
    ]
    assert len(errors) > 15
    assert all(issubclass(e, ServiceError) for e in errors)


async def test_only_a_bounded_number_of_states_is_held_in_memory(open_service: ServiceFactory) -> None:
    service = await open_service(state_cache_size=3)
    service.matches.states.most = 3  # it may not grow past this
    matches = [
        await start_match(service, challenger=10 + i, opponent=20 + i, channel=i + 1) for i in range(6)
    ]
    for match in matches:
        await service.matches.play(match.id, match.user_to_move or 0, "1")
    assert len(service.matches.states) == 3
    for match in matches:  # evicted states are loaded again from their snapshots
        assert (await service.matches.get(match.id)).state.total == 1


async def test_the_state_cache_grows_to_the_matches_moving_in_turn(open_service: ServiceFactory) -> None:
    """More matches moving in turn than the cache holds: each move missed (its position parsed again, the
    rules rebuilt) for ever; the cache grows to them instead, and the moves after that find their states."""
    service = await open_service(state_cache_size=3)
    states = service.matches.states
    matches = [
        await start_match(service, challenger=10 + i, opponent=20 + i, channel=i + 1) for i in range(8)
    ]
    for _round in range(4):
        for match in matches:
            now = await service.matches.get(match.id)
            await service.matches.play(match.id, now.user_to_move or 0, "1")
    assert states.size >= 8 and len(states) >= 8
    misses = states.misses
    for match in matches:
        now = await service.matches.get(match.id)
        await service.matches.play(match.id, now.user_to_move or 0, "1")
    assert states.misses == misses  # every state was found


async def test_matches_of_a_user_lists_their_active_matches(service: Service) -> None:
    first = await start_match(service, channel=1)
    second = await start_match(service, challenger=CAROL, opponent=ALICE, channel=2)
    await start_match(service, challenger=BOB, opponent=CAROL, channel=3)
    assert sorted(m.id for m in await service.matches.of_user(ALICE)) == sorted([first.id, second.id])
    await service.matches.resign(first.id, ALICE)
    assert [m.id for m in await service.matches.of_user(ALICE)] == [second.id]


async def test_a_users_matches_where_it_is_their_turn_come_first(service: Service, clock: Any) -> None:
    """Alice's matches for her page of them: hers to play first (the soonest deadline first), then those
    waiting for others, newest first."""
    waiting = await start_match(service, channel=1)  # Alice opens: then it is Bob's turn
    await service.matches.play(waiting.id, ALICE, "1")
    hers_sooner = await start_match(service, challenger=ALICE, opponent=CAROL, channel=2)
    clock.advance(60)
    hers_later = await start_match(service, challenger=ALICE, opponent=BOB, channel=3)
    also_waiting = await start_match(service, challenger=ALICE, opponent=CAROL, channel=4)
    await service.matches.play(also_waiting.id, ALICE, "1")
    found = await service.matches.of_user_turn_first(ALICE)
    assert [m.id for m in found] == [hers_sooner.id, hers_later.id, also_waiting.id, waiting.id]
    assert [m.user_to_move == ALICE for m in found] == [True, True, False, False]
    assert found[0].deadline is not None and found[1].deadline is not None
    assert found[0].deadline < found[1].deadline


async def test_leaving_before_every_seat_moved_aborts_the_match_unrated(
    service: Service, clock: FakeClock
) -> None:
    """As on lichess: a resignation, a timeout or one abort vote before each seat has chosen a move aborts."""
    resigned = await start_match(service, options={"turn_timeout": 1})
    await service.matches.play(resigned.id, ALICE, "1")
    result = await service.matches.resign(resigned.id, ALICE)  # Bob has not moved yet
    assert isinstance(result, Finished) and result.termination is Termination.ABORTED
    assert (result.early, result.by_user, result.rating_changes) == (Termination.RESIGNATION, ALICE, ())
    assert result.match.status == "aborted"

    late = await start_match(service, options={"turn_timeout": 1}, channel=CHANNEL + 1)
    clock.advance(61)
    [event] = await service.matches.expire_due()
    assert event.match_id == late.id and event.finished is not None and event.played is None
    assert (event.finished.termination, event.finished.early) == (Termination.ABORTED, Termination.TIMEOUT)

    voted = await start_match(service, channel=CHANNEL + 2)
    alone = await service.agreements.request_abort(voted.id, BOB)
    assert isinstance(alone, Finished) and alone.termination is Termination.ABORTED and alone.early is None
    assert await service.ratings.leaderboard("race") == []


@given(st.lists(st.tuples(st.sampled_from(["get", "put", "drop"]), st.integers(0, 30), st.integers(0, 2))))
def test_the_state_cache_serves_only_what_was_put_and_stays_bounded(
    steps: list[tuple[str, int, int]],
) -> None:
    """Any sequence of reads, writes and drops: a state is served only for the exact version last put for
    that match (never a stale or dropped one), and the cache never holds more than its size, nor its size
    pass `most`."""
    cache = StateCache(3, most=10)
    put: dict[int, tuple[str, object]] = {}
    for action, match_id, version in steps:
        if action == "put":
            state = object()
            cache.put(match_id, str(version), state)
            put[match_id] = (str(version), state)
        elif action == "drop":
            cache.drop(match_id)
            put.pop(match_id, None)
        else:
            found = cache.get(match_id, str(version))
            if found is not None:
                assert put.get(match_id) == (str(version), found)
        assert len(cache) <= cache.size <= 10
