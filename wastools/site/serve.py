"""``wastools serve``: the site on 127.0.0.1, built again whenever a data file is saved, with
every problem of the data shown on the pages it concerns.

The loop a scenario designer works in: save ``scenarios/<id>.yaml``, and the open page of
that scenario shows its map, forces and points again, with every error and warning of the
file above them. The watcher polls the data's files (their size and change time; links are
not followed) and, once a change has settled, runs the ordinary incremental build of the
site (``pipeline.build`` with the site as its one target, as ``wastools build --site-only``
does). Each finished build advances a counter; the served HTML pages carry a small script
that polls ``/__reload`` for it and reloads the page when it moves. That script and the
problems are added to the HTML as it is sent: the files in ``build/site`` stay as a build
writes them.

While the data has errors, every HTML page is sent with them at its top (file:line:column:
field: message, escaped as text). A scenario with errors is left out of the site by the
build (as from a pack); its page is then served from the last build that had it, under its
errors, so the map stays in view while the mistake is fixed.

Only files under ``build/site`` are served, never through a symbolic link, never a hidden
file, never a folder's listing, never anything but a plain file (a named pipe, a device or a
socket is not opened). Only requests whose Host is the loopback address and port served
(``127.0.0.1:PORT`` or ``localhost:PORT``) are answered: a page of another name that resolves
to 127.0.0.1 cannot read the site. Requests wait while a build runs (a second or a few), then
read the outcome they show under the lock and their file after it, so no lock is held while
a file is read or an answer sent. A client that resets or stops reading is let go without a
word; a client silent for ``REQUEST_SECONDS``, or whose request is not all there within
``REQUEST_DEADLINE`` (one sent a byte at a time), is dropped; the listen queue and a thread
per connection answer a few hundred clients at once.
"""

from __future__ import annotations

import errno
import html
import json
import mimetypes
import os
import signal
import socket
import stat
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path, PurePosixPath
from typing import Any, cast
from urllib.parse import unquote, urlsplit

import click

from ..core import scratch
from ..core.errors import WastoolsError
from ..core.problems import DataError, Problem, capped
from ..core.store import Store, UnsafePath, no_links

HOST = "127.0.0.1"  # this machine only: the loop is for the person at it, never the network
RELOAD = "/__reload"
WATCHED = ("cards", "scenarios", "schemas", "rules")  # and wastools.toml at the root
SETTINGS = "wastools.toml"
DATA_SUFFIXES = (".yaml", ".json")
POLL_SECONDS = 0.5
REQUEST_SECONDS = 10  # a client silent this long mid-request (or idle) is dropped
REQUEST_DEADLINE = 20  # and one whose request line and headers take longer than this in all
BACKLOG = 512  # connections the system queues before the server accepts them
LOOPBACK_NAMES = ("127.0.0.1", "localhost")
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".txt": "text/plain; charset=utf-8",
    ".woff2": "font/woff2",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
}

# (selection, options) of the build, from the settings as they are now (wastools.toml may
# change while serving); raises DataError for a settings file with problems
Configure = Callable[[], tuple[Any, Any]]


class ServeError(WastoolsError):
    """The server cannot start (the port is taken): one line."""


@dataclass
class Outcome:
    """What one build of the site found and did."""

    problems: list[Problem] = field(default_factory=list)  # errors and warnings of the data
    failure: str = ""  # why nothing was rebuilt, when nothing was
    changed: int = 0  # files of the site written or removed
    seconds: float = 0.0
    images: Any = None  # tabletop.OnDemand: the Tabletop Simulator images of a site without them

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.is_error]


@dataclass(frozen=True)
class _Moment:
    """What a request shows of the site's state, read under its lock: the last build's
    outcome, the build counter and the scenario pages kept from the last good build."""

    outcome: Outcome
    builds: int
    last_good: dict[str, bytes]
    images: Any  # tabletop.OnDemand of the last good build, or None


