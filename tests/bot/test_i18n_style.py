"""Checks that catch whole classes of translation faults, not single strings: Japanese punctuation and
spacing, counted nouns without plural forms, each glossary's words for the game's roles and for "seat",
command names of one grammatical form, and notation (what a player types) standing in a sentence as a word.

Every rule here is written down in the locale's glossary.md (bot/i18n/locales/<locale>/glossary.md).
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Iterator

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po
from discord.ext import commands as ext

import games
from bot.extensions import EXTENSIONS
from bot.i18n import COMMAND_CONTEXT, DOMAIN, LOCALE_DIR, catalog_path, tr_for
from bot.i18n.__main__ import command_messages, template
from bot.service.guilds import LOCALES
from bot.service.options import match_options
from renderer.text import TEXTS

TRANSLATED = [locale for locale in LOCALES if locale != "en"]
KANA = "\u3040-\u30ff\u4e00-\u9fff"
CODE = re.compile(r"`[^`]*`")
FIELD = re.compile(r"\{[^{}]*\}")
ACTIONS = ("play", "move", "pass", "resign", "takeback", "abort", "analyse", "replay")
"""The commands that do something (the others show something): one grammatical form per language."""
NOTATION = re.compile(
    r"\b(done|black|white|pass|passall|resign|swap|random|joined|challenger|opponent|colorblind|default)\b"
)
"""Words a player types (moves, option and setting values), never words of a translated sentence."""


def catalog(locale: str) -> Catalog:
    with catalog_path(locale).open("rb") as po:
        return read_po(po, locale=locale, domain=DOMAIN)


def forms(value: str | tuple[str, ...]) -> tuple[str, ...]:
    return value if isinstance(value, tuple) else (value,)


def messages(locale: str) -> Iterator[Message]:
    """The catalog's messages that are sentences (not command or option names)."""
    for message in catalog(locale):
        if message.id and message.context != COMMAND_CONTEXT:
            yield message


def prose(text: str) -> str:
    """A translation without its code spans and with each placeholder as one neutral letter."""
    return FIELD.sub("X", CODE.sub(" ", text))


def glossary(locale: str) -> str:
    return (LOCALE_DIR / locale / "glossary.md").read_text(encoding="utf-8")


def glossary_word(locale: str, term: str) -> str:
    found = re.search(rf"^\| {re.escape(term)} \| ([^|]+?) \|", glossary(locale), re.MULTILINE)
    assert found, f"{locale}: glossary.md has no row for {term!r}"
    return found.group(1).strip()


# --------------------------------------------------------------------------------------------- Japanese


def test_japanese_uses_full_width_sentence_punctuation() -> None:
    """No ASCII ". ", ", ", ": " or brackets in Japanese sentences (notation in code spans is exempt; a
    placeholder counts as a Japanese word, since a role or a name in a Japanese sentence is one)."""
    ascii_punctuation = re.compile(rf"[{KANA}][.,:]|[.,:]\s*[{KANA}]|[{KANA}]\s*\(|\)\s*[{KANA}]")
    for message in messages("ja"):
        for text in forms(message.string):
            if not re.search(f"[{KANA}]", text):
                continue
            shown = FIELD.sub("字", CODE.sub(" ", text))
            assert not ascii_punctuation.search(shown), f"{message.id!r} -> {text!r}"


def test_japanese_lists_of_players_take_no_honorific() -> None:
    """さん follows one person's name, never a list ("alice と bob さん")."""
    lists = r"\{(waiting|players|winners|losers|names|members|others)\}\s*さん"
    for message in messages("ja"):
        for text in forms(message.string):
            assert not re.search(lists, text), f"{message.id!r} -> {text!r}"


def test_japanese_roles_sit_next_to_their_particles() -> None:
    """A seat's role or colour is a Japanese word: no space between it and its particle ("調整役が")."""
    roles = r"\{(?:seat_name|who|previous|owner|role|seat|leader)\}"
    for message in messages("ja"):
        for text in forms(message.string):
            assert not re.search(rf"{roles} [{KANA}]|[{KANA}] {roles}", text), f"{message.id!r} -> {text!r}"


# --------------------------------------------------------------------------------------------- plurals


COUNTED = re.compile(r"\{(count|n)\} (?:[a-z]+ )?[a-z]+s\b")
ALWAYS_PLURAL = {
    "{game} is for at most {count} players: tap fewer people.",  # a game's most seats, two or more
    "{game} needs {count} players or more: tap more people.",  # a game's fewest seats, past two
    "{count} stones of one player on a colour collect it",  # the rule's constant six
    "Board {board}: {count} playable cells",  # a board has dozens
    "You already have {count} open challenges. Wait for answers, or withdraw one first.",  # the limit, 5
    "This channel already has {count} open challenges. Answer or withdraw some first.",  # the limit, 10
    "You already host {count} open lobbies. Start or leave one first.",  # the limit, 2
    "This channel already has {count} open lobbies. Join one of them, or start one first.",  # the limit, 5
}
"""Counts that are never one."""


