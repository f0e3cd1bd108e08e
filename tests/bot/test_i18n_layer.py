"""The translation layer: `Text` from the pure layers, `Tr` for one language, the choice of language, and the
command translator."""

from __future__ import annotations

import pickle
import types
from typing import Any

import discord
import pytest
from discord import app_commands

import games
from bot.i18n import ENGLISH, CommandTranslator, catalog_locale, for_locale, guild_locale, tr_for
from bot.looks import Looks
from bot.replies import UserError, player_message
from bot.service.errors import ChallengeClosed, NotSeated, NotYourTurnError
from bot.service.records import ChallengeStatus
from games.base import MoveError
from games.texts import Text, translate

FR, JA, PL = tr_for("fr"), tr_for("ja"), tr_for("pl")


def test_a_text_is_its_english_sentence_and_translates_with_its_values() -> None:
    role = Text("Black")
    text = Text("{seat_name} has no placement and passes", seat_name=role)
    assert text == "Black has no placement and passes" and isinstance(text, str)
    assert FR.text(text) == "Noir n'a aucune pose et passe"
    assert JA.text(text) == "黒は置ける場所がなくパス"
    assert ENGLISH.text(text) == text
    assert FR.text("d4") == "d4"  # data is not translated
    assert translate(7, FR.translations) == 7


def test_plural_texts_follow_each_languages_rules() -> None:
    english = [
        Text.ngettext(" and captures {n} cell", " and captures {n} cells", n, n=n) for n in (1, 2, 5, 22)
    ]
    assert english == [
        " and captures 1 cell",
        " and captures 2 cells",
        " and captures 5 cells",
        " and captures 22 cells",
    ]
    assert [PL.text(t) for t in english] == [
        " i zdobywa 1 pole",
        " i zdobywa 2 pola",
        " i zdobywa 5 pól",
        " i zdobywa 22 pola",
    ]
    assert [FR.text(t) for t in english[:2]] == [" et capture 1 cellule", " et capture 2 cellules"]
    assert JA.ngettext("{count} move", "{count} moves", 3, count=3) == "3手"


def test_a_text_keeps_its_template_through_pickle_and_concatenation() -> None:
    text = Text.concat(Text("{seat} {move}", seat=Text("White"), move="c1-c3"), ", ", Text("Draw"))
    assert text == "White c1-c3, Draw"
    copy = pickle.loads(pickle.dumps(text))
    assert copy == text and FR.text(copy) == "Blanc c1-c3, Nulle"
    plural = pickle.loads(pickle.dumps(Text.ngettext("{count} colour", "{count} colours", 2, count=2)))
    assert FR.text(plural) == "2 couleurs"


def test_errors_are_worded_in_the_players_language() -> None:
    not_seated = FR.error(NotSeated(match_id=3))
    assert not_seated == "Vous ne jouez pas dans la partie n°3. Lancez la vôtre avec /défier."
    assert JA.error(NotYourTurnError(user_id=42)) == "今は <@42> さんの手番で、あなたの手番ではありません。"
    rules = games.get("paintscape")
    state = rules.new(2, {}, 1)
    with pytest.raises(MoveError) as caught:
        rules.parse(state, "z9")
    assert str(caught.value) == "z9 is off the board (files a-h, ranks 1-8)"
    assert FR.error(caught.value) == "z9 est hors du plateau (colonnes a-h, rangées 1-8)"
    assert JA.error(caught.value) == "z9 は盤の外です（列 a-h、段 1-8）"
    with pytest.raises(MoveError) as caught:
        rules.parse(state, "swap 9 c3")
    assert player_message(caught.value, FR) == "'9' n'est pas une case ; une case s'écrit comme a1 ou d4"
    closed = ChallengeClosed(status=ChallengeStatus.DECLINED)
    assert str(closed) == "That challenge was already declined. Send a new one with /play."
    assert FR.error(closed) == "Ce défi est déjà clos (refusé). Envoyez-en un nouveau avec /défier."
    assert player_message(UserError(Text("Choose a game")), JA) == "ゲームを選んでください"
    assert player_message(UserError("already worded"), JA) == "Already worded"


