"""Requests the service refuses. Every error a player can cause is a `ServiceError` whose `str()` is the
message for the player; its `template` and `params` keep the words apart from the values, so a translation
layer can word it in another language. Players are named as mentions (``<@id>``), which Discord shows as
names without pinging in an ephemeral reply.

An engine `MoveError` (illegal or malformed notation) and `InvalidOptions` (bad match options) pass through
the service unchanged; catch `USER_ERRORS` to get all three.
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.base import InvalidOptions, MoveError
from games.texts import N_, Text, fill


class ServiceError(Exception):
    """A request the service refuses; the message is written for the player."""

    template: ClassVar[str] = N_("That cannot be done right now.")

    def __init__(self, **params: Any) -> None:
        self.params = params
        super().__init__(fill(self.template, params))


class BadId(ServiceError):
    template = N_("That is not a valid {what} id.")


def valid_id(value: object, what: str) -> int:
    """A Discord id (a positive 64-bit integer) or an id of ours; BadId for anything else."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 2**63:
        raise BadId(what=what)
    return value


class UnknownGame(ServiceError):
    template = N_("There is no game called {game!r}. Pick one from the list.")


class UnknownMatch(ServiceError):
    template = N_("There is no match #{match_id}. Check the number with {/matches}.")


class NoMatchHere(ServiceError):
    template = N_("There is no match in this channel. Start one with {/play}.")


class MatchDamaged(ServiceError):
    template = N_(
        "Match #{match_id} was set aside: its saved position is damaged. A server admin can look at it with "
        "check-db; start a new match with {/play}."
    )


class MatchOver(ServiceError):
    template = N_("Match #{match_id} is over. Start a new one with {/play}.")


class NoBerserk(ServiceError):
    template = N_("Match #{match_id} has no berserk: it is only in tournament arenas on a live clock.")


class BerserkTooLate(ServiceError):
    template = N_("You have moved already in match #{match_id}: berserk is only before your first move.")


class AlreadyBerserk(ServiceError):
    template = N_("You have berserked already in match #{match_id}: once per game.")


class NotSeated(ServiceError):
    template = N_("You are not playing in match #{match_id}. Start your own with {/play}.")


class NotYourTurnError(ServiceError):
    """The user is seated but another player is to move; `params["user_id"]` is that player."""

    template = N_("It is <@{user_id}>'s turn, not yours.")


class BotsTurn(NotYourTurnError):
    template = N_("It is my turn, not yours: I am thinking.")


class OutOfTime(ServiceError):
    """A move on a live clock that came after the flag: the game ends on time instead."""

    template = N_("Your clock has run out in match #{match_id}: the game ends on time.")


class AlreadyResigned(ServiceError):
    template = N_("You have already resigned from match #{match_id}.")


class StaleMove(ServiceError):
    template = N_("That board has changed: look at the newest board and try again.")


class MoveNotSaved(ServiceError):
    template = N_(
        "Your move was not saved: the bot's database is full. Try it again in a few minutes; if this keeps "
        "happening, tell a server admin."
    )


class ChannelBusy(ServiceError):
    template = N_(
        "This channel already has a match in progress (#{match_id}). Finish it, or play in another channel."
    )


class ChannelNotAllowed(ServiceError):
    template = N_("Games are not played in this channel here. Ask an admin which channels allow them.")


class SelfChallenge(ServiceError):
    template = N_("You cannot challenge yourself. Pick another player, or play against me.")


class TwoPlayersOnly(ServiceError):
    template = N_("{game_name} needs {least} to {most} players: open a lobby with the players option.")


class TooManyChallenges(ServiceError):
    template = N_("You already have {count} open challenges. Wait for answers, or withdraw one first.")


class ChannelFullOfChallenges(ServiceError):
    template = N_("This channel already has {count} open challenges. Answer or withdraw some first.")


class TooManyLobbies(ServiceError):
    template = N_("You already host {count} open lobbies. Start or leave one first.")


class ChannelFullOfLobbies(ServiceError):
    template = N_("This channel already has {count} open lobbies. Join one of them, or start one first.")


class UnknownChallenge(ServiceError):
    template = N_("There is no challenge #{challenge_id}.")


class ChallengeClosed(ServiceError):
    template = N_("That challenge was already {status}. Send a new one with {/play}.")
    STATES: ClassVar[dict[str, str]] = {
        "pending": N_("pending"),
        "accepted": N_("accepted"),
        "declined": N_("declined"),
        "withdrawn": N_("withdrawn"),
        "expired": N_("expired"),
    }
    """A challenge's status in words (the status itself is data), so that a translation layer can word it."""

    def __init__(self, *, status: str) -> None:
        super().__init__(status=Text(self.STATES.get(str(status), str(status))))


class OnlyOpponent(ServiceError):
    template = N_("Only <@{user_id}>, who was challenged, can answer this challenge.")


class OnlyChallenger(ServiceError):
    template = N_("Only <@{user_id}>, who sent this challenge, can withdraw it.")


class UnknownLobby(ServiceError):
    template = N_("There is no lobby #{lobby_id}.")


class LobbyClosed(ServiceError):
    template = N_("That lobby is closed. Open a new one with {/play}.")


class LobbyBusy(ServiceError):
    template = "Players keep joining or leaving that lobby: wait a moment and start it again."


