"""The fleet builder and its print view in real Chromium (as ``test_site_browser.py``).

The site here has a unit whose name holds a right-to-left override, and a published
address (``[site] address``), so the fleet sheet carries a QR code. Every test fails on a
script error, a console error or warning, a dialog, or a request outside the site folder.
"""

from __future__ import annotations

import dataclasses
import io
import math
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, quote

import pdfplumber
import pypdfium2 as pdfium
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import expect
from test_site_browser import Guard, pick, url, verdicts

from tests import printcheck
from tests.site_check import SMALL, small_spec
from wastools.render.sheets import load_layout
from wastools.site import build_site
from wastools.variants import VARIANTS
from wastools.variants.fleet import check_fleet

pytestmark = pytest.mark.slow

RLO = "\u202e"
SPOOF = f"Evil{RLO}Ship"  # without isolation, "(14 points)" after it reads "(stniop 41)"
ADDRESS = "https://example.org/was/"
KEYS = ("fleet", "c", "name", "limit", "deck", "paper", "backs")
FILTERS = ("q", "nation", "side", "type", "set", "min", "max", "owned")


@pytest.fixture(scope="module")
def site(repo, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("fleet-site")
    units = dict(repo.units)
    units["u-47"] = dataclasses.replace(units["u-47"], name=SPOOF)
    spooled = dataclasses.replace(repo, units=units)
    build_site(spooled, out, dataclasses.replace(small_spec(spooled), address=ADDRESS))
    return out / "site"


def open_page(browser, site, **options):
    context = browser.new_context(viewport={"width": 1200, "height": 900}, accept_downloads=True, **options)
    guard = Guard(site)
    tab = context.new_page()
    guard.watch(tab)
    tab.guard = guard
    return tab


@pytest.fixture
def page(browser, site):
    tab = open_page(browser, site)
    yield tab
    tab.context.close()
    assert tab.guard.problems == []


@pytest.fixture(scope="module")
def parser(browser, site):
    """One fleet page whose address parser is called with many addresses."""
    tab = open_page(browser, site)
    tab.goto(url(site, "fleet.html"))
    yield tab
    tab.context.close()
    assert tab.guard.problems == []


def parse(tab, hashes: list[str]) -> list[dict]:
    return tab.evaluate(
        """hashes => hashes.map(h => {
             const p = window.wasFleetPage;
             try {
               const s = wasFleet.parseAddress(h, p.units, p.decks);
               return {fleet: Array.from(s.fleet.entries()), name: s.name, limit: s.limit, deck: s.deck,
                       paper: s.paper, notices: s.notices};
             } catch (e) { return {thrown: String(e)}; }
           })""",
        hashes,
    )


def unit_code(unit_id: str) -> str:
    """A unit's part of the compact fleet code, worked out here as fleet-core.js documents it:
    FNV-1a (32 bits) of the id, its last 4 digits in base 36."""
    h = 0x811C9DC5
    for ch in unit_id.encode():
        h = ((h ^ ch) * 0x01000193) % 2**32
    n, digits = h % 36**4, ""
    for _ in range(4):
        n, d = divmod(n, 36)
        digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[d] + digits
    return digits


def compact(counts: dict[str, int]) -> str:
    return "c=1." + ".".join(unit_code(u) + (f":{n}" if n > 1 else "") for u, n in counts.items())


def notices(page) -> list[str]:
    if not page.is_visible("#notices"):
        return []
    return page.eval_on_selector_all("#notice-list li", "items => items.map(li => li.textContent)")


# --- the address, parsed as data -------------------------------------------------------------

CRAFTED = [
    # (address, the fleet it holds, how many notices at least)
    ("fleet=constructor:1", {}, 1),
    ("fleet=__proto__:1", {}, 1),
    ("fleet=__proto__", {}, 1),
    ("fleet=toString:2,hasOwnProperty:1,valueOf:3", {}, 3),
    ("fleet=bismarck:1,__proto__:2&__proto__=1&constructor=2", {"bismarck": 1}, 3),
    ("fleet=bismarck:150", {}, 1),
    ("fleet=bismarck:0", {}, 1),
    ("fleet=bismarck:-3", {}, 1),
    ("fleet=bismarck:2.5", {}, 1),
    ("fleet=bismarck:1e2", {}, 1),
    ("fleet=bismarck:", {}, 1),
    ("fleet=bismarck:NaN", {}, 1),
    ("fleet=bismarck:Infinity", {}, 1),
    ("fleet=bismarck:%F0%9F%92%A5", {}, 1),
    ("fleet=bismarck:1:2", {}, 1),
    ("fleet=bismarck", {"bismarck": 1}, 0),
    ("fleet=bismarck:60,bismarck:60", {"bismarck": 99}, 1),
    ("fleet=bismarck:2,bismarck:3", {"bismarck": 5}, 0),
    ("fleet=BISMARCK:1", {}, 1),
    ("fleet=../units/bismarck:1", {}, 1),
    ("fleet=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E:1", {}, 1),
    ("fleet=bismarck:1&fleet=u-47:1", {"bismarck": 1}, 1),
    ("fleet=,,,bismarck:1,,", {"bismarck": 1}, 0),
    ("fleet=%E0%A4%A:1", {}, 1),
    ("fleet=bismarck:1&limit=-5", {"bismarck": 1}, 1),
    ("fleet=bismarck:1&limit=0", {"bismarck": 1}, 1),
    ("fleet=bismarck:1&limit=10001", {"bismarck": 1}, 1),
    ("fleet=bismarck:1&limit=1e3", {"bismarck": 1}, 1),
    ("fleet=bismarck:1&limit=constructor", {"bismarck": 1}, 1),
    ("limit=", {}, 1),
    ("deck=constructor", {}, 1),
    ("deck=__proto__", {}, 1),
    ("deck=hexx", {}, 1),
    ("paper=legal", {}, 1),
    ("backs=diagonal", {}, 1),
    ("backs=long&backs=short", {}, 1),
    ("name=", {}, 1),
    ("name=" + "x" * 200, {}, 1),
    ("name=" + quote(f"A{RLO}B\u2066C\x00D"), {}, 1),
    ("unknown=1&q=fletch&nation=us", {}, 1),
    ("%", {}, 1),
    ("=&&=&", {}, 1),
    ("fleet=" + ",".join(f"bismarck:{i % 99 + 1}" for i in range(400)), {"bismarck": 99}, 2),
    ("fleet=" + "a" * 30000, {}, 1),
    # the compact code: the same checks, and a code this site cannot read is a notice
    (compact({"bismarck": 2, "atago": 1}), {"bismarck": 2, "atago": 1}, 0),
    (compact({"bismarck": 2, "atago": 1}).lower(), {"bismarck": 2, "atago": 1}, 0),
    (compact({"bismarck": 1}) + "&fleet=atago:2", {"bismarck": 1, "atago": 2}, 0),
    (compact({"bismarck": 1}).replace("c=1.", "c=2."), {}, 1),
    (compact({"bismarck": 1}) + ":150", {}, 1),
    (compact({"bismarck": 1}) + "Z", {}, 1),
    ("c=1.0000.%3Cb%3E..", {}, 2),
    ("c=", {}, 1),
    ("c=1." + ".".join([unit_code("bismarck") + ":60"] * 2), {"bismarck": 99}, 1),
]


@pytest.mark.parametrize("address,fleet,at_least", CRAFTED, ids=[c[0][:40] for c in CRAFTED])
def test_a_crafted_address_never_throws_and_says_what_it_dropped(parser, address, fleet, at_least):
    (state,) = parse(parser, ["#" + address])
    assert "thrown" not in state, state
    assert dict(state["fleet"]) == fleet
    assert len(state["notices"]) >= at_least, state["notices"]
    if at_least == 0:
        assert state["notices"] == []
    assert 1 <= state["limit"] <= 10000 and state["deck"] in VARIANTS and state["paper"] in ("letter", "a4")
    assert all(c not in state["name"] for c in (RLO, "\u2066", "\x00")) and 0 < len(state["name"]) <= 80


def reference(address: str, ids: frozenset[str]) -> tuple[dict[str, int], int]:
    """The fleet an address holds and how many of its parts are bad, worked out apart from
    the page's code (for addresses without percent signs, which both sides decode alike)."""
    fleet: dict[str, int] = {}
    bad = 0
    seen = set()
    for key, value in parse_qsl(address, keep_blank_values=True):
        if key not in KEYS:
            bad += key not in FILTERS
            continue
        if key in seen:
            bad += 1
            continue
        seen.add(key)
        if key != "fleet":
            continue
        for part in value.split(","):
            if not part.strip():
                continue
            bits = part.split(":")
            unit, count = bits[0].strip(), (bits[1] if len(bits) == 2 else "1" if len(bits) == 1 else "x")
            ok = unit in ids and count.strip().isascii() and count.strip().isdigit() and len(count.strip()) <= 6
            if not ok or not 1 <= int(count) <= 99:
                bad += 1
                continue
            total = fleet.get(unit, 0) + int(count)
            bad += total > 99
            fleet[unit] = min(total, 99)
    return fleet, bad


TOKENS = st.sampled_from(
    [*SMALL, "constructor", "__proto__", "prototype", "toString", "hasOwnProperty", "", " ", "x", "U-47"]
    + ["0", "1", "7", "99", "100", "-1", "1.5", "١", "٣", "1e1", "+", ":", ",", "&", "=", "#", "\u202e", "🙂"]
    + [f"{k}=" for k in (*KEYS, *FILTERS, "__proto__", "constructor")]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(TOKENS, max_size=20).map("".join))
def test_generated_addresses_hold_exactly_their_good_parts(parser, site, address):
    ids = frozenset(SMALL)
    (state,) = parse(parser, ["#" + address])
    assert "thrown" not in state, (address, state)
    fleet, bad = reference(address, ids)
    assert dict(state["fleet"]) == fleet, address
    assert len(state["notices"]) >= bad, (address, state["notices"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from(SMALL), st.integers(1, 99), max_size=len(SMALL)), st.text(max_size=12))
def test_the_compact_code_holds_the_fleet_it_was_made_of(parser, counts, name):
    found = parser.evaluate(
        """([entries, name]) => {
             const F = wasFleet, p = window.wasFleetPage;
             const state = {fleet: new Map(entries), name: name || 'My fleet', limit: 100, deck: p.decks[0].name};
             const address = F.compactAddress(state, p.decks, p.units);
             const back = F.parseAddress('#' + address, p.units, p.decks);
             return [address, Array.from(back.fleet), back.notices];
           }""",
        [list(counts.items()), name],
    )
    address, fleet, said = found
    assert dict(fleet) == counts and list(dict(fleet)) == list(counts)  # in the order picked
    assert not any("left out" in n or "code" in n for n in said), said
    if counts:
        assert address.startswith(compact(counts))  # the code as documented, worked out apart from the page


def colliding_ids() -> tuple[str, str]:
    """Two made-up ids with the same four-character code (found by trying, as anyone could)."""
    seen: dict[str, str] = {}
    for n in range(100000):
        unit_id = f"ship-{n}"
        code = unit_code(unit_id)
        if code in seen:
            return seen[code], unit_id
        seen[code] = unit_id
    raise AssertionError("no two ids of 100,000 share a code")


def test_a_code_two_units_share_is_never_written_and_never_opens_either(parser):
    a, b = colliding_ids()
    found = parser.evaluate(
        """([a, b]) => {
             const F = wasFleet, decks = window.wasFleetPage.decks;
             const unit = id => ({id: id, name: id, points: 5, nation: 'uk', nationName: 'UK', type: 'destroyer',
                                  typeLabel: 'destroyer'});
             const units = F.catalogue([unit(a), unit(b), unit('lone-ship')]);
             const state = {fleet: new Map([[a, 2], ['lone-ship', 1]]), name: 'My fleet', limit: 100,
                            deck: decks[0].name};
             const written = F.compactAddress(state, decks, units);
             const read = F.parseAddress('#c=1.' + F.unitCode(a) + ':2.' + F.unitCode('lone-ship'), units, decks);
             return [written, Array.from(read.fleet), read.notices];
           }""",
        [a, b],
    )
    written, fleet, said = found
    assert written == f"fleet={a}:2,lone-ship:1"  # the ids, not the shared code
    assert fleet == [["lone-ship", 1]] and len(said) == 1 and "more than one unit" in said[0]


def test_opening_a_crafted_link_shows_notices_and_keeps_the_good_part(page, site, repo):
    page.goto(url(site, "fleet.html#fleet=constructor:1,bismarck:2,__proto__:1,atago:150&limit=-5&deck=hexx"))
    said = notices(page)
    assert len(said) == 5, said
    assert any("constructor" in n for n in said) and any("150" in n for n in said) and any("-5" in n for n in said)
    assert page.input_value("tr[data-id='bismarck'] input.count") == "2"
    assert page.input_value("#points-limit") == "100" and page.input_value("#deck-variant") == "standard"
    assert "constructor" not in page.url and "150" not in page.url  # the address now holds what is used
    page.click("#notices-close")
    assert not page.is_visible("#notices")


def test_the_whole_fleet_round_trips_in_the_address(page, site, repo):
    page.goto(url(site, "fleet.html"))
    name = 'Task "Force" & #67 = 100% ' + "\u00e9"
    pick(page, {"uss-fletcher-dd-445": 4, "hmas-canberra": 2, "bismarck": 1})
    page.fill("#roster-name", name)
    page.fill("#points-limit", "150")
    page.select_option("#deck-variant", "hex")
    shared = page.url
    before = verdicts(page)
    other = page.context.new_page()
    page.guard.watch(other)
    other.goto(shared)
    assert other.input_value("#roster-name") == name
    assert other.input_value("#points-limit") == "150" and other.input_value("#deck-variant") == "hex"
    counts = {u: other.input_value(f"tr[data-id='{u}'] input.count") for u in ("uss-fletcher-dd-445", "hmas-canberra")}
    assert counts == {"uss-fletcher-dd-445": "4", "hmas-canberra": "2"}
    assert verdicts(other) == before and "150" in before["standard"]
    assert notices(other) == []
    # the order picked is kept; a link opened on the page itself (no reload) is read too
    assert "fleet=uss-fletcher-dd-445:4,hmas-canberra:2,bismarck:1&" in shared
    other.evaluate("location.hash = '#fleet=atago:3&limit=60'")
    other.wait_for_function(
        "document.getElementById('fleet-points').textContent !== '0' && "
        "document.getElementById('points-limit').value === '60'"
    )
    assert other.input_value("tr[data-id='atago'] input.count") == "3"
    assert other.input_value("tr[data-id='bismarck'] input.count") == "0"


def test_counts_and_limits_out_of_range_are_put_right_with_a_notice(page, site, repo):
    page.goto(url(site, "fleet.html"))
    page.fill("tr[data-id='atago'] input.count", "150")
    page.press("tr[data-id='atago'] input.count", "Tab")
    assert page.input_value("tr[data-id='atago'] input.count") == "99"
    assert page.inner_text("#fleet-cards") == "99"
    assert any("150" in n and "99" in n for n in notices(page))
    page.fill("#points-limit", "-5")
    page.press("#points-limit", "Tab")
    assert any("-5" in n for n in notices(page))
    assert set(verdicts(page).values()) == {"no points limit set"}
    assert page.get_attribute("#print", "aria-disabled") == "true" and page.is_disabled("#download")


def test_a_right_to_left_name_cannot_turn_the_points_round(page, site):
    page.goto(url(site, "fleet.html"))
    pick(page, {"u-47": 1})
    item = page.locator("#picked li").first
    assert item.locator("bdi").inner_text() == SPOOF
    # the text after the name reads left to right: "(" is left of ")" and "1" left of "4"
    order = page.evaluate(
        """() => {
             const li = document.querySelector('#picked li');
             const text = li.querySelector('span').lastChild;  // " (14 points)", before the item's buttons
             const at = i => { const r = document.createRange(); r.setStart(text, i); r.setEnd(text, i + 1);
                               return r.getBoundingClientRect().left; };
             const s = text.textContent;
             return [at(s.indexOf('(')), at(s.indexOf('1')), at(s.indexOf('4')), at(s.indexOf(')'))];
           }"""
    )
    assert order == sorted(order), order
    for rel, selector in (
        ("index.html", "#units tbody th a"),
        ("fleet.html", "#units tbody th a"),
        ("units/u-47.html", "h1"),
    ):
        page.goto(url(site, rel))
        isolated = page.eval_on_selector_all(
            selector, "els => els.map(e => e.querySelector('bdi') !== null || e.closest('bdi') !== null)"
        )
        assert isolated and all(isolated), rel


# --- the print view ----------------------------------------------------------------------------


def print_pdf(page, site, address: str) -> bytes:
    page.goto(url(site, "print.html#" + address))
    page.wait_for_function("document.body.dataset.ready === 'yes'")
    return page.pdf(prefer_css_page_size=True, print_background=True)


def cards_on(page_) -> list[tuple[float, float]]:
    """Top-left corners of the 180 x 252 pt card boxes on a PDF page."""
    return sorted(
        (round(r["x0"], 1), round(r["top"], 1))
        for r in page_.rects
        if abs(r["width"] - 180) <= 0.5 and abs(r["height"] - 252) <= 0.5
    )


@pytest.mark.parametrize("paper,deck", [("letter", "hex"), ("a4", "tabletop-inches")])
def test_the_print_view_prints_the_fleets_cards_at_true_size(page, site, repo, paper, deck):
    counts = {"bismarck": 2, "hms-cossack": 5, "uss-fletcher-dd-445": 3, "atago": 1}
    fleet = ",".join(f"{u}:{n}" for u, n in counts.items())
    pdf = print_pdf(page, site, f"fleet={fleet}&name=Hunters&limit=150&deck={deck}&paper={paper}")
    layout = load_layout(paper)
    cards = sum(counts.values())
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        assert len(doc.pages) == math.ceil(cards / 9) + 1
        slots = sorted((round(s["x"], 1), round(layout["page"]["height"] - s["y"] - 252, 1)) for s in layout["slots"])
        placed = []
        for sheet in doc.pages[1:]:
            assert (sheet.width, sheet.height) == pytest.approx(
                (layout["page"]["width"], layout["page"]["height"]), abs=0.5
            )
            corners = cards_on(sheet)
            assert all(any(abs(c[0] - s[0]) <= 0.5 and abs(c[1] - s[1]) <= 0.5 for s in slots) for c in corners)
            placed += corners
            assert printcheck.small_text(sheet) == []  # nothing under 6 pt, cards and marks alike
            bars = printcheck.check_bars(sheet)
            assert {(b.label, b.vertical) for b in bars} == {("100 mm", True), ("4 in", True), ("100 mm", False)}
            assert all(b.measured == pytest.approx(b.wanted, abs=0.1) for b in bars), bars
        assert len(placed) == cards
        text = "\n".join(p.extract_text() for p in doc.pages[1:])
        last = doc.pages[0]  # the fleet sheet comes first
        fleet_text = last.extract_text()
        assert printcheck.small_text(last) == [] and len(printcheck.check_bars(last)) == 3
    assert printcheck.ink_near_edges(pdf) == []
    # the chosen deck's own wording, and only its cards, each as many times as its count
    unit_word = {"hex": "Move: 6 hexes", "tabletop-inches": "Move: 10 in"}[deck]  # Bismarck's
    assert unit_word in text and "sector" not in text
    assert text.count("Bismarck") >= 2 and text.count("HMS Cossack") == 5
    assert "Is it legal?" in fleet_text and f"{cards} cards" in fleet_text
    said_deck = " ".join(fleet_text.split())  # the fleet sheet names the chosen deck, and only it
    assert f"{VARIANTS[deck].title} cards" in said_deck and said_deck.count("(these cards)") == 1
    assert f"{VARIANTS[deck].title} (these cards)" in said_deck
    entries = [(repo.units[u], n) for u, n in counts.items()]
    for name in VARIANTS:
        check = check_fleet(VARIANTS[name], entries, 150)
        said = f"legal: {check.points} of {check.effective_limit}" if check.legal else check.problems[0]
        assert said in fleet_text.replace("\n", " "), (name, said)


@pytest.mark.parametrize("paper,edge", [("letter", "long"), ("a4", "short")])
def test_backs_for_duplex_land_behind_their_fronts(page, site, paper, edge):
    """With backs, each card sheet is followed by its backs sheet: the deck's own back behind
    every card, where the duplex model (tests/duplex_model.py, apart from the page's code) says
    that turning the paper about the chosen edge brings it."""
    from tests.duplex_model import behind

    pdf = print_pdf(page, site, f"fleet=hms-cossack:5,atago:6&deck=off-grid&paper={paper}&backs={edge}")
    assert page.input_value("#print-backs") == edge and f"backs={edge}" in page.url
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        assert len(doc.pages) == 1 + 2 * 2  # the fleet sheet, then each of the 2 card sheets and its backs
        for front, back in ((doc.pages[1], doc.pages[2]), (doc.pages[3], doc.pages[4])):
            w, h = float(front.width), float(front.height)
            wanted = []
            for x, y in cards_on(front):
                corners = [behind(x, y, w, h, edge), behind(x + 180, y + 252, w, h, edge)]
                wanted.append((round(min(c[0] for c in corners), 1), round(min(c[1] for c in corners), 1)))
            got = cards_on(back)
            assert len(got) == len(wanted) > 0
            assert all(any(abs(g[0] - c[0]) <= 0.5 and abs(g[1] - c[1]) <= 0.5 for g in got) for c in wanted)
            text = back.extract_text()
            assert text.count("War at Sea") >= len(wanted) and VARIANTS["off-grid"].title in text
            assert printcheck.small_text(back) == []
    assert printcheck.ink_near_edges(pdf) == []
    labels = page.eval_on_selector_all(".sheet.backs .sheet-label", "l => l.map(t => t.textContent)")
    assert len(labels) == 2 and all(t.endswith(f"flip on the {edge} edge") for t in labels), labels
    page.select_option("#print-backs", "")
    page.wait_for_function("document.body.dataset.ready === 'yes'")
    assert page.locator(".sheet.backs").count() == 0 and "backs=" not in page.url


def test_the_fleet_sheet_has_a_qr_code_of_the_fleets_link(page, site):
    import zxingcpp

    pdf = print_pdf(page, site, "fleet=bismarck:1,u-47:2&name=Wolf%20pack&deck=hex&limit=90")
    doc = pdfium.PdfDocument(pdf)
    image = doc[0].render(scale=3).to_pil()  # the fleet sheet is page 1
    found = [r.text for r in zxingcpp.read_barcodes(image)]
    code = f"1.{unit_code('bismarck')}.{unit_code('u-47')}:2"
    assert found == [ADDRESS + f"fleet.html#c={code}&name=Wolf+pack&limit=90&deck=hex"]
    # and the link it holds opens that fleet
    page.goto(url(site, "fleet.html#" + found[0].split("#", 1)[1]))
    assert page.input_value("#roster-name") == "Wolf pack" and page.inner_text("#fleet-cards") == "3"


def test_the_print_view_follows_the_builder_and_back(page, site):
    page.goto(url(site, "fleet.html"))
    assert page.get_attribute("#print", "aria-disabled") == "true"
    pick(page, {"aoba": 2})
    page.select_option("#deck-variant", "off-grid")
    page.click("#print")
    page.wait_for_function("document.body.dataset.ready === 'yes'")
    assert page.url.split("/")[-1].startswith("print.html#fleet=aoba:2")
    assert page.input_value("#print-deck") == "off-grid"
    assert page.locator(".sheet.cards .slot").count() == 2 and "leg" in page.inner_text(".sheet.cards")
    page.select_option("#print-paper", "a4")
    page.wait_for_function("document.body.dataset.ready === 'yes'")
    assert "paper=a4" in page.url
    page.select_option("#print-deck", "standard")
    page.wait_for_function("document.body.dataset.ready === 'yes'")
    assert "sector" in page.inner_text(".sheet.cards")
    page.click("#back")
    expect(page.locator("tr[data-id='aoba'] input.count")).to_have_value("2")  # once the builder has read its address
    expect(page.locator("#deck-variant")).to_have_value("standard")


# --- text, rosters, the collection, dark mode ----------------------------------------------------


def test_text_export_and_roster_import_round_trip(page, site, repo, tmp_path):
    page.goto(url(site, "fleet.html"))
    counts = {"uss-fletcher-dd-445": 3, "u-47": 1, "aoba": 2}
    pick(page, counts)
    page.fill("#roster-name", "Night Raiders")
    page.fill("#points-limit", "75")
    page.select_option("#deck-variant", "tabletop-cm")
    page.click("#copy-text")
    text = page.input_value("#fleet-text")
    entries = [(repo.units[u], n) for u, n in counts.items()]
    points = sum(u.points * n for u, n in entries)
    assert text.startswith(f"Night Raiders ({points} of 75 points, 6 cards, {VARIANTS['tabletop-cm'].title} deck)")
    assert "3 x USS Fletcher (DD 445) (United States, destroyer, 7 points each, 21 in all)" in text
    for name, check in ((n, check_fleet(VARIANTS[n], entries, 75)) for n in VARIANTS):
        said = f"legal: {check.points} of {check.effective_limit}" if check.legal else "; ".join(check.problems)
        assert f"- {VARIANTS[name].title}: {said}" in text
    shared = page.url
    with page.expect_download() as download:
        page.click("#download")
    assert download.value.suggested_filename == "night-raiders.yaml"
    roster = tmp_path / "night-raiders.yaml"
    download.value.save_as(roster)
    page.click("#clear")
    page.fill("#roster-name", "other")
    page.set_input_files("#load-roster", str(roster))
    page.wait_for_function("document.getElementById('roster-name').value === 'Night Raiders'")
    assert page.url == shared and notices(page) == []
    # a hostile roster: every bad part is a notice, the good ones are kept
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        'name: "Bad\\u202e one"\nvariant: hexx\npoints_limit: -3\ncolour: red\nunits:\n'
        "  - unit: constructor\n    count: 1\n  - unit: __proto__\n  - unit: aoba\n    count: 150\n"
        "  - unit: atago\n    count: 2\n  - count: 4\n!!python/object: x\n"
    )
    page.set_input_files("#load-roster", str(bad))
    page.wait_for_function("document.getElementById('roster-name').value === 'Bad one'")
    said = notices(page)
    assert len(said) >= 8, said
    assert page.input_value("tr[data-id='atago'] input.count") == "2" and page.inner_text("#fleet-cards") == "2"


