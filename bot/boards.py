"""What a board message says and carries: the text (players, the move in words, whose turn, the result),
the rendered image (rendered off the event loop) and the buttons for moves that are single words.

The cog never branches on a game's phase: the buttons are the rules' `word_moves` for the position, shown only
when a person is to move. A move that cannot be undone (TilingKing's pass all) asks for a confirmation first.

Every text is in the language of the `Tr` passed in (a board is public: the server's language), the image and
its alt text too.
"""

from __future__ import annotations

import io
import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

import renderer
from bot.drawing import Drawing
from bot.i18n import ENGLISH, Tr
from bot.replies import sentence_case
from bot.service.ratings import NEW_MU, NEW_SIGMA, shown_rating
from bot.service.records import Finished, MatchStatus, MatchView, MoveView, Player, RatingChange
from bot.views import TesseraButton, activity_on, board_link, button, open_board_button
from games.ai.levels import LEVEL_IDS
from games.base import Rules, Termination, WordMove
from games.texts import N_
from renderer import text as renderer_text

log = logging.getLogger("tessera.boards")

BOT_NAME = "Tessera"

AI_LEVEL_WORDS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}
"""The old levels in words (the level itself is data: a command choice value and a database value)."""


def level_word(level: str | None, tr: Tr = ENGLISH) -> str:
    """The bot's level in the language of `tr`: "level 3" ("niveau 3"); an old match's "hard"
    ("difficile")."""
    if level in LEVEL_IDS:
        return tr("level {number}", number=level)
    return tr(AI_LEVEL_WORDS[level]) if level in AI_LEVEL_WORDS else str(level)


def bot_label(level: str | None, tr: Tr = ENGLISH) -> str:
    """The bot's seat: "Tessera (hard)"."""
    return tr("{bot} ({level})", bot=BOT_NAME, level=level_word(level, tr))


def seat_name(seat: Player, names: Mapping[int, str], tr: Tr = ENGLISH) -> str:
    """A player's display name; the bot's seats read "Tessera (hard)"."""
    if seat.is_ai:
        return bot_label(seat.ai_level, tr)
    return names.get(seat.user_id) or tr("Player {number}", number=seat.seat + 1)


def seat_mention(seat: Player, tr: Tr = ENGLISH) -> str:
    """A player in a message: a mention for a person, "Tessera (hard)" for the bot's seats. Plain text, no
    markdown, so a sentence may put it inside bold."""
    return bot_label(seat.ai_level, tr) if seat.is_ai else f"<@{seat.user_id}>"


def seats_line(match: MatchView, rules: Rules[Any, Any], tr: Tr = ENGLISH) -> str:
    """ "<@1> (Black) vs <@2> (White)"; the bot's seat reads "Tessera (easy, White)"."""
    parts = []
    for seat in match.seats:
        label = rules.seat_label(match.state, seat.seat)
        if seat.is_ai:
            level = level_word(seat.ai_level, tr)
            parts.append(tr("{bot} ({level}, {role})", bot=BOT_NAME, level=level, role=label))
        else:
            parts.append(tr("{player} ({role})", player=f"<@{seat.user_id}>", role=label))
    return tr(" vs ").join(parts)


def turn_line(match: MatchView, rules: Rules[Any, Any], tr: Tr = ENGLISH) -> str:
    """Who moves next, with a mention (a new message pings them), or nothing once the match is over."""
    if not match.is_active or match.to_move is None:
        return ""
    seat = match.seats[match.to_move]
    label = rules.seat_label(match.state, seat.seat)
    if seat.is_ai:
        return tr("{bot} ({role}) is thinking...", bot=BOT_NAME, role=label)
    mention = f"<@{seat.user_id}>"
    if rules.word_moves(match.state):
        line = tr(
            "{player}, your turn as {role}. Use {/move}, or a button below.", player=mention, role=label
        )
    else:
        line = tr("{player}, your turn as {role}. Use {/move}.", player=mention, role=label)
    return line + clock_line(match, tr)


def clock_line(match: MatchView, tr: Tr = ENGLISH) -> str:
    """On a live clock, when the mover's time runs out, as Discord's relative timestamp (every reader sees
    it count in their own client: "in 4 minutes"); nothing in correspondence."""
    if match.time_control is None or match.deadline is None:
        return ""
    return " " + tr(
        "Live {control}: your time runs out {when}.",
        control=match.time_control.text,
        when=f"<t:{math.ceil(match.deadline)}:R>",
    )


