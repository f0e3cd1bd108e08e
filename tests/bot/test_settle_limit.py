"""No bot flow fails because the machine is slow: SimCord waits up to bot/testing/plugin.py's SETTLE_SECONDS
for the bot to settle, unless a test's own marker says otherwise."""

from __future__ import annotations

from typing import Any

import pytest

from bot.testing.plugin import SETTLE_SECONDS


async def test_a_flow_without_its_own_limit_waits_the_suite_s_settle_limit(simcord_env: Any) -> None:
    assert simcord_env.settle_timeout == SETTLE_SECONDS >= 60


@pytest.mark.simcord(settle_timeout=120)
async def test_a_flow_s_own_limit_stays(simcord_env: Any) -> None:
    assert simcord_env.settle_timeout == 120


@pytest.mark.simcord(strict_sync=True)
async def test_other_options_of_a_flow_s_marker_keep_the_suite_s_limit(simcord_env: Any) -> None:
    assert simcord_env.settle_timeout == SETTLE_SECONDS and simcord_env.strict_sync


def test_simcord_looks_again_for_a_settled_bot_often() -> None:
    """tests/conftest.py shortens SimCord's poll while a bot task runs (it has no setting): if an upgrade of
    SimCord renames what it changes, this says so instead of the suite silently slowing down again."""
    import simcord.env

    from bot.testing.plugin import SETTLE_POLL_SECONDS

    defaults = simcord.env.Env._settle_internal.__kwdefaults__ or {}
    assert defaults.get("idle") == SETTLE_POLL_SECONDS
