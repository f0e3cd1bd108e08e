"""`MatchService.add_match_listener`: every start and every end (a move that ends the game, a resignation,
a timeout, an abort) is told once, with the game and the termination; the metrics count through it."""

from __future__ import annotations

from bot.service import Service
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