def move_line(move: MoveView, tr: Tr = ENGLISH) -> str:
    """A move in words with its number, as the analysis and /history count it: "Move 10: White c1-c3"; a
    resignation is no move and has no number ("Green resigns")."""
    described = sentence_case(tr.text(move.description))
    if move.number is None:
        return described
    return tr("Move {number}: {move}", number=move.number, move=described)


def move_lines(moves: Sequence[MoveView], tr: Tr = ENGLISH) -> list[str]:
    """The moves in words, forced passes included, one per line, each with its number (`move_line`)."""
    return [move_line(m, tr) for m in moves]


def word_buttons(match: MatchView, rules: Rules[Any, Any], tr: Tr = ENGLISH) -> list[TesseraButton]:
    """Buttons for the one-word moves of the person to move (none on the bot's turn or once over). A move
    that cannot be undone opens a confirmation (action ``confirm``) instead of moving at once."""
    if match.to_move is None or match.ai_seat_to_move() is not None:
        return []
    return [word_button(match, word, tr) for word in rules.word_moves(match.state)]


def word_button(match: MatchView, word: WordMove, tr: Tr = ENGLISH) -> TesseraButton:
    if word.irreversible:
        style = discord.ButtonStyle.danger
    elif word.main:
        style = discord.ButtonStyle.primary
    else:
        style = discord.ButtonStyle.secondary
    action = "confirm" if word.irreversible else "move"
    return button(action, match.id, match.ply, tr.text(word.label), arg=word.notation, style=style)


def _score_text(scores: Sequence[float]) -> str:
    return "–".join(f"{score:g}" for score in scores)


def rating_lines(changes: Sequence[RatingChange], tr: Tr = ENGLISH) -> list[str]:
    """One line per rated player: "<@1>: 1500 → 1583 (+83), first rated game, provisional". The change is
    the difference of the shown (rounded) ratings, so the line always adds up."""
    lines = []
    for change in changes:
        who = bot_label(change.ai_level, tr) if change.ai_level else f"<@{change.user_id}>"
        notes = []
        if change.mu_before is None or change.sigma_before is None:
            before = shown_rating(NEW_MU, NEW_SIGMA)
            notes.append(tr("first rated game"))
        else:
            before = shown_rating(change.mu_before, change.sigma_before)
        after = shown_rating(change.mu_after, change.sigma_after)
        if after.provisional:
            notes.append(tr("provisional"))
        line = f"{who}: {before.points} → {after.points} ({after.points - before.points:+d})"
        lines.append(", ".join([line, *notes]))
    return lines


def result_sentence(finished: Finished, tr: Tr = ENGLISH) -> str:
    """The result in one line of markdown: who resigned or ran out of time (if that ended it), then the
    result in bold, worded as on the image (`renderer.text.result`): "**<@1> wins by resignation.**",
    "**Draw: nobody held the lead.**", "**<@1> and <@2> share first place on score.**"."""
    match, outcome = finished.match, finished.outcome
    if outcome.termination is Termination.ABORTED:
        if finished.early is Termination.TIMEOUT and finished.by_user is not None:
            return tr(
                "{player} ran out of time before every player had moved, so **match #{match_id} is "
                "aborted.** No result, no rating change.",
                match_id=match.id,
                player=f"<@{finished.by_user}>",
            )
        if finished.early is Termination.RESIGNATION and finished.by_user is not None:
            return tr(
                "{player} resigned before every player had moved, so **match #{match_id} is aborted.** "
                "No result, no rating change.",
                match_id=match.id,
                player=f"<@{finished.by_user}>",
            )
        if finished.by_user is not None:
            return tr(
                "**Match #{match_id} was aborted by {player}.** No result, no rating change.",
                match_id=match.id,
                player=f"<@{finished.by_user}>",
            )
        return tr("**Match #{match_id} was aborted.** No result, no rating change.", match_id=match.id)
    with renderer_text.using(tr.translations):
        result = renderer_text.result(outcome, [seat_mention(s, tr) for s in match.seats])
    head = f"**{result}.**"
    if finished.by_user is not None and outcome.termination is Termination.RESIGNATION:
        head = tr("{player} resigned. {result}", player=f"<@{finished.by_user}>", result=head)
    elif finished.by_user is not None and outcome.termination is Termination.TIMEOUT:
        head = tr("{player} ran out of time. {result}", player=f"<@{finished.by_user}>", result=head)
    return head


