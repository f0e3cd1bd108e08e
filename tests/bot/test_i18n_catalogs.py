"""The catalogs: the template holds every message of the source, every language translates every message
with the placeholders of the English and the plural forms of its language, command names stay valid
Discord names, and each language has its glossary."""

from __future__ import annotations

import gettext
import importlib
import inspect
import logging
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from string import Formatter

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po, write_po
from discord import app_commands
from discord.ext import commands as ext

import games
from bot.extensions import EXTENSIONS
from bot.i18n import (
    COMMAND_CONTEXT,
    DISCORD_LOCALES,
    DOMAIN,
    LOCALE_DIR,
    catalog_path,
    game_catalogs,
    tr_for,
    translations,
)
from bot.i18n.__main__ import TEMPLATE, command_messages, game_template, main, template, update_catalogs
from bot.service.guilds import LOCALES
from cogs.admin import LANGUAGE_NAMES
from games.plugins import Catalog as GameCatalog
from games.texts import Text

TRANSLATED = [locale for locale in LOCALES if locale != "en"]


@pytest.fixture(scope="module")
def source() -> Catalog:
    """Every message in the source now (extracted as `python -m bot.i18n update` does)."""
    return template()


def catalog(locale: str) -> Catalog:
    with catalog_path(locale).open("rb") as po:
        return read_po(po, locale=locale, domain=DOMAIN)


def keys(messages: Catalog) -> set[tuple[str, str | None]]:
    return {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in messages if m.id}


def fields(text: str) -> set[tuple[str, str | None]]:
    """The placeholders of a brace-format text, with their conversions ({text!r})."""
    return {(name, conversion) for _, name, _, conversion in Formatter().parse(text) if name is not None}


def test_the_template_is_up_to_date_with_the_source(source: Catalog) -> None:
    with TEMPLATE.open("rb") as pot:
        stored = read_po(pot, domain=DOMAIN)
    assert keys(stored) == keys(source), "run python -m bot.i18n update"
    assert len(keys(source)) > 500


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_message_is_translated_in_every_catalog(source: Catalog, locale: str) -> None:
    ours = catalog(locale)
    for message in source:
        if not message.id:
            continue
        found = ours.get(message.id if isinstance(message.id, str) else message.id[0], message.context)
        assert found is not None, f"{locale}: {message.id!r} is missing"
        assert not found.fuzzy, f"{locale}: {message.id!r} is fuzzy"
        strings = found.string if isinstance(found.string, tuple) else (found.string,)
        assert all(strings), f"{locale}: {message.id!r} is not translated"
        if isinstance(message.id, tuple):
            assert len(strings) == ours.num_plurals, (
                f"{locale}: {message.id!r} needs {ours.num_plurals} forms"
            )


@pytest.mark.parametrize("locale", TRANSLATED)
def test_translations_keep_the_placeholders_of_the_english(locale: str) -> None:
    for message in catalog(locale):
        if not message.id:
            continue
        assert_same_placeholders(locale, message)


def assert_same_placeholders(locale: str, message: Message) -> None:
    if isinstance(message.id, str):
        assert fields(message.string) == fields(message.id), f"{locale}: {message.id!r} -> {message.string!r}"
        return
    singular, plural = message.id
    allowed = fields(singular) | fields(plural)
    forms = message.string
    for form in forms:  # a language's "one" form may spell the number out, never add a placeholder
        assert fields(form) <= allowed, f"{locale}: {plural!r} -> {form!r}"
    assert fields(forms[-1]) == fields(plural), f"{locale}: {plural!r} -> {forms[-1]!r}"


def test_the_placeholder_check_catches_a_renamed_placeholder() -> None:
    with pytest.raises(AssertionError):
        assert_same_placeholders("fr", Message("Match #{match_id} is over.", "La partie n°{id} est finie."))
    with pytest.raises(AssertionError):
        assert_same_placeholders("fr", Message("{text!r} is not a move", "{text} n'est pas un coup"))
    with pytest.raises(AssertionError):
        assert_same_placeholders(
            "pl", Message(("{count} move", "{count} moves"), ("{n} ruch", "ruchy", "{n}"))
        )


