"""The site in a real browser: Debian's headless Chromium driven by Playwright.

The site is built from a few units into a temporary folder and opened from ``file://``.
Every test fails on a console error, an uncaught script error, a dialog (an injected
``alert``) or any request for something outside the site folder. No browser is ever
downloaded: Playwright is pointed at ``/usr/bin/chromium`` (installed by
``tools/system-deps.sh``).
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader
from ruamel.yaml import YAML

from tests.site_check import SMALL, small_spec
from wastools.site import build_site
from wastools.variants import VARIANTS
from wastools.variants.fleet import check_fleet

pytestmark = pytest.mark.slow

HOSTILE = '<img src=x onerror=alert(1)> "Cossack" <script>alert(2)</script>'


@pytest.fixture(scope="module")
def site(repo, tmp_path_factory) -> Path:
    """A small site with one hostile name among real units: any script it ran would raise a dialog."""
    out = tmp_path_factory.mktemp("browser-site")
    units = dict(repo.units)
    units["hms-cossack"] = dataclasses.replace(units["hms-cossack"], name=HOSTILE)
    hostile = dataclasses.replace(repo, units=units)
    build_site(hostile, out, small_spec(hostile))
    return out / "site"


class Guard:
    """Everything a page did that it must not: collected, then asserted empty."""

    def __init__(self, site: Path):
        self.prefix = site.resolve().as_uri() + "/"
        self.problems: list[str] = []

    def watch(self, page) -> None:
        page.on(
            "console", lambda m: m.type in ("error", "warning") and self.problems.append(f"console {m.type}: {m.text}")
        )
        page.on("pageerror", lambda e: self.problems.append(f"script error: {e}"))
        page.on("dialog", lambda d: (self.problems.append(f"dialog: {d.message}"), d.dismiss()))
        page.on("request", self.request)

    def request(self, request) -> None:
        url = request.url
        if not (url.startswith(self.prefix) or url.startswith("blob:")):  # blob: the roster, made in the page
            self.problems.append(f"request outside the site: {url}")


@pytest.fixture
def page(browser, site):
    context = browser.new_context(viewport={"width": 1200, "height": 900}, accept_downloads=True)
    guard = Guard(site)
    tab = context.new_page()
    guard.watch(tab)
    tab.guard = guard
    yield tab
    context.close()
    assert guard.problems == []


def url(site: Path, rel: str) -> str:
    return site.resolve().as_uri() + "/" + rel


def visible_names(page) -> list[str]:
    return page.eval_on_selector_all("#units tbody tr:not([hidden]) th a", "links => links.map(a => a.textContent)")


def test_every_page_opens_cleanly(page, site):
    pages = sorted(site.rglob("*.html"))
    for path in pages:
        page.goto(path.resolve().as_uri())
        assert page.locator("h1").count() == 1
    assert len(pages) > len(SMALL)
    assert page.guard.problems == []


def test_filters_and_search_work_and_live_in_the_address(page, site, repo):
    page.goto(url(site, "index.html"))
    assert len(visible_names(page)) == len(SMALL)
    page.select_option("#f-nation", "us")
    us = sorted(repo.units[u].name for u in SMALL if repo.units[u].nation == "us")
    assert sorted(visible_names(page)) == us
    assert "nation=us" in page.url
    page.fill("#f-q", "fletch")
    assert visible_names(page) == [repo.units["uss-fletcher-dd-445"].name]
    assert page.inner_text("#count") == f"1 of {len(SMALL)} units"
    page.fill("#f-q", "")
    page.select_option("#f-nation", "")
    page.select_option("#f-type", "cruiser")
    page.fill("#f-min", "16")
    page.fill("#f-max", "18")
    wanted = sorted(
        repo.units[u].name for u in SMALL if repo.units[u].type == "cruiser" and 16 <= repo.units[u].points <= 18
    )
    assert wanted and sorted(visible_names(page)) == wanted
    shared = page.url
    other = page.context.new_page()
    page.guard.watch(other)
    other.goto(shared)  # a shared link opens the same filtered view
    assert sorted(visible_names(other)) == wanted
    assert other.input_value("#f-min") == "16" and other.input_value("#f-type") == "cruiser"
    page.click("#f-reset")
    page.wait_for_function(f"document.querySelectorAll('#units tbody tr:not([hidden])').length === {len(SMALL)}")
    page.select_option("#f-side", "axis")
    assert sorted(visible_names(page)) == sorted(
        repo.units[u].name for u in SMALL if repo.nations[repo.units[u].nation].side == "axis"
    )
    page.fill("#f-q", "no such ship")
    assert page.is_visible("#empty")


def test_links_lead_from_the_index_to_a_unit_and_a_scenario(page, site, repo):
    page.goto(url(site, "index.html"))
    page.click("#units a:has(bdi:text-is('Bismarck'))")  # names are isolated in <bdi>
    assert page.url.endswith("/units/bismarck.html")
    assert page.inner_text("h1") == "Bismarck"
    assert page.locator("section.card").count() == len(VARIANTS)
    page.goto(url(site, "index.html"))
    title = repo.scenarios["savo-island-1942"].title
    page.click(f"a:has(bdi:text-is('{title}'))")
    assert page.url.endswith("/scenarios/savo-island-1942.html")
    assert page.inner_text("h1") == title
    assert page.locator("figure.map svg").is_visible()
    page.click("a:has(bdi:text-is('Atago'))")
    assert page.url.endswith("/units/atago.html")


def test_hostile_name_shows_as_text(page, site):
    page.goto(url(site, "units/hms-cossack.html"))
    assert page.inner_text("h1") == HOSTILE
    assert page.locator("main img").count() == 0  # the <img onerror> stayed text
    page.goto(url(site, "index.html"))
    page.fill("#f-q", "cossack")
    assert visible_names(page) == [HOSTILE]


def test_keyboard_alone_reaches_search_and_a_unit(page, site):
    page.goto(url(site, "index.html"))
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "f-q":
            break
    assert page.evaluate("document.activeElement.id") == "f-q"
    page.keyboard.type("bismarck")
    for _ in range(15):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.closest('#units') !== null"):
            break
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.endswith("/units/bismarck.html")


def test_a_unit_page_prints_its_card_at_true_size(page, site):
    page.goto(url(site, "units/uss-fletcher-dd-445.html"))
    screen = page.locator(".base-card .card").bounding_box()
    assert screen["width"] > 240  # larger on screen to be read
    page.emulate_media(media="print")
    box = page.evaluate("""() => { const r = document.querySelector('.base-card .card').getBoundingClientRect();
                                   return [r.width, r.height]; }""")
    assert box == pytest.approx([2.5 * 96, 3.5 * 96], abs=0.5)  # CSS pixels: 96 to the inch
    assert not page.locator("section.variant").first.is_visible() and not page.locator("header.site").is_visible()
    pdf = page.pdf(format="Letter", print_background=True)
    path = site.parent / "printed.pdf"
    path.write_bytes(pdf)
    with pdfplumber.open(path) as doc:
        pages = len(doc.pages)
        sizes = [(r["width"], r["height"]) for r in doc.pages[0].rects]
        words = [w["text"] for w in doc.pages[0].extract_words()]
    assert pages == 1 and "Fletcher" in words
    # the card's own box, measured in the printed PDF: 180 x 252 pt = 2.5 x 3.5 in
    assert any(abs(w - 180) <= 0.5 and abs(h - 252) <= 0.5 for w, h in sizes), sizes


def test_readable_on_a_phone(browser, site):
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    tab = context.new_page()
    guard = Guard(site)
    guard.watch(tab)
    for rel in (
        "index.html",
        "units/bismarck.html",
        "fleet.html",
        "scenarios/savo-island-1942.html",
        "variants/hex.html",
    ):
        tab.goto(url(site, rel))
        assert tab.evaluate("document.documentElement.scrollWidth") <= 376, rel
        assert tab.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") >= 14
    context.close()
    assert guard.problems == []


def fleet_verdict(variant: str, fleet: list, limit: int) -> str:
    check = check_fleet(VARIANTS[variant], fleet, limit)
    if check.legal:
        return f"legal: {check.points} of {check.effective_limit}" + (
            f" ({'; '.join(check.notes)})" if check.notes else ""
        )
    return "; ".join(check.problems)


def pick(page, counts: dict[str, int]) -> None:
    for unit_id, count in counts.items():
        page.fill(f"tr[data-id='{unit_id}'] input.count", str(count))


def verdicts(page) -> dict[str, str]:
    return dict(
        page.eval_on_selector_all(
            "#checks li", "items => items.map(li => [li.dataset.variant, li.querySelector('.verdict').textContent])"
        )
    )


def test_fleet_rules_match_the_python_rules(page, site, repo):
    page.goto(url(site, "fleet.html"))
    cases = [
        ({"uss-fletcher-dd-445": 3, "hms-cossack": 1}, 100),  # US over a third: tabletop-cm caps at 90
        ({"uss-fletcher-dd-445": 4, "bismarck": 2}, 100),  # over the limit everywhere
        ({"u-47": 4, "hmas-canberra": 1}, 100),  # submarines over a quarter
        ({"atago": 1, "aoba": 1}, 65),
    ]
    seen = []
    for counts, limit in cases:
        page.click("#clear")
        page.fill("#points-limit", str(limit))
        pick(page, counts)
        fleet = [(repo.units[u], n) for u, n in counts.items()]
        assert page.inner_text("#fleet-points") == str(sum(u.points * n for u, n in fleet))
        assert page.inner_text("#fleet-cards") == str(sum(counts.values()))
        assert verdicts(page) == {v: fleet_verdict(v, fleet, limit) for v in VARIANTS}
        seen.append(verdicts(page)["tabletop-cm"])
    assert "limit capped at 90%, 90" in seen[0] and "submarines are" in seen[2]  # both seed 001 rules were exercised


def test_a_downloaded_roster_builds_the_same_fleet(page, site, repo, cli, tmp_path):
    page.goto(url(site, "fleet.html"))
    assert page.is_disabled("#download")
    pick(page, {"uss-fletcher-dd-445": 4, "hmas-canberra": 2, "u-47": 1, "atago": 3})
    page.fill("#roster-name", 'Task "Force" <67>')
    page.fill("#points-limit", "150")
    page.select_option("#deck-variant", "tabletop-cm")
    site_cards, site_points = int(page.inner_text("#fleet-cards")), int(page.inner_text("#fleet-points"))
    site_verdict = verdicts(page)["tabletop-cm"]
    with page.expect_download() as download:
        page.click("#download")
    roster = tmp_path / "roster.yaml"
    download.value.save_as(roster)
    data = YAML(typ="safe").load(roster.read_text())
    assert data["name"] == 'Task "Force" <67>' and data["variant"] == "tabletop-cm" and data["points_limit"] == 150
    result = cli("build", "--roster", str(roster), "--paper", "letter", "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "out" / "rosters" / "roster.pdf"
    reader = PdfReader(pdf)
    placed = sum(1 for p in reader.pages[1:] for name in p["/Resources"]["/XObject"] if name.startswith("/Card"))
    assert placed == site_cards == 10
    assert len(reader.pages) == 1 + math.ceil(site_cards / 9)
    with pdfplumber.open(pdf) as doc:
        first = doc.pages[0].extract_text()
    assert f"{site_cards} cards, {site_points} points" in first
    assert site_verdict in first  # the same verdict on the page as on the site
    # a shared fleet link restores the same fleet
    again = page.context.new_page()
    page.guard.watch(again)
    again.goto(page.url)
    assert again.inner_text("#fleet-points") == str(site_points)


def test_the_points_range_wraps_as_one_and_the_units_table_fits_a_phone(browser, site):
    """At any width the "to" field stays on the line of "Points from"; at a phone's width
    the index's table fits its box without scrolling sideways."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    guard = Guard(site)
    guard.watch(tab)
    for rel in ("index.html", "fleet.html"):
        tab.goto(url(site, rel))
        for width in range(360, 1441, 40):
            tab.set_viewport_size({"width": width, "height": 900})
            tops = tab.evaluate("['f-min', 'f-max'].map(i => document.getElementById(i).getBoundingClientRect().top)")
            assert tops[0] == tops[1], (rel, width, tops)
    for width in (390, 375):
        tab.set_viewport_size({"width": width, "height": 800})
        tab.goto(url(site, "index.html"))
        box = tab.evaluate("(s => [s.scrollWidth, s.clientWidth])(document.querySelector('.scroll'))")
        assert box[0] <= box[1], (width, box)
        shown = tab.eval_on_selector_all(
            "#units thead th", "ths => ths.filter(t => t.offsetWidth).map(t => t.textContent)"
        )
        assert shown == ["Name", "Nation", "Type", "Set", "Points"]
    context.close()
    assert guard.problems == []


