"""Persistent buttons: one `DynamicItem` whose custom_id carries the action, the match id and the ply.

`t:<action>:<match id>:<ply>[:<argument>]`, for example `t:move:42:7:done` or `t:accept:42:0`. The button
survives a restart because the bot registers the class in `setup_hook` (`add_dynamic_items`), and it never
acts on a newer position because the handler passes the ply to the service's stale check.

Cogs derive from `ButtonCog` and name one handler per action in `buttons()`; the handler gets the interaction
and the parsed `ButtonRef`. Errors a player caused become ephemeral replies; anything else is logged with the
match id and answered with an apology (this class is the "DynamicItem on_error").
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import discord
from discord.ext import commands

from bot.health import interaction_done
from bot.i18n import for_user
from bot.replies import report_error, send_ephemeral

log = logging.getLogger("tessera.buttons")

CUSTOM_ID = re.compile(
    r"t:(?P<action>[a-z_]{1,20}):(?P<ref>\d{1,18}):(?P<ply>\d{1,9})(?::(?P<arg>[A-Za-z0-9_ .\-]{1,60}))?"
)
"""A button's custom id; bounded lengths, so every id it accepts fits the database's integers."""


@dataclass(frozen=True, slots=True)
class ButtonRef:
    """What a button acts on: an action, a match (or challenge) id, the ply it was shown at, an argument."""

    action: str
    ref: int
    ply: int
    arg: str = ""

    @property
    def custom_id(self) -> str:
        base = f"t:{self.action}:{self.ref}:{self.ply}"
        return f"{base}:{self.arg}" if self.arg else base


ButtonHandler = Callable[[discord.Interaction[Any], ButtonRef], Awaitable[None]]
_HANDLERS: dict[str, ButtonHandler] = {}


def register_button(action: str, handler: ButtonHandler) -> None:
    """Route clicks on buttons with this action to `handler` (a cog method)."""
    _HANDLERS[action] = handler


def unregister_button(action: str) -> None:
    _HANDLERS.pop(action, None)


class ButtonCog(commands.Cog):
    """A cog whose buttons are routed to its own methods while it is loaded: `buttons()` maps each action
    to its handler."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    def buttons(self) -> Mapping[str, ButtonHandler]:
        return {}

    async def cog_load(self) -> None:
        for action, handler in self.buttons().items():
            register_button(action, handler)

    async def cog_unload(self) -> None:
        for action in self.buttons():
            unregister_button(action)


class TesseraButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CUSTOM_ID):
    """A button that outlives the process: everything it needs is in its custom_id."""

    def __init__(
        self,
        ref: ButtonRef,
        *,
        label: str = "Go",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        row: int | None = None,
    ) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=style, custom_id=ref.custom_id, emoji=emoji
        )
        super().__init__(button, row=row)
        self.ref = ref

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TesseraButton:
        ref = ButtonRef(match["action"], int(match["ref"]), int(match["ply"]), match["arg"] or "")
        return cls(ref)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        started = time.perf_counter()
        interaction.extras["match_id"] = self.ref.ref
        handler = _HANDLERS.get(self.ref.action)
        try:
            if handler is None:
                raise LookupError(f"no handler for button action {self.ref.action!r}")
            await handler(interaction, self.ref)
        except Exception as error:  # every failure gets an answer, never "This interaction failed"
            await report_error(interaction, error, where=f"button {self.ref.custom_id}")
        finally:
            interaction_done("button", self.ref.action if handler is not None else "?", started)


def button(
    action: str,
    ref: int,
    ply: int,
    label: str,
    *,
    arg: str = "",
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    emoji: str | None = None,
) -> TesseraButton:
    """A persistent button for `view.add_item`."""
    return TesseraButton(ButtonRef(action, ref, ply, arg), label=label, style=style, emoji=emoji)


def view_of(*buttons: TesseraButton) -> discord.ui.View:
    """A view holding persistent buttons (no timeout: the buttons live as long as the message)."""
    view = discord.ui.View(timeout=None)
    for item in buttons:
        view.add_item(item)
    return view


BoardLink = Callable[[int, int | None], str | None]
_board_link: list[BoardLink | None] = [None]


def set_board_link(link: BoardLink | None) -> None:
    """How to make a match's web board address from (match id, guild id); None: no web board."""
    _board_link[0] = link


def board_link(match_id: int, guild_id: int | None) -> str | None:
    """The web board's capability link of a match, or None (no web board, or this server turned it off)."""
    link = _board_link[0]
    if link is None or not web_board_on(guild_id):
        return None
    return link(match_id, guild_id)


def web_configured() -> bool:
    """Whether board messages carry web board links at all (WEB_SECRET set)."""
    return _board_link[0] is not None


_web_off: set[int] = set()
"""The servers whose own setting turns the web board off (/settings web_board): loaded at start, kept right
by /settings (which runs in the process of the server's shard, the one that posts its boards)."""


def set_web_board(guild_id: int, on: bool) -> None:
    """A server's own web board switch (its stored setting; WEB_DISABLED_GUILDS is the operator's, on top)."""
    if on:
        _web_off.discard(guild_id)
    else:
        _web_off.add(guild_id)


def web_board_on(guild_id: int | None) -> bool:
    return guild_id is None or guild_id not in _web_off


def open_board_button(url: str, label: str) -> discord.ui.Button[Any]:
    """The "Open board" link button under a board message."""
    return discord.ui.Button(style=discord.ButtonStyle.link, url=url, label=label)


ActivityOn = Callable[[int | None], bool]
_activity: list[ActivityOn | None] = [None]


def set_activity(enabled: ActivityOn | None) -> None:
    """Whether a server (by guild id) gets the Discord Activity: the "Play in Discord" button under board
    messages, and /play without an opponent launching it. None: off everywhere (the default)."""
    _activity[0] = enabled


def activity_on(guild_id: int | None) -> bool:
    enabled = _activity[0]
    return guild_id is not None and enabled is not None and web_board_on(guild_id) and enabled(guild_id)


async def launch_activity(interaction: discord.Interaction[Any]) -> None:
    """Answer with Discord's launch-activity response (callback type 12): Discord opens Tessera's Activity
    in this channel. Where the application has no Activity, Discord refuses it and the user is told to use
    the board's link instead."""
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as error:
        log.warning("Discord refused to launch the Activity: %s", error)
        tr = for_user(interaction)
        await send_ephemeral(
            interaction,
            tr(
                "The Activity cannot be opened here; use the {label} link under the board instead.",
                label=tr("Open board"),
            ),
        )


async def _launch_from_board(interaction: discord.Interaction[Any], ref: ButtonRef) -> None:
    await launch_activity(interaction)


register_button("activity", _launch_from_board)
