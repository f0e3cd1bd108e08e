"""The life cycle of a tournament as a pure state machine: `step(tournament, event)` returns the next
tournament value and the actions the host performs. Nothing here waits, stores or talks to Discord, so the
host only persists the new value and carries the actions out (then feeds back what came of them:
`MatchOpened` once it opened a match, `MatchEnded` when a match ends).

The rules:
- Open: players join (with the role the organiser named, up to the player limit) and leave freely. The
  organiser starts it (`Start`), or `Tick` does at `starts_at`; too few players then cancels it.
- Each round opens its matches (`OpenMatch`, `Ping`, `PostPairings`); a Swiss round's bye and a round robin's
  rest are recorded at once. When the round's last match ends, the next round opens (after `PostStandings`);
  in a live event (`Settings.clock`) it opens on a timer, `Settings.round_break_s` later (`next_round_at`,
  sent by `Tick`). After the last round the event finishes: final standings and a `Podium`.
- A round with a deadline (`round_s`): at the deadline every match still running is sent for adjudication
  (`Adjudicate`, once); the host applies `adjudicate` and reports the result like any other. A match in
  which a seat has not moved yet is not adjudicated but aborted (`unplayed`): unrated, no points, except a
  seat that never moved and whose own turn time is over loses by forfeit (no-show), unrated (`is_rated`).
- Withdrawing while running: the player is paired no more; a match they are still playing is resigned
  (`ResignMatch`), a game whose match has not opened yet is lost by forfeit at once (its match, should it
  open after all, is aborted: `AbortMatch`). In a round robin their later games are forfeits won by the
  opponent (no match opens). Their results stay in the standings (FIDE's practice for a Swiss).
- Swiss rounds: `Settings.rounds`, or `swiss.default_rounds`; if no pairing without a rematch is
  left, the event finishes early. Round robin: n - 1 rounds (odd n: n), twice when double.
- Arena: from the start until `ends_at` free players are paired at once (see `arena`); players may join
  while it runs. At `ends_at` no new match opens and matches still running are adjudicated by the same
  rule as a round's deadline (unplayed ones aborted); the event finishes when the last one ends.
- `Cancel` ends everything: running matches are aborted (`AbortMatch`).
- Events that no longer apply (a second result for a match, a tick before anything is due) change nothing,
  so the host may deliver an event twice. After a restart, `recover` lists the work the host still owes
  (matches not opened yet, adjudications asked for); `next_wakeup` says when to send the next `Tick`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from bot.service.tournaments import arena, roundrobin, swiss, tables
from bot.service.tournaments.errors import (
    REASONS,
    AlreadyJoined,
    AlreadyStarted,
    BadSettings,
    Full,
    NotJoined,
    NotOpen,
    NotRunning,
    RoleRequired,
    TooFewPlayers,
)
from bot.service.tournaments.model import (
    DeadlineRule,
    Format,
    Game,
    Player,
    Result,
    ResultKind,
    Settings,
    Status,
    Tournament,
)
from bot.service.tournaments.standings import PLAYED_KINDS, Standing, compute
from games.texts import Text

# ------------------------------------------------------------------------------------------------ events


@dataclass(frozen=True, slots=True)
class Join:
    user_id: int
    rating: float
    at: float
    roles: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Leave:
    user_id: int
    at: float


@dataclass(frozen=True, slots=True)
class Start:
    at: float


@dataclass(frozen=True, slots=True)
class MatchOpened:
    game: int
    """`Game.number`."""
    match_id: int


@dataclass(frozen=True, slots=True)
class MatchEnded:
    match_id: int
    result: Result
    at: float
    berserk: tuple[int, ...] = ()
    """The users who berserked in it (arena: a win of theirs scores `arena.BERSERK_BONUS` more)."""


@dataclass(frozen=True, slots=True)
class Tick:
    at: float


@dataclass(frozen=True, slots=True)
class Cancel:
    at: float
    reason: str = "organiser"


Event = Join | Leave | Start | MatchOpened | MatchEnded | Tick | Cancel

# ----------------------------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class OpenMatch:
    """Open a match of `Settings.game` with these players in seat order; then send `MatchOpened`."""

    game: int
    round: int
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Ping:
    round: int
    user_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PostPairings:
    round: int


@dataclass(frozen=True, slots=True)
class PostStandings:
    final: bool
    next_round_at: float | None = None
    """A live event's break: when the next round opens (the post says so)."""


