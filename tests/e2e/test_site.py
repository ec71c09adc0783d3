"""The static site without a browser: valid pages, escaping, the card CSS, derivations, JSON."""

from __future__ import annotations

import dataclasses
import json
import math
import re
from pathlib import Path

import pytest

from tests.site_check import SMALL, all_problems, nu_problems, parse, small_spec, tag
from wastools.core.model import Figure, History
from wastools.pipeline import Options, Selection
from wastools.site import SiteSpec, build_site, render_site
from wastools.site.assets import card_css
from wastools.site.data import link, tidy
from wastools.site.tabletop import unit_image
from wastools.variants import VARIANTS

HOSTILE = '<script>alert("pwned")</script> & "Q" <blink>'


@pytest.fixture(scope="module")
def site(repo, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site-build")
    build_site(repo, out, small_spec(repo))
    return out / "site"


def test_every_page_is_valid_html_with_working_links(site):
    pages = sorted(site.rglob("*.html"))
    # index, fleet, print view, units, variants, scenarios
    assert len(pages) == 1 + 1 + 1 + len(SMALL) + len(VARIANTS) + 3
    assert all_problems(site) == []
    assert nu_problems(site) == []


def test_a_site_without_an_address_has_no_tabletop_images_and_says_where_they_come_from(site):
    """Tabletop Simulator loads card images from the web: a site with no published address
    makes none (serve draws them when asked), and its fleet page says so and what to run from
    a copy without them."""
    assert not (site / "tts").exists()
    page = " ".join((site / "fleet.html").read_text().split())
    assert 'id="tabletop" disabled data-site=""' in page
    assert "come from <code>wastools serve</code>" in page and "wastools build --roster FILE --tts" in page


def test_the_checker_catches_broken_pages(tmp_path):
    (tmp_path / "a.html").write_text(
        '<!DOCTYPE html>\n<html lang="en"><head><title>t</title></head><body><h1>a</h1>'
        '<p id="x">1</p><p id="x"><a href="missing.html">m</a><a href="javascript:void(0)">j</a>'
        '<input id="q"></p></body></html>'
    )
    (tmp_path / "b.html").write_text(
        '<!DOCTYPE html>\n<html lang="en"><head><title>t</title></head><body><h1>a</h1></span></body></html>'
    )
    (tmp_path / "c.html").write_text(  # the attack tables' old fault: three columns, one declared
        '<!DOCTYPE html>\n<html lang="en"><head><title>t</title></head><body><h1>a</h1><table><colgroup>'
        "<col></colgroup><tr><td>1</td><td>2</td><td>3</td></tr></table></body></html>"
    )
    found = "\n".join(all_problems(tmp_path))
    assert "c.html: a table row is 3 columns wide, its columns declare 1" in found
    nu = "\n".join(nu_problems(tmp_path))
    assert "c.html" in nu and "exceeded the column count" in nu and "b.html" in nu
    for expected in (
        "id 'x' used twice",
        "'missing.html' leads to no file",
        "javascript:void(0)",
        "without a label",
        "b.html: not valid HTML",
    ):
        assert expected in found


def test_index_lists_every_unit_with_its_facts(repo, site):
    tree = parse((site / "index.html").read_text())
    rows = [r for r in tree.iter(tag("tr")) if r.get("data-nation")]
    assert sorted("".join(r.find(tag("th")).find(tag("a")).itertext()) for r in rows) == sorted(
        repo.units[u].name for u in SMALL
    )
    cossack = next(r for r in rows if "".join(r.find(tag("th")).find(tag("a")).itertext()) == "HMS Cossack")
    cells = [c.text for c in cossack.findall(tag("td"))]
    unit = repo.units["hms-cossack"]
    assert cells == [
        repo.nations[unit.nation].name,
        repo.nations[unit.nation].side.capitalize(),
        unit.type,
        repo.sets[unit.set].name,
        str(unit.number),
        str(unit.year),
        str(unit.points),
    ]
    data = json.loads((site / "units.json").read_text())
    assert {u["id"] for u in data["units"]} == set(SMALL)
    assert next(u for u in data["units"] if u["id"] == "u-47")["points"] == repo.units["u-47"].points


def test_unit_page_shows_every_variant_card_and_each_derivation(repo, site):
    text = (site / "units" / "uss-fletcher-dd-445.html").read_text()
    tree = parse(text)
    cards = [s for s in tree.iter(tag("section")) if "card" in (s.get("class") or "").split()]
    assert len(cards) == len(VARIANTS)  # the base card plus one per other variant
    unit = repo.units["uss-fletcher-dd-445"]
    for variant in (v for v in VARIANTS.values() if v.name != "standard"):  # the base card converts nothing
        adapted = variant.adapt(unit)
        assert tidy(adapted.movement.source, variant).replace("'", "&#39;") in text, variant.name
        for value in adapted.rules.values():
            assert tidy(value.source, variant).replace("'", "&#39;").replace('"', "&#34;") in text
    assert "36.5 kn is 67.6 km/h: a hex for each 10 km/h, rounded half up" in text  # the hex derivation
    # each variant's section names its rule document once, in its heading, and no derivation repeats it
    for variant in (v for v in VARIANTS.values() if v.name != "standard"):
        assert text.count(variant.seed.replace("'", "&#39;")) == 1, variant.name
    sources = {a.get("href") for a in tree.iter(tag("a"))}
    assert unit.history.top_speed.source in sources and unit.history.length.source in sources
    assert "../scenarios/savo-island-1942.html" not in sources
    # a site built without the PDFs links none (tests/e2e/test_site_hosting.py: one built with them)
    assert not [href for href in sources if href and href.endswith(".pdf")]
    assert "The PDFs are not part of this copy of the site" in text


def test_unit_pages_read_as_a_person_writes(repo, site):
    """Row labels are words, not keys; every attack's distances say the variant's rule; no
    value is a dump of keys; sources link under their site's name."""
    for unit_id in SMALL:
        tree = parse((site / "units" / f"{unit_id}.html").read_text())
        for section in (s for s in tree.iter(tag("section")) if s.get("class") == "variant"):
            for row in section.iter(tag("tr")):
                cells = ["".join(c.itertext()) for c in row]
                if row.find(tag("th")) is None or row.find(tag("td")) is None:
                    continue
                what, value, source = cells
                assert "_" not in what + value and "=" not in value, (unit_id, section.get("id"), cells)
                assert "((" not in source and "))" not in source, (unit_id, cells)  # no brackets in brackets
                assert not re.search(r"\b[a-z]+_[a-z_]+\b", source), (unit_id, cells)  # no parameter keys
                own_reach = section.get("id") == "tabletop-inches" or (section.get("id"), what) == (
                    "off-grid",
                    "Antiair",
                )
                if value.startswith("Range 0:") and not own_reach:
                    # the variant's range rule in words with its numbers, not a formula or a document number
                    assert re.match(r"(Each range is|Range 0 (is|reaches) )", source), (unit_id, cells)
                    assert not re.search(r"\bseed\b|\b\d?r ?[-+] ?\d", source), (unit_id, cells)
            # the settings of the build are on the variant's page, not dumped under each card
            assert not [p for p in section.iter(tag("p")) if "".join(p.itertext()).startswith("Settings:")]
        for anchor in (a for a in tree.iter(tag("a")) if (a.get("href") or "").startswith("http")):
            assert anchor.text == anchor.get("href").split("/")[2].removeprefix("www."), anchor.get("href")
    standard = parse((site / "units" / "bismarck.html").read_text())
    assert "in its own sector" in "".join(standard.itertext())  # range 0 of the sector games, not "0 sectors"


def test_scenario_page_has_forces_legality_and_a_map_plan(repo, site):
    text = (site / "scenarios" / "savo-island-1942.html").read_text()
    tree = parse(text)
    scenario = repo.scenarios["savo-island-1942"]
    for side in scenario.sides:
        assert f"within the limit of {side.fleet.effective_limit} points" in text and f"{side.fleet.points}" in text
    svg = next(tree.iter("{http://www.w3.org/2000/svg}svg"))
    polygons = list(svg.iter("{http://www.w3.org/2000/svg}polygon"))
    width, height = (scenario.data["map"][k] for k in ("width", "height"))
    edges = [p for p in svg.iter("{http://www.w3.org/2000/svg}path") if "edge" in p.get("class").split()]
    islands = [p for p in edges if "island" in p.get("class").split()]
    grid = [p for p in polygons if p.get("class") == "grid"]
    assert len(islands) == sum(1 for t in scenario.data["terrain"] if t["kind"] == "island")
    assert len(grid) == width * height  # one hexagon per hex of the board
    # hex land and zones are outlined along hex sides (each as long as a hex's radius), not
    # by lines from one hex centre to the next
    side = scenario.parameters["hex_cm"] * 72 / 2.54 / math.sqrt(3)
    for path in edges:
        for x1, y1, x2, y2 in re.findall(r"M([\d.]+),([\d.]+)L([\d.]+),([\d.]+)", path.get("d")):
            assert math.dist((float(x1), float(y1)), (float(x2), float(y2))) == pytest.approx(side, abs=0.2)
    links = {a.get("href") for a in tree.iter(tag("a"))}
    assert "../units/atago.html" in links and not [href for href in links if href and href.endswith(".pdf")]
    # Denmark Strait's ships are not on this small site: named, not linked
    denmark = (site / "scenarios" / "denmark-strait-1941.html").read_text()
    assert "Prince of Wales" in denmark and "../units/hms-prince-of-wales.html" not in denmark


def test_card_css_loads_only_fonts_copied_into_the_site(site):
    css = (site / "assets" / "card.css").read_text()
    urls = re.findall(r"url\(\"?([^\")]+)\"?\)", css)
    assert urls and "wastools-font:" not in css
    for url in urls:
        assert (site / "assets" / url).is_file(), url
    text, fonts = card_css()
    assert set(fonts) == {u.removeprefix("fonts/") for u in urls}


def test_hostile_names_and_sources_stay_text(repo, tmp_path):
    unit = repo.units["hms-cossack"]
    history = History(
        HOSTILE, Figure(36, "kn", "javascript:alert(1)"), Figure(114.9, "m", '"><script>alert(2)</script>')
    )
    evil = dataclasses.replace(unit, name=HOSTILE, history=history)
    units = dict(repo.units, **{"hms-cossack": evil})
    hostile_repo = dataclasses.replace(repo, units=units)
    files, _report = render_site(hostile_repo, small_spec(hostile_repo, ("hms-cossack", "u-47")))
    for name in ("index.html", "fleet.html", "units/hms-cossack.html"):
        text = files[name].decode()
        tree = parse(text)
        scripts = [s for s in tree.iter(tag("script"))]
        assert all(s.text is None and s.get("src", "").startswith(("assets/", "../assets/")) for s in scripts), name
        assert "alert" not in "".join(a.get("href") or "" for a in tree.iter(tag("a")))
        assert (
            "&lt;script&gt;alert(&#34;pwned&#34;)&lt;/script&gt;" in text
            or "&lt;script&gt;alert(&#34;pwned&#34;)" in text
        )
        assert not list(tree.iter(tag("blink")))  # "<blink>" in the name stayed text
    page = parse(files["units/hms-cossack.html"].decode())
    assert HOSTILE in "".join(page.find(f".//{tag('h1')}").itertext())
    assert json.loads(files["units.json"])["units"][0]["name"] in (HOSTILE, repo.units["u-47"].name)


def test_only_web_addresses_become_links():
    assert link("https://example.org/a") == "https://example.org/a"
    for text in (
        "javascript:alert(1)",
        "data:text/html,x",
        "file:///etc/passwd",
        "Conway's 1922-1946, p. 12",
        "http://",
    ):
        assert link(text) is None


def test_a_second_build_with_nothing_changed_writes_nothing(repo, tmp_path):
    spec = small_spec(repo, ("hms-cossack",))
    first = build_site(repo, tmp_path, spec, data_key="data-1")
    index = tmp_path / "site" / "index.html"
    written = index.stat().st_mtime_ns
    assert first.written and not build_site(repo, tmp_path, spec, data_key="data-1").written
    assert index.stat().st_mtime_ns == written
    index.write_text("stale marker")  # a file changed on disk: the site is made again
    assert build_site(repo, tmp_path, spec, data_key="data-1").written
    assert index.read_text().startswith("<!DOCTYPE html>")
    assert build_site(repo, tmp_path, spec, data_key="data-2").written  # new data: rebuilt


def test_build_site_only_from_the_command_line(cli, tmp_path):
    result = cli(
        "build", "--site-only", "--nation", "uk", "--type", "destroyer", "--variant", "hex", "--out", str(tmp_path)
    )
    assert result.exit_code == 0, result.output
    assert "open" in result.output and (tmp_path / "site" / "index.html").is_file()
    assert not list(tmp_path.rglob("*.pdf"))  # only the site
    pages = sorted(p.stem for p in (tmp_path / "site" / "variants").glob("*.html"))
    assert pages == ["hex"]
    assert all_problems(tmp_path / "site") == []  # no link to a variant or unit left out of the site


def test_site_build_adds_little_work(repo, tmp_path):
    """Every unit on every variant with no card made yet (``--site-only`` before any build):
    each card is made once, as HTML (no PDF is laid out for the site), so the site costs far
    less than the PDFs (about 18 s on a loaded 2-core machine). Held to the work, not seconds."""
    from wastools.core.store import Store

    spec = SiteSpec(
        tuple(Selection().chosen_units(repo)), tuple((v, Options().variant_params(v)) for v in VARIANTS.values())
    )
    store = Store(tmp_path, tmp_path / "store")
    report = build_site(repo, tmp_path / "out", spec, store=store)
    assert report.pages == 3 + len(repo.units) + len(VARIANTS) + len(repo.scenarios)  # index, fleet, print
    kinds = {kind.name: len(list(kind.iterdir())) for kind in (tmp_path / "store").iterdir()}
    assert kinds["card-html"] == len(repo.units) * len(VARIANTS)  # each card made once
    assert "face" not in kinds and "sheet" not in kinds  # and no PDF laid out


def test_a_killed_site_build_leaves_nothing_behind(repo, tmp_path):
    (tmp_path / "site" / "units").mkdir(parents=True)
    dead = tmp_path / "site" / "units" / ".hms-cossack.html.k1ll3d.tmp"  # as a killed build leaves it
    dead.write_text("half")
    build_site(repo, tmp_path, small_spec(repo, ("hms-cossack",)))
    assert not dead.exists() and sorted(p.name for p in tmp_path.iterdir()) == [
        ".wastools-lock",
        "manifest.json",
        "site",
    ]
    assert not [p for p in (tmp_path / "site").rglob(".*")]


def test_card_faces_are_read_from_the_store_and_made_when_missing(repo, tmp_path):
    from wastools.core.store import Store
    from wastools.site.cards import card_key, site_cards
    from wastools.site.data import card_jobs

    jobs = card_jobs(small_spec(repo))
    store = Store(tmp_path, tmp_path / "store")
    alone = site_cards(repo, jobs, store)
    assert site_cards(repo, jobs, None) == alone  # kept or not, the same faces
    bagley = card_key(repo, repo.units["uss-bagley-dd-386"], "hex", VARIANTS["hex"].defaults())
    store.put("card-html", bagley, b"<section>kept</section>")
    again = site_cards(repo, jobs, store)
    assert again["uss-bagley-dd-386", "hex"] == "<section>kept</section>"  # read, not made again
    changed = dataclasses.replace(repo.units["uss-bagley-dd-386"], points=99)
    edited = dataclasses.replace(repo, units=dict(repo.units, **{"uss-bagley-dd-386": changed}))
    fresh = site_cards(edited, jobs, store)["uss-bagley-dd-386", "hex"]
    assert fresh != "<section>kept</section>" and "99" in fresh  # a changed unit gets a new card


def stamps(site: Path) -> dict[str, tuple[int, int]]:
    return {
        p.relative_to(site).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns) for p in site.rglob("*") if p.is_file()
    }


