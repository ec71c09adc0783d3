"""What the caches and the stamp are keyed by includes the versions of the rendering libraries."""

from __future__ import annotations

from importlib import metadata

from wastools.core import fingerprints


def test_library_versions_are_the_installed_ones():
    listed = dict(entry.rsplit(" ", 1) for entry in fingerprints.library_versions().split(", "))
    assert list(listed) == [distribution for _module, distribution in fingerprints.RENDERING_LIBRARIES]
    for distribution, version in listed.items():
        assert version == metadata.version(distribution), distribution


def test_another_library_version_misses_every_cache_and_the_stamp(monkeypatch):
    before = fingerprints.code_fingerprint(), fingerprints.tool_fingerprint()
    installed = fingerprints.library_versions()
    try:
        for cached in (fingerprints.code_fingerprint, fingerprints.tool_fingerprint):
            cached.cache_clear()
        monkeypatch.setattr(fingerprints, "library_versions", lambda: installed.replace("weasyprint ", "weasyprint 9"))
        after = fingerprints.code_fingerprint(), fingerprints.tool_fingerprint()
    finally:
        for cached in (fingerprints.code_fingerprint, fingerprints.tool_fingerprint):
            cached.cache_clear()
    assert after[0] != before[0] and after[1] != before[1]


def test_the_data_is_read_once_for_its_fingerprint_and_each_files_digest(tmp_path):
    """``data_state`` reads every data file once: its fingerprint is the files hashed in
    order (``hash_files``) with the refused ones, and each digest is that file's sha256."""
    import hashlib

    from tests.conftest import copy_data
    from wastools.core import fingerprints

    root = copy_data(tmp_path / "data")
    state = fingerprints.data_state(root)
    files, refused = fingerprints._data_files(root)
    assert state.fingerprint == fingerprints.hash_files(files, root) + fingerprints.key(refused)
    assert state.digests == {f.relative_to(root).as_posix(): hashlib.sha256(f.read_bytes()).hexdigest() for f in files}
    unit = root / "cards" / "uk" / "hms-cossack.yaml"
    unit.write_text(unit.read_text() + "\n")
    after = fingerprints.data_state(root)
    assert after.fingerprint != state.fingerprint
    assert {k for k in state.digests if after.digests[k] != state.digests[k]} == {"cards/uk/hms-cossack.yaml"}