TRICKY_NAME = "Task *Force* [b]_67_[/b] \\ #1 (night)"


def paste(page, text: str) -> None:
    if not page.is_visible("#paste-text"):
        page.click("details.paste summary")
    page.fill("#paste-text", text)
    page.click("#paste-open")


@pytest.mark.parametrize("fmt", ["text", "markdown", "bbcode"])
def test_each_text_format_pasted_back_is_the_same_fleet(page, site, repo, fmt):
    page.goto(url(site, "fleet.html"))
    counts = {"uss-fletcher-dd-445": 3, "u-47": 1, "hmas-canberra": 2}
    pick(page, counts)
    page.fill("#roster-name", TRICKY_NAME)
    page.fill("#points-limit", "75")
    page.select_option("#deck-variant", "tabletop-cm")
    shared = page.url
    page.click(f"#copy-{fmt}")
    text = page.input_value("#fleet-text")
    rest = shared.split("#", 1)[1].split("&", 1)[1]  # name, limit and deck as in the address
    link = ADDRESS + "fleet.html#" + compact(counts) + "&" + rest  # the published site's, when it has an address
    assert link in text and {"text": "Link: ", "markdown": "](", "bbcode": "[url="}[fmt] + link in text
    assert {
        "text": "3 x USS Fletcher (DD 445) (",
        "markdown": "- 3 x USS Fletcher (DD 445) (",
        "bbcode": "[*]3 x USS Fletcher (DD 445) (",
    }[fmt] in text
    if fmt == "markdown":
        assert "**Task \\*Force\\* \\[b\\]\\_67\\_\\[/b\\] \\\\ \\#1 (night)**" in text  # shows as itself
    # the lines, not the link, are read: drop the link and it is still the same fleet
    for pasted in (text, "\n".join(line for line in text.splitlines() if link not in line)):
        page.click("#clear")
        page.fill("#roster-name", "other")
        page.fill("#points-limit", "100")
        paste(page, pasted)
        page.wait_for_function(f"document.getElementById('roster-name').value === {TRICKY_NAME!r}")
        assert page.url == shared and notices(page) == []
        assert page.input_value("tr[data-id='u-47'] input.count") == "1"


