"""Settings: per server (/settings, Manage Server: turn timeout, threads, game channels, default board theme,
language of public messages) and per user (/prefs: board theme, turn reminders). Both answer in the user's
language."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import ENGLISH, Tr, for_user
from bot.replies import UserError
from bot.service.guilds import FOLLOW_DISCORD, LOCALES
from bot.service.prefs import DEFAULT_THEME, FOLLOW_SERVER, ReminderMode, UserPrefs
from bot.service.records import GuildSettings
from bot.service.reminders import MAX_DELAY, MIN_TURN
from bot.views import set_web_board, web_configured
from cogs.common import Interaction, duration_text, service_of
from cogs.play import TIMEOUT_CHOICES
from games.texts import N_, Text

THEME_LABELS = {
    "default": N_("standard colours"),
    "colorblind": N_("colour-blind safe"),
    "dark": N_("dark"),
}
"""The renderer's themes in words (a test keeps the keys equal to `renderer.THEME_NAMES`)."""
THEME_CHOICES = [
    app_commands.Choice(name="Standard colours", value="default"),
    app_commands.Choice(name="Colour-blind safe", value="colorblind"),
    app_commands.Choice(name="Dark", value="dark"),
]
REMINDER_LABELS = {
    ReminderMode.OFF: N_("off"),
    ReminderMode.DM: N_("a direct message"),
    ReminderMode.MENTION: N_("a mention in the match's channel"),
}
LANGUAGE_NAMES = {
    "en": "English",
    "fr": "Français",
    "de": "Deutsch",
    "es": "Español",
    "it": "Italiano",
    "pt_BR": "Português (Brasil)",
    "pl": "Polski",
    "ja": "日本語",
}
"""Each language in its own words, as players look for it in a list (a test keeps the keys equal to
`LOCALES`)."""
LANGUAGE_CHOICES = [
    app_commands.Choice(name="Follow the server's Discord language", value=FOLLOW_DISCORD),
    *(app_commands.Choice(name=LANGUAGE_NAMES[code], value=code) for code in LOCALES),
]


def describe_timeout(seconds: float, tr: Tr = ENGLISH) -> str:
    """ "1 day", "12 hours", "1 hour and 30 minutes" (`duration_text`)."""
    return duration_text(seconds, tr)


def settings_text(settings: GuildSettings, theme: str | None, tr: Tr = ENGLISH) -> str:
    channels = ", ".join(f"<#{c}>" for c in settings.allowed_channels) or tr("every channel")
    if settings.locale is not None:
        language = LANGUAGE_NAMES[settings.locale]
    else:
        language = tr("the server's Discord language")
    lines = [
        tr("**Tessera settings for this server**"),
        tr("Turn timeout: {timeout}", timeout=describe_timeout(settings.turn_timeout, tr)),
        tr("New matches in their own thread: {state}", state=tr("on") if settings.threads else tr("off")),
        tr("Games may start in: {channels}", channels=channels),
        tr(
            "Board theme (for players who chose none with {/prefs}): {theme}",
            theme=tr(THEME_LABELS[theme or DEFAULT_THEME]),
        ),
        tr("Language of boards, results and challenges: {language}", language=language),
    ]
    if web_configured():
        lines.append(
            tr(
                "Web board (the Open board and Play in Discord buttons, the match pages): {state}",
                state=tr("on") if settings.web_board else tr("off"),
            )
        )
    return "\n".join(lines)


def prefs_text(prefs: UserPrefs, server_theme: str | None, tr: Tr = ENGLISH) -> str:
    """A user's preferences in words, with what follows from them."""
    if prefs.theme is not None:
        theme = tr("{theme} (your choice)", theme=tr(THEME_LABELS[prefs.theme]))
    else:
        theme = tr("{theme} (this server's choice)", theme=tr(THEME_LABELS[server_theme or DEFAULT_THEME]))
    lines = [
        tr("**Your Tessera preferences**"),
        tr(
            "Board theme: {theme}. It is used for the boards you ask for, the boards after your moves, "
            "{/pieces} and replays.",
            theme=theme,
        ),
        tr("Turn reminders: {reminders}.", reminders=tr(REMINDER_LABELS[prefs.reminders])),
    ]
    rule = tr(
        "A reminder comes once per turn, in matches with at least {least} per turn, when half the turn has "
        "passed (at most {most} after it began).",
        least=describe_timeout(MIN_TURN, tr),
        most=describe_timeout(MAX_DELAY, tr),
    )
    if prefs.reminders is ReminderMode.OFF:
        rule = tr("Switch them on with {/prefs}. {rule}", rule=rule)
    lines.append(rule)
    return "\n".join(lines)


