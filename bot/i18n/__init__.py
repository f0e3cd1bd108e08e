"""Tessera in the players' languages: gettext catalogs (managed with Babel) and the choice of language.

The catalogs are `bot/i18n/locales/<locale>/LC_MESSAGES/tessera.po`; the message ids are the English texts,
with `{name}` placeholders (python-brace-format). They are compiled in memory the first time a language is
used, so a fresh clone needs no build step (bot/catalogs.py, which a board process uses without Discord).
`python -m bot.i18n update` extracts the messages from the source (Babel) and the command tree into
`tessera.pot` and merges them into every catalog.

Which language:
- an ephemeral reply is for one user: `for_user(interaction)`, their Discord client's language;
- a public message (a board, a result, a challenge) is for the server: `for_guild(...)`, the language chosen
  with /settings, else the server's Discord language (`interaction.guild_locale`).
A language Tessera has no catalog for falls back to English.

A game in its own package brings its own catalog (`GamePlugin.catalog`, its own gettext domain), consulted
first for its own messages (bot/catalogs.py says how). The built-in games' words are in the bot's catalog.

`Tr` translates the Discord layer's own texts (`tr("...{x}...", x=...)`, `tr.ngettext`), and the words the
pure layers return (`tr.text`: a `games.texts.Text`, a service error's template, an engine's error).

A text names a slash command with a placeholder, `{/move}` or `{/prefs theme}` ("Use {/move} to play"): it
becomes Discord's clickable mention `</move:ID>`, which each client shows in its own language, once the
client has told `COMMAND_IDS` the ids of the synced commands; before that (or if Discord could not be
asked) it is the command's plain name in the text's language, "/coup".
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

import discord
from discord import app_commands

from bot.catalogs import (
    DOMAIN,
    LOCALE_DIR,
    SOURCE_LOCALE,
    GamesFirst,
    catalog_path,
    game_catalogs,
    game_translations,
    own_messages,
    translations,
)
from bot.service.errors import ServiceError
from bot.service.guilds import LOCALES
from games.texts import Text, fill

__all__ = [
    "COMMAND_CONTEXT",
    "COMMAND_IDS",
    "DISCORD_LOCALES",
    "DOMAIN",
    "LOCALE_DIR",
    "SOURCE_LOCALE",
    "GamesFirst",
    "Tr",
    "catalog_locale",
    "catalog_path",
    "catalogs_fingerprint",
    "for_locale",
    "for_user",
    "game_catalogs",
    "game_translations",
    "guild_locale",
    "own_messages",
    "plain_tr_for",
    "tr_for",
    "translations",
]

COMMAND_CONTEXT = "command"
"""The msgctxt of slash command and option names: Discord requires them lowercase, without spaces."""

DISCORD_LOCALES: Mapping[str, str] = {
    "en-US": "en",
    "en-GB": "en",
    "fr": "fr",
    "de": "de",
    "es-ES": "es",
    "es-419": "es",
    "it": "it",
    "pt-BR": "pt_BR",
    "pl": "pl",
    "ja": "ja",
}
"""Discord's locale codes to our catalogs (Spanish of Spain and of Latin America share one)."""


def catalog_locale(locale: discord.Locale | str | None) -> str:
    """Our catalog for a Discord locale ("pt-BR" -> "pt_BR"), or English if we have none for it."""
    if locale is None:
        return SOURCE_LOCALE
    code = locale.value if isinstance(locale, discord.Locale) else str(locale)
    if code in LOCALES:
        return code
    return DISCORD_LOCALES.get(code, SOURCE_LOCALE)


def catalogs_fingerprint() -> str:
    """A hash of every catalog: the slash commands are synced again when a translation of them changes."""
    digest = hashlib.sha256()
    for locale in LOCALES:
        if locale != SOURCE_LOCALE:
            digest.update(catalog_path(locale).read_bytes())
    return digest.hexdigest()


