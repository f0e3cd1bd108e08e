"""Every English text the renderer draws on an image or writes in alt text, in one place.

Each text is a template with named placeholders in `TEXTS`, filled in by `text(key, **values)`; texts that
depend on a count have a `.one` and an `.other` form, chosen by `plural(key, count, **values)`. The English
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
import re
from collections.abc import Hashable, Iterator, Sequence
from contextvars import ContextVar

from games.base import Outcome, Termination
from games.texts import N_, Translations, translate

ENGLISH: Translations = gettext.NullTranslations()
_translations: ContextVar[Translations] = ContextVar("renderer_translations", default=ENGLISH)

TEXTS: dict[str, str] = {
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
    "move.word.done": N_("done swapping"),
    "move.word.black": N_("chose Black"),
    "move.word.white": N_("chose White"),
    "move.word.pass": N_("passed"),
    "move.word.passall": N_("passed for good"),
    "move.word.resign": N_("resigned"),
    "move.word.swap": N_("swapped sides"),
    "move.swap": N_("swapped {stone} and {tile}"),
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
    # Paintscape
    "paintscape.title": N_("Colour race"),
    "paintscape.rule": N_("{count} stones of one player on a colour collect it"),
    "paintscape.colour.yellow": N_("yellow"),
    "paintscape.colour.red": N_("red"),
    "paintscape.colour.cyan": N_("cyan"),
    "paintscape.colour.pink": N_("pink"),
    "paintscape.colour.brown": N_("brown"),
    "paintscape.stone.black": N_("Black"),
    "paintscape.stone.white": N_("White"),
    "paintscape.stone_letter.black": N_("B"),
    "paintscape.stone_letter.white": N_("W"),
    "paintscape.absent": N_("not in this game"),
    "paintscape.collected_by": N_("collected by {name}"),
    "paintscape.free.one": N_("{count} free"),
    "paintscape.free.other": N_("{count} free"),
    "paintscape.can_take": N_("{name} can take it"),
    "paintscape.progress": N_("{count}/{goal}"),
    "paintscape.swaps.one": N_("{count} of 4 swaps made"),
    "paintscape.swaps.other": N_("{count} of 4 swaps made"),
    "paintscape.picks": N_("picks Black or White"),
    "paintscape.colours.one": N_("{count} colour"),
    "paintscape.colours.other": N_("{count} colours"),
    "paintscape.note.balance": N_("balancing: swap a stone with a tile, or done"),
    "paintscape.note.choose": N_("choose: black (play first) or white (second)"),
    "paintscape.alt.game": N_("Paintscape"),
    "paintscape.alt.has.one": N_("{name} has {count} colour"),
    "paintscape.alt.has.other": N_("{name} has {count} colours"),
    "paintscape.alt.collected": N_("{colour} collected by {name}"),
    "paintscape.alt.absent": N_("{colour} not in this game"),
    "paintscape.alt.race_row": N_("{colour} Black {black}, White {white}, {free} free"),
    "paintscape.alt.race": N_("Race (6 collects): {rows}."),
    "paintscape.alt.black_stones": N_("Black stones: {cells}."),
    "paintscape.alt.white_stones": N_("White stones: {cells}."),
    # Paint
    "paint.tiles": N_("Tiles"),
    "paint.seat.white": N_("White"),
    "paint.seat.black": N_("Black"),
    "paint.leads": N_("{name} leads"),
    "paint.nobody_leads": N_("Nobody leads"),
    "paint.unit.ply": N_("turns"),
    "paint.unit.own": N_("own turns"),
    "paint.lead_progress": N_("{count} of {goal} {unit} to win"),
    "paint.draw_progress": N_("{count} of {goal} {unit} to a draw"),
    "paint.no_lead_counter": N_("no lead: {count}/{goal}"),
    "paint.move_cap": N_("Move cap: {count} of {goal} moves"),
    "paint.key": N_("Key"),
    "paint.key.light": N_("White's square"),
    "paint.key.dark": N_("Black's square"),
    "paint.key.neutral": N_("neutral"),
    "paint.key.disc": N_("disc and its rank (discs in its area)"),
    "paint.key.sphere": N_("sphere (push it by stopping on it)"),
    "paint.sphere_to": N_("{move} (sphere to {cell})"),
    "paint.chip.tiles.one": N_("{count} tile"),
    "paint.chip.tiles.other": N_("{count} tiles"),
    "paint.chip.tiles_leads.one": N_("{count} tile · leads"),
    "paint.chip.tiles_leads.other": N_("{count} tiles · leads"),
    "paint.alt.game": N_("Paint"),
    "paint.alt.last_move_push": N_("Last move: {move}, sphere now on {cell}."),
    "paint.alt.tiles": N_("Tiles: {white} {white_tiles}, {black} {black_tiles}."),
    "paint.alt.led.one": N_("{seat} has led for {count} turn of {goal}."),
    "paint.alt.led.other": N_("{seat} has led for {count} of {goal} turns."),
    "paint.alt.no_lead.one": N_("Nobody leads; {count} turn of {goal} towards a draw."),
    "paint.alt.no_lead.other": N_("Nobody leads; {count} of {goal} turns towards a draw."),
    "paint.alt.disc": N_("{cell} rank {rank}"),
    "paint.alt.discs": N_("{seat} discs: {discs}."),
    "paint.alt.spheres": N_("Spheres: {cells}."),
    # TilingKing
    "tk.colour.0": N_("Red"),
    "tk.colour.1": N_("Blue"),
    "tk.colour.2": N_("Green"),
    "tk.colour.3": N_("Yellow"),
    "tk.score": N_("Score"),
    "tk.score_parts": N_("covered + territory"),
    "tk.cells.one": N_("{count} cell"),
    "tk.cells.other": N_("{count} cells"),
    "tk.resigned": N_("resigned"),
    "tk.passes_for_good": N_("passes for good"),
    "tk.passes_every_turn": N_("passes every turn"),
    "tk.with_note": N_("{text} · {note}"),
    "tk.pieces_left.one": N_("{covered} + {territory} · {count} piece left"),
    "tk.pieces_left.other": N_("{covered} + {territory} · {count} pieces left"),
    "tk.board": N_("Board {board}: {count} playable cells"),
    "tk.key.piece": N_("a piece (outlined)"),
    "tk.key.territory": N_("captured territory"),
    "tk.key.neutral": N_("neutral tile (counts for every ring)"),
    "tk.pieces.left.one": N_("{count} piece left"),
    "tk.pieces.left.other": N_("{count} pieces left"),
    "tk.pieces.title": N_("Pieces of {name}: id, name and how many are left"),
    "tk.pieces.count": N_("x{count}"),
    "tk.alt.board": N_("TilingKing board {board} ({kind} cells). {status}."),
    "tk.alt.kind.square": N_("square"),
    "tk.alt.kind.hex": N_("hex"),
    "tk.alt.kind.triangle": N_("triangle"),
    "tk.alt.score": N_("{player}: {points}"),
    "tk.alt.scores": N_("Scores: {scores}."),
    "tk.alt.piece": N_("{piece} on {cells}"),
    "tk.alt.pieces": N_("{role} pieces: {pieces}"),
    "tk.alt.territory": N_("{text}; territory: {cells}"),
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


MOVE_WORDS = ("done", "black", "white", "pass", "passall", "resign", "swap")
"""The one-word moves (Paintscape's and TilingKing's), worded for the images in the reader's language."""


