"""Weak sources for historical figures: a warning, never an error.

CONTRIBUTING.md asks for a reference work, a primary document or a naval or aviation
history source. The hosts below are known not to be one. Most are machine-made copies of
Wikipedia: they carry the encyclopedia's figures of one day, without its revision history or
its references, and some rewrite or cut the text. Fan wikis, blogs, personal pages, hobby
sites and shops have no editorial check at all. A figure taken from one of them may still be
right, so a unit that cites one is valid; `wastools validate` warns, and the warning goes away
once the figure's `note` (or the unit's `history.note`) names the host, saying why it is kept.
"""

from __future__ import annotations

import re

from ...core.problems import Problem, Severity
from ..yamlio import Document

MIRROR = "a machine-made copy of Wikipedia"
# Domains (a host matches itself and its subdomains), each with what it is. Keep it short:
# a host belongs here only once its pages have been seen to be one of these kinds.
WEAK_HOSTS: dict[str, str] = {
    **{
        domain: MIRROR
        for domain in (
            "108.161.137.60",  # serves piglix.com
            "academickids.com",
            "artikeldigital.com",
            "askwikinow.com",
            "av1.space",
            "bdmobi.com",
            "brorelol.gay",
            "cf-ipfs.com",
            "clateway.com",
            "cryer.org.uk",
            "cydlabs.com",
            "datana.cloud",
            "dweb.link",
            "en-academic.com",
            "encycloreader.org",
            "enwikipedia.net",
            "eth.limo",
            "eudic.net",
            "everything.explained.today",
            "findatwiki.com",
            "friendlywiki.com",
            "frwiki.wiki",
            "gravy.cc",
            "iiab.me",
            "jmedia.wiki",
            "kampuspedia.com",
            "know.cf",
            "knowledgr.com",
            "knowpia.com",
            "lescigales.org",
            "liquisearch.com",
            "nina.az",
            "nixinova.com",
            "osmarks.net",
            "outremer.quest",
            "owiki.org",
            "piglix.com",
            "plwiki.pl",
            "polpedia.pl",
            "profilbaru.com",
            "profilpelajar.com",
            "questionai.com",
            "qwe.wiki",
            "richxsearch.com",
            "riteme.site",
            "sagapedia.com",
            "studentb.eu",
            "techsciencenews.com",
            "the-uncensored-wiki.com",
            "theinfolist.com",
            "wiki.x.io",
            "wikial.top",
            "wikimili.com",
            "wikisum.wiki",
            "wikivisually.com",
            "wikiwand.com",
            "wikizero.com",
            "wikizero.net",
            "worddisk.com",
            "xcv.wiki",
            "zxc.wiki",
        )
    },
    "grokipedia.com": "a machine-written encyclopedia",
    "myownonpmirror.com": "an unattributed copy of navypedia.org's pages",
    "everything2.com": "a site of anonymous user-written pages",
    "fandom.com": "a fan wiki",
    "blogspot.com": "a blog",
    # Free hosts: every subdomain (or path) is someone's own site.
    **{
        domain: "a free host of personal pages"
        for domain in (
            "angelfire.com",
            "dip.jp",
            "e-monsite.com",
            "oocities.com",
            "sakura.ne.jp",
            "tripod.com",
            "x10.mx",
        )
    },
    # One person's or one club's pages, without the references a reader could check.
    **{
        domain: "a personal or hobby site"
        for domain in (
            "airrace.de",
            "archieraf.co.uk",
            "birtwistlewiki.com.au",
            "classicwarbirds.co.uk",
            "eurasia1945.com",
            "fighterba.se",
            "fleetoffreedom.com",
            "lexikon-der-wehrmacht.de",
            "midway1942.com",
            "midway1942.ru",
            "militaryimages.net",
            "navaltheater.com",
            "passionair1940.fr",
            "readyayeready.com",
            "secondeguerre.net",
            "sixtant.net",
            "theworldwars.net",
            "thorfinn.net",
            "tomstockton.us",
            "voodoo-world.cz",
        )
    },
}
# Offline-reader mirrors run under many names (kiwix.lema.org, zims-en.kiwix.campusafrica...).
KIWIX = re.compile(r"(^|\.)kiwix\.")
ADDRESS = re.compile(r"https?://([^/\s'\"?#]+)", re.IGNORECASE)


ADVICE = "cite a reference work or a naval or aviation history source"


def is_weak_source(problem: Problem) -> bool:
    """Whether ``problem`` is this module's warning (``validate`` sums them up in one line)."""
    return not problem.is_error and problem.field.endswith(".source") and ADVICE in problem.message


def weak_host(host: str) -> tuple[str, str] | None:
    """The listed domain a host belongs to and what it is, or None for any other host."""
    host = host.lower().rstrip(".").split(":")[0]
    if host.startswith("www."):
        host = host[4:]
    if KIWIX.search(host):
        return host, MIRROR
    for domain, kind in WEAK_HOSTS.items():
        if host == domain or host.endswith("." + domain):
            return host, kind
    return None


def weak_source_problems(doc: Document, history: dict) -> list[Problem]:
    """A warning for each figure whose source is on a weak host that no note explains."""
    problems = []
    unit_note = history.get("note") if isinstance(history.get("note"), str) else ""
    for name in ("top_speed", "length"):
        figure = history.get(name)
        if not isinstance(figure, dict) or not isinstance(figure.get("source"), str):
            continue
        notes = f"{figure.get('note') if isinstance(figure.get('note'), str) else ''} {unit_note}".lower()
        for address in ADDRESS.findall(figure["source"]):
            found = weak_host(address)
            if found is None or _named(found[0], notes):
                continue
            host, kind = found
            message = f"{host} is {kind}: {ADVICE}, or name {host} in the figure's note with the reason it is kept"
            problems.append(doc.problem(["history", name, "source"], message, severity=Severity.WARNING))
    return problems


def _named(host: str, notes: str) -> bool:
    """Whether the notes name the host, with or without a short first label (en., m., de.)."""
    parts = host.split(".")
    while len(parts) > 2 and len(parts[0]) <= 2:
        parts = parts[1:]
    return ".".join(parts) in notes
