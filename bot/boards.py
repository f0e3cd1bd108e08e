"""What a board message says and carries: the text (players, the move in words, whose turn, the result),
the rendered image (rendered off the event loop) and the buttons for moves that are single words.

The cog never branches on a game's phase: the buttons are the rules' `word_moves` for the position, shown only
when a person is to move. A move that cannot be undone (TilingKing's pass all) asks for a confirmation first.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

import renderer
from bot.drawing import Drawing
from bot.replies import sentence_case
from bot.service.ratings import NEW_MU, NEW_SIGMA, is_provisional, shown_rating
from bot.service.records import Finished, MatchStatus, MatchView, MoveView, Player, RatingChange
from bot.views import TesseraButton, button
from games.base import Rules, Termination, WordMove
from renderer import text as renderer_text

log = logging.getLogger("tessera.boards")

BOT_NAME = "Tessera"


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """ "1 game", "2 games", "0 games" (`nouns` for an irregular plural)."""
    return f"{count} {noun if count == 1 else (nouns or noun + 's')}"


def rating_text(mu: float, sigma: float) -> str:
    """A rating as players read it, on the one display scale: "1665", or "1665 (provisional)"."""
    shown = shown_rating(mu, sigma)
    return f"{shown} (provisional)" if is_provisional(sigma) else str(shown)


def seat_name(seat: Player, names: Mapping[int, str]) -> str:
    """A player's display name; the bot's seats read "Tessera (hard)"."""
    if seat.is_ai:
        return f"{BOT_NAME} ({seat.ai_level})"
    return names.get(seat.user_id) or f"Player {seat.seat + 1}"


def seat_mention(seat: Player) -> str:
    """A player in a message: a mention for a person, "Tessera (hard)" for the bot's seats. Plain text, no
    markdown, so a sentence may put it inside bold."""
    return f"{BOT_NAME} ({seat.ai_level})" if seat.is_ai else f"<@{seat.user_id}>"


def seats_line(match: MatchView, rules: Rules[Any, Any]) -> str:
    """ "<@1> (Black) vs <@2> (White)"; the bot's seat reads "Tessera (easy, White)"."""
    parts = []
    for seat in match.seats:
        label = rules.seat_label(match.state, seat.seat)
        if seat.is_ai:
            parts.append(f"{BOT_NAME} ({seat.ai_level}, {label})")
        else:
            parts.append(f"<@{seat.user_id}> ({label})")
    return " vs ".join(parts)


def turn_line(match: MatchView, rules: Rules[Any, Any]) -> str:
    """Who moves next, with a mention (a new message pings them), or nothing once the match is over."""
    if not match.is_active or match.to_move is None:
        return ""
    seat = match.seats[match.to_move]
    label = rules.seat_label(match.state, seat.seat)
    if seat.is_ai:
        return f"{BOT_NAME} ({label}) is thinking..."
    hint = " Use /move, or a button below." if rules.word_moves(match.state) else " Use /move."
    return f"<@{seat.user_id}>, your turn as {label}.{hint}"


def move_lines(moves: Sequence[MoveView]) -> list[str]:
    """The moves in words, forced passes included, one per line."""
    return [sentence_case(m.description) for m in moves]


def word_buttons(match: MatchView, rules: Rules[Any, Any]) -> list[TesseraButton]:
    """Buttons for the one-word moves of the person to move (none on the bot's turn or once over). A move
    that cannot be undone opens a confirmation (action ``confirm``) instead of moving at once."""
    if match.to_move is None or match.ai_seat_to_move() is not None:
        return []
    return [word_button(match, word) for word in rules.word_moves(match.state)]


def word_button(match: MatchView, word: WordMove) -> TesseraButton:
    if word.irreversible:
        style = discord.ButtonStyle.danger
    elif word.main:
        style = discord.ButtonStyle.primary
    else:
        style = discord.ButtonStyle.secondary
    action = "confirm" if word.irreversible else "move"
    return button(action, match.id, match.ply, word.label, arg=word.notation, style=style)


def _score_text(scores: Sequence[float]) -> str:
    return "–".join(f"{score:g}" for score in scores)


