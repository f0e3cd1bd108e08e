"""Puzzles: /puzzle (show one, of a game and a theme if asked; answer with a button or its `answer` option,
whose autocomplete lists the legal moves; `streak:True` plays the Puzzle Streak: puzzles in a row, each a
little harder, until the first miss), and /dailypuzzle (a server admin picks the channel of the daily
puzzle). /stats shows a player's puzzle standing (`puzzle_lines`).

A puzzle is the user's own: shown privately, in the language of their Discord client. The daily post is in
the server's language; its button shows the day's puzzle privately to whoever presses it. Nothing shown
names a player: the seats are named by the game's own labels (White, Red...), and the source match is never
mentioned."""

from __future__ import annotations

import io
import logging
import random

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import ENGLISH, Tr, for_user
from bot.service.errors import NoOpenPuzzle
from bot.service.puzzles import Answered, DailyPost, Puzzles, Shown, StreakAnswered, StreakShown
from bot.service.ratings import shown_rating
from bot.service.records import PuzzlePlayer, PuzzleRecord, StreakRun
from bot.views import ButtonCog, ButtonHandler, ButtonRef, button, view_of
from cogs import GAME_CHOICES, game_name
from cogs.common import Interaction, looks_of, runtime_of
from games.ai.analysis import percent
from games.ai.puzzles import THEMES

log = logging.getLogger("tessera.puzzles")

CHOICES = 4
"""Buttons under a puzzle: the solution among the moves the search found strongest and the move played in
the match, filled up with other legal moves, in an order fixed per puzzle."""
AUTOCOMPLETE_MOVES = 25
THEME_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=label, value=key) for key, label in THEMES.items()
]
"""/puzzle's theme choices: every theme a puzzle can have (games/ai/puzzles.py)."""


def theme_name(puzzle: PuzzleRecord, tr: Tr) -> str | None:
    """The puzzle's theme in the reader's words; None for a puzzle stored before themes."""
    label = THEMES.get(puzzle.theme or "")
    return None if label is None else tr(label)


def puzzle_lines(player: PuzzlePlayer | None, run: StreakRun | None, tr: Tr = ENGLISH) -> list[str]:
    """/stats' lines on puzzles: the puzzle rating, puzzles solved of those tried, the streak of puzzles
    solved in a row (and its best), and the best Puzzle Streak; none before a first puzzle."""
    lines = []
    if player is not None and player.tried:
        lines.append(
            tr(
                "Puzzles: rating {rating}, {solved} solved of {tried}, {streak} in a row now (best {best}).",
                rating=str(shown_rating(player.mu, player.sigma)),
                solved=player.solved,
                tried=player.tried,
                streak=player.streak,
                best=player.best_streak,
            )
        )
    if run is not None and (run.best or run.run):
        lines.append(tr("Puzzle Streak: best {best}, current run {run}.", best=run.best, run=run.run))
    return lines


def choices_for(puzzle: PuzzleRecord, legal: list[str]) -> list[str]:
    """The moves on a puzzle's buttons (see `CHOICES`); the same list every time for the same puzzle."""
    figures = puzzle.figures
    picked = [puzzle.move]
    for name in ("second_runner_up_move", "first_runner_up_move", "played"):
        move = figures.get(name)
        if isinstance(move, str) and move in legal and move not in picked:
            picked.append(move)
    rng = random.Random(puzzle.id)
    rest = [move for move in legal if move not in picked]
    rng.shuffle(rest)
    picked.extend(rest[: max(0, CHOICES - len(picked))])
    picked = picked[:CHOICES]
    rng.shuffle(picked)
    return picked


def standing_text(player: PuzzlePlayer | None, tr: Tr = ENGLISH) -> str:
    """ "Your puzzle rating: 1530?, streak 3." (a new solver: their first puzzle)."""
    if player is None:
        return tr("Your first puzzle: solving it starts your puzzle rating and streak.")
    return tr(
        "Your puzzle rating: {rating}, streak {streak}.",
        rating=str(shown_rating(player.mu, player.sigma)),
        streak=player.streak,
    )


