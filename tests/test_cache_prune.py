"""The build's caches keep what the last few whole builds, and the narrower builds since,
used, and nothing else."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import copy_data
from tests.test_incremental import CHANGED, OPTIONS, SELECTION, _validated
from wastools import build as builder
from wastools.cache_prune import KEEP, USED, entry_stem, prune_folder, record_and_prune
from wastools.render import sheets


def _entries(folder: Path) -> set[str]:
    return {entry_stem(p.name) for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")}


def _fill(folder: Path, keys: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for key in keys:
        (folder / f"{key}.pdf").write_bytes(b"x")
        (folder / f"{key}.json").write_bytes(b"{}")


def test_an_entry_no_recent_build_used_is_deleted_with_its_companions(tmp_path):
    cache = tmp_path / ".cache"
    _fill(cache / "cards", ["a", "b", "c", "d", "e"])
    (cache / "cards" / ".entry-half-written").write_bytes(b"")  # a writer's temporary file
    (cache / "other").mkdir()
    (cache / "other" / "z.pdf").write_bytes(b"x")  # a folder no build names: left alone
    removed = []
    for used in ({"a", "b"}, {"b"}, {"c"}, {"c", "d"}):
        _fill(cache / "cards", sorted(used))  # as a build makes what it lacks
        removed.append(record_and_prune(cache, {"cards": used}))
    # after the fourth, the last KEEP builds used b, c and d: a goes, with its .json
    assert KEEP == 3
    assert _entries(cache / "cards") == {"b", "c", "d"}
    assert removed == [3 * 2, 0, 0, 1 * 2]  # c, d and e at first; a once no recent build used it
    assert (cache / "cards" / ".entry-half-written").exists() and (cache / "other" / "z.pdf").exists()
    assert len(list((cache / USED).glob("*.json"))) == KEEP


def test_narrower_builds_delete_nothing_and_keep_their_entries_past_the_next_whole_ones(tmp_path):
    """Any number of narrower builds (one variant, one nation) between whole builds: the
    whole build's entries stay; a narrower build's stay while it is newer than the oldest of
    the last KEEP whole builds."""
    cache = tmp_path / ".cache"

    def build(used: set[str], whole: bool) -> int:
        _fill(cache / "cards", sorted(used))
        return record_and_prune(cache, {"cards": used}, whole)

    assert build({"a", "b"}, True) == 0
    for _ in range(KEEP + 5):
        assert build({"n"}, False) == 0  # nothing deleted, however many
    assert _entries(cache / "cards") == {"a", "b", "n"}
    for _ in range(KEEP - 1):  # the first whole build is still among the last KEEP: b and n stay
        build({"a"}, True)
        assert _entries(cache / "cards") == {"a", "b", "n"}
    build({"a"}, True)  # the oldest whole build kept is now newer than the narrow ones
    assert _entries(cache / "cards") == {"a"}
    records = list((cache / USED).glob("*.json"))
    assert len(records) == KEEP and all(p.stem.endswith("-whole") for p in records)


def test_records_follow_each_other_on_a_clock_that_stands_still(tmp_path, monkeypatch):
    import time

    monkeypatch.setattr(time, "time_ns", lambda: 1_000)  # a coarse clock: every build in one tick
    cache = tmp_path / ".cache"
    for used in ({"a"}, {"b"}, {"c"}, {"d"}):
        _fill(cache / "cards", sorted(used))
        record_and_prune(cache, {"cards": used})
    assert _entries(cache / "cards") == {"b", "c", "d"}  # the three last, in the order they ran


def test_a_record_that_cannot_be_read_deletes_nothing(tmp_path):
    cache = tmp_path / ".cache"
    _fill(cache / "sheets", ["a", "b"])
    record_and_prune(cache, {"sheets": {"a", "b"}})
    record = next((cache / USED).glob("*.json"))
    record.write_text("{not json")
    assert record_and_prune(cache, {"sheets": {"a"}}) == 0
    assert _entries(cache / "sheets") == {"a", "b"}


def test_a_folder_that_cannot_be_read_or_written_is_no_error(tmp_path):
    assert prune_folder(tmp_path / "missing", {"a"}) == 0
    (tmp_path / "a-file").write_bytes(b"")
    assert record_and_prune(tmp_path / "a-file" / ".cache", {"cards": {"a"}}) == 0


def _unit_cards(repo) -> set[str]:
    """HMS Cossack's card keys in the selection's variants, from the build's own keying."""
    bleed = sheets.load_layout(builder.layout_name("letter", OPTIONS)).get("bleed", 0)
    unit = repo.units[CHANGED]
    return {
        spec.key
        for variant in SELECTION.chosen_variants()
        for spec in builder.deck_cards(repo, variant, OPTIONS.variant_params(variant), [unit], False, bleed)
    }


