"""Card fonts embedded once per PDF instead of once per card.

Each card face is its own PDF (so that a card's bytes never depend on the cards laid out
with it), and WeasyPrint embeds in it a subset of each font the card uses, with a font
dictionary of its own. A deck of 290 cards held 870 subsets: two thirds of its bytes, and of
the time to join it. WeasyPrint subsets with harfbuzz's "retain glyph ids", so every subset
keeps the glyph numbers of the original font file, and the whole file can stand in for any
of its subsets; and it measures a glyph the same at every size, so one dictionary (the union
of the cards' widths and Unicode maps) can stand in for all of a file's dictionaries.

So a cached sheet gives its cards one dictionary per font file, whose program is left out
(``leave_out``: an empty stream that names the file), and joining sheets into a deck or a
pack makes one dictionary per file of theirs and puts each file in once (``put_back``). Only
the card stylesheet's own fonts are shared: any other font (a fallback for a glyph the
project fonts lack) keeps its subset. Joining also keeps one copy of font programs that are
byte for byte the same (ReportLab's, for the labels in each sheet's margin, front and back).
A Standard Letter deck went from 3.5 MB to 1.2 MB with one program per file, and to 0.84 MB
(a third of the objects) with one dictionary per file.
"""

from __future__ import annotations

import re
import zlib
from decimal import Decimal
from functools import cache
from typing import Any

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


def _card_font_uses(form):
    """(the form's font resources, resource name, font dictionary, descriptor, file) of each
    card font a form's resources use."""
    fonts = form.get("/Resources", {}).get("/Font", {})
    for name in list(fonts.keys()):
        font = fonts[name]
        if font.get("/Subtype") != "/Type0":
            continue
        descriptor = font.DescendantFonts[0].get("/FontDescriptor")
        if descriptor is None or "/FontFile2" not in descriptor:
            continue
        file = card_font_files().get(str(descriptor.FontName).lstrip("/").split("+", 1)[-1])
        if file is not None:
            yield fonts, name, font, descriptor, file


def _card_fonts(form):
    """(descriptor, file name) of each card font a form's resources use."""
    for _fonts, _name, _font, descriptor, file in _card_font_uses(form):
        yield descriptor, file


def leave_out(pdf, forms: list) -> None:
    """Give all the card fonts of ``forms`` (Form XObjects of ``pdf``) one font dictionary per
    file (see ``_share``), whose program is a placeholder naming the file."""
    import pikepdf

    placeholders: dict[str, object] = {}

    def placeholder(file: str):
        if file not in placeholders:
            placeholders[file] = pdf.make_stream(b"", {MARK: pikepdf.String(file)})
        return placeholders[file]

    _share(pdf, forms, lambda _descriptor, file: file, placeholder)


def put_back(pdf) -> None:
    """Give the card fonts of ``pdf``'s pages (in their forms) one font dictionary per file,
    with the whole font file each placeholder names, embedded once; identical font programs
    of the other forms (the sheet margins' labels) are kept once too."""
    import pikepdf

    streams: dict[str, object] = {}
    seen: dict[bytes, object] = {}
    forms = []
    for page in pdf.pages:
        page_forms = list(page.get("/Resources", {}).get("/XObject", {}).values())
        _keep_identical_programs_once(page_forms, seen)
        forms += page_forms

    def named_file(descriptor, _file: str) -> str | None:
        program = descriptor.FontFile2
        if MARK not in program:
            return None  # a program already put back (a pack's cards): left as it is
        file = str(program[MARK])
        if file not in card_font_files().values():  # a cache entry is data: only our fonts
            raise ValueError(f"a cached sheet names a font that is not a card font: {file[:80]!r}")
        return file

    def program(file: str):
        if file not in streams:
            stream = pikepdf.Stream(pdf, b"")
            stream.write(_compressed(file), filter=pikepdf.Name.FlateDecode)
            stream.Length1 = len((FONTS / file).read_bytes())
            streams[file] = stream
        return streams[file]

    _share(pdf, forms, named_file, program)


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


