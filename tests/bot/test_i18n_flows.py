"""Whole matches of each game in French and in Japanese through the real command tree: public messages
(challenges, boards, results, the board image's alt text) in the server's language, ephemeral replies
(errors, confirmations, autocomplete) in the language of the user's Discord client, buttons in the language
of the message they sit on; /settings changes the server's language.

SimCord sends every interaction with locale and guild_locale "en-US"; the `locales` fixture wraps the
payload it builds so that each user's interactions carry that user's locale and the guild's preferred
locale, as Discord sends them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from simcord import interactions

from bot.i18n import tr_for
from bot.replies import player_message
from bot.testing.simcord import boards, bot_member, button_labels, last_board, reply_text, suggestions
from games.ai.analysis import percent
from tests.bot.test_analysis_flows import blunder_match


@pytest.fixture
def locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """User id -> the Discord locale their interactions carry (en-US for anyone not listed)."""
    chosen: dict[int, str] = {}
    original: Callable[..., tuple[Any, dict[str, Any]]] = interactions.base_payload

    def base_payload(backend: Any, **fields: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = original(backend, **fields)
        payload["locale"] = chosen.get(fields["user_id"], "en-US")
        if fields.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(fields["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(interactions, "base_payload", base_payload)
    return chosen


@dataclass
class Club:
    guild: Any
    channel: Any
    alice: Any
    bob: Any


def club(env: Any, locales: dict[int, str], guild_locale: str, *, alice: str, bob: str) -> Club:
    guild = env.create_guild("Club", preferred_locale=guild_locale)
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(name)) for name in ("alice", "bob")]
    locales[members[0].id], locales[members[1].id] = alice, bob
    return Club(guild, channel, *members)


async def challenge(club: Club, game: str, accept: str, **options: Any) -> tuple[str, list[str]]:
    """/play against Bob, who accepts with the button labelled `accept`; the challenge's text and buttons."""
    result = await club.alice.slash(
        club.channel, "play", game=game, opponent=club.bob, first="challenger", **options
    )
    assert result.response is not None and not result.ephemeral
    text, labels = result.response.content, button_labels(result.response)
    await club.bob.click(result.response, label=accept)
    return text, labels


def user_errors(env: Any) -> list[BaseException]:
    """The errors the bot raised so far, each one a user's mistake (reading them acknowledges them)."""
    errors = list(env.errors)
    assert all(player_message(error) is not None for error in errors), errors
    return errors


async def autocomplete_names(actor: Any, channel: Any) -> list[str]:
    return [choice["name"] for choice in await actor.autocomplete(channel, "move", "notation", "")]


async def test_paintscape_in_french(simcord_env: Any, locales: dict[int, str]) -> None:
    c = club(simcord_env, locales, "fr", alice="fr", bob="fr")
    text, labels = await challenge(c, "paintscape", accept="Accepter")
    assert "vous défie à **Paintscape**" in text and "Acceptez ou refusez" in text
    assert labels == ["Accepter", "Refuser", "Retirer"]

    board = last_board(c.channel)
    assert f"<@{c.alice.id}>, à vous de jouer (Équilibreur)" in board.content
    assert "partie n°" in board.content and "Coup 1" in board.content
    assert board.attachments[0].description.startswith(
        "Plateau de Paintscape. Coup 1 · alice (Équilibreur) joue"
    )
    assert "Fin des échanges" in button_labels(board)

    swap = (await suggestions(c.alice, c.channel, "swap"))[0]
    await c.alice.slash(c.channel, "move", notation=swap)
    board = last_board(c.channel)
    assert "Équilibreur échange la pierre en" in board.content
    await c.alice.click(board, label="Fin des échanges")
    board = last_board(c.channel)
    assert "Équilibreur a fini d'échanger (1 échange)" in board.content
    assert {"Jouer Noir (en premier)", "Jouer Blanc (en second)"} <= set(button_labels(board))
    await c.bob.click(board, label="Jouer Noir (en premier)")
    board = last_board(c.channel)
    assert f"<@{c.bob.id}>, à vous de jouer (Noir)" in board.content

    # Out of turn: the autocomplete and the refusal speak the user's language.
    assert await autocomplete_names(c.alice, c.channel) == [f"Pas votre tour : on attend {c.bob.name}."]
    refused = await c.alice.slash(c.channel, "move", notation="a1")
    assert refused.ephemeral and refused.response.content == f"C'est au tour de <@{c.bob.id}>, pas au vôtre."
    assert len(user_errors(simcord_env)) == 1

    movers = [c.bob, c.alice]
    for turn in range(4):
        move = (await suggestions(movers[turn % 2], c.channel))[0]
        await movers[turn % 2].slash(c.channel, "move", notation=move)
        board = last_board(c.channel)
        assert move in board.content and "joue" in board.attachments[0].description

    question = await c.bob.slash(c.channel, "resign")
    assert question.ephemeral and "C'est irréversible." in question.response.content
    await c.bob.click(question.response, label="Oui, abandonner")
    final = last_board(c.channel)
    assert f"<@{c.bob.id}> a abandonné. **<@{c.alice.id}> gagne par abandon.**" in final.content
    assert "première partie classée" in final.content
    assert "alice gagne par abandon" in final.attachments[0].description
    assert button_labels(final) == ["Revoir", "Analyser", "Revanche"]


