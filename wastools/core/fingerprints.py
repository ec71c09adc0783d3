"""Fingerprints of what a build depends on: the tool's code, the data, any parts of a key.
Only hashing and paths, so that a build can tell that nothing changed before it loads
anything heavier (``wastools/stamp.py``)."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .. import __version__
from .data_paths import refusal, unit_files
from .errors import UsageProblem
from .resources import PACKAGE


def hash_files(paths: Iterable[Path], base: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(paths):
        digest.update(path.relative_to(base).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


# the libraries that write the outputs' bytes (import name, distribution name): a new version
# of one may change them, so it misses every cache, as an edit to the tool does
RENDERING_LIBRARIES = (
    ("weasyprint", "weasyprint"),
    ("pydyf", "pydyf"),
    ("tinycss2", "tinycss2"),
    ("cssselect2", "cssselect2"),
    ("fontTools", "fonttools"),
    ("pikepdf", "pikepdf"),
    ("reportlab", "reportlab"),
)


METADATA_FOLDERS = (".dist-info", ".egg-info")  # pip's, and setuptools' (as Debian's packages have)


@lru_cache(maxsize=1)
def library_versions() -> str:
    """The installed version of each rendering library, from its distribution's metadata
    folder beside it, found without importing it (``importlib.metadata`` alone is much of a
    no-op build). "?" for one not found."""
    from importlib.util import find_spec

    versions = []
    for module, distribution in RENDERING_LIBRARIES:
        found = "?"
        spec = find_spec(module)
        if spec is not None and spec.origin:
            folder = Path(spec.origin).parent.parent
            try:
                names = [e.name.rsplit(".", 1)[0] for e in os.scandir(folder) if e.name.endswith(METADATA_FOLDERS)]
            except OSError:
                names = []
            for name, _, version in (n.split("-py")[0].rpartition("-") for n in names):
                if name.lower().replace("-", "_").replace(".", "_") == distribution:
                    found = version
        versions.append(f"{distribution} {found}")
    return ", ".join(versions)


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """The tool itself: its code, templates and layouts. Any edit invalidates caches."""
    site = (PACKAGE / "site", PACKAGE / "templates" / "site")  # the site has its own key: editing it never remakes PDFs
    files = [p for p in PACKAGE.rglob("*.py") if not p.is_relative_to(site[0])]
    files += [p for p in (PACKAGE / "templates").rglob("*") if p.is_file() and not p.is_relative_to(site[1])]
    files += list((PACKAGE / "layouts").glob("*"))
    return hashlib.sha256((__version__ + library_versions() + hash_files(files, PACKAGE)).encode()).hexdigest()


@lru_cache(maxsize=1)
def tool_fingerprint() -> str:
    """Every file of the tool, the site's code and templates included."""
    files = [p for p in PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    return hashlib.sha256((__version__ + library_versions() + hash_files(files, PACKAGE)).encode()).hexdigest()


def _data_files(root: Path) -> tuple[list[Path], list[str]]:
    """Every data file a build reads, and those refused (never opened; validation reports them)."""
    files = sorted(set((root / "cards").rglob("*.yaml")) | set(unit_files(root))) + list(
        (root / "schemas").glob("*.json")
    )
    for folder in ("scenarios", "rules"):  # the rules registers are validated with the rest
        if (root / folder).is_dir():
            files += sorted((root / folder).glob("*.yaml"))
    refusals = {f: refusal(f, root) is not None for f in files}
    return [f for f, no in refusals.items() if not no], sorted(str(f) for f, no in refusals.items() if no)


@dataclass(frozen=True)
class DataState:
    """The data a build reads, in one pass over its files: a fingerprint of all of it (the
    caches' key), and each file's sha256 by its path in the repository, a refused file as
    "refused" (what tells a build how much changed since the last one)."""

    fingerprint: str
    digests: dict[str, str]


CHUNK = 1 << 20  # bytes hashed at a time: a data file's size never sets the memory a build needs


def file_digest(path: Path, name: str, whole) -> str:
    """The sha256 of one file, read a chunk at a time, each chunk also fed to ``whole``
    after the file's name (as ``hash_files`` does)."""
    own = hashlib.sha256()
    whole.update(name.encode() + b"\0")
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK):
            own.update(chunk)
            whole.update(chunk)
    whole.update(b"\0")
    return own.hexdigest()


def data_state(root: Path, max_bytes: int | None = None) -> DataState:
    """The data's state. A file over ``max_bytes`` (the ``max_file_bytes`` limit; by ``stat``)
    is never read: validation refuses it, and its size and change time stand for its bytes."""
    files, refused = _data_files(root)
    whole = hashlib.sha256()
    digests: dict[str, str] = {}
    too_big: list[str] = []
    for path in sorted(files):
        name = path.relative_to(root).as_posix()
        info = path.stat()
        if max_bytes is not None and info.st_size > max_bytes:
            digests[name] = f"too big: {info.st_size} bytes, changed {info.st_mtime_ns}"
            too_big.append(name + " " + digests[name])
            continue
        digests[name] = file_digest(path, name, whole)
    digests.update({Path(f).relative_to(root).as_posix(): "refused" for f in refused})
    return DataState(whole.hexdigest() + key(refused, *too_big), digests)


LAST_SOURCE_DATE = 253_402_300_799  # 9999-12-31 23:59:59 UTC, the last second a PDF date can hold


class SourceDateError(UsageProblem, ValueError):
    """``SOURCE_DATE_EPOCH`` is set to something that is not a date a PDF can hold."""


def source_date() -> int | None:
    """The date every output PDF gives as its making and change: ``SOURCE_DATE_EPOCH`` (the
    reproducible-builds.org convention), or none at all (unset or empty). An input like the
    data: a build with another value makes every output again. A malformed or out-of-range
    value raises ``SourceDateError``: the convention asks a build to fail then, not to
    quietly make undated outputs."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch == "":
        return None
    shown = repr(epoch) if len(epoch) <= 40 else repr(epoch[:40]) + "..."
    if not (epoch.isascii() and epoch.isdigit()):
        raise SourceDateError(
            f"SOURCE_DATE_EPOCH={shown} is not a date: expected whole seconds since 1970-01-01 UTC, "
            "in the digits 0-9 only (or leave it unset)"
        )
    if len(epoch) > len(str(LAST_SOURCE_DATE)) or int(epoch) > LAST_SOURCE_DATE:
        raise SourceDateError(
            f"SOURCE_DATE_EPOCH={shown} is out of range: a PDF date ends at {LAST_SOURCE_DATE} (9999-12-31)"
        )
    return int(epoch)


def key(*parts) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()
