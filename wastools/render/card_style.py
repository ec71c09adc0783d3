"""The card's geometry and colors, read from ``templates/cards/card.css``: written once.

WeasyPrint lays out heads and backs with card.css; ``card_fit`` sizes each body's text and
``card_body`` draws bodies and feet to WeasyPrint's glyph positions. Both take every length,
line height and color card.css sets from here, so a change to card.css changes all three
(the tests compare drawn bodies with WeasyPrint's, glyph by glyph).
"""

from __future__ import annotations

from functools import cache

from ..core.resources import TEMPLATES

CARD_CSS = TEMPLATES / "cards" / "card.css"


@cache
def _rules() -> dict[str, dict[str, list]]:
    """Each selector as card.css writes it, with its declarations (the last one wins)."""
    import tinycss2

    rules: dict[str, dict[str, list]] = {}
    sheet = tinycss2.parse_stylesheet(CARD_CSS.read_text("utf-8"), skip_comments=True, skip_whitespace=True)
    for rule in sheet:
        if rule.type != "qualified-rule":
            continue
        declarations = tinycss2.parse_declaration_list(rule.content, skip_comments=True, skip_whitespace=True)
        for selector in tinycss2.serialize(rule.prelude).split(","):
            found = rules.setdefault(" ".join(selector.split()), {})
            for declaration in declarations:
                if declaration.type == "declaration":
                    found[declaration.lower_name] = [t for t in declaration.value if t.type != "whitespace"]
    return rules


def _tokens(selector: str, prop: str) -> list:
    try:
        return _rules()[selector][prop]
    except KeyError:
        raise LookupError(f"card.css sets no {prop!r} for {selector!r}") from None


def pt(selector: str, prop: str) -> float:
    """The first length of ``prop`` (in pt, card.css's unit): ``border: 0.6pt solid`` -> 0.6."""
    for token in _tokens(selector, prop):
        if token.type == "dimension" and token.lower_unit == "pt":
            return float(token.value)
        if token.type == "number" and token.value == 0:
            return 0.0
    raise LookupError(f"card.css gives {selector!r} no {prop!r} in pt")


def em(selector: str, prop: str) -> float:
    """A size relative to the font: ``1.15em`` or a bare number (a line height) -> 1.15."""
    for token in _tokens(selector, prop):
        if token.type == "number" or (token.type == "dimension" and token.lower_unit == "em"):
            return float(token.value)
    raise LookupError(f"card.css gives {selector!r} no {prop!r} in em")


def rgb(selector: str, prop: str) -> tuple[int, int, int]:
    """A color written ``#rgb`` or ``#rrggbb`` -> (r, g, b), 0-255."""
    for token in _tokens(selector, prop):
        if token.type == "hash":
            digits = token.value if len(token.value) == 6 else "".join(c * 2 for c in token.value)
            return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)
    raise LookupError(f"card.css gives {selector!r} no {prop!r} color")