def puzzle_text(puzzle: PuzzleRecord, to_move: str, tr: Tr = ENGLISH) -> str:
    """The puzzle's heading: which game, whose move and what to find (no player names), and its theme."""
    text = tr(
        "**Puzzle #{puzzle_id}** ({game}, rated {rating}). {seat} to move: find the move that is clearly "
        "best; every other move gives much of the win away.",
        puzzle_id=puzzle.id,
        game=game_name(puzzle.game),
        rating=shown_rating(puzzle.mu, puzzle.sigma).points,
        seat=to_move,
    )
    theme = theme_name(puzzle, tr)
    return text if theme is None else text + " " + tr("Theme: {theme}.", theme=theme)


def streak_answer_text(result: StreakAnswered, tr: Tr = ENGLISH) -> str:
    """A streak answer: right (the run so far) or the miss that ends the run (its length, the best)."""
    puzzle = result.puzzle
    if result.solved:
        return tr(
            "Right: **{move}** is the move. Puzzle Streak: {run} in a row.",
            move=puzzle.move,
            run=result.after.run,
        )
    return "\n".join(
        (
            tr(
                "Not this one: you chose **{given}**; the move was **{move}**.",
                given=result.move,
                move=puzzle.move,
            ),
            tr(
                "Puzzle Streak over: {run} in a row (best {best}). Start a new one with {/puzzle} and "
                "streak.",
                run=result.before.run,
                best=result.after.best,
            ),
        )
    )


def answer_text(result: Answered, tr: Tr = ENGLISH) -> str:
    """Right or wrong, the solution line with the search's figures, and the new rating and streak."""
    puzzle, after, before = result.puzzle, result.after, result.before
    line = " → ".join(puzzle.solution)
    if result.solved:
        head = tr("Right: **{move}** is the move.", move=puzzle.move)
    else:
        head = tr(
            "Not this one: you chose **{given}**; the move was **{move}**.",
            given=result.move,
            move=puzzle.move,
        )
    figures = puzzle.figures
    why = tr(
        "The line: {line}. By my search it keeps about {best} to win; the next best move, {other}, about "
        "{other_chance}.",
        line=line,
        best=percent(float(figures.get("second_best", 0.0))),
        other=str(figures.get("second_runner_up_move", "?")),
        other_chance=percent(float(figures.get("second_runner_up", 0.0))),
    )
    new, old = shown_rating(after.mu, after.sigma), shown_rating(before.mu, before.sigma)
    change = new.points - old.points
    standing = tr(
        "Your puzzle rating: {rating} ({change}), streak {streak}. Another one: {/puzzle}.",
        rating=str(new),
        change=f"{change:+d}",
        streak=after.streak,
    )
    return "\n".join((head, why, standing))


