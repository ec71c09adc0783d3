"""One spelling, measured in a whole build: every PDF and every site page (and the card faces
the site's print view draws) is read back and holds none of the wrong spellings the glossary
(``wastools/glossary/glossary.yaml``) lists, no variant's parameter key, no rule document
called "seed", and no ruler says "band" where the cards say "Range". Unlike the wording lint,
nothing of a site page is left out but its scripts and styles: a settings table and a command
are read too."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from tests.wording_check import pdf_text
from wastools.data import glossary
from wastools.variants import VARIANTS

# The keys a player could read as a key (`hex_cm`); a one-word key ("columns", "rows") is also
# an ordinary word, and is looked for where a key is typed (`name=`).
KEYS = sorted({p.name for v in VARIANTS.values() for p in v.parameters}, key=len, reverse=True)
KEY = re.compile(
    r"(?<![\w.-])(?:"
    + "|".join(re.escape(k) for k in KEYS if "_" in k)
    + r")(?![\w-])|(?<![\w-])(?:"
    + "|".join(re.escape(k) for k in KEYS if "_" not in k)
    + r")="
)
SEED = re.compile(r"(?i)\bseeds?\b")
BAND = re.compile(r"(?i)\bbands? \d")  # a ruler says "Range 2", as the cards do


def page_text(markup: str) -> str:
    """All a browser shows of a page (scripts and styles left out, entities decoded)."""
    markup = re.sub(r"<(script|style)\b.*?</\1>", " ", markup, flags=re.S | re.I)
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def printed(out: Path) -> dict[str, str]:
    """Every PDF's and site page's text by file; the site's card faces (scripts the print view
    draws from) as their markup's text."""
    texts = {
        str(p.relative_to(out)): pdf_text(p)
        for p in sorted(out.rglob("*.pdf"))
        if not p.relative_to(out).parts[0].startswith(".")
    }
    texts |= {str(p.relative_to(out)): page_text(p.read_text("utf-8")) for p in sorted((out / "site").rglob("*.html"))}
    for p in sorted((out / "site" / "cards").glob("*.js")):
        faces = p.read_text("utf-8").encode().decode("unicode_escape", errors="replace")
        texts[str(p.relative_to(out))] = page_text(faces.replace("\\", ""))
    return texts


def problems(texts: dict[str, str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for name, text in texts.items():
        wrong = glossary.wrong_spellings(text)
        wrong += [f"a parameter key: {_around(text, m)}" for m in KEY.finditer(text)]
        wrong += [f"a rule document called a seed: {_around(text, m)}" for m in SEED.finditer(text)]
        if "rulers" in name:
            wrong += [f"a ruler's band: {_around(text, m)}" for m in BAND.finditer(text)]
        if wrong:
            found[name] = wrong[:4] + ([f"... and {len(wrong) - 4} more"] if len(wrong) > 4 else [])
    return found


def _around(text: str, m: re.Match[str]) -> str:
    return repr(" ".join(text[max(0, m.start() - 30) : m.end() + 20].split()))


@pytest.mark.slow
def test_every_pdf_and_site_page_of_a_build_spells_each_glossary_term_one_way(full_build):
    texts = printed(full_build / "build")
    pdfs = [n for n in texts if n.endswith(".pdf")]
    assert len(pdfs) > 40 and sum(1 for n in texts if n.startswith("site/units/")) > 50  # a whole build was read
    assert {n.split("/")[0] for n in pdfs} >= set(VARIANTS) | {"scenarios"}
    assert problems(texts) == {}
