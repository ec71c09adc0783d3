"""Card fonts embedded once per PDF instead of once per card.

Each card face is its own PDF (so that a card's bytes never depend on the cards laid out
with it), and WeasyPrint embeds in it a subset of each font the card uses. A deck of 290
cards held 870 subsets: two thirds of its bytes, and of the time to join it. WeasyPrint
subsets with harfbuzz's "retain glyph ids", so every subset keeps the glyph numbers of the
original font file, and the whole file can stand in for any of its subsets.

So a cached sheet leaves the card fonts' programs out (``leave_out``: an empty stream that
names the file), and joining sheets into a deck or a pack puts each file in once
(``put_back``). Only the card stylesheet's own fonts are shared: any other font (a fallback
for a glyph the project fonts lack) keeps its subset. Joining also keeps one copy of font
programs that are byte for byte the same (ReportLab's, for the labels in each sheet's
margin, front and back). A Standard Letter deck went from 3.5 MB to 1.2 MB.
"""

from __future__ import annotations

import re
import zlib
from functools import cache

from ..resources import FONT_SCHEME, FONTS, TEMPLATES

MARK = "/WastoolsFontFile"  # on a placeholder font program: the file that replaces it
STYLE_WORDS = (("Bold", r"font-weight:\s*bold"), ("Italic", r"font-style:\s*italic"))


@cache
def card_font_files() -> dict[str, str]:
    """The PDF font name WeasyPrint gives each ``@font-face`` of card.css (family, then
    "Bold" and "Italic" as Pango names the style), with the font file it loads."""
    css = (TEMPLATES / "cards" / "card.css").read_text(encoding="utf-8")
    names = {}
    for rule in re.finditer(r"@font-face\s*\{([^}]*)\}", css):
        body = rule.group(1)
        family = re.search(r'font-family:\s*"([^"]+)"', body)
        source = re.search(r'url\("' + re.escape(FONT_SCHEME) + r'([^"]+)"\)', body)
        if family is None or source is None:
            continue
        style = [word for word, pattern in STYLE_WORDS if re.search(pattern, body)]
        names["-".join([family.group(1).replace(" ", "-"), *style])] = source.group(1)
    return names


def _card_fonts(form):
    """(descriptor, file name) of each card font a form's resources use."""
    fonts = form.get("/Resources", {}).get("/Font", {})
    for font in fonts.values():
        if font.get("/Subtype") != "/Type0":
            continue
        descriptor = font.DescendantFonts[0].get("/FontDescriptor")
        if descriptor is None or "/FontFile2" not in descriptor:
            continue
        name = str(descriptor.FontName).lstrip("/").split("+", 1)[-1]
        file = card_font_files().get(name)
        if file is not None:
            yield descriptor, file


def leave_out(pdf, forms: list, placeholders: dict[str, object] | None = None) -> None:
    """Replace the program of every card font in ``forms`` (Form XObjects of ``pdf``) by a
    placeholder naming its file, one per file."""
    import pikepdf

    placeholders = {} if placeholders is None else placeholders
    for form in forms:
        for descriptor, file in _card_fonts(form):
            if file not in placeholders:
                placeholders[file] = pdf.make_stream(b"", {MARK: pikepdf.String(file)})
            descriptor.FontFile2 = placeholders[file]


def put_back(pdf) -> None:
    """Give every placeholder in ``pdf``'s pages (in their forms) the whole font file it
    names, each file embedded once; identical font programs of the other forms (the sheet
    margins' labels) are kept once too."""
    import pikepdf

    streams: dict[str, object] = {}
    seen: dict[bytes, object] = {}
    for page in pdf.pages:
        forms = list(page.get("/Resources", {}).get("/XObject", {}).values())
        _keep_identical_programs_once(forms, seen)
        for form in forms:
            for descriptor, _file in _card_fonts(form):
                program = descriptor.FontFile2
                if MARK not in program:
                    continue
                file = str(program[MARK])
                if file not in card_font_files().values():  # a cache entry is data: only our fonts
                    raise ValueError(f"a cached sheet names a font that is not a card font: {file[:80]!r}")
                if file not in streams:
                    data = (FONTS / file).read_bytes()
                    stream = pikepdf.Stream(pdf, b"")
                    stream.write(_compressed(file), filter=pikepdf.Name.FlateDecode)
                    stream.Length1 = len(data)
                    streams[file] = stream
                descriptor.FontFile2 = streams[file]


def _keep_identical_programs_once(forms: list, seen: dict[bytes, object]) -> None:
    """Point every simple (non card) font whose program has the same bytes as one seen
    before at that one; ``seen`` maps a program's digest to it."""
    import hashlib

    for form in forms:
        for font in form.get("/Resources", {}).get("/Font", {}).values():
            descriptor = font.get("/FontDescriptor")
            program = descriptor.get("/FontFile2") if descriptor is not None else None
            if program is None or MARK in program:
                continue
            digest = hashlib.sha256(program.read_raw_bytes() + repr(program.get("/Filter")).encode()).digest()
            descriptor.FontFile2 = seen.setdefault(digest, program)


@cache
def _compressed(file: str) -> bytes:
    return zlib.compress((FONTS / file).read_bytes(), 9)
