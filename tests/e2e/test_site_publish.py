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


def test_main_sets_the_pages_address_so_printed_fleets_carry_a_qr_code(publish, tmp_path):
    """On main the build learns the Pages address (configure-pages) before ``make build``
    and writes it as ``[site] address`` (with site/ after it) into wastools.toml, keeping a
    ``[site]`` the repository sets itself. The step's own script is run here, and the
    tool reads the address it wrote."""
    from wastools.data.config import read

    steps = publish["jobs"]["build"]["steps"]
    names = [s.get("id") or s.get("name") or s.get("uses") for s in steps]
    (pages,) = [s for s in steps if s.get("id") == "pages"]
    assert pages["uses"].startswith("actions/configure-pages@") and pages["if"] == "github.ref == 'refs/heads/main'"
    assert publish["jobs"]["build"]["permissions"] == {"contents": "read", "pages": "read"}
    (address,) = [s for s in steps if "[site]" in str(s.get("run", ""))]
    assert address["env"] == {"BASE_URL": "${{ steps.pages.outputs.base_url }}"}
    assert names.index("pages") < names.index(address["name"]) < names.index("build every PDF and the site")
    cases = {
        "none": ("", "https://owner.github.io/repo/site/"),
        "other sections": ('[build]\npapers = ["a4"]\n', "https://owner.github.io/repo/site/"),
        "its own": ('[site]\naddress = "https://example.org/was/"\n', "https://example.org/was/"),
    }
    for case, (before, expected) in cases.items():
        root = tmp_path / case.replace(" ", "-")
        root.mkdir()
        if before:
            (root / "wastools.toml").write_text(before)
        env = {"PATH": "/usr/bin:/bin", "BASE_URL": "https://owner.github.io/repo/"}
        done = subprocess.run(["bash", "-e", "-c", address["run"]], cwd=root, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert read(root)["site.address"].value == expected, case
