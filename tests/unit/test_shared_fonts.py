"""Card fonts are embedded once per deck: a cached sheet leaves them out, joining the
sheets puts each font file in once, and the cards read and look as they did."""

from __future__ import annotations

import io
import re

import pdfplumber
import pikepdf
import pytest

from wastools.core.resources import FONTS
from wastools.render import cards, pdf_parts, shared_fonts, sheets
from wastools.variants import VARIANTS

UNITS = ("hms-cossack", "bismarck", "akagi", "i-19", "yamato", "gneisenau", "hatsukaze", "pby-catalina")


@pytest.fixture(scope="module")
def faces(repo):
    variant = VARIANTS["standard"]
    views = [cards.card_view(variant.adapt(repo.units[u], variant.defaults()), variant, repo) for u in UNITS]
    back = str(cards.render_back_html(variant))
    return cards.lay_out_cards([str(cards.render_card_html(v)) for v in views] + [back], views=[*views, None])


def _programs(data: bytes) -> list[int]:
    """The length of every embedded card-font program (FontFile2) in a PDF."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        found = {}
        for page in pdf.pages:
            for form in page.Resources.get("/XObject", {}).values():
                for _fonts, _name, _font, descriptor, _file in shared_fonts._card_font_uses(form):
                    found[descriptor.FontFile2.objgen] = len(descriptor.FontFile2.read_bytes())
        return sorted(found.values())


def test_the_card_stylesheet_fonts_are_known():
    assert shared_fonts.card_font_files() == {
        "WasSans": "Vera.ttf",
        "WasSans-Bold": "VeraBd.ttf",
        "WasSans-Italic": "VeraIt.ttf",
    }


def test_a_deck_embeds_each_card_font_once_and_reads_as_its_cards(faces):
    layout = sheets.load_layout("letter")
    sheet = sheets.sheet_part(faces[:-1], layout, "t - sheet 1 of 1", back_pdf=faces[-1])
    # no card font in the cached sheet: slots for each file's one dictionary, regular and bold
    assert sorted(sheet.symbols) == ["font:Vera.ttf", "font:VeraBd.ttf"]
    programs = {data for text, data in sheet.objects if b"/Length1" in text}
    assert len(programs) == 1  # the one font of the labels in its margins, front and back
    assert not any(shared_fonts.MARK.encode() in text for text, _data in sheet.objects)
    deck, pages = sheets.impose(faces[:-1] * 3, layout, "Standard cards (letter)", back_pdf=faces[-1])
    whole = sorted(len((FONTS / f).read_bytes()) for f in ("Vera.ttf", "VeraBd.ttf"))
    assert pages == 6 and _programs(deck) == whole  # 24 cards and their backs, two programs
    with pikepdf.open(io.BytesIO(deck)) as pdf:
        programs = {o.objgen for o in pdf.objects if isinstance(o, pikepdf.Stream) and "/Length1" in o}
    assert len(programs) == 3  # and one for the labels in the margins of all 3 sheets, whatever they say
    with pdfplumber.open(io.BytesIO(deck)) as pdf:
        text = pdf.pages[0].extract_text()
    for face in faces[:-1]:
        with pdfplumber.open(io.BytesIO(face)) as pdf:
            name = pdf.pages[0].extract_text().splitlines()[1]
        assert name.split()[0] in text


def test_a_planted_sheet_cannot_make_the_deck_read_another_file(faces):
    with pikepdf.open(io.BytesIO(faces[0])) as pdf:  # a PDF whose card fonts are placeholders
        shared_fonts.leave_out(pdf, [pdf.pages[0].obj])
        for _fonts, _name, _font, descriptor, _file in shared_fonts._card_font_uses(pdf.pages[0].obj):
            descriptor.FontFile2[shared_fonts.MARK] = pikepdf.String("../../../etc/passwd")
        out = io.BytesIO()
        pdf.save(out)
    with pytest.raises(ValueError, match="not a card font"):
        sheets.assemble([out.getvalue()], "t")
    part = sheets.sheet_part(faces[:2], sheets.load_layout("letter"), "t")
    planted = pdf_parts.Part(part.objects, part.pages, ("program:../../../etc/passwd",) * len(part.symbols))
    with pytest.raises(ValueError, match="not a card font"):
        sheets.assemble([planted.to_bytes()], "t")


def _card_font_dictionaries(data: bytes) -> dict[str, set]:
    """Each card font file of a PDF's cards, with the font dictionaries that stand for it."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        found: dict[str, set] = {}
        for page in pdf.pages:
            for form in page.Resources.get("/XObject", {}).values():
                for _fonts, _name, font, _descriptor, file in shared_fonts._card_font_uses(form):
                    found.setdefault(file, set()).add(font.objgen)
        return found