@dataclass
class Site:
    """What the server and the watcher share: the site folder, the last build's outcome, the
    build counter open pages poll, and the scenario pages as last built (served under their
    errors while a scenario is left out of the site)."""

    root: Path
    folder: Path  # build/site
    limits: Any
    builds: int = 0
    outcome: Outcome = field(default_factory=Outcome)
    last_good: dict[str, bytes] = field(default_factory=dict)  # scenarios/<id>.html -> page
    images: Any = None  # tabletop.OnDemand of the last build that made the site
    lock: threading.Lock = field(default_factory=threading.Lock)

    def respond(self, raw: str) -> tuple[int, str, bytes]:
        """The status, content type and body for a request of ``raw`` (its path and query)."""
        path = unquote(urlsplit(raw).path)
        with self.lock:  # waits while a build runs; only what the answer shows is read under it
            now = _Moment(self.outcome, self.builds, dict(self.last_good), self.images)
        if path == RELOAD:
            return 200, TYPES[".json"], self._counter(now)
        rel = site_path(path)
        if rel is None:
            return 403, TYPES[".html"], self._missing(now, "", "this address is outside the site")
        body = read_inside(self.root, self.folder, rel)
        if body is None and pack_of(rel) is not None:
            return self._pack(now, rel)
        if body is None and now.images is not None and rel.startswith("tts/"):
            try:
                body = now.images.image(rel)  # drawn now, outside the lock (a build may start meanwhile)
            except WastoolsError as exc:  # the store and the temporary folder are full
                return 503, TYPES[".html"], self._missing(now, rel, f"this image could not be drawn: {exc}")
        if body is None:
            return self._not_built(now, rel)
        if rel.endswith(".html"):
            body = self._decorated(now, body, rel)
        return 200, content_type(rel), body

    def _pack(self, now: _Moment, rel: str) -> tuple[int, str, bytes]:
        """A scenario page's pack link: the pack ``build`` wrote beside the site
        (build/scenarios/), or how to make it."""
        body = read_inside(self.root, self.folder.parent, rel)
        if body is not None:
            return 200, content_type(rel), body
        why = f"this pack is not built yet: run wastools build --scenario {pack_of(rel)}, then reload"
        return 404, TYPES[".html"], self._missing(now, rel, why)

    def _counter(self, now: _Moment) -> bytes:
        errors = len(now.outcome.errors)
        state = {"build": now.builds, "errors": errors, "warnings": len(now.outcome.problems) - errors}
        return json.dumps(state).encode()

    def _not_built(self, now: _Moment, rel: str) -> tuple[int, str, bytes]:
        """A page the site does not have: a scenario left out for its errors (its last page,
        or its problems alone), or nothing at all."""
        scenario = scenario_of(rel)
        if scenario is None or not (self.root / "scenarios" / f"{scenario}.yaml").is_file():
            return 404, TYPES[".html"], self._missing(now, rel, "no such page in build/site")
        kept = now.last_good.get(rel)
        if kept is not None:
            note = "This scenario has errors, so the build left it out: below is its page as last built."
            return 200, TYPES[".html"], self._decorated(now, kept, rel, note)
        return 200, TYPES[".html"], self._missing(now, rel, "this scenario has errors, so the build left it out")

    def _missing(self, now: _Moment, rel: str, why: str) -> bytes:
        page = f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(why)}</title></head>'
        page += f"<body><h1>{html.escape(why.capitalize())}</h1></body></html>\n"
        return self._decorated(now, page.encode(), rel)

    def _decorated(self, now: _Moment, page: bytes, rel: str, note: str = "") -> bytes:
        """``page`` with the problems it should show at its top and the reload script at its
        end (added as it is sent: the file in build/site is left as the build wrote it)."""
        text = page.decode("utf-8", "replace")
        panel = problems_panel(now.outcome, scenario_of(rel), self.limits, note)
        script = RELOAD_SCRIPT.replace("BUILD", str(now.builds))
        lower = text.lower()
        start = lower.find("<main")  # inside the page's main part, after its skip link and header
        start = start if start >= 0 else lower.find("<body")
        start = lower.find(">", start) + 1 if start >= 0 else 0
        end = lower.rfind("</body>")
        end = end if end >= start else len(text)
        return (text[:start] + panel + text[start:end] + script + text[end:]).encode("utf-8")


