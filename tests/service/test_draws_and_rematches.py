"""Draw offers and rematches (issue 43, items 5-6), on every store: an offer lapses with the next move, one
offer per DRAW_OFFER_GAP plies, every player still playing must agree, the draw is rated as one; a
rematch rotates the seats, keeps the game, options, rating and time, needs every person's yes (at once
against the bot), lapses, and the chain keeps a running score."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.service import Service
from bot.service.draws import DRAW_OFFER_GAP
from bot.service.errors import (
    USER_ERRORS,
    ChannelBusy,
    DrawOfferPending,
    DrawOfferTooSoon,
    DrawsNotInGame,
    DrawsTooEarly,
    DrawsWithBot,
    NoDrawOffer,
    NoRematchOffer,
    NotSeated,
    OwnRequest,
    RematchInTournament,
    RematchNotOver,
    RematchPending,
    RematchTaken,
)
from bot.service.records import (
    DrawDeclined,
    DrawOffered,
    Finished,
    MatchRecord,
    MatchStatus,
    MatchView,
    Player,
    RematchDeclined,
    RematchOffered,
    RematchScore,
    RematchStarted,
)
from bot.service.rematches import REMATCH_TTL, points_text, rotated, score_of, score_text
from bot.service.store import SqliteStore
from bot.service.tournaments.model import Format, Settings
from games.base import AGREED_DRAW, Outcome, Termination
from tests.service.conftest import FakeClock
from tests.service.helpers import ALICE, BOB, BOT, CAROL, CHANNEL, GUILD, everyone_moves, start_match
from tests.service.test_tournament_host import make
from tests.service.tinygames import registry


async def _finished_race(service: Service, **options: object) -> MatchView:
    """A race to 3 that Bob (seat 1) wins: Alice 2, Bob 1."""
    match = await start_match(service, options={"target": 3, **options})
    await service.matches.play(match.id, ALICE, "2")
    done = (await service.matches.play(match.id, BOB, "1")).match
    assert done.status is MatchStatus.FINISHED and done.outcome is not None and done.outcome.winners == (1,)
    return done


async def _three(service: Service) -> int:
    lobby = await service.lobbies.create(
        "hoard", {"target": 100}, ALICE, guild_id=GUILD, channel_id=CHANNEL, seat_order="joined"
    )
    await service.lobbies.join(lobby.id, BOB)
    await service.lobbies.join(lobby.id, CAROL)
    match = await service.lobbies.start(lobby.id, ALICE)
    await everyone_moves(service, match.id)
    return match.id


# ------------------------------------------------------------------------------------------- draws


async def test_an_accepted_draw_ends_the_match_drawn_and_rated(service: Service) -> None:
    match = await start_match(service, options={"target": 100, "rated": True})
    await everyone_moves(service, match.id)
    offered = await service.draws.offer(match.id, ALICE)
    assert isinstance(offered, DrawOffered) and (offered.by_user, offered.waiting_for) == (ALICE, (BOB,))
    shown = await service.draws.open_offer(match.id)
    assert shown is not None and shown.waiting_for == (BOB,)
    with pytest.raises(DrawOfferPending):
        await service.draws.offer(match.id, ALICE)
    with pytest.raises(OwnRequest):
        await service.draws.accept(match.id, ALICE)
    with pytest.raises(NotSeated):
        await service.draws.accept(match.id, CAROL)
    done = await service.draws.accept(match.id, BOB)
    assert isinstance(done, Finished)
    assert done.outcome.termination is AGREED_DRAW and done.outcome.is_draw and done.winners == ()
    assert done.match.status is MatchStatus.FINISHED
    assert len(done.rating_changes) == 2  # rated, as a draw


async def test_a_second_offer_while_one_is_open_agrees_to_it(service: Service) -> None:
    match = await start_match(service, options={"target": 100})
    await everyone_moves(service, match.id)
    await service.draws.offer(match.id, BOB)
    done = await service.draws.offer(match.id, ALICE)
    assert isinstance(done, Finished) and done.outcome.termination is AGREED_DRAW


async def test_the_next_move_lapses_an_offer(service: Service) -> None:
    match = await start_match(service, options={"target": 100})
    await everyone_moves(service, match.id)
    await service.draws.offer(match.id, BOB)  # on Alice's turn
    await service.matches.play(match.id, ALICE, "1")  # her move declines it
    assert await service.draws.open_offer(match.id) is None
    with pytest.raises(NoDrawOffer):
        await service.draws.accept(match.id, ALICE)


async def test_a_takeback_lapses_an_offer_even_back_at_its_ply(service: Service, clock: FakeClock) -> None:
    match = await start_match(service, options={"target": 100})
    await everyone_moves(service, match.id)
    await service.matches.play(match.id, ALICE, "1")
    await service.draws.offer(match.id, ALICE)  # at ply 3, Bob to move
    clock.advance(1)
    await service.matches.play(match.id, BOB, "1")
    clock.advance(1)
    await service.agreements.request_takeback(match.id, BOB)
    await service.agreements.accept_takeback(match.id, ALICE)  # back to ply 3
    assert (await service.matches.get(match.id)).ply == 3
    assert await service.draws.open_offer(match.id) is None


async def test_one_offer_per_player_per_few_moves(service: Service) -> None:
    match = await start_match(service, "hoard", {"target": 1000})  # no forced moves: one ply a move
    view = await everyone_moves(service, match.id)
    first = view.ply
    await service.draws.offer(match.id, ALICE)
    declined = await service.draws.decline(match.id, BOB)
    assert isinstance(declined, DrawDeclined) and (declined.by_user, declined.offered_by) == (BOB, ALICE)
    with pytest.raises(DrawOfferTooSoon) as refused:
        await service.draws.offer(match.id, ALICE)
    assert refused.value.params["plies"] == DRAW_OFFER_GAP
    assert isinstance(await service.draws.offer(match.id, BOB), DrawOffered)  # each player has their own
    for _ in range(DRAW_OFFER_GAP - 1):
        view = (await service.matches.play(match.id, view.user_to_move or 0, "1")).match
        with pytest.raises(DrawOfferTooSoon):
            await service.draws.offer(match.id, ALICE)
    view = (await service.matches.play(match.id, view.user_to_move or 0, "1")).match
    assert view.ply == first + DRAW_OFFER_GAP
    assert isinstance(await service.draws.offer(match.id, ALICE), DrawOffered)


async def test_the_offerer_withdraws_by_declining(service: Service) -> None:
    match = await start_match(service, options={"target": 100})
    await everyone_moves(service, match.id)
    await service.draws.offer(match.id, ALICE)
    withdrawn = await service.draws.decline(match.id, ALICE)
    assert withdrawn.offered_by == ALICE
    with pytest.raises(NoDrawOffer):
        await service.draws.decline(match.id, BOB)


async def test_every_player_still_playing_must_agree(service: Service) -> None:
    match_id = await _three(service)
    offered = await service.draws.offer(match_id, ALICE)
    assert isinstance(offered, DrawOffered) and offered.waiting_for == (BOB, CAROL)
    still = await service.draws.accept(match_id, BOB)
    assert isinstance(still, DrawOffered) and still.waiting_for == (CAROL,)
    done = await service.draws.accept(match_id, CAROL)
    assert isinstance(done, Finished) and done.outcome.ranks == (0, 0, 0)


async def test_a_player_who_resigned_has_no_say_and_ranks_last(service: Service) -> None:
    match_id = await _three(service)
    view = await service.matches.get(match_id)
    await service.matches.resign(match_id, CAROL)
    view = await service.matches.get(match_id)
    assert view.is_active
    offered = await service.draws.offer(match_id, ALICE)
    assert isinstance(offered, DrawOffered) and offered.waiting_for == (BOB,)
    done = await service.draws.accept(match_id, BOB)
    assert isinstance(done, Finished) and done.outcome.ranks == (0, 0, 1)
    assert done.outcome.termination is AGREED_DRAW


async def test_no_offers_before_everyone_moved_nor_against_the_bot(service: Service) -> None:
    match = await start_match(service, options={"target": 100})
    with pytest.raises(DrawsTooEarly):
        await service.draws.offer(match.id, ALICE)
    bot = await service.challenges.play_bot(
        "race",
        {"target": 100, "first": "challenger"},
        CAROL,
        bot_id=BOT,
        level="1",
        guild_id=GUILD,
        channel_id=CHANNEL + 1,
    )
    await service.matches.play(bot.id, CAROL, "1")
    await service.matches.play(bot.id, BOT, "1")
    with pytest.raises(DrawsWithBot):
        await service.draws.offer(bot.id, CAROL)


async def test_a_game_that_always_has_a_winner_has_no_draw_offers(service: Service) -> None:
    match = await start_match(service, "paintscape", {"balance": False})
    with pytest.raises(DrawsNotInGame) as refused:
        await service.draws.offer(match.id, ALICE)
    assert "Paintscape" in str(refused.value)
    assert service.rules("paint").can_draw and service.rules("tilingking").can_draw


# ------------------------------------------------------------------------------------------ rematches


async def test_a_rematch_rotates_the_seats_and_keeps_the_settings(service: Service) -> None:
    done = await _finished_race(service, rated=True)
    old = done
    offered = await service.rematches.offer(old.id, ALICE)
    assert isinstance(offered, RematchOffered) and offered.waiting_for == (BOB,)
    with pytest.raises(RematchPending):
        await service.rematches.offer(old.id, ALICE)
    with pytest.raises(OwnRequest):
        await service.rematches.accept(old.id, ALICE)
    started = await service.rematches.accept(old.id, BOB)
    assert isinstance(started, RematchStarted)
    new = started.match
    assert [p.user_id for p in new.seats] == [BOB, ALICE]
    assert (new.game, dict(new.options), new.rated, new.turn_timeout) == (
        old.game,
        dict(old.options),
        old.rated,
        old.turn_timeout,
    )
    assert new.channel_id == old.channel_id and new.is_active
    assert started.score == RematchScore((ALICE, BOB), (0.0, 1.0), 1)
    with pytest.raises(RematchTaken):
        await service.rematches.offer(old.id, BOB)


async def test_no_rematch_of_a_match_still_going_nor_for_others(service: Service) -> None:
    match = await start_match(service)
    with pytest.raises(RematchNotOver):
        await service.rematches.offer(match.id, ALICE)
    await service.matches.resign(match.id, ALICE)  # aborted: nobody had moved
    with pytest.raises(NotSeated):
        await service.rematches.offer(match.id, CAROL)
    with pytest.raises(NoRematchOffer):
        await service.rematches.accept(match.id, BOB)


async def test_an_offer_lapses_and_a_declined_one_may_be_made_again(
    service: Service, clock: FakeClock
) -> None:
    done = await _finished_race(service)
    await service.rematches.offer(done.id, ALICE)
    clock.advance(REMATCH_TTL + 1)
    assert await service.rematches.open_offer(done.id) is None
    with pytest.raises(NoRematchOffer):
        await service.rematches.accept(done.id, BOB)
    again = await service.rematches.offer(done.id, BOB)
    assert isinstance(again, RematchOffered) and again.by_user == BOB
    declined = await service.rematches.decline(done.id, ALICE)
    assert isinstance(declined, RematchDeclined) and declined.offered_by == BOB
    with pytest.raises(NoRematchOffer):
        await service.rematches.decline(done.id, ALICE)
    assert isinstance(await service.rematches.offer(done.id, ALICE), RematchOffered)


async def test_against_the_bot_one_click_starts_it(service: Service) -> None:
    match = await service.challenges.play_bot(
        "race", {"target": 100}, CAROL, bot_id=BOT, level="1", guild_id=GUILD, channel_id=CHANNEL
    )
    await service.matches.resign(match.id, CAROL)
    started = await service.rematches.offer(match.id, CAROL)
    assert isinstance(started, RematchStarted)
    assert [p.user_id for p in started.match.seats] == [p.user_id for p in reversed(match.seats)]
    assert started.match.seats[0].ai_level == match.seats[1].ai_level


async def test_the_chain_keeps_a_running_score(service: Service) -> None:
    done = await _finished_race(service)  # Bob wins as seat 1
    score = None
    match_id = done.id
    for _ in range(2):
        await service.rematches.offer(match_id, ALICE)
        started = await service.rematches.accept(match_id, BOB)
        assert isinstance(started, RematchStarted)
        match_id = started.match.id
        new = started.match
        await service.matches.play(match_id, new.seats[0].user_id, "2")
        finished = await service.matches.play(match_id, new.seats[1].user_id, "1")  # seat 1 wins
        assert finished.match.status is MatchStatus.FINISHED
        score = await service.rematches.score(match_id)
    # Bob, then Alice (seat 1 after the swap), then Bob again
    assert score == RematchScore((ALICE, BOB), (1.0, 2.0), 3)
    assert score_text(score, ["Alice", "Bob"]) == "Alice 1 - 2 Bob"
    assert len(await service.rematches.chain(match_id)) == 3


def test_points_are_written_with_halves() -> None:
    assert [points_text(p) for p in (0, 0.5, 2, 2.5)] == ["0", "½", "2", "2½"]
    score = RematchScore((1, 2, 3), (1.5, 0.5, 1.0), 3)
    assert score_text(score, ["A", "B", "C"]) == "A 1½ · B ½ · C 1"


# -------------------------------------------------------------------------------------- invariants

_RESULTS = st.sampled_from(["first", "second", "draw", "aborted"])


def _chain(users: list[int], results: list[str]) -> list[MatchView]:
    """A chain of two-player matches with these results, each rematch's seats rotated."""
    chain = []
    seats = list(users)
    for i, result in enumerate(results):
        status = MatchStatus.ABORTED if result == "aborted" else MatchStatus.FINISHED
        ranks = {"first": (0, 1), "second": (1, 0), "draw": (0, 0), "aborted": (0, 0)}[result]
        termination = Termination.ABORTED if result == "aborted" else Termination.RESIGNATION
        record = MatchRecord(
            id=i + 1,
            game="race",
            options={},
            seed=0,
            guild_id=None,
            channel_id=1,
            seats=tuple(Player(s, u) for s, u in enumerate(seats)),
            status=status,
            ply=2,
            turn_timeout=60.0,
            deadline=None,
            snapshot="{}",
            outcome=Outcome(termination, ranks),
            rated=False,
            ratings_applied=False,
            abort_votes=(),
            takeback=None,
            created_at=0.0,
            updated_at=0.0,
            finished_at=0.0,
        )
        chain.append(MatchView.of(record, None, None))
        seats = [seats[1], seats[0]]
    return chain


