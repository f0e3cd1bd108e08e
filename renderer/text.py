"""Every English text the renderer draws on an image or writes in alt text, in one place.

Each text is a template with named placeholders in `TEXTS`, filled in by `text(key, **values)`; texts that
depend on a count have a `.one` and an `.other` form, chosen by `plural(key, count, **values)`. The shared
texts are here (`SHARED`); a game's own are in its drawer's `TEXTS`, keyed by the game's prefix, and a game
package may instead pass its `N_`-marked templates to `say`. The English
templates are the message ids of the bot's catalogs: a drawing made inside `using(translations)` (the
`translations` argument of `renderer.render` and the others) words every text in that language, with the
plural rules of that language; without it the text is English. Words a game returns (`games.texts.Text`,
a seat's role) are translated with `word`. Names, cell labels, piece ids and move notation are data, never
translated.

The move number is defined here once (`move_number`, `move_caption`), over the one count of moves played
(`Rules.moves_played`; `games.base.move_numbers` for a log): the bot's texts, the image headers, /history,
replays and the analysis use the same functions, so they always agree.
"""

from __future__ import annotations

import contextlib
import gettext
import importlib
import re
from collections.abc import Hashable, Iterator, Sequence
from contextvars import ContextVar
from functools import cache
from typing import Any

import games
from games.base import Outcome, Termination
from games.texts import N_, Translations, translate

ENGLISH: Translations = gettext.NullTranslations()
_translations: ContextVar[Translations] = ContextVar("renderer_translations", default=ENGLISH)

SHARED: dict[str, str] = {
    # moves and turns
    "move.current": N_("Move {number}"),
    "move.total.one": N_("{count} move"),
    "move.total.other": N_("{count} moves"),
    "status.playing": N_("{move} · {mover} to play"),
    "status.playing.note": N_("{move} · {mover} to play · {note}"),
    "status.over": N_("{result} · {moves}"),
    "mover.nobody": N_("nobody"),
    "chip.winner": N_("WINNER"),
    "chip.to_play": N_("TO PLAY"),
    "chip.detail": N_("{role} · {detail}"),
    "chip.flag_detail": N_("{flag}  {role} · {detail}"),
    "chip.flag_role": N_("{flag}  {role}"),
    "chip.flag_detail_only": N_("{flag}  {detail}"),
    "name.with_role": N_("{name} ({role})"),
    "name.with_qualifier_and_role": N_("{name} ({qualifier}, {role})"),
    "last_move": N_("Last move: {move}"),
    "move.word.resign": N_("resigned"),
    "ellipsis": N_("..."),
    # results: one winner, several winners sharing first place, draws
    "result.win": N_("{winner} wins"),
    "result.shared": N_("{winners} share first place"),
    "result.draw": N_("Draw"),
    "result.aborted": N_("Game aborted: no result"),
    "list.two": N_("{first} and {last}"),
    "list.more": N_("{rest}, {first}"),
    # alt text (shared)
    "alt.board": N_("{game} board. {status}."),
    "alt.last_move": N_("Last move: {move}."),
    # post-game analysis: the move played beside the move the AI prefers
    "analysis.played": N_("{name} played {move}: {chance} to win"),
    "analysis.preferred": N_("Better, {move}: {chance} to win"),
    "analysis.alt": N_(
        "Two boards. Above, after the move played, {played}: {after} to win. Below, after {preferred}: "
        "{before}."
    ),
    "alt.none": N_("none"),
    "alt.sentence": N_("{text}."),
    "alt.sentences": N_("{first} {then}"),
    "alt.items": N_("{first}; {then}"),
    "alt.pair": N_("{first}, {then}"),
    # a tournament's standings and podium images in words (renderer/standings.py)
    "standings.alt": N_("{title}: {rows}"),
    "standings.alt.row": N_("{place}. {name} ({values})"),
    "standings.alt.value": N_("{heading} {value}"),
    "standings.alt.place": N_("{place}. {name}, {points}"),
}


@contextlib.contextmanager
def using(translations: Translations | None) -> Iterator[None]:
    """Word the texts drawn inside this block with `translations` (None: the language already in use, English
    outside any such block). The setting belongs to the current thread (a context variable), so boards
    drawn at once in other languages do not mix."""
    token = _translations.set(translations or _translations.get())
    try:
        yield
    finally:
        _translations.reset(token)


def language() -> Hashable:
    """The translations texts are drawn with now, as a cache key (catalogs hash by identity)."""
    words: Hashable = _translations.get()  # type: ignore[assignment]
    return words


def word(value: object) -> str:
    """A value for a text: a game's `Text` (a seat's role) in the current language, anything else as str."""
    return str(translate(value, _translations.get()))


def move(notation: str) -> str:
    """A last move as the images show it: a one-word move in the current language where a text
    `move.word.<word>` says it ("resign" -> "resigned"; a game's drawer defines its own words, as "done" ->
    "done swapping"); anything else (cells, pieces: "d4", "T4@c3 r1") is notation in every language."""
    key = f"move.word.{notation.strip()}"
    return text(key) if key in all_texts() else notation


def _joined(key: str, parts: Sequence[str]) -> str:
    """`parts` joined by the template `key` ("{first}; {then}") of the current language, from the left."""
    if not parts:
        return ""
    joined = parts[0]
    for part in parts[1:]:
        joined = text(key, first=joined, then=part)
    return joined


