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


def test_a_file_over_the_size_limit_is_measured_not_read(tmp_path, monkeypatch):
    """With ``max_bytes`` a bigger file is never opened (validation refuses it by its size);
    its size stands for it in the fingerprint. The others are hashed a chunk at a time, to
    the same digests as whole."""
    from tests.conftest import copy_data

    root = copy_data(tmp_path / "data")
    whole = fingerprints.data_state(root)
    monkeypatch.setattr(fingerprints, "CHUNK", 7)
    assert fingerprints.data_state(root) == whole
    big = root / "cards" / "uk" / "huge.yaml"
    big.write_bytes(b"#" * 500_000)
    opened: list[str] = []
    real_digest = fingerprints.file_digest
    monkeypatch.setattr(fingerprints, "file_digest", lambda p, n, w: opened.append(n) or real_digest(p, n, w))
    state = fingerprints.data_state(root, max_bytes=499_999)
    assert "cards/uk/huge.yaml" not in opened
    assert state.digests["cards/uk/huge.yaml"].startswith("too big: 500000 bytes")
    assert {k: v for k, v in state.digests.items() if k != "cards/uk/huge.yaml"} == whole.digests
    big.write_bytes(b"#" * 600_000)
    assert fingerprints.data_state(root, max_bytes=499_999).fingerprint != state.fingerprint
    assert not fingerprints.data_state(root, max_bytes=600_000).digests["cards/uk/huge.yaml"].startswith("too big")
