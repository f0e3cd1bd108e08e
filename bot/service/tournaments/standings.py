"""Standings: score, then the organiser's tie-breaks, computed from a tournament's games.

Tie-breaks (FIDE C.07, 2024), with unplayed rounds as its article 16 handles them. A round is *played* by a
player when its game ended on the board or by adjudication; a bye, a forfeit (won or lost) and a round
missed after withdrawing are *unplayed*.

- The *adjusted score* of an opponent counts each of their voluntary unplayed rounds (a forfeit lost, a
  round missed after withdrawing) as a draw, 1/2, instead of the 0 they got (16.3); a bye or a forfeit won
  keeps its points.
- Buchholz: the sum of the adjusted scores of the player's opponents in played rounds, plus, for each of the
  player's own unplayed rounds, their own final score, as if they had met a "dummy" opponent with the same
  score (16.4). At a table of k seats every other seat is an opponent (a dummy round counts k - 1 times).
- Median Buchholz: Buchholz without its highest and lowest contribution (with at least three).
- Sonneborn-Berger: for each opponent of a played round, what the player scored against them (1, 1/2, 0)
  times that opponent's adjusted score; for an unplayed round, the points it gave times the player's own
  score (the dummy again).
- Direct encounter: among players still tied on everything before it, the points each scored in the games
  between them, when every two of them met; if some never met, it separates no one.
- Wins: rounds in which the player got a win's points, on the board or not (FIDE's WIN): beating everyone
  at the table, a forfeit won, or a full-point bye.

The score is the sum of a player's points (arena: arena points, see `arena.points`, and
`arena.BERSERK_BONUS` more per berserked win). Players equal on score and every tie-break share a place.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from bot.service.tournaments import arena
from bot.service.tournaments.model import Format, Game, ResultKind, TieBreak, Tournament

PLAYED_KINDS = frozenset({ResultKind.PLAYED, ResultKind.ADJUDICATED})


@dataclass(frozen=True, slots=True)
class Standing:
    place: int
    user_id: int
    score: float
    tiebreaks: tuple[float, ...]
    """In the order of `Settings.tiebreak_order()`."""
    played: int
    wins: int
    draws: int
    losses: int
    withdrawn: bool = False
    on_fire: bool = False
    """Arena: on a winning streak now."""


@dataclass(slots=True)
class _Record:
    points: float = 0.0
    voluntary: int = 0
    unplayed: list[float] = field(default_factory=list)
    """The points of each unplayed round (byes, forfeits, absences)."""
    games: list[tuple[int, float]] = field(default_factory=list)
    """(opponent, what the player scored against them) for every played round's opponents."""
    sequence: list[float] = field(default_factory=list)
    """Two-seat results in order (arena)."""
    berserk_wins: int = 0
    """Arena: wins after berserking (each scores `arena.BERSERK_BONUS` more)."""
    wins: int = 0
    draws: int = 0
    losses: int = 0
    played: int = 0


def as_of(tournament: Tournament) -> Tournament:
    """The tournament as its standings count it: up to the last round whose every game has ended. While a
    round is in play its games are left out, results and all (a game of it that ended already counts once
    the round is over), so the title ("after round 1 of 3") and the figures agree. An arena has no rounds:
    its standings count every game that ended."""
    if tournament.settings.format is Format.ARENA or not tournament.round:
        return tournament
    if all(g.result is not None for g in tournament.round_games()):
        return tournament
    done = tournament.round - 1
    return replace(tournament, round=done, games=tuple(g for g in tournament.games if g.round <= done))


def compute(tournament: Tournament) -> list[Standing]:
    """Everyone who joined, ranked (withdrawn players too, marked)."""
    settings = tournament.settings
    order = settings.tiebreak_order()
    records = {p.user_id: _Record() for p in tournament.players}
    rounds_done = _rounds_done(tournament)
    seen: dict[int, set[int]] = defaultdict(set)
    for game in tournament.games:
        if game.result is not None:
            _add(records, game, seen)
    if settings.format is not Format.ARENA:
        for player in tournament.players:
            record = records[player.user_id]
            missing = [r for r in range(1, rounds_done + 1) if r not in seen[player.user_id]]
            for _ in missing:
                record.unplayed.append(0.0)
                if player.withdrawn_after is not None:
                    record.voluntary += 1
    scores: dict[int, float] = {}
    on_fire: dict[int, bool] = {}
    for user, record in records.items():
        if settings.format is Format.ARENA:
            total, fire = arena.points(record.sequence)
            total += arena.BERSERK_BONUS * record.berserk_wins
            scores[user], on_fire[user] = float(total), fire
        else:
            scores[user] = record.points
    adjusted = {user: scores[user] + 0.5 * records[user].voluntary for user in records}
    others = max(1, settings.seats - 1)
    values: dict[int, dict[TieBreak, float]] = {}
    for user, record in records.items():
        own = scores[user]
        contributions = [adjusted[opponent] for opponent, _ in record.games]
        contributions += [own] * (len(record.unplayed) * others)
        buchholz = sum(contributions)
        median = buchholz - max(contributions) - min(contributions) if len(contributions) >= 3 else buchholz
        sonneborn = sum(adjusted[o] * got for o, got in record.games)
        sonneborn += sum(own * got for got in record.unplayed)
        values[user] = {
            TieBreak.BUCHHOLZ: buchholz,
            TieBreak.MEDIAN_BUCHHOLZ: median,
            TieBreak.SONNEBORN_BERGER: sonneborn,
            TieBreak.WINS: float(record.wins),
            TieBreak.DIRECT_ENCOUNTER: 0.0,
        }
    ranked = _rank(tournament, list(records), scores, values, order)
    withdrawn = {p.user_id for p in tournament.players if not p.active}
    standings: list[Standing] = []
    previous: tuple[float, ...] | None = None
    place = 0
    for index, user in enumerate(ranked):
        key = (scores[user], *(values[user][t] for t in order))
        if key != previous:
            place, previous = index + 1, key
        record = records[user]
        standings.append(
            Standing(
                place=place,
                user_id=user,
                score=scores[user],
                tiebreaks=tuple(values[user][t] for t in order),
                played=record.played,
                wins=record.wins,
                draws=record.draws,
                losses=record.losses,
                withdrawn=user in withdrawn,
                on_fire=on_fire.get(user, False),
            )
        )
    return standings


