"""The installed tool: a wheel built from this checkout works away from it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _wheel(tmp_path: Path) -> Path:
    source = tmp_path / "source"
    skipped = shutil.ignore_patterns(".venv", ".git", "*.egg-info", "__pycache__", ".setuptools-build", ".hypothesis")

    def ignore(folder: str, names: list[str]) -> set[str]:  # the output folder, not the build package
        return set(skipped(folder, names)) | ({"build"} if Path(folder) == ROOT else set())

    shutil.copytree(ROOT, source, ignore=ignore)
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(source)],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert not (source / "build").exists(), "building the wheel wrote into build/, the PDF output folder"
    return next(wheels.glob("wastools-*.whl"))


@pytest.mark.slow
def test_the_wheel_carries_templates_layouts_and_the_glossary(tmp_path):
    names = zipfile.ZipFile(_wheel(tmp_path)).namelist()
    for needed in (
        "wastools/templates/cards/card.css",
        "wastools/templates/aid/aid.html.j2",
        "wastools/templates/scenario/pack.html.j2",
        "wastools/layouts/a4.yaml",
        "wastools/layouts/layout.schema.json",
        "wastools/glossary/glossary.yaml",
        "wastools/glossary/glossary.schema.json",
        *(f"wastools/aids/{p.name}" for p in (ROOT / "wastools" / "aids").iterdir()),  # every aid's words
    ):
        assert needed in names
    metadata = next(n for n in names if n.endswith("METADATA"))
    assert "License-Expression: MIT" in zipfile.ZipFile(_wheel(tmp_path / "again")).read(metadata).decode()


@pytest.mark.slow
def test_an_installed_wheel_builds_from_a_copy_of_the_data(tmp_path):
    wheel = _wheel(tmp_path)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = Path(
        subprocess.run(
            [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    # the dependencies come from this environment (no network); wastools itself only from the wheel
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    script = venv / "bin" / "wastools"
    script.write_text(f"#!{venv / 'bin' / 'python'}\nimport sys\nfrom wastools.cli import main\nsys.exit(main())\n")
    script.chmod(0o755)
    data = tmp_path / "data"
    for folder in ("cards", "scenarios", "schemas"):
        shutil.copytree(ROOT / folder, data / folder)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import wastools; print(wastools.__file__)"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    assert where.stdout.startswith(str(site)), where.stdout + where.stderr
    result = subprocess.run(
        [str(script), "--root", str(data), "build", "--variant", "hex", "--unit", "hms-cossack", "--jobs", "1"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    out = data / "build"
    assert not (out / "lib").exists()
    pdfs = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.pdf") if ".cache" not in p.parts)
    assert any(p.startswith("hex/cards") for p in pdfs), pdfs