@pytest.mark.parametrize("fmt", ["text", "markdown", "bbcode"])
def test_the_tool_prints_each_text_format_as_the_same_fleet(page, site, repo, tmp_path, fmt):
    """What Copy as text, Markdown or BBCode gives is a roster for `wastools build --roster`."""
    from wastools.site.roster import load_roster

    page.goto(url(site, "fleet.html"))
    counts = {"uss-fletcher-dd-445": 3, "hms-cossack": 2, "bismarck": 1}
    pick(page, counts)
    page.fill("#roster-name", TRICKY_NAME)
    page.fill("#points-limit", "75")
    page.select_option("#deck-variant", "tabletop-cm")
    page.click(f"#copy-{fmt}")
    path = tmp_path / "fleet.txt"
    path.write_text(page.input_value("#fleet-text"), "utf-8")
    roster = load_roster(path, repo, Path(__file__).resolve().parents[2])
    assert (roster.name, roster.variant, roster.points_limit) == (TRICKY_NAME, "tabletop-cm", 75)
    assert [(u.id, n) for u, n in roster.entries] == list(counts.items())


def test_a_pasted_link_or_roster_opens_its_fleet_and_bad_lines_are_located(page, site, repo, tmp_path):
    page.goto(url(site, "fleet.html"))
    paste(page, ADDRESS + "fleet.html#fleet=aoba:2,atago:1&name=Link+only&limit=80&deck=hex")
    page.wait_for_function("document.getElementById('roster-name').value === 'Link only'")
    assert page.inner_text("#fleet-cards") == "3" and page.input_value("#deck-variant") == "hex" and notices(page) == []
    paste(page, "name: Pasted roster\nvariant: off-grid\npoints_limit: 60\nunits:\n  - unit: bismarck\n")
    page.wait_for_function("document.getElementById('roster-name').value === 'Pasted roster'")
    assert page.inner_text("#fleet-cards") == "1" and page.input_value("#deck-variant") == "off-grid"
    # an edited text: a count changed by hand, a line made up, a unit this site has not
    page.click("#copy-text")
    text = page.input_value("#fleet-text").replace("1 x Bismarck", "2 x Bismarck")
    lines = text.splitlines()
    lines[1:1] = ["some chatter", "4 x HMS Nonesuch (UK, destroyer, 5 points)"]
    paste(page, "\n".join(lines))
    page.wait_for_function("document.getElementById('fleet-cards').textContent === '2'")
    said = notices(page)
    assert any(n.startswith("line 2: not understood") for n in said), said
    assert any(n.startswith("line 3: no unit called") and "Nonesuch" in n for n in said), said
    assert any("link holds another fleet" in n for n in said), said
    # a text file loads like a roster file
    page.click("#copy-bbcode")
    saved = tmp_path / "fleet.txt"
    saved.write_text(page.input_value("#fleet-text"))
    page.click("#clear")
    page.set_input_files("#load-roster", str(saved))
    page.wait_for_function("document.getElementById('fleet-cards').textContent === '2'")
    # nothing usable leaves the fleet as it was, and says so
    paste(page, "hello\nworld")
    assert page.inner_text("#fleet-cards") == "2"
    said = notices(page)
    assert [n[:7] for n in said[:2]] == ["line 1:", "line 2:"] and "left as it was" in said[-1]


