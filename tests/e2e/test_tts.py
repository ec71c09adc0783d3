"""The Tabletop Simulator export of a roster, and --roster with the build's options."""

from __future__ import annotations

import io
import json
import math
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pdfplumber
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image
from pypdf import PdfReader

from wastools.site.tts import CARD_PX, MAX_COLUMNS, MAX_ROWS, MAX_SHEET_PX, PER_SHEET, plan_sheets
from wastools.variants import VARIANTS


@given(st.integers(1, 400))
def test_sheets_hold_every_card_once_on_grids_tabletop_simulator_takes(distinct):
    plans = plan_sheets(distinct)
    placed = [i for p in plans for i in p.cards]
    assert placed == list(range(distinct))
    for p in plans:
        assert 2 <= p.columns <= MAX_COLUMNS and 2 <= p.rows <= MAX_ROWS
        assert len(p.cards) <= min(PER_SHEET, p.columns * p.rows)
        assert len(p.cards) > (p.rows - 1) * p.columns or p.rows == 2  # no empty row but the least grid's
        assert p.columns * CARD_PX[0] <= MAX_SHEET_PX and p.rows * CARD_PX[1] <= MAX_SHEET_PX  # as the game asks
    assert len(plans) == math.ceil(distinct / PER_SHEET)


# The fields of a Tabletop Simulator saved object this export writes, with their types as the
# game's save format declares them: a strict check refuses a missing field, a field of another
# type (a float for an int, a string for a number) and any field not declared here.
TRANSFORM = {k: float for k in ("posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ")}
SHEET = {
    "FaceURL": str,
    "BackURL": str,
    "NumWidth": int,
    "NumHeight": int,
    "BackIsHidden": bool,
    "UniqueBack": bool,
    "Type": int,
}
CARD = {"Name": str, "Nickname": str, "Description": str, "CardID": int, "Transform": TRANSFORM, "CustomDeck": "sheets"}
DECK = {
    "Name": str,
    "Nickname": str,
    "Description": str,
    "Transform": TRANSFORM,
    "DeckIDs": "ids",
    "CustomDeck": "sheets",
    "ContainedObjects": "cards",
}


def type_problems(value, shape, where: str = "") -> list[str]:
    """Where ``value`` is not of ``shape`` (a type, a field table, or one of the named lists)."""
    if shape == "sheets":
        if not isinstance(value, dict) or not value:
            return [f"{where}: not a table of sheets"]
        return [p for k, v in value.items() for p in (_key(k, where) + type_problems(v, SHEET, f"{where}.{k}"))]
    if shape == "ids":
        return (
            [] if isinstance(value, list) and all(type(i) is int for i in value) else [f"{where}: not a list of ints"]
        )
    if shape == "cards":
        if not isinstance(value, list):
            return [f"{where}: not a list"]
        return [p for n, card in enumerate(value) for p in type_problems(card, CARD, f"{where}[{n}]")]
    if isinstance(shape, dict):
        if not isinstance(value, dict):
            return [f"{where}: not an object"]
        out = [f"{where}.{k}: not declared" for k in value if k not in shape]
        out += [f"{where}.{k}: missing" for k in shape if k not in value]
        return out + [p for k, v in value.items() if k in shape for p in type_problems(v, shape[k], f"{where}.{k}")]
    if shape is float:
        return [] if type(value) in (int, float) else [f"{where}: {value!r} is not a number"]
    return [] if type(value) is shape else [f"{where}: {value!r} is not {shape.__name__}"]


def _key(key: str, where: str) -> list[str]:
    return [] if key.isdigit() else [f"{where}: sheet id {key!r} is not a number"]


def saved_object_problems(saved) -> list[str]:
    if not isinstance(saved, dict) or set(saved) != {"SaveName", "ObjectStates"}:
        return ["not a saved object of SaveName and ObjectStates"]
    out = type_problems(saved["SaveName"], str, "SaveName")
    for n, state in enumerate(saved["ObjectStates"]):
        out += type_problems(state, DECK if state.get("Name") == "DeckCustom" else CARD, f"ObjectStates[{n}]")
    return out