async def test_paintscape_in_japanese_for_a_japanese_server(
    simcord_env: Any, locales: dict[int, str]
) -> None:
    c = club(simcord_env, locales, "ja", alice="ja", bob="ja")
    text, labels = await challenge(c, "paintscape", accept="受ける")
    assert "**Paintscape** の挑戦です" in text and labels == ["受ける", "断る", "取り下げる"]
    board = last_board(c.channel)
    assert f"<@{c.alice.id}> さん、調整役の手番です。" in board.content and "1手目" in board.content
    assert board.attachments[0].description.startswith("Paintscape の盤面。1手目")
    await c.alice.click(board, label="入れ替え終了")
    board = last_board(c.channel)
    assert "調整役が入れ替えを終了（0回）" in board.content
    await c.bob.click(board, label="白を持つ（後手）")
    board = last_board(c.channel)
    assert f"<@{c.alice.id}> さん、黒の手番です。" in board.content
    movers = [c.alice, c.bob]
    for turn in range(4):
        move = (await suggestions(movers[turn % 2], c.channel))[0]
        await movers[turn % 2].slash(c.channel, "move", notation=move)
    question = await c.alice.slash(c.channel, "resign")
    assert question.response.content.endswith("で投了しますか？ 取り消せません。")
    await c.alice.click(question.response, label="はい、投了します")
    final = last_board(c.channel)
    assert f"<@{c.alice.id}> が投了しました。**<@{c.bob.id}> の勝ち（投了）.**" in final.content
    assert button_labels(final) == ["リプレイ", "分析", "再戦"]
    replay = await c.bob.click(final, label="リプレイ")
    assert (
        replay.response.content.startswith("対局 #") and "のリプレイ（Paintscape、" in replay.response.content
    )
    assert replay.response.attachments[0].description == "リプレイ"


@pytest.mark.parametrize(
    ("guild_locale", "accept", "turn", "wins", "alt"),
    [
        (
            "fr",
            "Accepter",
            "à vous de jouer (Blanc)",
            "gagne en gardant la tête",
            "Plateau de Paint.",
        ),
        ("ja", "受ける", "白の手番です", "の勝ち（リード維持）", "Paint の盤面。"),
    ],
)
async def test_paint_to_its_natural_end(
    simcord_env: Any, locales: dict[int, str], guild_locale: str, accept: str, turn: str, wins: str, alt: str
) -> None:
    c = club(simcord_env, locales, guild_locale, alice=guild_locale, bob=guild_locale)
    await challenge(c, "paint", accept=accept, options="lead_turns=2")
    board = last_board(c.channel)
    assert turn in board.content and board.attachments[0].description.startswith(alt)
    await c.alice.slash(c.channel, "move", notation="c1-c3")
    await c.bob.slash(c.channel, "move", notation="b9-b8")
    final = last_board(c.channel)
    assert f"**<@{c.alice.id}> {wins}" in final.content
    assert final.attachments[0].description.startswith(alt)


@pytest.mark.parametrize(
    ("guild_locale", "accept", "pass_label", "scores", "pieces", "pieces_alt"),
    [
        (
            "fr",
            "Accepter",
            "Passer",
            "gagne aux points",
            "Vos pièces dans la partie n°",
            "Vos pièces restantes",
        ),
        ("ja", "受ける", "パス", "の得点勝ち", "のあなたのピース：", "残りのピース"),
    ],
)
async def test_tilingking_to_its_natural_end(
    simcord_env: Any,
    locales: dict[int, str],
    guild_locale: str,
    accept: str,
    pass_label: str,
    scores: str,
    pieces: str,
    pieces_alt: str,
) -> None:
    c = club(simcord_env, locales, guild_locale, alice=guild_locale, bob=guild_locale)
    await challenge(c, "tilingking", accept=accept, options="board=sq9")
    board = last_board(c.channel)
    assert pass_label in button_labels(board)
    shown = await c.alice.slash(c.channel, "pieces")
    assert shown.ephemeral and pieces in shown.response.content
    assert shown.response.attachments[0].description == pieces_alt
    placement = (await suggestions(c.alice, c.channel, "a1"))[0]
    await c.alice.slash(c.channel, "move", notation=placement)
    board = last_board(c.channel)
    await c.bob.click(board, label=pass_label)
    await c.alice.slash(c.channel, "pass")
    final = last_board(c.channel)
    assert f"**<@{c.alice.id}> {scores}" in final.content