@dataclass(frozen=True, slots=True)
class Adjudicate:
    """The deadline passed: end this match by `adjudicate(rule, ...)` and send `MatchEnded`."""

    match_id: int
    rule: DeadlineRule


@dataclass(frozen=True, slots=True)
class ResignMatch:
    match_id: int
    user_id: int


@dataclass(frozen=True, slots=True)
class AbortMatch:
    match_id: int


@dataclass(frozen=True, slots=True)
class Podium:
    places: tuple[Standing, ...]
    """The standings of places 1 to 3 (more players when they share a place)."""


@dataclass(frozen=True, slots=True)
class Cancelled:
    reason: str


Action = (
    OpenMatch
    | Ping
    | PostPairings
    | PostStandings
    | Adjudicate
    | ResignMatch
    | AbortMatch
    | Podium
    | Cancelled
)


@dataclass(frozen=True, slots=True)
class Step:
    tournament: Tournament
    actions: tuple[Action, ...] = ()


# ------------------------------------------------------------------------------------------------ create


def create(
    id: int, guild_id: int, channel_id: int, organiser_id: int, settings: Settings, at: float
) -> Tournament:
    """A new open tournament; BadSettings says what does not fit."""
    if settings.format is Format.SWISS and settings.rounds is not None and settings.rounds < 1:
        raise _bad("rounds")
    if settings.seats != 2 and (settings.format is not Format.SWISS or not 3 <= settings.seats <= 4):
        raise _bad("seats")
    if settings.format is Format.ARENA and settings.duration_s < 60:
        raise _bad("duration")
    if settings.max_players is not None and settings.max_players < max(2, settings.min_players):
        raise _bad("players")
    return Tournament(id, guild_id, channel_id, organiser_id, settings, created_at=at)


def _bad(key: str) -> BadSettings:
    return BadSettings(reason=Text(REASONS[key]))


def adjudicate(rule: DeadlineRule, seats: int, to_move: int | None, no_shows: Sequence[int] = ()) -> Result:
    """The result of a match ended at the deadline. Seats that had a turn and never moved (`no_shows`) lose
    by forfeit, everyone else shares the places above them (nobody moved: everyone loses); else by the
    organiser's rule: a draw, or the seat to move loses and the others share first place."""
    absent = set(no_shows)
    if absent:
        if len(absent) == seats:
            return Result((0.0,) * seats, ResultKind.FORFEIT)
        return Result.from_places([2 if s in absent else 1 for s in range(seats)], ResultKind.FORFEIT)
    if rule is DeadlineRule.LOSS_TO_MOVE and to_move is not None:
        return Result.from_places([2 if s == to_move else 1 for s in range(seats)], ResultKind.ADJUDICATED)
    return Result.from_places([1] * seats, ResultKind.ADJUDICATED)


def unplayed(seats: int, no_shows: Sequence[int] = ()) -> Result:
    """The result of a match stopped (at a deadline) before every seat had moved: aborted, so a forfeit,
    unrated, as any match left before everyone moved; the no-shows (out of their own turn time without a
    move) lose it, and without one nobody scores."""
    if no_shows:
        return adjudicate(DeadlineRule.DRAW, seats, None, no_shows)
    return Result((0.0,) * seats, ResultKind.FORFEIT)


def finished_result(
    seats: int, places: Sequence[int] | None = None, winners: Sequence[int] = (), no_shows: Sequence[int] = ()
) -> Result:
    """The result of a match that ended on its own (on the board, by resignation or on the turn clock): by
    each seat's place, or by its winners (none: a draw). A seat that never moved before its time ran out is
    a no-show: the match is then a forfeit (unrated), lost by the no-shows."""
    if no_shows:
        return adjudicate(DeadlineRule.DRAW, seats, None, no_shows)
    if places is not None:
        return Result.from_places(places)
    return Result.from_winners(seats, winners)


