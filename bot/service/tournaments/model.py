"""The plain records of a tournament: settings, players, games and results (frozen dataclasses, no I/O).

A tournament is one immutable `Tournament` value; `lifecycle` turns it and an event into the next value and
the actions the host performs. Everything here is data a store can keep as it is (ints, floats, strings,
tuples, enums that are strings).

Scoring (our rule, FIDE's for two seats): a game gives each seat one point for every opponent at the table
it finished ahead of and half a point for every opponent it tied with. Two seats: win 1, draw 1/2, loss 0;
a table of four: 3, 2, 1, 0 for places one to four. A pairing-allocated bye scores `Settings.bye_points`
(a win's point, FIDE C.04.1.c); an absent round (withdrawn, or a round robin's rest) scores 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.service.timecontrol import TimeControl


class Format(StrEnum):
    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    ARENA = "arena"


class Status(StrEnum):
    OPEN = "open"
    """Players may join; not started."""
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class DeadlineRule(StrEnum):
    """What a match still running at its round's deadline (an arena's end) becomes."""

    DRAW = "draw"
    LOSS_TO_MOVE = "loss_to_move"
    """The seat that is to move loses; everyone else at the table shares the rest of the places."""


class ResultKind(StrEnum):
    PLAYED = "played"
    """Finished on the board (a resignation or a timeout on the turn clock included)."""
    ADJUDICATED = "adjudicated"
    """Ended at the round's deadline by the organiser's rule: counts like a played game (and is rated)."""
    FORFEIT = "forfeit"
    """Someone never moved (a no-show) or withdrew before playing: the absent seats lose; unrated, and FIDE
    counts it as not played for tie-breaks (see `standings`)."""
    BYE = "bye"
    """A pairing-allocated bye: one seat, `Settings.bye_points`."""


class TieBreak(StrEnum):
    BUCHHOLZ = "buchholz"
    MEDIAN_BUCHHOLZ = "median_buchholz"
    SONNEBORN_BERGER = "sonneborn_berger"
    DIRECT_ENCOUNTER = "direct_encounter"
    WINS = "wins"


DEFAULT_TIEBREAKS: Mapping[Format, tuple[TieBreak, ...]] = {
    # FIDE's advice for individual Swiss events: the Buchholz family first, then results among the tied.
    Format.SWISS: (
        TieBreak.BUCHHOLZ,
        TieBreak.MEDIAN_BUCHHOLZ,
        TieBreak.SONNEBORN_BERGER,
        TieBreak.DIRECT_ENCOUNTER,
        TieBreak.WINS,
    ),
    # Everyone met everyone: Buchholz says nothing, the games among the tied players do.
    Format.ROUND_ROBIN: (TieBreak.DIRECT_ENCOUNTER, TieBreak.SONNEBORN_BERGER, TieBreak.WINS),
    # lichess ranks an arena by points alone; wins then split the ties.
    Format.ARENA: (TieBreak.WINS, TieBreak.SONNEBORN_BERGER),
}


DEFAULT_TURN_S = 86400
"""An event's time per turn when the organiser names none and the event has no length: a day."""
TURN_STEPS_S = (60, 120, 180, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400)
"""The times per turn an event's default is rounded down to (1, 2, 3, 5, 10, 15, 30 minutes, 1, 2, 3, 6, 12
hours, a day)."""
ROUND_BREAK_S = 60
"""Seconds between a live round's last result and the next round's pairings (`Settings.round_break_s`)."""
TURNS_TO_FIT = 20
"""An event with a length gives each turn at most this share of it by default (one twentieth)."""


def default_turn_s(format: Format, duration_s: int, round_s: int | None = None) -> int:
    """The time per turn of an event whose organiser names none: it fits the event's length, an arena's
    duration or a round's deadline: a twentieth of it, rounded down to a step of `TURN_STEPS_S`, at least a
    minute and at most a day (a 15-minute arena: 1 minute; an hour's: 3 minutes; a round of a day: an
    hour). An event without a length (rounds that wait for their last match) gives a day."""
    length = duration_s if format is Format.ARENA else round_s
    if length is None:
        return DEFAULT_TURN_S
    share = length / TURNS_TO_FIT
    return max((step for step in TURN_STEPS_S if step <= share), default=TURN_STEPS_S[0])


