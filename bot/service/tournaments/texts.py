"""Standings, pairings and the podium in words, as `Text` (English that the Discord layer rewords in each
reader's language). Names are data: the host passes each player's display name (or mention)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bot.service.tournaments.model import Format, TieBreak, Tournament
from bot.service.tournaments.standings import Standing
from games.texts import N_, Text, table_numbers

TIEBREAK_ABBREVIATIONS: Mapping[TieBreak, str] = {
    TieBreak.BUCHHOLZ: N_("Bh"),
    TieBreak.MEDIAN_BUCHHOLZ: N_("MBh"),
    TieBreak.SONNEBORN_BERGER: N_("SB"),
    TieBreak.DIRECT_ENCOUNTER: N_("DE"),
    TieBreak.WINS: N_("Wins"),
}
"""The short names of the tie-breaks (the image's column heads too)."""

TIEBREAK_KEYS: Mapping[TieBreak, str] = {
    TieBreak.BUCHHOLZ: N_("Bh: Buchholz"),
    TieBreak.MEDIAN_BUCHHOLZ: N_("MBh: median Buchholz"),
    TieBreak.SONNEBORN_BERGER: N_("SB: Sonneborn-Berger"),
    TieBreak.DIRECT_ENCOUNTER: N_("DE: direct encounter"),
}
"""What each abbreviation stands for, under the standings: only those of the event's tie-breaks (Wins is
plain), so a round robin's key names no Buchholz."""
MEDALS = ("🥇", "🥈", "🥉")


def points(value: float) -> str:
    """One number alone: 2 -> "2", 2.5 -> "2½" (`table_numbers`: data in every language)."""
    return table_numbers([value])(value)


def table_style(table: Sequence[Standing]) -> Callable[[float], str]:
    """The one way every number of a standings table is written, its text and its image alike: scores and
    tie-breaks together (`table_numbers`)."""
    return table_numbers([value for row in table for value in (row.score, *row.tiebreaks)])


def _name(names: Mapping[int, str], user: int) -> str:
    return names.get(user, f"<@{user}>")


def title(tournament: Tournament, final: bool) -> Text:
    """The standings' heading for `tournament` as `standings.as_of` counts it."""
    if final:
        return Text(N_("Final standings"))
    if tournament.settings.format is Format.ARENA:
        return Text(N_("Arena standings"))
    if not tournament.round:
        return Text(N_("Standings before round 1 of {total}"), total=tournament.rounds_total)
    return Text(
        N_("Standings after round {round} of {total}"), round=tournament.round, total=tournament.rounds_total
    )


def standings(
    tournament: Tournament,
    table: Sequence[Standing],
    names: Mapping[int, str],
    *,
    final: bool,
    limit: int = 20,
) -> Text:
    """The heading and one line per player ("3. Alice: 2½ (Bh 6, SB 4)"), the first `limit` places, then
    how many more there are; the key to the abbreviations last."""
    order = tournament.settings.tiebreak_order()
    number = table_style(table)  # the whole table's, as its image (which shows more rows) writes them
    lines: list[str] = [title(tournament, final)]
    for row in table[:limit]:
        line: str = Text(
            N_("{place}. {name}: {points}"),
            place=row.place,
            name=_name(names, row.user_id),
            points=number(row.score),
        )
        if order:
            values = [
                Text(N_("{tiebreak} {value}"), tiebreak=Text(TIEBREAK_ABBREVIATIONS[t]), value=number(v))
                for t, v in zip(order, row.tiebreaks, strict=True)
            ]
            line = Text(N_("{line} ({tiebreaks})"), line=line, tiebreaks=_joined(values))
        if row.on_fire:
            line = Text.concat(line, " 🔥")
        if row.withdrawn:
            line = Text(N_("{line} · withdrew"), line=line)
        lines.append(line)
    if len(table) > limit:
        more = len(table) - limit
        lines.append(Text.ngettext("…and {count} more player", "…and {count} more players", more, count=more))
    key = [Text(TIEBREAK_KEYS[t]) for t in order if t in TIEBREAK_KEYS]
    if key:
        lines.append(_joined(key))
    return Text.concat(*_lines(lines))


def pairings(tournament: Tournament, number: int, names: Mapping[int, str]) -> Text:
    """A round's boards ("1. Alice – Bob", first seat first) and its bye or rest."""
    lines: list[str] = [Text(N_("Round {round}: pairings"), round=number)]
    board = 0
    for game in tournament.round_games(number):
        if game.is_bye:
            continue
        board += 1
        lines.append(f"{board}. " + " – ".join(_name(names, u) for u in game.seats))
    for game in tournament.round_games(number):
        if game.is_bye:
            player = _name(names, game.seats[0])
            if game.result is not None and game.result.points[0] > 0:
                lines.append(
                    Text(
                        N_("{player} has a bye ({points})"),
                        player=player,
                        points=points(game.result.points[0]),
                    )
                )
            else:
                lines.append(Text(N_("{player} sits this round out"), player=player))
    return Text.concat(*_lines(lines))


def podium(tournament: Tournament, table: Sequence[Standing], names: Mapping[int, str]) -> Text:
    """The closing post: the places 1 to 3 with medals."""
    lines: list[str] = [Text(N_("Tournament #{number} is over. The podium:"), number=tournament.id)]
    number = table_numbers([row.score for row in table if row.place <= 3])
    for row in table:
        if row.place > 3:
            break
        line = Text(N_("{name}: {points}"), name=_name(names, row.user_id), points=number(row.score))
        lines.append(Text.concat(f"{MEDALS[row.place - 1]} ", line))
    return Text.concat(*_lines(lines))


def _joined(parts: Sequence[str]) -> str:
    """ "Bh 6, SB 4" ("、" in Japanese): the renderer's list template, already in every catalog."""
    joined = parts[0]
    for part in parts[1:]:
        joined = Text(N_("{first}, {then}"), first=joined, then=part)
    return joined


def _lines(parts: Sequence[str]) -> list[str]:
    out: list[str] = []
    for index, part in enumerate(parts):
        if index:
            out.append("\n")
        out.append(part)
    return out
