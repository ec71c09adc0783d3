"""Parts: pages kept as PDF text with slots, joined into one file by our own writer. The
joined file must read as the pages did, keep shared things once, and a part read back from
the cache must hold nothing but PDF data."""

from __future__ import annotations

import io
from decimal import Decimal

import pikepdf
import pypdfium2
import pytest
from hypothesis import given
from hypothesis import strategies as st

from wastools.render import pdf_parts, sheets


def _document(pages: int = 2, text: str = "Hello", inherit: bool = False) -> pikepdf.Pdf:
    """A small PDF: each page writes ``text`` and its number in Helvetica, and draws a
    square; with ``inherit``, its media box and resources are on the page tree, not on it."""
    pdf = pikepdf.new()
    font = pdf.make_indirect(
        pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica)
    )
    resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
    for n in range(pages):
        content = f"BT /F1 24 Tf 72 700 Td ({text} {n + 1}) Tj ET 100 100 {50 + 10 * n} 50 re f".encode()
        page = pikepdf.Dictionary(Type=pikepdf.Name.Page, Contents=pdf.make_stream(content))
        if not inherit:
            page.MediaBox = pikepdf.Array([0, 0, 612, 792])
            page.Resources = resources
        pdf.pages.append(pikepdf.Page(page))
    if inherit:
        pdf.Root.Pages.MediaBox = pikepdf.Array([0, 0, 300, 400])
        pdf.Root.Pages.Resources = resources
    return pdf


def _saved(pdf: pikepdf.Pdf) -> bytes:
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def _pixels(data: bytes) -> list[bytes]:
    document = pypdfium2.PdfDocument(data)
    try:
        return [document[i].render(scale=1).to_pil().tobytes() for i in range(len(document))]
    finally:
        document.close()


def _joined(*parts: pdf_parts.Part, title: str = "t") -> bytes:
    return pdf_parts.link(list(parts), b"\1" * 16, {"/Title": title})[0]


def test_joined_pages_look_and_read_as_their_parts():
    one, two = _document(2, "One"), _document(3, "Two")
    joined = _joined(pdf_parts.from_pdf(one), pdf_parts.from_pdf(two))
    assert _pixels(joined) == _pixels(_saved(one)) + _pixels(_saved(two))
    with pikepdf.open(io.BytesIO(joined)) as pdf:
        assert len(pdf.pages) == 5 and pdf.check_pdf_syntax() == []
        assert bytes(pdf.trailer.ID[0]) == bytes(pdf.trailer.ID[1]) == b"\1" * 16
        assert pdf.Root.ViewerPreferences.PrintScaling == "/None"
        assert all(page.obj.Parent == pdf.Root.Pages for page in pdf.pages)


def test_a_page_keeps_what_it_took_from_its_page_tree():
    source = _document(1, "Tree", inherit=True)
    joined = _joined(pdf_parts.from_pdf(source))
    with pikepdf.open(io.BytesIO(joined)) as pdf:
        assert list(pdf.pages[0].MediaBox) == [0, 0, 300, 400]
        assert "/F1" in pdf.pages[0].Resources.Font
    assert _pixels(joined) == _pixels(_saved(source))


def test_a_part_reads_back_as_it_was_written_and_joins_to_the_same_bytes():
    part = pdf_parts.from_pdf(_document(2))
    again = pdf_parts.read_part(part.to_bytes())
    assert again == part
    assert _joined(again) == _joined(part)


def test_streams_that_point_at_nothing_are_kept_once_and_everything_else_per_part():
    joined = _joined(*(pdf_parts.from_pdf(_document(1, "Same")) for _ in range(3)))
    with pikepdf.open(io.BytesIO(joined)) as pdf:
        contents = {page.obj.Contents.objgen for page in pdf.pages}
        fonts = {page.Resources.Font.F1.objgen for page in pdf.pages}
    assert len(contents) == 1  # the same content, byte for byte: once
    assert len(fonts) == 3  # a dictionary is not merged: only leaf streams are