class CommandIds:
    """The ids Discord gave the slash commands (top-level name -> id), known once the client has synced or
    fetched them; the same for every shard and every language."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}

    def remember(self, commands: Iterable[tuple[str, int]]) -> None:
        """Replace the known ids with these (name, id) pairs."""
        self._ids = dict(commands)

    def forget(self) -> None:
        self._ids = {}

    def get(self, name: str) -> int | None:
        return self._ids.get(name)


COMMAND_IDS = CommandIds()


class Tr:
    """Translation into one language. Call it with an English template and its values:
    `tr("Match #{match_id} is over.", match_id=7)`; values that are `Text` are translated too."""

    def __init__(self, locale: str, *, mentions: bool = True) -> None:
        self.locale = locale
        self.translations = translations(locale)
        self.mentions = mentions
        """Whether commands may be clickable mentions (not in autocomplete choices, which are plain text)."""

    def __repr__(self) -> str:
        return f"Tr({self.locale!r})" if self.mentions else f"Tr({self.locale!r}, mentions=False)"

    def __call__(self, message: str, /, **params: Any) -> str:
        template = self.translations.gettext(message)
        return fill(template, self._values(params), self.command)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        """The form for `n` in this language (Polish has three, Japanese one); `n` is not passed on."""
        return fill(self.translations.ngettext(singular, plural, n), self._values(params), self.command)

    def command(self, path: str) -> str:
        """A slash command named in a text ("move", "prefs theme"): its clickable mention `</move:ID>` when
        its id is known, else its name in this language ("/coup", "/préférences thème")."""
        command_id = COMMAND_IDS.get(path.split()[0]) if self.mentions else None
        if command_id is not None:
            return f"</{path}:{command_id}>"
        return "/" + " ".join(self.pgettext(COMMAND_CONTEXT, part) for part in path.split())

    def pgettext(self, context: str, message: str, /) -> str:
        return self.translations.pgettext(context, message)

    def text(self, value: str) -> str:
        """Words from a pure layer in this language: a `Text` is translated, other text is data."""
        return value.translated(self.translations, self.command) if isinstance(value, Text) else value

    def error(self, error: BaseException) -> str:
        """The message of an error a player caused, in this language: a service error's template and values,
        or an engine's or the Discord layer's `Text`."""
        if isinstance(error, ServiceError):
            return self(error.template, **error.params)
        message = error.args[0] if len(error.args) == 1 else str(error)
        return self.text(message) if isinstance(message, str) else str(error)

    def _values(self, params: Mapping[str, Any]) -> dict[str, Any]:
        return {
            name: self.text(value) if isinstance(value, Text) else value for name, value in params.items()
        }


@cache
def tr_for(locale: str) -> Tr:
    return Tr(locale)


@cache
def plain_tr_for(locale: str) -> Tr:
    """The translator for plain text (autocomplete choices): commands by name, never as mentions."""
    return Tr(locale, mentions=False)


ENGLISH = tr_for(SOURCE_LOCALE)


def for_locale(locale: discord.Locale | str | None) -> Tr:
    """The translator for a Discord locale (English when Tessera has no catalog for it)."""
    return tr_for(catalog_locale(locale))


def for_user(interaction: discord.Interaction[Any]) -> Tr:
    """For an ephemeral reply: the language of the user's Discord client (in plain text for autocomplete
    choices, where a command mention would show as its raw `</move:ID>`)."""
    if interaction.type is discord.InteractionType.autocomplete:
        return plain_tr_for(catalog_locale(interaction.locale))
    return for_locale(interaction.locale)


def guild_locale(chosen: str | None, discord_locale: discord.Locale | str | None) -> Tr:
    """For a public message: the server's language from /settings, else its Discord language."""
    return tr_for(chosen) if chosen in LOCALES else for_locale(discord_locale)


class CommandTranslator(app_commands.Translator):
    """Command, option and choice names and descriptions from the same catalogs. Command and option names
    are looked up with the msgctxt `command` (their translations must stay valid names); a text with no
    translation is left to Discord's default, the English."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        ours = catalog_locale(locale)
        if ours == SOURCE_LOCALE:
            return None
        tr = tr_for(ours)
        message = string.message
        translated = tr.pgettext(COMMAND_CONTEXT, message) if is_command_name(context) else tr(message)
        return translated if translated != message else None


def is_command_name(context: app_commands.TranslationContextTypes) -> bool:
    """Whether the text is a slash command's or an option's name (not a user menu's, which may have
    spaces)."""
    location = context.location
    names = (
        app_commands.TranslationContextLocation.command_name,
        app_commands.TranslationContextLocation.group_name,
        app_commands.TranslationContextLocation.parameter_name,
    )
    if location not in names:
        return False
    return not isinstance(context.data, app_commands.ContextMenu)
