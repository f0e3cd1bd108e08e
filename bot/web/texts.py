"""The web page's own words, sent to the page translated into the viewer's language (`page_texts`)."""

from __future__ import annotations

from games.texts import N_

PAGE_TEXTS: dict[str, str] = {
    "login": N_("Log in with Discord to play"),
    "logout": N_("Log out"),
    "spectating": N_("You are watching"),
    "you_play": N_("You play {seat}"),
    "moves": N_("Moves"),
    "resign": N_("Resign"),
    "confirm_resign": N_("Resign this match? This cannot be undone."),
    "takeback": N_("Ask to take back"),
    "takeback_now": N_("Take back"),
    "takeback_now_hint": N_("Your last move is taken back at once: the bot agrees."),
    "abort": N_("Ask to abort"),
    "abort_hint": N_("The match ends with no result once every player agrees."),
    "abort_now": N_("Abort now"),
    "abort_now_hint": N_("Not every player has moved yet: this ends the match at once, with no result."),
    "abort_bot_hint": N_("The bot agrees: this ends the match at once, with no result."),
    "accept": N_("Accept"),
    "agree_abort": N_("Agree to abort"),
    "decline": N_("Decline"),
    "withdraw": N_("Withdraw request"),
    "someone": N_("another player"),
    "takeback_asked": N_("{name} asks to take back the last move."),
    "abort_asked": N_("{name} asks to abort the match."),
    "rotate": N_("Rotate"),
    "reflect": N_("Reflect"),
    "clear": N_("Clear selection"),
    "pieces": N_("Pieces"),
    "replay": N_("Replay"),
    "play": N_("Play"),
    "pause": N_("Pause"),
    "reconnecting": N_("Connection lost; reconnecting..."),
    "theme": N_("Theme"),
    "board": N_("Board of match #{match_id}"),
    "turning_points": N_("Turning points (from the analysis): the move played, then the better one"),
    "keys": N_("Arrow keys move between cells, Enter or Space clicks, R rotates, F reflects, Escape clears."),
}
"""Page text keys to English templates (the page fills `{name}` and the like itself)."""