def _chars(page, box=None) -> list[tuple]:
    """Every glyph of a page (or of one box of it) as text, font, size and place relative to
    the box: what a reader and a printer get from the widths and the Unicode map."""
    x0, top = (box[0], box[1]) if box else (0, 0)
    chars = page.crop(box).chars if box else page.chars
    return [(c["text"], c["fontname"].split("+")[-1], c["size"], c["x0"] - x0, c["top"] - top) for c in chars]


def _same_glyphs(one: list[tuple], other: list[tuple]) -> bool:
    """The same text and fonts, sizes and places within a thousandth of a point (a place
    summed from a form's offset and the card's own may differ in its last bits)."""
    return len(one) == len(other) and all(
        a[:2] == b[:2] and all(abs(x - y) < 1e-3 for x, y in zip(a[2:], b[2:], strict=True))
        for a, b in zip(one, other, strict=True)
    )


def test_a_deck_has_one_font_dictionary_per_card_font_and_every_glyph_where_its_card_put_it(faces):
    layout = sheets.load_layout("letter")
    deck, _pages = sheets.impose(faces[:-1] * 3, layout, "Standard cards (letter)", back_pdf=faces[-1])
    assert {file: len(dicts) for file, dicts in _card_font_dictionaries(deck).items()} == {
        "Vera.ttf": 1,
        "VeraBd.ttf": 1,
    }
    height = layout["page"]["height"]
    with pdfplumber.open(io.BytesIO(deck)) as pdf:
        sheet = pdf.pages[0]
        for face, slot in zip(faces[:-1], layout["slots"], strict=False):
            box = (slot["x"], height - slot["y"] - 252, slot["x"] + 180, height - slot["y"])
            with pdfplumber.open(io.BytesIO(face)) as alone:
                expected = _chars(alone.pages[0])
            assert len(expected) > 100
            assert _same_glyphs(_chars(sheet, box), expected)


def test_fonts_that_disagree_on_a_width_keep_their_own_dictionaries(faces):
    """Merging two dictionaries whose widths differ would move glyphs: each keeps its own."""
    layout = sheets.load_layout("letter")
    changed = []
    for face in faces[:2]:
        with pikepdf.open(io.BytesIO(face)) as pdf:
            for font in pdf.pages[0].Resources.Font.values():
                if str(font.BaseFont).endswith("WasSans"):
                    widths = font.DescendantFonts[0].W
                    widths[1] = pikepdf.Array([int(w) + len(changed) for w in widths[1]])
            out = io.BytesIO()
            pdf.save(out)
            changed.append(out.getvalue())
    deck, _pages = sheets.impose(changed, layout, "t")
    assert {file: len(dicts) for file, dicts in _card_font_dictionaries(deck).items()} == {
        "Vera.ttf": 2,
        "VeraBd.ttf": 1,
    }
    with pdfplumber.open(io.BytesIO(deck)) as pdf:
        height = layout["page"]["height"]
        for face, slot in zip(changed, layout["slots"], strict=False):
            box = (slot["x"], height - slot["y"] - 252, slot["x"] + 180, height - slot["y"])
            with pdfplumber.open(io.BytesIO(face)) as alone:
                assert _same_glyphs(_chars(pdf.pages[0], box), _chars(alone.pages[0]))


def test_each_card_font_of_a_card_is_its_files_own_glyph_for_glyph(faces):
    """The one dictionary of a file stands in for a card's because they agree on every glyph
    the card uses: its width, and its text (what copying the card's text gives)."""
    for face in faces:
        with pikepdf.open(io.BytesIO(face)) as pdf:
            for _fonts, _name, font, _descriptor, file in shared_fonts._card_font_uses(pdf.pages[0].obj):
                own = shared_fonts.file_font(file)
                assert own.agrees(font)
                text = font.ToUnicode.read_bytes()
                for glyph, chars in re.findall(rb"<([0-9a-f]{4})> <([0-9a-f]+)>", text):
                    assert f"<{glyph.decode().upper()}> <{chars.decode().upper()}>".encode() in own.to_unicode


