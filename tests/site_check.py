"""A small checker for the site's pages: strict HTML5 parse plus the rules the site keeps
(one language, one h1, unique ids, labelled form controls, links that resolve)."""

from __future__ import annotations

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
    for element in tree.iter():
        for attr in ("href", "src"):
            url = element.get(attr)
            if url is not None:
                out += _link_problems(rel, page, site, url)
    return out


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
