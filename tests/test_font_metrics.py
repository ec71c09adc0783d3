"""The card fonts' metrics are kept between runs (``render.font_metrics``): what is read back
must be what the fonts give, and an entry this machine did not sign is read again."""

from __future__ import annotations

from wastools import signed_pickle
from wastools.render import card_body, card_fit, font_metrics, shared_fonts


def _fresh(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    signed_pickle._key.cache_clear()
    font_metrics._digest.cache_clear()


def test_kept_metrics_are_the_fonts_own(tmp_path, monkeypatch):
    _fresh(tmp_path, monkeypatch)
    for file in ("Vera.ttf", "VeraBd.ttf"):
        read = card_body._read_face(file)
        assert font_metrics.kept("card-body-face", file, lambda f=file: card_body._read_face(f)) == read
        assert font_metrics.kept("card-body-face", file, _never) == read  # now from the cache
        widths = card_fit._read_char_widths(file)
        assert font_metrics.kept("card-fit-widths", file, lambda f=file: card_fit._read_char_widths(f)) == widths
        assert font_metrics.kept("card-fit-widths", file, _never) == widths
    for file in shared_fonts.card_font_files().values():
        font = shared_fonts._read_file_font(file)
        assert font_metrics.kept("file-font", file, lambda f=file: shared_fonts._read_file_font(f)) == font
        assert font_metrics.kept("file-font", file, _never) == font
    signed_pickle._key.cache_clear()


def test_an_entry_this_machine_did_not_sign_is_read_again(tmp_path, monkeypatch):
    _fresh(tmp_path, monkeypatch)
    font_metrics.kept("card-body-face", "Vera.ttf", lambda: card_body._read_face("Vera.ttf"))
    (entry,) = (tmp_path / "cache" / "wastools" / "fonts").glob("card-body-face-Vera-*.pickle")
    entry.write_bytes(b"\0" * 32 + entry.read_bytes()[32:])  # another signature: never unpickled
    read = []
    value = font_metrics.kept("card-body-face", "Vera.ttf", lambda: read.append(1) or card_body._read_face("Vera.ttf"))
    assert read == [1] and value == card_body._read_face("Vera.ttf")
    assert font_metrics.kept("card-body-face", "Vera.ttf", _never) == value  # written again, signed
    signed_pickle._key.cache_clear()


def _never():
    raise AssertionError("the font was read again")