@given(st.lists(_RESULTS, max_size=30))
def test_the_running_score_counts_every_result_once(results: list[str]) -> None:
    """Points add up to the matches with a result; a win is 1, a draw ½ each; whoever held seat 0."""
    score = score_of(_chain([ALICE, BOB], results))
    decided = [r for r in results if r != "aborted"]
    assert score.users == ((ALICE, BOB) if results else ())
    assert score.games == len(decided)
    assert sum(score.points) == pytest.approx(len(decided))
    alice = 0.0
    for i, result in enumerate(results):
        alice_seat = i % 2  # the seats swap with every rematch
        if result == "draw":
            alice += 0.5
        elif result in ("first", "second"):
            alice += 1.0 if (result == "first") == (alice_seat == 0) else 0.0
    if results:
        assert score.points[0] == pytest.approx(alice)


@given(st.lists(st.integers(1, 10**6), min_size=2, max_size=4, unique=True))
def test_rotating_as_many_times_as_there_are_players_comes_back(users: list[int]) -> None:
    """Each rematch moves everyone one seat earlier: every player holds every seat once per round."""
    match = _chain(users[:2], ["first"])[0]
    seats = tuple(Player(s, u) for s, u in enumerate(users))
    match = replace(match, seats=seats)
    held: dict[int, set[int]] = {u: set() for u in users}
    for _ in users:
        for seat, (user, _level) in enumerate(rotated(match)):
            held[user].add(seat)
        match = replace(match, seats=tuple(Player(s, u) for s, (u, _l) in enumerate(rotated(match))))
    assert [p.user_id for p in match.seats] == users
    assert all(seats_held == set(range(len(users))) for seats_held in held.values())


