#!/usr/bin/env python3
"""Times the full build, a no-op rebuild and a one-unit change (`make bench`).

Runs `wastools build` as a user would, on a scratch copy of the data so that the
repository's own build/ and cards/ are untouched. Speed goals live here, not in tests.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WASTOOLS = [sys.executable, "-m", "wastools"]


def timed(args: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(WASTOOLS + args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", action="append", default=[], help="limit to a variant (repeatable)")
    options = parser.parse_args()
    extra = [a for v in options.variant for a in ("--variant", v)]
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        for folder in ("cards", "schemas"):
            shutil.copytree(ROOT / folder, root / folder)
        base = ["--root", str(root), "build", *extra]
        results = {"cold build": timed(base), "no-op rebuild": timed(base)}
        unit = root / "cards" / "uk" / "hms-cossack.yaml"
        unit.write_text(unit.read_text().replace("points: 7", "points: 8"))
        results["one-unit change"] = timed(base)
        validate = timed(["--root", str(root), "validate", "--quiet"])
    for name, seconds in results.items():
        print(f"{name:>16}: {seconds:6.1f} s")
    print(f"{'(validate alone)':>16}: {validate:6.1f} s")


if __name__ == "__main__":
    main()