def test_a_font_with_a_glyph_the_file_lacks_does_not_agree(faces):
    with pikepdf.open(io.BytesIO(faces[0])) as pdf:
        font = next(iter(shared_fonts._card_font_uses(pdf.pages[0].obj)))[2]
        own = shared_fonts.file_font(shared_fonts.card_font_files()["WasSans"])
        font.DescendantFonts[0].W = pikepdf.Array([len(own.widths) + 5, pikepdf.Array([500])])
        assert not own.agrees(font)


def test_widths_agree_in_both_forms_of_a_width_array_and_unicode_maps_are_written_in_blocks(faces):
    own = shared_fonts.file_font("VeraBd.ttf")
    space, digits = own.widths[3], own.widths[19:22]  # glyph 3 is the space, 19-21 "0" to "2"
    with pikepdf.open(io.BytesIO(faces[0])) as pdf:
        font = next(u for u in shared_fonts._card_font_uses(pdf.pages[0].obj) if u[4] == "VeraBd.ttf")[2]
        cid = font.DescendantFonts[0]
        for array, agrees in (
            ([3, [space], 19, [*digits]], True),
            ([3, 3, space, 19, 21, digits[0]], digits == (digits[0],) * 3),
            ([3, [space + 1]], False),
            ([3, [space], len(own.widths) - 1, [own.widths[-1], 500]], False),  # a glyph past the last
        ):
            cid.W = pikepdf.Array([pikepdf.Array(x) if isinstance(x, list) else x for x in array])
            assert own.agrees(font) is agrees, array
    cmap = shared_fonts._cmap(
        {3: " ", 70: "\u00e9", 900: "\U0001f600", 901: "ffi"} | {n: "x" for n in range(1000, 1200)}
    )
    assert b"<0384> <D83DDE00>" in cmap and b"<0385> <006600660069>" in cmap
    assert [int(n) for n in re.findall(rb"(\d+) beginbfchar", cmap)] == [100, 100, 4]


def _programs_by_font(data: bytes) -> dict[str, int]:
    """Each font of a one-page PDF and of the forms it draws (name without its subset tag),
    with its program's length."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return {
            str(font.BaseFont).lstrip("/").split("+")[-1]: len(
                font.DescendantFonts[0].FontDescriptor.FontFile2.read_bytes()
            )
            for form in shared_fonts._forms_within(pdf.pages[0].obj)  # a card draws its head as a form
            for font in form.get("/Resources", {}).get("/Font", {}).values()
        }


def _system_font_has(letter: str) -> bool | None:
    """Whether fontconfig knows a font with ``letter``, the fallback Pango draws it from (None:
    no ``fc-list`` to ask)."""
    import shutil
    import subprocess

    if shutil.which("fc-list") is None:
        return None
    found = subprocess.run(["fc-list", f":charset={ord(letter):x}", "file"], capture_output=True, text=True)
    return bool(found.stdout.strip())


def test_a_card_face_is_written_without_its_card_fonts_programs_and_a_sheet_puts_them_in(repo):
    """Subsetting the card fonts for each face was a tenth of its CPU, and every sheet replaced
    the subsets: a face now has empty card-font programs. A fallback font (here for a letter
    Vera lacks) keeps its subset; outside a card face WeasyPrint subsets the card fonts as
    before; and the sheet holding the face draws its text from whole font files."""
    import dataclasses

    from markupsafe import Markup

    from wastools.variants import VARIANTS

    variant = VARIANTS["standard"]
    unit = dataclasses.replace(repo.units["hms-cossack"], name="HMS Łódź")
    html = str(cards.render_card_html(cards.card_view(variant.adapt(unit, None), variant, repo)))
    (face,) = cards.lay_out_cards([html])
    programs = _programs_by_font(face)
    card_fonts = {name: n for name, n in programs.items() if name in shared_fonts.card_font_files()}
    assert card_fonts == {"WasSans": 0, "WasSans-Bold": 0}
    fallbacks = {name: n for name, n in programs.items() if name not in card_fonts}
    assert _system_font_has("Ł") in (None, bool(fallbacks)) and all(n > 1000 for n in fallbacks.values()), programs
    alone = cards._layout(cards.render_deck_html([Markup(html)], "cards")).write_pdf()
    assert all(n > 1000 for n in _programs_by_font(alone).values())
    deck, _pages = sheets.impose([face], sheets.load_layout("letter"), "t")
    whole = sorted(len((FONTS / f).read_bytes()) for f in ("Vera.ttf", "VeraBd.ttf"))
    assert sorted(n for n in _programs(deck) if n in whole) == whole
    with pdfplumber.open(io.BytesIO(deck)) as pdf:
        assert "HMS Łódź" in pdf.pages[0].extract_text()