def test_the_title_is_a_pdf_text_string_in_any_script():
    for title in ("Plain (with parentheses) \\ and a backslash", "Mers-el-Kébir, 1940", "大和"):
        with pikepdf.open(io.BytesIO(_joined(pdf_parts.from_pdf(_document(1)), title=title))) as pdf:
            assert str(pdf.docinfo.Title) == title


@pytest.mark.parametrize(
    "text",
    [
        b"<< /A 1 >> endobj 9 0 obj << /S /JavaScript >>",  # a keyword: a new object
        b"<< /A (a literal string) >>",  # only hex strings are written
        b"<< /A 3 0 R >>",  # a reference that is not a slot
        b"<< /A \x009\x00 >>",  # a slot past the part's objects
        b"<< /A \x013\x01 >>",  # a symbol the part does not name
        b"<< /JS {code} >>",
    ],
)
def test_a_part_that_holds_more_than_pdf_data_is_refused(text):
    planted = pdf_parts.Part(((text, None), (b"<< /Type /Page >>", None)), (1,))
    with pytest.raises(pdf_parts.BadPart):
        pdf_parts.read_part(planted.to_bytes())


def test_a_part_from_the_store_is_read_without_its_tokens_checked(monkeypatch):
    """The store checks its entries' bytes, so the build reads its own parts ``trusted`` (the
    token check is most of a deck's joining); any other part is checked in full."""
    part = pdf_parts.from_pdf(_document(2))
    data = part.to_bytes()
    checked = []
    real = pdf_parts._TOKENS
    monkeypatch.setattr(
        pdf_parts, "_TOKENS", type("T", (), {"fullmatch": lambda _s, t: checked.append(t) or real.fullmatch(t)})()
    )
    assert pdf_parts.read_part(data, trusted=True) == part and checked == []
    assert pdf_parts.read_part(data) == part and len(checked) == len(part.objects)
    assert pdf_parts.read_part(data).to_bytes() == data  # the same bytes again


def test_a_damaged_part_is_refused_with_a_reason():
    good = pdf_parts.from_pdf(_document(1)).to_bytes()
    for damaged in (b"%PDF-1.7", good[:20], good[:12] + b"[" + good[13:], good[:-5]):
        with pytest.raises(pdf_parts.BadPart):
            pdf_parts.read_part(damaged)
    with pytest.raises(pdf_parts.BadPart, match="page"):
        pdf_parts.read_part(pdf_parts.Part(((b"<< >>", None),), (3,)).to_bytes())


def test_pdfs_and_parts_join_alike_through_assemble():
    source = _document(2)
    from_pdf, _pages = sheets.assemble([_saved(source)], "t", "id")
    from_part, pages = sheets.assemble([pdf_parts.from_pdf(source).to_bytes()], "t", "id")
    assert from_pdf == from_part and pages == 2


# any PDF value a page may carry, nested
_names = st.from_regex(r"/[A-Za-z][A-Za-z0-9#_.\-]{0,8}", fullmatch=True)
_scalars = st.one_of(
    st.integers(-(2**31), 2**31 - 1),
    st.decimals(min_value=-10000, max_value=10000, places=4, allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.binary(max_size=12).map(pikepdf.String),
    _names.map(pikepdf.Name),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(pikepdf.Array),
        st.dictionaries(_names, inner, max_size=4).map(lambda d: pikepdf.Dictionary(d)),
    ),
    max_leaves=12,
)


def _plain(value):
    """A PDF value as Python data, to compare across documents."""
    if isinstance(value, pikepdf.Array):
        return [_plain(v) for v in value]
    if isinstance(value, pikepdf.Dictionary):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, pikepdf.String):
        return ("string", bytes(value))
    if isinstance(value, pikepdf.Name):
        return ("name", str(value))
    if isinstance(value, Decimal):
        return value.normalize()
    return value


@given(_values)
def test_every_pdf_value_a_page_carries_survives_the_join(value):
    source = _document(1)
    source.pages[0].obj["/WasTest"] = value
    expected = _plain(source.pages[0].obj.WasTest)
    with pikepdf.open(io.BytesIO(_joined(pdf_parts.from_pdf(source)))) as pdf:
        assert _plain(pdf.pages[0].obj.WasTest) == expected