def _share(pdf, forms: list, file_of, program_for) -> None:
    """Point every card font of ``forms`` at one font dictionary per file, whose program is
    ``program_for(file)``; ``file_of(descriptor, file)`` says which file a font stands for (None:
    leave it alone). The one dictionary carries the union of the glyph widths and Unicode maps
    of those it replaces: they may all stand for one file because WeasyPrint keeps the file's
    glyph numbers and gives a glyph the same width at every size. Fonts that do not agree
    (a width or a field that differs) keep their own dictionaries, with the shared program.
    A deck held some 600 dictionaries of each font, five objects each: four fifths of its
    objects, and of the time to join it."""
    groups: dict[str, _FontGroup] = {}
    for form in forms:
        for fonts, name, font, descriptor, file in _card_font_uses(form):
            key = file_of(descriptor, file)
            if key is not None:
                groups.setdefault(key, _FontGroup()).add(fonts, name, font, descriptor)
    for file, group in sorted(groups.items()):
        group.replace(pdf, program_for(file))


# what may differ between the dictionaries of one file: merged, not compared
_MERGED = {"/DescendantFonts", "/ToUnicode", "/W", "/FontDescriptor", "/FontBBox", "/FontFile2"}


class _FontGroup:
    """The card font dictionaries of one file, where they are used, and what they hold."""

    def __init__(self) -> None:
        self.uses: list[tuple[Any, str]] = []  # (font resources, name)
        self.fonts: dict[Any, tuple[Any, Any]] = {}  # identity -> (font, descriptor)
        self.sample: tuple[Any, Any, Any] | None = None  # (font, CID font, descriptor)
        self.shape: tuple | None = None
        self.widths: dict[int, bytes] = {}
        self.text: dict[int, str] = {}
        self.bbox: list | None = None
        self.mergeable = True

    def add(self, fonts, name: str, font, descriptor) -> None:
        self.uses.append((fonts, name))
        identity = font.objgen if font.is_indirect else font.unparse()
        if identity not in self.fonts:
            self.fonts[identity] = (font, descriptor)
            if self.mergeable:
                self.mergeable = self._read(font, descriptor)

    def _read(self, font, descriptor) -> bool:
        """Adds one dictionary's widths, Unicode map and box; False when it cannot be merged."""
        cid = font.DescendantFonts[0]
        shape = (_fields(font), _fields(cid), _fields(descriptor))
        if self.shape is None:
            self.shape, self.sample = shape, (font, cid, descriptor)
        elif shape != self.shape:
            return False
        widths, text, bbox = _widths(cid.get("/W")), _unicode_map(font.get("/ToUnicode")), _box(descriptor)
        if widths is None or text is None or bbox is None:
            return False
        for glyph, width in widths.items():
            if self.widths.setdefault(glyph, width) != width:
                return False
        for glyph, chars in text.items():
            if glyph not in self.text or chars < self.text[glyph]:  # the same choice in any order
                self.text[glyph] = chars
        self.bbox = bbox if self.bbox is None else _union(self.bbox, bbox)
        return True

    def replace(self, pdf, program) -> None:
        import pikepdf

        if not self.mergeable or self.sample is None:
            for _font, descriptor in self.fonts.values():
                descriptor.FontFile2 = program
            return
        font, cid, descriptor = self.sample
        new_descriptor = pdf.make_indirect(_copy(descriptor))
        new_descriptor.FontBBox = pikepdf.Array(self.bbox)
        new_descriptor.FontFile2 = program
        new_cid = pdf.make_indirect(_copy(cid))
        new_cid.W = _width_array(self.widths)
        new_cid.FontDescriptor = new_descriptor
        new_font = pdf.make_indirect(_copy(font))
        new_font.DescendantFonts = pikepdf.Array([new_cid])
        new_font.ToUnicode = pdf.make_stream(_cmap(self.text))
        for fonts, name in self.uses:
            fonts[name] = new_font


def _fields(obj) -> tuple:
    """The fields of a font dictionary that its merged dictionary keeps as they are."""
    import pikepdf

    return tuple(
        sorted(
            (key, value.unparse(resolved=True) if isinstance(value, pikepdf.Object) else repr(value))
            for key, value in obj.items()
            if key not in _MERGED
        )
    )


