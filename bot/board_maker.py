"""A match's board message as the bot shows it: the players' names, the viewer's theme, the server's
language, drawn on the drawing pool (`bot.boards.board_message` says what the message holds). Needs no
Discord client: it makes the message, the caller sends it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.boards import BoardMessage, board_message, move_lines
from bot.drawing import Drawing
from bot.i18n import Tr
from bot.looks import Looks
from bot.names import PlayerNames
from bot.service import Service
from bot.service.records import Finished, MatchView, Played


class BoardMaker:
    """Makes board messages of the service's matches with `names`, `looks` and `drawing`."""

    def __init__(self, service: Service, names: PlayerNames, looks: Looks, drawing: Drawing) -> None:
        self.service = service
        self.names = names
        self.looks = looks
        self.drawing = drawing

    async def board(
        self,
        match: MatchView,
        *,
        headline: str = "",
        lines: Sequence[str] = (),
        last_move: str | None = None,
        finished: Finished | None = None,
        viewer: int | None = None,
        tr: Tr | None = None,
    ) -> BoardMessage:
        """The board message of `match`, drawn in the theme of `viewer` (the user who asked for it or whose
        move it shows; None: the server's default), in the server's language unless `tr` says otherwise. A
        live match read afresh (`/board`, a restart's repost) gets its clocks as of its last move from the
        log, so every board of a live match shows them."""
        if match.time_control is not None and match.clocks is None:
            match = replace(match, clocks=await self.service.matches.clocks(match, running=False))
        rules = self.service.rules(match.game)
        names = await self.names.names_for(match)
        theme = await self.looks.theme_for(viewer, match.guild_id)
        if tr is None:
            tr = await self.looks.public_tr(match.guild_id)
        return await board_message(
            self.drawing,
            match,
            rules,
            names,
            headline=headline,
            lines=lines,
            last_move=last_move,
            finished=finished,
            theme=theme,
            tr=tr,
            rematch=not match.is_active and await self.service.rematches.offers_rematch(match),
        )

    async def played_board(
        self, played: Played, *, headline: str = "", viewer: int | None = None
    ) -> BoardMessage:
        """The board after a move: the move and any automatic passes in words, then whose turn or the end;
        in the mover's theme (`viewer`), or the server's for the bot's moves and timeouts; in the server's
        language."""
        tr = await self.looks.public_tr(played.match.guild_id)
        return await self.board(
            played.match,
            headline=headline,
            lines=move_lines(played.moves, tr),
            tr=tr,
            last_move=played.moves[-1].notation,
            finished=played.finished,
            viewer=viewer,
        )