@pytest.mark.parametrize(
    ("locale", "catalog"),
    [
        ("fr", "fr"),
        ("ja", "ja"),
        ("pt-BR", "pt_BR"),
        ("es-ES", "es"),
        ("es-419", "es"),
        ("en-GB", "en"),
        ("ko", "en"),
        (None, "en"),
        (discord.Locale.polish, "pl"),
        (discord.Locale.german, "de"),
        (discord.Locale.italian, "it"),
    ],
)
def test_discord_locales_map_to_catalogs(locale: Any, catalog: str) -> None:
    assert catalog_locale(locale) == catalog
    assert for_locale(locale).locale == catalog


def test_the_guild_choice_wins_over_the_discord_server_locale() -> None:
    assert guild_locale("ja", discord.Locale.french).locale == "ja"
    assert guild_locale(None, discord.Locale.french).locale == "fr"
    assert guild_locale(None, None).locale == "en"
    assert guild_locale("xx", "de").locale == "de"


def _context(location: app_commands.TranslationContextLocation, data: Any) -> Any:
    return app_commands.TranslationContext(location=location, data=data)


async def test_the_command_translator_uses_the_catalogs() -> None:
    translator = CommandTranslator()
    command = app_commands.Command(name="play", description="Which game", callback=_noop)
    name = _context(app_commands.TranslationContextLocation.command_name, command)
    description = _context(app_commands.TranslationContextLocation.command_description, command)
    play = app_commands.locale_str("play")
    assert await translator.translate(play, discord.Locale.french, name) == "défier"
    assert await translator.translate(play, discord.Locale.japanese, name) == "対戦"
    assert await translator.translate(
        app_commands.locale_str("Which game"), discord.Locale.german, description
    ) == ("Welches Spiel")
    assert await translator.translate(play, discord.Locale.american_english, name) is None
    assert await translator.translate(play, discord.Locale.korean, name) is None
    unknown = app_commands.locale_str("not a message of ours")
    assert await translator.translate(unknown, discord.Locale.french, description) is None
    menu = app_commands.ContextMenu(name="Challenge to a game", callback=_menu)
    menu_name = _context(app_commands.TranslationContextLocation.command_name, menu)
    label = app_commands.locale_str("Challenge to a game")
    assert await translator.translate(label, discord.Locale.french, menu_name) == "Lancer un défi"


async def _noop(interaction: discord.Interaction[Any]) -> None:
    """A command callback for the translator test."""


async def _menu(interaction: discord.Interaction[Any], member: discord.Member) -> None:
    """A user menu callback for the translator test."""


class _Guilds:
    def __init__(self, locale: str | None) -> None:
        self.locale = locale

    async def settings(self, guild_id: int) -> Any:
        return types.SimpleNamespace(locale=self.locale)


def _looks(cached: discord.Locale | None, chosen: str | None) -> Looks:
    """The looks of a bot that has the guild cached with locale `cached` (None: not cached) and whose server
    chose `chosen` with /settings."""
    guild = types.SimpleNamespace(preferred_locale=cached) if cached is not None else None
    client = types.SimpleNamespace(get_guild=lambda guild_id: guild)
    service = types.SimpleNamespace(guilds=_Guilds(chosen))
    return Looks(service, client)  # type: ignore[arg-type]


async def test_public_messages_use_the_servers_choice_then_its_discord_language() -> None:
    assert (await _looks(discord.Locale.french, None).public_tr(1)).locale == "fr"
    assert (await _looks(discord.Locale.french, "ja").public_tr(1)).locale == "ja"
    assert (await _looks(None, None).public_tr(1, discord.Locale.polish)).locale == "pl"
    assert (await _looks(discord.Locale.german, None).public_tr(1, discord.Locale.polish)).locale == "de"
    assert (await _looks(None, None).public_tr(1)).locale == "en"
    assert (await _looks(discord.Locale.french, "ja").public_tr(None)).locale == "en"
