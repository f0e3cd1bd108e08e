"""A game's words in every language: its own catalog (`GamePlugin.catalog`) is what its package marks and
keeps the placeholders of the English, and its summary and seat roles are translated. A message not
translated yet is no failure: the bot shows it in English (bot/i18n), and these checks say so with a
warning (`UntranslatedWarning`), so an author sees what is left."""

from __future__ import annotations

import re
import warnings
from string import Formatter

import pytest
from babel.messages.pofile import read_po

import games
from bot.i18n import SOURCE_LOCALE, tr_for
from bot.i18n.__main__ import game_template
from bot.service.guilds import LOCALES

TRANSLATED = [locale for locale in LOCALES if locale != SOURCE_LOCALE]


class UntranslatedWarning(UserWarning):
    """Words of a game that some language does not translate yet (they show in English)."""


def fields(text: str) -> set[tuple[str, str | None]]:
    """The placeholders of a brace-format text, with their conversions ({text!r})."""
    return {(name, conversion) for _, name, _, conversion in Formatter().parse(text) if name is not None}


def test_the_games_own_catalog_is_its_packages_words_with_the_english_placeholders(game_id: str) -> None:
    """Its template lists what its package marks (`python -m bot.i18n update <game id>` keeps it), every
    language has a file, and each translation keeps the English placeholders."""
    game_catalog = games.plugin(game_id).catalog
    if game_catalog is None:
        pytest.skip(f"{game_id} has no catalog of its own: its words are looked up in the bot's")
    source = game_template(game_catalog)
    wanted = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in source if m.id}
    assert game_catalog.template.exists(), f"run python -m bot.i18n update {game_id}"
    with game_catalog.template.open("rb") as pot:
        stored = read_po(pot, domain=game_catalog.domain)
    assert {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in stored if m.id} == wanted, (
        f"run python -m bot.i18n update {game_id}"
    )
    lacking: dict[str, int] = {}
    for locale in TRANSLATED:
        path = game_catalog.path(locale)
        assert path.exists(), f"{path}: run python -m bot.i18n update {game_id}"
        with path.open("rb") as po:
            ours = read_po(po, locale=locale, domain=game_catalog.domain)
        for message in source:
            if not message.id:
                continue
            found = ours.get(message.id, message.context)
            strings = found.string if found is not None else ""
            texts = strings if isinstance(strings, tuple) else (strings,)
            if not all(texts) or (found is not None and found.fuzzy):
                lacking[locale] = lacking.get(locale, 0) + 1
                continue
            english = message.id if isinstance(message.id, str) else message.id[-1]
            for text in texts:
                assert fields(str(text)) == fields(str(english)), (locale, message.id, text)
    if lacking:
        counts = ", ".join(f"{locale} {count}" for locale, count in lacking.items())
        warnings.warn(
            UntranslatedWarning(f"{game_id}: untranslated messages by language: {counts}"), stacklevel=1
        )


def test_the_games_words_are_translated_in_every_language(game_id: str) -> None:
    """The game's summary and its seat roles have a translation (its own catalog or the bot's) in every
    language; what has none is named in a warning."""
    rules = games.get(game_id)
    state = rules.new(min(rules.seats), {}, 1)
    missing = []
    for locale in TRANSLATED:
        tr = tr_for(locale)
        if tr(rules.summary) == rules.summary:
            missing.append(f"{locale}: the summary")
        role = rules.seat_label(state, 0)
        if tr.text(role) == str(role) and re.search("[A-Za-z]{3}", str(role)):
            missing.append(f"{locale}: {role}")
    if missing:
        warnings.warn(UntranslatedWarning(f"{game_id}: not translated: {'; '.join(missing)}"), stacklevel=1)
