"""Card fonts embedded once per PDF instead of once per card.

Each card face is its own PDF (so that a card's bytes never depend on the cards laid out
with it), and WeasyPrint embeds in it a subset of each font the card uses, with a font
dictionary of its own for each size. A deck of 290 cards held 870 subsets and some 600
dictionaries of each font: most of its bytes and objects, and of the time to join it.

WeasyPrint subsets with harfbuzz's "retain glyph ids", so every subset keeps the glyph
numbers of the original font file, and the whole file can stand in for any of its subsets.
And a card's dictionary says only what the file says: each glyph's width is the file's
advance in thousandths of an em, rounded, and its text is the lowest code point the file's
character map gives it (checked for every card font of a full build). So one dictionary per
file, read from the file itself (``file_font``), stands in for all of them; a card font
that says otherwise (a width that differs, a glyph the file lacks) keeps its own.

So a cached sheet points its cards at one dictionary per font file, whose program is left
out (``leave_out``: an empty stream that names the file), and joining sheets into a deck or
a pack puts in each file's dictionary, with the whole file, once (``pdf_parts``). Since no card's own
program reaches a sheet, a card face is written without one (``programs_left_out``):
subsetting them was a tenth of a card's CPU. Only the card
stylesheet's own fonts are shared: any other font (a fallback for a glyph the project fonts
lack) keeps its subset. Joining also keeps one copy of font programs that are byte for byte
the same (ReportLab's, for the labels in each sheet's margin, front and back). A Standard
Letter deck went from 3.5 MB to 1.2 MB with one program per file, and to 0.84 MB, with a
third of the objects, with one dictionary per file.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from ..core.resources import FONT_SCHEME, FONTS, TEMPLATES

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


_LEAVING_OUT: ContextVar[bool] = ContextVar("card_font_programs_left_out", default=False)


@contextmanager
def programs_left_out() -> Iterator[None]:
    """Within it, a PDF WeasyPrint writes holds an empty program for each card stylesheet
    font instead of the subset harfbuzz makes of it (other fonts are subset as usual). For a
    card face only: the sheet that holds it replaces every card font's program (``leave_out``),
    so the subset was never used, and making it took a tenth of a card's CPU (callgrind: 10.4 %
    of the instructions to lay out and write 24 cards). The widths and the Unicode map, which
    the sheet compares and keeps, are written as before."""
    _skip_card_font_subsets()
    token = _LEAVING_OUT.set(True)
    try:
        yield
    finally:
        _LEAVING_OUT.reset(token)


@cache
def _skip_card_font_subsets() -> None:
    """Make WeasyPrint's ``Font.clean`` (subset the font) leave the card fonts' programs empty
    inside ``programs_left_out``; everywhere else it does what it did. WeasyPrint has no option
    for it: ``full_fonts`` would embed each whole file in every card instead."""
    from weasyprint.pdf.fonts import Font

    subset = Font.clean

    def clean(font, *args, **kwargs) -> None:
        name = font.name.decode("latin-1").lstrip("/").split("+", 1)[-1]
        if _LEAVING_OUT.get() and not font.used_in_forms and name in card_font_files():
            font.file_content = b""
            return
        subset(font, *args, **kwargs)

    Font.clean = clean


def _forms_within(form, depth: int = 3):
    """A form and the forms it draws (a card draws its head as one), to ``depth`` levels."""
    yield form
    if depth > 0:
        xobjects = form.get("/Resources", {}).get("/XObject", {})
        for name in sorted(xobjects.keys()):  # a set: see _card_font_uses
            inner = xobjects[name]
            if inner.get("/Subtype") == "/Form":
                yield from _forms_within(inner, depth - 1)


def _card_font_uses(form):
    """(the font resources, resource name, font dictionary, descriptor, file) of each card
    font the resources of a form, and of the forms it draws, use."""
    for inner in _forms_within(form):
        yield from _own_card_font_uses(inner)


def _own_card_font_uses(form):
    fonts = form.get("/Resources", {}).get("/Font", {})
    for name in sorted(fonts.keys()):  # a set, in an order that differs from process to process
        font = fonts[name]
        if font.get("/Subtype") != "/Type0":
            continue
        descriptor = font.DescendantFonts[0].get("/FontDescriptor")
        if descriptor is None or "/FontFile2" not in descriptor:
            continue
        file = card_font_files().get(str(descriptor.FontName).lstrip("/").split("+", 1)[-1])
        if file is not None:
            yield fonts, name, font, descriptor, file


def leave_out(pdf, forms: list, also: Iterable[str] = ()) -> dict[str, Any]:
    """Give all the card fonts of ``forms`` (Form XObjects of ``pdf``) one font dictionary per
    file (see ``_share``), whose program is a placeholder naming the file. Returns those
    dictionaries by file, with one for each file of ``also`` that the forms do not use."""
    import pikepdf

    placeholders: dict[str, object] = {}

    def placeholder(file: str):
        if file not in placeholders:
            placeholders[file] = pdf.make_stream(b"", {MARK: pikepdf.String(file)})
        return placeholders[file]

    shared = _share(pdf, forms, placeholder)
    for file in sorted(set(also) - shared.keys()):
        shared[file] = file_font(file).dictionary(pdf, placeholder(file))
    return shared


def named_card_font(file: str) -> str:
    """``file``, the font file a placeholder program names, when it is a card font: a cache
    entry is data, and may name only our fonts."""
    if file not in card_font_files().values():
        raise ValueError(f"a cached sheet names a font that is not a card font: {file[:80]!r}")
    return file


def placeholder_file(font) -> str | None:
    """The card font file a Type 0 font's placeholder program names (``leave_out``); None
    when its program is not a placeholder."""
    descendants = font.get("/DescendantFonts")
    descriptor = descendants[0].get("/FontDescriptor") if descendants else None
    program = descriptor.get("/FontFile2") if descriptor is not None else None
    return placeholder_program_file(program) if program is not None else None


def placeholder_program_file(program) -> str | None:
    """The card font file a placeholder program (a stream) names; None for another stream."""
    if MARK not in program.stream_dict:
        return None
    return named_card_font(str(program.stream_dict[MARK]))


@cache
def compressed_program(file: str) -> tuple[bytes, int]:
    """A font file compressed, and its length before (the stream's /Length1)."""
    data = (FONTS / file).read_bytes()
    return zlib.compress(data, 9), len(data)


def _share(pdf, forms: list, program_for) -> dict[str, Any]:
    """Point every card font of ``forms`` at its file's one font dictionary in ``pdf`` (see
    ``file_font``), whose program is ``program_for(file)``. A font whose widths are not the
    file's own keeps its dictionary, with the shared program. A deck held some 600 font
    dictionaries of each file, five objects each: four fifths of its objects, and of the
    time to join it."""
    shared: dict[str, Any] = {}
    decided: dict[tuple[int, int] | None, Any] = {}  # a dictionary used by many forms is looked at once
    for form in forms:
        for fonts, name, font, descriptor, file in _card_font_uses(form):
            seen = font.objgen if font.is_indirect else None
            if seen in decided:
                if decided[seen] is not None:
                    fonts[name] = decided[seen]
                continue
            if file not in shared:
                shared[file] = file_font(file).dictionary(pdf, program_for(file))
            replacement = None
            if file_font(file).agrees(font):
                replacement = fonts[name] = shared[file]
            else:
                descriptor.FontFile2 = program_for(file)
            if seen is not None:
                decided[seen] = replacement
    return shared


@dataclass(frozen=True)
class _FileFont:
    """What the one font dictionary of a card font file holds, read from the file: the width
    of each glyph as WeasyPrint writes it (its advance in thousandths of an em, rounded), the
    text of each glyph the character map reaches (from its lowest code point), and metrics.
    Checked against every card font of a full build: each card's own widths and Unicode map
    are these, glyph for glyph."""

    name: str
    widths: tuple[int, ...]
    to_unicode: bytes
    descriptor: tuple[tuple[str, object], ...]

    def agrees(self, font) -> bool:
        """Whether a card's font dictionary can give way to this one: its glyphs are numbered
        as the file numbers them, and each has the width this one gives it, written alike.
        Each run of the card's /W array is compared with the same run of this one's, as text."""
        import pikepdf

        cid = font.DescendantFonts[0]
        if font.get("/Encoding") != "/Identity-H" or cid.get("/CIDToGIDMap") != "/Identity":
            return False
        array = cid.get("/W")
        if not isinstance(array, pikepdf.Array):
            return False
        tokens = array.unparse(resolved=True).replace(b"[", b" [ ").replace(b"]", b" ] ").split()[1:-1]
        own, i = self.written_widths, 0
        try:
            while i < len(tokens):
                first = int(tokens[i])
                if tokens[i + 1] == b"[":  # first [w w ...]
                    end = tokens.index(b"]", i + 2)
                    if own[first : first + end - i - 2] != tokens[i + 2 : end]:
                        return False  # (a glyph past the file's last one shortens the slice)
                    i = end + 1
                else:  # first last w
                    last, width = int(tokens[i + 1]), tokens[i + 2]
                    if last >= len(own) or any(w != width for w in own[first : last + 1]):
                        return False
                    i += 3
        except (IndexError, ValueError):
            return False
        return True

    @cached_property
    def written_widths(self) -> list[bytes]:
        """The widths as a PDF writer writes whole numbers, for ``agrees`` to compare as text."""
        return [str(w).encode() for w in self.widths]

    def dictionary(self, pdf, program):
        """This font's dictionary (a Type 0 font over a CID font), made in ``pdf``."""
        import pikepdf

        name = pikepdf.Name("/" + self.name)
        fields = {key: pikepdf.Array(v) if isinstance(v, tuple) else v for key, v in self.descriptor}
        descriptor = pdf.make_indirect(
            pikepdf.Dictionary({**fields, "/Type": pikepdf.Name.FontDescriptor, "/FontName": name})
        )
        descriptor.FontFile2 = program
        cid = pdf.make_indirect(
            pikepdf.Dictionary(
                Type=pikepdf.Name.Font,
                Subtype=pikepdf.Name.CIDFontType2,
                BaseFont=name,
                CIDSystemInfo=pikepdf.Dictionary(Registry="Adobe", Ordering="Identity", Supplement=0),
                CIDToGIDMap=pikepdf.Name.Identity,
                FontDescriptor=descriptor,
                W=pikepdf.Array([0, pikepdf.Array(self.widths)]),
            )
        )
        return pdf.make_indirect(
            pikepdf.Dictionary(
                Type=pikepdf.Name.Font,
                Subtype=pikepdf.Name.Type0,
                BaseFont=name,
                Encoding=pikepdf.Name("/Identity-H"),
                DescendantFonts=pikepdf.Array([cid]),
                ToUnicode=pdf.make_stream(self.to_unicode),
            )
        )


@cache
def file_font(file: str) -> _FileFont:
    """A card font file's one dictionary's contents (read once per machine and code:
    ``derived``)."""
    from .derived import kept

    return kept("file-font", file, lambda: _read_file_font(file))


def _read_file_font(file: str) -> _FileFont:
    from fontTools.ttLib import TTFont

    font = TTFont(FONTS / file, lazy=True)
    em = font["head"].unitsPerEm

    def per_mille(value: float) -> int:
        return round(value * 1000 / em)

    order = font.getGlyphOrder()
    text: dict[int, str] = {}
    for code, glyph in sorted(font.getBestCmap().items()):
        text.setdefault(font.getGlyphID(glyph), chr(code))
    head, hhea = font["head"], font["hhea"]
    italic = bool(head.macStyle & 2)
    name = next(n for n, f in card_font_files().items() if f == file)
    os2 = font["OS/2"] if "OS/2" in font else None
    descriptor = {
        "/FontFamily": name.split("-", 1)[0],
        "/Flags": 4 + (64 if italic else 0),  # symbolic (a font of its own glyphs), italic
        "/FontBBox": tuple(per_mille(v) for v in (head.xMin, head.yMin, head.xMax, head.yMax)),
        "/ItalicAngle": round(font["post"].italicAngle),
        "/Ascent": per_mille(hhea.ascent),
        "/Descent": per_mille(hhea.descent),
        "/CapHeight": per_mille(getattr(os2, "sCapHeight", 0) or hhea.ascent),
        "/StemV": 80,
        "/StemH": 80,
    }
    return _FileFont(
        name=name,
        widths=tuple(per_mille(font["hmtx"][glyph][0]) for glyph in order),
        to_unicode=_cmap(text),
        descriptor=tuple(sorted(descriptor.items())),
    )


def _cmap(text: dict[int, str]) -> bytes:
    """A ToUnicode CMap (the standard Adobe-Identity-UCS form) mapping each glyph to its text,
    in blocks of at most 100 entries as the format allows."""
    glyphs = sorted(text)
    lines = [
        "/CIDInit /ProcSet findresource begin",
        "12 dict begin",
        "begincmap",
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
        "/CMapName /Adobe-Identity-UCS def",
        "/CMapType 2 def",
        "1 begincodespacerange",
        "<0000> <FFFF>",
        "endcodespacerange",
    ]
    for start in range(0, len(glyphs), 100):
        block = glyphs[start : start + 100]
        lines.append(f"{len(block)} beginbfchar")
        lines += [f"<{g:04X}> <{text[g].encode('utf-16-be').hex().upper()}>" for g in block]
        lines.append("endbfchar")
    lines += ["endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"]
    return ("\n".join(lines) + "\n").encode("ascii")
