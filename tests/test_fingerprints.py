"""What the caches and the stamp are keyed by includes the versions of the rendering libraries."""

from __future__ import annotations

from importlib import metadata

from wastools import fingerprints


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
