"""The output folder: one build at a time, never through a link, every failure one line."""

from __future__ import annotations

import errno
import multiprocessing
from pathlib import Path

import pytest

from wastools.pipeline.output import LOCK, OutputError, OutputFolder, explain


def _outside(tmp_path: Path) -> Path:
    """A folder outside the output folder holding files nobody may touch."""
    outside = tmp_path / "home"
    outside.mkdir()
    (outside / "id_ed25519").write_text("private key")
    (outside / "thesis.tex").write_text("four years")
    return outside


def _untouched(outside: Path) -> bool:
    return (
        sorted(p.name for p in outside.iterdir()) == ["id_ed25519", "thesis.tex"]
        and (outside / "thesis.tex").read_text() == "four years"
    )


def test_writes_land_whole_and_leftovers_of_a_killed_build_go(tmp_path):
    out = tmp_path / "build"
    (out / "hex").mkdir(parents=True)
    (out / "hex" / ".cards.pdf.x1y2.tmp").write_bytes(b"half")  # a killed build's
    with OutputFolder(out) as folder:
        folder.write("hex/cards.pdf", b"%PDF whole")
    assert (out / "hex" / "cards.pdf").read_bytes() == b"%PDF whole"
    assert sorted(p.name for p in (out / "hex").iterdir()) == ["cards.pdf"]


@pytest.mark.parametrize("link", ["build", "build/site", "build/site/units", "build/hex/cards.pdf"])
def test_a_link_anywhere_on_the_way_is_refused_and_nothing_outside_is_touched(tmp_path, link):
    outside = _outside(tmp_path)
    (tmp_path / "build").mkdir(exist_ok=link != "build") if link != "build" else None
    place = tmp_path / link
    place.parent.mkdir(parents=True, exist_ok=True)
    place.symlink_to(outside / "thesis.tex" if link.endswith(".pdf") else outside)
    with pytest.raises(OutputError, match="symbolic link") as caught:
        with OutputFolder(tmp_path / "build") as folder:
            folder.write("site/units/a.html", b"page")
            folder.write("hex/cards.pdf", b"deck")
            folder.delete("site/units/thesis.tex")
    assert link.split("/")[-1] in str(caught.value)
    assert _untouched(outside)


@pytest.mark.parametrize("rel", ["/etc/passwd", "../escape.pdf", "a/../../b", ""])
def test_a_path_outside_the_folder_is_refused(tmp_path, rel):
    with OutputFolder(tmp_path / "build") as folder, pytest.raises(Exception, match="not a path inside"):
        folder.write(rel, b"x")


def _hold(out: str, started, release, leaving) -> None:
    with OutputFolder(Path(out)):
        started.set()
        release.wait(60)
        leaving.value = 1  # set while the lock is still held: the other build cannot have entered


def test_a_second_build_waits_for_the_first_and_says_so(tmp_path):
    """Held to the order of events, not to seconds: the second build says it waits, and enters
    only after the first has left."""
    out = tmp_path / "build"
    fork = multiprocessing.get_context("fork")
    started, release, leaving = fork.Event(), fork.Event(), fork.Value("i", 0)
    first = fork.Process(target=_hold, args=(str(out), started, release, leaving))
    first.start()
    assert started.wait(60)
    said: list[str] = []

    def waiting(message: str) -> None:
        said.append(message)
        release.set()  # the first build may finish now that the second is waiting for it

    with OutputFolder(out, waiting):
        entered_after_the_first_left = leaving.value == 1
    first.join()
    assert said == [f"another build is writing {out}: waiting for it to finish"]
    assert entered_after_the_first_left and (out / LOCK).exists()


@pytest.mark.parametrize(
    "code, cause",
    [
        (errno.ENOSPC, "the disk is full"),
        (errno.EROFS, "the file system is read-only"),
        (errno.EACCES, "permission denied"),
        (errno.EXDEV, "it is on another file system"),
    ],
)
def test_each_failure_of_the_machine_is_one_line_naming_the_path(code, cause):
    message = str(explain(OSError(code, "raw", "/data/build/hex/cards.pdf")))
    assert message == f"cannot write /data/build/hex/cards.pdf: {cause}" and "\n" not in message


def test_a_carried_copy_is_a_hard_link_or_else_a_copy_and_never_goes_through_a_link(tmp_path, monkeypatch):
    import os

    out = tmp_path / "build"
    outside = _outside(tmp_path)
    with OutputFolder(out) as folder:
        folder.write("hex/cards.pdf", b"deck one")
        folder.link("hex/cards.pdf", "site/pdf/hex/cards.pdf")
        assert os.path.samefile(out / "hex/cards.pdf", out / "site/pdf/hex/cards.pdf")
        assert folder.same_file("hex/cards.pdf", "site/pdf/hex/cards.pdf")
        folder.write("hex/cards.pdf", b"deck two")  # remade: a new file, the copy keeps the old one
        assert not folder.same_file("hex/cards.pdf", "site/pdf/hex/cards.pdf")

        def no_hard_links(*args, **kwargs):
            raise OSError(errno.EPERM, "Operation not permitted")

        monkeypatch.setattr(os, "link", no_hard_links)
        folder.link("hex/cards.pdf", "site/pdf/hex/cards.pdf")  # a file system without hard links
        assert (out / "site/pdf/hex/cards.pdf").read_bytes() == b"deck two"
        assert not os.path.samefile(out / "hex/cards.pdf", out / "site/pdf/hex/cards.pdf")
        assert folder.same_file("hex/cards.pdf", "site/pdf/hex/cards.pdf")
        (out / "site" / "evil").symlink_to(outside)
        with pytest.raises(OutputError):
            folder.link("hex/cards.pdf", "site/evil/thesis.tex")
    assert _untouched(outside)
    assert not [p for p in out.rglob("*.tmp")]
