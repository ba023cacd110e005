"""The headless Chromium that the browser tests and the benchmarks drive through Playwright (Debian's, at
``CHROMIUM`` or on the path)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str | None:
    """Where Chromium is, or ``None`` without one."""
    return CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