def test_a_name_two_units_share_is_told_apart_by_the_texts_link(parser):
    found = parser.evaluate(
        """() => {
             const F = wasFleet, decks = window.wasFleetPage.decks;
             const units = F.catalogue([{id: 'twin-a', name: 'Twin', points: 5, nation: 'uk', nationName: 'UK',
                                          type: 'destroyer', typeLabel: 'destroyer'},
                                         {id: 'twin-b', name: 'Twin', points: 6, nation: 'uk', nationName: 'UK',
                                          type: 'destroyer', typeLabel: 'destroyer'}]);
             const state = {fleet: new Map([['twin-b', 2]]), name: 'Twins', limit: 50, deck: decks[0].name};
             const text = F.fleetText(state, units, decks, 'text', F.fleetLink(state, decks, ''));
             const withLink = F.parseText(text, units, decks);
             const bare = text.split('\\n').filter(l => !l.startsWith('Link:')).join('\\n');
             const without = F.parseText(bare, units, decks);
             return [Array.from(withLink.fleet), withLink.notices, Array.from(without.fleet), without.notices];
           }"""
    )
    assert found[0] == [["twin-b", 2]] and found[1] == []
    assert found[2] == [] and found[3][0].startswith("line 3: more than one unit is called")


def test_a_pasted_line_of_many_brackets_is_one_notice(parser):
    said = parser.evaluate(
        """() => {
             const F = wasFleet, p = window.wasFleetPage;
             const text = 'Long (0 of 50 points, 1 card, ' + p.decks[0].title + ' deck)\\n1 x Bismarck\\n2 x ' +
                          'a ('.repeat(30000) + '\\n';
             const s = F.parseText(text, p.units, p.decks);
             return [Array.from(s.fleet), s.notices];
           }"""
    )
    assert said[0] == [["bismarck", 1]] and len(said[1]) == 1 and said[1][0].startswith("line 3: no unit called")