def test_load_a_roster_shows_a_focus_ring_when_tabbed_to(page, site):
    page.goto(url(site, "fleet.html"))
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "load-roster":
            break
    assert page.evaluate("document.activeElement.id") == "load-roster"
    ring = page.evaluate(
        "(s => [s.outlineStyle, parseFloat(s.outlineWidth)])"
        "(getComputedStyle(document.querySelector('label[for=load-roster]')))"
    )
    assert ring[0] != "none" and ring[1] >= 2, ring


PAGE_KINDS = (
    "index.html",
    "units/bismarck.html",
    "units/f4f-wildcat.html",
    "variants/hex.html",
    "variants/tabletop-inches.html",
    "scenarios/savo-island-1942.html",
    "fleet.html",
    "print.html",
)

# The ring a control shows when focused: its own outline, or its label's (a file input
# hidden inside a styled label shows the label's ring).
RING = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const ring = el => { const s = getComputedStyle(el);
    return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2 && s.visibility !== 'hidden'; };
  const label = e.closest('label');
  return [e.id || e.tagName + ':' + (e.textContent || '').trim().slice(0, 30), ring(e) || (!!label && ring(label))];
}"""


def test_every_control_shows_a_focus_ring_when_tabbed_to(page, site):
    """Tab through every page kind: each control that takes the focus shows a ring of at least 2 px."""
    for rel in PAGE_KINDS:
        page.goto(url(site, rel))
        count = page.evaluate(
            "document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]').length"
        )
        seen, missing = [], []
        for _ in range(count + 2):
            page.keyboard.press("Tab")
            found = page.evaluate(RING)
            if found is None:
                continue
            seen.append(found[0])
            if not found[1]:
                missing.append(found[0])
        assert seen, rel
        assert missing == [], (rel, missing)


def test_no_page_scrolls_sideways_on_a_phone(browser, site):
    for width in (390, 360):
        context = browser.new_context(viewport={"width": width, "height": 780}, is_mobile=True, has_touch=True)
        tab = context.new_page()
        guard = Guard(site)
        guard.watch(tab)
        for rel in PAGE_KINDS:
            tab.goto(url(site, rel))
            wide = tab.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, (rel, width, wide)
        context.close()
        assert guard.problems == []


def test_no_filter_label_is_alone_on_a_line(browser, site):
    """At 1280 px, and at every width from a phone's to a wide screen's, each filter's label
    stays with its field: on its line, or just above it, never at the end of one line with
    its field wrapped to the next."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    for rel in ("index.html", "fleet.html"):
        tab.goto(url(site, rel))
        for width in (1280, *range(360, 1441, 60)):
            tab.set_viewport_size({"width": width, "height": 900})
            apart = tab.evaluate(
                """() => [...document.querySelectorAll('.filters label')].filter(l => l.offsetWidth).map(l => {
                  const f = document.getElementById(l.htmlFor);
                  if (!f || l.contains(f)) return null;
                  const a = l.getBoundingClientRect(), b = f.getBoundingClientRect();
                  const beside = Math.abs(a.top - b.top) < a.height && b.left >= a.right - 1;
                  const under = b.left < a.right && a.left < b.right;
                  const above = b.top >= a.bottom - 1 && b.top - a.bottom < a.height && under;
                  return beside || above ? null : l.textContent;
                }).filter(Boolean)"""
            )
            assert apart == [], (rel, width, apart)
    context.close()
