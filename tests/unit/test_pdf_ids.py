"""Every PDF the build joins with qpdf carries an /ID made from its output key: both halves
the same, the same bytes for the same inputs, a different id for a different key."""

from __future__ import annotations

import hashlib
import io

import pikepdf

from wastools.render import sheets


def _page() -> bytes:
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(180, 252))
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_a_joined_pdf_is_identified_by_its_key():
    first, pages = sheets.assemble([_page(), _page()], "t", "deck key one")
    again, _ = sheets.assemble([_page(), _page()], "t", "deck key one")
    other, _ = sheets.assemble([_page(), _page()], "t", "deck key two")
    assert pages == 2 and first == again and first != other
    with pikepdf.open(io.BytesIO(first)) as pdf:
        ids = [bytes(part) for part in pdf.trailer.ID]
    assert ids == [hashlib.md5(b"deck key one").digest()] * 2
    assert sheets._QPDF_STATIC_ID not in first
