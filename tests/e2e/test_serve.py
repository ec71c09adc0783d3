"""`wastools serve`: the site on 127.0.0.1, built again when a data file is saved, the data's
problems on the served pages, nothing served from outside build/site, and a clean Ctrl-C.

Each server runs as its own process on a copy of the fixture repository that builds the
site for one variant (a site-only build of a few seconds)."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import copy_data

SCENARIO = "savo-island-1942"
TIMEOUT = 120  # seconds for a build on a busy shared machine


class Server:
    """``wastools serve --port 0`` in a process of its own, its output collected."""

    def __init__(self, root: Path):
        self.root = root
        command = [sys.executable, "-m", "wastools", "--root", str(root), "serve", "--port", "0", "--no-open"]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: list[str] = []
        for stream in (self.process.stdout, self.process.stderr):
            threading.Thread(target=self._collect, args=(stream,), daemon=True).start()
        found = wait_for(lambda: re.search(r"serving build/site at http://([\d.]+):(\d+)/", self.output()))
        self.host, self.port = found.group(1), int(found.group(2))

    def _collect(self, stream) -> None:
        for line in stream:
            self.lines.append(line)

    def output(self) -> str:
        return "".join(self.lines)

    def get(self, path: str) -> tuple[int, str]:
        """The status and body for ``path`` sent exactly as given (no client tidies it)."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT)
        try:
            connection.request("GET", path)
            answer = connection.getresponse()
            return answer.status, answer.read().decode("utf-8", "replace")
        finally:
            connection.close()

    def builds(self) -> int:
        return json.loads(self.get("/__reload")[1])["build"]

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        return self.process.wait(TIMEOUT)


def wait_for(check, timeout: float = TIMEOUT):
    """``check()``'s first true value, tried every 0.2 s until ``timeout``."""
    ends = time.monotonic() + timeout
    while time.monotonic() < ends:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"not seen within {timeout} s")


def data_copy(target: Path) -> Path:
    root = copy_data(target)
    (root / "wastools.toml").write_text('[build]\nvariants = ["hex"]\n')
    return root


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Server(data_copy(tmp_path_factory.mktemp("serve") / "data"))
    # the first build reported: its pages answer a moment before its line is printed, which
    # a test of what the server says must not take for a word of its own
    wait_for(lambda: "site built in" in running.output())
    yield running
    running.stop()


def test_saved_changes_reach_the_open_page_and_errors_are_shown(server):
    path = server.root / "scenarios" / f"{SCENARIO}.yaml"
    original = path.read_text()
    page = f"/scenarios/{SCENARIO}.html"
    status, body = server.get(page)  # waits for the first build
    assert status == 200 and "Savo Island, 9 August 1942" in body and "<svg" in body
    assert "/__reload" in body and f"No problems in scenarios/{SCENARIO}.yaml" in body
    built = server.builds()
    try:
        path.write_text(original.replace("title: Savo Island, 9 August 1942", "title: Savo Island retold"))
        wait_for(lambda: "Savo Island retold" in server.get(page)[1])
        assert server.builds() > built
        assert "Savo Island retold" in (server.root / "build/site" / page.lstrip("/")).read_text()
        assert "/__reload" not in (server.root / "build/site" / page.lstrip("/")).read_text()  # files unchanged
        path.write_text(original.replace("  width: 40\n", "  width: <b>forty</b>\n"))
        located = f"scenarios/{SCENARIO}.yaml:18:10: map.width: &#x27;&lt;b&gt;forty&lt;/b&gt;&#x27; is not of type"
        status, body = wait_for(lambda: (answer := server.get(page)) and located in answer[1] and answer)
        assert status == 200 and "<b>forty" not in body  # escaped as text
        assert "Savo Island retold" in body and "<svg" in body  # the last good page stays in view
        assert not (server.root / "build/site" / page.lstrip("/")).exists()  # left out of the site
        assert located in server.get("/index.html")[1]  # and the error is on every page
        # and on the console: printed once the site is written, so a moment after the page shows it
        wait_for(lambda: f"{SCENARIO}.yaml:18:10: map.width:" in server.output())
    finally:
        path.write_text(original)
    status, body = wait_for(lambda: (answer := server.get(page)) and "No problems" in answer[1] and answer)
    assert status == 200 and "Savo Island, 9 August 1942" in body and "forty" not in body
    assert "forty" not in server.get("/index.html")[1]


