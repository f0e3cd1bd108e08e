"""Replies name slash commands with Discord's clickable mentions (`</move:ID>`, which each client shows in its
own language), with the ids Discord gave the commands at the sync; before the ids are known, the plain name
in the reader's language ("/jouer")."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest

from bot.i18n import COMMAND_CONTEXT, COMMAND_IDS, ENGLISH, tr_for
from bot.testing.simcord import bot_member, last_board, reply_text, take_user_errors
from games.texts import Text
from tests.bot.test_i18n_flows import club, locales  # noqa: F401  (a fixture)

MENTION = re.compile(r"</([a-z_-]+(?: [a-z_-]+)?):(\d+)>")


def command_id(env: Any, name: str) -> int:
    """The id SimCord's Discord gave the command at the bot's sync."""
    found = env.backend.find_command(name, None)
    assert found is not None, f"/{name} was not synced"
    return int(found["id"])


async def test_a_board_and_an_error_name_commands_with_their_synced_ids(world: Any) -> None:
    alice, channel, env = world.alice, world.channel, world.env
    refused = await alice.slash(channel, "resign")
    assert f"Start one with </play:{command_id(env, 'play')}>." in reply_text(refused)
    take_user_errors(world)

    await alice.slash(channel, "play", game="paint", opponent=bot_member(world), first="challenger")
    board = last_board(channel)
    assert f"Use </move:{command_id(env, 'move')}>" in board.content
    for name, found_id in MENTION.findall(board.content):
        assert int(found_id) == command_id(env, name)


async def test_a_restart_without_a_sync_fetches_the_ids(world: Any, make_bot: Any) -> None:
    env = world.env
    COMMAND_IDS.forget()
    await env.restart_bot(make_bot())  # the commands did not change: no sync, one fetch
    assert COMMAND_IDS.get("move") == command_id(env, "move")
    refused = await world.alice.slash(world.channel, "board")
    assert f"</play:{command_id(env, 'play')}>" in reply_text(refused)
    take_user_errors(world)


async def test_help_mentions_every_command_in_distinct_sections(world: Any) -> None:
    import discord

    shown = await world.alice.slash(world.channel, "help")
    [embed] = shown.response.embeds
    text = "\n".join(f"{f.name}\n{f.value}" for f in embed.fields)
    for command in world.env.bot.tree.get_commands(type=discord.AppCommandType.chat_input):
        assert f"</{command.name}:{command_id(world.env, command.name)}> {command.description}" in text
    titles = [f.name for f in embed.fields]
    assert len(set(titles)) == len(titles), titles
    assert all(len(f.value) <= 1024 for f in embed.fields)


async def test_in_french_the_mention_has_the_same_id_and_the_fallback_is_the_french_name(
    simcord_env: Any,
    locales: dict[int, str],  # noqa: F811
) -> None:
    c = club(simcord_env, locales, "fr", alice="fr", bob="fr")
    refused = await c.alice.slash(c.channel, "resign")
    assert f"</play:{command_id(simcord_env, 'play')}>" in reply_text(refused)
    # an autocomplete choice is plain text: the command by its French name, never a raw mention
    [why] = await c.alice.autocomplete(c.channel, "move", "notation", "")
    assert why["name"].endswith("/" + tr_for("fr").pgettext(COMMAND_CONTEXT, "play") + "."), why

    COMMAND_IDS.forget()  # as before a sync, or when Discord could not be asked
    french_play = tr_for("fr").pgettext(COMMAND_CONTEXT, "play")
    assert french_play != "play"
    refused = await c.alice.slash(c.channel, "resign")
    assert f"/{french_play}" in reply_text(refused) and "</" not in reply_text(refused)
    await c.alice.slash(c.channel, "play", game="paint", opponent=c.bob, first="challenger")
    await c.bob.click(c.channel.history()[-1], label=tr_for("fr")("Accept"))
    board = last_board(c.channel)
    assert f"/{tr_for('fr').pgettext(COMMAND_CONTEXT, 'move')}" in board.content
    assert "/move" not in board.content
    take_user_errors(SimpleNamespace(env=simcord_env))


def test_command_placeholders_in_every_layer() -> None:
    """`{/name}` is the plain English name in English text, the mention once ids are known, and the
    language's own name before."""
    text = Text("the game is over; start a new one with {/play}")
    assert str(text) == "the game is over; start a new one with /play"
    COMMAND_IDS.forget()
    french = tr_for("fr")
    assert french.text(text).endswith("/" + french.pgettext(COMMAND_CONTEXT, "play"))
    COMMAND_IDS.remember([("play", 42), ("prefs", 7)])
    try:
        assert french.text(text).endswith("</play:42>")
        switch = ENGLISH("Switch them on with {/prefs}. {rule}", rule="x")
        assert switch == "Switch them on with </prefs:7>. x"
        assert french.command("prefs theme") == "</prefs theme:7>"
    finally:
        COMMAND_IDS.forget()
    assert ENGLISH.command("prefs theme") == "/prefs theme"


@pytest.mark.parametrize("locale", ["de", "es", "fr", "it", "ja", "pl", "pt_BR"])
def test_no_translation_writes_a_command_name_where_the_english_has_a_placeholder(locale: str) -> None:
    """Translators keep `{/play}`: a reply never names a command in plain text where a mention could go."""
    from babel.messages.pofile import read_po

    from bot.i18n import catalog_path

    with catalog_path(locale).open("rb") as po:
        catalog = read_po(po, locale=locale)
    for message in catalog:
        if not message.id or message.context == COMMAND_CONTEXT:
            continue
        english = message.id if isinstance(message.id, str) else message.id[-1]
        translation = message.string if isinstance(message.string, str) else message.string[-1]
        if "{/" in english:
            assert not re.search(r"(?<![{<\w])/\w", translation), f"{locale}: {translation!r}"