def is_rated(tournament: Tournament, result: Result) -> bool:
    """Whether a match's result goes into the ratings: a rated event's games, not its forfeits or byes."""
    return tournament.settings.rated and result.kind in (ResultKind.PLAYED, ResultKind.ADJUDICATED)


def recover(tournament: Tournament) -> tuple[Action, ...]:
    """What a host that restarted must (re)do for a running tournament: open the matches that have no match
    yet, and adjudicate those it was asked to adjudicate. Opening must be keyed by (tournament, game number),
    so a match opened just before a crash is found again rather than opened twice."""
    if tournament.status is not Status.RUNNING:
        return ()
    actions: list[Action] = []
    for game in tournament.running_games():
        if game.match_id is None:
            actions.append(OpenMatch(game.number, game.round, game.seats))
        elif game.adjudicating:
            actions.append(Adjudicate(game.match_id, tournament.settings.deadline_rule))
    return tuple(actions)


def next_wakeup(tournament: Tournament) -> float | None:
    """When the host should send the next `Tick` (None: nothing is due on a clock)."""
    if tournament.status is Status.OPEN:
        return tournament.settings.starts_at
    if tournament.status is not Status.RUNNING:
        return None
    pending = [g for g in tournament.running_games() if not g.adjudicating]
    times = [] if tournament.next_round_at is None else [tournament.next_round_at]
    if tournament.round_deadline is not None and pending:
        times.append(tournament.round_deadline)
    if tournament.ends_at is not None and (pending or not tournament.running_games()):
        times.append(tournament.ends_at)
    return min(times) if times else None


# ------------------------------------------------------------------------------------------------- steps


def step(tournament: Tournament, event: Event) -> Step:
    """The next tournament value and what the host must do (see the module doc)."""
    if isinstance(event, Join):
        return _join(tournament, event)
    if isinstance(event, Leave):
        return _leave(tournament, event)
    if isinstance(event, Start):
        return _start(tournament, event.at)
    if isinstance(event, MatchOpened):
        return _opened(tournament, event)
    if isinstance(event, MatchEnded):
        return _ended(tournament, event)
    if isinstance(event, Tick):
        return _tick(tournament, event.at)
    return _cancel(tournament, event.reason, event.at)


def _join(t: Tournament, event: Join) -> Step:
    arena_open = t.settings.format is Format.ARENA and t.status is Status.RUNNING and _arena_on(t, event.at)
    if t.status is not Status.OPEN and not arena_open:
        raise NotOpen(number=t.id)
    existing = t.player(event.user_id)
    if existing is not None and existing.active:
        raise AlreadyJoined(number=t.id)
    if t.settings.role_id is not None and t.settings.role_id not in event.roles:
        raise RoleRequired(number=t.id, role_id=t.settings.role_id)
    active = sum(1 for p in t.players if p.active)
    if t.settings.max_players is not None and active >= t.settings.max_players:
        raise Full(number=t.id, count=t.settings.max_players)
    if existing is not None:  # back in an arena after leaving it
        players = tuple(replace(p, withdrawn_after=None) if p is existing else p for p in t.players)
    else:
        number = max((p.number for p in t.players), default=0) + 1
        players = (*t.players, Player(event.user_id, event.rating, number))
    joined = replace(t, players=players)
    if arena_open:
        return _arena_pair(joined, event.at)
    return Step(joined)


def _leave(t: Tournament, event: Leave) -> Step:
    player = t.player(event.user_id)
    if player is None or not player.active:
        raise NotJoined(number=t.id)
    if t.status is Status.OPEN:
        return Step(replace(t, players=tuple(p for p in t.players if p.user_id != event.user_id)))
    if t.status is not Status.RUNNING:
        raise NotRunning(number=t.id)
    players = tuple(replace(p, withdrawn_after=t.round) if p is player else p for p in t.players)
    actions: list[Action] = [
        ResignMatch(g.match_id, event.user_id)
        for g in t.running_games()
        if event.user_id in g.seats and g.match_id is not None
    ]
    # A game whose match has not opened yet is lost by forfeit now (its match is aborted if it opens).
    games, forfeited = [], False
    for game in t.games:
        if game.result is None and game.match_id is None and event.user_id in game.seats:
            places = [2 if user == event.user_id else 1 for user in game.seats]
            game = replace(game, result=Result.from_places(places, ResultKind.FORFEIT))
            forfeited = True
        games.append(game)
    left = replace(t, players=players, games=tuple(games))
    if not forfeited:
        return Step(left, tuple(actions))
    after = _arena_pair(left, event.at) if t.settings.format is Format.ARENA else _after_round(left, event.at)
    return Step(after.tournament, (*actions, *after.actions))