@pytest.mark.slow
def test_builds_keep_what_recent_builds_used_and_rebuild_nothing_from_it(tmp_path):
    """Five states of HMS Cossack's points, a build each: the cards of the states older than
    the last KEEP builds go, the recent ones stay, so do the packs' parts the manifest names,
    and the outputs of the last build can be made again from the cache alone (no card laid
    out, no sheet imposed)."""
    root = copy_data(tmp_path / "data")
    out = tmp_path / "build"
    unit = root / "cards" / "uk" / f"{CHANGED}.yaml"
    states = []
    for _ in range(KEEP + 2):
        repo = _validated(root)
        report = builder.build(repo, root, out, SELECTION, OPTIONS, whole=True)  # as if the settings asked for it
        states.append(_unit_cards(repo))
        _lower_points(unit)  # (raised, a scenario's side would go over its points limit)
    assert report.pruned > 0
    cards = _entries(out / ".cache" / "cards")
    assert all(states) and not set.union(*states[:-KEEP]) & cards
    assert set.union(*states[-KEEP:]) <= cards
    manifest = json.loads((out / "manifest.json").read_text())["outputs"]
    named = {entry_stem(p) for entry in manifest.values() for p in entry.get("parts", ())}
    assert named and named <= _entries(out / ".cache" / "parts")

    for rel in manifest:
        os.unlink(out / rel)
    _lower_points(unit, by=-1)  # back to the last build's points
    again = builder.build(_validated(root), root, out, SELECTION, OPTIONS, whole=True)
    assert again.cards_rendered == 0 and again.sheets_imposed == 0
    assert again.written == len(manifest)


def _lower_points(path: Path, by: int = 1) -> None:
    text = path.read_text()
    points = int(next(line for line in text.splitlines() if line.startswith("points:")).split(":")[1])
    path.write_text(text.replace(f"points: {points}\n", f"points: {points - by}\n", 1))


def test_a_whole_validation_keeps_one_entry_per_file(tmp_path):
    """An edited file's old entry goes once the new one is made (before, every edit added one)."""
    from wastools import repository

    root = copy_data(tmp_path / "data")
    folder = tmp_path / "validate"
    repository.validate(root, cache=folder)
    entries = _entries(folder)
    assert entries
    unit = root / "cards" / "uk" / f"{CHANGED}.yaml"
    unit.write_text(unit.read_text() + "# a note\n")
    repository.validate(root, cache=folder)
    after = _entries(folder)
    assert len(after) == len(entries) and len(after - entries) == 1


def test_a_site_of_every_unit_keeps_only_the_pages_it_used(repo, tmp_path):
    import dataclasses

    from site_check import small_spec

    from wastools.site import SiteSpec, render_site

    spec = small_spec(repo)
    pages = tmp_path / "pages"
    render_site(repo, spec, pages=pages)
    before = _entries(pages)
    changed = dataclasses.replace(repo.units["uss-bagley-dd-386"], points=99)
    edited = dataclasses.replace(repo, units=dict(repo.units, **{changed.id: changed}))
    units = tuple(changed if u.id == changed.id else u for u in spec.units)
    render_site(edited, SiteSpec(units, spec.variants), pages=pages)  # a partial site keeps them all
    assert len(_entries(pages)) == len(before) + 1
    render_site(edited, SiteSpec(units, spec.variants), pages=pages, prune=True)
    after = _entries(pages)
    assert len(after) == len(before) and len(after - before) == 1


@pytest.mark.slow
def test_only_a_build_of_what_the_settings_ask_for_deletes(cli, tmp_path):
    """On the command line, --variant, --paper and the unit filters make a build narrower: it
    records what it used and deletes nothing; a plain build deletes what it did not use."""
    root = copy_data(tmp_path / "data", ("cards", "schemas"))
    for unit in (root / "cards").glob("*/*.yaml"):  # two units: a whole build is quick
        if unit.stem not in ("hms-cossack", "bismarck"):
            unit.unlink()
    cache = root / "build" / ".cache"
    stale = cache / "cards" / "0123-left-by-an-older-build.pdf"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"x")
    for narrowing in (("--variant", "hex"), ("--paper", "a4"), ("--nation", "uk"), ("--unit", "bismarck")):
        result = cli("build", "--jobs", "1", *narrowing, root=root)
        assert result.exit_code == 0, result.output
    records = sorted(p.name for p in (cache / USED).glob("*.json"))
    assert len(records) == 4 and all(name.endswith("-narrow.json") for name in records) and stale.exists()
    result = cli("build", "--jobs", "1", root=root)
    assert result.exit_code == 0, result.output
    assert not stale.exists() and any(p.name.endswith("-whole.json") for p in (cache / USED).glob("*.json"))