async def test_replies_follow_the_user_and_boards_follow_the_server(
    simcord_env: Any, locales: dict[int, str]
) -> None:
    """A French server with a Japanese player: her private replies are Japanese, the public board French;
    /settings then makes the server's public messages Japanese."""
    c = club(simcord_env, locales, "fr", alice="ja", bob="fr")
    await challenge(c, "paint", accept="Accepter")
    board = last_board(c.channel)
    assert "à vous de jouer (Blanc)" in board.content
    refused = await c.bob.slash(c.channel, "move", notation="b9-b8")
    assert refused.response.content == f"C'est au tour de <@{c.alice.id}>, pas au vôtre."
    assert len(user_errors(simcord_env)) == 1
    question = await c.alice.slash(c.channel, "resign")
    asked = question.response.content
    assert question.ephemeral and "で投了しますか？" in asked and asked.endswith("取り消せません。")
    assert "対局は中止になります" in asked, "before every player moved, the question says Yes aborts"

    admins = c.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = c.guild.add_member(simcord_env.create_user("ada"), roles=[admins])
    locales[admin.id] = "de"
    saved = await admin.slash(c.channel, "settings", language="ja")
    assert saved.ephemeral and saved.response.content.startswith("Gespeichert.")
    assert "Sprache von Brettern, Ergebnissen und Herausforderungen: 日本語" in saved.response.content
    await c.alice.slash(c.channel, "move", notation="c1-c3")
    board = last_board(c.channel)
    assert f"<@{c.bob.id}> さん、黒の手番です。" in board.content
    assert board.attachments[0].description.startswith("Paint の盤面。")


ANALYSIS_WORDS = {
    "fr": (
        "**Analyse de la partie n°{match_id}** (Paintscape, ",
        "a joué **{played}**, **{preferred}** était meilleur ; chances de gagner {before} → {after}.",
        "L'image montre le plus grand, au coup {number} :",
        "Deux plateaux. En haut, après le coup joué, {played} : {after} de chances de gagner. "
        "En bas, après {preferred} : {before}.",
    ),
    "ja": (
        "**対局 #{match_id} の分析**（Paintscape、",
        "の着手は **{played}** でしたが、**{preferred}** の方が良い手でした。勝率 {before} → {after}。",
        "画像は最大のターニングポイント、{number}手目です。",
        "2つの盤面。上は実際の着手 {played} の後：勝率{after}。下は {preferred} の後：{before}。",
    ),
}


@pytest.mark.simcord(settle_timeout=60)
@pytest.mark.parametrize("guild_locale", ["fr", "ja"])
async def test_the_analysis_in_the_servers_language(
    simcord_env: Any, locales: dict[int, str], guild_locale: str
) -> None:
    """/analyse posts the turning points and the image's alt text in the server's language, whatever the
    asker's; the autocomplete and a refusal are in the asker's."""
    asker = "ja" if guild_locale == "fr" else "fr"
    c = club(simcord_env, locales, guild_locale, alice=guild_locale, bob=asker)
    runtime = simcord_env.bot.runtime
    match_id = await blunder_match(runtime.service, c.guild, c.channel, c.alice, c.bob)
    result = await c.bob.slash(c.channel, "analyse", match_id=match_id)
    assert not result.ephemeral
    text = reply_text(result)
    biggest = runtime.analyses.cached(match_id).biggest()
    assert biggest is not None
    header, line, image, alt = ANALYSIS_WORDS[guild_locale]
    words = {
        "match_id": match_id,
        "played": biggest.played,
        "preferred": biggest.preferred,
        "before": percent(biggest.before),
        "after": percent(biggest.after),
        "number": biggest.ply + 1,
    }
    assert text.startswith(header.format(**words))
    assert line.format(**words) in text and image.format(**words) in text
    reply = result.followups[-1] if result.followups else result.response
    assert reply.attachments[0].description == alt.format(**words)

    choices = await c.bob.autocomplete(c.channel, "analyse", "match_id", "")
    number, versus, moves = {"fr": ("n°", " contre alice, ", " coups"), "ja": ("#", " 対 alice、", "手")}[
        asker
    ]
    assert choices[0]["name"].startswith(f"{number}{match_id} Paintscape{versus}")
    assert choices[0]["name"].endswith(moves)
    unknown = await c.bob.slash(c.channel, "analyse", match_id=999)
    refusal = {"fr": "Il n'y a pas de partie n°999.", "ja": "対局 #999 はありません。"}[asker]
    assert unknown.ephemeral and reply_text(unknown).startswith(refusal)
    assert len(user_errors(simcord_env)) == 1


