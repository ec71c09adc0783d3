"""tools/system-deps.sh: checks before installing, never stops for want of root."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT

SCRIPT = ROOT / "tools" / "system-deps.sh"


def shim(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)


def run(tmp_path: Path, *, loads: bool, system: str = "Linux", user: int = 1000):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "calls.log"
    shim(bin_dir, "fake-python", f"cat >/dev/null; exit {0 if loads else 1}")
    shim(bin_dir, "id", f"echo {user}")
    shim(bin_dir, "uname", f"echo {system}")
    shim(bin_dir, "sudo", f'echo sudo "$@" >> {log}; exit 1')
    shim(bin_dir, "apt-get", f'echo apt-get "$@" >> {log}')
    env = {
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "PYTHON": str(bin_dir / "fake-python"),
        "HOME": str(tmp_path),
        "CHROMIUM": "/bin/sh",
        "CHROMEDRIVER": "/bin/sh",
    }  # present: only the libraries are in question
    result = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, env=env, timeout=60)
    calls = log.read_text() if log.exists() else ""
    return result, calls


def test_nothing_is_installed_when_the_libraries_load(tmp_path):
    result, calls = run(tmp_path, loads=True)
    assert result.returncode == 0 and result.stdout == result.stderr == ""
    assert "apt-get" not in calls


def test_without_root_or_sudo_it_prints_the_exact_command(tmp_path):
    result, calls = run(tmp_path, loads=False)
    assert "apt-get install" not in calls  # nothing attempted: no root, and sudo asks for a password
    assert "apt-get update && apt-get install -y libpango-1.0-0" in result.stderr
    assert result.returncode == 1 and "command not found" not in result.stderr


def test_as_root_it_installs_with_apt(tmp_path):
    result, calls = run(tmp_path, loads=False, user=0)
    assert "apt-get install -y libpango-1.0-0" in calls


@pytest.mark.skipif(os.uname().sysname == "Darwin", reason="shims uname; meaningful on Linux CI")
def test_macos_gets_the_homebrew_line(tmp_path):
    result, calls = run(tmp_path, loads=False, system="Darwin")
    assert "brew install pango" in result.stderr + result.stdout
    assert "apt-get" not in calls


def test_pre_commit_hooks_run_wherever_wastools_is_installed(tmp_path):
    from ruamel.yaml import YAML

    local = YAML(typ="safe").load((ROOT / ".pre-commit-config.yaml").read_text())
    hooks = local["repos"][0]["hooks"]
    for hook in hooks:
        if hook["language"] == "script":  # the data hooks: a script of this repository
            script = hook["entry"].split()[0]
            assert not script.startswith(".venv") and (ROOT / script).exists()
        else:  # the code hooks: pre-commit installs their tool itself
            assert hook["language"] == "python" and hook["additional_dependencies"], hook["id"]
    assert {"ruff-check", "ruff-format", "mypy"} <= {h["id"] for h in hooks}
    shared = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert {h["language"] for h in shared} == {"python"} and all(h["entry"].startswith("wastools ") for h in shared)
    # on PATH: a stand-in wastools is found first
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim(bin_dir, "wastools", 'echo on-path "$@"')
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path)}
    found = subprocess.run(
        [str(ROOT / "tools/run-wastools.sh"), "validate", "--quiet"], capture_output=True, text=True, env=env
    )
    assert found.stdout.strip() == "on-path validate --quiet"
    # not on PATH: the checkout's .venv, else a plain message
    (bin_dir / "wastools").unlink()
    fallback = subprocess.run(
        [str(ROOT / "tools/run-wastools.sh"), "--version"], capture_output=True, text=True, env=env
    )
    if (ROOT / ".venv/bin/wastools").exists():
        assert fallback.returncode == 0 and "wastools" in fallback.stdout
    else:
        assert fallback.returncode == 1 and "make build" in fallback.stderr


def test_make_test_runs_the_code_checks():
    """`.ci/run` is `make test`: it must include ruff (lint and layout) and mypy, not only pytest."""
    stamp = "STAMP=.ci/run"  # any file but a makefile: make remakes a makefile even with -n
    plan = subprocess.run(
        ["make", "-n", "--no-print-directory", "test", stamp], cwd=ROOT, capture_output=True, text=True
    )
    assert plan.returncode == 0, plan.stderr
    for step in ("ruff check wastools tools tests", "ruff format --check", "mypy", "pytest", "check_reproducible"):
        assert step in plan.stdout, step
    assert (ROOT / ".ci" / "run").read_text().strip().endswith("make test")
