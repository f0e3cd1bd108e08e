"""Keep the message catalogs in step with the source: ``python -m bot.i18n update [game id]``.

``python -m bot.i18n update`` keeps the bot's own catalog (the built-in games' words are in it):

1. Extract every message with Babel from games/, renderer/, bot/ and cogs/: the keywords are the gettext
   ones, `tr` and `public` (the Discord layer's translators), `Text` and `N_` (the pure layers' words);
   then add the slash commands' names (msgctxt ``command``), descriptions and choices, read from the cogs'
   command objects (bot/extensions.py names them).
2. Write the template `bot/i18n/tessera.pot`.
3. Merge it into every `locales/<locale>/LC_MESSAGES/tessera.po`: new messages arrive untranslated, messages
   gone from the source are dropped. Then translate the new entries (empty ``msgstr``).

``python -m bot.i18n update <game id>`` does the same for a game that brings its own catalog
(`GamePlugin.catalog`, a game in its own package), and touches nothing else: its messages are extracted
from its package alone into its own template and `.po` files, created where missing.

Either way a file is written only when its messages or translations changed (not for a new date in its
header), so an update with nothing new leaves every file as it was.

``python -m bot.i18n check [game id]`` prints what the catalogs still lack and exits 1 if anything does.
There is no compile step: catalogs are compiled in memory when first used (`bot.i18n.translations`).
"""

from __future__ import annotations

import importlib
import inspect
import io
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po
from discord import app_commands
from discord.ext import commands

import games
from bot.extensions import EXTENSIONS
from bot.i18n import COMMAND_CONTEXT, DOMAIN, LOCALE_DIR, SOURCE_LOCALE, catalog_path
from bot.service.guilds import LOCALES
from games.plugins import Catalog as GameCatalog

ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIRS = ("games", "renderer", "bot", "cogs")
KEYWORDS = {**DEFAULT_KEYWORDS, "tr": None, "public": None, "Text": None, "N_": None}
"""Besides gettext's: a translator is called `tr` (for the user who acted) or `public` (for the server's
public messages); the pure layers mark their words with `Text` and `N_`."""
TEMPLATE = LOCALE_DIR.parent / f"{DOMAIN}.pot"
LANGUAGE_NAMES = frozenset(
    {"English", "Français", "Deutsch", "Español", "Italiano", "Português (Brasil)", "Polski", "日本語"}
)
UNTRANSLATED_NAMES = LANGUAGE_NAMES | {rules.name for rules in games.GAMES.values()}
"""Choice names that are names in every language (games, languages in their own words): not extracted."""

Entry = tuple[str | tuple[str, str], str | None, str]
"""(msgid or (singular, plural), msgctxt, where)."""


def source_messages() -> Iterator[Entry]:
    """Every marked message in the source, with the file and line it comes from."""
    for folder in SOURCE_DIRS:
        yield from folder_messages(ROOT / folder, folder)


def folder_messages(folder: Path, label: str) -> Iterator[Entry]:
    """Every marked message in the Python files under `folder`, located as `label/<file>:<line>`."""
    for filename, lineno, message, _comments, context in extract_from_dir(
        folder, [("**.py", "python")], keywords=KEYWORDS, strip_comment_tags=True
    ):
        if isinstance(message, tuple):
            if not message[0] or not message[1]:
                continue
            yield (message[0], message[1]), context, f"{label}/{filename}:{lineno}"
        elif message:
            yield message, context, f"{label}/{filename}:{lineno}"


def command_messages() -> Iterator[Entry]:
    """The slash commands' names, descriptions, options and choices, as the command translator sees them."""
    for extension in EXTENSIONS:
        module = importlib.import_module(extension)
        for _, cog in inspect.getmembers(module, inspect.isclass):
            if not issubclass(cog, commands.Cog) or cog.__module__ != module.__name__:
                continue
            for command in cog.__cog_app_commands__:
                yield from _command_entries(command, extension)


def _command_entries(
    command: app_commands.Command[Any, ..., Any] | app_commands.Group, where: str
) -> Iterator[Entry]:
    yield command.name, COMMAND_CONTEXT, where
    yield command.description, None, where
    if isinstance(command, app_commands.Group):
        for child in command.commands:
            yield from _command_entries(child, where)
        return
    for parameter in command.parameters:
        yield parameter.name, COMMAND_CONTEXT, where
        yield parameter.description, None, where
        for choice in parameter.choices:
            if choice.name not in UNTRANSLATED_NAMES:
                yield choice.name, None, where


def renderer_plurals() -> dict[str, tuple[str, str]]:
    """The renderer's texts with a `.one` and an `.other` form: one plural message each (its `plural`
    uses ngettext), keyed by each form."""
    from renderer.text import TEXTS

    pairs = {}
    for key, one in TEXTS.items():
        if key.endswith(".one"):
            pair = (one, TEXTS[key.removesuffix(".one") + ".other"])
            pairs[pair[0]] = pairs[pair[1]] = pair
    return pairs


def drawer_sources() -> tuple[str, ...]:
    """The files of the project's own games' drawers, as `source_messages` locates them ("games/paint/
    drawer.py"): their texts are the renderer's."""
    found = []
    for plugin in games.PLUGINS.values():
        path = Path(importlib.import_module(plugin.drawer).__file__ or "").resolve()
        if ROOT in path.parents:
            found.append(path.relative_to(ROOT).as_posix() + ":")
    return tuple(found)