def _copy(obj):
    import pikepdf

    return pikepdf.Dictionary({key: value for key, value in obj.items() if key not in _MERGED})


def _widths(array) -> dict[int, bytes] | None:
    """A CID font's /W array as {glyph: width as written}; None for a form this does not read.
    Read from the array's text, as written: twice as fast as walking the array's items (the
    same width written two ways would only keep two dictionaries apart)."""
    import pikepdf

    if not isinstance(array, pikepdf.Array):
        return None
    text = array.unparse(resolved=True)
    tokens = text.replace(b"[", b" [ ").replace(b"]", b" ] ").split()[1:-1]  # inside the outer brackets
    widths: dict[int, bytes] = {}
    i = 0
    try:
        while i < len(tokens):
            first = int(tokens[i])
            if tokens[i + 1] == b"[":
                end = tokens.index(b"]", i + 2)
                run = tokens[i + 2 : end]
                widths.update(zip(range(first, first + len(run)), run, strict=True))
                i = end + 1
            else:
                widths.update(dict.fromkeys(range(first, int(tokens[i + 1]) + 1), tokens[i + 2]))
                i += 3
    except (IndexError, ValueError):
        return None
    return widths


def _number(token: bytes) -> int | Decimal:
    return int(token) if token.lstrip(b"-+").isdigit() else Decimal(token.decode())


def _width_array(widths: dict[int, bytes]):
    """{glyph: width} as a /W array: each run of consecutive glyphs as ``first [w w ...]``."""
    import pikepdf

    out: list = []
    run: list = []
    previous = None
    for glyph in sorted(widths):
        if previous is None or glyph != previous + 1:
            if run:
                out.append(pikepdf.Array(run))
            out.append(glyph)
            run = []
        run.append(_number(widths[glyph]))
        previous = glyph
    if run:
        out.append(pikepdf.Array(run))
    return pikepdf.Array(out)


_BLOCK = re.compile(rb"begin(bfchar|bfrange)(.*?)end\1", re.S)
_HEX_PAIR = re.compile(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>")
_HEX_RANGE = re.compile(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f]*>|\[[^\]]*\])")


def _unicode_map(stream) -> dict[int, str] | None:
    """A ToUnicode CMap as {glyph: text}; None when it cannot be read."""
    import pikepdf

    if not isinstance(stream, pikepdf.Stream):
        return None
    try:
        text: dict[int, str] = {}
        for kind, block in _BLOCK.findall(stream.read_bytes()):
            if kind == b"bfchar":
                text.update((int(glyph, 16), _utf16(chars)) for glyph, chars in _HEX_PAIR.findall(block))
                continue
            for low, high, target in _HEX_RANGE.findall(block):
                glyphs = range(int(low, 16), int(high, 16) + 1)
                if target.startswith(b"["):
                    text.update(zip(glyphs, map(_utf16, re.findall(rb"<([0-9A-Fa-f]*)>", target)), strict=False))
                    continue
                value, size = int(target[1:-1], 16), len(target[1:-1]) // 2
                text.update((g, (value + k).to_bytes(size, "big").decode("utf-16-be")) for k, g in enumerate(glyphs))
    except (pikepdf.PdfError, ValueError, OverflowError):
        return None
    return text


def _utf16(hex_text: bytes) -> str:
    if len(hex_text) == 4:  # one character of the basic plane: most entries
        return chr(int(hex_text, 16))
    return bytes.fromhex(hex_text.decode()).decode("utf-16-be")


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


def _union(a: list, b: list) -> list:
    """The smallest box holding boxes ``a`` and ``b`` (x0, y0, x1, y1)."""
    return [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]


def _box(descriptor) -> list | None:
    box = descriptor.get("/FontBBox")
    try:
        values = [float(v) for v in box]
    except (TypeError, ValueError):
        return None
    if len(values) != 4:
        return None
    return [int(v) if v == int(v) else v for v in values]