def sentence(words: str) -> str:
    """A sentence of an alt text with its full stop ("." in English, "。" in Japanese)."""
    return text("alt.sentence", text=words)


def sentences(parts: Sequence[str]) -> str:
    """An alt text's sentences one after another (a space between them in English, none in Japanese)."""
    return _joined("alt.sentences", parts)


def items(parts: Sequence[str]) -> str:
    """A list of clauses: "Black has 1 colour; White has 0 colours" ("、" in Japanese)."""
    return _joined("alt.items", parts)


def pairs(parts: Sequence[str]) -> str:
    """A list of short items: "d4 rank 1, e5 rank 2"."""
    return _joined("alt.pair", parts)


def _filled(template: str, values: dict[str, object]) -> str:
    return template.format(**{name: word(value) for name, value in values.items()})


@cache
def all_texts() -> dict[str, str]:
    """Every text by key: the shared ones (`SHARED`) and each registered game's drawer's own (`TEXTS` of the
    module its plugin names, keys prefixed with the game), importing the drawers. `TEXTS` is this table."""
    found = dict(SHARED)
    for game_id in games.GAME_IDS:
        own: dict[str, str] = getattr(importlib.import_module(games.plugin(game_id).drawer), "TEXTS", {})
        for key, template in own.items():
            if found.get(key, template) != template:
                raise ValueError(f"the text {key!r} of {game_id} is already defined with other words")
            found[key] = template
    return found


def __getattr__(name: str) -> Any:
    """`TEXTS`: every text by key (`all_texts`), the drawers' own included."""
    if name == "TEXTS":
        return all_texts()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def text(key: str, **values: object) -> str:
    """The text `key` in the current language with its placeholders filled in."""
    return _filled(_translations.get().gettext(all_texts()[key]), values)


def plural(key: str, count: int, **values: object) -> str:
    """The form of `key` for `count` in the current language (`.one` and `.other` are the English forms;
    `count` is passed on)."""
    texts = all_texts()
    template = _translations.get().ngettext(texts[f"{key}.one"], texts[f"{key}.other"], count)
    return _filled(template, {"count": count, **values})


_QUALIFIED_NAME = re.compile(r"(?P<name>.*\S) \((?P<qualifier>[^()]+)\)")
"""A name ending in one bracketed qualifier: "Tessera (easy)", "Bob (he/him)"."""


def with_role(name: str, role: object) -> str:
    """A name with its role: "Alice (Black)". A name that already ends in a bracket shares it, so the bot
    reads "Tessera (easy, Black)", not "Tessera (easy) (Black)"; a name that is its role (a puzzle names the
    seats by their roles) is not repeated: "White", not "White (White)"."""
    if name == word(role):
        return name
    qualified = _QUALIFIED_NAME.fullmatch(name)
    if qualified is None:
        return text("name.with_role", name=name, role=role)
    return text(
        "name.with_qualifier_and_role", name=qualified["name"], qualifier=qualified["qualifier"], role=role
    )


def join_names(names: Sequence[str]) -> str:
    """ "Alice", "Alice and Bob", "Alice, Bob and Carol"."""
    if len(names) <= 1:
        return "".join(names)
    joined = text("list.two", first=names[-2], last=names[-1])
    for name in reversed(names[:-2]):
        joined = text("list.more", first=joined, rest=name)
    return joined


def move_number(moves: int) -> int:
    """The number of the move played after `moves` moves (`Rules.moves_played`, which counts no
    resignation): the move about to be played while a game goes on."""
    return moves + 1


def move_caption(moves: int, over: bool) -> str:
    """The move count as players read it: "Move 20" while the game goes on (the move about to be played,
    `move_number`), "19 moves" once it is over (`moves` moves were played). The bot's text uses it too."""
    if over:
        return plural("move.total", moves)
    return text("move.current", number=move_number(moves))


def result(outcome: Outcome, names: Sequence[str]) -> str:
    """The result in words: "Alice wins by resignation", "Draw: nobody held the lead", "Game aborted...".
    The line is the termination's own (`Termination.win`, `.shared`, `.draw`, defined by the game that
    ends that way), else the plain one."""
    termination = outcome.termination
    if termination is Termination.ABORTED:
        return text("result.aborted")
    if outcome.is_draw:
        return say(termination.draw) if termination.draw else text("result.draw")
    winners = [names[s] for s in outcome.winners]
    if len(winners) == 1:
        return (
            say(termination.win, winner=winners[0])
            if termination.win
            else text("result.win", winner=winners[0])
        )
    together = join_names(winners)
    return (
        say(termination.shared, winners=together)
        if termination.shared
        else text("result.shared", winners=together)
    )


def say(template: str, **values: object) -> str:
    """A text given by its English template rather than a key of `TEXTS` (a game's own words, marked with
    `N_` where they are defined so that its catalog has them), in the current language, filled in."""
    return _filled(_translations.get().gettext(template), values)


def status(move: str, mover: str, note: str = "") -> str:
    """The header's status line while a game goes on."""
    if note:
        return text("status.playing.note", move=move, mover=mover, note=note)
    return text("status.playing", move=move, mover=mover)