@pytest.mark.parametrize(
    "path",
    [
        "/../wastools.toml",
        "/scenarios/../../scenarios/savo-island-1942.yaml",
        "/%2e%2e/%2e%2e/cards/nations.yaml",
        "//etc/passwd",
        "/.wastools-lock",
        "/../manifest.json",
        "/units/",
        "/units",
        "/etc/passwd",
    ],
)
def test_nothing_outside_the_site_is_served(server, path):
    status, body = server.get(path)
    assert status in (403, 404), (path, status)
    assert "nations:" not in body and "root:" not in body and "schema" not in body.lower()


def test_tabletop_simulator_images_are_drawn_when_asked_for(server):
    """The fixture's site has no [site] address, so no card images: the fleet builder's
    Tabletop Simulator button asks serve for them, which draws each (720 x 1008 JPEG) and
    answers 404 for a unit or deck the site does not have."""
    import io

    from PIL import Image

    assert server.get("/index.html")[0] == 200  # built
    assert not (server.root / "build" / "site" / "tts").exists()
    connection = http.client.HTTPConnection(server.host, server.port, timeout=TIMEOUT)
    try:
        connection.request("GET", "/tts/hex/units/bismarck.jpg")
        answer = connection.getresponse()
        body = answer.read()
    finally:
        connection.close()
    assert answer.status == 200 and answer.getheader("Content-Type") == "image/jpeg"
    with Image.open(io.BytesIO(body)) as image:
        assert image.format == "JPEG" and image.size == (720, 1008)
    assert server.get("/tts/hex/back.jpg")[0] == 200
    for missing in ("/tts/hex/units/no-such-ship.jpg", "/tts/base/units/bismarck.jpg", "/tts/hex/units/bismarck.png"):
        assert server.get(missing)[0] == 404, missing
    assert not (server.root / "build" / "site" / "tts").exists()  # drawn into the store, not the site


def test_a_link_inside_the_site_is_not_followed(server):
    assert server.get("/index.html")[0] == 200  # the first build has made the site (whatever ran before)
    link = server.root / "build" / "site" / "linked.txt"
    link.symlink_to(server.root / "wastools.toml")
    try:
        assert server.get("/linked.txt")[0] == 404
    finally:
        link.unlink()


def test_it_listens_on_this_machine_only(server, cli):
    assert server.host == "127.0.0.1"
    table = Path("/proc/net/tcp")
    if table.is_file():  # Linux: the listening socket's own address is 127.0.0.1, not every address
        rows = [line.split() for line in table.read_text().splitlines()[1:]]
        bound = [
            row[1].split(":")[0] for row in rows if row[3] == "0A" and int(row[1].split(":")[1], 16) == server.port
        ]
        assert bound in (["0100007F"], ["7F000001"])  # 127.0.0.1, in either byte order
    taken = cli("serve", "--port", str(server.port), "--no-open", root=server.root)
    assert taken.exit_code == 1
    assert taken.output.strip() == (
        f"error: port {server.port} on 127.0.0.1 is taken (another server?): choose another with --port N"
    )


def test_ctrl_c_stops_it_cleanly_even_mid_build(tmp_path):
    running = Server(data_copy(tmp_path / "data"))
    running.process.send_signal(signal.SIGINT)  # the first build is under way
    assert running.stop() == 0
    wait_for(lambda: "stopped" in running.output(), 5)
    assert "Traceback" not in running.output() and "KeyboardInterrupt" not in running.output()


# --- a good local citizen (issue 45) ------------------------------------------------------------


def _raw(server: Server, request: bytes, timeout: float = TIMEOUT) -> bytes:
    """What the server answers to ``request`` sent as it is, until it closes the connection."""
    with socket.create_connection((server.host, server.port), timeout=timeout) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
        return answer


