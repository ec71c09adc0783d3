"""How the browser tests and the screenshot tool start Debian's Chromium: headless, quiet,
never reaching the network on its own (the site must work from file:// alone)."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")  # Debian's package, installed by tools/system-deps.sh
ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
