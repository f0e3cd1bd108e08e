"""What a tournament refuses, worded for the player (templates for the translators, like `ServiceError`)."""

from __future__ import annotations

from bot.service.errors import ServiceError
from games.texts import N_


class TournamentError(ServiceError):
    template = N_("That tournament cannot do that right now.")


class NotOpen(TournamentError):
    template = N_("Tournament #{number} is not taking players any more: it has started or ended.")


class AlreadyJoined(TournamentError):
    template = N_("You are already in tournament #{number}.")


class NotJoined(TournamentError):
    template = N_("You are not in tournament #{number}; join it first.")


class RoleRequired(TournamentError):
    template = N_("Only members with the <@&{role_id}> role may join tournament #{number}.")


class Full(TournamentError):
    template = N_("Tournament #{number} is full (player limit: {count}).")


class TooFewPlayers(TournamentError):
    template = N_(
        "Tournament #{number} needs more players to start (joined: {joined}, needed: at least {count})."
    )


class NotRunning(TournamentError):
    template = N_("Tournament #{number} is not running: it has not started yet, or it is over.")


class AlreadyStarted(TournamentError):
    template = N_("Tournament #{number} has already started.")


class BadSettings(TournamentError):
    template = N_("Those settings do not make a tournament: {reason}. Change them and create it again.")


REASONS = {
    "rounds": N_("a Swiss event needs at least one round"),
    "seats": N_("tables of 3 or 4 are for Swiss events of a game with that many players"),
    "duration": N_("an arena needs a duration of at least one minute"),
    "players": N_("the player limit must leave room for at least two players"),
}
"""The `reason` of a `BadSettings`, by key."""
