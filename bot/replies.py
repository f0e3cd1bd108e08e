"""How Tessera answers: ephemeral replies for what a user did wrong, an apology for what went wrong with us.

Every error a user can cause (the service's `USER_ERRORS`: its `ServiceError`, an engine's `MoveError` or
`InvalidOptions`; or a `UserError` raised by the Discord layer) becomes an ephemeral reply in plain words.
A write the database had no room for (`StoreFull`) is told as not saved, and logged. Anything else is logged
with the match id (if the handler recorded one in `interaction.extras["match_id"]`) and the user gets a
short apology, so nobody ever sees "This interaction failed". Both are in the user's
language (`bot.i18n.for_user`): the errors carry their template and values, not only English words.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.i18n import ENGLISH, Tr, for_user
from bot.service.errors import USER_ERRORS
from bot.service.store import StoreFull
from games.texts import N_

log = logging.getLogger("tessera.errors")

_WORD_MARKS = str.maketrans("", "", "'’-")

APOLOGY = N_("Sorry, something went wrong on our side. The match is safe; please try again in a moment.")
NOT_SAVED = N_(
    "That was not saved: the bot's database is full. Try it again in a few minutes; if this keeps happening, "
    "tell a server admin."
)


class UserError(Exception):
    """Something the user did that Tessera cannot do; the message (a `games.texts.Text`, so that it can be
    translated) says what to do instead."""


def user_error_types() -> tuple[type[BaseException], ...]:
    """Exception types whose message is written for a player."""
    return (UserError, *USER_ERRORS)


def unwrap(error: BaseException) -> BaseException:
    """The exception a command or button really raised, without discord.py's wrappers."""
    while isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        if error.__cause__ is None:
            break
        error = error.__cause__
    if isinstance(error, app_commands.CommandInvokeError) and error.original is not None:
        return error.original
    return error


def sentence_case(text: str) -> str:
    """`text` with its first letter capitalised, unless its first word is data rather than a word: a cell
    ("e5 is Green's territory" stays lower case, as cells are everywhere else), a move, a quoted text, a
    mention. A first word is a word when it is letters only (apostrophes, hyphens and trailing punctuation
    aside)."""
    first = text.split(maxsplit=1)[0] if text.strip() else ""
    if first.rstrip(",.:;!?").translate(_WORD_MARKS).isalpha():
        return text[0].upper() + text[1:]
    return text


def player_message(error: BaseException, tr: Tr = ENGLISH) -> str | None:
    """The words to show the user for an error they caused (in the language of `tr`), or None when it is
    our fault."""
    error = unwrap(error)
    if isinstance(error, user_error_types()):
        return sentence_case(tr.error(error).strip() or tr("That cannot be done right now."))
    if isinstance(error, StoreFull):
        return tr(NOT_SAVED)
    if isinstance(error, app_commands.MissingPermissions):
        names = (p.replace("_", " ").replace("guild", "server").title() for p in error.missing_permissions)
        wanted = ", ".join(names)
        return tr("You need the {permission} permission for that; ask a server admin.", permission=wanted)
    if isinstance(error, app_commands.NoPrivateMessage):
        return tr("Tessera's games are played in server channels; use this command in a server.")
    if isinstance(error, app_commands.CommandOnCooldown):
        return tr("Slow down a little: try again in {seconds} s.", seconds=f"{error.retry_after:.0f}")
    if isinstance(error, app_commands.CheckFailure):
        return tr("You cannot use this command here.")
    return None


async def send_ephemeral(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral reply, whether or not the interaction was already answered or deferred."""
    if interaction.type is discord.InteractionType.autocomplete:
        return
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def report_error(interaction: discord.Interaction[Any], error: BaseException, *, where: str) -> None:
    """Answer an interaction that raised: plain words for a user's mistake, an apology and a log for ours,
    in the user's language."""
    tr = for_user(interaction)
    text = player_message(error, tr)
    if isinstance(unwrap(error), StoreFull):  # the player is told; the operator must hear of it too
        log.error("a write in %s was not saved: %s", where, unwrap(error))
    if text is None:
        match_id = interaction.extras.get("match_id")
        log.error(
            "unexpected error in %s (match %s, user %s)",
            where,
            match_id if match_id is not None else "-",
            interaction.user.id if interaction.user else "-",
            exc_info=unwrap(error),
            extra={"kind": "interaction"},
        )
        text = tr(APOLOGY)
    try:
        await send_ephemeral(interaction, text)
    except discord.HTTPException:
        log.warning("could not deliver an error reply in %s", where, exc_info=True)
