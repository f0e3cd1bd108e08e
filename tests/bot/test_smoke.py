from __future__ import annotations

from typing import Any


async def test_rules_answers_with_the_engine_summary(world: Any) -> None:
    result = await world.alice.slash(world.channel, "rules", game="paintscape")
    assert result.ephemeral
    embed = result.response.embeds[0]
    assert "Paintscape" in embed.title
    assert "balanc" in embed.description.lower()