def test_plus_minus_remove_and_points_left(page, site, repo):
    page.goto(url(site, "fleet.html#limit=60"))
    aoba, atago = repo.units["aoba"].points, repo.units["atago"].points
    assert page.inner_text("#points-left") == "60 points left of 60"
    for _ in range(2):
        page.click("tr[data-id='aoba'] button[data-step='1']")  # one tap adds one
    page.click("tr[data-id='atago'] button[data-step='1']")
    assert page.input_value("tr[data-id='aoba'] input.count") == "2" and page.inner_text("#fleet-cards") == "3"
    spent = 2 * aoba + atago
    assert page.inner_text("#points-left") == (
        f"{60 - spent} points left of 60" if spent <= 60 else f"{spent - 60} points over the limit of 60"
    )
    assert "fleet=aoba:2,atago:1" in page.url
    page.click("#picked li[data-id='aoba'] button[data-step='-1']")  # in the fleet's list too
    assert page.input_value("tr[data-id='aoba'] input.count") == "1"
    page.click("#picked li[data-id='atago'] button[data-step='remove']")
    assert page.input_value("tr[data-id='atago'] input.count") == "0"
    assert page.eval_on_selector_all("#picked li", "l => l.map(li => li.dataset.id)") == ["aoba"]
    assert page.inner_text("#points-left") == f"{60 - aoba} points left of 60"
    page.click("tr[data-id='aoba'] button[data-step='-1']")
    page.click("tr[data-id='aoba'] button[data-step='-1']")  # never below 0
    assert page.input_value("tr[data-id='aoba'] input.count") == "0" and page.inner_text("#fleet-cards") == "0"
    page.fill("tr[data-id='bismarck'] input.count", "99")
    page.click("tr[data-id='bismarck'] button[data-step='1']")  # never above 99
    assert page.input_value("tr[data-id='bismarck'] input.count") == "99"
    assert "over the limit of 60" in page.inner_text("#points-left")


SECOND = '<b>Second</b> "&" #2'


def test_saved_fleets_survive_a_reload_and_damaged_ones_are_dropped(page, site):
    page.goto(url(site, "fleet.html"))
    assert page.is_disabled("#save-fleet") and page.is_visible("#saved-none")
    pick(page, {"aoba": 2})
    page.fill("#roster-name", "First")
    page.click("#save-fleet")
    page.click("#clear")
    pick(page, {"bismarck": 1, "u-47": 1})
    page.fill("#roster-name", SECOND)
    page.select_option("#deck-variant", "hex")
    page.click("#save-fleet")
    page.goto(url(site, "fleet.html"))
    page.reload()
    saved = page.eval_on_selector_all("#saved li bdi", "l => l.map(b => b.textContent)")
    assert saved == [SECOND, "First"] and not page.is_visible("#saved-none")
    page.click("#saved li:nth-child(1) a")
    page.wait_for_function("document.getElementById('fleet-cards').textContent === '2'")
    assert page.input_value("#deck-variant") == "hex" and page.input_value("#roster-name") == SECOND
    page.click("#saved li:nth-child(2) button")  # delete "First"
    page.reload()
    assert page.eval_on_selector_all("#saved li bdi", "l => l.map(b => b.textContent)") == [SECOND]
    # the stored list is data: anything that is not a fleet address is dropped, with a notice
    page.evaluate(
        """localStorage.setItem('wastools.fleets', JSON.stringify(
             ['fleet=aoba:1&name=Kept', {"__proto__": 1}, 'fleet=constructor:1&name=Evil', 7,
              'fleet=atago:1&name=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E']))"""
    )
    page.goto(url(site, "fleet.html"))
    page.reload()
    assert page.eval_on_selector_all("#saved li bdi", "l => l.map(b => b.textContent)") == [
        "Kept",
        "<img src=x onerror=alert(1)>",
    ]
    assert any("3 of the fleets saved" in n for n in notices(page)), notices(page)
    page.evaluate("localStorage.setItem('wastools.fleets', '{\"length\": 2}')")
    page.reload()
    assert page.locator("#saved li").count() == 0 and any("could not be read" in n for n in notices(page))


def test_saved_fleets_export_to_a_file_and_import_into_another_browser(page, browser, site, tmp_path):
    import json

    page.goto(url(site, "fleet.html"))
    assert page.is_disabled("#export-saved")
    for name, counts in (("Alpha", {"aoba": 2}), (SECOND, {"bismarck": 1, "u-47": 3})):
        page.click("#clear")
        pick(page, counts)
        page.fill("#roster-name", name)
        page.click("#save-fleet")
    with page.expect_download() as download:
        page.click("#export-saved")
    assert download.value.suggested_filename == "saved-fleets.json"
    exported = tmp_path / "saved-fleets.json"
    download.value.save_as(exported)
    fleets = json.loads(exported.read_text("utf-8"))["fleets"]
    assert [dict(parse_qsl(f))["name"] for f in fleets] == [SECOND, "Alpha"]
    # another browser (a fresh context: nothing saved) with a fleet of its own named Alpha
    other = open_page(browser, site)
    try:
        other.goto(url(site, "fleet.html"))
        pick(other, {"atago": 1})
        other.fill("#roster-name", "Alpha")
        other.click("#save-fleet")
        other.set_input_files("#import-saved", str(exported))
        other.wait_for_function("document.querySelectorAll('#saved li').length === 2")
        other.reload()
        assert other.eval_on_selector_all("#saved li bdi", "l => l.map(b => b.textContent)") == [SECOND, "Alpha"]
        other.click("#saved li:nth-child(2) a")  # the imported Alpha replaced this browser's
        other.wait_for_function("document.getElementById('fleet-cards').textContent === '2'")
        assert other.input_value("tr[data-id='aoba'] input.count") == "2"
        # a file with damaged entries imports the rest and says how many it left out
        damaged = tmp_path / "damaged.json"
        entries = ["fleet=atago:2&name=Third", {"__proto__": 1}, "fleet=constructor:1&name=Bad", 7]
        damaged.write_text(json.dumps(entries))
        other.set_input_files("#import-saved", str(damaged))
        other.wait_for_function("document.querySelectorAll('#saved li').length === 3")
        assert any("3 of the file's fleets could not be read" in n for n in notices(other)), notices(other)
        (tmp_path / "junk.json").write_text("{not json")
        other.set_input_files("#import-saved", str(tmp_path / "junk.json"))
        assert any("nothing was imported" in n for n in notices(other)) and other.locator("#saved li").count() == 3
    finally:
        other.context.close()
    assert other.guard.problems == []


