"""The board scenes of a match's earlier positions, for the page's replays: `renderer.board_scene` as the
page paints it (`bot.web.wire.web_scene`, as JSON with every theme's palette), built once per match version,
ply and language however many viewers ask at the same moment (the newest few hundred are kept)."""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any

import renderer
from bot.i18n import tr_for
from bot.service import Service
from bot.service.records import MatchView
from bot.web.wire import scene_payload, web_scene
from games.base import replay

SCENE_WIDTH = 960
"""The scene's width in pixels: the Discord image's, so the page and the PNG agree."""
KEPT = 256
"""Scenes kept (a few tens of kilobytes each)."""

Names = Callable[[MatchView, str], Awaitable[Sequence[str]]]


def version(match: MatchView) -> str:
    """Changes with every change of the match (its last write's time and its status)."""
    return f"{match.status.value}{round(match.updated_at * 1000)}"


class Scenes:
    """Scene JSON per (match, ply, version, language), built in a worker thread (per version: a takeback and
    a new move change what an earlier ply led to)."""

    def __init__(self, service: Service, names: Names) -> None:
        self.service = service
        self.names = names
        self._kept: OrderedDict[tuple[Any, ...], asyncio.Future[bytes]] = OrderedDict()

    def of(self, match: MatchView, ply: int, locale: str) -> asyncio.Future[bytes]:
        """The scene of `match` after `ply` moves in `locale`, as JSON bytes."""
        key = (match.id, ply, version(match), locale)  # a takeback may replace the moves after any ply
        found = self._kept.get(key)
        if found is None:
            found = asyncio.ensure_future(self._build(match, ply, locale))
            self._kept[key] = found
            found.add_done_callback(lambda f: f.exception() and self._kept.pop(key, None))
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return found

    async def data(self, match: MatchView, ply: int, locale: str) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(await self.of(match, ply, locale))
        return parsed

    async def _build(self, match: MatchView, ply: int, locale: str) -> bytes:
        tr = tr_for(locale)
        rules = self.service.matches.rules(match.game)
        names = await self.names(match, locale)
        log_rows = await self.service.matches.log(match)
        state, outcome = match.state, match.outcome
        last = log_rows[ply - 1].notation if ply and len(log_rows) >= ply else None
        if ply != match.ply:
            state = rules.new(len(match.seats), match.options, match.seed)
            for step in replay(rules, state, [(m.seat, m.notation) for m in log_rows[:ply]]):
                state = step.after
            outcome = None

        def build() -> bytes:
            scene = renderer.board_scene(
                match.game,
                state,
                last_move=last,
                players=list(names),
                size=SCENE_WIDTH,
                outcome=outcome,
                translations=tr.translations,
            )
            data = scene_payload(web_scene(replace(scene, ply=ply)))
            return json.dumps(data, separators=(",", ":")).encode()

        return await asyncio.to_thread(build)