RELOAD_SCRIPT = """<script>/* wastools serve: reload when a build finishes */
(function () {
  var seen = BUILD;
  function poll() {
    fetch("/__reload", {cache: "no-store"}).then(function (r) { return r.json(); }).then(function (s) {
      if (s.build !== seen) { location.reload(); } else { setTimeout(poll, 1000); }
    }).catch(function () { setTimeout(poll, 2000); });
  }
  setTimeout(poll, 1000);
})();
</script>
"""


def content_type(rel: str) -> str:
    known = TYPES.get(PurePosixPath(rel).suffix)
    return known or mimetypes.guess_type(rel)[0] or "application/octet-stream"


def site_path(path: str) -> str | None:
    """The file under the site folder that a request's path names (``/`` and a folder's
    ``/`` are its ``index.html``), or None for a path that leaves the folder, or names a
    hidden file or anything but a plain name."""
    parts = path.split("/")
    if not path.startswith("/") or any(p in ("..", ".") or p.startswith(".") for p in parts):
        return None
    if "\\" in path or "\0" in path:
        return None
    names = [p for p in parts if p]
    if path.endswith("/"):
        names.append("index.html")
    return "/".join(names)


def read_inside(root: Path, folder: Path, rel: str) -> bytes | None:
    """The bytes of the plain file ``rel`` under ``folder``, or None when it is missing, not a
    plain file (a folder, a named pipe, a device, a socket), or reached through a symbolic
    link anywhere below ``root``. Opened without waiting (``O_NONBLOCK``: a named pipe with
    no writer would hold the request for good) and only after ``lstat`` found a plain file,
    so a device is never opened; checked again on the open file."""
    target = folder.joinpath(*PurePosixPath(rel).parts)
    try:
        no_links(root, target)
        if not stat.S_ISREG(os.lstat(target).st_mode):
            return None
        handle = os.open(target, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except (OSError, UnsafePath):
        return None
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):  # swapped after the lstat
            return None
        with os.fdopen(handle, "rb", closefd=False) as file:
            return file.read()
    except OSError:
        return None
    finally:
        os.close(handle)


def pack_of(rel: str) -> str | None:
    """The scenario id of a pack's or poster's path (``scenarios/<id>.pdf``, ``-a4.pdf``,
    ``-poster.pdf``), or None."""
    path = PurePosixPath(rel)
    if len(path.parts) == 2 and path.parts[0] == "scenarios" and path.suffix == ".pdf":
        return path.stem.removesuffix("-a4").removesuffix("-poster") or None
    return None


def scenario_of(rel: str) -> str | None:
    """The scenario id of a scenario page's path, or None."""
    path = PurePosixPath(rel)
    if len(path.parts) == 2 and path.parts[0] == "scenarios" and path.suffix == ".html":
        return path.stem
    return None


