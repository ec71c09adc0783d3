"""The GitHub workflows: valid against GitHub's workflow schema, and doing what the README
promises (CI runs the project's own set-up in Debian; main publishes the site to GitHub
Pages; a version tag attaches the PDFs to a release)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"


def load(name: str) -> dict:
    return YAML(typ="safe").load((WORKFLOWS / name).read_text())


def schema_check(*paths: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", *map(str, paths)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_every_workflow_is_valid_for_github():
    files = sorted(WORKFLOWS.glob("*.yml"))
    assert [f.name for f in files] == ["ci.yml", "publish.yml"]
    result = schema_check(*files)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_schema_check_catches_a_broken_workflow(tmp_path):
    broken = tmp_path / "broken.yml"
    broken.write_text("name: x\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    stepz: []\n")
    result = schema_check(broken)
    assert result.returncode != 0 and "stepz" in result.stdout


def steps_text(job: dict) -> str:
    return "\n".join(str(step.get("run", "")) + str(step.get("uses", "")) for step in job["steps"])


def test_ci_runs_the_project_set_up_in_debian():
    """Chromium comes from tools/system-deps.sh inside a Debian container (make test runs it),
    never from the Ubuntu runner's apt, whose chromium is a snap stub."""
    ci = load("ci.yml")
    assert set(ci[True] if True in ci else ci["on"]) == {"pull_request", "push"}  # YAML 1.1 reads `on` as true
    (job,) = ci["jobs"].values()
    assert "bookworm" in job["container"] or "debian" in job["container"]
    text = steps_text(job)
    assert ".ci/run" in text and "chromium" not in text and "setup-python" not in text
    assert "make test" in (ROOT / ".ci" / "run").read_text()
    assert "chromium" in (ROOT / "tools" / "system-deps.sh").read_text()


@pytest.fixture(scope="module")
def publish() -> dict:
    return load("publish.yml")


def test_publish_builds_in_debian_on_main_and_on_version_tags(publish):
    on = publish[True] if True in publish else publish["on"]
    assert on["push"]["branches"] == ["main"] and on["push"]["tags"] == ["v*"]
    build = publish["jobs"]["build"]
    assert "bookworm" in build["container"]
    text = steps_text(build)
    assert "make build" in text and "test -f build/site/index.html" in text


def test_main_publishes_the_site_to_github_pages(publish):
    build, pages = publish["jobs"]["build"], publish["jobs"]["pages"]
    (upload,) = [s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-pages-artifact@")]
    assert upload["if"] == "github.ref == 'refs/heads/main'"
    assert "cp -r site ../public/site" in steps_text(build) and upload["with"]["path"] == "public"
    assert pages["if"] == "github.ref == 'refs/heads/main'" and pages["needs"] == "build"
    assert pages["permissions"] == {"pages": "write", "id-token": "write"}
    assert pages["environment"]["name"] == "github-pages"
    assert any(s.get("uses", "").startswith("actions/deploy-pages@") for s in pages["steps"])
    assert publish["permissions"] == {"contents": "read"}  # nothing else may write


def test_a_version_tag_attaches_the_pdfs_to_a_release(publish):
    build, release = publish["jobs"]["build"], publish["jobs"]["release"]
    (upload,) = [s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-artifact@")]
    assert upload["if"] == "startsWith(github.ref, 'refs/tags/v')" and upload["with"]["path"] == "release/"
    assert release["if"] == "startsWith(github.ref, 'refs/tags/v')" and release["needs"] == "build"
    assert release["permissions"] == {"contents": "write"}
    text = steps_text(release)
    assert "gh release create" in text and "gh release upload" in text and "release/*.pdf" in text
