# Tessera: a slim image that runs `python -m bot` as an unprivileged user, with the database on a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Fonts for player names and texts in any script, from Debian packages (each one's licence stays in
# /usr/share/doc/<package>/copyright), found by renderer/fonts.py under /usr/share/fonts: DejaVu Sans for
# Latin, Greek, Cyrillic, Arabic and Hebrew, Noto Sans CJK for Chinese, Japanese and Korean, Symbola for emoji
# (drawn in one colour, like the rest of the text); FriBiDi lets Pillow's bundled Raqm lay out right-to-left
# names.
# Only Noto Sans CJK Regular is used, so dpkg leaves out the package's Serif and Bold files (73 MB).
RUN printf '%s\n' \
        'path-exclude /usr/share/fonts/opentype/noto/NotoSerifCJK*' \
        'path-exclude /usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc' \
        > /etc/dpkg/dpkg.cfg.d/tessera-fonts \
    && apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core fonts-noto-cjk fonts-symbola libfribidi0 \
    && rm -rf /var/lib/apt/lists/*

# The dependencies in a layer of their own, from pyproject.toml alone: a change to the code reuses it.
COPY pyproject.toml ./
RUN python -c "import tomllib; project = tomllib.load(open('pyproject.toml', 'rb'))['project']; \
        print(*project['dependencies'], sep='\n')" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# Then the project itself, without touching the dependencies.
COPY README.md ./
COPY games ./games
COPY bot ./bot
COPY cogs ./cogs
COPY renderer ./renderer
# The web board's static pages (bot/web serves them from /app/web when WEB_PORT is set).
COPY web ./web
RUN pip install --no-deps . \
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
