# Tessera: a slim image that runs `python -m bot` as an unprivileged user, with the database on a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Fonts for player names in any script (renderer/fonts.py finds them here): DejaVu Sans for Latin, Greek,
# Cyrillic, Arabic and Hebrew, Droid Sans Fallback for Chinese, Japanese and Korean, Symbola for emoji; FriBiDi
# lets Pillow's bundled Raqm lay out right-to-left names.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core fonts-droid-fallback fonts-symbola libfribidi0 \
    && rm -rf /var/lib/apt/lists/*

# Install the dependencies first (cached while only the code changes), then the project itself.
COPY pyproject.toml README.md ./
COPY games ./games
COPY bot ./bot
COPY cogs ./cogs
COPY renderer ./renderer
RUN pip install . \
    && useradd --create-home --uid 10001 tessera \
    && mkdir -p /app/data \
    && chown tessera:tessera /app/data

USER tessera

# The SQLite database lives here; mount a volume to keep it (or set DATABASE_URL=postgresql://...).
VOLUME ["/app/data"]
ENV DATABASE_URL=sqlite:///data/tessera.sqlite3

# /healthz answers 200 while the gateway is connected and the database answers (bot/health.py). It listens
# on 127.0.0.1 inside the container, which is where Docker runs this check; the slim image has no curl.
ENV HEALTH_PORT=8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('HEALTH_PORT', '8080'), timeout=4)"]

# Settings come from the environment: docker run --env-file .env -v tessera-data:/app/data tessera
CMD ["python", "-m", "bot"]
