"""Every English text the renderer draws on an image or writes in alt text, in one place.

Each text is a template with named placeholders in `TEXTS`, filled in by `text(key, **values)`; texts that
depend on a count have a `.one` and an `.other` form, chosen by `plural(key, count, **values)`. A later
translation layer can swap `TEXTS` per language (or wrap `text`) without touching the drawers. Names, cell
labels, piece ids and move notation are data, never translated.

The move number is defined here once (`move_number`, `move_caption`); the bot uses the same functions so the
text and the image of one message always agree.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import Outcome, Termination

TEXTS: dict[str, str] = {
    # moves and turns
    "move.current": "Move {number}",
    "move.total.one": "{count} move",
    "move.total.other": "{count} moves",
    "status.playing": "{move} · {mover} to play",
    "status.playing.note": "{move} · {mover} to play · {note}",
    "status.over": "{result} · {moves}",
    "mover.with_role": "{name} ({role})",
    "mover.nobody": "nobody",
    "chip.winner": "WINNER",
    "chip.to_play": "TO PLAY",
    "chip.detail": "{role} · {detail}",
    "chip.flag_detail": "{flag}  {role} · {detail}",
    "chip.flag_role": "{flag}  {role}",
    "chip.flag_detail_only": "{flag}  {detail}",
    "name.with_role": "{name} ({role})",
    "last_move": "Last move: {move}",
    "ellipsis": "...",
    # results: one winner, several winners sharing first place, draws
    "result.win.colours": "{winner} wins by collecting three colours",
    "result.win.lead": "{winner} wins by holding the lead",
    "result.win.no_moves": "{winner} wins: the opponent has no move",
    "result.win.passes": "{winner} wins on score",
    "result.win.move_cap": "{winner} wins at the move limit",
    "result.win.no_lead": "{winner} wins",
    "result.win.resignation": "{winner} wins by resignation",
    "result.win.timeout": "{winner} wins on time",
    "result.win": "{winner} wins",
    "result.shared": "{winners} share first place",
    "result.shared.passes": "{winners} share first place on score",
    "result.shared.resignation": "{winners} share first place after a resignation",
    "result.shared.timeout": "{winners} share first place after a timeout",
    "result.draw.no_lead": "Draw: nobody held the lead",
    "result.draw.move_cap": "Draw: the move limit was reached",
    "result.draw.passes": "Draw on score",
    "result.draw": "Draw",
    "result.aborted": "Game aborted: no result",
    "list.two": "{first} and {last}",
    "list.more": "{rest}, {first}",
    # alt text (shared)
    "alt.board": "{game} board. {status}.",
    "alt.last_move": "Last move: {move}.",
    # post-game analysis: the move played beside the move the AI prefers
    "analysis.played": "{name} played {move}: {chance} to win",
    "analysis.preferred": "Better, {move}: {chance} to win",
    "analysis.alt": (
        "Two boards. Left, after the move played, {played}: {after} to win. "
        "Right, after {preferred}: {before}."
    ),
    "alt.none": "none",
    # Paintscape
    "paintscape.title": "Colour race",
    "paintscape.rule": "{count} stones of one player on a colour collect it",
    "paintscape.colour.yellow": "yellow",
    "paintscape.colour.red": "red",
    "paintscape.colour.cyan": "cyan",
    "paintscape.colour.pink": "pink",
    "paintscape.colour.brown": "brown",
    "paintscape.stone.black": "Black",
    "paintscape.stone.white": "White",
    "paintscape.stone_letter.black": "B",
    "paintscape.stone_letter.white": "W",
    "paintscape.absent": "not in this game",
    "paintscape.collected_by": "collected by {name}",
    "paintscape.free": "{count} free",
    "paintscape.can_take": "{name} can take it",
    "paintscape.progress": "{count}/{goal}",
    "paintscape.swaps": "{count} of 4 swaps made",
    "paintscape.picks": "picks Black or White",
    "paintscape.colours.one": "{count} colour",
    "paintscape.colours.other": "{count} colours",
    "paintscape.note.balance": "balancing: swap a stone with a tile, or done",
    "paintscape.note.choose": "choose: black (play first) or white (second)",
    "paintscape.alt.game": "Paintscape",
    "paintscape.alt.has.one": "{name} has {count} colour",
    "paintscape.alt.has.other": "{name} has {count} colours",
    "paintscape.alt.collected": "{colour} collected by {name}",
    "paintscape.alt.absent": "{colour} not in this game",
    "paintscape.alt.race_row": "{colour} Black {black}, White {white}, {free} free",
    "paintscape.alt.race": "Race (6 collects): {rows}.",
    "paintscape.alt.black_stones": "Black stones: {cells}.",
    "paintscape.alt.white_stones": "White stones: {cells}.",
    # Paint
    "paint.tiles": "Tiles",
    "paint.seat.white": "White",
    "paint.seat.black": "Black",
    "paint.leads": "{name} leads",
    "paint.nobody_leads": "Nobody leads",
    "paint.unit.ply": "turns",
    "paint.unit.own": "own turns",
    "paint.lead_progress": "{count} of {goal} {unit} to win",
    "paint.draw_progress": "{count} of {goal} {unit} to a draw",
    "paint.no_lead_counter": "no lead: {count}/{goal}",
    "paint.move_cap": "Move cap: {count} of {goal} moves",
    "paint.key": "Key",
    "paint.key.light": "White's square",
    "paint.key.dark": "Black's square",
    "paint.key.neutral": "neutral",
    "paint.key.disc": "disc and its rank (discs in its area)",
    "paint.key.sphere": "sphere (push it by stopping on it)",
    "paint.sphere_to": "{move} (sphere to {cell})",
    "paint.chip.tiles": "{count} tiles",
    "paint.chip.tiles_leads": "{count} tiles · leads",
    "paint.alt.game": "Paint",
    "paint.alt.last_move_push": "Last move: {move}, sphere now on {cell}.",
    "paint.alt.tiles": "Tiles: {white} (White) {white_tiles}, {black} (Black) {black_tiles}.",
    "paint.alt.led": "{seat} has led for {count} of {goal} turns.",
    "paint.alt.no_lead": "Nobody leads; {count} of {goal} turns towards a draw.",
    "paint.alt.disc": "{cell} rank {rank}",
    "paint.alt.discs": "{seat} discs: {discs}.",
    "paint.alt.spheres": "Spheres: {cells}.",
    # TilingKing
    "tk.colour.0": "Red",
    "tk.colour.1": "Blue",
    "tk.colour.2": "Green",
    "tk.colour.3": "Yellow",
    "tk.score": "Score",
    "tk.score_parts": "covered + territory",
    "tk.cells": "{count} cells",
    "tk.resigned": "resigned",
    "tk.passes_for_good": "passes for good",
    "tk.passes_every_turn": "passes every turn",
    "tk.with_note": "{text} · {note}",
    "tk.pieces_left.one": "{covered} + {territory} · {count} piece left",
    "tk.pieces_left.other": "{covered} + {territory} · {count} pieces left",
    "tk.board": "Board {board}: {count} playable cells",
    "tk.key.piece": "a piece (outlined)",
    "tk.key.territory": "captured territory",
    "tk.key.neutral": "neutral tile (counts for every ring)",
    "tk.pieces.left.one": "{count} piece left",
    "tk.pieces.left.other": "{count} pieces left",
    "tk.pieces.title": "Pieces of {name}: id, name and how many are left",
    "tk.pieces.count": "x{count}",
    "tk.alt.board": "TilingKing board {board} ({kind} cells). {status}.",
    "tk.alt.kind.square": "square",
    "tk.alt.kind.hex": "hex",
    "tk.alt.kind.triangle": "triangle",
    "tk.alt.score": "{name} ({role}) {points}",
    "tk.alt.scores": "Scores: {scores}.",
    "tk.alt.piece": "{piece} on {cells}",
    "tk.alt.pieces": "{role} pieces: {pieces}",
    "tk.alt.territory": "{text}; territory: {cells}",
}


def text(key: str, **values: object) -> str:
    """The text `key` with its placeholders filled in."""
    return TEXTS[key].format(**values)


def plural(key: str, count: int, **values: object) -> str:
    """The `.one` or `.other` form of `key` for `count` (English has two forms; `count` is passed on)."""
    return text(f"{key}.{'one' if count == 1 else 'other'}", count=count, **values)


def join_names(names: Sequence[str]) -> str:
    """ "Alice", "Alice and Bob", "Alice, Bob and Carol"."""
    if len(names) <= 1:
        return "".join(names)
    joined = text("list.two", first=names[-2], last=names[-1])
    for name in reversed(names[:-2]):
        joined = text("list.more", first=joined, rest=name)
    return joined


def move_number(ply: int) -> int:
    """The number of the move about to be played while a game goes on: plies played so far + 1."""
    return ply + 1


def move_caption(ply: int, over: bool) -> str:
    """The move count as players read it: "Move 20" while the game goes on (the move about to be played,
    `move_number`), "19 moves" once it is over (`ply` moves were played). The bot's text uses it too."""
    if over:
        return plural("move.total", ply)
    return text("move.current", number=move_number(ply))


def result(outcome: Outcome, names: Sequence[str]) -> str:
    """The result in words: "Alice wins by resignation", "Draw: nobody held the lead", "Game aborted..."."""
    termination = outcome.termination.value
    if outcome.termination is Termination.ABORTED:
        return text("result.aborted")
    if outcome.is_draw:
        return text(_pick(f"result.draw.{termination}", "result.draw"))
    winners = [names[s] for s in outcome.winners]
    if len(winners) == 1:
        return text(_pick(f"result.win.{termination}", "result.win"), winner=winners[0])
    return text(_pick(f"result.shared.{termination}", "result.shared"), winners=join_names(winners))


def _pick(key: str, fallback: str) -> str:
    return key if key in TEXTS else fallback


def status(move: str, mover: str, note: str = "") -> str:
    """The header's status line while a game goes on."""
    if note:
        return text("status.playing.note", move=move, mover=mover, note=note)
    return text("status.playing", move=move, mover=mover)
