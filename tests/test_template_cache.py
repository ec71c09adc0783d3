"""Compiled templates are kept between runs only when this machine signed them."""

from __future__ import annotations

import marshal

import pytest
from jinja2 import DictLoader, Environment, FileSystemLoader

from wastools import signed_pickle
from wastools.template_cache import SignedBytecodeCache


@pytest.fixture
def key_home(tmp_path, monkeypatch):
    """This machine's signing key in a folder of the test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home"))
    signed_pickle._key.cache_clear()
    yield
    signed_pickle._key.cache_clear()


def _environment(folder, source: str, compiled: list[str] | None = None) -> Environment:
    class Counting(Environment):
        def compile(self, *args, **kwargs):
            if compiled is not None:
                compiled.append(args[1] if len(args) > 1 else kwargs.get("name", ""))
            return super().compile(*args, **kwargs)

    templates = folder / "templates"
    templates.mkdir(exist_ok=True)
    (templates / "t.j2").write_text(source)
    return Counting(loader=FileSystemLoader(str(templates)), bytecode_cache=SignedBytecodeCache(folder / "cache"))


def test_a_template_is_compiled_once_and_then_read_from_the_cache(tmp_path, key_home):
    compiled: list[str] = []
    assert _environment(tmp_path, "Hello {{ name }}", compiled).get_template("t.j2").render(name="A") == "Hello A"
    assert _environment(tmp_path, "Hello {{ name }}", compiled).get_template("t.j2").render(name="B") == "Hello B"
    assert compiled == ["t.j2"]  # the second process-like environment read the compiled code
    compiled.clear()
    changed = _environment(tmp_path, "Goodbye {{ name }}", compiled).get_template("t.j2")
    assert changed.render(name="C") == "Goodbye C" and compiled == ["t.j2"]  # a new source compiles again


def test_a_planted_entry_is_never_run(tmp_path, key_home):
    _environment(tmp_path, "Hello {{ name }}").get_template("t.j2")
    (entry,) = (tmp_path / "cache").iterdir()
    # what jinja's own cache would load: its header, then code that prints instead of rendering
    planted = compile("raise SystemExit('planted code ran')", "t.j2", "exec")
    entry.write_bytes(entry.read_bytes()[: signed_pickle.MAC_BYTES] + marshal.dumps(planted))
    compiled: list[str] = []
    template = _environment(tmp_path, "Hello {{ name }}", compiled).get_template("t.j2")
    assert template.render(name="D") == "Hello D" and compiled == ["t.j2"]
    assert signed_pickle.loads(entry.read_bytes()) is not None  # replaced by a signed one


def test_without_a_key_templates_compile_as_usual(tmp_path, monkeypatch):
    monkeypatch.setattr(signed_pickle, "_key", lambda _path: None)
    cache = SignedBytecodeCache(tmp_path / "cache")
    environment = Environment(loader=DictLoader({"t": "{{ 1 + 1 }}"}), bytecode_cache=cache)
    assert environment.get_template("t").render() == "2"
    assert not (tmp_path / "cache").exists()
