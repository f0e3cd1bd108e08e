"""A new service on the same database file continues every match, challenge, lobby and deadline."""

from __future__ import annotations

from bot.matches import TimedOut
from tests.service.conftest import FakeClock, ServiceFactory
from tests.service.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, start_match


async def test_everything_survives_a_restart(open_service: ServiceFactory, clock: FakeClock) -> None:
    before = await open_service()
    match = await start_match(before, options={"turn_timeout": 10})
    await before.play(match.id, ALICE, "2")
    await before.play(match.id, BOB, "2")  # a forced skip follows
    challenge = await before.create_challenge(
        "race", {"target": 20}, CAROL, ALICE, guild_id=GUILD, channel_id=5
    )
    lobby = await before.create_lobby("hoard", {}, CAROL, guild_id=GUILD, channel_id=6)
    await before.update_guild_settings(GUILD, turn_timeout=7200)
    deadline = (await before.get_match(match.id)).deadline
    await before.store.close()

    after = await open_service(seed=2)
    resumed = await after.get_match(match.id)
    assert resumed.ply == 3 and resumed.state.total == 4 and resumed.deadline == deadline
    assert resumed.user_to_move == BOB
    played = await after.play(match.id, BOB, "1", expected_ply=3)
    assert played.state.total == 5
    started = await after.accept_challenge(challenge.id, ALICE)
    assert started.options == {"target": 20} and started.turn_timeout == 7200
    assert [m.user_id for m in (await after.join_lobby(lobby.id, BOB)).members] == [CAROL, BOB]
    assert (await after.match_in_channel(CHANNEL)).id == match.id
    clock.advance(601)
    events = await after.expire_due()
    assert [e.match_id for e in events if isinstance(e, TimedOut)] == [match.id]