def template() -> Catalog:
    """The catalog template: every message once, brace-format messages flagged."""
    plurals = renderer_plurals()
    drawing = ("renderer/", *drawer_sources())
    entries = []
    for message, context, where in [*source_messages(), *command_messages()]:
        if isinstance(message, str) and message in plurals and where.startswith(drawing):
            message = plurals[message]
        entries.append((message, context, where))
    return catalog_of(entries, DOMAIN)


def game_template(game_catalog: GameCatalog) -> Catalog:
    """The template of a game's own catalog: the messages marked in its package (`GamePlugin.catalog`)."""
    sources = game_catalog.sources
    return catalog_of(folder_messages(sources, sources.name), game_catalog.domain)


def catalog_of(entries: Iterable[Entry], domain: str) -> Catalog:
    catalog = Catalog(domain=domain, project="Tessera", charset="utf-8", fuzzy=False)
    for message, context, where in entries:
        texts = message if isinstance(message, tuple) else (message,)
        flags = ["python-brace-format"] if any("{" in text for text in texts) else []
        existing = catalog.get(message[0] if isinstance(message, tuple) else message, context)
        if existing is not None and isinstance(message, tuple) and not isinstance(existing.id, tuple):
            raise ValueError(f"{message[0]!r} is both a plural and a single message ({where})")
        path, _, line = where.partition(":")
        locations = [(path, int(line or 0))]
        if existing is not None:
            existing.locations.extend(locations)
            continue
        catalog.add(message, locations=locations, flags=flags, context=context)
    return catalog


Kept = tuple[Catalog, Path, Callable[[str], Path], str]
"""A catalog to keep: its template, the template's file, each locale's file, its domain."""


class UnknownPackage(ValueError):
    """A game id the update or the check cannot work on: not registered, or without a catalog of its own."""


def kept(game_id: str | None = None) -> Kept:
    """The catalog `update` and `check` work on: the bot's (None), or a game's own."""
    if game_id is None:
        return template(), TEMPLATE, catalog_path, DOMAIN
    if game_id not in games.GAME_IDS:
        raise UnknownPackage(f"no registered game {game_id!r} (registered: {', '.join(games.GAME_IDS)})")
    game_catalog = games.plugin(game_id).catalog
    if game_catalog is None:
        raise UnknownPackage(
            f"{game_id} has no catalog of its own (GamePlugin.catalog): its words are in the bot's catalog, "
            "kept by python -m bot.i18n update"
        )
    return game_template(game_catalog), game_catalog.template, game_catalog.path, game_catalog.domain


def update(game_id: str | None = None) -> None:
    update_catalogs(*kept(game_id))


def write_if_changed(path: Path, catalog: Catalog, **options: Any) -> bool:
    """Write `catalog` to `path` unless the file already says the same apart from its header's dates and
    Babel's version;
    whether it wrote."""
    made = io.BytesIO()
    write_po(made, catalog, width=110, include_lineno=False, **options)
    if path.exists() and _without_dates(path.read_bytes()) == _without_dates(made.getvalue()):
        return False
    path.write_bytes(made.getvalue())
    return True


DATES = re.compile(rb'^"(POT-Creation-Date|PO-Revision-Date|Generated-By): .*\\n"$', re.MULTILINE)


def _without_dates(text: bytes) -> bytes:
    return DATES.sub(b"", text)


def update_catalogs(pot: Catalog, template_file: Path, path_of: Callable[[str], Path], domain: str) -> None:
    """Write one template and merge it into its catalog of every language, creating what is missing (a new
    game package's locales folder and files); a file whose messages did not change is left alone."""
    template_file.parent.mkdir(parents=True, exist_ok=True)
    write_if_changed(template_file, pot, omit_header=False)
    for locale in LOCALES:
        if locale == SOURCE_LOCALE:
            continue
        path = path_of(locale)
        if path.exists():
            with path.open("rb") as po:
                catalog = read_po(po, locale=locale, domain=domain)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=locale, domain=domain, project="Tessera", fuzzy=False)
        catalog.update(pot, no_fuzzy_matching=True)
        wrote = write_if_changed(path, catalog, ignore_obsolete=True)
        state = "written" if wrote else "unchanged"
        print(f"{domain} {locale}: {len(catalog)} messages, {len(missing(catalog))} to translate ({state})")


def missing(catalog: Catalog) -> list[str]:
    """The message ids of `catalog` without a (complete, non-fuzzy) translation."""
    lacking = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(strings):
            lacking.append(message.id if isinstance(message.id, str) else message.id[0])
    return lacking


def check(game_id: str | None = None) -> int:
    """Print what each language's catalog lacks; 1 if anything, else 0."""
    problems = 0
    pot, _template_file, path_of, domain = kept(game_id)
    for locale in LOCALES:
        if locale == SOURCE_LOCALE:
            continue
        path = path_of(locale)
        if not path.exists():
            print(f"{domain} {locale}: no catalog ({path})")
            problems += 1
            continue
        with path.open("rb") as po:
            catalog = read_po(po, locale=locale, domain=domain)
        absent = [m.id for m in pot if m.id and catalog.get(m.id, m.context) is None]
        lacking = missing(catalog)
        problems += len(absent) + len(lacking)
        print(f"{domain} {locale}: {len(absent)} messages not in the catalog, {len(lacking)} untranslated")
    return 1 if problems else 0


def main(argv: list[str]) -> int:
    if len(argv) in (1, 2) and argv[0] in ("update", "check"):
        game_id = argv[1] if len(argv) == 2 else None
        try:
            if argv[0] == "check":
                return check(game_id)
            update(game_id)
        except UnknownPackage as error:
            print(error, file=sys.stderr)
            return 2
        return 0
    print("usage: python -m bot.i18n update [game id] | check [game id]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
