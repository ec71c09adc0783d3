"""The store: what it returns is what was kept under that kind and key, or nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wastools.core.store import Store, UnsafePath, no_links


def _store(tmp_path: Path, cap: int = 10**9) -> Store:
    return Store(tmp_path, tmp_path / "store", cap)


def _entry(store: Store, kind: str, key: str) -> Path:
    return store.folder / kind / key


def test_an_entry_reads_back_as_kept(tmp_path):
    store = _store(tmp_path)
    assert store.get("face", "abc123") is None
    assert store.put("face", "abc123", b"%PDF-1.7 card")
    assert store.get("face", "abc123") == b"%PDF-1.7 card"
    assert store.put_object("model", "k1", {"a": [1, 2]}) and store.get_object("model", "k1") == {"a": [1, 2]}


@given(st.binary(max_size=200), st.integers(min_value=0, max_value=400))
def test_a_damaged_or_truncated_entry_reads_as_missing(data, cut):
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        store = _store(Path(folder))
        store.put("sheet", "k", data)
        path = _entry(store, "sheet", "k")
        whole = path.read_bytes()
        if cut >= len(whole):
            return
        path.write_bytes(whole[:cut])  # truncated
        assert store.get("sheet", "k") is None and not path.exists()  # and gone: made again


def test_a_swapped_entry_reads_as_missing(tmp_path):
    store = _store(tmp_path)
    store.put("face", "aaaa", b"card A")
    store.put("face", "bbbb", b"card B")
    a, b = _entry(store, "face", "aaaa"), _entry(store, "face", "bbbb")
    a_bytes = a.read_bytes()
    a.write_bytes(b.read_bytes())
    b.write_bytes(a_bytes)
    assert store.get("face", "aaaa") is None and store.get("face", "bbbb") is None


@pytest.mark.parametrize("bad", ["", "../x", "a/b", "UPPER", "a b", "\x00"])
def test_names_are_plain(tmp_path, bad):
    with pytest.raises(ValueError):
        _store(tmp_path).get("face", bad)


def test_a_link_in_the_store_is_never_followed(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret").write_text("private")
    store = _store(tmp_path)
    store.put("face", "kk", b"x")
    kind = store.folder / "face"
    kind.rename(tmp_path / "moved")
    kind.symlink_to(outside)
    assert store.get("face", "kk") is None
    assert not store.put("face", "kk", b"y")  # refused: the build carries on without it
    assert sorted(p.name for p in outside.iterdir()) == ["secret"]
    assert store.prune() >= 0 and (outside / "secret").read_text() == "private"
    assert Store(tmp_path, store.folder, cap=0).prune() == 0  # over the cap: the link is passed over
    assert (outside / "secret").read_text() == "private"


def test_the_least_recently_used_go_first_above_the_cap(tmp_path):
    store = _store(tmp_path, cap=3000)
    for i in range(6):
        store.put("face", f"k{i}", bytes(1000))
        os.utime(_entry(store, "face", f"k{i}"), (1000 + i, 1000 + i))
    store.get("face", "k0")  # used just now: kept
    removed = store.prune()
    kept = sorted(p.name for p in (store.folder / "face").rglob("k*") if p.is_file())
    assert removed == 4 and kept == ["k0", "k5"]


def test_entries_of_the_older_layout_go_at_the_next_prune(tmp_path):
    """Entries were once kept a folder deeper (``kind/ab/abcd``): a store of that layout is
    read as empty, and its folders go when it is next pruned."""
    store = _store(tmp_path)
    old = store.folder / "face" / "ab" / "abcd"
    old.parent.mkdir(parents=True)
    old.write_bytes(b"old entry")
    store.put("face", "ef01", b"new entry")
    assert store.get("face", "abcd") is None
    assert store.prune() == 1
    assert not old.parent.exists() and store.get("face", "ef01") == b"new entry"


def test_no_links_names_the_link(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    no_links(tmp_path, tmp_path / "real" / "a" / "b")  # fine: nothing there is a link
    with pytest.raises(UnsafePath, match="link: is a symbolic link"):
        no_links(tmp_path, tmp_path / "link" / "file.pdf")
    with pytest.raises(UnsafePath, match="outside"):
        no_links(tmp_path / "real", tmp_path / "elsewhere")


def test_a_build_looks_at_every_entry_only_now_and_then(tmp_path):
    """``prune_now_and_then``: the first call prunes, the next within the hour leaves the
    store alone (looking at every entry grows with the store), a later one prunes again."""
    store = _store(tmp_path, cap=1500)
    for i in range(3):
        store.put("face", f"k{i}", bytes(1000))
    assert store.prune_now_and_then() == 2
    for i in range(3, 6):
        store.put("face", f"k{i}", bytes(1000))
    assert store.prune_now_and_then() == 0  # pruned a moment ago
    assert store.prune_now_and_then(every=0.0) == 3


def test_a_kind_folder_removed_and_made_again_is_the_one_used(tmp_path):
    """Entries are opened relative to a descriptor of their kind's folder held by the process:
    a folder removed (a user clearing the cache mid-session) is let go, not written into."""
    import shutil

    store = _store(tmp_path)
    assert store.put("face", "k1", b"one")
    shutil.rmtree(store.folder)
    assert store.get("face", "k1") is None
    assert store.put("face", "k2", b"two") and _entry(store, "face", "k2").is_file()
    assert store.get("face", "k2") == b"two"


def test_a_process_holds_few_folders_open_however_many_stores_it_uses(tmp_path):
    before = len(os.listdir("/proc/self/fd"))
    for i in range(300):
        store = _store(tmp_path / f"s{i}")
        assert store.put("face", "k", b"x") and store.get("face", "k") == b"x"
    assert len(os.listdir("/proc/self/fd")) - before <= 64
    assert _store(tmp_path / "s0").get("face", "k") == b"x"  # let go of, and opened again
