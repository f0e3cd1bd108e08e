"""Tessera's web board: a page per match beside the Discord application, over the same service.

The bot process serves it when WEB_PORT is set (`bot/__main__.py`); `python -m bot web` serves it as a
process of its own against the same PostgreSQL database (other processes' moves arrive by NOTIFY), and
`python -m bot web-demo` serves a local demo with two local users and no Discord at all.

- app.py: the routes (page, JSON state, event stream, board image, moves, requests, login);
- live.py: the event streams and the fan-out of one serialized state to every viewer;
- wire.py: the board on the wire: the scene on the first load, a scene diff per move, a player's legal
  moves compact, large events deflated;
- security.py: capability links, signed sessions, CSRF, rate limits;
- demo.py: the local demo; texts.py: the page's words (translated like every other text).
The browser side is the static folder `web/` (no build step): it shows the same PNG as Discord, with an
SVG layer of the cells of the board's scene (`renderer.scene`) for clicks, highlights, the ghost piece and
keyboard focus.
"""
