"""Playing: turns, permissions, stale moves, forced moves, pass, resign, abort, takeback."""

from __future__ import annotations

import pytest

from bot.matches import (
    USER_ERRORS,
    AbortRequested,
    CannotPass,
    Finished,
    MatchOver,
    MatchService,
    NoMatchHere,
    NoTakebackRequest,
    NothingToTakeBack,
    NotSeated,
    NotYourTurnError,
    OwnRequest,
    Played,
    ServiceError,
    StaleMove,
    TakebackRequested,
    TakenBack,
    UnknownMatch,
)
from games.base import IllegalMove, InvalidMove, Termination
from tests.service.conftest import ServiceFactory
from tests.service.helpers import ALICE, BOB, BOT, CAROL, CHANNEL, GUILD, snapshot_matches_replay, start_match


async def test_a_move_is_stored_with_its_description_and_the_turn_passes(service: MatchService) -> None:
    match = await start_match(service)
    assert (match.to_move, match.user_to_move, match.ply) == (0, ALICE, 0)
    played = await service.play(match.id, ALICE, "2", expected_ply=0)
    assert played.move.notation == "2" and played.move.seat == 0 and played.move.user_id == ALICE
    assert played.move.description == "Seat 0 plays 2"
    assert (played.next_seat, played.next_user_id) == (1, BOB)
    assert played.match.ply == 1 and played.outcome is None and played.finished is None
    assert played.state.total == 2
    assert [m.notation for m in await service.moves(match.id)] == ["2"]
    assert await snapshot_matches_replay(service, match.id)


async def test_forced_moves_follow_the_move_and_are_stored_as_moves(service: MatchService) -> None:
    match = await start_match(service)
    await service.play(match.id, ALICE, "2")
    played = await service.play(match.id, BOB, "2")  # total 4: Alice must skip
    assert [(f.notation, f.seat, f.forced) for f in played.forced] == [("skip", 0, True)]
    assert played.next_user_id == BOB and played.match.ply == 3
    log = await service.moves(match.id)
    assert [(m.ply, m.notation, m.forced) for m in log] == [
        (0, "2", False),
        (1, "2", False),
        (2, "skip", True),
    ]
    assert await snapshot_matches_replay(service, match.id)


async def test_the_winning_move_finishes_the_match(service: MatchService) -> None:
    match = await start_match(service, options={"target": 3})
    await service.play(match.id, ALICE, "1")
    played = await service.play(match.id, BOB, "2")
    assert played.finished is not None and played.outcome is not None
    assert played.finished.winners == (BOB,)
    assert played.next_seat is None and played.next_user_id is None
    assert played.match.status == "finished" and played.match.deadline is None
    with pytest.raises(MatchOver, match="over"):
        await service.play(match.id, ALICE, "1")


async def test_bad_requests_get_specific_errors_for_players(service: MatchService) -> None:
    match = await start_match(service)
    with pytest.raises(UnknownMatch, match="no match #4242"):
        await service.play(4242, ALICE, "1")
    with pytest.raises(NotSeated, match="not playing"):
        await service.play(match.id, CAROL, "1")
    with pytest.raises(NotYourTurnError, match=rf"It is <@{ALICE}>'s turn, not yours\."):
        await service.play(match.id, BOB, "1")
    with pytest.raises(StaleMove, match=r"That board has changed: look at the newest board and try again\."):
        await service.play(match.id, ALICE, "1", expected_ply=3)
    with pytest.raises(InvalidMove, match="not a move"):
        await service.play(match.id, ALICE, "zz9")
    await service.play(match.id, ALICE, "2")
    await service.play(match.id, BOB, "2")
    with pytest.raises(IllegalMove, match="cannot play"):  # Alice skipped; Bob may not skip
        await service.play(match.id, BOB, "skip")
    with pytest.raises(NoMatchHere, match="/play"):
        await service.match_in_channel(555)
    assert (await service.match_in_channel(CHANNEL)).id == match.id
    for error in (UnknownMatch(1), StaleMove(), InvalidMove("x")):
        assert isinstance(error, USER_ERRORS)
    assert (await service.get_match(match.id)).ply == 3  # nothing above changed the match


