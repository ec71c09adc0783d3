"""The site's static files: its own CSS and JavaScript, and the card stylesheet with its fonts.

The card CSS is the PDF decks' own ``wastools/templates/cards/card.css``, copied at build time.
Its ``@font-face`` URLs name fonts through WeasyPrint's private ``wastools-font:`` scheme;
here they are rewritten to files copied beside it, so a browser loads nothing from
outside the site folder. Any other URL in the card CSS is an error, not a silent fetch.
"""

from __future__ import annotations

import re

from ..core.errors import WastoolsError
from ..core.resources import FONT_SCHEME, FONTS, TEMPLATES
from ..render.cards import CARD_DIR

SITE_TEMPLATES = TEMPLATES / "site"
STATIC = ("site.css", "site.js", "fleet-core.js", "fleet.js", "print.js", "odds.js", "qrcode.js", "qrcode-LICENSE.txt")
URL = re.compile(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)""")


class AssetError(WastoolsError, ValueError):
    """A site asset that cannot be used (a font the card stylesheet names is missing)."""


def card_css() -> tuple[str, dict[str, bytes]]:
    """The card stylesheet for the site and the font files it now names (fonts/<name>)."""
    text = (CARD_DIR / "card.css").read_text("utf-8")
    fonts: dict[str, bytes] = {}

    def rewrite(match: re.Match) -> str:
        url = match.group(2).strip()
        if url.startswith(FONT_SCHEME):
            name = url[len(FONT_SCHEME) :]
            path = (FONTS / name).resolve()
            if path.parent != FONTS.resolve() or not path.is_file():
                raise AssetError(f"wastools/templates/cards/card.css names a font that does not exist: {url}")
            fonts[name] = path.read_bytes()
            return f'url("fonts/{name}")'
        raise AssetError(f"wastools/templates/cards/card.css loads {url!r}: the site can only copy project fonts")

    return URL.sub(rewrite, text), fonts


def static_files() -> dict[str, bytes]:
    """Every file under assets/ of the site, by its path there."""
    css, fonts = card_css()
    out = {"card.css": css.encode("utf-8")}
    out.update({f"fonts/{name}": data for name, data in fonts.items()})
    for name in STATIC:
        out[name] = (SITE_TEMPLATES / name).read_bytes()
    return out
