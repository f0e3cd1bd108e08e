"""Learning from the AI: /analyse (and the Analyse button under a finished board) and /hint.

The analysis is posted in the channel, so it is in the server's language, its image too; the refusals, the
autocomplete and the hint are for the user alone, in the language of their Discord client."""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import renderer
import renderer.analysis
from bot.boards import seat_mention, seat_name
from bot.i18n import ENGLISH, Tr, for_user
from bot.progress import ProgressMessage
from bot.replies import sentence_case
from bot.service.analysis import AnalysedMatch, AnalysisProgress
from bot.service.records import MatchStatus
from bot.views import ButtonCog, ButtonHandler, ButtonRef
from cogs import game_name
from cogs.common import Interaction, looks_of, match_here, names_of, runtime_of, service_of
from cogs.info import moves_count
from games.ai.analysis import MoveReview, percent
from games.base import Rules, move_numbers

log = logging.getLogger("tessera.analysis")

MESSAGE_LIMIT = 2000
AUTOCOMPLETE_MATCHES = 25


def turning_point_line(review: MoveReview, number: int, who: str, tr: Tr = ENGLISH) -> str:
    """ "• Move 14: <@1> played d4, e5 was better; win chance 62% → 31%." (`number`: the move's number,
    `games.base.move_numbers`, as the board that showed it said)."""
    line = tr(
        "Move {number}: {who} played **{played}**, **{preferred}** was better; "
        "win chance {before} → {after}.",
        number=number,
        who=who,
        played=review.played,
        preferred=review.preferred,
        before=percent(review.before),
        after=percent(review.after),
    )
    return f"• {line}"


def analysis_text(
    result: AnalysedMatch, rules: Rules[Any, Any], numbers: Sequence[int | None], tr: Tr = ENGLISH
) -> str:
    """The analysis in words in the language of `tr`: per player, their turning points, or that none was
    found. `numbers` are the move numbers of the match's log entries (`games.base.move_numbers`)."""
    match, analysis = result.match, result.analysis

    def number(ply: int) -> int:
        found = numbers[ply] if ply < len(numbers) else None
        return found if found is not None else renderer.move_number(ply)

    lines = [
        tr(
            "**Analysis of match #{match_id}** ({game}, {moves}). The turning points: where a move cost the "
            "most win chance, by my search.",
            match_id=match.id,
            game=rules.name,
            moves=moves_count(rules.moves_played(match.state), tr),
        )
    ]
    for seat, points in zip(match.seats, analysis.turning_points, strict=True):
        who = seat_mention(seat, tr)
        lines.append(f"**{who}** ({tr.text(rules.seat_label(match.state, seat.seat))})")
        if not points:
            none = tr("No clear mistake: no move cost much win chance.")
            lines.append(f"• {none}")
        lines.extend(turning_point_line(point, number(point.ply), who, tr) for point in points)
    biggest = analysis.biggest()
    if biggest is not None:
        lines.append(
            tr(
                "The image shows the biggest, move {number}: the move played above, the better one below.",
                number=number(biggest.ply),
            )
        )
    text = "\n".join(lines)
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 3] + "..."


def progress_text(
    event: AnalysisProgress, numbers: Sequence[int | None], moves: int, tr: Tr = ENGLISH
) -> str:
    """ "Analysing match #12… move 14 of 40." while the first pass goes through the match (move numbers as
    the boards count them: `numbers` of the log's entries, `moves` played), then "checking the biggest
    mistakes again (2 of 6)"."""
    if event.deep:
        return tr(
            "Analysing match #{match_id}… checking the biggest mistakes again ({done} of {total}).",
            match_id=event.match_id,
            done=event.done,
            total=event.total,
        )
    return tr(
        "Analysing match #{match_id}… move {number} of {moves}.",
        match_id=event.match_id,
        number=min(moves, numbers[event.ply] or moves) if event.ply < len(numbers) else moves,
        moves=moves,
    )


def choice_name(match_id: int, game: str, others: list[str], moves: int, tr: Tr = ENGLISH) -> str:
    """An autocomplete entry: "#12 Paintscape vs bob, 40 moves" (at most 100 characters)."""
    values = {"match_id": match_id, "game": game_name(game), "moves": moves_count(moves, tr)}
    if others:
        return tr("#{match_id} {game} vs {others}, {moves}", others=", ".join(others), **values)[:100]
    return tr("#{match_id} {game}, {moves}", **values)[:100]


