"""Where the web board's static files are: the folder `web/` beside the packages (the page, its script and
styles, the vendored Activity SDK), served as they are, with no build step."""

from __future__ import annotations

from pathlib import Path

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
"""The static folder: `web/` at the project's root (the Docker image copies it to /app/web)."""