def test_every_counted_noun_has_plural_forms() -> None:
    """A number before a noun is a plural message (ngettext), so no language says "1 cells" or "1 tours"."""
    for message in template():
        if not message.id or isinstance(message.id, tuple) or message.id in ALWAYS_PLURAL:
            continue
        assert not COUNTED.search(message.id), f"{message.id!r} needs ngettext (one and other forms)"


def test_the_plural_check_catches_a_count_without_forms() -> None:
    assert COUNTED.search("{count} cells")
    assert COUNTED.search("{count} playable cells")
    assert not COUNTED.search("Move cap: {count} of {goal} moves")


# --------------------------------------------------------------------------------------------- glossary


def stem(word: str) -> str:
    """The part of a glossary word its inflections keep ("posto" -> "post" for "posti")."""
    return word if len(word) <= 4 else word[:-1]


@pytest.mark.parametrize("locale", TRANSLATED)
@pytest.mark.parametrize(
    ("term", "english"),
    [
        ("seat", re.compile(r"\bseats?\b(?<!swap seats)", re.IGNORECASE)),
        ("Chooser", re.compile(r"\bchooser\b", re.IGNORECASE)),
        ("Balancer", re.compile(r"\bbalancer\b", re.IGNORECASE)),
    ],
)
def test_the_glossary_word_is_used_wherever_the_english_has_the_term(
    locale: str, term: str, english: re.Pattern[str]
) -> None:
    """'seat' is the glossary's word for a place in the turn order, never a ranking's "first place"."""
    word = stem(glossary_word(locale, term)).casefold()
    for message in messages(locale):
        source = FIELD.sub("", forms(message.id)[-1])
        if not english.search(source) or "pie rule" in source:
            continue
        for text in forms(message.string):
            assert word in text.casefold(), f"{locale}: {term} -> {word!r} missing in {text!r}"


@pytest.mark.parametrize("locale", TRANSLATED)
def test_command_names_follow_the_glossary_and_one_form(locale: str) -> None:
    """The glossary's command table is the catalog's, and every action command has the same form
    (all imperatives, all infinitives or all nouns)."""
    table = glossary(locale).partition("## Command names")[2]
    rows = re.findall(r"^\| ([a-z]+) \| ([^|]+?) \| (imperative|infinitive|noun) \|$", table, re.MULTILINE)
    tr = tr_for(locale)
    listed = {command: (name, form) for command, name, form in rows}
    top = top_level_commands()
    assert top <= set(listed), f"{locale}: glossary.md lacks {top - set(listed)}"
    for command, (name, _) in listed.items():
        assert tr.pgettext(COMMAND_CONTEXT, command) == name, f"{locale}: /{command} is not {name!r}"
    action_forms = {listed[command][1] for command in ACTIONS}
    assert len(action_forms) == 1, f"{locale}: action commands mix forms {action_forms}"


def top_level_commands() -> set[str]:
    """The English names of the cogs' slash commands."""
    names = set()
    for extension in EXTENSIONS:
        module = importlib.import_module(extension)
        for _, cog in inspect.getmembers(module, inspect.isclass):
            if issubclass(cog, ext.Cog) and cog.__module__ == module.__name__:
                names.update(command.name for command in cog.__cog_app_commands__)
    return names


# ------------------------------------------------------------------------------------------- notation


def option_helps() -> set[str]:
    """Option help lines: autocomplete text, where listing the values a player may type is the point."""
    helps = {"{help}: challenger, opponent or random", "{name}= ({help}; default {default})"}
    for rules in games.GAMES.values():
        for option in [*rules.options, *match_options(rules)]:
            helps.add(getattr(option.help, "template", option.help))
    return helps


@pytest.mark.parametrize("locale", TRANSLATED)
def test_notation_stands_in_code_never_as_a_word_of_a_sentence(locale: str) -> None:
    """A reply says the action in words and gives what to type in code ("terminez (`done`)"); images (the
    renderer's texts) carry no notation words at all. Command descriptions and option help are plain text
    in Discord's picker and autocomplete, where examples of what to type are the point: they are exempt."""
    descriptions = {m for m, context, _ in command_messages() if context is None}
    images = set(TEXTS.values())
    exempt = option_helps() | descriptions
    for message in messages(locale):
        english = forms(message.id)[0]
        if english in exempt:
            continue
        for text in forms(message.string):
            where = text if english in images else CODE.sub(" ", text)
            found = NOTATION.search(FIELD.sub(" ", where))
            assert found is None, f"{locale}: {found and found.group()!r} in {text!r}"


@pytest.mark.parametrize("locale", TRANSLATED)
def test_descriptions_name_commands_in_their_language(locale: str) -> None:
    """A command description (Discord's picker has no mentions) names a command as this language does."""
    tr = tr_for(locale)
    for message, context, _ in command_messages():
        if context is not None or not isinstance(message, str):
            continue
        for command in re.findall(r"(?<![\w{])/([a-z]+)", message):
            assert f"/{tr.pgettext(COMMAND_CONTEXT, command)}" in tr(message), f"{locale}: {tr(message)!r}"
