"""A finished match's analysis on its page: the turning points with the cells of the move played and of the
better one (the page draws an arrow for the better move), and the Analyse button, which runs the same
analysis as Discord's (`bot.service.analysis.Analyses`) and tells the page how far it is."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from bot.service import Service
from bot.service.analysis import Analyses, AnalysisProgress
from bot.service.errors import AnalysisBusy
from bot.service.records import MatchView
from games.ai.analysis import MatchAnalysis
from games.base import MoveError, replay

log = logging.getLogger("tessera.web")

Cached = Callable[[int], MatchAnalysis | None]
Found = Callable[[], Analyses | None]
"""The bot process's analyses, once it has them (its AI workers start after the web board)."""


class Review:
    """Turning points and analyses for the web board. `analyses` (the bot process's, with its AI workers)
    lets the page start an analysis; without it (a web process of its own) the page shows the analyses
    made elsewhere (`cached`, else the analyses' own cache) and no button."""

    def __init__(
        self,
        service: Service,
        *,
        analyses: Found | None,
        cached: Cached | None,
        changed: Callable[[int], None],
    ) -> None:
        self.service = service
        self.analyses = analyses
        self.cached = cached if cached is not None else (self._cached if analyses is not None else None)
        self.changed = changed
        self._progress: dict[int, dict[str, Any]] = {}
        self._points: dict[int, list[dict[str, Any]]] = {}
        self._running: set[asyncio.Task[None]] = set()

    def _cached(self, match_id: int) -> MatchAnalysis | None:
        found = self.analyses() if self.analyses is not None else None
        return found.cached(match_id) if found is not None else None

    @property
    def can_analyse(self) -> bool:
        return self.analyses is not None

    def progress(self, match_id: int) -> dict[str, Any] | None:
        """{"running": True, "done", "of"} while the match is being analysed, else None."""
        return self._progress.get(match_id)

    async def start(self, match: MatchView, user_id: int) -> None:
        """Start analysing a finished match for `user_id` (ServiceError now if it would be refused: not
        finished, aborted, this user's other analysis running, too many running); its progress and its
        turning points reach the page through `changed`."""
        analyses = self.analyses() if self.analyses is not None else None
        if analyses is None:
            raise AnalysisBusy()
        await analyses.finished(match.id, guild_id=match.guild_id, user_id=user_id)
        analyses.admit(match.id, user_id)
        if match.id in self._progress:
            return
        self._progress[match.id] = {"running": True, "done": 0, "of": 0}

        def heard(event: AnalysisProgress) -> None:
            self._progress[match.id] = {"running": True, "done": event.done, "of": event.total}
            self.changed(match.id)

        async def run() -> None:
            try:
                await analyses.analyse(match.id, guild_id=match.guild_id, user_id=user_id, progress=heard)
            except Exception:
                log.exception("the analysis of match %s failed", match.id)
            finally:
                self._progress.pop(match.id, None)
                self.changed(match.id)

        task = asyncio.get_running_loop().create_task(run())
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        self.changed(match.id)

    async def close(self) -> None:
        for task in list(self._running):
            task.cancel()

    async def points(self, match: MatchView) -> list[dict[str, Any]]:
        """The analysis's turning points of a finished match, in move order, once it has been analysed:
        each with the move played and the better one, as notations and as the cells they touch (empty for
        a move not played on the board), and whether the better move's cells are in order (a slide)."""
        analysis = self.cached(match.id) if self.cached is not None and not match.is_active else None
        if analysis is None:
            return []
        found = self._points.get(match.id)
        if found is not None:
            return found
        reviews = sorted((p for seat in analysis.turning_points for p in seat), key=lambda p: p.ply)
        rules = self.service.matches.rules(match.game)
        click_move = getattr(rules, "click_move", None)
        log_rows = await self.service.matches.log(match)
        wanted = {p.ply for p in reviews}
        start = rules.new(len(match.seats), match.options, match.seed)
        before = {
            step.ply: step.before
            for step in replay(rules, start, [(m.seat, m.notation) for m in log_rows])
            if step.ply in wanted
        }

        def cells(ply: int, notation: str) -> tuple[list[int], bool]:
            state = before.get(ply)
            if state is None or click_move is None:
                return [], False
            try:
                click = click_move(state, rules.parse(state, notation))
            except (MoveError, ValueError):
                return [], False
            return (list(click.cells), click.ordered) if click is not None else ([], False)

        out = []
        for p in reviews:
            played, _ = cells(p.ply, p.played)
            preferred, ordered = cells(p.ply, p.preferred)
            out.append(
                {
                    "ply": p.ply,
                    "seat": p.seat,
                    "played": p.played,
                    "preferred": p.preferred,
                    "drop": round(p.drop, 3),
                    "playedCells": played,
                    "preferredCells": preferred,
                    "preferredOrdered": ordered,
                }
            )
        self._points[match.id] = out
        while len(self._points) > 128:
            self._points.pop(next(iter(self._points)))
        return out
