"""Analyses and hints in the service: only finished matches the asker may see, analysed once (cached), one
at a time, a bounded number in progress; hints only on your turn in casual matches against the bot."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.service import Service
from bot.service.ai import AIRunner
from bot.service.analysis import Analyses, AnalysisProgress, budget_for
from bot.service.errors import (
    AnalysisBusy,
    AnalysisPending,
    BotsTurn,
    HintPending,
    HintsAgainstMeOnly,
    HintsCasualOnly,
    MatchOver,
    NotFinishedYet,
    NothingToAnalyse,
    NotSeated,
    NotYourTurnError,
    UnknownMatch,
)
from bot.service.records import MatchView
from games.ai.analysis import TIMED_BUDGET, Budget
from tests.service.helpers import ALICE, BOB, BOT, CAROL, CHANNEL, GUILD, legal, start_match, until


class GatedRunner(AIRunner):
    """An AI runner whose analyses wait for `gate` and find no position to review (an empty analysis), and
    whose hints wait for `gate` too, counting the calls (the seed of each analysed match)."""

    def __init__(self) -> None:
        super().__init__(workers=1, iterations=5)
        self.gate = asyncio.Event()
        self.calls: list[int] = []

    async def analysis_positions(self, game_id: str, options: Any, seed: int, *args: Any) -> list[Any]:
        self.calls.append(seed)
        await self.gate.wait()
        return []

    async def hint(self, *args: Any, **kwargs: Any) -> Any:
        await self.gate.wait()
        return await super().hint(*args, **kwargs)


async def finished_match(service: Service, channel: int = CHANNEL, plies: int = 4) -> MatchView:
    """A Paintscape match (no balancing) with a few moves, then Alice resigns."""
    match = await start_match(service, "paintscape", {"balance": False}, channel=channel)
    for _ in range(plies):
        view = await service.matches.get(match.id)
        user = view.user_to_move
        assert user is not None
        await service.matches.play(match.id, user, (await legal(service, match.id))[0])
    await service.matches.resign(match.id, ALICE)
    return await service.matches.get(match.id)


@pytest.fixture
async def gated() -> AsyncIterator[GatedRunner]:
    runner = GatedRunner()
    yield runner
    runner.gate.set()
    await runner.aclose()


async def test_a_finished_match_is_analysed_once_then_cached(service: Service, gated: GatedRunner) -> None:
    analyses = Analyses(service.matches, gated)
    match = await finished_match(service)
    gated.gate.set()
    first = await analyses.analyse(match.id, guild_id=GUILD, user_id=CAROL)
    again = await analyses.analyse(match.id, guild_id=GUILD, user_id=ALICE)
    assert first.analysis is again.analysis and first.match.id == match.id
    assert gated.calls == [match.seed] and analyses.runs == 1


async def test_two_requests_for_one_match_share_one_analysis(service: Service, gated: GatedRunner) -> None:
    analyses = Analyses(service.matches, gated)
    match = await finished_match(service)
    both = asyncio.gather(
        analyses.analyse(match.id, guild_id=GUILD, user_id=ALICE),
        analyses.analyse(match.id, guild_id=GUILD, user_id=BOB),
    )
    await until(lambda: len(gated.calls) == 1)
    gated.gate.set()
    first, second = await both
    assert first.analysis is second.analysis and analyses.runs == 1


async def test_too_many_analyses_in_progress_are_refused(service: Service, gated: GatedRunner) -> None:
    analyses = Analyses(service.matches, gated, max_queued=2)
    matches = [await finished_match(service, channel=CHANNEL + i) for i in range(3)]
    running = [
        asyncio.create_task(analyses.analyse(m.id, guild_id=GUILD, user_id=user))
        for m, user in zip(matches[:2], (ALICE, BOB), strict=True)
    ]
    await until(lambda: analyses.in_progress == 2 and len(gated.calls) >= 1)  # the first reaches the runner
    await asyncio.sleep(0.05)  # time for a second search to start, were it not held back
    assert len(gated.calls) == 1, "one analysis at a time; the second waits its turn"
    with pytest.raises(AnalysisBusy, match="Try again in a minute"):
        analyses.admit(matches[2].id, CAROL)
    with pytest.raises(AnalysisBusy):
        await analyses.analyse(matches[2].id, guild_id=GUILD, user_id=CAROL)
    analyses.admit(matches[0].id, CAROL)  # joining one in progress is always allowed
    gated.gate.set()
    await asyncio.gather(*running)
    assert len(gated.calls) == 2
    await analyses.analyse(matches[2].id, guild_id=GUILD, user_id=ALICE)
    assert len(gated.calls) == 3, "room again once they finished"


async def test_the_cache_is_bounded(service: Service, gated: GatedRunner) -> None:
    analyses = Analyses(service.matches, gated, cache_size=2)
    gated.gate.set()
    matches = [await finished_match(service, channel=CHANNEL + i, plies=2) for i in range(3)]
    for match in matches:
        await analyses.analyse(match.id, guild_id=GUILD, user_id=ALICE)
    assert analyses.cached(matches[0].id) is None
    assert analyses.cached(matches[2].id) is not None
    await analyses.analyse(matches[0].id, guild_id=GUILD, user_id=ALICE)
    assert analyses.runs == 4, "the evicted match is analysed again"


async def test_only_finished_matches_visible_here_are_analysed(service: Service, gated: GatedRunner) -> None:
    analyses = Analyses(service.matches, gated)
    match = await finished_match(service)
    with pytest.raises(UnknownMatch):  # another server, and not one of the asker's matches
        await analyses.analyse(match.id, guild_id=GUILD + 1, user_id=CAROL)
    elsewhere = await analyses.finished(match.id, guild_id=GUILD + 1, user_id=BOB)
    assert elsewhere.id == match.id, "a player may analyse their own match from anywhere"
    active = await start_match(service, "paintscape", channel=CHANNEL + 1)
    with pytest.raises(NotFinishedYet, match="still being played"):
        await analyses.analyse(active.id, guild_id=GUILD, user_id=ALICE)
    aborted = await start_match(service, "paintscape", channel=CHANNEL + 2)
    await service.agreements.request_abort(aborted.id, CAROL, admin=True)
    with pytest.raises(NothingToAnalyse, match="aborted"):
        await analyses.analyse(aborted.id, guild_id=GUILD, user_id=ALICE)
    assert gated.calls == []


async def test_a_real_analysis_in_the_process_pool(service: Service) -> None:
    async with AIRunner(workers=1, iterations=20) as runner:
        analyses = Analyses(service.matches, runner)
        assert analyses.budget == budget_for(runner) == Budget(first=20, deep=40, total=800)
        match = await finished_match(service, plies=8)
        result = await analyses.analyse(match.id, guild_id=GUILD, user_id=ALICE)
    log = await service.matches.log(match.id)
    reviewed = {r.ply: r for r in result.analysis.reviews}
    assert set(reviewed) == {m.ply for m in log if m.notation != "resign"}
    assert all(reviewed[m.ply].played == m.notation for m in log if m.ply in reviewed)
    assert len(result.analysis.turning_points) == 2
    ply = result.analysis.reviews[-1].ply
    before = await analyses.position_before(match, ply)
    rules = service.rules("paintscape")
    assert rules.parse(before, reviewed[ply].played) is not None, "the position the review is about"


async def bot_match(service: Service, *, rated: bool, channel: int = CHANNEL) -> MatchView:
    """Paintscape against the bot without balancing, Alice (the challenger) moving first as Black."""
    return await service.challenges.play_bot(
        "paintscape",
        {"balance": False, "balancer": "challenger", "rated": rated},
        ALICE,
        bot_id=BOT,
        level="1",
        guild_id=GUILD,
        channel_id=channel,
    )


async def test_a_hint_on_your_turn_in_a_casual_match_against_the_bot(service: Service) -> None:
    match = await bot_match(service, rated=False)
    assert match.user_to_move == ALICE
    async with AIRunner(workers=1, iterations=30) as runner:
        analyses = Analyses(service.matches, runner)
        given = await analyses.hint(match.id, ALICE)
    assert given.move in await legal(service, match.id)
    assert given.reason.endswith(".") and given.description.startswith("Black ")


async def test_hints_are_refused_with_a_reason(service: Service, gated: GatedRunner) -> None:
    analyses = Analyses(service.matches, gated)
    rated = await bot_match(service, rated=True)
    with pytest.raises(HintsCasualOnly, match="rated"):
        await analyses.hint(rated.id, ALICE)
    people = await start_match(service, "paintscape", {"balance": False, "rated": False}, channel=CHANNEL + 1)
    with pytest.raises(HintsAgainstMeOnly):
        await analyses.hint(people.id, ALICE)
    casual = await bot_match(service, rated=False, channel=CHANNEL + 2)
    with pytest.raises(NotSeated):
        await analyses.hint(casual.id, CAROL)
    rules = service.rules("paintscape")
    await service.matches.play(
        casual.id, ALICE, rules.notation(casual.state, next(iter(rules.legal_moves(casual.state))))
    )
    with pytest.raises(BotsTurn):
        await analyses.hint(casual.id, ALICE)
    await service.matches.resign(casual.id, ALICE)
    with pytest.raises(MatchOver):
        await analyses.hint(casual.id, ALICE)
    assert isinstance(BotsTurn(), NotYourTurnError)


async def test_one_analysis_in_progress_per_user(service: Service, gated: GatedRunner) -> None:
    """A user who has an analysis running is told to wait for it, even with room in the queue; others are
    not, joining a running one or reading a cached one is always allowed, and once it ends there is room."""
    analyses = Analyses(service.matches, gated)
    first, second, third = [await finished_match(service, channel=CHANNEL + i) for i in range(3)]
    mine = asyncio.create_task(analyses.analyse(first.id, guild_id=GUILD, user_id=ALICE))
    await until(lambda: analyses.in_progress == 1)
    with pytest.raises(AnalysisPending, match=f"analysis running \\(match #{first.id}\\). Wait for it"):
        analyses.admit(second.id, ALICE)
    with pytest.raises(AnalysisPending):
        await analyses.analyse(second.id, guild_id=GUILD, user_id=ALICE)
    analyses.admit(first.id, ALICE)  # the same match: joined
    theirs = asyncio.create_task(analyses.analyse(second.id, guild_id=GUILD, user_id=BOB))
    await until(lambda: analyses.in_progress == 2)
    gated.gate.set()
    await asyncio.gather(mine, theirs)
    analyses.admit(first.id, ALICE)
    await analyses.analyse(third.id, guild_id=GUILD, user_id=ALICE)
    assert analyses.runs == 3, "room again for Alice once hers finished"


async def test_a_failed_analysis_frees_its_user(service: Service, gated: GatedRunner) -> None:
    analyses = Analyses(service.matches, gated)
    match = await finished_match(service)

    async def broken(*args: Any) -> list[Any]:
        raise RuntimeError("worker died")

    gated.analysis_positions = broken  # type: ignore[method-assign]
    with pytest.raises(RuntimeError):
        await analyses.analyse(match.id, guild_id=GUILD, user_id=ALICE)
    analyses.admit(match.id + 1, ALICE)


async def test_one_hint_at_a_time_per_user(service: Service, gated: GatedRunner) -> None:
    analyses = Analyses(service.matches, gated)
    match = await bot_match(service, rated=False)
    asking = asyncio.create_task(analyses.hint(match.id, ALICE))
    await until(lambda: ALICE in analyses._hinting)
    with pytest.raises(HintPending, match="wait for it"):
        await analyses.hint(match.id, ALICE)
    gated.gate.set()
    given = await asking
    assert given.move in await legal(service, match.id)
    assert (await analyses.hint(match.id, ALICE)).move == given.move, "free again once answered"


async def test_progress_is_heard_after_every_position_by_everyone_waiting(service: Service) -> None:
    """Both passes report each position as it is searched, to the asker and to whoever joined."""
    async with AIRunner(workers=1, iterations=10) as runner:
        analyses = Analyses(service.matches, runner)
        match = await finished_match(service, plies=8)
        heard: dict[str, list[AnalysisProgress]] = {"alice": [], "bob": []}
        both = asyncio.gather(
            analyses.analyse(match.id, guild_id=GUILD, user_id=ALICE, progress=heard["alice"].append),
            analyses.analyse(match.id, guild_id=GUILD, user_id=BOB, progress=heard["bob"].append),
        )
        result, joined = await both
    assert joined.analysis is result.analysis and analyses.runs == 1
    first = [e for e in heard["alice"] if not e.deep]
    deep = [e for e in heard["alice"] if e.deep]
    reviewed = [r.ply for r in result.analysis.reviews]
    assert [e.ply for e in first] == reviewed and [e.done for e in first] == list(range(1, len(reviewed) + 1))
    assert {e.total for e in first} == {len(reviewed)} and {e.match_id for e in first} == {match.id}
    deep_plies = [r.ply for r in result.analysis.reviews if r.deep]
    assert sorted(e.ply for e in deep) == deep_plies and [e.done for e in deep] == list(
        range(1, len(deep) + 1)
    )
    assert heard["alice"] == first + deep, "the second pass after the first"
    assert heard["bob"] and heard["bob"] == heard["alice"][-len(heard["bob"]) :]


async def test_the_bot_s_budget_is_timed_and_a_test_override_is_not(service: Service) -> None:
    async with AIRunner(workers=1) as timed, AIRunner(workers=1, iterations=30) as fixed:
        assert Analyses(service.matches, timed).budget == TIMED_BUDGET and TIMED_BUDGET.seconds
        assert Analyses(service.matches, timed).hint_seconds is not None
        assert Analyses(service.matches, fixed).budget.seconds is None
        assert Analyses(service.matches, fixed).hint_seconds is None


async def test_a_failing_progress_listener_does_not_stop_the_analysis(service: Service) -> None:
    def broken(event: AnalysisProgress) -> None:
        raise RuntimeError("the message was deleted")

    async with AIRunner(workers=1, iterations=5) as runner:
        analyses = Analyses(service.matches, runner)
        match = await finished_match(service, plies=4)
        result = await analyses.analyse(match.id, guild_id=GUILD, user_id=ALICE, progress=broken)
    assert result.analysis.reviews, "analysed all the same"