def problems_panel(outcome: Outcome, scenario: str | None, limits: Any, note: str = "") -> str:
    """The box at the top of a served page: why nothing was rebuilt, every error of the data
    and, on a scenario's page, its file's warnings (or that it has no problem)."""
    own = f"scenarios/{scenario}.yaml" if scenario else None
    shown = [p for p in outcome.problems if p.is_error or p.path == own]
    shown = capped(shown, limits.max_messages_per_file, limits.max_messages_per_kind)
    lines = [f"<p><strong>{html.escape(text)}</strong></p>" for text in (outcome.failure, note) if text]
    if shown:
        errors = sum(1 for p in outcome.problems if p.is_error)
        warnings = sum(1 for p in outcome.problems if not p.is_error and p.path == own)
        counted = [_count(errors, "error") + " in the data"] if errors else []
        counted += [f"{_count(warnings, 'warning')} in {own}"] if warnings else []
        lines.append(f"<p>{html.escape(', '.join(counted))}:</p>")
        items = "".join(f"<li><code>{html.escape(str(p))}</code></li>" for p in shown)
        lines.append(f'<ul style="margin:0;padding-left:1.2em">{items}</ul>')
    elif own:
        lines.append(f"<p>No problems in {html.escape(own)}.</p>")
    if not lines:
        return ""
    colour = "#b00020" if outcome.failure or outcome.errors else "#2e7d32"
    style = (
        f"border:3px solid {colour};background:#fff;color:#111;padding:0.5em 1em;margin:0.5em;"
        "font:14px/1.4 system-ui,sans-serif;white-space:pre-wrap;overflow-wrap:anywhere"
    )
    return f'\n<div id="wastools-serve" role="status" style="{style}">{"".join(lines)}</div>\n'


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """The size and change time of every data file a build reads (links not followed, nothing
    opened). An editor's swap, backup and temporary files are not data: saving them builds
    nothing."""
    found: dict[str, tuple[int, int]] = {}
    paths = [root / SETTINGS]
    for name in WATCHED:
        for folder, dirs, files in os.walk(root / name):  # os.walk does not follow links
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            paths += [Path(folder, f) for f in files if f.endswith(DATA_SUFFIXES) and not f.startswith(".")]
    for path in paths:
        try:
            info = os.lstat(path)
        except OSError:
            continue
        found[str(path)] = (info.st_size, info.st_mtime_ns)
    return found


def build_once(site: Site, configure: Configure, store: Store) -> Outcome:
    """The ordinary incremental build of the site (what ``wastools build --site-only``
    runs), and every problem of the data as ``wastools validate`` lists them."""
    from ..core.fingerprints import data_state
    from ..pipeline import OutputError, PlanError, build, load_repository
    from . import site_address, site_spec, site_target

    started = time.perf_counter()
    try:
        selection, options = configure()
        address = site_address(site.root)
    except DataError as exc:
        return Outcome(exc.problems, f"{SETTINGS} has errors: the site was not rebuilt")
    try:
        data = data_state(site.root, site.limits.max_file_bytes)  # a file over the limit is measured, not read
    except OSError as exc:  # a file removed while it was read: the next save builds again
        return Outcome([], f"could not read the data ({exc.strerror}): the site was not rebuilt")
    repo, validation = load_repository(site.root, store, site.limits, data)
    problems = all_problems(site, validation, store)
    if repo is None:
        return Outcome(problems, "the data has errors: nothing was rebuilt; the pages are from the last build")
    target = site_target(repo, selection, options, data.fingerprint, address)
    try:
        out = site.folder.parent
        report = build(repo, site.root, out, selection, options, store=store, site=target, pdfs=False, waiting=_say)
    except (OutputError, PlanError) as exc:
        return Outcome(problems, f"the site was not rebuilt: {exc}")
    changed = report.site.changed if report.site is not None else 0
    images = _images(repo, site_spec(repo, selection, options, address), store)
    return Outcome(problems, "", changed, time.perf_counter() - started, images)


def _images(repo: Any, spec: Any, store: Store) -> Any:
    """The Tabletop Simulator images drawn when asked for, for a site built without them (a
    site with ``[site] address`` has them in build/site)."""
    from .tabletop import OnDemand

    return None if spec.address else OnDemand(repo, spec, store)


def _say(message: str) -> None:
    """A line from the build (another build holds build/: this one waits for it)."""
    click.echo(message, err=True)