def test_a_tap_on_a_row_adds_one_and_the_preview_shows_its_card_in_the_chosen_deck(page, site, repo):
    page.goto(url(site, "fleet.html#deck=hex"))
    assert not page.is_visible("#card-preview") and page.is_visible("#preview-hint")  # an empty fleet
    for _ in range(2):
        page.click("tr[data-id='bismarck'] td:nth-child(3)")  # its type: a tap anywhere on the row
    assert page.input_value("tr[data-id='bismarck'] input.count") == "2" and page.inner_text("#fleet-cards") == "2"
    page.wait_for_function("document.querySelector('#preview-card .card') !== null")
    assert "Bismarck" in page.inner_text("#preview-card") and "Move: 6 hexes" in page.inner_text("#preview-card")
    assert page.inner_text("#preview-caption") == f"Bismarck, the {VARIANTS['hex'].title} card"
    page.select_option("#deck-variant", "tabletop-inches")  # the preview follows the deck
    assert "Move: 10 in" in page.inner_text("#preview-card")
    page.click("tr[data-id='aoba'] input.owned")  # a control keeps its own meaning
    page.click("tr[data-id='aoba'] td.stepper")
    assert page.input_value("tr[data-id='aoba'] input.count") == "0"
    page.click("tr[data-id='aoba'] button[data-step='1']")  # + adds and previews too
    page.wait_for_function("document.getElementById('preview-caption').textContent.startsWith('Aoba,')")
    page.click("#picked li[data-id='bismarck'] span")  # a unit in the fleet's list previews it
    page.wait_for_function("document.getElementById('preview-caption').textContent.startsWith('Bismarck,')")
    assert page.inner_text("#fleet-cards") == "3"


def test_the_units_i_own_are_kept_in_the_browser(page, site):
    page.goto(url(site, "fleet.html"))
    for unit in ("aoba", "bismarck"):
        page.check(f"tr[data-id='{unit}'] input.owned")
    page.check("#f-owned")
    shown = page.eval_on_selector_all("#units tbody tr:not([hidden])", "rows => rows.map(r => r.dataset.id)")
    assert sorted(shown) == ["aoba", "bismarck"]
    assert "owned" not in page.url  # a collection is not shared with a link
    page.reload()
    assert page.is_checked("#f-owned") and page.is_checked("tr[data-id='aoba'] input.owned")
    shown = page.eval_on_selector_all("#units tbody tr:not([hidden])", "rows => rows.map(r => r.dataset.id)")
    assert sorted(shown) == ["aoba", "bismarck"]
    page.evaluate("localStorage.setItem('wastools.owned', '{\"__proto__\": 1, \"length\": 3}')")
    page.reload()  # a damaged list is no list, not an error
    assert not page.is_checked("tr[data-id='aoba'] input.owned")


CONTRAST = """sel => {
  const rgb = c => { const m = c.match(/[\\d.]+/g).map(Number); return m.length > 3 ? m : [...m, 1]; };
  const lum = ([r, g, b]) => { const f = v => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
                               return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const ground = el => { for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor); if (c[3] > 0.5) { return c; } }
    return rgb(getComputedStyle(document.documentElement).backgroundColor); };
  const out = [];
  for (const root of document.querySelectorAll(sel)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const el = t.parentElement;
      if (!t.textContent.trim() || !el.getClientRects().length) { continue; }
      const svg = el instanceof SVGElement, style = getComputedStyle(el);
      const fg = rgb(svg ? style.fill : style.color), bg = ground(svg ? el.closest('div') : el);
      const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      out.push({text: t.textContent.trim().slice(0, 30), ratio: (a + 0.05) / (b + 0.05),
                colour: svg ? style.fill : style.color, ground: bg.join(",")});
    }
  }
  return out;
}"""
SCHEME_PAGES = (
    ("units/bismarck.html", ".card"),
    ("units/u-47.html", ".card"),
    ("units/f4f-wildcat.html", ".card"),
    ("print.html#fleet=aoba:1,u-47:1,uss-fletcher-dd-445:9", ".sheet"),
    ("fleet.html#fleet=bismarck:1&deck=hex", "#preview-card"),  # the builder's card preview
)


def scheme_text(browser, site, scheme: str, rel: str, selector: str) -> list[dict]:
    tab = open_page(browser, site, color_scheme=scheme)
    tab.goto(url(site, rel))
    if rel.startswith("print.html"):
        tab.wait_for_function("document.body.dataset.ready === 'yes'")
    if rel.startswith("fleet.html"):  # an opened fleet's first unit is previewed
        tab.wait_for_function("document.querySelector('#preview-card .card') !== null")
    found = tab.evaluate(CONTRAST, selector)
    tab.context.close()
    assert tab.guard.problems == []
    return found


@pytest.mark.parametrize("rel,selector", SCHEME_PAGES, ids=[p[0].split("#")[0] for p in SCHEME_PAGES])
def test_cards_and_sheets_read_alike_in_both_colour_schemes(browser, site, rel, selector):
    """Every piece of text on a card or a sheet is at least 4.5:1 against what it is drawn on,
    in light and dark mode, and in exactly the same colours in both: cards are printed matter."""
    light, dark = (scheme_text(browser, site, scheme, rel, selector) for scheme in ("light", "dark"))
    assert len(light) > 20 and len(dark) == len(light)
    for scheme, found in (("light", light), ("dark", dark)):
        poor = [t for t in found if t["ratio"] < 4.5]
        assert poor == [], (scheme, poor)
    assert [(t["colour"], t["ground"]) for t in dark] == [(t["colour"], t["ground"]) for t in light]
    if rel.startswith("print.html"):  # the fleet sheet's verdicts are among them, as printed
        assert any(t["text"].startswith("legal") for t in dark) and any("over the limit" in t["text"] for t in dark)


def test_dark_mode_follows_the_system_and_cards_stay_white(browser, site):
    tab = open_page(browser, site, color_scheme="dark")
    tab.goto(url(site, "print.html#fleet=aoba:1"))
    tab.wait_for_function("document.body.dataset.ready === 'yes'")
    colour = tab.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    channels = [int(c) for c in colour[colour.index("(") + 1 : -1].split(",")[:3]]
    assert max(channels) < 60, colour
    sheet = tab.evaluate("getComputedStyle(document.querySelector('.sheet')).backgroundColor")
    assert sheet == "rgb(255, 255, 255)"
    tab.context.close()
    assert tab.guard.problems == []