class Admin(commands.Cog):
    """Server settings."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="settings", description="Show or change Tessera's settings here (Manage Server)"
    )
    @app_commands.guild_only()
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.describe(
        turn_timeout="Default time per turn for new matches",
        threads="Open a public thread for every new match",
        allow_channel="Let games start in this channel (once any is set, only listed channels allow games)",
        disallow_channel="Stop games starting in this channel",
        every_channel="Allow games in every channel again",
        theme="Board colours for players who chose none with /prefs",
        language="Language of boards, results and challenges here (replies follow each player's Discord)",
        web_board="The web board here: the Open board and Play in Discord buttons, and the match pages",
    )
    @app_commands.choices(turn_timeout=TIMEOUT_CHOICES)
    @app_commands.choices(theme=THEME_CHOICES, language=LANGUAGE_CHOICES)
    async def settings(
        self,
        interaction: Interaction,
        turn_timeout: int | None = None,
        threads: bool | None = None,
        allow_channel: discord.TextChannel | None = None,
        disallow_channel: discord.TextChannel | None = None,
        every_channel: bool | None = None,
        theme: str | None = None,
        language: str | None = None,
        web_board: bool | None = None,
    ) -> None:
        service = service_of(interaction)
        guilds = service.guilds
        guild_id = interaction.guild_id
        tr = for_user(interaction)
        if guild_id is None:
            raise UserError(Text("Settings belong to a server; use this command in one."))
        current = await guilds.settings(guild_id)
        channels: set[int] | None = None
        if allow_channel is not None or disallow_channel is not None or every_channel:
            channels = set() if every_channel else set(current.allowed_channels)
            if allow_channel is not None:
                channels.add(allow_channel.id)
            if disallow_channel is not None:
                if disallow_channel.id not in channels:
                    raise UserError(
                        Text(
                            "{channel} is not in the list of game channels.", channel=disallow_channel.mention
                        )
                    )
                channels.discard(disallow_channel.id)
        changed = any(value is not None for value in (turn_timeout, threads, channels, language, web_board))
        if changed:
            current = await guilds.update(
                guild_id,
                turn_timeout=turn_timeout * 60.0 if turn_timeout is not None else None,
                threads=threads,
                allowed_channels=channels,
                locale=language,
                web_board=web_board,
            )
            set_web_board(guild_id, current.web_board)  # the links of the boards posted from now on
        if theme is not None:
            await service.prefs.set_guild_theme(guild_id, theme)
            changed = True
        prefix = tr("Saved.") + "\n" if changed else ""
        server_theme = await service.prefs.guild_theme(guild_id)
        await interaction.response.send_message(
            prefix + settings_text(current, server_theme, tr), ephemeral=True
        )

    @app_commands.command(name="prefs", description="Your board colours and turn reminders")
    @app_commands.describe(
        theme="Board colours for the boards you ask for and your moves",
        reminders="Be reminded when it is your turn in a long match (off by default)",
    )
    @app_commands.choices(
        theme=[*THEME_CHOICES, app_commands.Choice(name="The server's choice", value=FOLLOW_SERVER)],
        reminders=[
            app_commands.Choice(name="Off", value=ReminderMode.OFF.value),
            app_commands.Choice(name="Direct message", value=ReminderMode.DM.value),
            app_commands.Choice(name="Mention in the match's channel", value=ReminderMode.MENTION.value),
        ],
    )
    async def prefs(
        self, interaction: Interaction, theme: str | None = None, reminders: str | None = None
    ) -> None:
        prefs = service_of(interaction).prefs
        if theme is not None or reminders is not None:
            mine = await prefs.set_user(interaction.user.id, theme=theme, reminders=reminders)
        else:
            mine = await prefs.of_user(interaction.user.id)
        guild_id = interaction.guild_id
        server_theme = await prefs.guild_theme(guild_id) if guild_id is not None else None
        tr = for_user(interaction)
        prefix = tr("Saved.") + "\n" if theme is not None or reminders is not None else ""
        await interaction.response.send_message(prefix + prefs_text(mine, server_theme, tr), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Admin(bot))
