"""The bot's gettext catalogs compiled for use, and each game's own: what draws a board in a language needs,
with no Discord and no service (a board process imports this, not bot.i18n).

The bot's catalog is `bot/i18n/locales/<locale>/LC_MESSAGES/tessera.po`, compiled in memory the first time a
language is used (no build step). A game in its own package brings its own catalog (`GamePlugin.catalog`,
its own gettext domain): its own messages, the ones its template lists, are looked up there first, so a
game words its phrases its way even where the bot's catalog has the same English; a message its catalog does
not translate (yet) shows as the bot's catalog words the same English, else in English, and the first use of
such a catalog logs a warning that says how much is missing. Everything else is the bot's catalog's. The
built-in games' words are in the bot's catalog.
"""

from __future__ import annotations

import gettext
import io
import logging
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

import games
from games.plugins import Catalog

log = logging.getLogger("tessera.i18n")

DOMAIN = "tessera"
LOCALE_DIR = Path(__file__).parent / "i18n" / "locales"
SOURCE_LOCALE = "en"


def catalog_path(locale: str) -> Path:
    return LOCALE_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def _compiled(path: Path, locale: str, domain: str) -> gettext.GNUTranslations:
    with path.open("rb") as po:
        catalog = read_po(po, locale=locale, domain=domain)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def _keys(path: Path, locale: str | None, domain: str) -> tuple[set[str], set[str]]:
    """The message keys of a catalog file (`context\x04id` where there is a context; a plural by its
    singular) and those of them with a full, non-fuzzy translation."""
    with path.open("rb") as po:
        catalog = read_po(po, locale=locale, domain=domain)
    found, translated = set(), set()
    for message in catalog:
        if not message.id:
            continue
        key = _key(message.context, message.id if isinstance(message.id, str) else message.id[0])
        found.add(key)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if all(strings) and not message.fuzzy:
            translated.add(key)
    return found, translated


def _key(context: str | None, message: str) -> str:
    return message if context is None else f"{context}\x04{message}"


def own_messages(game_catalog: Catalog) -> frozenset[str]:
    """The messages a game's catalog owns: those of its template (else of any of its languages' files)."""
    if game_catalog.template.exists():
        return frozenset(_keys(game_catalog.template, None, game_catalog.domain)[0])
    owned: set[str] = set()
    for locale in catalog_locales()[1:]:
        path = game_catalog.path(locale)
        if path.exists():
            owned |= _keys(path, locale, game_catalog.domain)[0]
    return frozenset(owned)


class GamesFirst(gettext.NullTranslations):
    """The bot's catalog, except for the messages a game's own catalog owns (`own_messages`), which are
    that catalog's (the first registered game's where two own one)."""

    def __init__(
        self,
        core: gettext.NullTranslations,
        owners: Sequence[tuple[frozenset[str], gettext.NullTranslations]],
    ) -> None:
        super().__init__()
        self.core = core
        self.owner: dict[str, gettext.NullTranslations] = {}
        for owned, catalog in owners:
            for key in owned:
                self.owner.setdefault(key, catalog)

    def _for(self, context: str | None, message: str) -> gettext.NullTranslations:
        return self.owner.get(_key(context, message), self.core)

    def gettext(self, message: str) -> str:
        return self._for(None, message).gettext(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self._for(None, msgid1).ngettext(msgid1, msgid2, n)

    def pgettext(self, context: str, message: str) -> str:
        return self._for(context, message).pgettext(context, message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return self._for(context, msgid1).npgettext(context, msgid1, msgid2, n)


def game_translations(
    game_catalog: Catalog, locale: str, core: gettext.NullTranslations
) -> gettext.NullTranslations:
    """A game's own catalog in one language, compiled; what it does not translate is as the bot's catalog
    `core` words it, else English, and a warning says how much that is (no file at all: everything)."""
    owned = own_messages(game_catalog)
    path = game_catalog.path(locale)
    if not path.exists():
        log.warning(
            "%s has no %s catalog (%s): its %d messages show in English",
            game_catalog.domain,
            locale,
            path,
            len(owned),
        )
        return core
    _, translated = _keys(path, locale, game_catalog.domain)
    lacking = owned - translated
    if lacking:
        log.warning(
            "%s's %s catalog translates %d of its %d messages; the others show in English "
            "(python -m bot.i18n check names them)",
            game_catalog.domain,
            locale,
            len(owned) - len(lacking),
            len(owned),
        )
    compiled = _compiled(path, locale, game_catalog.domain)
    compiled.add_fallback(core)
    return compiled


def game_catalogs() -> list[Catalog]:
    """The catalogs of the registered games that bring their own words (`GamePlugin.catalog`)."""
    return [plugin.catalog for plugin in games.PLUGINS.values() if plugin.catalog is not None]


def catalog_locales() -> tuple[str, ...]:
    """The languages the bot has a catalog for, English (the message ids themselves) first."""
    found = sorted(path.parent.parent.name for path in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return (SOURCE_LOCALE, *found)


@cache
def translations(locale: str) -> gettext.NullTranslations:
    """The compiled catalogs of one language (English: the message ids themselves): each game's own
    catalog (`GamePlugin.catalog`) for the messages it owns, the bot's for every other (`GamesFirst`)."""
    if locale == SOURCE_LOCALE:
        return gettext.NullTranslations()
    if locale not in catalog_locales():
        raise ValueError(f"no catalog for locale {locale!r}; known: {', '.join(catalog_locales())}")
    core = _compiled(catalog_path(locale), locale, DOMAIN)
    owners = [(own_messages(c), game_translations(c, locale, core)) for c in game_catalogs()]
    return GamesFirst(core, owners) if owners else core
