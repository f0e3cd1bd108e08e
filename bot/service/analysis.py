"""Post-game analysis and hints for players, searched in the AI process pool (see games/ai/analysis.py).

- `analyse`: a finished match that the asker may see (`MatchService.get_visible`: one of this server, or
  one they played in) is analysed once: a finished match never changes, so results are kept in an LRU
  cache in memory. One analysis runs at a time (the others wait); it is sent to the pool one position at
  a time, so the bot's own moves get a worker between two positions, and `progress` hears after each one.
  A second request for a match being analysed waits for the same result (and hears its progress too).
- Limits: one analysis in progress per user (`AnalysisPending`; joining one already running, or reading
  one from the cache, is always allowed), at most `max_queued` matches in progress at once (`AnalysisBusy`),
  and one hint at a time per user (`HintPending`).
- `hint`: the AI's move for a player on their turn in a casual (unrated) match against the bot.

Budgets: an analysis searches the default iterations bounded by `ANALYSIS_SECONDS` in all, a hint
`HINT_ITERATIONS` bounded by `HINT_SECONDS` (anytime: a slow or busy machine searches less, not longer).
When the runner has an iteration override (tests), both use it alone, so results are reproducible.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.service.ai import AIRunner
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
)
from bot.service.matches import MatchService
from bot.service.records import MatchStatus, MatchView
from games.ai.analysis import (
    DEEP_SEED,
    HINT_SECONDS,
    TIMED_BUDGET,
    Budget,
    Hint,
    MatchAnalysis,
    MoveReview,
    candidates,
    conclude,
)
from games.base import replay

log = logging.getLogger(__name__)

CACHE_SIZE = 128
"""Analyses kept in memory (each is a few kilobytes)."""
MAX_QUEUED = 4
"""Matches being analysed or waiting for it at once; one more is refused with 'busy, try again'."""
HINT_ITERATIONS = 1500
"""Search iterations of a hint at most (about a quarter of a second on a Paintscape position); the search
also stops after `HINT_SECONDS`."""


def budget_for(runner: AIRunner) -> Budget:
    """The analysis budget: the bot's timed one, or one scaled to the runner's iteration override (tests:
    iterations alone)."""
    if runner.iterations is None:
        return TIMED_BUDGET
    n = max(1, runner.iterations)
    return Budget(first=n, deep=2 * n, total=40 * n)


@dataclass(frozen=True, slots=True)
class AnalysisProgress:
    """How far an analysis is: `done` of `total` positions of the first pass (`deep` False) or of the second
    pass over the candidate turning points (`deep` True); `ply` is the position searched last."""

    match_id: int
    done: int
    total: int
    ply: int
    deep: bool


Listener = Callable[[AnalysisProgress], None]


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
        hint_seconds: float | None = None,
        cache_size: int = CACHE_SIZE,
        max_queued: int = MAX_QUEUED,
    ) -> None:
        self.matches = matches
        self.runner = runner
        self.budget = budget or budget_for(runner)
        self.hint_iterations = hint_iterations or runner.iterations or HINT_ITERATIONS
        self.hint_seconds = hint_seconds or (HINT_SECONDS if runner.iterations is None else None)
        self.cache_size = cache_size
        self.max_queued = max_queued
        self._cache: OrderedDict[int, MatchAnalysis] = OrderedDict()
        self._in_flight: dict[int, asyncio.Future[MatchAnalysis]] = {}
        self._listeners: dict[int, list[Listener]] = {}
        self._users: dict[int, int] = {}
        """The match each user has an analysis in progress of."""
        self._hinting: set[int] = set()
        """Users whose hint is being searched."""
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

    def admit(self, match_id: int, user_id: int) -> None:
        """Raise AnalysisPending (this user has another analysis in progress) or AnalysisBusy (too many in
        progress) now if an analysis of this match for this user would be refused (before the bot answers
        'thinking', so the refusal can be a private reply). Cached and running matches are always served."""
        if match_id in self._cache or match_id in self._in_flight:
            return
        running = self._users.get(user_id)
        if running is not None:
            raise AnalysisPending(match_id=running)
        if len(self._in_flight) >= self.max_queued:
            raise AnalysisBusy()

    def cached(self, match_id: int) -> MatchAnalysis | None:
        found = self._cache.get(match_id)
        if found is not None:
            self._cache.move_to_end(match_id)
        return found

    async def analyse(
        self, match_id: int, *, guild_id: int | None, user_id: int, progress: Listener | None = None
    ) -> AnalysedMatch:
        """The analysis of a finished match the user may see here: from the cache, joined to the same
        analysis in progress, or searched now (AnalysisPending, AnalysisBusy: see `admit`). `progress`
        hears how far the search is, after each position."""
        match = await self.finished(match_id, guild_id=guild_id, user_id=user_id)
        cached = self.cached(match.id)
        if cached is not None:
            return AnalysedMatch(match, cached)
        same = self._in_flight.get(match.id)
        if same is not None:
            return AnalysedMatch(match, await self._join(match.id, same, progress))
        self.admit(match.id, user_id)
        future: asyncio.Future[MatchAnalysis] = asyncio.get_running_loop().create_future()
        self._in_flight[match.id] = future
        self._listeners[match.id] = [progress] if progress is not None else []
        self._users[user_id] = match.id
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
            self._listeners.pop(match.id, None)
            if self._users.get(user_id) == match.id:
                del self._users[user_id]

    async def _join(
        self, match_id: int, running: asyncio.Future[MatchAnalysis], progress: Listener | None
    ) -> MatchAnalysis:
        """Wait for an analysis in progress, hearing its progress meanwhile."""
        listeners = self._listeners.get(match_id)
        if progress is None or listeners is None:
            return await asyncio.shield(running)
        listeners.append(progress)
        try:
            return await asyncio.shield(running)
        finally:
            if progress in listeners:
                listeners.remove(progress)

    def _tell(self, event: AnalysisProgress) -> None:
        """Tell everyone waiting for this match how far it is; a listener that fails never stops the
        analysis."""
        for listener in list(self._listeners.get(event.match_id, ())):
            try:
                listener(event)
            except Exception:
                log.exception("a progress listener of the analysis of match %s failed", event.match_id)

    async def _search(self, match: MatchView) -> MatchAnalysis:
        """Both passes, one position per job (see games.ai.analysis), within the budget's time if it has
        one: the first pass shares its part, the second what is left (waiting for a worker comes out of it
        too, so the whole stays bounded while bot moves take workers)."""
        log = [(m.seat, m.notation) for m in await self.matches.log(match.id)]
        runner, budget, game = self.runner, self.budget, match.game
        async with self._one_at_a_time:
            self.runs += 1
            began = time.monotonic()
            found = await runner.analysis_positions(game, match.options, match.seed, len(match.seats), log)
            iterations = budget.per_search(2 * len(found))
            spent = 0
            first: list[MoveReview] = []
            for done, position in enumerate(found, 1):
                seconds = budget.first_seconds(2 * (len(found) - done + 1), time.monotonic() - began)
                seed = match.seed + position.ply
                reviewed = await runner.review(
                    game, position, iterations=iterations, seconds=seconds, seed=seed, deep=False
                )
                spent += reviewed.iterations
                if reviewed.review is not None:
                    first.append(reviewed.review)
                self._tell(AnalysisProgress(match.id, done, len(found), position.ply, False))
            by_ply = {position.ply: position for position in found}
            again = candidates(first, len(match.seats), budget)
            deep: list[MoveReview] = []
            for done, candidate in enumerate(again, 1):
                position = by_ply[candidate.ply]
                left = 2 * (len(again) - done + 1)
                reviewed = await runner.review(
                    game,
                    position,
                    iterations=budget.deep,
                    seconds=budget.deep_seconds(left, time.monotonic() - began),
                    seed=match.seed + position.ply + DEEP_SEED,
                    deep=True,
                )
                spent += reviewed.iterations
                if reviewed.review is not None:
                    deep.append(reviewed.review)
                self._tell(AnalysisProgress(match.id, done, len(again), position.ply, True))
            return conclude(first, deep, len(match.seats), budget, spent)

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

    def admit_hint(self, user_id: int) -> None:
        """HintPending if this user's previous hint is still being searched (one at a time per user)."""
        if user_id in self._hinting:
            raise HintPending()

    async def hint(self, match_id: int, user_id: int) -> Hint:
        """The AI's move for `user_id` in the position now (see `hint_match` and `admit_hint` for the
        refusals)."""
        match = await self.hint_match(match_id, user_id)
        self.admit_hint(user_id)
        rules = self.matches.rules(match.game)
        self._hinting.add(user_id)
        try:
            return await self.runner.hint(
                match.game,
                rules.dump(match.state),
                iterations=self.hint_iterations,
                seconds=self.hint_seconds,
                seed=match.seed + match.ply,
            )
        finally:
            self._hinting.discard(user_id)