def rating_lines(changes: Sequence[RatingChange]) -> list[str]:
    """One line per rated player: "<@1>: 1500 → 1665 (+165), first rated game, provisional". The change is
    the difference of the shown (rounded) ratings, so the line always adds up."""
    lines = []
    for change in changes:
        who = f"{BOT_NAME} ({change.ai_level})" if change.ai_level else f"<@{change.user_id}>"
        notes = []
        if change.mu_before is None or change.sigma_before is None:
            before = shown_rating(NEW_MU, NEW_SIGMA)
            notes.append("first rated game")
        else:
            before = shown_rating(change.mu_before, change.sigma_before)
        after = shown_rating(change.mu_after, change.sigma_after)
        if is_provisional(change.sigma_after):
            notes.append("provisional")
        line = f"{who}: {before} → {after} ({after - before:+d})"
        lines.append(", ".join([line, *notes]))
    return lines


def result_sentence(finished: Finished) -> str:
    """The result in one line of markdown: who resigned or ran out of time (if that ended it), then the
    result in bold, worded as on the image (`renderer.text.result`): "**<@1> wins by resignation.**",
    "**Draw: nobody held the lead.**", "**<@1> and <@2> share first place on score.**"."""
    match, outcome = finished.match, finished.outcome
    if outcome.termination is Termination.ABORTED:
        who = f" by <@{finished.by_user}>" if finished.by_user is not None else ""
        return f"**Match #{match.id} was aborted{who}.** No result, no rating change."
    result = renderer_text.result(outcome, [seat_mention(s) for s in match.seats])
    head = f"**{result}.**"
    if finished.by_user is not None and outcome.termination is Termination.RESIGNATION:
        head = f"<@{finished.by_user}> resigned. {head}"
    elif finished.by_user is not None and outcome.termination is Termination.TIMEOUT:
        head = f"<@{finished.by_user}> ran out of time. {head}"
    return head


def result_lines(finished: Finished, rules: Rules[Any, Any]) -> list[str]:
    """The result in words: who won and how, the scores, the rating changes."""
    match, outcome = finished.match, finished.outcome
    lines = [result_sentence(finished)]
    if outcome.termination is Termination.ABORTED:
        return lines
    if outcome.scores:
        labels = "–".join(rules.seat_label(match.state, s.seat) for s in match.seats)
        lines.append(f"Score ({labels}): {_score_text(outcome.scores)}")
    lines.extend(rating_lines(finished.rating_changes))
    return lines


@dataclass(frozen=True, slots=True)
class BoardMessage:
    """Everything to send: call `send_kwargs()` for `channel.send` / `followup.send`."""

    content: str
    png: bytes | None
    alt: str
    buttons: tuple[TesseraButton, ...]

    def file(self) -> discord.File | None:
        if self.png is None:
            return None
        return discord.File(io.BytesIO(self.png), filename="board.png", description=self.alt or None)

    def view(self) -> discord.ui.View | None:
        if not self.buttons:
            return None
        view = discord.ui.View(timeout=None)
        for item in self.buttons:
            view.add_item(item)
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
) -> tuple[bytes | None, str]:
    """The board PNG (in `theme`) and its alt text, drawn on the board pool; (None, "") if the renderer
    failed. A finished match shows its stored outcome, so a resignation, a timeout or an abort is on the
    image."""
    players = [seat_name(s, names) for s in match.seats]
    try:
        return await drawing.board(
            match.game, match.state, last_move=last_move, players=players, outcome=match.outcome, theme=theme
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
) -> BoardMessage:
    """The message for `match`'s current board: header, what happened, whose turn or the result, buttons;
    the image in `theme` (a renderer theme name)."""
    caption = renderer.move_caption(match.ply, over=not match.is_active)
    header = f"**{rules.name}** · match #{match.id} · {caption} · {seats_line(match, rules)}"
    text = [header]
    if headline:
        text.append(headline)
    text.extend(lines)
    if finished is not None:
        text.extend(result_lines(finished, rules))
    else:
        turn = turn_line(match, rules)
        if turn:
            text.append(turn)
    png, alt = await render_board(drawing, match, names, last_move=last_move, theme=theme)
    if png is None:
        text.append(f"```\n{rules.position_text(match.state)[:1500]}\n```")
    buttons = word_buttons(match, rules)
    if not match.is_active:
        buttons.append(button("replay", match.id, match.ply, "Replay", style=discord.ButtonStyle.primary))
    if match.status is MatchStatus.FINISHED:
        buttons.append(button("analyse", match.id, match.ply, "Analyse"))
    return BoardMessage("\n".join(text), png, alt, tuple(buttons))