class LobbyFull(ServiceError):
    template = N_("That lobby is full ({size} players). Wait for the next one, or open your own.")


class AlreadyJoined(ServiceError):
    template = N_("You are already in this lobby.")


class NotInLobby(ServiceError):
    template = N_("You are not in this lobby.")


class NotHost(ServiceError):
    template = N_("Only <@{host_id}>, who opened the lobby, can do that.")


class NotEnoughPlayers(ServiceError):
    template = N_("The lobby has {have} of the {need} players it needs to start. Wait for more, or add me.")


class PlayerCount(ServiceError):
    template = N_("{game_name} is for {least} to {most} players.")


class BadSeatOrder(ServiceError):
    template = N_("Seat order must be random or joined.")


class CannotPass(ServiceError):
    template = N_("You cannot pass in {game_name} now: make a move instead.")


class BadAiLevel(ServiceError):
    template = N_("Unknown level {level!r}: choose a level from 1 to 8.")


class NothingToTakeBack(ServiceError):
    template = N_("You have no move to take back yet.")


class TakebacksCasualOnly(ServiceError):
    template = N_(
        "Match #{match_id} is rated, so its moves stand: against me, takebacks are for casual matches. Play "
        "me with {/play} and set rated to False to take moves back."
    )


class NoTakebackRequest(ServiceError):
    template = N_("Nobody asked for a takeback in this match.")


class TakebackPending(ServiceError):
    template = N_("A takeback request is already open in match #{match_id}: answer it first.")


class OwnRequest(ServiceError):
    template = N_("You asked for this yourself: wait for the other players to answer.")


class NotYourRequest(ServiceError):
    template = N_("Only <@{user_id}>, who asked, can withdraw this request.")


class NoAbortVote(ServiceError):
    template = N_("No abort vote is open in this match. Start one with {/abort}.")


class InvalidSetting(ServiceError):
    template = N_("The setting {name} must be {expected}.")


class TurnTimeoutRange(ServiceError):
    template = N_("The turn timeout must be between one minute and 14 days.")


class AnalysisBusy(ServiceError):
    template = N_("I am analysing several matches right now. Try again in a minute.")


class AnalysisPending(ServiceError):
    template = N_(
        "You already have an analysis running (match #{match_id}). Wait for it to finish, then ask again."
    )


class HintPending(ServiceError):
    template = N_("I am still working out your last hint. It comes in a moment; wait for it.")


class NotFinishedYet(ServiceError):
    template = N_("Match #{match_id} is still being played: ask for its analysis once it has ended.")


class NothingToAnalyse(ServiceError):
    template = N_(
        "Match #{match_id} was aborted, so there is no result to analyse. Pick another in {/history}."
    )


class HintsCasualOnly(ServiceError):
    template = N_(
        "Hints are for casual matches, and match #{match_id} is rated. Play me with {/play} and set rated "
        "to False."
    )


class HintsAgainstMeOnly(ServiceError):
    template = N_("Hints are only for matches against me. Pick me as the opponent in {/play} to get them.")


class NoPuzzles(ServiceError):
    template = N_("There is no new puzzle for you yet: puzzles come from finished matches. Try again later.")


class NoOpenPuzzle(ServiceError):
    template = N_("You have no puzzle to answer. Ask for one with {/puzzle}, then answer it.")


class PuzzleAnswered(ServiceError):
    template = N_("You have answered that puzzle already. Ask for the next one with {/puzzle}.")


class UnknownPuzzle(ServiceError):
    template = N_("There is no puzzle #{puzzle_id}. Ask for one with {/puzzle}.")


class NotAPuzzleMove(ServiceError):
    template = N_("{move!r} is not a legal move in this puzzle. Pick one from the list.")


class DrawsNotInGame(ServiceError):
    template = N_("{game} always ends with a winner, so there are no draw offers: play on, or resign.")


class DrawsWithBot(ServiceError):
    template = N_("I don't agree to draws: play on, or resign.")


class DrawsTooEarly(ServiceError):
    template = N_(
        "A draw can be offered once every player has moved. Until then, end the match with {/abort}."
    )


class DrawOfferPending(ServiceError):
    template = N_("Your draw offer is open already: wait for the other players to answer.")


class DrawOfferTooSoon(ServiceError):
    template = N_("You offered a draw recently: you may offer again after {plies} more moves.")


class NoDrawOffer(ServiceError):
    template = N_("Nobody offered a draw here. Offer one with {/draw}.")


class RematchNotOver(ServiceError):
    template = N_("Match #{match_id} is still going: a rematch is offered once it is over.")


class RematchInTournament(ServiceError):
    template = N_("Match #{match_id} was a tournament game: the tournament pairs the next one.")


class RematchPending(ServiceError):
    template = N_("A rematch of match #{match_id} is offered already: wait for the answer.")


class RematchTaken(ServiceError):
    template = N_("Match #{match_id} has had its rematch already (#{new_match_id}).")


class NoRematchOffer(ServiceError):
    template = N_("There is no open rematch offer for match #{match_id}: offer one yourself.")


USER_ERRORS: tuple[type[Exception], ...] = (ServiceError, MoveError, InvalidOptions)
"""Every exception whose message is meant for the player: catch these, reply with str(error)."""
