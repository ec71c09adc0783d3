"""The printed text of a build, part by part, with the variant each part speaks for: what the
wording lint reads (``wastools.core.wording.lint``)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pypdfium2 as pdfium

from wastools.variants import VARIANTS

WITH_SECTORS = {"standard", "large-map"}  # the variants whose board has sectors


def pdf_text(path: Path) -> str:
    """Every page's text, as pdfium extracts it (one line per printed line)."""
    doc = pdfium.PdfDocument(path)
    try:
        return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()


def page_text(markup: str) -> str:
    """What a browser shows of a page: no scripts, styles or markup; entities decoded. Commands
    to type (``<code>``) and the build settings table (each setting and its values, for people
    running ``wastools build``) are left out: they are not prose."""
    markup = re.sub(r"<(script|style|code)\b.*?</\1>", " ", markup, flags=re.S | re.I)
    markup = re.sub(r'<table class="plain settings">.*?</table>', " ", markup, flags=re.S)
    markup = re.sub(r"<[^>]+>", " ", markup)
    return html.unescape(markup)


def pdf_parts(out: Path, scenario_variants: dict[str, str]) -> Iterator[tuple[str, str | None, str]]:
    """(file, variant or None, text) of every PDF of a build (the cache left out)."""
    for path in sorted(out.rglob("*.pdf")):
        rel = path.relative_to(out)
        if rel.parts[0].startswith("."):
            continue
        variant = rel.parts[0] if rel.parts[0] in VARIANTS else None
        if rel.parts[0] == "scenarios":
            variant = next((v for s, v in scenario_variants.items() if rel.name.startswith(s)), None)
        yield str(rel), variant, pdf_text(path)


def site_parts(out: Path, scenario_variants: dict[str, str]) -> Iterator[tuple[str, str | None, str]]:
    """(page, variant or None, text) of every site page; a unit page in one part per variant
    section (its base card and facts are the base game's)."""
    site = out / "site"
    for path in sorted(site.rglob("*.html")):
        rel = str(path.relative_to(out))
        markup = path.read_text("utf-8")
        if path.parent.name == "units":
            pieces = re.split(r'(<section class="variant" id="[^"]+"[^>]*>)', markup)
            yield rel, "standard", page_text(pieces[0])
            for opening, body in zip(pieces[1::2], pieces[2::2], strict=True):
                name = re.search(r'id="([^"]+)"', opening)
                yield f"{rel}#{name.group(1) if name else '?'}", name.group(1) if name else None, page_text(body)
        elif path.parent.name == "variants":
            yield rel, path.stem if path.stem in VARIANTS else None, page_text(markup)
        elif path.parent.name == "scenarios":
            yield rel, scenario_variants.get(path.stem), page_text(markup)
        else:
            yield rel, None, page_text(markup)