@dataclass(frozen=True, slots=True)
class Settings:
    """What the organiser chose at /tournament create."""

    game: str
    format: Format
    options: Mapping[str, Any] = field(default_factory=dict)
    seats: int = 2
    """Players per match: 2, or 3-4 for TilingKing tables (seated by score)."""
    rounds: int | None = None
    """Swiss: the number of rounds (None: enough to find a winner, ceil(log2 n) + 1, at most n - 1).
    Round robin: ignored (n - 1 rounds, twice with `double`). Arena: ignored."""
    double: bool = False
    duration_s: int = 3600
    """Arena: how long players are paired again, from the start."""
    turn_s: int = DEFAULT_TURN_S
    """Time per turn in the event's matches (`/tournament create` defaults it by `default_turn_s`)."""
    round_s: int | None = None
    """A round's deadline after it opens (None: the round waits for its last match)."""
    deadline_rule: DeadlineRule = DeadlineRule.DRAW
    rated: bool = True
    starts_at: float | None = None
    """Epoch seconds: the event starts itself then (None: the organiser starts it)."""
    role_id: int | None = None
    """Who may join: members with this role (None: anyone)."""
    max_players: int | None = None
    min_players: int = 2
    bye_points: float = 1.0
    tiebreaks: tuple[TieBreak, ...] | None = None
    """The order tie-breaks apply in (None: `DEFAULT_TIEBREAKS` of the format)."""
    clock: str | None = None
    """The event's live time control as players write it (``3+2``; bot/service/timecontrol.py), which every
    match gets as its `time_control`; None: correspondence, `turn_s` per turn."""
    round_break_s: int = ROUND_BREAK_S
    """A live Swiss or round robin: seconds between the end of a round's last match and the next round."""

    @property
    def time_control(self) -> TimeControl | None:
        """The live control of the event's matches (None: correspondence)."""
        return TimeControl.of(self.clock)

    def tiebreak_order(self) -> tuple[TieBreak, ...]:
        return self.tiebreaks if self.tiebreaks is not None else DEFAULT_TIEBREAKS[self.format]


@dataclass(frozen=True, slots=True)
class Player:
    user_id: int
    rating: float
    number: int
    """Order of joining from 1; ties in rating are broken by it (the pairing number)."""
    withdrawn_after: int | None = None
    """The last round the player took part in before withdrawing (0: withdrew before round 1)."""

    @property
    def active(self) -> bool:
        return self.withdrawn_after is None


@dataclass(frozen=True, slots=True)
class Result:
    """Points per seat (see the module doc) and how the game ended."""

    points: tuple[float, ...]
    kind: ResultKind = ResultKind.PLAYED

    @classmethod
    def from_places(cls, places: Sequence[int], kind: ResultKind = ResultKind.PLAYED) -> Result:
        """From each seat's place (1 = first; equal places share): one point per opponent beaten, half a
        point per opponent tied."""
        points = tuple(
            sum(1.0 if mine < theirs else 0.5 if mine == theirs else 0.0 for theirs in places) - 0.5
            for mine in places
        )
        return cls(points, kind)

    @classmethod
    def from_winners(cls, seats: int, winners: Sequence[int], kind: ResultKind = ResultKind.PLAYED) -> Result:
        """A game with winners (sharing first place) and everyone else sharing the place after them; no
        winners is a draw."""
        if not winners:
            return cls.from_places([1] * seats, kind)
        return cls.from_places([1 if s in winners else 2 for s in range(seats)], kind)

    def against(self, seat: int, other: int) -> float:
        """What `seat` scored against `other` at this table: 1, 1/2 or 0."""
        mine, theirs = self.points[seat], self.points[other]
        return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


@dataclass(frozen=True, slots=True)
class Game:
    """One pairing: a match (or a bye, with one seat) of a round."""

    number: int
    """Unique in the tournament, from 1."""
    round: int
    """The round (arena: the pairing wave, counted from 1)."""
    seats: tuple[int, ...]
    """User ids in seat order: seat 0 plays first (White)."""
    match_id: int | None = None
    result: Result | None = None
    adjudicating: bool = False
    """The deadline passed and the host was asked to adjudicate it."""
    berserk: tuple[int, ...] = ()
    """The users who berserked in this game (an arena on a live clock: half their clock), once it ended
    after enough moves to earn the bonus (`host.BERSERK_MIN_PLIES`): a win of theirs scores one more."""

    @property
    def is_bye(self) -> bool:
        return len(self.seats) == 1

    @property
    def finished(self) -> bool:
        return self.result is not None


@dataclass(frozen=True, slots=True)
class Tournament:
    """One event, as a value: `lifecycle` makes the next one."""

    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    settings: Settings
    created_at: float
    status: Status = Status.OPEN
    players: tuple[Player, ...] = ()
    games: tuple[Game, ...] = ()
    round: int = 0
    """The round in play (0 before the start)."""
    rounds_total: int = 0
    """Fixed at the start (0 for an arena)."""
    started_at: float | None = None
    round_deadline: float | None = None
    next_round_at: float | None = None
    """A live Swiss or round robin between rounds: when the next round opens (`Settings.round_break_s`)."""
    ends_at: float | None = None
    """Arena: when pairing stops."""
    finished_at: float | None = None
    cancel_reason: str | None = None

    def player(self, user_id: int) -> Player | None:
        for player in self.players:
            if player.user_id == user_id:
                return player
        return None

    def round_games(self, number: int | None = None) -> tuple[Game, ...]:
        wanted = self.round if number is None else number
        return tuple(g for g in self.games if g.round == wanted)

    def running_games(self) -> tuple[Game, ...]:
        return tuple(g for g in self.games if g.result is None)

    def busy(self) -> frozenset[int]:
        """Players in a match that has not ended."""
        return frozenset(user for g in self.games if g.result is None for user in g.seats)