def test_the_builder_and_the_print_view_fit_a_phone(browser, site):
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    tab = context.new_page()
    guard = Guard(site)
    guard.watch(tab)
    tab.goto(url(site, "fleet.html#fleet=aoba:2"))
    # every control of a unit's row is on the screen, and the fleet's summary is not cut short
    right = tab.evaluate(
        """() => Math.max(...['th a', 'input.count', 'input.owned'].map(
             s => document.querySelector('#units tbody tr ' + s).getBoundingClientRect().right))"""
    )
    assert right <= 375, right
    summary = tab.evaluate("(e => e.scrollHeight - e.clientHeight)(document.querySelector('.fleet-summary'))")
    assert summary == 0
    tab.fill("tr[data-id='aoba'] input.count", "3")
    assert tab.inner_text("#fleet-cards") == "3"
    tab.goto(url(site, "print.html#fleet=aoba:1"))
    tab.wait_for_function("document.body.dataset.ready === 'yes'")
    assert tab.evaluate("document.documentElement.scrollWidth") <= 376
    context.close()
    assert guard.problems == []


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # the test says what went wrong, not the server
        pass


def test_the_print_view_works_from_a_web_server(browser, site):
    """The same site served over HTTP (on this machine only): the cards load as scripts there too."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietHandler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    tab = context.new_page()
    tab.route("**/favicon.ico", lambda route: route.fulfill(status=204))  # the browser asks a server for one
    problems: list[str] = []
    tab.on("pageerror", lambda e: problems.append(f"script error: {e}"))
    tab.on("console", lambda m: m.type in ("error", "warning") and problems.append(m.text))
    tab.on("request", lambda r: r.url.startswith(base) or problems.append(f"request outside the site: {r.url}"))
    try:
        tab.goto(base + "print.html#fleet=aoba:2,bismarck:1&deck=hex")
        tab.wait_for_function("document.body.dataset.ready === 'yes'")
        with pdfplumber.open(io.BytesIO(tab.pdf(prefer_css_page_size=True, print_background=True))) as doc:
            assert len(doc.pages) == 2 and len(cards_on(doc.pages[1])) == 3
            assert "Move: 6 hexes" in doc.pages[1].extract_text()
    finally:
        context.close()
        server.shutdown()
        server.server_close()
    assert problems == []


# --- unconfigured: no [site] address -----------------------------------------------------------


@pytest.fixture(scope="module")
def plain_site(repo, tmp_path_factory) -> Path:
    """The site as a plain build makes it: no [site] address."""
    out = tmp_path_factory.mktemp("plain-site")
    build_site(repo, out, small_spec(repo))
    return out / "site"


@pytest.fixture(scope="module")
def served(plain_site):
    """The unconfigured site on a web server on this machine: its base address."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietHandler, directory=str(plain_site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def decoded(image_bytes: bytes) -> list[str]:
    import zxingcpp
    from PIL import Image

    return [r.text for r in zxingcpp.read_barcodes(Image.open(io.BytesIO(image_bytes)))]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_unconfigured_the_link_copy_link_and_qr_are_the_pages_own(browser, served, scheme):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    tab = context.new_page()
    tab.route("**/favicon.ico", lambda route: route.fulfill(status=204))
    problems: list[str] = []
    tab.on("pageerror", lambda e: problems.append(f"script error: {e}"))
    tab.on("console", lambda m: m.type in ("error", "warning") and problems.append(m.text))
    try:
        tab.goto(served + "fleet.html")
        assert tab.is_disabled("#copy-link") and not tab.is_visible("#fleet-qr")
        pick(tab, {"aoba": 2, "bismarck": 1})
        tab.fill("#roster-name", "Served fleet")
        link = served + "fleet.html#" + compact({"aoba": 2, "bismarck": 1}) + "&name=Served+fleet"
        assert tab.input_value("#fleet-link") == link and not tab.is_visible("#link-local")
        tab.click("#copy-link")
        assert tab.input_value("#fleet-text") == link
        assert decoded(tab.locator("#fleet-qr svg").screenshot()) == [link]  # made in the browser
        tab.goto(served + "print.html#fleet=aoba:2,bismarck:1&name=Served+fleet")
        tab.wait_for_function("document.body.dataset.ready === 'yes'")
        pdf = pdfium.PdfDocument(tab.pdf(prefer_css_page_size=True, print_background=True))
        image = pdf[0].render(scale=150 / 72).to_pil()  # the fleet sheet, page 1, at 150 dpi
        out = io.BytesIO()
        image.save(out, format="PNG")
        assert decoded(out.getvalue()) == [link]
    finally:
        context.close()
    assert problems == []


def test_from_a_file_unconfigured_the_link_is_relative_and_pastes_back(browser, plain_site):
    tab = open_page(browser, plain_site)
    tab.goto(url(plain_site, "fleet.html#fleet=atago:3&limit=60"))
    link = tab.input_value("#fleet-link")
    assert link == "fleet.html#" + compact({"atago": 3}) + "&limit=60"  # names no folder of this computer
    assert tab.is_visible("#link-local") and not tab.is_visible("#fleet-qr")
    tab.click("#clear")
    paste(tab, link)
    tab.wait_for_function("document.getElementById('fleet-cards').textContent === '3'")
    assert tab.input_value("#points-limit") == "60"
    tab.goto(url(plain_site, "print.html#fleet=atago:3"))
    tab.wait_for_function("document.body.dataset.ready === 'yes'")
    assert tab.locator(".fleet svg.qr").count() == 0
    assert "fleet.html#" + compact({"atago": 3}) in tab.inner_text(".qr-link")
    tab.context.close()
    assert tab.guard.problems == []


def test_with_an_address_the_on_screen_qr_is_the_published_link(page, site):
    page.goto(url(site, "fleet.html#fleet=u-47:2&name=Wolves"))
    link = ADDRESS + "fleet.html#" + compact({"u-47": 2}) + "&name=Wolves"
    assert page.input_value("#fleet-link") == link
    assert decoded(page.locator("#fleet-qr svg").screenshot()) == [link]


LONG_ADDRESS = "https://war-at-sea-club.github.io/house-rules-and-fleets/site/"  # a project's Pages, long


@pytest.fixture(scope="module")
def big_site(repo, tmp_path_factory) -> Path:
    """A site of 80 units (one deck) published at a long address: room for a 75-unit fleet."""
    from wastools.site import SiteSpec

    out = tmp_path_factory.mktemp("big-site")
    units = tuple(sorted(repo.units.values(), key=lambda u: u.id))[:80]
    standard = VARIANTS["standard"]
    build_site(repo, out, SiteSpec(units, ((standard, standard.defaults()),), address=LONG_ADDRESS))
    return out / "site"


def test_a_75_unit_fleets_qr_code_reads_from_paper_at_150_dpi(browser, big_site, repo):
    """The fleet sheet of a fleet of 75 distinct units, printed to PDF by Chromium and drawn
    at 150 dpi, as a phone sees a sheet scanned or photographed: its QR code (on page 1) reads
    back, and the link it holds opens the same fleet."""
    ids = sorted(repo.units)[:80][:75]
    counts = {u: 1 + i % 3 for i, u in enumerate(ids)}
    fleet = ",".join(f"{u}:{n}" for u, n in counts.items())
    tab = open_page(browser, big_site)
    try:
        tab.goto(url(big_site, f"print.html#fleet={fleet}&name=Grand+fleet&limit=5000"))
        tab.wait_for_function("document.body.dataset.ready === 'yes'", timeout=60000)
        pdf = pdfium.PdfDocument(tab.pdf(prefer_css_page_size=True, print_background=True))
        out = io.BytesIO()
        pdf[0].render(scale=150 / 72).to_pil().save(out, format="PNG")
        (found,) = decoded(out.getvalue())
        assert found == LONG_ADDRESS + "fleet.html#" + compact(counts) + "&name=Grand+fleet&limit=5000"
        tab.goto(url(big_site, "fleet.html#" + found.split("#", 1)[1]))
        held = tab.evaluate(
            "() => Array.from(document.querySelectorAll('#units tbody tr'))"
            ".map(r => [r.dataset.id, Number(r.querySelector('input.count').value)]).filter(e => e[1] > 0)"
        )
        assert dict(held) == counts and tab.input_value("#roster-name") == "Grand fleet"
        assert tab.input_value("#points-limit") == "5000" and notices(tab) == []
    finally:
        tab.context.close()
    assert tab.guard.problems == []


