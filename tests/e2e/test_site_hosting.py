"""The site hosted on its own: every link of every page of ``build/site/`` answers, the PDFs
it offers included, served as a plain folder (``python -m http.server -d build/site``) and by
``wastools serve``."""

from __future__ import annotations

import functools
import http.client
import http.server
import shutil
import threading
from collections.abc import Callable, Iterator
from urllib.parse import urljoin, urlsplit

import pytest

from tests.e2e.conftest import run_build
from tests.e2e.test_serve import Server, data_copy
from tests.site_check import parse

LINKED = ("href", "src")


def links_of(page: str) -> set[str]:
    """Every address the page links or loads, as written (fragments on the same page left out)."""
    return {
        element.get(attr)
        for element in parse(page).iter()
        for attr in LINKED
        if element.get(attr) and not element.get(attr).startswith("#")
    }


def crawl(get: Callable[[str], tuple[int, str, bytes]], start: str = "/index.html") -> dict[str, int]:
    """Every address inside the site reached from ``start`` through the pages' links, with
    the status it answered; ``get`` fetches a path. Sources on other sites are not followed."""
    seen: dict[str, int] = {}
    todo = [start]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        status, kind, body = get(path)
        seen[path] = status
        if status != 200 or not kind.startswith("text/html"):
            continue
        for address in links_of(body.decode("utf-8")):
            target = urlsplit(urljoin(path, address))
            if target.scheme in ("http", "https") and target.netloc:
                continue  # a source on the web, followed only by the reader
            assert not target.scheme and not target.netloc, (path, address)
            todo.append(target.path)
    return seen


@pytest.fixture
def hosted(full_build, tmp_path) -> Iterator[tuple[str, int]]:
    """The full build's ``site/`` alone, copied away from the rest of ``build/``, served as a
    plain folder on a port of this machine."""
    alone = tmp_path / "hosted"
    shutil.copytree(full_build / "build" / "site", alone)
    handler = functools.partial(Quiet, directory=str(alone))
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            yield "127.0.0.1", server.server_address[1]
        finally:
            server.shutdown()


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # no line on stderr a request
        pass


def fetcher(host: str, port: int) -> Callable[[str], tuple[int, str, bytes]]:
    def get(path: str) -> tuple[int, str, bytes]:
        connection = http.client.HTTPConnection(host, port, timeout=120)
        try:
            connection.request("GET", path)
            answer = connection.getresponse()
            return answer.status, answer.getheader("Content-Type", ""), answer.read()
        finally:
            connection.close()

    return get


def test_every_link_of_the_site_hosted_alone_answers(hosted, full_build):
    seen = crawl(fetcher(*hosted))
    assert {path: status for path, status in seen.items() if status != 200} == {}
    site = full_build / "build" / "site"
    pages = {f"/{p.relative_to(site).as_posix()}" for p in site.rglob("*.html")}
    assert pages <= set(seen)  # every page was reached, and its links followed
    pdfs = {path for path in seen if path.endswith(".pdf")}
    # every deck, aid and pack the build made, offered from the pages and carried by the site
    assert {"/pdf/hex/cards.pdf", "/pdf/hex/cards-a4.pdf", "/pdf/hex/player-aid.pdf"} <= pdfs
    assert "/pdf/scenarios/savo-island-1942.pdf" in pdfs
    carried = fetcher(*hosted)("/pdf/hex/cards.pdf")[2]
    assert carried == (full_build / "build" / "hex" / "cards.pdf").read_bytes()


def test_the_crawl_finds_a_dead_link(tmp_path):
    (tmp_path / "index.html").write_text('<!DOCTYPE html><html lang="en"><title>t</title><a href="pdf/x.pdf">x</a>')
    handler = functools.partial(Quiet, directory=str(tmp_path))
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            seen = crawl(fetcher("127.0.0.1", server.server_address[1]))
        finally:
            server.shutdown()
    assert seen == {"/index.html": 200, "/pdf/x.pdf": 404}


def test_every_link_answers_under_serve_after_a_build(tmp_path):
    """``wastools serve`` serves only ``build/site``: after a build the pages link the PDFs the
    site carries, and each answers; the pages of a site without them link none."""
    root = data_copy(tmp_path / "data")
    result = run_build(root, "--paper", "letter")
    assert result.exit_code == 0, result.output
    server = Server(root)
    try:

        def get(path: str) -> tuple[int, str, bytes]:
            status, body = server.get(path)
            return status, "text/html" if path.endswith(".html") else "", body.encode("utf-8")

        seen = crawl(get)
    finally:
        assert server.stop() == 0
    assert {path: status for path, status in seen.items() if status != 200} == {}
    pdfs = {path for path in seen if path.endswith(".pdf")}
    assert {"/pdf/hex/cards.pdf", "/pdf/hex/player-aid.pdf", "/pdf/scenarios/savo-island-1942.pdf"} <= pdfs
    assert not any(path.endswith("-a4.pdf") for path in seen)  # a Letter build: no A4 link to a missing file