class PuzzleCog(ButtonCog):
    """Puzzles from finished matches."""

    def buttons(self) -> dict[str, ButtonHandler]:
        return {"puzzle": self.on_choice, "puzzle_show": self.on_show, "puzzle_streak": self.on_streak_choice}

    async def cog_load(self) -> None:
        await super().cog_load()
        runtime_of(self.bot).puzzles.on_daily = self.post_daily

    @staticmethod
    def puzzles_of(source: Interaction | discord.Client) -> Puzzles:
        return runtime_of(source).puzzles

    @app_commands.command(name="puzzle", description="A puzzle from a finished match: find the best move")
    @app_commands.describe(
        game="Only puzzles of this game",
        answer="Your move for the puzzle you were shown (start typing)",
        motif="Only puzzles of this theme (a puzzle's motif)",
        streak="Puzzle Streak: solve puzzles in a row, each a little harder, until the first miss",
    )
    @app_commands.choices(game=GAME_CHOICES, motif=THEME_CHOICES)
    async def puzzle(
        self,
        interaction: Interaction,
        game: str | None = None,
        answer: str | None = None,
        motif: str | None = None,
        streak: bool = False,
    ) -> None:
        puzzles = self.puzzles_of(interaction)
        user_id = interaction.user.id
        if streak:
            await self.send_streak(interaction, await puzzles.streak_next(user_id))
            return
        if answer:
            open_one = await puzzles.store.open_puzzle(user_id)
            if open_one is None:
                raise NoOpenPuzzle()
            result = await puzzles.answer(user_id, open_one.id, answer)
            await interaction.response.send_message(
                answer_text(result, for_user(interaction)), ephemeral=True
            )
            return
        shown = await puzzles.next(user_id, game, motif)
        await self.send_puzzle(interaction, shown)

    @puzzle.autocomplete("answer")
    async def answer_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The legal moves of the user's puzzle that start with what they typed."""
        try:
            open_one = await self.puzzles_of(interaction).store.open_puzzle(interaction.user.id)
            if open_one is None:
                return []
            legal = self.puzzles_of(interaction).legal_moves(open_one)
        except Exception:
            log.exception("puzzle autocomplete failed for user %s", interaction.user.id)
            return []
        typed = str(current or "").strip().lower()
        found = sorted(move for move in legal if move.lower().startswith(typed))
        return [app_commands.Choice(name=move[:100], value=move[:100]) for move in found[:AUTOCOMPLETE_MOVES]]

    async def on_choice(self, interaction: Interaction, ref: ButtonRef) -> None:
        puzzles = self.puzzles_of(interaction)
        puzzle = await puzzles.get(ref.ref)
        moves = choices_for(puzzle, puzzles.legal_moves(puzzle))
        move = moves[ref.ply] if 0 <= ref.ply < len(moves) else puzzle.move
        result = await puzzles.answer(interaction.user.id, puzzle.id, move)
        await interaction.response.send_message(answer_text(result, for_user(interaction)), ephemeral=True)

    async def on_streak_choice(self, interaction: Interaction, ref: ButtonRef) -> None:
        """A streak puzzle's button: the answer, and after a right one the next puzzle at once."""
        puzzles = self.puzzles_of(interaction)
        puzzle = await puzzles.get(ref.ref)
        moves = choices_for(puzzle, puzzles.legal_moves(puzzle))
        move = moves[ref.ply] if 0 <= ref.ply < len(moves) else puzzle.move
        result = await puzzles.streak_answer(interaction.user.id, puzzle.id, move)
        tr = for_user(interaction)
        text = streak_answer_text(result, tr)
        if not result.solved:
            await interaction.response.send_message(text, ephemeral=True)
            return
        await self.send_streak(interaction, await puzzles.streak_next(interaction.user.id), head=text)

    async def send_streak(
        self, interaction: Interaction, shown: StreakShown, head: str | None = None
    ) -> None:
        """The streak's puzzle, privately: image, heading, the run so far, and a button per choice."""
        tr = for_user(interaction)
        puzzle = shown.puzzle
        await interaction.response.defer(ephemeral=True, thinking=True)
        theme = await looks_of(interaction).theme_for(interaction.user.id, interaction.guild_id)
        file, to_move = await self.puzzle_file(puzzle, tr, theme)
        moves = choices_for(puzzle, self.puzzles_of(interaction).legal_moves(puzzle))
        view = view_of(
            *(button("puzzle_streak", puzzle.id, index, move[:80]) for index, move in enumerate(moves))
        )
        lines = [] if head is None else [head]
        lines += [
            puzzle_text(puzzle, to_move, tr),
            tr(
                "Puzzle Streak: {run} in a row so far (best {best}). Press your move below: one miss "
                "ends it.",
                run=shown.run.run,
                best=shown.run.best,
            ),
        ]
        await interaction.followup.send("\n".join(lines), file=file, view=view, ephemeral=True)

    async def on_show(self, interaction: Interaction, ref: ButtonRef) -> None:
        shown = await self.puzzles_of(interaction).show(interaction.user.id, ref.ref)
        await self.send_puzzle(interaction, shown)

    async def puzzle_file(self, puzzle: PuzzleRecord, tr: Tr, theme: str) -> tuple[discord.File, str]:
        """The puzzle's board image (seats named by the game's labels, never by players) and whose move."""
        runtime = runtime_of(self.bot)
        rules = runtime.service.rules(puzzle.game)
        state = rules.load(puzzle.position)
        labels = [tr.text(rules.seat_label(state, seat)) for seat in range(puzzle.seats)]
        png, alt = await runtime.drawing.board(
            puzzle.game, state, last_move=None, players=labels, outcome=None, theme=theme, locale=tr.locale
        )
        file = discord.File(io.BytesIO(png), filename=f"puzzle-{puzzle.id}.png", description=alt[:1000])
        return file, labels[puzzle.mover]

    async def send_puzzle(self, interaction: Interaction, shown: Shown) -> None:
        """The puzzle, privately: image, heading, the user's standing, and a button per choice."""
        tr = for_user(interaction)
        puzzle = shown.puzzle
        await interaction.response.defer(ephemeral=True, thinking=True)
        theme = await looks_of(interaction).theme_for(interaction.user.id, interaction.guild_id)
        file, to_move = await self.puzzle_file(puzzle, tr, theme)
        moves = choices_for(puzzle, self.puzzles_of(interaction).legal_moves(puzzle))
        view = view_of(*(button("puzzle", puzzle.id, index, move[:80]) for index, move in enumerate(moves)))
        text = "\n".join(
            (
                puzzle_text(puzzle, to_move, tr),
                tr("Press your move below, or give any legal move as the answer option of {/puzzle}."),
                standing_text(shown.player, tr),
            )
        )
        await interaction.followup.send(text, file=file, view=view, ephemeral=True)

    @app_commands.command(
        name="dailypuzzle", description="Post a puzzle every day in a channel of this server"
    )
    @app_commands.guild_only()
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.describe(channel="Where the daily puzzle goes; leave it empty to stop posting it")
    async def daily_puzzle(
        self, interaction: Interaction, channel: discord.TextChannel | None = None
    ) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None  # guild_only
        await self.puzzles_of(interaction).set_daily(guild_id, None if channel is None else channel.id)
        tr = for_user(interaction)
        if channel is None:
            text = tr("The daily puzzle is off. Turn it on again with {/dailypuzzle} and a channel.")
        else:
            text = tr("The daily puzzle will be posted in {channel} once a day.", channel=channel.mention)
        await interaction.response.send_message(text, ephemeral=True)

    async def post_daily(self, post: DailyPost) -> None:
        """Post the day's puzzle in the server's channel, in the server's language, with a button that shows
        it to whoever presses it."""
        channel = self.bot.get_channel(post.channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(post.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            log.warning(
                "the daily puzzle channel %s of guild %s takes no messages", post.channel_id, post.guild_id
            )
            return
        guild = self.bot.get_guild(post.guild_id)
        looks = looks_of(self.bot)
        tr = await looks.public_tr(post.guild_id, guild.preferred_locale if guild is not None else None)
        theme = await looks.theme_for(None, post.guild_id)
        file, to_move = await self.puzzle_file(post.puzzle, tr, theme)
        text = "\n".join(
            (
                tr("**The daily puzzle** for {day}.", day=post.day),
                puzzle_text(post.puzzle, to_move, tr),
            )
        )
        view = view_of(
            button("puzzle_show", post.puzzle.id, 0, tr("Solve it"), style=discord.ButtonStyle.primary)
        )
        await channel.send(text, file=file, view=view, allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PuzzleCog(bot))