async def test_a_tournament_game_has_no_rematch(service: Service) -> None:
    """The tournament pairs the next game: no Rematch button, and an offer is refused."""
    t, _ = await make(service, Settings("race", Format.SWISS, {"target": 3}), 2)
    match = await service.matches.start(
        "race",
        {"target": 3},
        [(101, None), (102, None)],
        seed=1,
        rated=True,
        turn_timeout=60.0,
        guild_id=GUILD,
        channel_id=77,
        tournament_game=(t.id, 1),
    )
    await service.matches.play(match.id, 101, "2")
    done = (await service.matches.play(match.id, 102, "1")).match
    assert not await service.rematches.offers_rematch(done)
    with pytest.raises(RematchInTournament):
        await service.rematches.offer(match.id, 101)
    finished = await _finished_race(service)
    assert await service.rematches.offers_rematch(finished)


async def test_a_rematch_waits_while_its_channel_has_another_match(service: Service) -> None:
    """The rematch plays in the match's channel: while another match is going on there, accepting says so
    and the offer stays open for when it is free."""
    done = await _finished_race(service)
    await service.rematches.offer(done.id, ALICE)
    busy = await start_match(service, options={"target": 100}, challenger=CAROL, opponent=BOB)
    with pytest.raises(ChannelBusy):
        await service.rematches.accept(done.id, BOB)
    shown = await service.rematches.open_offer(done.id)
    assert shown is not None and shown.waiting_for == (BOB,)
    await service.matches.resign(busy.id, CAROL)
    assert isinstance(await service.rematches.accept(done.id, BOB), RematchStarted)


