"""Refresh the README's pictures of the site: docs/images/site-index.png, site-unit.png,
site-print.png (the fleet builder's print view) and site-odds.png (a unit page's odds).

    .venv/bin/wastools build --site-only && .venv/bin/python tools/site_screenshots.py

Uses Debian's Chromium (/usr/bin/chromium) through Playwright, like the browser tests.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from wastools.site.chromium import ARGS, CHROMIUM

ROOT = Path(__file__).resolve().parents[1]
SHOTS = {
    "site-index.png": ("index.html#side=allies&type=destroyer&min=8", {"width": 1100, "height": 760}),
    "site-unit.png": ("units/uss-fletcher-dd-445.html", {"width": 1100, "height": 1000}),
    "site-print.png": (
        "print.html#fleet=bismarck:1,hms-cossack:3,uss-fletcher-dd-445:2&name=Convoy+escort&limit=120&deck=hex",
        {"width": 1100, "height": 1100},
    ),
    "site-odds.png": ("units/uss-fletcher-dd-445.html", {"width": 1100, "height": 900}),
}
ELEMENT = {"site-odds.png": "#odds"}  # a picture of that part of the page alone


def main(site: Path = ROOT / "build" / "site") -> int:
    if not (site / "index.html").is_file():
        print(f"no site at {site}: run `wastools build --site-only` first", file=sys.stderr)
        return 1
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=[*ARGS, "--hide-scrollbars"])
        page = browser.new_page()
        for name, (rel, viewport) in SHOTS.items():
            page.set_viewport_size(viewport)
            page.goto(site.resolve().as_uri() + "/" + rel)
            page.wait_for_load_state("load")
            if rel.startswith("print.html"):  # its cards load after the page
                page.wait_for_function("document.body.dataset.ready === 'yes'")
            target = str(ROOT / "docs" / "images" / name)
            if name in ELEMENT:
                page.locator(ELEMENT[name]).screenshot(path=target)
            else:
                page.screenshot(path=target)
            print(f"wrote docs/images/{name}")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build" / "site"))
