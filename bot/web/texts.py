"""The web page's own words, sent to the page translated into the viewer's language (`page_texts`)."""

from __future__ import annotations

from games.texts import N_

PAGE_TEXTS: dict[str, str] = {
    "login": N_("Log in with Discord to play"),
    "logout": N_("Log out"),
    "logout_everywhere": N_("Log out everywhere"),
    "spectating": N_("You are watching"),
    "you_play": N_("You play {seat}"),
    "moves": N_("Moves"),
    "resign": N_("Resign"),
    "confirm_resign": N_("Resign this match? This cannot be undone."),
    "takeback": N_("Ask to take back"),
    "abort": N_("Ask to abort"),
    "accept": N_("Accept"),
    "decline": N_("Decline"),
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
    "busy": N_("Too many live views are open here; this board updates again in a minute."),
    "theme": N_("Theme"),
    "board": N_("Board of match #{match_id}"),
    "turning_points": N_("Turning points (from the analysis): the move played, then the better one"),
    "keys": N_("Arrow keys move between cells, Enter or Space clicks, Escape clears."),
    "keys_pieces": N_(
        "Arrow keys move between cells, Enter or Space clicks, R rotates, F reflects, Escape clears."
    ),
}
"""Page text keys to English templates (the page fills `{name}` and the like itself)."""