@pytest.mark.parametrize("locale", TRANSLATED)
def test_command_and_option_names_stay_valid_and_distinct(locale: str) -> None:
    """Discord's rule for names: 1-32 lowercase letters, digits, - or _; no two options of a command, and no
    two commands, with one name."""
    tr = tr_for(locale)
    for message, context, _ in command_messages():
        if context != COMMAND_CONTEXT:
            continue
        assert isinstance(message, str)
        name = tr.pgettext(COMMAND_CONTEXT, message)
        assert 1 <= len(name) <= 32 and name == name.lower(), f"{locale}: {name!r}"
        assert all(ch.isalnum() or ch in "-_" for ch in name), f"{locale}: {name!r}"
    names_by_command = _translated_names(locale)
    top = [command for command, _ in names_by_command]
    assert len(set(top)) == len(top), f"{locale}: two commands share a name: {top}"
    for command, options in names_by_command:
        assert len(set(options)) == len(options), (
            f"{locale}: /{command} has two options named alike: {options}"
        )


@pytest.mark.parametrize("locale", TRANSLATED)
def test_command_descriptions_and_choices_fit_discords_limit(locale: str) -> None:
    """Discord refuses a command sync with a description or a choice name over 100 characters."""
    tr = tr_for(locale)
    for message, context, _ in command_messages():
        if context is None:
            assert isinstance(message, str)
            assert len(tr(message)) <= 100, f"{locale}: {tr(message)!r} is over 100 characters"


def _translated_names(locale: str) -> list[tuple[str, list[str]]]:
    """(command name, its option names) in `locale`, for every slash command of the cogs."""
    tr = tr_for(locale)
    found = []
    for extension in EXTENSIONS:
        module = importlib.import_module(extension)
        for _, cog in inspect.getmembers(module, inspect.isclass):
            if issubclass(cog, ext.Cog) and cog.__module__ == module.__name__:
                for command in cog.__cog_app_commands__:
                    group = command if isinstance(command, app_commands.Group) else None
                    for leaf in group.commands if group is not None else [command]:  # /tournament create
                        assert isinstance(leaf, app_commands.Command)
                        options = [tr.pgettext(COMMAND_CONTEXT, p.name) for p in leaf.parameters]
                        name = tr.pgettext(COMMAND_CONTEXT, leaf.name)
                        if group is not None:
                            name = f"{tr.pgettext(COMMAND_CONTEXT, group.name)} {name}"
                        found.append((name, options))
    assert len(found) >= 15
    return found


def test_each_language_has_a_catalog_a_glossary_a_name_and_a_discord_locale() -> None:
    assert set(LANGUAGE_NAMES) == set(LOCALES)
    assert set(DISCORD_LOCALES.values()) == set(LOCALES)
    for locale in TRANSLATED:
        assert catalog_path(locale).is_file()
        glossary = (LOCALE_DIR / locale / "glossary.md").read_text(encoding="utf-8")
        assert "stone" in glossary and "takeback" in glossary and "territory" in glossary


@pytest.mark.parametrize("locale", TRANSLATED)
def test_catalogs_compile_without_a_build_step(locale: str) -> None:
    compiled = translations(locale)
    assert isinstance(compiled, gettext.NullTranslations)
    assert compiled.gettext("The match begins.") != "The match begins."
    assert compiled.ngettext("{count} move", "{count} moves", 5) != "{count} moves"


# ------------------------------------------------------------------------------------- games' own catalogs

GAME_CATALOGS = game_catalogs()
ROOT = Path(__file__).resolve().parents[2]
OWN_GAME_CATALOGS = [c for c in GAME_CATALOGS if ROOT in c.directory.resolve().parents]
"""The catalogs of the game packages in this project (examples/). A game package from elsewhere may ship
a partial catalog: the kit's check (bot/testing/checks/words.py) warns, the bot shows the rest in English."""