def _rounds_done(tournament: Tournament) -> int:
    """Rounds whose every game has a result."""
    if tournament.round == 0:
        return 0
    if all(g.result is not None for g in tournament.round_games()):
        return tournament.round
    return tournament.round - 1


def _add(records: dict[int, _Record], game: Game, seen: dict[int, set[int]]) -> None:
    result = game.result
    assert result is not None
    seats = game.seats
    width = len(seats)
    points = result.points
    played = result.kind in PLAYED_KINDS
    full = float(max(1, width - 1))
    two = (
        width == 2 and points[0] + points[1] == 1.0
    )  # what a seat scored is what it scored against the other
    for seat, user in enumerate(seats):
        record = records.get(user)
        if record is None:
            continue
        seen[user].add(game.round)
        got = points[seat]
        record.points += got
        if got == full and (width > 1 or got > 0):
            record.wins += 1
        if not played:
            record.unplayed.append(got)
            if result.kind is ResultKind.FORFEIT and got == 0:
                record.voluntary += 1
            continue
        record.played += 1
        if two:
            record.games.append((seats[1 - seat], got))
        else:
            record.games.extend(
                (opponent, result.against(seat, other))
                for other, opponent in enumerate(seats)
                if other != seat
            )
        if width == 2:
            record.sequence.append(got)
            if got == 1.0 and user in game.berserk:
                record.berserk_wins += 1
        if got != full:
            if got == 0:
                record.losses += 1
            else:
                record.draws += 1


def _rank(
    tournament: Tournament,
    users: list[int],
    scores: dict[int, float],
    values: dict[int, dict[TieBreak, float]],
    order: Sequence[TieBreak],
) -> list[int]:
    """Sort by score and each tie-break in turn; direct encounter is worked out inside each block still
    tied on everything before it."""
    numbers = {p.user_id: p.number for p in tournament.players}
    games_of: dict[int, list[Game]] | None = None
    blocks: list[list[int]] = [users]
    for tiebreak in (None, *order):
        refined: list[list[int]] = []
        for block in blocks:
            if len(block) == 1:
                refined.append(block)
                continue
            if tiebreak is TieBreak.DIRECT_ENCOUNTER:
                if games_of is None:
                    games_of = defaultdict(list)
                    for game in tournament.games:
                        if game.result is not None and game.result.kind is not ResultKind.BYE:
                            for user in game.seats:
                                games_of[user].append(game)
                _direct(games_of, block, values)
            column = scores if tiebreak is None else {u: values[u][tiebreak] for u in block}
            block.sort(key=lambda u: -column[u])
            start = 0
            for i in range(1, len(block) + 1):
                if i == len(block) or column[block[i]] != column[block[start]]:
                    refined.append(block[start:i])
                    start = i
        blocks = refined
    return [user for block in blocks for user in sorted(block, key=lambda u: numbers.get(u, 0))]


def _direct(
    games_of: dict[int, list[Game]], block: list[int], values: dict[int, dict[TieBreak, float]]
) -> None:
    tied = set(block)
    met: set[frozenset[int]] = set()
    got: dict[int, float] = dict.fromkeys(block, 0.0)
    for user in block:
        for game in games_of.get(user, ()):
            result = game.result
            assert result is not None
            seat = game.seats.index(user)
            for other, opponent in enumerate(game.seats):
                if other != seat and opponent in tied:
                    met.add(frozenset((user, opponent)))
                    got[user] += result.against(seat, other)
    everyone_met = all(frozenset((u, v)) in met for i, u in enumerate(block) for v in block[i + 1 :])
    for user in block:
        values[user][TieBreak.DIRECT_ENCOUNTER] = got[user] if everyone_met else 0.0