DRAW_ACTIONS = st.lists(
    st.tuples(st.sampled_from(["offer", "offer", "accept", "decline", "move"]), st.integers(0, 3)),
    max_size=30,
)


async def _draw_actions(seats: int, actions: list[tuple[str, int]]) -> None:
    """Play `actions` against a model of the rules (module doc of draws.py) and check every answer."""
    store = await SqliteStore.open(":memory:")
    try:
        service = Service(store, registry=registry, rng=random.Random(0), now=lambda: 1000.0)
        users = list(range(1, seats + 1))
        lobby = await service.lobbies.create("hoard", {"target": 1000}, 1, guild_id=1, channel_id=1)
        for user in users[1:]:
            await service.lobbies.join(lobby.id, user)
        match = await service.lobbies.start(lobby.id, 1)
        view = await everyone_moves(service, match.id)
        ply = view.ply
        offer: tuple[int, set[int]] | None = None  # the offerer and who agreed
        last: dict[int, int] = {}
        for action, pick in actions:
            user = users[pick % seats]
            expected: type[object]
            if action == "move":
                view = (await service.matches.play(match.id, view.user_to_move or 0, "1")).match
                ply, offer = ply + 1, None
                continue
            if action == "offer" and offer is not None and offer[0] != user:
                action = "accept"  # an offer while another player's is open agrees to it
            if action == "offer":
                if offer is not None:
                    expected = DrawOfferPending
                elif user in last and ply < last[user] + DRAW_OFFER_GAP:
                    expected = DrawOfferTooSoon
                else:
                    expected, offer, last[user] = DrawOffered, (user, {user}), ply
            elif action == "accept":
                if offer is None:
                    expected = NoDrawOffer
                elif offer[0] == user:
                    expected = OwnRequest
                else:
                    offer[1].add(user)
                    expected = Finished if offer[1] == set(users) else DrawOffered
            else:
                expected, offer = (NoDrawOffer, offer) if offer is None else (DrawDeclined, None)
            call = {"offer": service.draws.offer, "accept": service.draws.accept}.get(action)
            try:
                got: object = await (call or service.draws.decline)(match.id, user)
            except USER_ERRORS as error:
                got = error
            assert isinstance(got, expected), (action, user, ply, got)
            if isinstance(got, Finished):
                assert got.outcome.termination is AGREED_DRAW and got.outcome.ranks == (0,) * seats
                return
    finally:
        await store.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=DRAW_ACTIONS, seats=st.integers(2, 4))
def test_draw_offers_follow_their_rules_whatever_players_do(
    actions: list[tuple[str, int]], seats: int
) -> None:
    """Offers, answers and moves in any order: each answer is the one the rules give (lapsing with a move,
    one offer per DRAW_OFFER_GAP plies per player, one open offer, every player's yes ends it drawn)."""
    asyncio.run(_draw_actions(seats, actions))


async def test_a_rematch_of_a_live_match_keeps_its_clock(service: Service) -> None:
    """The rematch's settings include the live time control (issue 43: same game and options)."""
    old = await start_match(service, options={"clock": "1+2"})
    assert old.time_control is not None
    await everyone_moves(service, old.id)
    await service.matches.resign(old.id, ALICE)
    await service.rematches.offer(old.id, ALICE)
    started = await service.rematches.accept(old.id, BOB)
    assert isinstance(started, RematchStarted)
    assert started.match.time_control == old.time_control
