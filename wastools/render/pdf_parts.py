"""Pages kept ready to join, and the writer that joins them into one PDF.

A deck is some thirty cached sheets joined into one file, and a one-unit change joins all
twelve decks again. Opened and copied by qpdf, then saved, a sheet's objects were parsed,
copied and written once per deck, about a tenth of a second each time. A sheet is instead
cached as a *part*: its pages' objects already written as PDF text, with every reference
to another object left as a numbered slot. Joining parts (``link``) only numbers the
objects, fills the slots and writes the file: a few milliseconds a deck.

Slots that point outside the part name what the joined file holds once, whatever the
number of parts that use it: a card font file's one font dictionary, or its program
(``shared_fonts``: a sheet's card fonts are placeholders until then). Streams that point
at nothing (font programs, images, the sheet margins' fonts) are kept once when they are
byte for byte the same.

A part is read back from the cache as data, never as code: its object text must be made
of PDF tokens only (names, numbers, hex strings, brackets, ``true``, ``false``, ``null``
and slots), so a cache entry cannot add an operator, a keyword or an object of its own.
A part read from the store (which checks every entry's bytes against the digest it was
kept with, and lives outside every data repository) is ``trusted``: the token check,
most of the time of joining a deck, is skipped; any other part is checked token by token.
"""

from __future__ import annotations

import hashlib
import json
import re
import struct
import zlib
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..core.errors import WastoolsError
from . import shared_fonts

MAGIC = b"WASPART1"
# a slot: \0N\0 refers to the part's object N, \1N\1 to its symbol N
_SLOT = re.compile(rb"\x00(\d+)\x00|\x01(\d+)\x01")
_TOKENS = re.compile(
    rb"(?:[ \t\r\n]*(?:<<|>>|\[|\]|/[^\x00-\x20/\[\]<>(){}%\x7f-\xff]*|[+-]?(?:\d+(?:\.\d*)?|\.\d+)"
    rb"|<[0-9A-Fa-f]*>|true|false|null|\x00\d+\x00|\x01\d+\x01))*[ \t\r\n]*"
)
# page keys a page may take from its page tree, as the PDF reference allows
_INHERITED = ("/Resources", "/MediaBox", "/CropBox", "/Rotate")
FONT, PROGRAM = "font:", "program:"  # symbols: a card font file's dictionary, its program


@dataclass(frozen=True)
class Part:
    """Pages ready to join: ``objects`` are (text, stream data or None), the text with
    slots for references; ``pages`` the indices of the page objects, in order; ``symbols``
    what the symbol slots stand for."""

    objects: tuple[tuple[bytes, bytes | None], ...]
    pages: tuple[int, ...]
    symbols: tuple[str, ...] = ()

    def to_bytes(self) -> bytes:
        """The part as bytes (a store entry), read back by ``read_part``."""
        blob = bytearray()
        listed: list[list[Any]] = []
        for text, data in self.objects:
            if data is None:
                listed.append([text.decode("latin-1"), None])
            else:
                listed.append([text.decode("latin-1"), [len(blob), len(data)]])
                blob += data
        head = json.dumps({"objects": listed, "pages": self.pages, "symbols": self.symbols}).encode("ascii")
        return MAGIC + struct.pack(">I", len(head)) + head + bytes(blob)


class BadPart(WastoolsError, ValueError):
    """A cached part that is not one this module wrote."""


def read_part(data: bytes, trusted: bool = False) -> Part:
    """A part from ``to_bytes``'s bytes, checked token by token (see the module's docstring)
    unless ``trusted`` (read from the store, which checked its bytes)."""
    part = _parse(data)
    _check(part, tokens=not trusted)
    return part


def _parse(data: bytes) -> Part:
    """The part ``to_bytes`` wrote, read without checking its objects' text."""
    if not data.startswith(MAGIC) or len(data) < len(MAGIC) + 4:
        raise BadPart("not a wastools page part")
    (length,) = struct.unpack(">I", data[len(MAGIC) : len(MAGIC) + 4])
    start = len(MAGIC) + 4
    try:
        head = json.loads(data[start : start + length])
        blob = memoryview(data)[start + length :]
        symbols = tuple(str(s) for s in head["symbols"])
        objects: list[tuple[bytes, bytes | None]] = []
        for text, where in head["objects"]:
            raw = text.encode("latin-1")
            if where is None:
                objects.append((raw, None))
            else:
                offset, size = int(where[0]), int(where[1])
                if offset < 0 or size < 0 or offset + size > len(blob):
                    raise BadPart("a stream runs past the part's end")
                objects.append((raw, bytes(blob[offset : offset + size])))
        pages = tuple(int(p) for p in head["pages"])
        if sum(len(data) for _text, data in objects if data is not None) != len(blob):
            raise BadPart("a part's streams do not fill it to its end")  # cut short, or more after it
    except (ValueError, KeyError, TypeError, IndexError, UnicodeError) as exc:
        raise BadPart(f"a page part that cannot be read: {exc}") from None
    return Part(tuple(objects), pages, symbols)


