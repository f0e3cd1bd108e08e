"""Helpers for the SimCord flows: challenge and accept, find the newest board, play from autocomplete."""

from __future__ import annotations

from typing import Any

import discord
import simcord


def boards(channel: Any) -> list[discord.Message]:
    """The bot's board messages in a channel (they carry board.png), oldest first."""
    return [m for m in channel.history() if any(a.filename == "board.png" for a in m.attachments)]


def last_board(channel: Any) -> discord.Message:
    found = boards(channel)
    assert found, "no board message in the channel"
    return found[-1]


def button_labels(message: Any) -> list[str]:
    message = getattr(message, "message", message)  # a SimCord ResponseMessage wraps the real message
    labels = []
    for row in message.components:
        for child in getattr(row, "children", []):
            if getattr(child, "label", None):
                labels.append(child.label)
    return labels


def bot_member(world: Any) -> simcord.MemberActor:
    """The bot itself as a member, to pick it as an opponent."""
    env = world.env
    user = simcord.UserHandle(env, env.backend.get_user(env.bot.user.id))
    return simcord.MemberActor(env, world.guild, user)


async def start_challenge(world: Any, challenger: Any, opponent: Any, game: str, **options: Any) -> Any:
    """/play, then the opponent presses Accept; returns the play result."""
    result = await challenger.slash(world.channel, "play", game=game, opponent=opponent, **options)
    assert not result.ephemeral, result.response.content if result.response else result
    accepted = await opponent.click(result.response, label="Accept")
    assert accepted.acknowledged
    return result


async def suggestions(actor: Any, channel: Any, typed: str = "") -> list[str]:
    choices = await actor.autocomplete(channel, "move", "notation", typed)
    return [c["value"] for c in choices]


def match_id_of(message: Any) -> int:
    import re

    found = re.search(r"match #(\d+)", message.content)
    assert found, message.content
    return int(found.group(1))


def take_user_errors(world: Any) -> list[BaseException]:
    """The errors commands raised since the last look (SimCord records them; a user's mistakes are raised
    as domain errors and answered by the tree's on_error). Fails if any of them was not a user's mistake."""
    from bot.replies import player_message

    errors: list[BaseException] = world.env.errors[getattr(world, "_seen_errors", 0) :]
    world._seen_errors = len(world.env.errors)
    for error in errors:
        assert player_message(error) is not None, f"unexpected error: {error!r}"
    return errors


def reply_text(result: Any) -> str:
    """What the user saw in answer to an interaction: the last followup, else the response."""
    if result.followups:
        return str(result.followups[-1].content)
    return str(result.response.content) if result.response is not None else ""


def image_theme(env: Any, attachment: Any) -> str:
    """Which renderer theme an attached PNG or GIF was drawn in (each theme has its own fixed palette)."""
    import io

    from PIL import Image

    from renderer.theme import THEME_NAMES, get_theme, palette

    data = env.backend.cdn.get(attachment.url)
    assert data, f"no stored bytes for {attachment.filename}"
    drawn = Image.open(io.BytesIO(data)).getpalette() or []
    for name in THEME_NAMES:
        expected = [channel for colour in palette(get_theme(name)) for channel in colour]
        if drawn[: len(expected)] == expected:
            return name
    raise AssertionError(f"{attachment.filename} matches no theme's palette")


def dispatch_slash(actor: Any, channel: Any, name: str, **values: Any) -> Any:
    """Emit a slash command to the bot without waiting for it (SimCord's slash, minus the settle), so that
    many reach the bot at the same moment; `env._settle_internal(dispatch="INTERACTION_CREATE")` then waits
    for them all. Uses SimCord's interaction builders (simcord is pinned to an exact version)."""
    from simcord import actors, interactions
    from simcord.enums import AppCommandType, InteractionType

    env = actor._env
    root = actors._resolve_visible_command(actor, channel.id, name, AppCommandType.CHAT_INPUT)
    options, _ = interactions.build_options(actor, name, root, values, channel_id=channel.id)
    data = {"id": root["id"], "name": root["name"], "type": root.get("type", 1), "options": options}
    record, payload = interactions.base_payload(
        env.backend,
        type=InteractionType.APPLICATION_COMMAND,
        channel_id=channel.id,
        guild_id=actor.guild.id,
        user_id=actor.id,
        data=data,
    )
    env._notify_dispatch_observers(record)
    env.backend.emit("INTERACTION_CREATE", payload)
    return record


def dispatch_move(actor: Any, channel: Any, notation: str) -> Any:
    """Emit a /move interaction to the bot without waiting for it (see `dispatch_slash`)."""
    return dispatch_slash(actor, channel, "move", notation=notation)