async def test_pass_only_where_the_game_has_it(service: MatchService) -> None:
    race = await start_match(service)
    with pytest.raises(CannotPass, match="no passing in Race"):
        await service.pass_turn(race.id, ALICE)
    hoard = await start_match(service, "hoard", channel=CHANNEL + 1)
    played = await service.pass_turn(hoard.id, ALICE, expected_ply=0)
    assert played.move.notation == "pass" and played.next_user_id == BOB


async def test_resigning_ends_a_two_player_game_even_out_of_turn(service: MatchService) -> None:
    match = await start_match(service)
    result = await service.resign(match.id, BOB)
    assert isinstance(result, Finished)
    assert result.termination is Termination.RESIGNATION
    assert result.winners == (ALICE,) and result.by_user == BOB
    assert result.outcome.ranks == (0, 1)
    assert await snapshot_matches_replay(service, match.id)
    with pytest.raises(MatchOver):
        await service.resign(match.id, ALICE)


async def test_in_a_game_of_more_players_resign_is_the_engine_move(service: MatchService) -> None:
    lobby = await service.create_lobby(
        "hoard", {}, ALICE, guild_id=GUILD, channel_id=CHANNEL, seat_order="joined"
    )
    await service.join_lobby(lobby.id, BOB)
    await service.join_lobby(lobby.id, CAROL)
    match = await service.start_lobby(lobby.id, ALICE)
    with pytest.raises(NotYourTurnError, match="resign on your turn"):
        await service.resign(match.id, BOB)
    result = await service.resign(match.id, ALICE)
    assert isinstance(result, Played) and result.move.notation == "resign"
    assert result.next_user_id == BOB and result.finished is None
    result = await service.resign(match.id, BOB)
    assert isinstance(result, Played) and result.finished is not None
    assert result.finished.winners == (CAROL,)


async def test_abort_needs_both_players_or_an_admin(service: MatchService) -> None:
    match = await start_match(service)
    first = await service.request_abort(match.id, ALICE)
    assert isinstance(first, AbortRequested) and first.waiting_for == (BOB,)
    assert first.match.abort_votes == (0,)
    second = await service.request_abort(match.id, BOB)
    assert isinstance(second, Finished) and second.termination is Termination.ABORTED
    assert second.winners == () and second.match.status == "aborted" and second.rating_changes == ()
    other = await start_match(service, channel=CHANNEL + 1)
    by_admin = await service.request_abort(other.id, CAROL, admin=True)
    assert isinstance(by_admin, Finished) and by_admin.by_user == CAROL
    with pytest.raises(NotSeated):
        await service.request_abort((await start_match(service, channel=CHANNEL + 2)).id, CAROL)


async def test_a_move_clears_a_pending_abort_request(service: MatchService) -> None:
    match = await start_match(service)
    await service.request_abort(match.id, BOB)
    await service.play(match.id, ALICE, "1")
    assert (await service.get_match(match.id)).abort_votes == ()
    assert isinstance(await service.request_abort(match.id, ALICE), AbortRequested)


async def test_takeback_undoes_back_to_the_askers_turn_once_the_opponent_accepts(
    service: MatchService,
) -> None:
    match = await start_match(service)
    await service.play(match.id, ALICE, "1")
    await service.play(match.id, BOB, "1")
    await service.play(match.id, ALICE, "2")  # total 4: Bob skips, Alice to move again
    with pytest.raises(NoTakebackRequest):
        await service.accept_takeback(match.id, BOB)
    asked = await service.request_takeback(match.id, ALICE)
    assert isinstance(asked, TakebackRequested) and asked.waiting_for == (BOB,)
    with pytest.raises(OwnRequest):
        await service.accept_takeback(match.id, ALICE)
    done = await service.accept_takeback(match.id, BOB)
    assert isinstance(done, TakenBack)
    assert [(m.notation, m.forced) for m in done.undone] == [("2", False), ("skip", True)]
    assert done.match.ply == 2 and done.match.user_to_move == ALICE and done.match.state.total == 2
    assert await snapshot_matches_replay(service, match.id)
    played = await service.play(match.id, ALICE, "1", expected_ply=2)
    assert played.state.total == 3