def test_only_pages_whose_content_changed_are_written(repo, tmp_path):
    spec = dataclasses.replace(small_spec(repo), address="https://example.org/fleet/site/")  # with its images
    build_site(repo, tmp_path, spec, data_key="data-1")
    site = tmp_path / "site"
    before = {rel: (site / rel).read_bytes() for rel in stamps(site)}
    first = stamps(site)
    changed = dataclasses.replace(repo.units["uss-bagley-dd-386"], points=99)
    edited = dataclasses.replace(repo, units=dict(repo.units, **{"uss-bagley-dd-386": changed}))
    units = tuple(changed if u.id == changed.id else u for u in spec.units if u.id != "u-47")
    report = build_site(edited, tmp_path, SiteSpec(units, spec.variants, spec.address), data_key="data-2")
    after = stamps(site)
    differs = {rel for rel in after if rel in before and (site / rel).read_bytes() != before[rel]}
    assert "units/uss-bagley-dd-386.html" in differs and "index.html" in differs
    # a unit no longer on the site loses its page, its print view's cards and its Tabletop Simulator image
    assert not (site / "units/u-47.html").exists() and not (site / "cards/u-47.js").exists()
    decks = [v.name for v, _p in spec.variants]
    assert not any((site / unit_image(deck, "u-47")).exists() for deck in decks)
    assert {"cards/uss-bagley-dd-386.js", *(unit_image(deck, "uss-bagley-dd-386") for deck in decks)} <= differs
    assert not {unit_image(deck, "aoba") for deck in decks} & differs
    assert report.changed == len(differs) + 2 + len(decks) < len(after) / 2  # the removed: page, cards, images
    kept = [rel for rel in after if rel not in differs]
    assert "units/bismarck.html" in kept and "assets/site.css" in kept
    assert {rel: after[rel] for rel in kept} == {rel: first[rel] for rel in kept}  # not written again
    assert all_problems(site) == []


