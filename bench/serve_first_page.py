"""Time `pnp serve` until its first page is whole: the process started and printed its address, the
page answered, the first screen's thumbnails (the first SCREEN tiles, as soon as the games read so
far show that many) received, and every card's thumbnail received once the project is read (6 at a
time in page order, as a browser asks one server).

    python bench/serve_first_page.py [--project DIR] [--cache DIR]

Prints the seconds (whole page and first screen) and the number of thumbnails as JSON. `--cache` sets PNP_CACHE_DIR for the
server (an empty folder: no thumbnail drawn before; the folder of an earlier run: all drawn).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCREEN = 24  # tiles a 1920 x 1080 window shows of the contact sheet at once


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=120) as answer:  # noqa: S310 - our own local server
        return answer.read()


def _pictures(state: dict) -> list[str]:
    return [t["picture"] for g in state["games"] for c in g["components"] for t in c["tiles"] if t["picture"]]


def first_page(project: Path, env: dict[str, str]) -> dict[str, float | int]:
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pnp", "serve", "--port", "0", "--project", str(project)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.search(r"http://[^ ]+/", line)
        if not found:
            raise SystemExit(f"pnp serve did not start: {line}{proc.stderr.read() if proc.stderr else ''}")
        base = found.group(0)
        address = time.perf_counter() - start
        get(base)
        page = time.perf_counter() - start
        while True:  # the tiles shown so far, as the page polls them (it is told by events)
            state = json.loads(get(base + "api/state"))
            keys = _pictures(state)
            if len(keys) >= SCREEN or not state["reading"]:
                break
            time.sleep(0.05)
        with ThreadPoolExecutor(6) as pool:
            assert all(pool.map(lambda k: get(f"{base}picture/{k}.png"), keys[:SCREEN]))
            screen = time.perf_counter() - start
            proc.stdout.readline()  # "Read N games": the project is read
            keys = _pictures(json.loads(get(base + "api/state")))
            assert all(pool.map(lambda k: get(f"{base}picture/{k}.png"), keys))
        return {
            "address": round(address, 3),
            "page": round(page, 3),
            "first_screen": round(screen, 3),
            "seconds": round(time.perf_counter() - start, 3),
            "thumbnails": len(keys),
        }
    finally:
        proc.terminate()
        proc.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", type=Path, default=ROOT)
    parser.add_argument("--cache", type=Path, default=None)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if args.cache is not None:
        env["PNP_CACHE_DIR"] = str(args.cache)
    print(json.dumps(first_page(args.project, env)))


if __name__ == "__main__":
    main()
