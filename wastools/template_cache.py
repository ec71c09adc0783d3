"""Compiled templates kept between runs, signed like every cached pickle.

Jinja compiles each template to Python on first use in a process: a tenth of a second for
the site's templates, and more for the cards', the packs' and the aids' in every worker, at
every build. Jinja can keep the compiled code (``BytecodeCache``), but loading it runs it,
so its entries are signed here with this machine's key (``signed_pickle``) and kept in the
user's cache folder beside that key, never in a build folder that can arrive with the data.
An entry whose signature does not hold, or a folder that cannot be written, only means the
template is compiled again. Jinja itself checks that an entry was compiled from the same
source by the same Python.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from jinja2 import BytecodeCache
from jinja2.bccache import Bucket

from . import signed_pickle
from .cache_entry import write_entry


class SignedBytecodeCache(BytecodeCache):
    def __init__(self, folder: Path):
        self.folder = folder

    def _path(self, bucket: Bucket) -> Path:
        return self.folder / f"{bucket.key}.bin"

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            blob = self._path(bucket).read_bytes()
        except OSError:
            return
        data = signed_pickle.loads(blob)
        if isinstance(data, bytes):
            bucket.bytecode_from_string(data)  # a stale entry (other source, other Python) resets

    def dump_bytecode(self, bucket: Bucket) -> None:
        blob = signed_pickle.dumps(bucket.bytecode_to_string())
        if blob is not None:
            write_entry(self._path(bucket), blob)


@cache
def shared() -> SignedBytecodeCache:
    """The one cache of every template environment, in the user's wastools cache folder."""
    return SignedBytecodeCache(signed_pickle.key_path().parent / "templates")