def test_the_site_shows_the_card_faces_the_build_made(repo, tmp_path):
    from wastools.core.store import Store
    from wastools.site.cards import card_key

    store = Store(tmp_path, tmp_path / "store")
    spec = small_spec(repo, ("hms-cossack",))
    for variant, params in spec.variants:
        key = card_key(repo, repo.units["hms-cossack"], variant.name, params, 0.125)
        store.put("card-html", key, f'<section class="card">made by the build for {variant.name}</section>'.encode())
    files, _report = render_site(repo, spec, store, 0.125)
    page = files["units/hms-cossack.html"].decode()
    assert all(f"made by the build for {v.name}<" in page for v in VARIANTS.values())


@pytest.mark.slow
def test_a_full_build_hands_its_cards_to_the_site(cli, repo, tmp_path):
    """`wastools build` sizes every card once: the site shows the faces the decks were laid
    out from, as the store keeps them."""
    from wastools.core.store import Store
    from wastools.pipeline.selection import Options, card_bleed
    from wastools.site.cards import card_key

    out = tmp_path / "out"
    result = cli("build", "--paper", "letter", "--out", str(out))
    assert result.exit_code == 0, result.output
    from tests.conftest import DATA

    store = Store.for_repository(DATA)
    options = Options(papers=("letter",))
    params = options.variant_params(VARIANTS["hex"])
    for unit_id in ("hms-cossack", "bismarck"):
        key = card_key(repo, repo.units[unit_id], "hex", params, card_bleed(options))
        face = store.get("card-html", key)
        assert face is not None and face.decode() in (out / "site" / "units" / f"{unit_id}.html").read_text()