def all_problems(site: Site, validation: Any, store: Store) -> list[Problem]:
    """The errors and warnings of the data. A model read back from the store had no error;
    its warnings are found again (each file's own checks come from the store)."""
    from ..data import repository
    from ..data.datarules import repository_problems

    if validation is None:
        validation = repository.validate(site.root, limits=site.limits, cache=store)
    found = list(validation.problems)
    if validation.repository is not None:
        found += repository_problems(site.root, validation.repository)
    return sorted(found)


def rebuild(site: Site, configure: Configure, store: Store) -> Outcome:
    """One build, with requests held meanwhile; then the counter moves (open pages reload)."""
    with site.lock:
        outcome = build_once(site, configure, store)
        site.outcome = outcome
        site.images = site.images if outcome.failure else outcome.images  # a failed build left the site as it was
        _keep_scenario_pages(site)
        site.builds += 1
    return outcome


def _keep_scenario_pages(site: Site) -> None:
    """Each scenario page as the site now has it; a scenario whose file is gone is forgotten."""
    for name in os.listdir(site.folder / "scenarios") if (site.folder / "scenarios").is_dir() else []:
        rel = f"scenarios/{name}"
        page = read_inside(site.root, site.folder, rel) if scenario_of(rel) else None
        if page is not None:
            site.last_good[rel] = page
    for rel in list(site.last_good):
        if not (site.root / "scenarios" / f"{scenario_of(rel)}.yaml").is_file():
            del site.last_good[rel]


def say(outcome: Outcome, limits: Any) -> None:
    """What a build did, in a line, and the data's errors below it."""
    errors = outcome.errors
    if outcome.failure:
        click.echo(outcome.failure, err=True)
    else:
        click.echo(f"site built in {outcome.seconds:.1f} s: {_count(outcome.changed, 'file')} changed")
    for problem in capped(errors, limits.max_messages_per_file, limits.max_messages_per_kind):
        click.echo(str(problem))
    if errors:
        click.echo(f"{_count(len(errors), 'error')}: shown at the top of every page", err=True)


def host_allowed(host: str | None, port: int) -> bool:
    """Whether a request's Host header names this server: a loopback name with the port it
    serves (a bare name only when that port is 80, which browsers leave out)."""
    if not host:
        return False
    name, colon, given = host.strip().lower().rpartition(":")
    if not colon:
        name, given = given, "80"
    return name in LOOPBACK_NAMES and given == str(port)


class _Handler(BaseHTTPRequestHandler):
    server_version = "wastools-serve"
    protocol_version = "HTTP/1.0"
    timeout = REQUEST_SECONDS  # on every read and write of the connection

    def setup(self) -> None:
        super().setup()
        self._deadline = threading.Timer(REQUEST_DEADLINE, self._give_up)
        self._deadline.daemon = True
        self._deadline.start()

    def parse_request(self) -> bool:
        """The request line and headers read: the deadline is met (the answer is not timed)."""
        whole = super().parse_request()
        self._deadline.cancel()
        return whole

    def finish(self) -> None:
        self._deadline.cancel()
        super().finish()

    def _give_up(self) -> None:
        """A request still not all there at its deadline: the connection is closed under it."""
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self._answer(send_body=True)

    def do_HEAD(self) -> None:  # noqa: N802
        self._answer(send_body=False)

    def _answer(self, send_body: bool) -> None:
        server = cast(_Server, self.server)
        port = server.port
        hosts = self.headers.get_all("Host") or []
        if len(hosts) != 1:
            self._short(400, "a request names its Host once", send_body)
            return
        if not host_allowed(hosts[0], port):
            self._short(421, f"this server answers only http://{HOST}:{port}/ and http://localhost:{port}/", send_body)
            return
        status, kind, body = server.site.respond(self.path)
        self._send(status, kind, body, send_body)

    def _short(self, status: int, text: str, send_body: bool) -> None:
        self._send(status, TYPES[".txt"], (text + "\n").encode(), send_body)

    def _send(self, status: int, kind: str, body: bytes, send_body: bool) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if send_body:
            self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Quiet: a line for every request would bury the build's messages."""


