"""Starting matches: /play (a challenge, a lobby, or a match against the bot), the "Challenge to a game" user
menu, and the Accept / Decline / Withdraw buttons of a challenge. Lobbies are in lobbies.py, /resign and
/abort in ending.py.

A game's own options are one text field, `options` (``board=hex5 balance=off``), whose autocomplete is built
from the game's `Option` specs, so every option a game declares can be set and none is repeated here."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.boards import BOT_NAME, level_word
from bot.i18n import ENGLISH, Tr, for_user
from bot.replies import UserError, report_error
from bot.service.options import (
    SEAT_CHOICES,
    MatchOptions,
    given_options,
    host_given,
    suggest_options,
)
from bot.service.ratings import CORRESPONDENCE, LIVE
from bot.service.records import Challenge, MatchView
from bot.service.timecontrol import parse_control, presets
from bot.views import ButtonCog, ButtonHandler, ButtonRef, activity_on, button, launch_activity, view_of
from cogs import GAME_CHOICES, game_name
from cogs.common import (
    DEFAULT_LEVEL,
    Interaction,
    bot_user_id,
    channel_id_of,
    delete_thread,
    looks_of,
    open_thread,
    option_summary,
    parts_of,
    post_start,
    same_server,
    send_board,
    service_of,
)
from cogs.lobbies import open_lobby
from games.ai.levels import LEVEL_IDS, level_rating
from games.base import Rules
from games.texts import N_, Text

log = logging.getLogger("tessera.play")


def parse_clock(text: str) -> object:
    """The live control `text` names, None for correspondence; a typo is left to the options' check, which
    says what to type."""
    try:
        return parse_control(text)
    except ValueError:
        return None


async def clock_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The game's live presets (chosen for its length), then correspondence; what is typed is kept."""
    tr = for_user(interaction)
    game = getattr(interaction.namespace, "game", None)
    try:
        rules: Rules[Any, Any] | None = service_of(interaction).rules(str(game)) if game else None
    except Exception:
        rules = None
    choices = [
        app_commands.Choice(
            name=tr(
                "{control} · {minutes} min + {seconds} s a move",
                control=control.text,
                minutes=f"{control.base / 60:g}",
                seconds=control.increment,
            )[:100],
            value=control.text,
        )
        for control in presets(rules)
    ]
    choices.append(app_commands.Choice(name=tr("Correspondence (a time per turn)"), value="none"))
    typed = current.strip()
    found = [c for c in choices if c.value.startswith(typed)]
    if typed and not any(c.value == typed for c in found):
        found.insert(0, app_commands.Choice(name=typed[:100], value=typed[:20]))
    return found[:25]


TIMEOUT_CHOICES = [
    app_commands.Choice(name="10 minutes", value=10),
    app_commands.Choice(name="1 hour", value=60),
    app_commands.Choice(name="12 hours", value=12 * 60),
    app_commands.Choice(name="1 day", value=24 * 60),
    app_commands.Choice(name="3 days", value=3 * 24 * 60),
    app_commands.Choice(name="7 days", value=7 * 24 * 60),
]
SEAT_CHOICE_LIST = [app_commands.Choice(name=choice, value=choice) for choice in SEAT_CHOICES]


CHALLENGE_MENU = N_("Challenge to a game")
"""The user context menu's name (right-click a member, Apps)."""


class GamePicker(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"tp:(?P<opponent>\d{1,20})"):
    """The select of games under "Challenge to a game": its custom id carries the member to challenge, so it
    works after a restart too. Lists the games that two can play."""

    def __init__(self, opponent_id: int, tr: Tr = ENGLISH) -> None:
        options = [
            discord.SelectOption(label=rules.name, value=game_id, description=players_text(rules, tr)[:100])
            for game_id, rules in games.GAMES.items()
            if 2 in rules.seats
        ]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"tp:{opponent_id}", placeholder=tr("Choose a game"), options=options
        )
        super().__init__(select)
        self.opponent_id = opponent_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GamePicker:
        return cls(int(match["opponent"]))

    async def callback(self, interaction: Interaction) -> None:
        try:
            cog = interaction.client.get_cog("Play")
            if not isinstance(cog, Play) or not self.item.values:
                raise LookupError("the game picker has no handler")
            await cog.challenge_picked(interaction, self.item.values[0], self.opponent_id)
        except Exception as error:
            await report_error(interaction, error, where="game picker")


