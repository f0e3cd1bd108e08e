"""A challenge lists the options that differ from the defaults: option names and values are notation, shown
as the `options` field takes them (`lead_turns=30`), never as English words in a translated sentence; the
fields /play has of its own (rated, who takes the first seat) are said in the reader's language."""

from __future__ import annotations

from typing import Any

from bot.i18n import tr_for
from tests.bot.test_i18n_flows import club, locales  # noqa: F401  (a fixture)


async def test_a_french_challenge_shows_options_as_notation_and_its_own_fields_in_words(
    simcord_env: Any,
    locales: dict[int, str],  # noqa: F811
) -> None:
    c = club(simcord_env, locales, "fr", alice="fr", bob="fr")
    result = await c.alice.slash(
        c.channel,
        "play",
        game="paint",
        opponent=c.bob,
        options="lead_turns=30",
        rated=False,
        first="opponent",
    )
    text = str(result.response.content)
    french = tr_for("fr")
    assert "`lead_turns=30`" in text
    assert "lead turns" not in text and "rated" not in text
    assert french("casual match") in text
    # who takes the first seat is said with the player's name, in French ("Qui joue Blanc et commence : @bob")
    who = french("{choice}: {player}", choice=french("Who plays White and moves first"), player=c.bob.mention)
    assert who in text, text
