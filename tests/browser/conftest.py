"""What every browser test shares: Debian's Chromium, started once per test module."""

from __future__ import annotations

import pytest

from wastools.site.chromium import ARGS, CHROMIUM


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.is_file():
        pytest.fail("no /usr/bin/chromium: run tools/system-deps.sh (make test does) to install Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(ARGS), headless=True)
        yield chromium
        chromium.close()
