"""What the tool reads from its own files (the card fonts' metrics, the sheet layouts) is kept
between runs (``render.derived``): what is read back must be what the files give, and a
damaged entry is read again."""

from __future__ import annotations

from wastools.core.resources import LAYOUTS
from wastools.render import card_body, card_fit, derived, shared_fonts, sheets


def _fresh(tmp_path, monkeypatch):
    monkeypatch.setenv("WASTOOLS_CACHE", str(tmp_path / "cache"))
    derived._digest.cache_clear()


def test_kept_metrics_are_the_fonts_own(tmp_path, monkeypatch):
    _fresh(tmp_path, monkeypatch)
    for file in ("Vera.ttf", "VeraBd.ttf"):
        read = card_body._read_face(file)
        assert derived.kept("card-body-face", file, lambda f=file: card_body._read_face(f)) == read
        assert derived.kept("card-body-face", file, _never) == read  # now from the cache
        widths = card_fit._read_char_widths(file)
        assert derived.kept("card-fit-widths", file, lambda f=file: card_fit._read_char_widths(f)) == widths
        assert derived.kept("card-fit-widths", file, _never) == widths
    for paper in sheets.papers():
        layout = sheets._parse_layout(paper)
        source = LAYOUTS / f"{paper}.yaml"
        assert derived.kept("layout", paper, lambda p=paper: sheets._parse_layout(p), source) == layout
        assert derived.kept("layout", paper, _never, source) == layout
    for file in shared_fonts.card_font_files().values():
        font = shared_fonts._read_file_font(file)
        assert derived.kept("file-font", file, lambda f=file: shared_fonts._read_file_font(f)) == font
        assert derived.kept("file-font", file, _never) == font


def test_a_damaged_entry_is_read_again(tmp_path, monkeypatch):
    _fresh(tmp_path, monkeypatch)
    derived.kept("card-body-face", "Vera.ttf", lambda: card_body._read_face("Vera.ttf"))
    (entry,) = (tmp_path / "cache" / "tool" / "derived").glob("card-body-face-vera-*")
    entry.write_bytes(entry.read_bytes()[:-7] + b"damaged")  # its bytes no longer match its digest
    read = []
    value = derived.kept("card-body-face", "Vera.ttf", lambda: read.append(1) or card_body._read_face("Vera.ttf"))
    assert read == [1] and value == card_body._read_face("Vera.ttf")
    assert derived.kept("card-body-face", "Vera.ttf", _never) == value  # kept again


def _never():
    raise AssertionError("the font was read again")
