"""Templates compiled once and kept: what a kept template renders is what a fresh one does."""

from __future__ import annotations

import jinja2
import pytest

from wastools.core import templating
from wastools.core.store import Store


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("WASTOOLS_CACHE", str(tmp_path / "cache"))
    templating.environment.cache_clear()
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "page.html.j2").write_text("<p>{{ name }}</p>\n")
    yield tmp_path / "t"
    templating.environment.cache_clear()


def _compiles(monkeypatch) -> list[str]:
    calls: list[str] = []
    original = jinja2.Environment.compile

    def counted(self, source, name=None, filename=None, raw=False, defer_init=False):
        calls.append(name)
        return original(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    return calls


def _render(folder, newline: bool = False) -> str:
    return templating.environment(folder, newline).get_template("page.html.j2").render(name="<Hood & Co>")


def test_a_template_is_compiled_once_and_then_read_from_the_store(folder, monkeypatch):
    compiles = _compiles(monkeypatch)
    first = _render(folder)
    templating.environment.cache_clear()  # as in the next build's process
    assert _render(folder) == first == "<p>&lt;Hood &amp; Co&gt;</p>"  # escaped, kept or not
    assert compiles == ["page.html.j2"]


def test_a_changed_template_or_a_damaged_entry_is_compiled_again(folder, monkeypatch):
    compiles = _compiles(monkeypatch)
    _render(folder)
    (folder / "page.html.j2").write_text("<b>{{ name }}</b>")
    templating.environment.cache_clear()
    assert _render(folder) == "<b>&lt;Hood &amp; Co&gt;</b>"
    kept = Store(templating.cache_home(), templating.cache_home() / "tool").folder / templating.KIND
    for entry in kept.iterdir():
        entry.write_bytes(entry.read_bytes()[:-5])
    templating.environment.cache_clear()
    assert _render(folder) == "<b>&lt;Hood &amp; Co&gt;</b>"
    assert compiles == ["page.html.j2"] * 3


def test_environments_with_other_settings_keep_their_own_code(folder):
    assert _render(folder, newline=True) == "<p>&lt;Hood &amp; Co&gt;</p>\n"
    templating.environment.cache_clear()
    assert _render(folder, newline=False) == "<p>&lt;Hood &amp; Co&gt;</p>"
    templating.environment.cache_clear()
    assert _render(folder, newline=True) == "<p>&lt;Hood &amp; Co&gt;</p>\n"


def test_every_template_environment_is_made_in_one_place():
    """One place sets the escaping of every page and card the tool renders: a module that made
    its own Jinja environment could leave data unescaped."""
    import ast

    from tests.conftest import ROOT

    makers = []
    for path in (ROOT / "wastools").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                if name in ("Environment", "Template"):
                    makers.append(path.relative_to(ROOT).as_posix())
    assert makers == ["wastools/core/templating.py"]