def _start(t: Tournament, at: float) -> Step:
    if t.status is not Status.OPEN:
        raise AlreadyStarted(number=t.id)
    need = max(2, t.settings.min_players)
    if len(t.players) < need:
        raise TooFewPlayers(number=t.id, count=need, joined=len(t.players))
    settings = t.settings
    n = len(t.players)
    if settings.format is Format.ROUND_ROBIN:
        total = roundrobin.rounds_for(n, settings.double)
    elif settings.format is Format.SWISS:
        total = settings.rounds or swiss.default_rounds(n)
    else:
        total = 0
    started = replace(t, status=Status.RUNNING, started_at=at, rounds_total=total)
    if settings.format is Format.ARENA:
        return _arena_pair(replace(started, ends_at=at + settings.duration_s), at)
    return _open_round(started, at)


def _opened(t: Tournament, event: MatchOpened) -> Step:
    """Record the match of a game; a game already decided (a player withdrew first) has it aborted."""
    game = next((g for g in t.games if g.number == event.game and g.match_id is None), None)
    if game is None:
        return Step(t)
    games = tuple(replace(g, match_id=event.match_id) if g is game else g for g in t.games)
    aborts: tuple[Action, ...] = (AbortMatch(event.match_id),) if game.result is not None else ()
    return Step(replace(t, games=games), aborts)


def _ended(t: Tournament, event: MatchEnded) -> Step:
    game = next((g for g in t.games if g.match_id == event.match_id), None)
    if game is None or game.result is not None or t.status is not Status.RUNNING:
        return Step(t)
    if len(event.result.points) != len(game.seats):
        seats, points = len(game.seats), len(event.result.points)
        raise ValueError(f"match {event.match_id} has {seats} seats, not {points}")
    ended = replace(game, result=event.result, berserk=tuple(u for u in event.berserk if u in game.seats))
    t = replace(t, games=tuple(ended if g is game else g for g in t.games))
    if t.settings.format is Format.ARENA:
        if _arena_on(t, event.at):
            return _arena_pair(t, event.at)
        return _finish(t, event.at) if not t.running_games() else Step(t)
    return _after_round(t, event.at)


def _tick(t: Tournament, at: float) -> Step:
    if t.status is Status.OPEN:
        starts = t.settings.starts_at
        if starts is None or at < starts:
            return Step(t)
        if len(t.players) < max(2, t.settings.min_players):
            return _cancel(t, "too_few_players", at)
        return _start(t, at)
    if t.status is not Status.RUNNING:
        return Step(t)
    if t.next_round_at is not None:
        if at < t.next_round_at:
            return Step(t)
        return _open_round(replace(t, next_round_at=None), at)
    due = (t.round_deadline is not None and at >= t.round_deadline) or (
        t.ends_at is not None and at >= t.ends_at
    )
    if not due:
        return Step(t)
    if t.settings.format is Format.ARENA and not t.running_games():
        return _finish(t, at)
    actions: list[Action] = []
    games = []
    for game in t.games:
        if game.result is None and not game.adjudicating and game.match_id is not None:
            actions.append(Adjudicate(game.match_id, t.settings.deadline_rule))
            game = replace(game, adjudicating=True)
        games.append(game)
    return Step(replace(t, games=tuple(games)), tuple(actions))


def _cancel(t: Tournament, reason: str, at: float) -> Step:
    if t.status in (Status.FINISHED, Status.CANCELLED):
        return Step(t)
    aborts = [AbortMatch(g.match_id) for g in t.running_games() if g.match_id is not None]
    cancelled = replace(t, status=Status.CANCELLED, cancel_reason=reason, finished_at=at)
    return Step(cancelled, (*aborts, Cancelled(reason)))


