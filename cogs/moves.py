"""Playing: /move with autocomplete of the legal moves, /pass, the one-word move buttons, /board, /takeback
(the others answer with buttons, the asker may withdraw it) and /pieces.

What cannot be undone asks first, whichever way it comes: the button of an irreversible word (TilingKing's
pass all), the same word typed in /move, and `/move resign` (the /resign question, on any turn). Once
answered, the question loses its button."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Iterable, Mapping
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import games
import renderer
from bot.boards import BOT_NAME, seat_name
from bot.i18n import ENGLISH, Tr, for_user
from bot.replies import UserError, sentence_case
from bot.service.errors import USER_ERRORS
from bot.service.records import MatchView, Played, TakebackRequested, TakenBack
from bot.views import ButtonCog, ButtonHandler, ButtonRef, button, view_of
from cogs.common import (
    Interaction,
    boards_of,
    looks_of,
    match_here,
    names_of,
    parts_of,
    runtime_of,
    same_server,
    send_board,
    service_of,
)
from cogs.ending import ask_to_resign, bound_seat
from games.base import RESIGN, MoveError, Rules, WordMove
from games.texts import N_, Text

log = logging.getLogger("tessera.moves")

AUTOCOMPLETE_LIMIT = 25
NO_MOVE = "(no move)"
"""The value of the autocomplete choice that says why you cannot move: no game's notation, and /move answers
it with the same reason instead of an error about notation."""
AUTOCOMPLETE_BUDGET = 0.8
"""Seconds autocomplete may spend scanning legal moves (Discord waits 3 s for the answer)."""


def rank_moves(
    notations: Iterable[str],
    typed: str,
    *,
    tiers: Mapping[str, int] | None = None,
    pieces: Mapping[str, str] | None = None,
    limit: int = AUTOCOMPLETE_LIMIT,
) -> list[str]:
    """The legal moves that match what was typed, most useful first.

    `tiers` puts moves after the others: one-word moves (tier 1) after placements, and the moves that cannot
    be undone (tier 2: resign, pass all) last; a matching word always keeps its place at the end of a list
    cut to `limit`. Within a tier: the exact match first, then moves that start with the text, then moves
    containing every typed word (so `c4 c3` finds `c3 c4 c5 d4`); shorter moves before longer ones, then
    alphabetical. `pieces` names the piece a move places (TilingKing's `T4`): a piece's name typed as it is
    written (`T4`, `I4`) keeps that piece's placements only, the other words matching their cells as above
    (`T4 c3`: those on c3); in another case it is one more word of the move (`i4` finds the cell i4 and the
    piece I4). Scanning stops after `AUTOCOMPLETE_BUDGET` seconds so a huge move list never makes Discord
    wait.
    """
    tiers = tiers or {}
    pieces = pieces or {}
    names = set(pieces.values()) - {""}
    named = {word for word in typed.split() if word in names}
    wanted = " ".join(word for word in typed.lower().split() if word not in {n.lower() for n in named})
    words = wanted.split()
    started = time.perf_counter()
    ranked: list[tuple[int, int, int, str]] = []
    for index, text in enumerate(notations):
        piece = pieces.get(text, "")
        if named and named != {piece}:
            continue
        lowered = text.lower()
        tokens = [piece.lower(), *lowered.split()] if piece else lowered.split()
        if not wanted:
            group = 1
        elif lowered == wanted:
            group = 0
        elif lowered.startswith(wanted) or (piece and f"{piece.lower()} {lowered}".startswith(wanted)):
            group = 1
        elif all(any(token.startswith(word) for token in tokens) for word in words):
            group = 2
        else:
            continue
        ranked.append((tiers.get(text, 0), group, len(text), text))
        if index % 512 == 511 and time.perf_counter() - started > AUTOCOMPLETE_BUDGET:
            break
    ranked.sort()
    last = [entry for entry in ranked if entry[0] > 0][:limit]
    first = [entry for entry in ranked if entry[0] == 0][: limit - len(last)]
    return [text for *_, text in first + last]


def move_tiers(rules: Rules[Any, Any], state: Any) -> dict[str, int]:
    """Where one-word moves go in the autocomplete list: 1 after the placements, 2 (last) for those that
    cannot be undone, resigning included."""
    tiers = {word.notation: 2 if word.irreversible else 1 for word in rules.word_moves(state)}
    tiers[RESIGN] = 2
    return tiers


def irreversible_word(rules: Rules[Any, Any], state: Any, notation: str) -> WordMove | None:
    """The move that cannot be undone that `notation` names, however it is spelled ("PassAll", "resign"),
    else None. Resigning counts in every game and on any turn."""
    typed = " ".join(notation.lower().split())
    with contextlib.suppress(MoveError, ValueError):  # not a move here: /move answers it (but resign asks)
        typed = rules.notation(state, rules.parse(state, notation))
    if typed == RESIGN:
        return WordMove(RESIGN, Text("Resign"), irreversible=True)
    return next((w for w in rules.word_moves(state) if w.irreversible and w.notation == typed), None)


def why_not_your_turn(
    match: MatchView, user_id: int, names: Mapping[int, str], tr: Tr = ENGLISH
) -> str | None:
    """Why `user_id` cannot move in `match` now, in a line for an autocomplete choice; None if they can."""
    if match.seat_of(user_id) is None:
        return tr("You are not playing in match #{match_id}.", match_id=match.id)
    if match.user_to_move == user_id:
        return None
    if match.to_move is None:
        return tr("Match #{match_id} is over.", match_id=match.id)
    seat = match.seats[match.to_move]
    if seat.is_ai:
        return tr("Not your turn: waiting for {bot}, who is thinking.", bot=BOT_NAME)
    return tr("Not your turn: waiting for {player}.", player=seat_name(seat, names, tr))


def legal_choices(rules: Rules[Any, Any], state: Any) -> dict[str, str]:
    """Every legal move's notation with the piece it places ("" for none): the group of its click move
    (`games.base.ClickMove`), for games whose moves have one (TilingKing's piece ids). Run in a worker
    thread: a big TilingKing board has thousands (4,839 on hex8bi's first move, 0.14 s here)."""
    click_move = getattr(rules, "click_move", None)
    choices: dict[str, str] = {}
    for move in rules.legal_moves(state):
        click = click_move(state, move) if click_move is not None else None
        choices[rules.notation(state, move)] = click.group if click is not None else ""
    return choices


def choice_name(notation: str, piece: str) -> str:
    """An autocomplete choice as the list shows it: the piece first where there is one ("T4: c3 c4 c5 d4");
    its value is the notation alone."""
    return f"{piece}: {notation}" if piece else notation


class Moves(ButtonCog):
    """Moves, boards, takebacks and the pieces a player holds (games whose drawer shows them)."""

    def buttons(self) -> dict[str, ButtonHandler]:
        return {
            "move": self.on_move_button,
            "confirm": self.on_confirm_button,
            "yes": self.on_confirmed,
            "tb_yes": self.on_takeback_accepted,
            "tb_no": self.on_takeback_declined,
            "tb_withdraw": self.on_takeback_withdrawn,
        }

    async def reply_with_board(self, interaction: Interaction, played: Played) -> None:
        """Answer the interaction with the new board (in the mover's theme): defer (rendering takes a
        moment), then send it; it supersedes the match's previous board."""
        await interaction.response.defer()
        message = await boards_of(interaction).played_board(played, viewer=interaction.user.id)
        await send_board(interaction, played.match, message)

    # ------------------------------------------------------------------------------------------- /move

    @app_commands.command(name="move", description="Make your move in this channel's match")
    @app_commands.guild_only()
    @app_commands.describe(
        notation="Your move, e.g. d4, c1-c5, swap c3 f6, c3 c4 c5 d4 (start typing for a list)"
    )
    async def move(self, interaction: Interaction, notation: app_commands.Range[str, 1, 200]) -> None:
        match = await match_here(interaction)
        if notation == NO_MOVE:  # the autocomplete's "why you cannot move" choice was sent
            why = await self.cannot_move(interaction, match)
            if why:
                raise UserError(why)  # already in the user's language
            raise UserError(Text("It is your turn now: type your move (start typing for a list)."))
        # What cannot be undone is asked first, typed or clicked; resigning on any turn, like /resign.
        word = irreversible_word(service_of(interaction).rules(match.game), match.state, notation)
        if word is not None and word.notation == RESIGN:
            await ask_to_resign(interaction, match)
            return
        if word is not None and match.user_to_move == interaction.user.id:
            await self.ask_to_confirm(interaction, match, word)
            return
        played = await service_of(interaction).matches.play(match, interaction.user.id, notation)
        await self.reply_with_board(interaction, played)

    @move.autocomplete("notation")
    async def move_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Your legal moves matching what you typed, cells or a piece's name; when you cannot move, one choice
        that says why (its value, `NO_MOVE`, only brings the same answer if it is sent)."""
        runtime = runtime_of(interaction)
        try:
            match = await runtime.service.matches.in_channel(interaction.channel_id or 0)
        except USER_ERRORS as error:
            return [app_commands.Choice(name=for_user(interaction).error(error)[:100], value=NO_MOVE)]
        except Exception:
            log.exception("move autocomplete failed in channel %s", interaction.channel_id)
            return []
        why = await self.cannot_move(interaction, match)
        if why is not None:
            return [app_commands.Choice(name=why[:100], value=NO_MOVE)]
        rules = runtime.service.rules(match.game)
        pieces = await asyncio.to_thread(legal_choices, rules, match.state)
        ranked = rank_moves(pieces, current, tiers=move_tiers(rules, match.state), pieces=pieces)
        return [
            app_commands.Choice(name=choice_name(text, pieces[text])[:100], value=text[:100])
            for text in ranked
        ]

    @staticmethod
    async def cannot_move(interaction: Interaction, match: MatchView) -> str | None:
        """Why the user cannot move in `match` now ("Not your turn: waiting for Bob"), None if they can; in
        the user's language."""
        names = await names_of(interaction).names_for(match)
        return why_not_your_turn(match, interaction.user.id, names, for_user(interaction))

    @app_commands.command(name="pass", description="Pass this turn (where the game allows it)")
    @app_commands.guild_only()
    async def pass_(self, interaction: Interaction) -> None:
        match = await match_here(interaction)
        played = await service_of(interaction).matches.pass_turn(match, interaction.user.id)
        await self.reply_with_board(interaction, played)

    async def on_move_button(self, interaction: Interaction, ref: ButtonRef) -> None:
        parts = parts_of(interaction)
        match = await parts.service.matches.get(ref.ref)
        same_server(interaction, match.guild_id)
        parts.names.remember(interaction.user)
        played = await parts.service.matches.play(match, interaction.user.id, ref.arg, expected_ply=ref.ply)
        await self.reply_with_board(interaction, played)

    async def on_confirm_button(self, interaction: Interaction, ref: ButtonRef) -> None:
        """A one-word move that cannot be undone: check that it would be accepted, then ask to confirm."""
        matches = service_of(interaction).matches
        match = await matches.get(ref.ref)
        same_server(interaction, match.guild_id)
        if match.ply != ref.ply:
            raise UserError(Text("That board has changed: look at the newest board and try again."))
        rules = matches.rules(match.game)
        word = next((w for w in rules.word_moves(match.state) if w.notation == ref.arg), None)
        if word is None or match.user_to_move != interaction.user.id:
            if match.seat_of(interaction.user.id) is None:
                raise UserError(Text("You are not playing in match #{match_id}.", match_id=match.id))
            raise UserError(Text("It is not your turn, or that move is not possible now."))
        await self.ask_to_confirm(interaction, match, word)

    async def on_confirmed(self, interaction: Interaction, ref: ButtonRef) -> None:
        """Yes to a move that cannot be undone: play it at the ply it was asked at; the question loses its
        button and says what was played, and the board is posted in the channel."""
        parts = parts_of(interaction)
        match = await parts.service.matches.get(ref.ref)
        same_server(interaction, match.guild_id)
        parts.names.remember(interaction.user)
        played = await parts.service.matches.play(match, interaction.user.id, ref.arg, expected_ply=ref.ply)
        tr = for_user(interaction)
        await interaction.response.edit_message(
            content=sentence_case(tr.text(played.move.description)), view=None
        )
        await parts.posts.post_board(
            played.match, await parts.boards.played_board(played, viewer=interaction.user.id)
        )

    @staticmethod
    async def ask_to_confirm(interaction: Interaction, match: MatchView, word: WordMove) -> None:
        """Ask privately before a move that cannot be undone; the Yes button plays it at this ply."""
        tr = for_user(interaction)
        label = tr.text(word.label)
        yes = button(
            "yes",
            match.id,
            match.ply,
            tr("Yes: {move}", move=label.lower()),
            arg=word.notation,
            style=discord.ButtonStyle.danger,
        )
        await interaction.response.send_message(
            tr("{move}? This cannot be undone.", move=label), view=view_of(yes), ephemeral=True
        )

    # ------------------------------------------------------------------------------------------ /board

    @app_commands.command(name="board", description="Show this channel's board again")
    @app_commands.guild_only()
    async def board(self, interaction: Interaction) -> None:
        parts = parts_of(interaction)
        match = await match_here(interaction)
        await interaction.response.defer()
        last_move = await parts.service.matches.last_move(match)
        message = await parts.boards.board(match, last_move=last_move, viewer=interaction.user.id)
        await send_board(interaction, match, message)

    # --------------------------------------------------------------------------------------- /takeback

    @app_commands.command(name="takeback", description="Ask to take back your last move")
    @app_commands.guild_only()
    async def takeback(self, interaction: Interaction) -> None:
        """Ask to take back your last move; while a request is open, it is shown again instead (its buttons
        move to the new message), so it can be answered, or withdrawn by its asker."""
        match = await match_here(interaction)
        if match.seat_of(interaction.user.id) is None:
            raise UserError(Text("You are not playing in match #{match_id}.", match_id=match.id))
        agreements = service_of(interaction).agreements
        open_request = await agreements.open_takeback(match.id)
        result = open_request or await agreements.request_takeback(match.id, interaction.user.id)
        if isinstance(result, TakenBack):
            await self.post_taken_back(interaction, result)
            return
        parts = parts_of(interaction)
        public = await parts.looks.public_tr(match.guild_id, interaction.guild_locale)
        sent = await interaction.response.send_message(
            self.takeback_text(result, public), view=self.takeback_view(result, public)
        )
        if sent.message_id is not None:
            await parts.posts.close_requests(match.id, "takeback", keep=sent.message_id)
        await parts.posts.request_posted(result, interaction.channel_id, sent.message_id)

    @staticmethod
    def takeback_text(request: TakebackRequested, tr: Tr = ENGLISH) -> str:
        waiting = ", ".join(f"<@{uid}>" for uid in request.waiting_for)
        return tr(
            "{player} asks to take back their last move in match #{match_id}. Waiting for {waiting}.",
            player=f"<@{request.by_user}>",
            match_id=request.match.id,
            waiting=waiting,
        )

    @staticmethod
    def takeback_view(request: TakebackRequested, tr: Tr = ENGLISH) -> discord.ui.View:
        """Buttons bound to this request: the match, the ply and the asker's seat. The others accept or
        decline; the asker may withdraw it."""
        pending = request.match.takeback
        assert pending is not None
        match_id, ply, seat = request.match.id, request.match.ply, str(pending.seat)
        return view_of(
            button(
                "tb_yes", match_id, ply, tr("Accept takeback"), arg=seat, style=discord.ButtonStyle.success
            ),
            button("tb_no", match_id, ply, tr("Decline"), arg=seat, style=discord.ButtonStyle.danger),
            button("tb_withdraw", match_id, ply, tr("Withdraw request"), arg=seat),
        )

    async def post_taken_back(self, interaction: Interaction, taken: TakenBack) -> None:
        parts = parts_of(interaction)
        public = await parts.looks.public_tr(taken.match.guild_id, interaction.guild_locale)
        if interaction.type is discord.InteractionType.component:
            await interaction.response.edit_message(content=public("Takeback accepted."), view=None)
            if interaction.message is not None:
                await parts.posts.request_closed(taken.match.id, interaction.message.id)
            await parts.posts.close_requests(taken.match.id, "takeback", content=public("Takeback accepted."))
        else:
            await interaction.response.defer()
        undone = ", ".join(m.notation for m in taken.undone)
        message = await parts.boards.board(
            taken.match,
            headline=public("Taken back: {moves}.", moves=undone),
            viewer=interaction.user.id,
            tr=public,
        )
        await send_board(interaction, taken.match, message)

    async def on_takeback_accepted(self, interaction: Interaction, ref: ButtonRef) -> None:
        service = service_of(interaction)
        match = await service.matches.get(ref.ref)
        same_server(interaction, match.guild_id)
        if match.ply != ref.ply:
            raise UserError(Text("That board has changed: the takeback request no longer applies."))
        result = await service.agreements.accept_takeback(ref.ref, interaction.user.id, seat=bound_seat(ref))
        if isinstance(result, TakebackRequested):
            public = await looks_of(interaction).public_tr(match.guild_id, interaction.guild_locale)
            await interaction.response.edit_message(
                content=self.takeback_text(result, public), view=self.takeback_view(result, public)
            )
            if interaction.message is not None:  # who is still to answer, for an answer made elsewhere
                await parts_of(interaction).posts.request_posted(
                    result, interaction.message.channel.id, interaction.message.id
                )
            return
        await self.post_taken_back(interaction, result)

    async def on_takeback_declined(self, interaction: Interaction, ref: ButtonRef) -> None:
        service = service_of(interaction)
        same_server(interaction, (await service.matches.get(ref.ref)).guild_id)
        await service.agreements.decline_takeback(ref.ref, interaction.user.id, seat=bound_seat(ref))
        await self._takeback_closed(
            interaction, ref, N_("{player} declined the takeback."), player=f"<@{interaction.user.id}>"
        )

    async def on_takeback_withdrawn(self, interaction: Interaction, ref: ButtonRef) -> None:
        """The asker withdraws their takeback request (nobody else may)."""
        service = service_of(interaction)
        same_server(interaction, (await service.matches.get(ref.ref)).guild_id)
        await service.agreements.withdraw_takeback(ref.ref, interaction.user.id, seat=bound_seat(ref))
        await self._takeback_closed(
            interaction,
            ref,
            N_("{player} withdrew their takeback request."),
            player=f"<@{interaction.user.id}>",
        )

    @staticmethod
    async def _takeback_closed(interaction: Interaction, ref: ButtonRef, text: str, *, player: str) -> None:
        """The request message says how it was closed and loses its buttons, as does any other message that
        showed the same request."""
        parts = parts_of(interaction)
        public = await parts.looks.public_tr(interaction.guild_id, interaction.guild_locale)
        await interaction.response.edit_message(
            content=public(text, player=player), view=None, allowed_mentions=discord.AllowedMentions.none()
        )
        if interaction.message is not None:
            await parts.posts.request_closed(ref.ref, interaction.message.id)
        await parts.posts.close_requests(ref.ref, "takeback", content=public(text, player=player))

    # ----------------------------------------------------------------------------------------- /pieces

    @app_commands.command(
        name="pieces", description="See the pieces you have left (in games where players hold pieces)"
    )
    @app_commands.guild_only()
    async def pieces(self, interaction: Interaction) -> None:
        parts = parts_of(interaction)
        match = await match_here(interaction)
        if not renderer.has_pieces(match.game):
            raise UserError(
                Text(
                    "{game} has no pieces to show; /pieces works in matches of {games}.",
                    game=games.name(match.game),
                    games=", ".join(games.name(g) for g in games.GAME_IDS if renderer.has_pieces(g)),
                )
            )
        seat = match.seat_of(interaction.user.id)
        if seat is None:
            raise UserError(Text("You are not playing in match #{match_id}.", match_id=match.id))
        await interaction.response.defer(ephemeral=True, thinking=True)
        tr = for_user(interaction)
        names = await parts.names.names_for(match)
        players = [seat_name(s, names, tr) for s in match.seats]
        theme = await parts.looks.theme_for(interaction.user.id, match.guild_id)
        png = await parts.runtime.drawing.pieces(
            match.game, match.state, seat, players=players, theme=theme, locale=tr.locale
        )
        file = discord.File(io.BytesIO(png), filename="pieces.png", description=tr("Your remaining pieces"))
        await interaction.followup.send(
            tr("Your pieces in match #{match_id}:", match_id=match.id), file=file, ephemeral=True
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Moves(bot))