class Analysis(ButtonCog):
    """Post-game analysis and hints."""

    def buttons(self) -> dict[str, ButtonHandler]:
        return {"analyse": self.on_analyse_button}

    @app_commands.command(name="analyse", description="The turning points of a finished match, by the AI")
    @app_commands.describe(match_id="The match number (start typing for your recent matches)")
    async def analyse(
        self, interaction: Interaction, match_id: app_commands.Range[int, 1, 2**53 - 1]
    ) -> None:
        await self.send_analysis(interaction, match_id)

    @analyse.autocomplete("match_id")
    async def match_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """Your recent finished matches whose number starts with what you typed, newest first."""
        try:
            entries = await service_of(interaction).history.finished(
                user_id=interaction.user.id, limit=AUTOCOMPLETE_MATCHES
            )
        except Exception:
            log.exception("analyse autocomplete failed for user %s", interaction.user.id)
            return []
        typed = str(current or "").strip().lstrip("#")
        tr = for_user(interaction)
        choices = []
        for entry in entries:
            match = entry.match
            if match.status is not MatchStatus.FINISHED or not str(match.id).startswith(typed):
                continue
            others = [
                seat_name(seat, names_of(interaction).known, tr)
                for seat in match.seats
                if seat.user_id != interaction.user.id
            ]
            name = choice_name(match.id, match.game, others, entry.moves, tr)
            choices.append(app_commands.Choice(name=name, value=match.id))
        return choices

    async def on_analyse_button(self, interaction: Interaction, ref: ButtonRef) -> None:
        await self.send_analysis(interaction, ref.ref)

    async def send_analysis(self, interaction: Interaction, match_id: int) -> None:
        """The analysis of a finished match of this server (or one the user played in): refusals are
        private, then the bot's reply says how far the search is (edited in place as it goes) and becomes
        the text and the biggest turning point, in the server's language."""
        runtime = runtime_of(interaction)
        interaction.extras["match_id"] = match_id
        analyses = runtime.analyses
        guild_id, user_id = interaction.guild_id, interaction.user.id
        match = await analyses.finished(match_id, guild_id=guild_id, user_id=user_id)
        analyses.admit(match.id, user_id)
        await interaction.response.defer(thinking=True)
        public = await looks_of(interaction).public_tr(interaction.guild_id, interaction.guild_locale)
        none = discord.AllowedMentions.none()
        rules = runtime.service.rules(match.game)
        numbers = move_numbers(m.notation for m in await runtime.service.matches.log(match.id))
        moves = rules.moves_played(match.state)

        async def edit(text: str) -> object:
            return await interaction.edit_original_response(content=text, allowed_mentions=none)

        progress = ProgressMessage(edit)
        try:
            result = await analyses.analyse(
                match.id,
                guild_id=guild_id,
                user_id=user_id,
                progress=lambda event: progress.update(progress_text(event, numbers, moves, public)),
            )
        except BaseException:
            await progress.close()
            if progress.started:  # the error is answered privately; the progress line goes
                with contextlib.suppress(discord.HTTPException):
                    await interaction.delete_original_response()
            raise
        await progress.close()
        text = analysis_text(result, rules, numbers, public)
        file = await self.turning_point_file(interaction, result, public)
        await interaction.edit_original_response(
            content=text, attachments=[file] if file is not None else [], allowed_mentions=none
        )

    async def turning_point_file(
        self, interaction: Interaction, result: AnalysedMatch, tr: Tr
    ) -> discord.File | None:
        """The image of the biggest turning point and its alt text in the language of `tr` (None when there is
        none, or drawing it failed)."""
        biggest = result.analysis.biggest()
        if biggest is None:
            return None
        runtime = runtime_of(interaction)
        match = result.match
        try:
            before = await runtime.analyses.position_before(match, biggest.ply)
            names = await names_of(interaction).names_for(match)
            theme = await looks_of(interaction).theme_for(interaction.user.id, interaction.guild_id)
            chances = (biggest.before, biggest.after)
            png = await runtime.drawing.turning_point(
                match.game,
                before,
                biggest.played,
                biggest.preferred,
                chances=chances,
                players=[seat_name(seat, names, tr) for seat in match.seats],
                theme=theme,
                locale=tr.locale,
            )
        except Exception:
            log.exception("drawing the turning point of match %s failed; sending the text alone", match.id)
            return None
        words = tr.translations
        alt = renderer.analysis.alt_text(biggest.played, biggest.preferred, chances, translations=words)
        return discord.File(io.BytesIO(png), filename=f"analysis-{match.id}.png", description=alt)

    @app_commands.command(
        name="hint", description="My suggested move, on your turn in a casual match with me"
    )
    @app_commands.guild_only()
    async def hint(self, interaction: Interaction) -> None:
        runtime = runtime_of(interaction)
        match = await match_here(interaction)
        await runtime.analyses.hint_match(match.id, interaction.user.id)
        runtime.analyses.admit_hint(interaction.user.id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        given = await runtime.analyses.hint(match.id, interaction.user.id)
        tr = for_user(interaction)
        text = tr(
            "Try **{move}**: {description}. Why: {reason}",
            move=given.move,
            description=sentence_case(tr.text(given.description)),
            reason=given.reason,
        )
        await interaction.followup.send(text, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Analysis(bot))