async def test_takeback_by_the_player_not_to_move_undoes_the_opponents_reply_too(
    service: MatchService,
) -> None:
    match = await start_match(service)
    await service.play(match.id, ALICE, "1")
    await service.play(match.id, BOB, "1")
    await service.request_takeback(match.id, ALICE)
    done = await service.accept_takeback(match.id, BOB)
    assert [m.notation for m in done.undone] == ["1", "1"] and done.match.ply == 0


async def test_takeback_edge_cases(service: MatchService) -> None:
    match = await start_match(service)
    with pytest.raises(NothingToTakeBack):
        await service.request_takeback(match.id, ALICE)
    await service.play(match.id, ALICE, "1")
    await service.request_takeback(match.id, ALICE)
    await service.decline_takeback(match.id, BOB)
    with pytest.raises(NoTakebackRequest):
        await service.accept_takeback(match.id, BOB)
    await service.request_takeback(match.id, ALICE)
    await service.play(match.id, BOB, "1")  # a move voids the request
    with pytest.raises(NoTakebackRequest):
        await service.accept_takeback(match.id, BOB)


async def test_against_the_bot_a_takeback_happens_at_once(service: MatchService) -> None:
    match = await service.start_ai_match(
        "race",
        {"first": "challenger"},
        ALICE,
        ai_user_id=BOT,
        level="hard",
        guild_id=GUILD,
        channel_id=CHANNEL,
    )
    assert match.seats[1].is_ai and match.ai_seat_to_move() is None
    await service.play(match.id, ALICE, "1")
    view = await service.get_match(match.id)
    ai_seat = view.ai_seat_to_move()
    assert ai_seat is not None and ai_seat.user_id == BOT and view.deadline is None
    assert [m.id for m in await service.ai_turns()] == [match.id]
    await service.play(match.id, BOT, "1")
    done = await service.request_takeback(match.id, ALICE)
    assert isinstance(done, TakenBack) and done.match.ply == 0


async def test_legal_notations_for_autocomplete(service: MatchService) -> None:
    match = await start_match(service, "hoard")
    assert await service.legal_notations(match.id) == ["1", "2", "pass", "passall", "resign"]
    assert await service.legal_notations(match.id, "PA") == ["pass", "passall"]
    assert await service.legal_notations(match.id, "", limit=2) == ["1", "2"]


async def test_replay_states_walk_the_log(service: MatchService) -> None:
    match = await start_match(service)
    await service.play(match.id, ALICE, "2")
    await service.play(match.id, BOB, "1")
    states = await service.replay_states(match.id)
    assert [s.total for s in states] == [0, 2, 3]


async def test_every_domain_error_is_a_service_error() -> None:
    import bot.matches as module

    errors = [
        value
        for name, value in vars(module).items()
        if isinstance(value, type) and issubclass(value, Exception) and value.__module__ == module.__name__
    ]
    assert len(errors) > 15
    assert all(issubclass(e, ServiceError) for e in errors)


async def test_only_a_bounded_number_of_states_is_held_in_memory(open_service: ServiceFactory) -> None:
    service = await open_service(state_cache_size=3)
    matches = [await start_match(service, challenger=10 + i, opponent=20 + i, channel=i) for i in range(6)]
    for match in matches:
        await service.play(match.id, match.user_to_move or 0, "1")
    assert len(service._states) == 3
    for match in matches:  # evicted states are loaded again from their snapshots
        assert (await service.get_match(match.id)).state.total == 1


async def test_matches_of_a_user_lists_their_active_matches(service: MatchService) -> None:
    first = await start_match(service, channel=1)
    second = await start_match(service, challenger=CAROL, opponent=ALICE, channel=2)
    await start_match(service, challenger=BOB, opponent=CAROL, channel=3)
    assert sorted(m.id for m in await service.matches_of(ALICE)) == sorted([first.id, second.id])
    await service.resign(first.id, ALICE)
    assert [m.id for m in await service.matches_of(ALICE)] == [second.id]