def _check(part: Part, tokens: bool = True) -> None:
    """What a part names, where its pages are, and (``tokens``) that each object's text is
    PDF data whose slots point inside the part: the text is what this machine's own parts
    skip, being most of the time."""
    files = set(shared_fonts.card_font_files().values())
    for symbol in part.symbols:
        kind, _, file = symbol.partition(":")
        if kind + ":" not in (FONT, PROGRAM) or file not in files:
            raise BadPart(f"a page part names something that is not a card font: {symbol[:80]!r}")
    if any(not 0 <= p < len(part.objects) for p in part.pages):
        raise BadPart("a page part's page is not one of its objects")
    for text, _data in part.objects if tokens else ():
        if _TOKENS.fullmatch(text) is None:
            raise BadPart("a page part holds more than PDF data")
        for obj, symbol in _SLOT.findall(text):
            if (obj and int(obj) >= len(part.objects)) or (symbol and int(symbol) >= len(part.symbols)):
                raise BadPart("a page part points past its objects")


# --- from a pikepdf document ------------------------------------------------------------------


def from_pdf(pdf, known_fonts: dict[tuple[int, int], str] | None = None) -> Part:
    """Every page of a pikepdf document as a part. A card font whose program is a placeholder
    (``shared_fonts.leave_out``) becomes a slot for its file's one dictionary, when it agrees
    with it (``known_fonts``: files of dictionaries known to agree, by object number), and its
    program a slot for the file's program; a stream without a filter is compressed."""
    return _Writer(pdf, known_fonts or {}).part()


def card_fonts_part(pdf, forms: list) -> Part:
    """The part of a pikepdf document whose ``forms`` (pages or Form XObjects) draw card fonts
    that the file it is joined into holds once (``shared_fonts.leave_out``)."""
    shared = shared_fonts.leave_out(pdf, forms)
    return from_pdf(pdf, {font.objgen: file for file, font in shared.items()})


def part_of_pdf(data: bytes) -> Part:
    """Every page of a PDF file as a part (see ``from_pdf``)."""
    import io

    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        return from_pdf(pdf)