HINT_REASONS = (
    "it wins the game at once.",
    "it is the only sensible move here.",
    "it is the move I would make here.",
    "about {chance} to win after it, and it stops {seat} from winning next turn.",
    "about {chance} to win after it (next best {move}: {other}).",
    "about {chance} to win after it.",
)


@pytest.mark.simcord(settle_timeout=60)
@pytest.mark.parametrize(
    ("locale", "pattern"),
    [
        ("fr", r"Essayez \*\*(\S+)\*\* : .+\. Pourquoi : (.+)"),
        ("ja", r"\*\*(\S+)\*\* はどうでしょう：.+。理由：(.+)"),
    ],
)
async def test_a_hint_in_the_users_language(
    simcord_env: Any, locales: dict[int, str], locale: str, pattern: str
) -> None:
    """/hint answers privately in the user's language, its reason too, on an English server."""
    c = club(simcord_env, locales, "en-US", alice=locale, bob=locale)
    me = bot_member(SimpleNamespace(env=simcord_env, guild=c.guild))
    await c.alice.slash(
        c.channel,
        "play",
        game="paintscape",
        opponent=me,
        level="1",
        first="challenger",
        options="balance=off",
        rated=False,
    )
    hinted = await c.alice.slash(c.channel, "hint")
    assert hinted.ephemeral
    found = re.fullmatch(pattern, reply_text(hinted))
    assert found is not None, reply_text(hinted)
    move, reason = found.groups()
    tr = tr_for(locale)
    shapes = [".+".join(map(re.escape, re.split(r"\{\w+\}", tr(english)))) for english in HINT_REASONS]
    assert any(re.fullmatch(shape, reason) for shape in shapes), reason
    await c.alice.slash(c.channel, "move", notation=move)
    assert any(f"Black {move}\n" in b.content for b in boards(c.channel)), "the hinted move was played"


async def test_the_synced_commands_carry_their_translations(simcord_env: Any) -> None:
    tree = simcord_env.bot.tree
    assert tree.translator is not None
    play = tree.get_command("play")
    payload = await play.get_translated_payload(tree, tree.translator)
    assert payload["name_localizations"]["fr"] == "défier" and payload["name_localizations"]["ja"] == "対戦"
    assert payload["description_localizations"]["pt-BR"].startswith("Desafie alguém")
    assert "en-US" not in payload.get("name_localizations", {})
    options = {option["name"]: option for option in payload["options"]}
    assert options["game"]["name_localizations"]["de"] == "spiel"
    timeouts = {choice["name"]: choice for choice in options["turn_timeout"]["choices"]}
    assert timeouts["1 hour"]["name_localizations"]["pl"] == "1 godzina"
    menu = tree.get_command("Challenge to a game", type=discord.AppCommandType.user)
    menu_payload = await menu.get_translated_payload(tree, tree.translator)
    assert menu_payload["name_localizations"]["es-419"] == "Desafiar a una partida"


async def test_every_turn_timeout_choice_is_synced_in_every_language(simcord_env: Any) -> None:
    """The turn-timeout choices of /play and /settings ("10 minutes", "1 hour", ...) reach Discord in all
    seven languages, as each catalog words them."""
    from bot.i18n import DISCORD_LOCALES
    from cogs.play import TIMEOUT_CHOICES

    tree = simcord_env.bot.tree
    for name in ("play", "settings"):
        payload = await tree.get_command(name).get_translated_payload(tree, tree.translator)
        option = next(o for o in payload["options"] if o["name"] == "turn_timeout")
        synced = {choice["name"]: choice.get("name_localizations", {}) for choice in option["choices"]}
        assert list(synced) == [choice.name for choice in TIMEOUT_CHOICES]
        for english, localised in synced.items():
            for code, ours in DISCORD_LOCALES.items():
                worded = tr_for(ours)(english)
                assert localised.get(code, english) == worded, (name, english, code)
                if ours not in ("en", "fr"):  # French says "10 minutes" too
                    assert worded != english, (english, ours)
