"""`MatchService.add_match_listener`: every start and every end (a move that ends the game, a resignation,
a timeout, an abort) is told once, with the game and the termination; the metrics count through it."""

from __future__ import annotations

import pytest

from bot.service import Service
from bot.service.errors import NotYourTurnError
from bot.service.records import Finished, MatchView
from tests.service.conftest import FakeClock
from tests.service.helpers import ALICE, BOB, CHANNEL, everyone_moves, start_match


class Heard:
    def __init__(self, service: Service) -> None:
        self.started: list[tuple[int, str]] = []
        self.finished: list[tuple[int, str, str]] = []
        service.matches.add_match_listener(started=self.on_started, finished=self.on_finished)

    def on_started(self, match: MatchView) -> None:
        self.started.append((match.id, match.game))

    def on_finished(self, finished: Finished) -> None:
        self.finished.append((finished.match.id, finished.match.game, finished.termination.value))


async def test_starts_and_every_kind_of_end_are_told_once(service: Service, clock: FakeClock) -> None:
    heard = Heard(service)
    resigned = await start_match(service, channel=CHANNEL)
    aborted = await start_match(service, channel=CHANNEL + 1)
    timed_out = await start_match(service, channel=CHANNEL + 2, options={"turn_timeout": 1})
    assert heard.started == [(m.id, "race") for m in (resigned, aborted, timed_out)]
    assert heard.finished == []
    early = await start_match(service, channel=CHANNEL + 3)
    for match in (resigned, aborted, timed_out):
        await everyone_moves(service, match.id)  # before that, leaving aborts the match
    await service.matches.resign(early.id, ALICE)

    await service.matches.resign(resigned.id, BOB)
    await service.agreements.request_abort(aborted.id, ALICE)
    await service.agreements.request_abort(aborted.id, BOB)
    clock.advance(120)
    await service.matches.expire_due()
    assert sorted(heard.finished) == sorted(
        [
            (resigned.id, "race", "resignation"),
            (aborted.id, "race", "aborted"),
            (timed_out.id, "race", "timeout"),
            (early.id, "race", "aborted"),
        ]
    )
    assert len(heard.started) == 4, "nothing started twice"


async def test_a_failing_listener_does_not_stop_the_match(service: Service) -> None:
    def broken(_: object) -> None:
        raise RuntimeError("listener bug")

    service.matches.add_match_listener(started=broken, finished=broken)
    heard = Heard(service)
    match = await start_match(service)
    await everyone_moves(service, match.id)
    await service.matches.resign(match.id, ALICE)
    assert heard.started == [(match.id, "race")]
    assert [end[2] for end in heard.finished] == ["resignation"]


async def test_every_commit_tells_the_changed_listeners_the_match_as_it_is_now(
    service: Service, clock: FakeClock
) -> None:
    """A start, a move, a takeback, a timeout and an end each tell `changed` once, with the match after
    the commit; a refused move or an unanswered request tells nothing."""
    heard: list[tuple[int, int, bool]] = []
    service.matches.add_match_listener(changed=lambda m: heard.append((m.id, m.ply, m.is_active)))
    match = await start_match(service, options={"turn_timeout": 1})
    assert heard == [(match.id, 0, True)]
    await service.matches.play(match.id, ALICE, "1")
    await service.matches.play(match.id, BOB, "1")
    await service.matches.play(match.id, ALICE, "2")  # Bob's turn is skipped (forced): one commit
    assert heard[1:] == [(match.id, 1, True), (match.id, 2, True), (match.id, 4, True)]
    with pytest.raises(NotYourTurnError):
        await service.matches.play(match.id, BOB, "1")
    await service.agreements.request_takeback(match.id, ALICE)
    assert len(heard) == 4, "a request changes no position"
    taken = await service.agreements.accept_takeback(match.id, BOB)
    assert heard[4:] == [(match.id, 2, True)] and taken.match.ply == 2
    clock.advance(120)
    (timed_out,) = await service.matches.expire_due()
    ended = timed_out.played or timed_out.finished
    assert ended is not None
    after = ended.match
    assert heard[5:] == [(match.id, after.ply, after.is_active)], "the timeout told once"