def test_the_type_check_refuses_what_the_game_would_not_read():
    card = {
        "Name": "Card",
        "Nickname": "a",
        "Description": "b",
        "CardID": 100,
        "Transform": dict.fromkeys(TRANSFORM, 0),
    }
    sheet = {**dict.fromkeys(("FaceURL", "BackURL"), "x"), "NumWidth": 2, "NumHeight": 2.0, "Type": 0}
    bad = {"SaveName": "s", "ObjectStates": [dict(card, CustomDeck={"1": dict(sheet, UniqueBack="no")}, Extra=1)]}
    problems = "\n".join(saved_object_problems(bad))
    for expected in ("NumHeight: 2.0 is not int", "BackIsHidden: missing", "UniqueBack: 'no' is not bool", "Extra"):
        assert expected in problems


def roster_file(tmp_path: Path, entries: dict[str, int], name: str = "Wolf pack", variant: str = "hex") -> Path:
    path = tmp_path / "wolf-pack.yaml"
    path.write_text(
        f'name: "{name}"\nvariant: {variant}\npoints_limit: 100\nunits:\n'
        + "".join(f"  - unit: {u}\n    count: {n}\n" for u, n in entries.items())
    )
    return path


def local(address: str) -> Path:
    parts = urlsplit(address)
    assert parts.scheme == "file"
    return Path(unquote(parts.path))