# ------------------------------------------------------------------------------------------------ rounds


def _active(t: Tournament) -> list[Player]:
    return [p for p in t.players if p.active]


def _after_round(t: Tournament, at: float) -> Step:
    """The round's last match ended: the next round opens now, or, in a live event (a clock), after
    `Settings.round_break_s` (`next_round_at`; `_tick` opens it); after the last round the event finishes."""
    if any(g.result is None for g in t.round_games()) or t.next_round_at is not None:
        return Step(t)
    if t.round >= t.rounds_total:
        return _finish(t, at)
    if t.settings.clock is not None:
        opens = at + t.settings.round_break_s
        return Step(replace(t, next_round_at=opens, round_deadline=None), (PostStandings(False, opens),))
    step_ = _open_round(t, at)
    return Step(step_.tournament, (PostStandings(final=False), *step_.actions))


def _open_round(t: Tournament, at: float) -> Step:
    """Pair the next round; finish instead when no pairing is left (or fewer than two players)."""
    number = t.round + 1
    settings = t.settings
    try:
        seated, rests, forfeits = _pairings(t, number)
    except ValueError:
        return _finish(t, at)
    if not seated and not forfeits:
        return _finish(t, at)
    games = list(t.games)
    next_number = len(games) + 1
    opened: list[Game] = []
    for seats in seated:
        game = Game(next_number, number, seats)
        games.append(game)
        opened.append(game)
        next_number += 1
    for user, points in rests:
        games.append(Game(next_number, number, (user,), result=Result((points,), ResultKind.BYE)))
        next_number += 1
    for winner, loser in forfeits:
        result = Result((1.0, 0.0), ResultKind.FORFEIT)
        games.append(Game(next_number, number, (winner, loser), result=result))
        next_number += 1
    deadline = at + settings.round_s if settings.round_s is not None else None
    t = replace(t, games=tuple(games), round=number, round_deadline=deadline)
    actions: list[Action] = [PostPairings(number)]
    actions += [OpenMatch(g.number, number, g.seats) for g in opened]
    pinged = tuple(u for g in opened for u in g.seats)
    if pinged:
        actions.append(Ping(number, pinged))
    if not opened:  # only byes and forfeits: the round is over at once
        after = _after_round(t, at)
        return Step(after.tournament, (*actions, *after.actions))
    return Step(t, tuple(actions))


def _pairings(
    t: Tournament, number: int
) -> tuple[list[tuple[int, ...]], list[tuple[int, float]], list[tuple[int, int]]]:
    """(matches as seat tuples, rests/byes as (user, points), forfeits as (winner, loser))."""
    settings = t.settings
    active = _active(t)
    if settings.format is Format.ROUND_ROBIN:
        seeded = [p.user_id for p in sorted(t.players, key=lambda p: (-p.rating, p.number))]
        pairs, rest = roundrobin.pair(seeded, number, settings.double)
        gone = {p.user_id for p in t.players if not p.active}
        matches = [pair for pair in pairs if not gone & set(pair)]
        forfeits = [(b, a) if a in gone else (a, b) for a, b in pairs if gone & {a, b} and not {a, b} <= gone]
        rests = [(rest, 0.0)] if rest is not None and rest not in gone else []
        return [tuple(m) for m in matches], rests, forfeits
    if len(active) < 2:
        return [], [], []
    history = _history(t)
    if settings.seats > 2:
        seatable = [
            tables.Seatable(
                p.user_id,
                p.rating,
                p.number,
                history[p.user_id].score,
                tuple(history[p.user_id].seat_counts),
                history[p.user_id].met,
            )
            for p in active
        ]
        seated, bye = tables.seat(seatable, settings.seats)
        return list(seated), ([(bye, settings.bye_points)] if bye is not None else []), []
    entrants = [
        swiss.Entrant(
            p.user_id,
            p.rating,
            p.number,
            history[p.user_id].score,
            tuple(history[p.user_id].colours),
            frozenset(history[p.user_id].met),
            history[p.user_id].byes,
            history[p.user_id].floats.get(number - 1, 0),
        )
        for p in active
    ]
    pairing = swiss.pair(entrants)
    byes = [(pairing.bye, settings.bye_points)] if pairing.bye is not None else []
    return [tuple(pair) for pair in pairing.pairs], byes, []