def players_text(rules: Rules[Any, Any], tr: Tr = ENGLISH) -> str:
    """ "2 players", "2 to 4 players"."""
    least, most = rules.seats.start, rules.seats.stop - 1
    if least == most:
        return tr.ngettext("{count} player", "{count} players", least, count=least)
    return tr("{least} to {most} players", least=least, most=most)


class Play(ButtonCog):
    """/play, the challenge menu, and the challenge buttons."""

    def __init__(self, bot: commands.Bot) -> None:
        super().__init__(bot)
        self.challenge_menu = app_commands.ContextMenu(name=CHALLENGE_MENU, callback=self.challenge_member)
        app_commands.guild_only()(self.challenge_menu)

    def buttons(self) -> dict[str, ButtonHandler]:
        return {"accept": self.on_accept, "decline": self.on_decline, "withdraw": self.on_withdraw}

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.challenge_menu)
        self.bot.add_dynamic_items(GamePicker)
        await super().cog_load()

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.challenge_menu.name, type=self.challenge_menu.type)
        self.bot.remove_dynamic_items(GamePicker)
        await super().cog_unload()

    # ------------------------------------------------------------------------------------------- /play

    @app_commands.command(name="play", description="Challenge someone (or me) to a game, or open a lobby")
    @app_commands.guild_only()
    @app_commands.describe(
        game="Which game",
        opponent="Who you want to play (pick me, Tessera, to play the bot)",
        options="The game's own options, name=value: board=hex5 balance=off (start typing for a list)",
        first="Who takes the first seat (what it means depends on the game: see its options)",
        rated="Whether the result changes ratings (on by default)",
        turn_timeout="Time per turn (default: the server's setting)",
        thread="Play in a new public thread",
        players="Number of players (more than 2 opens a lobby, in games that allow it)",
        level="My strength, level 1 to 8 (by default the level nearest your rating)",
        clock="A live clock, minutes+seconds a move, like 5+3 (default: correspondence, a time per turn)",
    )
    @app_commands.choices(game=GAME_CHOICES, first=SEAT_CHOICE_LIST)
    @app_commands.choices(turn_timeout=TIMEOUT_CHOICES)
    async def play(
        self,
        interaction: Interaction,
        game: str,
        opponent: discord.Member | None = None,
        options: app_commands.Range[str, 1, 400] | None = None,
        first: str | None = None,
        rated: bool | None = None,
        turn_timeout: int | None = None,
        thread: bool | None = None,
        players: app_commands.Range[int, 2, 4] | None = None,
        level: str | None = None,
        clock: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        """/play: one flow, in which the server's settings are read once (`Guilds.flow`)."""
        with service_of(interaction).guilds.flow():
            await self._play(
                interaction,
                game,
                opponent,
                options,
                first,
                rated,
                turn_timeout,
                thread,
                players,
                level,
                clock,
            )

    async def _play(
        self,
        interaction: Interaction,
        game: str,
        opponent: discord.Member | None,
        options: str | None,
        first: str | None,
        rated: bool | None,
        turn_timeout: int | None,
        thread: bool | None,
        players: int | None,
        level: str | None,
        clock: str | None = None,
    ) -> None:
        parts = parts_of(interaction)
        service = parts.service
        parts.names.remember(interaction.user, opponent)
        rules = service.rules(game)
        lobby = players is not None and players > 2
        if players is not None and players not in rules.seats:
            raise UserError(
                Text(
                    "{game} is for {least}-{most} players; choose players in that range.",
                    game=rules.name,
                    least=rules.seats.start,
                    most=rules.seats.stop - 1,
                )
            )
        given = given_options(rules, options)
        if first is not None and lobby:
            raise UserError(Text("Seats in a lobby are drawn at random; leave `first` out."))
        if clock is not None and turn_timeout is not None and parse_clock(clock) is not None:
            raise UserError(
                Text("A live clock has no time per turn: choose `clock` or `turn_timeout`, not both.")
            )
        given.update(host_given(rules, rated=rated, turn_timeout=turn_timeout, first=first, clock=clock))
        me = bot_user_id(interaction)
        against_bot = opponent is not None and opponent.id == me
        if level is not None and not against_bot and not lobby:
            raise UserError(
                Text("`level` is my strength when you play against me: choose me as the opponent.")
            )
        if opponent is not None and opponent.bot and not against_bot:
            raise UserError(
                Text(
                    "{name} is a bot. Challenge a person, or choose me ({bot}).",
                    name=opponent.display_name,
                    bot=BOT_NAME,
                )
            )
        guild_id = interaction.guild_id
        settings = await service.guilds.settings(guild_id) if guild_id is not None else None
        in_thread = thread if thread is not None else bool(settings and settings.threads)
        if level is None and (lobby or against_bot):
            speed = LIVE if clock is not None and parse_clock(clock) is not None else CORRESPONDENCE
            level = await service.ratings.level_for(game, interaction.user.id, speed=speed)
        if lobby:
            assert players is not None
            await open_lobby(interaction, game, given, players, opponent, level or DEFAULT_LEVEL, in_thread)
            return
        if opponent is None and activity_on(guild_id):
            assert interaction.channel_id is not None
            from bot.web.activity import remember_launch  # the web server's module: loaded where it is used

            await remember_launch(
                service, interaction.channel_id, interaction.user.id, game, given, service.now()
            )
            await launch_activity(interaction)  # the Activity offers this game's match to start there
            return
        if opponent is None:
            raise UserError(
                Text(
                    "Choose an opponent: a member of this server, or me ({bot}) to play the bot.",
                    bot=BOT_NAME,
                )
            )
        if against_bot:
            await self._play_bot(interaction, game, given, level or DEFAULT_LEVEL, in_thread)
            return
        await self._challenge(interaction, game, given, opponent.id, thread=in_thread)

    async def _challenge(
        self,
        interaction: Interaction,
        game: str,
        given: dict[str, Any],
        opponent_id: int,
        *,
        thread: bool,
        picked: bool = False,
    ) -> None:
        """Challenge a member (from /play, or the "Challenge to a game" menu when `picked`): a public message
        with Accept, Decline and Withdraw, remembered so that it is edited in place if nobody answers in time.
        The menu's private game picker is closed once the challenge exists."""
        service = service_of(interaction)
        challenge = await service.challenges.create(
            game,
            given,
            interaction.user.id,
            opponent_id,
            guild_id=interaction.guild_id,
            channel_id=channel_id_of(interaction),
        )
        public = await looks_of(interaction).public_tr(interaction.guild_id, interaction.guild_locale)
        content = self.challenge_text(challenge, public)
        view = self.challenge_view(challenge, thread=thread, tr=public)
        mentions = discord.AllowedMentions(users=[discord.Object(opponent_id)])
        sent: discord.Message
        if picked:
            tr = for_user(interaction)
            await interaction.response.edit_message(
                content=tr(
                    "You challenged {player} to {game}.", player=f"<@{opponent_id}>", game=game_name(game)
                ),
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
            sent = await interaction.followup.send(content, view=view, allowed_mentions=mentions, wait=True)
        else:
            await interaction.response.send_message(content, view=view, allowed_mentions=mentions)
            sent = await interaction.original_response()
        await service.messages.challenge_posted(challenge.id, sent.channel.id, sent.id)

    # ------------------------------------------------------------------------- "Challenge to a game"

    async def challenge_member(self, interaction: Interaction, member: discord.Member) -> None:
        """The user context menu (right-click a member, Apps): pick a game, then the same challenge as
        /play (or a match against me at once, if the member is me) with the default options."""
        parts = parts_of(interaction)
        me = bot_user_id(interaction)
        if member.id == interaction.user.id:
            raise UserError(Text("You cannot challenge yourself. Pick another member, or play against me."))
        if member.bot and member.id != me:
            raise UserError(
                Text(
                    "{name} is a bot. Challenge a person, or choose me ({bot}).",
                    name=member.display_name,
                    bot=BOT_NAME,
                )
            )
        parts.names.remember(interaction.user, member)
        await parts.service.matches.check_channel(interaction.guild_id, channel_id_of(interaction))
        tr = for_user(interaction)
        if member.id == me:
            question = tr("Challenge me to which game?")
        else:
            question = tr("Challenge {player} to which game?", player=member.mention)
        rule = tr(
            "The match is rated, seats are drawn at random and the server's time per turn applies; {/play} "
            "sets other options."
        )
        await interaction.response.send_message(
            f"{question} {rule}",
            view=discord.ui.View(timeout=None).add_item(GamePicker(member.id, tr)),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def challenge_picked(self, interaction: Interaction, game: str, opponent_id: int) -> None:
        """A game was picked in the menu's game picker: challenge the member, or play me."""
        parts = parts_of(interaction)
        parts.names.remember(interaction.user)
        rules = parts.service.rules(game)
        guild_id = interaction.guild_id
        settings = await parts.service.guilds.settings(guild_id) if guild_id is not None else None
        in_thread = bool(settings and settings.threads)
        if opponent_id == bot_user_id(interaction):
            # What can be refused is checked before the picker closes.
            parts.service.challenges.check_options(game, {})
            await parts.service.matches.check_channel(guild_id, channel_id_of(interaction))
            tr = for_user(interaction)
            await interaction.response.edit_message(
                content=tr("{game} against me: here we go.", game=rules.name), view=None
            )
            level = await parts.service.ratings.level_for(game, interaction.user.id)
            await self._play_bot(interaction, game, {}, level, in_thread)
            return
        await self._challenge(interaction, game, {}, opponent_id, thread=in_thread, picked=True)

    @play.autocomplete("options")
    async def options_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        tr = for_user(interaction)
        game = getattr(interaction.namespace, "game", None)
        if not game:
            return [app_commands.Choice(name=tr("Choose the game first"), value=current[:100] or "-")]
        try:
            rules = service_of(interaction).rules(str(game))
        except Exception:
            return []
        return [
            app_commands.Choice(name=tr.text(label)[:100], value=value)
            for label, value in suggest_options(rules.options, current)
        ]

    @play.autocomplete("clock")
    async def clock_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await clock_choices(interaction, current)

    @play.autocomplete("level")
    async def level_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The eight levels with the bot's rating at each in the chosen game, the one nearest the user's
        rating marked (it is what leaving `level` out picks)."""
        tr = for_user(interaction)
        game = str(getattr(interaction.namespace, "game", "") or "")
        if game not in games.GAME_IDS:
            return [
                app_commands.Choice(name=tr("Level {number}", number=level), value=level)
                for level in LEVEL_IDS
            ]
        try:
            nearest = await service_of(interaction).ratings.level_for(game, interaction.user.id)
        except Exception:  # the list still helps without the mark
            log.exception("level autocomplete could not read the rating of user %s", interaction.user.id)
            nearest = None
        choices = []
        for level in LEVEL_IDS:
            if current.strip() and not level.startswith(current.strip()):
                continue
            rating = level_rating(game, level)
            if level == nearest:
                name = tr("Level {number} · rating {rating} · nearest to yours", number=level, rating=rating)
            else:
                name = tr("Level {number} · rating {rating}", number=level, rating=rating)
            choices.append(app_commands.Choice(name=name[:100], value=level))
        return choices

    async def _play_bot(
        self, interaction: Interaction, game: str, given: dict[str, Any], level: str, in_thread: bool
    ) -> None:
        parts = parts_of(interaction)
        service = parts.service
        channel_id = channel_id_of(interaction)
        home: int | None = None
        if in_thread:
            # Check what can be checked before a thread exists, so a refusal leaves no empty thread.
            service.challenges.check_options(game, given)
            await service.matches.check_channel(interaction.guild_id, channel_id)
            if not interaction.response.is_done():
                await interaction.response.defer()
            public = await parts.looks.public_tr(interaction.guild_id, interaction.guild_locale)
            home = await open_thread(
                interaction, public("{game} against {bot}", game=game_name(game), bot=BOT_NAME)
            )
        match = await service.challenges.play_bot(
            game,
            given,
            interaction.user.id,
            bot_id=bot_user_id(interaction),
            level=level,
            guild_id=interaction.guild_id,
            channel_id=home if home is not None else channel_id,
            opened_from=channel_id if home is not None else None,
        )
        interaction.extras["match_id"] = match.id
        public = await parts.looks.public_tr(match.guild_id, interaction.guild_locale)
        headline = public(
            "A match against me, {level} (rating {rating}).",
            level=level_word(level, public),
            rating=level_rating(game, level),
        )
        if home is not None:
            await interaction.followup.send(
                public(
                    "Match #{match_id} against me is in {channel}.", match_id=match.id, channel=f"<#{home}>"
                )
            )
            await post_start(parts_of(interaction), match, headline, viewer=interaction.user.id)
            return
        if not interaction.response.is_done():
            await interaction.response.defer()
        message = await parts.boards.board(match, headline=headline, viewer=interaction.user.id)
        await send_board(interaction, match, message)

    def challenge_text(self, challenge: Challenge, tr: Tr = ENGLISH) -> str:
        rules = service_of(self.bot).rules(challenge.game)
        players = {"challenger": f"<@{challenge.challenger_id}>", "opponent": f"<@{challenge.opponent_id}>"}
        extra = option_summary(MatchOptions.load(rules, challenge.options), rules, tr, players=players)
        lines = [
            tr(
                "{opponent}, {challenger} challenges you to **{game}** (challenge #{challenge_id}).",
                opponent=f"<@{challenge.opponent_id}>",
                challenger=f"<@{challenge.challenger_id}>",
                game=game_name(challenge.game),
                challenge_id=challenge.id,
            )
        ]
        if extra:
            lines.append(tr("Options: {options}", options=extra))
        lines.append(tr("Accept or decline {when}.", when=f"<t:{int(challenge.expires_at)}:R>"))
        return "\n".join(lines)

    def accepted_text(self, challenge: Challenge, match: MatchView, tr: Tr = ENGLISH) -> str:
        """The challenge message once accepted (here or in the Activity): who challenged whom, the match."""
        if match.channel_id != challenge.channel_id:
            accepted = tr(
                "Accepted: match #{match_id} in {channel}.",
                match_id=match.id,
                channel=f"<#{match.channel_id}>",
            )
        else:
            accepted = tr("Accepted: match #{match_id}.", match_id=match.id)
        return f"{self.challenge_text(challenge, tr).splitlines()[0]}\n{accepted}"

    @staticmethod
    def challenge_view(challenge: Challenge, *, thread: bool, tr: Tr = ENGLISH) -> discord.ui.View:
        arg = "thread" if thread else ""
        return view_of(
            button("accept", challenge.id, 0, tr("Accept"), arg=arg, style=discord.ButtonStyle.success),
            button("decline", challenge.id, 0, tr("Decline"), style=discord.ButtonStyle.danger),
            button("withdraw", challenge.id, 0, tr("Withdraw")),
        )

    # --------------------------------------------------------------------------------- challenge buttons

    async def on_accept(self, interaction: Interaction, ref: ButtonRef) -> None:
        """The opponent accepts: the match starts (in a new thread if the challenge asked for one). One flow:
        the challenge and the server's settings are read once (`Guilds.flow`)."""
        parts = parts_of(interaction)
        challenges = parts.service.challenges
        with parts.service.guilds.flow():
            challenge = await challenges.get(ref.ref)
            same_server(interaction, challenge.guild_id)
            challenge = await challenges.check_accept(challenge, interaction.user.id)
            parts.names.remember(interaction.user)
            await interaction.response.defer()
            public = await parts.looks.public_tr(interaction.guild_id, interaction.guild_locale)
            thread_id: int | None = None
            if ref.arg == "thread":
                thread_id = await open_thread(interaction, f"{game_name(challenge.game)} #{challenge.id}")
            try:
                match = await challenges.accept(challenge, interaction.user.id, channel_id=thread_id)
            except BaseException:
                await delete_thread(self.bot, thread_id)
                raise
            interaction.extras["match_id"] = match.id
            await interaction.edit_original_response(
                content=self.accepted_text(challenge, match, public), view=None
            )
            await post_start(parts, match, viewer=interaction.user.id)

    async def on_decline(self, interaction: Interaction, ref: ButtonRef) -> None:
        challenges = service_of(interaction).challenges
        challenge = await challenges.get(ref.ref)
        same_server(interaction, challenge.guild_id)
        challenge = await challenges.decline(challenge, interaction.user.id)
        public = await looks_of(interaction).public_tr(interaction.guild_id, interaction.guild_locale)
        await interaction.response.edit_message(
            content=public(
                "{opponent} declined the {game} challenge from {challenger}.",
                opponent=f"<@{challenge.opponent_id}>",
                game=game_name(challenge.game),
                challenger=f"<@{challenge.challenger_id}>",
            ),
            view=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def on_withdraw(self, interaction: Interaction, ref: ButtonRef) -> None:
        challenges = service_of(interaction).challenges
        challenge = await challenges.get(ref.ref)
        same_server(interaction, challenge.guild_id)
        challenge = await challenges.withdraw(challenge, interaction.user.id)
        public = await looks_of(interaction).public_tr(interaction.guild_id, interaction.guild_locale)
        await interaction.response.edit_message(
            content=public(
                "{challenger} withdrew the {game} challenge.",
                challenger=f"<@{challenge.challenger_id}>",
                game=game_name(challenge.game),
            ),
            view=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Play(bot))
