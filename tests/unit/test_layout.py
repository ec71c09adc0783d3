"""The code's shape: packages in layers that import downward only (no cycle), no function
runs over 100 lines, the build never reaches up into the site, and WeasyPrint's major version
is the one the renderers were written against."""

from __future__ import annotations

import ast
from importlib import metadata
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "wastools"


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """The wastools modules ``path`` imports (at any depth of the file), as module names."""
    here = _module(path)
    package = here if path.name == "__init__.py" else here.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("wastools")}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else [])) if node.level else node.module or ""
            if target.startswith("wastools"):
                found.add(target)
                found |= {f"{target}.{a.name}" for a in node.names}
    return found


def _graph() -> dict[str, set[str]]:
    modules = {_module(p): p for p in PACKAGE.rglob("*.py")}
    return {name: {m for m in _imports(path) if m in modules and m != name} for name, path in modules.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def _package_of(module: str) -> str:
    return ".".join(module.split(".")[:2])


def test_no_import_cycle_between_packages():
    """Packages (``wastools.pipeline``, ``wastools.site``...) and top-level modules import one
    another without a cycle (a module's own package is left out: its face imports its parts)."""
    graph: dict[str, set[str]] = {}
    for module, imported in _graph().items():
        mine = _package_of(module)
        graph.setdefault(mine, set()).update(_package_of(m) for m in imported if _package_of(m) != mine)
    for node in list(graph.values()):
        for m in node:
            graph.setdefault(m, set())
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


# the packages from the bottom up: each imports only those below it (and the package's face,
# ``wastools``, for its version)
LAYERS = ("core", "variants", "content", "data", "render", "pipeline", "site", "authoring", "cli")


def test_every_package_imports_only_the_layers_below_it():
    rank = {f"wastools.{name}": i for i, name in enumerate(LAYERS)}
    upward = sorted(
        f"{module} -> {target}"
        for module, imported in _graph().items()
        if (mine := _package_of(module)) in rank
        for target in imported
        if rank.get(_package_of(target), -1) >= rank[mine] and _package_of(target) != mine
    )
    assert upward == []


def test_the_package_is_made_of_those_layers_alone():
    """No module sits loose beside the packages: a new one goes in the layer it belongs to."""
    loose = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__", "__main__"}
    folders = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert (loose, folders) == (set(), set(LAYERS))


def test_the_build_never_imports_the_site_or_the_command_line():
    for module, imported in _graph().items():
        if module.startswith("wastools.pipeline"):
            assert not {m for m in imported if m.startswith(("wastools.site", "wastools.cli"))}, module


def test_no_function_is_over_100_lines():
    long = [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for path in PACKAGE.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno - node.lineno + 1 > 100
    ]
    assert long == []


def test_weasyprint_is_the_major_version_the_renderers_were_written_for():
    """The renderers use WeasyPrint's layout from within (``cards.overflows`` walks the laid-out
    boxes, card documents bring their own user-agent sheet): pyproject pins the major version,
    and this fails when another is installed, before any output could silently change."""
    major = int(metadata.version("weasyprint").split(".")[0])
    pinned = (ROOT / "pyproject.toml").read_text()
    assert f'"weasyprint>={major},<{major + 1}"' in pinned, f"weasyprint {major} is installed"


def test_the_pipeline_package_offers_its_names_and_loads_a_module_only_when_asked():
    import subprocess
    import sys

    import wastools.pipeline as pipeline

    for name in pipeline.__all__:
        home = __import__(f"wastools.pipeline.{pipeline._HOME[name]}", fromlist=[name])
        assert getattr(pipeline, name) is getattr(home, name), name
    # a build that finds nothing to do reads the output folder and the record, not the renderers
    check = (
        "import sys, wastools.pipeline.output, wastools.pipeline.record; "
        "print(sorted(m for m in sys.modules if m.startswith(('wastools.render', 'jinja2', 'weasyprint'))))"
    )
    loaded = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]", loaded
