"""What the last build into an output folder made, kept in the store (never read back from
the folder itself, where a pull request could plant a manifest).

For each output: the key it was made under, its sha256, pages and bytes, and the size and
change time of the file as written. An output is current when its key is the planned one
and the file on disk still has that size and change time; anything else is made again. The
record also holds the stamp of the last build: a key of everything it read (the tool, every
data file, the settings) and of what it made or skipped (a narrowed build leaves the site and
the aids alone; a build that held back an invalid scenario leaves no stamp); a later build with
the same stamp, whose outputs are all as recorded, has nothing to do and stops before loading
the data.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.fingerprints import key
from ..core.store import Store
from .output import OutputFolder

KIND = "built"


def _record_key(store: Store, out: Path) -> str:
    return key("output folder", store.name_of(out))


@dataclass
class Record:
    outputs: dict[str, dict[str, Any]] = field(default_factory=dict)  # path -> entry
    stamp: str = ""

    @classmethod
    def read(cls, store: Store, out: Path) -> Record:
        data = store.get(KIND, _record_key(store, out))
        try:
            body = json.loads(data) if data else {}
        except ValueError:
            body = {}
        outputs = body.get("outputs") if isinstance(body, dict) else None
        if not isinstance(outputs, dict):
            return cls()
        return cls({k: v for k, v in outputs.items() if isinstance(v, dict)}, str(body.get("stamp", "")))

    def write(self, store: Store, out: Path) -> None:
        body = {"outputs": dict(sorted(self.outputs.items())), "stamp": self.stamp}
        store.put(KIND, _record_key(store, out), json.dumps(body, sort_keys=True).encode())

    def current(self, folder: OutputFolder, rel: str, target_key: str) -> bool:
        entry = self.outputs.get(rel)
        if not entry or entry.get("key") != target_key:
            return False
        files = entry.get("files")
        if isinstance(files, dict):  # a folder (the site): every file as written, no other
            return folder.files_under(rel) == sorted(files) and all(
                list(folder.state(f"{rel}/{name}") or ()) == state for name, state in files.items()
            )
        return list(folder.state(rel) or ()) == entry.get("state")

    def as_written(self, folder: OutputFolder) -> set[str]:
        """The file outputs still on disk as the builds recorded them."""
        return {
            rel
            for rel, entry in self.outputs.items()
            if "state" in entry and rel != "manifest.json" and list(folder.state(rel) or ()) == entry["state"]
        }

    def everything_current(self, folder: OutputFolder) -> bool:
        return bool(self.outputs) and all(
            self.current(folder, rel, e.get("key", "")) for rel, e in self.outputs.items()
        )
