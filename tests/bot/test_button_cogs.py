"""Every button a cog draws has a handler while the cog is loaded, and none once it is removed."""

from __future__ import annotations

from typing import Any

from bot import views

EXPECTED = {
    "Moves": {"move", "confirm", "yes", "tb_yes", "tb_no", "tb_withdraw"},
    "Play": {"accept", "decline", "withdraw"},
    "Lobbies": {"join", "leave", "addbot", "start"},
    "Ending": {"resign", "abort", "ab_withdraw"},
    "Info": {"replay"},
    "Analysis": {"analyse"},
}


async def test_each_cog_routes_its_buttons_while_loaded(world: Any) -> None:
    bot = world.env.bot
    for name, actions in EXPECTED.items():
        cog = bot.get_cog(name)
        assert isinstance(cog, views.ButtonCog), name
        assert set(cog.buttons()) == actions
        for action in actions:
            assert views._HANDLERS[action] == cog.buttons()[action]

    await bot.remove_cog("Lobbies")
    assert not {"join", "leave", "addbot", "start"} & set(views._HANDLERS)
    assert "accept" in views._HANDLERS  # the other cogs keep theirs
