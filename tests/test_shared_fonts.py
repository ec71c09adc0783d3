"""Card fonts are embedded once per deck: a cached sheet leaves them out, joining the
sheets puts each font file in once, and the cards read and look as they did."""

from __future__ import annotations

import io

import pdfplumber
import pikepdf
import pytest

from wastools.render import cards, shared_fonts, sheets
from wastools.resources import FONTS
from wastools.variants import VARIANTS

UNITS = ("hms-cossack", "bismarck", "akagi", "i-19", "yamato", "gneisenau", "hatsukaze", "pby-catalina")


@pytest.fixture(scope="module")
def faces(repo):
    variant = VARIANTS["standard"]
    views = [cards.card_view(variant.adapt(repo.units[u], variant.defaults()), variant, repo) for u in UNITS]
    back = str(cards.render_back_html(variant))
    return cards.lay_out_cards([str(cards.render_card_html(v)) for v in views] + [back])


def _programs(data: bytes) -> list[int]:
    """The length of every embedded card-font program (FontFile2) in a PDF."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        found = {}
        for page in pdf.pages:
            for form in page.Resources.get("/XObject", {}).values():
                for descriptor, _file in shared_fonts._card_fonts(form):
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
    sheet = sheets.sheet_pdf(faces[:-1], layout, "t - sheet 1 of 1", back_pdf=faces[-1])
    assert _programs(sheet) == [0, 0]  # placeholders only: regular and bold
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


def test_a_planted_sheet_cannot_make_the_deck_read_another_file(faces, tmp_path):
    layout = sheets.load_layout("letter")
    sheet = sheets.sheet_pdf(faces[:2], layout, "t")
    with pikepdf.open(io.BytesIO(sheet)) as pdf:
        for page in pdf.pages:
            for form in page.Resources.XObject.values():
                for descriptor, _file in shared_fonts._card_fonts(form):
                    descriptor.FontFile2[shared_fonts.MARK] = pikepdf.String("../../../etc/passwd")
        out = io.BytesIO()
        pdf.save(out)
    with pytest.raises(ValueError, match="not a card font"):
        sheets.assemble([out.getvalue()], "t")
