"""What `wastools serve` sends, without a socket: which paths name a file of the site, links
and hidden files refused, and the problems and reload script added to a page as text."""

from __future__ import annotations

from pathlib import Path

import pytest

from wastools.core.problems import Problem, Severity
from wastools.data.yamlio import DEFAULT_LIMITS
from wastools.site.serve import Outcome, Site, read_inside, site_path


@pytest.mark.parametrize(
    ("path", "rel"),
    [
        ("/", "index.html"),
        ("/scenarios/savo.html", "scenarios/savo.html"),
        ("//units/x.html", "units/x.html"),
        ("/units/", "units/index.html"),
        ("/../build/manifest.json", None),
        ("/units/../../wastools.toml", None),
        ("/./index.html", None),
        ("/.wastools-lock", None),
        ("/assets/.site.css.abc.tmp", None),
        ("/a\\..\\b", None),
        ("/a\0b", None),
        ("index.html", None),
    ],
)
def test_paths_inside_the_site_only(path, rel):
    assert site_path(path) == rel


def test_links_and_folders_are_not_read(tmp_path: Path):
    folder = tmp_path / "build" / "site"
    (folder / "units").mkdir(parents=True)
    (folder / "index.html").write_text("home")
    (tmp_path / "secret.txt").write_text("secret")
    (folder / "secret.txt").symlink_to(tmp_path / "secret.txt")
    (folder / "linked").symlink_to(tmp_path, target_is_directory=True)
    assert read_inside(tmp_path, folder, "index.html") == b"home"
    assert read_inside(tmp_path, folder, "secret.txt") is None
    assert read_inside(tmp_path, folder, "linked/secret.txt") is None
    assert read_inside(tmp_path, folder, "units") is None
    assert read_inside(tmp_path, folder, "missing.html") is None


def _site(tmp_path: Path, problems: list[Problem]) -> Site:
    folder = tmp_path / "build" / "site"
    (folder / "scenarios").mkdir(parents=True)
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "raid.yaml").write_text("id: raid\n")
    page = '<!DOCTYPE html><html><body><a class="skip">Skip</a><main id="main"><h1>Raid</h1></main></body></html>'
    (folder / "scenarios" / "raid.html").write_text(page)
    site = Site(tmp_path, folder, DEFAULT_LIMITS, builds=3)
    site.outcome = Outcome(problems)
    return site


def test_a_page_shows_the_problems_escaped_and_polls_for_the_next_build(tmp_path: Path):
    error = Problem("scenarios/raid.yaml", 4, 9, "title", "'<script>x</script>' is too long")
    warning = Problem("scenarios/raid.yaml", 9, 3, "map.play_area", "the pack runs long", Severity.WARNING)
    other = Problem("cards/uk/x.yaml", 2, 1, "points", "a warning elsewhere", Severity.WARNING)
    site = _site(tmp_path, [error, warning, other])
    status, kind, body = site.respond("/scenarios/raid.html?x=1")
    text = body.decode()
    assert (status, kind) == (200, "text/html; charset=utf-8")
    assert "scenarios/raid.yaml:4:9: title: &#x27;&lt;script&gt;x&lt;/script&gt;&#x27; is too long" in text
    assert "<script>x</script>" not in text
    assert "scenarios/raid.yaml:9:3: warning: map.play_area: the pack runs long" in text
    assert "a warning elsewhere" not in text  # another file's warning is not this page's
    assert text.index("Skip") < text.index("wastools-serve") < text.index("<h1>Raid")
    assert "var seen = 3;" in text and text.index("/__reload") < text.index("</body>")
    assert (tmp_path / "build/site/scenarios/raid.html").read_text().count("wastools-serve") == 0
    assert "a warning elsewhere" not in site.respond("/index.html")[2].decode()
    assert site.respond("/__reload")[2] == b'{"build": 3, "errors": 1, "warnings": 2}'