@pytest.mark.parametrize(
    "host, status",
    [
        ("evil.example:PORT", 421),
        ("127.0.0.1.nip.io:PORT", 421),
        ("127.0.0.1:1", 421),
        ("127.0.0.1", 421),
        ("localhost:PORT", 200),
        ("LOCALHOST:PORT", 200),
        ("127.0.0.1:PORT", 200),
    ],
)
def test_only_requests_for_the_loopback_name_and_port_are_answered(server, host, status):
    assert server.get("/index.html")[0] == 200  # the site is built
    named = host.replace("PORT", str(server.port))
    for path in ("/index.html", "/__reload"):
        answer = _raw(server, f"GET {path} HTTP/1.0\r\nHost: {named}\r\n\r\n".encode())
        assert answer.split(b" ", 2)[1] == str(status).encode(), (named, answer[:200])
        if status != 200:
            assert b"<html" not in answer and b'"build"' not in answer and len(answer) < 1000


@pytest.mark.parametrize("headers", ["", "Host: 127.0.0.1:PORT\r\nHost: evil.example\r\n"])
def test_a_request_without_one_host_is_refused(server, headers):
    answer = _raw(server, f"GET /index.html HTTP/1.0\r\n{headers.replace('PORT', str(server.port))}\r\n".encode())
    assert answer.split(b" ", 2)[1] == b"400", answer[:200]


@pytest.mark.parametrize("kind", ["named pipe", "socket"])
def test_a_file_that_is_not_a_plain_file_is_not_opened_and_holds_nothing_up(server, kind, tmp_path):
    assert server.get("/index.html")[0] == 200
    path = server.root / "build" / "site" / f"trap-{kind.replace(' ', '-')}.html"
    if kind == "named pipe":
        os.mkfifo(path)  # an open without O_NONBLOCK waits for a writer for good
    else:
        listening = socket.socket(socket.AF_UNIX)
        listening.bind(str(path))
    try:
        assert server.get(f"/{path.name}")[0] == 404
        assert server.get("/index.html")[0] == 200  # and the next request is answered
    finally:
        path.unlink()
        if kind == "socket":
            listening.close()


def test_clients_that_reset_or_stop_reading_are_let_go_without_a_word(server):
    assert server.get("/index.html")[0] == 200
    before = server.output()
    host = f"Host: 127.0.0.1:{server.port}\r\n\r\n".encode()
    for n in range(20):
        connection = socket.create_connection((server.host, server.port), timeout=TIMEOUT)
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close sends RST
        connection.sendall(b"GET /units.json HTTP/1.0\r\n" + (host if n % 2 else b""))
        connection.close()
    assert server.get("/index.html")[0] == 200
    wait_for(lambda: server.get("/__reload")[0] == 200)
    assert server.output() == before, server.output()[len(before) :]


def test_a_half_sent_request_is_dropped(server):
    """The server closes a connection whose request stops coming (the client reads the close;
    its own timeout is only there to fail the test should the server never close)."""
    with socket.create_connection((server.host, server.port), timeout=TIMEOUT) as connection:
        connection.sendall(b"GET /index.html HTTP/1.0\r\nHost: 127.0.0.1")
        assert connection.recv(65536) == b""  # closed by the server, unanswered
    with socket.create_connection((server.host, server.port), timeout=TIMEOUT) as idle:
        assert idle.recv(65536) == b""  # nothing sent at all: dropped too


def test_a_request_sent_a_byte_at_a_time_is_dropped(server):
    """A client that keeps each read within the server's timeout but never finishes its
    headers is cut off at the request's deadline: before this trickle of 40 bytes, one every
    second, reaches its end (the per-read timeout alone would wait for ever)."""
    with socket.create_connection((server.host, server.port), timeout=TIMEOUT) as connection:
        connection.sendall(b"GET /index.html HTTP/1.0\r\n")
        dropped = False
        for _ in range(40):
            time.sleep(1)
            try:
                connection.sendall(b"X")
            except OSError:  # reset by the server
                dropped = True
                break
            connection.setblocking(False)
            try:
                dropped = connection.recv(1) == b""
            except BlockingIOError:
                pass
            finally:
                connection.setblocking(True)
            if dropped:
                break
    assert dropped


def test_two_hundred_clients_at_once_are_all_answered(server):
    assert server.get("/index.html")[0] == 200
    clients = 200
    ready = threading.Barrier(clients)
    answers: list[int] = []

    def one() -> None:
        ready.wait()
        answers.append(server.get("/__reload")[0])

    threads = [threading.Thread(target=one) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [200] * clients