# --- Tabletop Simulator -----------------------------------------------------------------------


def tabletop_download(page, tmp_path, name: str) -> dict:
    import json

    with page.expect_download() as download:
        page.click("#tabletop")
    assert download.value.suggested_filename == name
    saved = tmp_path / name
    download.value.save_as(saved)
    return json.loads(saved.read_text("utf-8"))


def test_the_tabletop_simulator_download_holds_exactly_the_fleet(page, site, repo, tmp_path):
    """The fleet page's Tabletop Simulator button saves a saved object whose deck holds
    exactly the fleet's cards, each as many times as its count, in the deck chosen on the
    page: each card's face the image the site published for it in that deck (2.5 x 3.5 in at
    144 dpi) at the site's address; without an address, at the page's own folder."""
    from PIL import Image

    chosen, other = list(VARIANTS)[-1], list(VARIANTS)[2]  # neither is the page's first deck
    page.goto(url(site, "fleet.html"))
    assert page.is_disabled("#tabletop")
    counts = {"uss-fletcher-dd-445": 3, "u-47": 1, "aoba": 2}
    pick(page, counts)
    page.fill("#roster-name", "Night Raiders")
    page.select_option("#deck-variant", chosen)
    saved = tabletop_download(page, tmp_path, "night-raiders.json")
    assert saved["SaveName"] == "Night Raiders"
    (deck,) = saved["ObjectStates"]
    assert deck["Name"] == "DeckCustom" and deck["Nickname"] == "Night Raiders"
    cards = deck["ContainedObjects"]
    assert deck["DeckIDs"] == [c["CardID"] for c in cards] and len(cards) == sum(counts.values())
    names = {u: SPOOF if u == "u-47" else repo.units[u].name for u in counts}  # the site's u-47 is renamed
    by_name = {names[u]: n for u, n in counts.items()}
    assert {c["Nickname"]: [d["Nickname"] for d in cards].count(c["Nickname"]) for c in cards} == by_name
    points = sum(repo.units[u].points * n for u, n in counts.items())
    assert deck["Description"].startswith(f"6 cards, {points} points; {VARIANTS[chosen].title} cards")
    faces = {}
    for card in cards:
        ((sheet, custom),) = card["CustomDeck"].items()
        assert deck["CustomDeck"][sheet] == custom and card["CardID"] == int(sheet) * 100
        assert (custom["NumWidth"], custom["NumHeight"]) == (1, 1)
        faces[card["Nickname"]] = custom["FaceURL"]
        assert custom["BackURL"] == f"{ADDRESS}tts/{chosen}/back.jpg"
    for unit_id in counts:
        assert faces[names[unit_id]] == f"{ADDRESS}tts/{chosen}/units/{unit_id}.jpg"
    for rel in [*(f"tts/{chosen}/units/{u}.jpg" for u in counts), f"tts/{chosen}/back.jpg"]:
        with Image.open(site / rel) as image:
            assert image.size == (720, 1008) and image.format == "JPEG", rel
    # another deck: its own images, which are other cards
    page.select_option("#deck-variant", other)
    again = tabletop_download(page, tmp_path, "night-raiders.json")["ObjectStates"][0]
    assert again["Description"].startswith(f"6 cards, {points} points; {VARIANTS[other].title} cards")
    face = next(iter(again["CustomDeck"].values()))["FaceURL"]
    assert face == f"{ADDRESS}tts/{other}/units/uss-fletcher-dd-445.jpg"
    mine = f"tts/{chosen}/units/uss-fletcher-dd-445.jpg"
    assert (site / face.removeprefix(ADDRESS)).read_bytes() != (site / mine).read_bytes()
    # one card is a card
    page.click("#clear")
    pick(page, {"aoba": 1})
    single = tabletop_download(page, tmp_path, "night-raiders.json")["ObjectStates"][0]
    assert single["Name"] == "Card" and single["Nickname"] == repo.units["aoba"].name
    ((_sheet, custom),) = single["CustomDeck"].items()
    assert custom["FaceURL"] == f"{ADDRESS}tts/{other}/units/aoba.jpg"


NO_IMAGES = "This copy of the site has no card images for Tabletop Simulator: run wastools serve"


@pytest.fixture
def tab(browser):
    """A page of its own for a site at any address (``page`` keeps to the published one),
    which fails the test on any script error."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    own = context.new_page()
    own.route("**/favicon.ico", lambda route: route.fulfill(status=204))
    problems: list[str] = []
    own.on("pageerror", lambda e: problems.append(f"script error: {e}"))
    yield own
    context.close()
    assert problems == []


def test_a_copy_without_card_images_says_how_to_get_them_and_saves_nothing(tab, plain_site, served):
    """Unconfigured, opened as a file or hosted by a plain web server, the site has no card
    images: the button says so, and what to run, instead of saving a deck the game cannot show."""
    downloads: list = []
    tab.on("download", lambda d: downloads.append(d))
    for address in (plain_site.resolve().as_uri() + "/fleet.html", served + "fleet.html"):
        tab.goto(address)
        pick(tab, {"aoba": 2})
        tab.click("#tabletop")
        tab.wait_for_function("document.getElementById('copied').textContent.indexOf('no card images') >= 0")
        assert tab.inner_text("#copied").startswith(NO_IMAGES), address
        assert not tab.is_disabled("#tabletop")
    assert downloads == []


@pytest.fixture(scope="module")
def serving(repo, plain_site, tmp_path_factory):
    """The unconfigured site as ``wastools serve`` answers it (in this process): its address."""
    from wastools.core.store import Store
    from wastools.data.yamlio import DEFAULT_LIMITS
    from wastools.site.serve import Site, open_server
    from wastools.site.tabletop import OnDemand

    folder = tmp_path_factory.mktemp("serve-store")
    site = Site(plain_site.parent, plain_site, DEFAULT_LIMITS)
    site.images = OnDemand(repo, small_spec(repo), Store(folder, folder / "store"))
    server = open_server(site, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def test_under_serve_unconfigured_the_button_saves_the_fleet_with_images_drawn_here(tab, serving, repo, tmp_path):
    """Under ``wastools serve`` a site without [site] address still exports the fleet: the
    button has serve draw the chosen deck's images, then saves the deck naming them at the
    served address; each answers as a 720 x 1008 JPEG, and a tabletop-inches fleet shows inch cards."""
    import urllib.request

    from PIL import Image

    tab.goto(serving + "fleet.html")
    counts = {"uss-fletcher-dd-445": 2, "bismarck": 1}
    pick(tab, counts)
    tab.fill("#roster-name", "Served raiders")
    tab.select_option("#deck-variant", "tabletop-inches")
    saved = tabletop_download(tab, tmp_path, "served-raiders.json")
    assert "wastools serve on this computer" in tab.inner_text("#copied")
    (deck,) = saved["ObjectStates"]
    assert len(deck["ContainedObjects"]) == 3
    faces = sorted({c["FaceURL"] for c in deck["CustomDeck"].values()})
    assert faces == [f"{serving}tts/tabletop-inches/units/{u}.jpg" for u in sorted(counts)]
    for address in [*faces, f"{serving}tts/tabletop-inches/back.jpg"]:
        with urllib.request.urlopen(address) as answer:
            with Image.open(io.BytesIO(answer.read())) as image:
                assert image.format == "JPEG" and image.size == (720, 1008), address

    def image(deck: str) -> bytes:
        with urllib.request.urlopen(f"{serving}tts/{deck}/units/bismarck.jpg") as answer:
            return answer.read()

    assert image("tabletop-inches") != image("hex")  # each deck's own card (tests/e2e/test_tts.py: the same
    # bytes a published build makes, which are the deck's own faces)