@dataclass(slots=True)
class _History:
    seats: int
    score: float = 0.0
    colours: list[int] = field(default_factory=list)
    met: dict[int, int] = field(default_factory=dict)
    byes: int = 0
    seat_counts: list[int] = field(default_factory=list)
    last_opponent: int | None = None
    floats: dict[int, int] = field(default_factory=dict)
    results: list[float] = field(default_factory=list)
    """Two-seat results in order (what arena points are counted from)."""
    """Round -> +1 if the player met a lower score then (floated down), -1 a higher one."""
    berserk_wins: int = 0
    """Arena: wins after berserking (each `arena.BERSERK_BONUS` more)."""


def _history(t: Tournament) -> dict[int, _History]:
    """Per player: score, colours of games played (+1 White), who they met and how often, byes, seats."""
    width = max(2, t.settings.seats)
    out = {p.user_id: _History(width, seat_counts=[0] * width) for p in t.players}
    for game in t.games:
        if len(game.seats) == 2 and game.seats[0] in out and game.seats[1] in out:
            first, second = out[game.seats[0]], out[game.seats[1]]
            if first.score != second.score:  # the scores before this game: who floated which way
                first.floats[game.round] = 1 if first.score > second.score else -1
                second.floats[game.round] = -first.floats[game.round]
        for seat, user in enumerate(game.seats):
            h = out.get(user)
            if h is None:
                continue
            if game.result is not None:
                h.score += game.result.points[seat]
                if len(game.seats) == 2 and game.result.kind in PLAYED_KINDS:
                    h.results.append(game.result.points[seat])
                    if game.result.points[seat] == 1.0 and user in game.berserk:
                        h.berserk_wins += 1
            if game.is_bye:
                h.byes += 1 if game.result is not None and game.result.points[0] > 0 else 0
                continue
            for other in game.seats:
                if other != user:
                    h.met[other] = h.met.get(other, 0) + 1
                    h.last_opponent = other
            if game.result is None or game.result.kind is not ResultKind.FORFEIT:
                h.seat_counts[seat] += 1
                if len(game.seats) == 2:
                    h.colours.append(1 if seat == 0 else -1)
    return out


def _finish(t: Tournament, at: float) -> Step:
    finished = replace(t, status=Status.FINISHED, finished_at=at, round_deadline=None)
    table = compute(finished)
    podium = tuple(s for s in table if s.place <= 3)
    return Step(finished, (PostStandings(final=True), Podium(podium)))


# ------------------------------------------------------------------------------------------------- arena


def _arena_on(t: Tournament, at: float) -> bool:
    return t.ends_at is not None and at < t.ends_at


def _arena_pair(t: Tournament, at: float) -> Step:
    """Pair every free active player of a running arena (see `arena.pair`)."""
    if not _arena_on(t, at):
        return Step(t)
    busy = t.busy()
    history = _history(t)
    waiting = [
        arena.Waiting(
            p.user_id,
            p.rating,
            p.number,
            arena.points(history[p.user_id].results)[0]
            + arena.BERSERK_BONUS * history[p.user_id].berserk_wins,
            history[p.user_id].last_opponent,
            sum(history[p.user_id].colours),
        )
        for p in _active(t)
        if p.user_id not in busy
    ]
    pairs = arena.pair(waiting)
    if not pairs:
        return Step(t)
    wave = t.round + 1
    games = list(t.games)
    opened = []
    for white, black in pairs:
        game = Game(len(games) + 1, wave, (white, black))
        games.append(game)
        opened.append(game)
    t = replace(t, games=tuple(games), round=wave)
    actions: list[Action] = [OpenMatch(g.number, wave, g.seats) for g in opened]
    actions.append(Ping(wave, tuple(u for g in opened for u in g.seats)))
    return Step(t, tuple(actions))