@pytest.mark.parametrize("game_catalog", OWN_GAME_CATALOGS, ids=lambda c: c.domain)
def test_the_projects_own_game_packages_ship_complete_catalogs_with_the_english_placeholders(
    game_catalog: GameCatalog,
) -> None:
    """A game package of this project (examples/): its template is what its package marks, and every
    language translates every message, keeping the placeholders."""
    source = game_template(game_catalog)
    with game_catalog.template.open("rb") as pot:
        assert keys(read_po(pot, domain=game_catalog.domain)) == keys(source), "run python -m bot.i18n update"
    for locale in TRANSLATED:
        with game_catalog.path(locale).open("rb") as po:
            ours = read_po(po, locale=locale, domain=game_catalog.domain)
        for message in source:
            if not message.id:
                continue
            found = ours.get(message.id, message.context)
            assert found is not None and found.string and not found.fuzzy, (locale, message.id)
            assert fields(found.string) == fields(message.id), (locale, message.id)


@pytest.mark.parametrize("game_catalog", GAME_CATALOGS, ids=lambda c: c.domain)
def test_the_translator_answers_each_games_own_messages_from_its_catalog(game_catalog: GameCatalog) -> None:
    """The bot's translator answers a game's own message from the game's catalog, and the bot's messages
    from the bot's catalog."""
    with game_catalog.path("de").open("rb") as po:
        ours = read_po(po, locale="de", domain=game_catalog.domain)
    message = next(m for m in ours if m.id and m.id not in {m.id for m in catalog("de") if m.id})
    assert translations("de").gettext(message.id) == message.string
    assert tr_for("de")("Draw") == catalog("de").get("Draw").string


def write_catalog(path: Path, locale: str | None, entries: dict[str, str]) -> None:
    made = Catalog(locale=locale, domain="tessera_fake", project="Tessera", fuzzy=False)
    for message, string in entries.items():
        made.add(message, string)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        write_po(out, made, omit_header=False)


@pytest.fixture
def fake_game_catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GameCatalog]:
    """A game's own catalog, partial in German and without French: it owns "Draw" (the bot's catalog has it
    too, worded its own way), "Checkmate" (translated) and "Stalemate" (not), "The match begins." (the
    bot's too; untranslated here); it belongs to the first registered game."""
    made = GameCatalog("tessera_fake", tmp_path / "locales", tmp_path)
    owned = {"Draw": "", "Checkmate": "", "Stalemate": "", "The match begins.": ""}
    write_catalog(made.template, None, owned)
    german = {**owned, "Draw": "Remis (unser Wort)", "Checkmate": "Schachmatt"}
    write_catalog(made.path("de"), "de", german)
    game = games.GAME_IDS[0]
    monkeypatch.setitem(games.PLUGINS, game, replace(games.plugin(game), catalog=made))
    translations.cache_clear()
    tr_for.cache_clear()
    yield made
    translations.cache_clear()
    tr_for.cache_clear()


def test_a_games_own_catalog_words_its_own_messages_first_and_a_partial_one_falls_back_with_a_warning(
    fake_game_catalog: GameCatalog, caplog: pytest.LogCaptureFixture
) -> None:
    """Its own messages from its own catalog, even where the bot's has the same English; untranslated ones
    as the bot's catalog words them, else English; a warning says how much is missing."""
    with caplog.at_level(logging.WARNING, logger="tessera.i18n"):
        german = translations("de")
    assert german.gettext("Draw") == "Remis (unser Wort)", "the game's own wording, not the bot's"
    assert catalog("de").get("Draw").string != "Remis (unser Wort)"
    assert german.gettext("Checkmate") == "Schachmatt"
    assert german.gettext("Stalemate") == "Stalemate", "untranslated, and not the bot's: English"
    assert german.gettext("The match begins.") == catalog("de").get("The match begins.").string
    assert german.gettext("Resign") == catalog("de").get("Resign").string, "the bot's own messages"
    assert tr_for("de").text(Text("Draw")) == "Remis (unser Wort)"
    warned = [r.getMessage() for r in caplog.records if "tessera_fake" in r.getMessage()]
    assert warned == [
        "tessera_fake's de catalog translates 2 of its 4 messages; the others show in English "
        "(python -m bot.i18n check names them)"
    ]
    with caplog.at_level(logging.WARNING, logger="tessera.i18n"):
        french = translations("fr")
    assert french.gettext("Checkmate") == "Checkmate"
    assert french.gettext("Draw") == catalog("fr").get("Draw").string
    assert any("tessera_fake has no fr catalog" in r.getMessage() for r in caplog.records)


