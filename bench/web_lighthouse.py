"""Lighthouse's mobile performance score of a player's page: the web demo (`python -m bot web-demo`, a
server process of its own) with Alice logged in on a match of `--game` she is to play, audited by
Lighthouse (its default mobile run: a phone's screen, a slow 4G network and a 4x slower CPU, simulated)
in Debian's chromium. Prints the score and its metrics per run, then the median.

Lighthouse comes from the npm registry (not a dependency of the project):

    npm install --prefix ~/.cache/tessera-lighthouse lighthouse
    python bench/web_lighthouse.py --lighthouse ~/.cache/tessera-lighthouse/node_modules/.bin/lighthouse
    python bench/web_lighthouse.py --game Paint --runs 3      # `lighthouse` on PATH, or npx fetches it
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

import aiohttp
from web_common import free_port, start_demo

METRICS = (
    ("first-contentful-paint", "FCP", "ms"),
    ("largest-contentful-paint", "LCP", "ms"),
    ("total-blocking-time", "TBT", "ms"),
    ("cumulative-layout-shift", "CLS", ""),
    ("speed-index", "SI", "ms"),
)


async def cookie_of(base: str, page: str, user: int) -> str:
    """The session cookie of demo user `user`, logged in on `page`."""
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        path = page.removeprefix(base)
        async with http.get(f"{base}/demo/login/{user}?next={path}", allow_redirects=False) as answer:
            assert answer.status == 302, answer.status
        return "; ".join(f"{c.key}={c.value}" for c in http.cookie_jar)


def lighthouse_command(given: str | None) -> list[str]:
    if given:
        return [given]
    found = shutil.which("lighthouse")
    return [found] if found else ["npx", "--yes", "lighthouse@12"]


def audit(command: list[str], url: str, cookie: str, chrome: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        subprocess.run(
            [
                *command,
                url,
                "--only-categories=performance",
                "--output=json",
                f"--output-path={report}",
                "--quiet",
                "--chrome-flags=--headless=new --no-sandbox",
                "--extra-headers",
                json.dumps({"Cookie": cookie}),
            ],
            check=True,
            env={**os.environ, "CHROME_PATH": chrome},
        )
        data = json.loads(report.read_text())
    out = {"score": round(data["categories"]["performance"]["score"] * 100)}
    for key, name, _ in METRICS:
        out[name] = data["audits"][key]["numericValue"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="TilingKing", help="the demo match (Paint, Paintscape...)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lighthouse", default=None, help="the lighthouse executable")
    parser.add_argument("--chrome", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args()
    port = free_port()
    server, pages = start_demo(port)
    base = f"http://127.0.0.1:{port}"
    try:
        page = pages[args.game]
        cookie = asyncio.run(cookie_of(base, page, 1))  # Alice, in seat 0: to play
        command = lighthouse_command(args.lighthouse)
        runs = []
        for n in range(args.runs):
            result = audit(command, page, cookie, args.chrome)
            runs.append(result)
            shown = " ".join(
                f"{name} {result[name]:.3f}" if not unit else f"{name} {result[name]:.0f} {unit}"
                for _, name, unit in METRICS
            )
            print(f"run {n + 1}: performance {result['score']}  {shown}", flush=True)
        median = statistics.median(r["score"] for r in runs)
        score = f"Lighthouse mobile performance {median:.0f} (median of {len(runs)})"
        print(f"{args.game}, a player's page: {score}")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