@pytest.mark.slow
def test_the_saved_object_deals_exactly_the_rosters_cards(cli, repo, tmp_path):
    entries = {"u-47": 3, "bismarck": 1, "hms-cossack": 2, "atago": 1}
    path = roster_file(tmp_path, entries)
    result = cli("build", "--roster", str(path), "--tts", "--paper", "letter", "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "rosters" / "wolf-pack-tts"
    saved = json.loads((folder / "wolf-pack.json").read_text())
    assert saved_object_problems(saved) == []
    (deck,) = saved["ObjectStates"]
    assert deck["Name"] == "DeckCustom" and deck["Nickname"] == "Wolf pack"
    names = {c["CardID"]: c["Nickname"] for c in deck["ContainedObjects"]}
    assert Counter(names[i] for i in deck["DeckIDs"]) == Counter({repo.units[u].name: n for u, n in entries.items()})
    assert [c["CardID"] for c in deck["ContainedObjects"]] == deck["DeckIDs"]
    (sheet_id, sheet) = next(iter(deck["CustomDeck"].items()))
    assert (sheet["NumWidth"], sheet["NumHeight"]) == (4, 2)
    face = Image.open(local(sheet["FaceURL"]))
    back = Image.open(local(sheet["BackURL"]))
    assert face.size == (4 * CARD_PX[0], 2 * CARD_PX[1]) and back.size == CARD_PX
    assert CARD_PX[0] / CARD_PX[1] == pytest.approx(2.5 / 3.5)
    for card_id in set(deck["DeckIDs"]):
        deck_no, slot = divmod(card_id, 100)
        assert str(deck_no) == sheet_id and slot < len(entries)
    # a used slot holds a card (its dark nation band), an unused one is white
    band = face.convert("L").getpixel((CARD_PX[0] // 2, 20))
    empty = face.convert("L").getpixel((3 * CARD_PX[0] + CARD_PX[0] // 2, CARD_PX[1] + 300))
    assert band < 100 and empty == 255
    assert "wolf-pack-tts/wolf-pack.json" in result.output


@pytest.mark.slow
def test_one_card_is_a_card_not_a_deck(cli, tmp_path):
    path = roster_file(tmp_path, {"u-47": 1})
    result = cli("build", "--roster", str(path), "--tts", "--paper", "letter", "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    saved = json.loads((tmp_path / "out" / "rosters" / "wolf-pack-tts" / "wolf-pack.json").read_text())
    assert saved_object_problems(saved) == []
    (card,) = saved["ObjectStates"]
    assert card["Name"] == "Card" and card["CardID"] == 100 and "1" in card["CustomDeck"]


@pytest.mark.slow
def test_a_tabletop_inches_fleet_of_69_units_exports_inch_cards_at_print_resolution(cli, repo, tmp_path):
    """69 distinct units of a tabletop-inches roster: five sheets of at most 5 x 3 cards, none
    over 4096 pixels, each card 750 x 1050 (2.5 x 3.5 in at 300 dpi); the first card of the
    first sheet is, pixel for pixel, the first card of the roster's own PDF deck, whose text
    is the inch card's."""
    import pypdfium2 as pdfium
    from PIL import ImageChops

    from wastools.render import sheets

    entries = {u: 1 for u in sorted(repo.units)[:69]}
    path = roster_file(tmp_path, entries, variant="tabletop-inches")
    out = tmp_path / "out"
    result = cli("build", "--roster", str(path), "--tts", "--paper", "letter", "--out", str(out))
    assert result.exit_code == 0, result.output
    saved = json.loads((out / "rosters" / "wolf-pack-tts" / "wolf-pack.json").read_text())
    assert saved_object_problems(saved) == []
    (state,) = saved["ObjectStates"]
    assert len(state["ContainedObjects"]) == 69 and len(state["CustomDeck"]) == math.ceil(69 / 14) == 5
    assert CARD_PX == (750, 1050)
    for sheet in state["CustomDeck"].values():
        with Image.open(local(sheet["FaceURL"])) as face:
            assert face.size == (sheet["NumWidth"] * 750, sheet["NumHeight"] * 1050)
            assert face.size[0] <= MAX_SHEET_PX and face.size[1] <= MAX_SHEET_PX
    first = repo.units[sorted(entries)[0]].name
    with pdfplumber.open(out / "rosters" / "wolf-pack.pdf") as doc:
        page_no = next(n for n, p in enumerate(doc.pages) if "Armor" in (p.extract_text() or ""))
        text = doc.pages[page_no].extract_text()
    assert first in text and "inches" in text and "Tabletop in inches" in text and "hex" not in text
    layout = sheets.load_layout("letter")
    slot, card_h, height = layout["slots"][0], layout["card"]["height"], layout["page"]["height"]
    document = pdfium.PdfDocument(out / "rosters" / "wolf-pack.pdf")
    try:
        page = document[page_no].render(scale=300 / 72).to_pil().convert("RGB")
    finally:
        document.close()
    left, top = round(slot["x"] * 300 / 72), round((height - slot["y"] - card_h) * 300 / 72)
    printed = page.crop((left, top, left + 750, top + 1050))
    with Image.open(local(state["CustomDeck"]["1"]["FaceURL"])) as face:
        dealt = face.convert("RGB").crop((0, 0, 750, 1050))
    assert ImageChops.difference(printed, dealt).getbbox() is None


@pytest.mark.parametrize(
    "options,wanted",
    [
        (["--nation", "uk"], "--nation (the roster names its units)"),
        (["--unit", "u-47", "--set", "flank-speed"], "--set (the roster names its units); --unit"),
        (["--name", "mine"], "--name (the deck is named after the roster file)"),
        (["--site-only"], "--site-only (a roster builds a deck, not the site)"),
        (["--colour-maps"], "--colour-maps (a roster prints cards, no maps)"),
        (["--variant", "hex", "--variant", "off-grid"], "--variant given 2 times"),
    ],
)
def test_options_that_cannot_apply_to_a_roster_are_refused(cli, tmp_path, options, wanted):
    path = roster_file(tmp_path, {"u-47": 1})
    result = cli("build", "--roster", str(path), *options, "--out", str(tmp_path / "out"))
    assert result.exit_code == 2 and "--roster cannot take" in result.output and wanted in result.output
    assert not (tmp_path / "out").exists()


def test_a_parameter_of_another_variant_is_refused(cli, tmp_path):
    path = roster_file(tmp_path, {"u-47": 1}, variant="hex")
    result = cli("build", "--roster", str(path), "--param", "off-grid.leg_in=2.5", "--out", str(tmp_path / "out"))
    assert result.exit_code == 2, result.output
    assert "--roster cannot take --param off-grid.…: the roster prints hex cards" in result.output
    assert not (tmp_path / "out" / "rosters").exists()


def test_tts_needs_a_roster(cli, tmp_path):
    result = cli("build", "--tts", "--out", str(tmp_path / "out"))
    assert result.exit_code == 2 and "--tts needs --roster FILE" in result.output


@pytest.mark.slow
def test_a_roster_takes_the_variant_backs_and_paper(cli, repo, tmp_path):
    path = roster_file(tmp_path, {"u-47": 2, "hms-cossack": 9})
    args = ["--variant", "off-grid", "--backs", "--paper", "a4", "--scale-x", "1.01"]
    result = cli("build", "--roster", str(path), *args, "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "out" / "rosters" / "wolf-pack-off-grid-a4-duplex.pdf"
    assert sorted(p.name for p in pdf.parent.iterdir()) == [pdf.name]
    reader = PdfReader(pdf)
    assert len(reader.pages) == 1 + 2 * math.ceil(11 / 9)  # the fleet page, then each sheet and its backs
    assert float(reader.pages[1].mediabox.width) == pytest.approx(595.28, abs=0.01)
    with pdfplumber.open(pdf) as doc:
        first = doc.pages[0].extract_text()
        cards = doc.pages[1].extract_text()
        backs = doc.pages[2].extract_text()
    assert "Off the grid (compass legs) (these" in first  # the printed variant is the chosen one
    assert "leg" in cards and "hex" not in cards and "Off the grid" in backs
    assert "under off-grid" in result.output


def sheet_sizes(folder: Path) -> dict[str, tuple[int, int]]:
    out = {}
    for path in sorted(folder.glob("*.png")):
        with Image.open(path) as image:
            out[path.name] = image.size
    return out


@pytest.mark.slow
def test_a_roster_exports_in_each_deck_with_that_decks_faces_on_sheets_the_game_takes(cli, repo, tmp_path):
    """40 distinct units (more than two sheets of 5 x 3 hold) exported in two decks: each deck's
    saved object says its deck, its faces are that deck's cards (the two decks' sheets differ)
    and no sheet is wider or taller than 4096 pixels."""
    own, other = list(VARIANTS)[1], list(VARIANTS)[-1]
    entries = {u: 1 for u in sorted(repo.units)[:40]}
    path = roster_file(tmp_path, entries, variant=own)
    out = tmp_path / "out"
    for variant in ([], ["--variant", other]):
        result = cli("build", "--roster", str(path), "--tts", "--paper", "letter", *variant, "--out", str(out))
        assert result.exit_code == 0, result.output
    folders = {own: out / "rosters" / "wolf-pack-tts", other: out / "rosters" / f"wolf-pack-{other}-tts"}
    faces = {}
    for deck, folder in folders.items():
        (state,) = json.loads((folder / "wolf-pack.json").read_text())["ObjectStates"]
        assert f"{VARIANTS[deck].title} cards" in state["Description"]
        assert {c["Description"].split(", ", 1)[1] for c in state["ContainedObjects"]} == {
            f"{VARIANTS[deck].title} card"
        }
        sheets = math.ceil(40 / PER_SHEET)  # 14 a sheet of 5 x 3
        assert len(state["ContainedObjects"]) == 40 and len(state["CustomDeck"]) == sheets == 3
        sizes = sheet_sizes(folder)
        assert len(sizes) == sheets + 1, sizes
        assert all(w <= MAX_SHEET_PX and h <= MAX_SHEET_PX for w, h in sizes.values()), sizes
        for sheet in state["CustomDeck"].values():
            assert Image.open(local(sheet["FaceURL"])).size == (
                sheet["NumWidth"] * CARD_PX[0],
                sheet["NumHeight"] * CARD_PX[1],
            )
        assert saved_object_problems(json.loads((folder / "wolf-pack.json").read_text())) == []
        faces[deck] = (folder / "wolf-pack-faces-1.png").read_bytes()
    assert faces[own] != faces[other]


# --- the site's images: every deck's own cards --------------------------------------------------

ADDRESS = "https://example.org/was/site/"


@pytest.fixture(scope="module")
def published(repo, tmp_path_factory):
    """A small site with a published address, built with a store of its own: (site, spec, store)."""
    import dataclasses

    from tests.site_check import small_spec
    from wastools.core.store import Store
    from wastools.site import build_site

    folder = tmp_path_factory.mktemp("published")
    store = Store(folder, folder / "store")
    spec = dataclasses.replace(small_spec(repo), address=ADDRESS)
    build_site(repo, folder / "out", spec, store=store)
    return folder / "out" / "site", spec, store


def test_the_site_has_each_decks_own_card_images(published):
    """Every deck of the site (as the build's variants list them) has an image of each unit and
    its back, 720 x 1008 pixels (288 dpi) and under 4096 either way, and a unit's images differ between
    decks: each is that deck's card."""
    from wastools.site.tabletop import back_image, unit_image

    site, spec, _store = published
    decks = [v.name for v, _p in spec.variants]
    assert sorted(p.name for p in (site / "tts").iterdir()) == sorted(decks)
    for unit in spec.units:
        images = {deck: (site / unit_image(deck, unit.id)).read_bytes() for deck in decks}
        assert len(set(images.values())) == len(decks), unit.id  # no two decks share a face
        for data in images.values():
            with Image.open(io.BytesIO(data)) as image:
                assert image.format == "JPEG" and image.size == (720, 1008)
    for deck in decks:
        with Image.open(site / back_image(deck)) as image:
            assert image.size == (720, 1008)
    assert len(list((site / "tts").rglob("*.jpg"))) == len(decks) * (len(spec.units) + 1)


def test_a_card_drawn_on_its_own_is_the_card_drawn_with_full_sheets(repo, tmp_path):
    """An edit draws one card again, alone: in every slot of the sheet, its image is the very
    image a cold build drew with two full sheets of other cards."""
    import dataclasses

    from tests.site_check import small_spec
    from wastools.core.store import Store
    from wastools.site.tabletop import KIND, SLOTS, deck_images, keep_images, slot_of, tabletop_images

    by_slot: dict[int, list] = {}
    for unit in repo.units.values():
        by_slot.setdefault(slot_of(unit.id), []).append(unit)
    assert set(by_slot) == set(range(SLOTS))
    units = tuple(u for slot in range(SLOTS) for u in by_slot[slot][:2])
    variant, params = small_spec(repo).variants[-1]
    spec = dataclasses.replace(small_spec(repo), units=units, variants=((variant, params),), address=ADDRESS)
    whole = tabletop_images(repo, spec, Store(tmp_path, tmp_path / "whole"))
    alone = Store(tmp_path, tmp_path / "alone")
    for slot in range(SLOTS):
        unit = by_slot[slot][0]
        assert keep_images(alone, repo, variant, params, (unit.id,), False) == 1
        image = deck_images(repo, variant, params, [unit], False)[0]
        assert image.slot == slot and alone.get(KIND, image.key) == whole[image.path], unit.id


def test_serve_draws_a_site_without_images_the_very_images_a_published_build_makes(published, repo, tmp_path):
    """An unconfigured site has no card images; ``serve`` draws each when asked for (what the
    fleet builder's button asks for), the same bytes the published build wrote, all at once for
    a burst of requests, and nothing for a path that is not one of the site's decks and units."""
    import dataclasses
    from concurrent.futures import ThreadPoolExecutor

    from wastools.core.store import Store
    from wastools.site.tabletop import OnDemand, back_image, unit_image

    site, spec, _store = published
    store = Store(tmp_path, tmp_path / "store")
    drawer = OnDemand(repo, dataclasses.replace(spec, address=""), store)
    decks = [v.name for v, _p in spec.variants]
    wanted = [unit_image(decks[-1], u.id) for u in spec.units[:6]] + [back_image(decks[-1]), back_image(decks[0])]
    with ThreadPoolExecutor(6) as pool:
        drawn = list(pool.map(drawer.image, wanted))
    assert drawn == [(site / rel).read_bytes() for rel in wanted]
    unit = spec.units[0].id
    for rel in [
        f"tts/{decks[0]}/units/no-such-unit.jpg",
        f"tts/no-such-deck/units/{unit}.jpg",
        f"tts/{decks[0]}/units/{unit}.png",
        f"tts/{decks[0]}/units/{unit}.jpg/x",
        f"tts/{decks[0]}/{unit}.jpg",
        f"tts/{decks[0]}/back.png",
        "tts/../cards/x.jpg",
        "tts",
    ]:
        assert drawer.image(rel) is None, rel