def test_an_update_for_one_game_touches_only_that_games_files(
    fake_game_catalog: GameCatalog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`python -m bot.i18n update <game>`: the game's template and catalogs from its package alone; no
    file of the bot's is written, and a second update writes nothing."""
    (tmp_path / "rules.py").write_text(
        'from games.texts import N_\nEND = N_("Checkmate")\nNEW = N_("Castle")\n'
    )
    bot_files = [TEMPLATE, *(catalog_path(locale) for locale in TRANSLATED)]
    before = {path: path.stat().st_mtime_ns for path in bot_files}
    assert main(["update", games.GAME_IDS[0]]) == 0
    assert {path: path.stat().st_mtime_ns for path in bot_files} == before
    with fake_game_catalog.path("de").open("rb") as po:
        german = read_po(po, locale="de")
    assert {m.id for m in german if m.id} == {"Checkmate", "Castle"}
    assert german.get("Checkmate").string == "Schachmatt" and not german.get("Castle").string
    for locale in TRANSLATED:
        assert fake_game_catalog.path(locale).exists()
    written = {path: path.stat().st_mtime_ns for path in fake_game_catalog.directory.rglob("*.po*")}
    capsys.readouterr()
    assert main(["update", games.GAME_IDS[0]]) == 0
    assert {path: path.stat().st_mtime_ns for path in fake_game_catalog.directory.rglob("*.po*")} == written
    assert "written" not in capsys.readouterr().out
    assert main(["check", games.GAME_IDS[0]]) == 1, "Castle is not translated yet"


def test_an_update_for_a_game_without_its_own_catalog_says_so() -> None:
    without = next(g for g in games.GAME_IDS if games.plugin(g).catalog is None)
    assert main(["update", without]) == 2
    assert main(["update", "chess"]) == 2


def test_update_makes_a_new_game_packages_catalogs_from_its_package_alone(tmp_path: Path) -> None:
    """A game package without catalogs yet: `python -m bot.i18n update` extracts its marked words (and
    nothing of the bot's) into its own template and one catalog per language, ready to translate."""
    package = tmp_path / "tessera_chess"
    package.mkdir()
    (package / "rules.py").write_text(
        "from games.texts import N_, Text\n"
        'NAME = N_("Checkmate")\n'
        'ERROR = Text("{cell} is not a square", cell="z9")\n'
    )
    new = GameCatalog("tessera_chess", package / "locales", package)
    pot = game_template(new)
    assert {m.id for m in pot if m.id} == {"Checkmate", "{cell} is not a square"}
    update_catalogs(pot, new.template, new.path, new.domain)
    assert new.template.exists()
    for locale in TRANSLATED:
        with new.path(locale).open("rb") as po:
            made = read_po(po, locale=locale, domain=new.domain)
        assert {m.id for m in made if m.id} == {"Checkmate", "{cell} is not a square"}
        assert all(not m.string for m in made if m.id), "new messages arrive untranslated"


def test_the_kits_check_of_a_partial_catalog_warns_instead_of_failing(
    fake_game_catalog: GameCatalog, tmp_path: Path
) -> None:
    """A plugin's partial catalog passes the shared checks, with a warning that counts what is left."""
    from bot.testing.checks.words import (
        UntranslatedWarning,
    )
    from bot.testing.checks.words import (
        test_the_games_own_catalog_is_its_packages_words_with_the_english_placeholders as check,
    )

    words = ", ".join(f'N_("{word}")' for word in ("Draw", "Checkmate", "Stalemate", "The match begins."))
    source = f"from games.texts import N_\nWORDS = [{words}]\n"
    (tmp_path / "rules.py").write_text(source)
    assert main(["update", games.GAME_IDS[0]]) == 0
    with pytest.warns(UntranslatedWarning, match=r"fr 4, de 2, es 4, it 4"):
        check(games.GAME_IDS[0])


def test_the_catalogs_module_knows_the_languages_the_service_offers() -> None:
    """bot.catalogs (what a board process imports, without the service) finds the languages by their
    catalog files: the very languages /settings offers."""
    from bot.catalogs import catalog_locales

    assert set(catalog_locales()) == set(LOCALES) and catalog_locales()[0] == "en"
    with pytest.raises(ValueError, match="no catalog for locale 'xx'"):
        translations("xx")