class _Writer:
    def __init__(self, pdf, known_fonts: dict[tuple[int, int], str]):
        import pikepdf

        self.pikepdf = pikepdf
        self.pdf = pdf
        self.known_fonts = dict(known_fonts)
        self.index: dict[tuple[int, int], int] = {}  # object number -> index in the part
        self.objects: list[tuple[bytes, bytes | None] | None] = []
        self.symbols: dict[str, int] = {}
        self.todo: list = []

    def part(self) -> Part:
        for page in self.pdf.pages:
            self._inherit(page.obj)
        pages = self.walk([page.obj for page in self.pdf.pages])
        return Part(self.written(), tuple(pages), tuple(self.symbols))

    def walk(self, roots: list) -> list[int]:
        """Write ``roots`` and every object they reach; returns the roots' indices."""
        indices = [self._ref(root) for root in roots]
        while self.todo:
            obj = self.todo.pop()
            self.objects[self.index[obj.objgen]] = self._object(obj)
        return indices

    def written(self) -> tuple[tuple[bytes, bytes | None], ...]:
        done = tuple(entry for entry in self.objects if entry is not None)
        assert len(done) == len(self.objects)  # walk writes every object it finds
        return done

    def _inherit(self, page) -> None:
        """Attributes a page takes from its tree, written on the page itself (the part's pages
        get a parent of their own when joined)."""
        for key in _INHERITED:
            if key in page:
                continue
            node = page.get("/Parent")
            while node is not None and key not in node:
                node = node.get("/Parent")
            if node is not None:
                page[key] = node[key]

    def _ref(self, obj) -> int:
        """The slot of an indirect object: its index in the part, queued to be written."""
        objgen = obj.objgen
        if objgen not in self.index:
            self.index[objgen] = len(self.objects)
            self.objects.append(None)
            self.todo.append(obj)
        return self.index[objgen]

    def _symbol(self, name: str) -> bytes:
        return b"\x01%d\x01" % self.symbols.setdefault(name, len(self.symbols))

    def _object(self, obj) -> tuple[bytes, bytes | None]:
        pikepdf = self.pikepdf
        if isinstance(obj, pikepdf.Stream):
            data = obj.read_raw_bytes()
            fields = {k: v for k, v in obj.stream_dict.items() if k not in ("/Length", "/DL")}
            if "/Filter" not in fields:
                data = zlib.compress(data, 6)
                fields["/Filter"] = pikepdf.Name.FlateDecode
            return self._dict(fields, skip_parent=False), data
        if isinstance(obj, pikepdf.Dictionary):
            return self._dict(dict(obj.items()), skip_parent=obj.get("/Type") == "/Page"), None
        return self._value(obj, top=True), None

    def _dict(self, fields: dict, skip_parent: bool) -> bytes:
        out = [b"<<"]
        for key in sorted(fields):
            if skip_parent and key == "/Parent":
                continue
            out.append(self.pikepdf.Name(key).unparse())
            out.append(self._value(fields[key]))
        out.append(b">>")
        return b" ".join(out)

    def _value(self, value: Any, top: bool = False) -> bytes:
        pikepdf = self.pikepdf
        if isinstance(value, pikepdf.Object) and value.is_indirect and not top:
            return self._reference(value)
        if isinstance(value, bool):
            return b"true" if value else b"false"
        if isinstance(value, int):
            return b"%d" % value
        if value is None:
            return b"null"
        if isinstance(value, pikepdf.Name):
            return value.unparse()
        if isinstance(value, pikepdf.String):
            return b"<" + bytes(value).hex().encode("ascii") + b">"
        if isinstance(value, pikepdf.Array):
            return b"[" + b" ".join(self._value(v) for v in value) + b"]"
        if isinstance(value, pikepdf.Dictionary):
            return self._dict(dict(value.items()), skip_parent=False)
        if isinstance(value, pikepdf.Stream):  # a stream is always indirect
            raise ValueError("a direct stream")
        number = format(value, "f") if not isinstance(value, float) else repr(value)
        return _number(number).encode("ascii")

    def _reference(self, obj) -> bytes:
        """The slot for a reference to ``obj``: a symbol for a card font's shared parts."""
        program = shared_fonts.placeholder_program_file(obj) if isinstance(obj, self.pikepdf.Stream) else None
        if program is not None:
            return self._symbol(PROGRAM + program)
        file = self._shared_font(obj)
        if file is not None:
            return self._symbol(FONT + file)
        return b"\x00%d\x00" % self._ref(obj)

    def _shared_font(self, obj) -> str | None:
        """The card font file whose one dictionary can stand for ``obj``, if it is such a font
        with a placeholder program; None for anything else."""
        if obj.objgen in self.known_fonts:
            return self.known_fonts[obj.objgen]
        if not isinstance(obj, self.pikepdf.Dictionary) or obj.get("/Subtype") != "/Type0":
            return None
        file = shared_fonts.placeholder_file(obj)
        if file is not None and shared_fonts.file_font(file).agrees(obj):
            self.known_fonts[obj.objgen] = file
            return file
        return None


def _number(text: str) -> str:
    """A real as PDF writes it: no exponent, no trailing zeros after the point."""
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text if text not in ("", "-", "-0") else "0"


# --- joining ----------------------------------------------------------------------------------


@cache
def card_font_part(file: str) -> Part:
    """A card font file's one dictionary (object 0) and its whole program, as a part whose
    program is object 1: what a joined file holds once for the symbols naming the file."""
    import pikepdf

    pdf = pikepdf.new()
    program = pikepdf.Stream(pdf, b"")
    compressed, length = shared_fonts.compressed_program(file)
    program.write(compressed, filter=pikepdf.Name.FlateDecode)
    program.Length1 = length
    program = pdf.make_indirect(program)
    font = shared_fonts.file_font(file).dictionary(pdf, program)
    writer = _Writer(pdf, {})
    assert writer.walk([font, program]) == [0, 1]
    return Part(writer.written(), ())


class _Numbering:
    """Object numbers of the joined file, and the objects in the order they are written."""

    def __init__(self, first: int):
        self.next = first
        self.written: list[tuple[int, bytes, bytes | None]] = []
        self.streams: dict[bytes, int] = {}  # a stream that points at nothing, by digest
        self.fonts: dict[str, int] = {}  # by symbol

    def add(self, part: Part) -> list[int]:
        """Numbers for each object of ``part`` (and the shared objects its symbols need)
        and the part's objects queued to be written; returns the numbers by index."""
        numbers: list[int] = [0] * len(part.objects)
        pending = []
        for i, (text, data) in enumerate(part.objects):
            if data is not None and _SLOT.search(text) is None:
                digest = hashlib.sha256(text + b"\0" + data).digest()
                if digest in self.streams:
                    numbers[i] = self.streams[digest]
                    continue
                self.streams[digest] = self.next
            numbers[i] = self.next
            self.next += 1
            pending.append(i)
        symbols = [self._symbol(symbol) for symbol in part.symbols]
        for i in pending:
            text, data = part.objects[i]
            self.written.append((numbers[i], _fill(text, numbers, symbols), data))
        return numbers

    def _symbol(self, symbol: str) -> int:
        """The number of what ``symbol`` names: a card font file's objects are added once."""
        if symbol not in self.fonts:
            file = symbol.partition(":")[2]
            font, program = self.add(card_font_part(file))[:2]
            self.fonts[FONT + file], self.fonts[PROGRAM + file] = font, program
        return self.fonts[symbol]


