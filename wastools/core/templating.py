"""The Jinja environments that render the tool's own templates: one per folder and settings,
made once per process, each template compiled once and kept in the tool's part of the user's
store (compiling the site's templates is much of the site's work in a one-unit edit).

Every environment escapes HTML (``select_autoescape``, strings too) and stops at an undefined
name (``StrictUndefined``). A compiled template is kept under its name, its file, the
environment's settings and the store's own check; Jinja reads it back only when the Python
that compiled it and the template's source are the same (it checks both)."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from jinja2 import BytecodeCache, Environment, FileSystemLoader, StrictUndefined, select_autoescape
from jinja2.bccache import Bucket

from .store import Store, cache_home

KIND = "template"


class _Kept(BytecodeCache):
    """Compiled templates in the tool's store (outside every data repository: the user's own)."""

    def __init__(self, settings: str):
        self.settings = settings  # compiled code depends on them (a trailing newline kept or not)

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        return hashlib.sha256(f"{self.settings}\0{name}\0{filename}".encode()).hexdigest()

    def load_bytecode(self, bucket: Bucket) -> None:
        data = _store().get(KIND, bucket.key)
        if data is not None:
            bucket.bytecode_from_string(data)  # left empty when the source or Python differ

    def dump_bytecode(self, bucket: Bucket) -> None:
        _store().put(KIND, bucket.key, bucket.bytecode_to_string())


def _store() -> Store:
    return Store(cache_home(), cache_home() / "tool")


@cache
def environment(folder: Path, keep_trailing_newline: bool = False) -> Environment:
    """The environment of the templates in ``folder``."""
    settings = f"{folder}\0{keep_trailing_newline}"
    return Environment(
        loader=FileSystemLoader(str(folder)),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        keep_trailing_newline=keep_trailing_newline,
        bytecode_cache=_Kept(settings),
    )
