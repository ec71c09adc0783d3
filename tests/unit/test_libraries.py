"""WeasyPrint loaded by the workers' shortcut opens the same system libraries as the
ordinary import, runs no compiler, and falls back to the ordinary import when it fails."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the shortcut is for Linux")

REPORT = """
import json, resource
libraries = sorted({line.split()[-1] for line in open("/proc/self/maps")
                    if any(n in line for n in ("gobject", "pango", "harfbuzz", "fontconfig"))})
children = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"libraries": libraries, "child_processes_cpu": children.ru_utime + children.ru_stime}))
"""


def _loaded(load: str) -> dict:
    result = subprocess.run([sys.executable, "-c", load + REPORT], capture_output=True, text=True, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_shortcut_opens_the_libraries_the_ordinary_import_opens_without_a_compiler_run():
    ordinary = _loaded("import weasyprint\n")
    shortcut = _loaded("from wastools.render.libraries import load_weasyprint\nload_weasyprint()\n")
    assert len(ordinary["libraries"]) >= 5 and shortcut["libraries"] == ordinary["libraries"]
    assert shortcut["child_processes_cpu"] == 0.0


def test_a_failed_shortcut_falls_back_to_the_ordinary_import():
    failing_once = """
import sys, ctypes.util
from importlib.abc import MetaPathFinder
class FailOnce(MetaPathFinder):
    failed = False
    def find_spec(self, name, path, target=None):
        if name == "weasyprint.text.ffi" and not FailOnce.failed:
            FailOnce.failed = True
            raise OSError("cannot load library 'libpango-1.0-0'")
        return None
sys.meta_path.insert(0, FailOnce())
original = ctypes.util.find_library
from wastools.render.libraries import load_weasyprint
load_weasyprint()
import weasyprint.text.ffi
assert FailOnce.failed and ctypes.util.find_library is original
"""
    loaded = _loaded(failing_once)
    assert any("pango" in path for path in loaded["libraries"])