def test_a_unit_change_renders_only_that_units_page_and_the_site_is_what_a_fresh_render_gives(
    repo, tmp_path, monkeypatch
):
    """Unit pages are kept in the store under a key of what they show: after a change to one
    unit only its page is rendered again, and every file equals a render that keeps nothing."""
    from wastools.core.store import Store
    from wastools.site import data as site_data

    spec = small_spec(repo)
    pages = Store(tmp_path, tmp_path / "store")
    rendered: list[str] = []
    unit_page = site_data.unit_page

    def counting(repo, unit, *args):
        rendered.append(unit.id)
        return unit_page(repo, unit, *args)

    monkeypatch.setattr(site_data, "unit_page", counting)
    first, _ = render_site(repo, spec, pages)
    assert len(rendered) == len(spec.units)
    rendered.clear()
    changed = dataclasses.replace(repo.units["uss-bagley-dd-386"], points=99)
    edited = dataclasses.replace(repo, units=dict(repo.units, **{"uss-bagley-dd-386": changed}))
    units = tuple(changed if u.id == changed.id else u for u in spec.units)
    again, _ = render_site(edited, SiteSpec(units, spec.variants), pages)
    assert rendered == ["uss-bagley-dd-386"]
    fresh, _ = render_site(edited, SiteSpec(units, spec.variants))
    assert again == fresh and again["units/uss-bagley-dd-386.html"] != first["units/uss-bagley-dd-386.html"]