def test_a_scenario_left_out_keeps_its_last_page_under_its_errors(tmp_path: Path):
    site = _site(tmp_path, [Problem("scenarios/raid.yaml", 4, 9, "title", "too long")])
    site.last_good["scenarios/raid.html"] = (site.folder / "scenarios" / "raid.html").read_bytes()
    (site.folder / "scenarios" / "raid.html").unlink()
    status, _kind, body = site.respond("/scenarios/raid.html")
    assert status == 200 and b"<h1>Raid" in body and b"scenarios/raid.yaml:4:9: title: too long" in body
    assert b"left it out" in body
    del site.last_good["scenarios/raid.html"]
    status, _kind, body = site.respond("/scenarios/raid.html")
    assert status == 200 and b"scenarios/raid.yaml:4:9: title: too long" in body and b"<h1>Raid" not in body
    assert site.respond("/scenarios/other.html")[0] == 404
    assert site.respond("/../wastools.toml")[0] == 403


def test_a_pack_link_serves_the_pack_build_wrote_or_says_how_to_make_it(tmp_path: Path):
    """The scenario page links its pack at ../../scenarios/<id>.pdf: from the served page that is
    /scenarios/<id>.pdf, answered from build/scenarios/ beside the site."""
    site = _site(tmp_path, [])
    status, _kind, body = site.respond("/scenarios/raid.pdf")
    assert status == 404 and b"run wastools build --scenario raid, then reload" in body
    (tmp_path / "build" / "scenarios").mkdir()
    (tmp_path / "build" / "scenarios" / "raid-a4.pdf").write_bytes(b"%PDF-1.7 raid")
    assert site.respond("/scenarios/raid-a4.pdf") == (200, "application/pdf", b"%PDF-1.7 raid")
    assert site.respond("/scenarios/raid.pdf")[0] == 404  # the Letter pack is not built
    assert site.respond("/scenarios/../raid-a4.pdf")[0] == 403


def test_only_data_files_are_watched(tmp_path: Path):
    from wastools.site.serve import snapshot

    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "raid.yaml").write_text("id: raid\n")
    before = snapshot(tmp_path)
    for name in (".raid.yaml.swp", "raid.yaml~", "notes.txt", ".raid.yaml.1234.tmp"):
        (tmp_path / "scenarios" / name).write_text("x")
    assert snapshot(tmp_path) == before
    (tmp_path / "wastools.toml").write_text("[build]\n")
    (tmp_path / "scenarios" / "raid.yaml").write_text("id: raid\ntitle: Raid\n")
    after = snapshot(tmp_path)
    assert sorted(Path(p).name for p in after) == ["raid.yaml", "wastools.toml"] and after != before


@pytest.mark.parametrize(
    ("host", "port", "allowed"),
    [
        ("127.0.0.1:8000", 8000, True),
        ("localhost:8000", 8000, True),
        ("LocalHost:8000", 8000, True),
        ("localhost", 80, True),
        ("localhost", 8000, False),
        ("127.0.0.1:8001", 8000, False),
        ("evil.example:8000", 8000, False),
        ("localhost.evil.example:8000", 8000, False),
        ("127.0.0.1.nip.io:8000", 8000, False),
        ("[::1]:8000", 8000, False),  # the server listens on 127.0.0.1 only
        ("", 8000, False),
        (None, 8000, False),
    ],
)
def test_only_the_loopback_name_and_port_served_are_a_host(host, port, allowed):
    from wastools.site.serve import host_allowed

    assert host_allowed(host, port) is allowed


def test_a_named_pipe_or_a_socket_is_never_opened(tmp_path: Path):
    import os
    import socket

    folder = tmp_path / "build" / "site"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "pipe.html")  # opened without O_NONBLOCK, it would wait for a writer for good
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(folder / "socket.html"))
        assert read_inside(tmp_path, folder, "pipe.html") is None
        assert read_inside(tmp_path, folder, "socket.html") is None