def _fill(text: bytes, numbers: list[int], symbols: list[int]) -> bytes:
    """``text`` with each slot as a reference to the joined file's object it stands for."""
    return _SLOT.sub(lambda m: b"%d 0 R" % (numbers[int(m.group(1))] if m.group(1) else symbols[int(m.group(2))]), text)


def link(parts: list[Part], doc_id: bytes, metadata: dict[str, str]) -> tuple[bytes, int]:
    """The pages of ``parts``, in order, as one PDF; returns (pdf, pages). ``doc_id`` is
    both halves of the file's /ID; ``metadata`` its document information (/Title ...)."""
    catalog, tree, info = 1, 2, 3
    numbering = _Numbering(first=4)
    kids: list[int] = []
    for part in parts:
        numbers = numbering.add(part)
        kids += [numbers[p] for p in part.pages]
    pages = set(kids)
    written = [
        (number, text[:-2] + b" /Parent %d 0 R>>" % tree if number in pages else text, data)
        for number, text, data in numbering.written
    ]
    kid_refs = b" ".join(b"%d 0 R" % k for k in kids)
    info_fields = b" ".join(_name(k) + b" " + _text_string(v) for k, v in sorted(metadata.items()))
    written += [
        (catalog, b"<< /Type /Catalog /Pages %d 0 R /ViewerPreferences << /PrintScaling /None >> >>" % tree, None),
        (tree, b"<< /Type /Pages /Count %d /Kids [%s] >>" % (len(kids), kid_refs), None),
        (info, b"<< %s >>" % info_fields, None),
    ]
    return _write(sorted(written), numbering.next, catalog, info, doc_id), len(kids)


def _name(key: str) -> bytes:
    import pikepdf

    return pikepdf.Name(key).unparse()


def _text_string(value: str) -> bytes:
    """A PDF text string: plain ASCII as it is, anything else in UTF-16 with its mark."""
    if value.isascii() and value.isprintable():
        return b"(" + value.encode("ascii").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"
    return b"<FEFF" + value.encode("utf-16-be").hex().upper().encode("ascii") + b">"


def _write(objects: list[tuple[int, bytes, bytes | None]], size: int, root: int, info: int, doc_id: bytes) -> bytes:
    """A PDF 1.7 file: the streams as they are, every other object in one compressed object
    stream, and a cross-reference stream."""
    out = bytearray(b"%PDF-1.7\n%\xbf\xf7\xa2\xfe\n")
    where: dict[int, tuple[int, int, int]] = {}  # number -> (type, field 2, field 3)
    packed = [(n, text) for n, text, data in objects if data is None]
    stream_number = size
    for number, text, data in objects:
        if data is None:
            continue
        where[number] = (1, len(out), 0)
        out += b"%d 0 obj\n%s" % (number, text[:-2].rstrip())
        out += b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream\nendobj\n"
    offsets, body, at = [], bytearray(), 0
    for index, (number, text) in enumerate(packed):
        where[number] = (2, stream_number, index)
        offsets.append(b"%d %d" % (number, at))
        body += text + b"\n"
        at += len(text) + 1
    first = b" ".join(offsets) + b"\n"
    compressed = zlib.compress(first + bytes(body), 6)
    where[stream_number] = (1, len(out), 0)
    out += b"%d 0 obj\n<< /Type /ObjStm /N %d /First %d /Filter /FlateDecode /Length %d >>\nstream\n" % (
        stream_number,
        len(packed),
        len(first),
        len(compressed),
    )
    out += compressed + b"\nendstream\nendobj\n"
    xref_number = stream_number + 1
    where[xref_number] = (1, len(out), 0)
    rows = bytearray(struct.pack(">BIH", 0, 0, 0xFFFF))
    for number in range(1, xref_number + 1):
        kind, field2, field3 = where.get(number, (0, 0, 0))
        rows += struct.pack(">BIH", kind, field2, field3)
    table = zlib.compress(bytes(rows), 6)
    ident = b"<" + doc_id.hex().encode("ascii") + b">"
    out += (
        b"%d 0 obj\n<< /Type /XRef /Size %d /W [1 4 2] /Root %d 0 R /Info %d 0 R /ID [%s %s] "
        b"/Filter /FlateDecode /Length %d >>\nstream\n"
        % (xref_number, xref_number + 1, root, info, ident, ident, len(table))
    )
    out += table + b"\nendstream\nendobj\n"
    out += b"startxref\n%d\n%%%%EOF\n" % where[xref_number][1]
    return bytes(out)
