"""A new service on the same database file continues every match, challenge, lobby and deadline."""

from __future__ import annotations

from bot.service.records import TimedOut
from tests.service.conftest import FakeClock, ServiceFactory
from tests.service.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, start_match


async def test_everything_survives_a_restart(open_service: ServiceFactory, clock: FakeClock) -> None:
    before = await open_service()
    match = await start_match(before, options={"turn_timeout": 10})
    await before.matches.play(match.id, ALICE, "2")
    await before.matches.play(match.id, BOB, "2")  # a forced skip follows
    challenge = await before.challenges.create(
        "race", {"target": 20}, CAROL, ALICE, guild_id=GUILD, channel_id=5
    )
    lobby = await before.lobbies.create("hoard", {}, CAROL, guild_id=GUILD, channel_id=6)
    await before.guilds.update(GUILD, turn_timeout=7200)
    deadline = (await before.matches.get(match.id)).deadline
    await before.store.close()

    after = await open_service(seed=2)
    resumed = await after.matches.get(match.id)
    assert resumed.ply == 3 and resumed.state.total == 4 and resumed.deadline == deadline
    assert resumed.user_to_move == BOB
    played = await after.matches.play(match.id, BOB, "1", expected_ply=3)
    assert played.match.state.total == 5
    started = await after.challenges.accept(challenge.id, ALICE)
    assert started.options == {"target": 20} and started.turn_timeout == 7200
    assert [m.user_id for m in (await after.lobbies.join(lobby.id, BOB)).members] == [CAROL, BOB]
    assert (await after.matches.in_channel(CHANNEL)).id == match.id
    clock.advance(601)
    events = await after.matches.expire_due()
    assert [e.match_id for e in events if isinstance(e, TimedOut)] == [match.id]