def move(notation: str) -> str:
    """A last move as the images show it: a word move in the current language ("done" -> "done swapping"),
    a Paintscape swap in words; cells and pieces ("d4", "T4@c3 r1") are notation in every language."""
    words = notation.split()
    if len(words) == 1 and words[0] in MOVE_WORDS:
        return text(f"move.word.{words[0]}")
    if len(words) == 3 and words[0] == "swap":
        return text("move.swap", stone=words[1], tile=words[2])
    return notation


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


def text(key: str, **values: object) -> str:
    """The text `key` in the current language with its placeholders filled in."""
    return _filled(_translations.get().gettext(TEXTS[key]), values)


def plural(key: str, count: int, **values: object) -> str:
    """The form of `key` for `count` in the current language (`.one` and `.other` are the English forms;
    `count` is passed on)."""
    template = _translations.get().ngettext(TEXTS[f"{key}.one"], TEXTS[f"{key}.other"], count)
    return _filled(template, {"count": count, **values})


_QUALIFIED_NAME = re.compile(r"(?P<name>.*\S) \((?P<qualifier>[^()]+)\)")
"""A name ending in one bracketed qualifier: "Tessera (easy)", "Bob (he/him)"."""


def with_role(name: str, role: object) -> str:
    """A name with its role: "Alice (Black)". A name that already ends in a bracket shares it, so the bot
    reads "Tessera (easy, Black)", not "Tessera (easy) (Black)"."""
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