def test_pages_link_exactly_the_pdfs_the_site_carries(repo):
    """A page links a PDF under the site's own ``pdf/`` when the site carries it, and only then:
    a build of Letter alone offers no A4 file."""
    spec = small_spec(repo)
    carried = frozenset({"hex/cards.pdf", "hex/rulers.pdf", "scenarios/savo-island-1942.pdf"})
    files, _report = render_site(repo, dataclasses.replace(spec, pdfs=carried))
    unit = parse(files["units/atago.html"].decode())
    unit_pdfs = {a.get("href") for a in unit.iter(tag("a")) if (a.get("href") or "").endswith(".pdf")}
    assert unit_pdfs == {"../pdf/hex/cards.pdf", "../pdf/scenarios/savo-island-1942.pdf"}
    hex_page = parse(files["variants/hex.html"].decode())
    hex_pdfs = {a.get("href") for a in hex_page.iter(tag("a")) if (a.get("href") or "").endswith(".pdf")}
    assert hex_pdfs == {"../pdf/hex/cards.pdf", "../pdf/hex/rulers.pdf"}
    assert "not part of this copy" in files["variants/off-grid.html"].decode()
    pack = parse(files["scenarios/savo-island-1942.html"].decode())
    assert {a.get("href") for a in pack.iter(tag("a")) if (a.get("href") or "").endswith(".pdf")} == {
        "../pdf/scenarios/savo-island-1942.pdf"
    }