class _Server(ThreadingHTTPServer):
    """A thread a connection, a deep listen queue, and no traceback for a client's doing."""

    request_queue_size = BACKLOG
    daemon_threads = True
    site: Site
    port: int

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that reset, closed early or fell silent: nothing to say. Anything else:
        one line, never a traceback."""
        exc = sys.exc_info()[1]
        if isinstance(exc, ConnectionError | TimeoutError):
            return
        click.echo(f"serve: a request failed ({type(exc).__name__}: {exc})", err=True)


def open_server(site: Site, port: int) -> _Server:
    """The server bound to 127.0.0.1:``port`` (0: a free port), or ServeError in one line."""
    try:
        server = _Server((HOST, port), _Handler)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise ServeError(
                f"port {port} on {HOST} is taken (another server?): choose another with --port N"
            ) from None
        if exc.errno == errno.EACCES:
            raise ServeError(
                f"port {port} needs privileges on this machine: choose one above 1023 with --port N"
            ) from None
        raise ServeError(f"cannot listen on {HOST}:{port}: {exc.strerror}") from None
    server.site = site
    server.port = int(server.server_address[1])
    return server


class _Stop:
    """Ctrl-C (or SIGTERM) asks the loop to stop; it stops between builds, without a
    traceback. The build's forked workers inherit the handler, so in them the signal only
    sets their own copy of the flag and they finish their job."""

    def __init__(self) -> None:
        self.asked = False
        self._pid = os.getpid()
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> _Stop:
        if threading.current_thread() is threading.main_thread():
            for number in (signal.SIGINT, signal.SIGTERM):
                self._previous[number] = signal.signal(number, self._handle)
        return self

    def _handle(self, number: int, frame: Any) -> None:
        if os.getpid() == self._pid and not self.asked:  # a raw write: safe inside any other
            os.write(2, b"stopping (after the build under way, if one is)\n")
        self.asked = True

    def __exit__(self, *exc_info: Any) -> None:
        for number, handler in self._previous.items():
            signal.signal(number, handler)


def serve(root: Path, port: int, configure: Configure, limits: Any, open_page: bool = False) -> None:
    """Serve ``root``'s site from ``root/build/site`` on 127.0.0.1:``port`` and build it again
    after every saved change to the data, until Ctrl-C."""
    site = Site(root, root / "build" / "site", limits)
    scratch.clear_dead()
    server = open_server(site, port)
    address = f"http://{HOST}:{server.server_address[1]}/"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.25}, daemon=True)
    with _Stop() as stop, scratch.build_store(Store.for_repository(root)) as (store, warning):
        if warning:
            click.echo(warning, err=True)
        thread.start()
        click.echo(f"serving build/site at {address} (Ctrl-C to stop)", err=True)
        try:
            watch(site, configure, store, stop, address if open_page else None)
        finally:
            server.shutdown()
            server.server_close()
    click.echo("stopped", err=True)


def watch(site: Site, configure: Configure, store: Store, stop: _Stop, open_address: str | None) -> None:
    """Build now, then again whenever the watched files changed and have settled (an editor
    may write a file in steps), until asked to stop."""
    seen = snapshot(site.root)
    say(rebuild(site, configure, store), site.limits)
    if open_address:
        import webbrowser

        webbrowser.open(open_address)
    while not stop.asked:
        time.sleep(POLL_SECONDS)
        now = snapshot(site.root)
        if now == seen:
            continue
        while not stop.asked:
            time.sleep(POLL_SECONDS)
            settled, now = now, snapshot(site.root)
            if settled == now:
                break
        seen = now
        if not stop.asked:
            click.echo("a data file changed: building the site", err=True)
            say(rebuild(site, configure, store), site.limits)
