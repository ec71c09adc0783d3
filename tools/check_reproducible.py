#!/usr/bin/env python3
"""Two clean builds must give identical outputs: compares their build/manifest.json.

Builds everything twice from the shipped data, each time into a fresh folder with no
cache, and exits 1 naming every output whose bytes differ. With --quick (the default
outside CI) it builds two variants only, to keep `make test` short on a laptop; CI
(CI=true) and --full build everything.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def build(out: Path, extra: list[str]) -> dict:
    """A clean build: a fresh output folder and an empty store of its own."""
    env = {**os.environ, "WASTOOLS_CACHE": str(out.parent / "store")}
    subprocess.run(
        [sys.executable, "-m", "wastools", "--root", str(ROOT), "build", "--out", str(out), *extra],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    return json.loads((out / "manifest.json").read_text())["outputs"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--full", action="store_true", default=os.environ.get("CI") == "true", help="build everything (default in CI)"
    )
    options = parser.parse_args()
    extra = [] if options.full else ["--variant", "hex", "--variant", "large-map"]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        first, second = build(Path(a) / "build", extra), build(Path(b) / "build", extra)
    differ = sorted(
        k for k in first.keys() | second.keys() if first.get(k, {}).get("sha256") != second.get(k, {}).get("sha256")
    )
    scope = "every output" if options.full else "hex and large-map outputs"
    if differ:
        print(f"not reproducible ({scope}): " + ", ".join(differ))
        return 1
    print(
        f"reproducible: {len(first)} outputs ({scope}) identical in two clean builds, "
        f"{time.perf_counter() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
