"""Cards from a shared sheet: where a URL's local copy lives, and the address to download it from.

A database may say `cards: {from: "https://..."}`: a published CSV or a Google
Sheets share link. Builds never use the network: they read the copy `pnp fetch`
made in card_data/fetched/ (named from the URL, so the same URL always maps to
the same file), and `card_data/fetched/sources.yaml` records each copy's URL,
date and digest. This module is pure: names and addresses, no downloading.
"""

from __future__ import annotations

import hashlib
import re
from typing import TypeGuard
from urllib.parse import parse_qs, urlsplit

FOLDER = "fetched"  # under card_data/
SOURCES = "sources.yaml"  # in FOLDER: what each copy was fetched from, and when
_SHEET = re.compile(r"^/spreadsheets/d/(?P<id>[A-Za-z0-9_-]{10,})(?:/|$)")
_PUBLISHED = re.compile(r"^/spreadsheets/d/e/(?P<id>[A-Za-z0-9_-]{10,})/(?:pub|pubhtml)(?:/|$)")


def is_url(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and value.lower().startswith(("https://", "http://"))


def local_name(url: str) -> str:
    """The copy's file name in card_data/fetched/: a readable part of the URL and a short digest of it."""
    parts = urlsplit(url)
    stem = _PUBLISHED.match(parts.path) or _SHEET.match(parts.path)
    words = f"sheet-{stem['id'][:8]}" if stem else parts.path.rstrip("/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
    words = re.sub(r"[^A-Za-z0-9_-]+", "-", words).strip("-")[:32] or "sheet"
    return f"{words}-{hashlib.sha256(url.encode()).hexdigest()[:8]}.csv"


def download_url(url: str) -> str:
    """The address that gives the sheet as CSV: a Google Sheets share or publish link made its CSV
    export (the tab of its gid), any other URL as given."""
    parts = urlsplit(url)
    if parts.netloc.lower() != "docs.google.com":
        return url
    query = parse_qs(parts.query)
    gid = (query.get("gid") or re.findall(r"gid=(\d+)", parts.fragment) or ["0"])[0]
    published = _PUBLISHED.match(parts.path)
    if published:
        return f"https://docs.google.com/spreadsheets/d/e/{published['id']}/pub?output=csv&gid={gid}"
    sheet = _SHEET.match(parts.path)
    if sheet:
        return f"https://docs.google.com/spreadsheets/d/{sheet['id']}/export?format=csv&gid={gid}"
    return url
