"""Post-game analysis and hints for players, searched in the AI process pool (see games/ai/analysis.py).

- `analyse`: a finished match that the asker may see (`MatchService.get_visible`: one of this server, or
  one they played in) is analysed once: a finished match never changes, so results are kept in an LRU
  cache in memory. One analysis runs at a time (the others wait, so bot moves keep the rest of the pool);
  a second request for a match being analysed waits for the same result, and at most `max_queued`
  matches may be in progress at once: more get `AnalysisBusy`.
- `hint`: the AI's move for a player on their turn in a casual (unrated) match against the bot.

Budgets are iterations, so an analysis is reproducible. When the runner has an iteration override (tests),
the analysis uses it too.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from bot.service.ai import AIRunner
from bot.service.errors import (
    AnalysisBusy,
    BotsTurn,
    HintsAgainstMeOnly,
    HintsCasualOnly,
    MatchOver,
    NotFinishedYet,
    NothingToAnalyse,
    NotSeated,
    NotYourTurnError,
)
from bot.service.matches import MatchService
from bot.service.records import MatchStatus, MatchView
from games.ai.analysis import Budget, Hint, MatchAnalysis
from games.base import replay

CACHE_SIZE = 128
"""Analyses kept in memory (each is a few kilobytes)."""
MAX_QUEUED = 4
"""Matches being analysed or waiting for it at once; one more is refused with 'busy, try again'."""
HINT_ITERATIONS = 1500
"""Search iterations of a hint (about a quarter of a second on a Paintscape position)."""


def budget_for(runner: AIRunner) -> Budget:
    """The analysis budget: the default one, or one scaled to the runner's iteration override (tests)."""
    if runner.iterations is None:
        return Budget()
    n = max(1, runner.iterations)
    return Budget(first=n, deep=2 * n, total=40 * n)


@dataclass(frozen=True, slots=True)
class AnalysedMatch:
    """A finished match and its analysis."""

    match: MatchView
    analysis: MatchAnalysis


class Analyses:
    """Analyses of finished matches and hints in casual matches (see the module doc)."""

    def __init__(
        self,
        matches: MatchService,
        runner: AIRunner,
        *,
        budget: Budget | None = None,
        hint_iterations: int | None = None,
        cache_size: int = CACHE_SIZE,
        max_queued: int = MAX_QUEUED,
    ) -> None:
        self.matches = matches
        self.runner = runner
        self.budget = budget or budget_for(runner)
        self.hint_iterations = hint_iterations or runner.iterations or HINT_ITERATIONS
        self.cache_size = cache_size
        self.max_queued = max_queued
        self._cache: OrderedDict[int, MatchAnalysis] = OrderedDict()
        self._in_flight: dict[int, asyncio.Future[MatchAnalysis]] = {}
        self._one_at_a_time = asyncio.Semaphore(1)
        self.runs = 0
        """Analyses actually searched (not answered from the cache or joined to a running one)."""

    # -------------------------------------------------------------------------------------- analysis

    async def finished(self, match_id: int, *, guild_id: int | None, user_id: int) -> MatchView:
        """The match if the user may see it here and it is finished; UnknownMatch, NotFinishedYet or
        NothingToAnalyse (aborted) otherwise."""
        match = await self.matches.get_visible(match_id, guild_id=guild_id, user_id=user_id)
        if match.is_active:
            raise NotFinishedYet(match_id=match.id)
        if match.status is not MatchStatus.FINISHED:
            raise NothingToAnalyse(match_id=match.id)
        return match

    @property
    def in_progress(self) -> int:
        """Matches being analysed or waiting for their turn."""
        return len(self._in_flight)

    def admit(self, match_id: int) -> None:
        """Raise AnalysisBusy now if an analysis of this match would be refused (before the bot answers
        'thinking', so the refusal can be a private reply)."""
        if match_id in self._cache or match_id in self._in_flight:
            return
        if len(self._in_flight) >= self.max_queued:
            raise AnalysisBusy()

    def cached(self, match_id: int) -> MatchAnalysis | None:
        found = self._cache.get(match_id)
        if found is not None:
            self._cache.move_to_end(match_id)
        return found

    async def analyse(self, match_id: int, *, guild_id: int | None, user_id: int) -> AnalysedMatch:
        """The analysis of a finished match the user may see here: from the cache, joined to the same
        analysis in progress, or searched now (AnalysisBusy when too many are in progress)."""
        match = await self.finished(match_id, guild_id=guild_id, user_id=user_id)
        cached = self.cached(match.id)
        if cached is not None:
            return AnalysedMatch(match, cached)
        same = self._in_flight.get(match.id)
        if same is not None:
            return AnalysedMatch(match, await asyncio.shield(same))
        self.admit(match.id)
        future: asyncio.Future[MatchAnalysis] = asyncio.get_running_loop().create_future()
        self._in_flight[match.id] = future
        try:
            analysis = await self._search(match)
            self._remember(match.id, analysis)
            future.set_result(analysis)
            return AnalysedMatch(match, analysis)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: a waiter that left early must not log it as unhandled
            raise
        finally:
            self._in_flight.pop(match.id, None)

    async def _search(self, match: MatchView) -> MatchAnalysis:
        log = [(m.seat, m.notation) for m in await self.matches.log(match.id)]
        async with self._one_at_a_time:
            self.runs += 1
            return await self.runner.analyse_match(
                match.game,
                match.options,
                match.seed,
                len(match.seats),
                log,
                budget=self.budget,
                analysis_seed=match.seed,
            )

    def _remember(self, match_id: int, analysis: MatchAnalysis) -> None:
        self._cache[match_id] = analysis
        self._cache.move_to_end(match_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    async def position_before(self, match: MatchView, ply: int) -> Any:
        """The position of `match` before the move at `ply` (a replay of its stored log)."""
        rules = self.matches.rules(match.game)
        state = rules.new(len(match.seats), match.options, match.seed)
        stored = await self.matches.log(match.id)
        for step in replay(rules, state, [(m.seat, m.notation) for m in stored[:ply]]):
            state = step.after
        return state

    # ----------------------------------------------------------------------------------------- hints

    async def hint_match(self, match_id: int, user_id: int) -> MatchView:
        """The match if `user_id` may have a hint there now: their turn in a casual match against the bot.
        MatchOver, NotSeated, HintsAgainstMeOnly (no bot seat), HintsCasualOnly (rated), BotsTurn or
        NotYourTurnError otherwise."""
        match = await self.matches.get(match_id)
        if not match.is_active:
            raise MatchOver(match_id=match.id)
        if match.seat_of(user_id) is None:
            raise NotSeated(match_id=match.id)
        if not any(seat.is_ai for seat in match.seats):
            raise HintsAgainstMeOnly()
        if match.rated:
            raise HintsCasualOnly(match_id=match.id)
        to_move = match.seats[match.to_move] if match.to_move is not None else None
        if to_move is None:
            raise MatchOver(match_id=match.id)
        if to_move.is_ai:
            raise BotsTurn()
        if to_move.user_id != user_id:
            raise NotYourTurnError(user_id=to_move.user_id)
        return match

    async def hint(self, match_id: int, user_id: int) -> Hint:
        """The AI's move for `user_id` in the position now (see `hint_match` for the refusals)."""
        match = await self.hint_match(match_id, user_id)
        rules = self.matches.rules(match.game)
        return await self.runner.hint(
            match.game, rules.dump(match.state), iterations=self.hint_iterations, seed=match.seed + match.ply
        )