def result_lines(finished: Finished, rules: Rules[Any, Any], tr: Tr = ENGLISH) -> list[str]:
    """The result in words: who won and how, the scores, the rating changes."""
    match, outcome = finished.match, finished.outcome
    lines = [result_sentence(finished, tr)]
    if outcome.termination is Termination.ABORTED:
        return lines
    if outcome.scores:
        labels = "–".join(tr.text(rules.seat_label(match.state, s.seat)) for s in match.seats)
        lines.append(tr("Score ({roles}): {scores}", roles=labels, scores=_score_text(outcome.scores)))
    lines.extend(rating_lines(finished.rating_changes, tr))
    return lines


@dataclass(frozen=True, slots=True)
class BoardMessage:
    """Everything to send: call `send_kwargs()` for `channel.send` / `followup.send`."""

    content: str
    png: bytes | None
    alt: str
    buttons: tuple[TesseraButton, ...]
    link: tuple[str, str] | None = None
    """(label, address) of the "Open board" link button to the web board, if it is on."""

    def file(self) -> discord.File | None:
        if self.png is None:
            return None
        return discord.File(io.BytesIO(self.png), filename="board.png", description=self.alt or None)

    def view(self) -> discord.ui.View | None:
        if not self.buttons and self.link is None:
            return None
        view = discord.ui.View(timeout=None)
        for item in self.buttons:
            view.add_item(item)
        if self.link is not None:
            view.add_item(open_board_button(self.link[1], self.link[0]))
        return view

    def send_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"content": self.content[:2000]}
        file = self.file()
        if file is not None:
            kwargs["file"] = file
        view = self.view()
        if view is not None:
            kwargs["view"] = view
        return kwargs


async def render_board(
    drawing: Drawing,
    match: MatchView,
    names: Mapping[int, str],
    *,
    last_move: str | None,
    theme: str = "default",
    tr: Tr = ENGLISH,
) -> tuple[bytes | None, str]:
    """The board PNG (in `theme`) and its alt text in the language of `tr`, drawn on the board pool;
    (None, "") if the renderer failed. A finished match shows its stored outcome, so a resignation, a
    timeout or an abort is on the image."""
    players = [seat_name(s, names, tr) for s in match.seats]
    try:
        return await drawing.board(
            match.game,
            match.state,
            last_move=last_move,
            players=players,
            outcome=match.outcome,
            theme=theme,
            locale=tr.locale,
            match=match.id,
            clocks=match.clocks,
        )
    except Exception:
        log.exception("rendering match %s failed; sending the position as text", match.id)
        return None, ""


async def board_message(
    drawing: Drawing,
    match: MatchView,
    rules: Rules[Any, Any],
    names: Mapping[int, str],
    *,
    headline: str = "",
    lines: Sequence[str] = (),
    last_move: str | None = None,
    finished: Finished | None = None,
    theme: str = "default",
    tr: Tr = ENGLISH,
    rematch: bool = False,
) -> BoardMessage:
    """The message for `match`'s current board in the language of `tr`: header, what happened, whose turn or
    the result, buttons (`rematch`: a finished match's Rematch button); the image in `theme` (a renderer
    theme name)."""
    with renderer_text.using(tr.translations):
        caption = renderer.move_caption(rules.moves_played(match.state), over=not match.is_active)
    header = tr(
        "**{game}** · match #{match_id} · {moves} · {players}",
        game=rules.name,
        match_id=match.id,
        moves=caption,
        players=seats_line(match, rules, tr),
    )
    text = [header]
    if headline:
        text.append(headline)
    text.extend(lines)
    if finished is not None:
        text.extend(result_lines(finished, rules, tr))
    else:
        turn = turn_line(match, rules, tr)
        if turn:
            text.append(turn)
    png, alt = await render_board(drawing, match, names, last_move=last_move, theme=theme, tr=tr)
    if png is None:
        text.append(f"```\n{rules.position_text(match.state)[:1500]}\n```")
    buttons = word_buttons(match, rules, tr)
    if not match.is_active:
        buttons.append(button("replay", match.id, match.ply, tr("Replay"), style=discord.ButtonStyle.primary))
    if match.status is MatchStatus.FINISHED:
        buttons.append(button("analyse", match.id, match.ply, tr("Analyse")))
        if rematch:  # cogs/live.py: the same match again, seats rotated
            buttons.append(button("rematch", match.id, match.ply, tr("Rematch")))
    url = board_link(match.id, match.guild_id)
    if url is not None and activity_on(match.guild_id):
        buttons.append(button("activity", match.id, match.ply, tr("Play in Discord")))
    link = (tr("Open board"), url) if url is not None else None
    return BoardMessage("\n".join(text), png, alt, tuple(buttons), link)
