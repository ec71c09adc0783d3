"""The project's own small vector marks: a nation emblem, a side and a unit-type icon.

Drawn from basic shapes (roundels, crosses, discs, stars); no copied artwork. Each mark is
a fixed SVG string chosen by a validated id, so no data text ever reaches the markup.
Used by cards, card backs, aids and the site alike: one visual language.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup


@dataclass(frozen=True)
class NationStyle:
    band: str  # the card's top band
    emblem: str  # SVG body in a 20 x 20 box


def _roundel(*rings: str) -> str:
    radii = (10, 6.6, 3.3)
    return "".join(f'<circle cx="10" cy="10" r="{r}" fill="{c}"/>' for r, c in zip(radii, rings, strict=True))


def _star(fill: str, r: float = 8.5, cx: float = 10, cy: float = 10.6) -> str:
    import math

    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.4
        angle = math.radians(-90 + 36 * i)
        points.append(f"{cx + radius * math.cos(angle):.2f},{cy + radius * math.sin(angle):.2f}")
    return f'<polygon points="{" ".join(points)}" fill="{fill}"/>'


_WHITE_DISC = '<circle cx="10" cy="10" r="9.6" fill="#fff" stroke="#222" stroke-width="0.6"/>'
_EMBLEMS: dict[str, NationStyle] = {
    "uk": NationStyle("#1f3a5f", _roundel("#1f3a8a", "#fff", "#c8102e")),
    "australia": NationStyle("#1f4f6f", _roundel("#1f3a8a", "#fff", "#c8102e") + _star("#fff", 2.2, 10, 10.3)),
    "canada": NationStyle(
        "#3b4f6a", _roundel("#1f3a8a", "#fff", "#c8102e") + '<rect x="9.2" y="6" width="1.6" height="8" fill="#fff"/>'
    ),
    "new-zealand": NationStyle(
        "#2b4a63", _roundel("#1f3a8a", "#fff", "#c8102e") + '<circle cx="10" cy="10" r="1.3" fill="#fff"/>'
    ),
    "us": NationStyle("#1b365d", '<circle cx="10" cy="10" r="10" fill="#1b365d"/>' + _star("#fff")),
    "france": NationStyle("#27457a", _roundel("#002395", "#fff", "#ed2939")),
    "greece": NationStyle("#2a5d9f", _roundel("#0d5eaf", "#fff", "#0d5eaf")),
    "netherlands": NationStyle(
        "#9a4a00", '<polygon points="10,1 19.5,18.5 0.5,18.5" fill="#f28c00" stroke="#222" stroke-width="0.8"/>'
    ),
    "poland": NationStyle(
        "#8a1c2b",
        '<rect x="1" y="1" width="18" height="18" fill="#fff" stroke="#222" stroke-width="0.6"/>'
        '<rect x="1" y="1" width="9" height="9" fill="#dc143c"/>'
        '<rect x="10" y="10" width="9" height="9" fill="#dc143c"/>',
    ),
    "soviet-union": NationStyle("#7a1d1d", _WHITE_DISC + _star("#c8102e", 8.8)),
    "germany": NationStyle(
        "#333333",
        '<path d="M7 1h6v6h6v6h-6v6H7v-6H1V7h6z" fill="#fff" stroke="#fff" stroke-width="1.2"/>'
        '<path d="M8 2h4v6h6v4h-6v6H8v-6H2V8h6z" fill="#111"/>',
    ),
    "italy": NationStyle("#2f5a36", _roundel("#009246", "#fff", "#ce2b37")),
    "japan": NationStyle("#6e2424", _WHITE_DISC + '<circle cx="10" cy="10" r="6.2" fill="#bc002d"/>'),
    "finland": NationStyle(
        "#2b4d7a", _WHITE_DISC + '<path d="M8.2 2.5h3.6v5.7h5.7v3.6h-5.7v5.7H8.2v-5.7H2.5V8.2h5.7z" fill="#17479e"/>'
    ),
    "sweden": NationStyle(
        "#1d4e89",
        '<circle cx="10" cy="10" r="10" fill="#006aa7"/>'
        + "".join(
            f'<path d="M{x - 2.2} {y + 1.2}h4.4l0.6-2.6-1.5 1.2-1.3-1.8-1.3 1.8-1.5-1.2z" fill="#fecc02"/>'
            for x, y in ((10, 6.2), (6.4, 12.4), (13.6, 12.4))
        ),
    ),
}
_FALLBACK = NationStyle("#4a4a4a", _roundel("#555", "#fff", "#555"))


def nation_style(nation_id: str) -> NationStyle:
    return _EMBLEMS.get(nation_id, _FALLBACK)


def emblem_svg(nation_id: str, size_pt: float) -> Markup:
    body = nation_style(nation_id).emblem
    return Markup(
        f'<svg class="emblem" width="{size_pt}pt" height="{size_pt}pt" viewBox="0 0 20 20" '
        f'xmlns="http://www.w3.org/2000/svg">{body}</svg>'
    )


# Type icons in a 32 x 16 box, drawn in the current text color.
_ICONS: dict[str, str] = {
    "battleship": '<path d="M1 10h30l-3 4H4z"/><path d="M9 10V7h4V5h4v2h5v3z"/><path d="M5 9h3v1H5zM23 9h3v1h-3z"/>',
    "cruiser": '<path d="M2 10h28l-3 4H5z"/><path d="M11 10V7h4V5h3v2h3v3z"/>',
    "destroyer": '<path d="M3 11h26l-3 3H5z"/><path d="M12 11V8h3V6h2v2h3v3z"/>',
    "torpedo-boat": '<path d="M6 11h20l-2 3H8z"/><path d="M13 11V9h5v2z"/>',
    "carrier": '<path d="M1 9h30v2l-3 3H4l-3-3z"/><path d="M21 9V5h3v4z"/>',
    "auxiliary": '<path d="M3 10h26l-3 4H6z"/><path d="M7 10V7h6v3zM17 10V6h2v4zM22 10V8h4v2z"/>',
    "submarine": '<path d="M2 11c3-2 25-2 28 0c-3 2-25 2-28 0z"/><path d="M13 10V7h4l1 3z"/>',
    "fighter": '<path d="M16 2l1.5 5H27v2h-9.5l-.5 4h3v1.5h-8V13h3l-.5-4H5V7h9.5z"/>',
    "bomber": '<path d="M16 2l1.5 4H30v2.5H17.5L17 12h4v2h-10v-2h4l-.5-3.5H2V6h12.5z"/>',
}
_ICON_OF_TYPE = {
    "dive-bomber": "bomber",
    "torpedo-bomber": "bomber",
    "patrol-bomber": "bomber",
    "bomber": "bomber",
    "fighter": "fighter",
}


def type_icon_svg(unit_type: str, height_pt: float, colour: str = "#fff") -> Markup:
    body = _ICONS.get(unit_type) or _ICONS.get(_ICON_OF_TYPE.get(unit_type, ""), _ICONS["auxiliary"])
    return Markup(
        f'<svg class="type-icon" width="{height_pt * 2}pt" height="{height_pt}pt" viewBox="0 0 32 16" '
        f'xmlns="http://www.w3.org/2000/svg" fill="{colour}">{body}</svg>'
    )


# Card-back motifs, one per variant, in a 60 x 60 box: what the variant measures with.
_GOLD = "#c9b47a"


def _hex_motif() -> str:
    import math

    cells = []
    for cx, cy in ((30, 30), (30, 14), (30, 46), (16.1, 22), (43.9, 22), (16.1, 38), (43.9, 38)):
        pts = " ".join(
            f"{cx + 9.2 * math.cos(math.radians(a)):.2f},{cy + 9.2 * math.sin(math.radians(a)):.2f}"
            for a in range(0, 360, 60)
        )
        cells.append(f'<polygon points="{pts}"/>')
    return "".join(cells)


def _square_motif() -> str:
    return "".join(f'<rect x="{x}" y="{y}" width="16" height="16"/>' for x in (6, 22, 38) for y in (6, 22, 38))


def _compass_motif() -> str:
    return (
        '<circle cx="30" cy="30" r="24"/><path d="M30 4L34 30L30 56L26 30Z"/><path d="M4 30L30 26L56 30L30 34Z"/>'
        '<circle cx="30" cy="30" r="3"/>'
    )


def _ruler_motif(ticks: int) -> str:
    marks = "".join(f'<path d="M{6 + i * 48 / ticks:.2f} 34v{-10 if i % 5 == 0 else -5}"/>' for i in range(ticks + 1))
    return f'<rect x="4" y="34" width="52" height="10"/>{marks}'


def _rose_motif() -> str:
    return (
        '<rect x="15" y="15" width="30" height="30"/><rect x="15" y="15" width="30" height="30" '
        'transform="rotate(45 30 30)"/>'
    )


# A card back shows what its variant measures with (``Variant.motif``).
_MOTIFS = {
    "hexes": _hex_motif,
    "squares": _square_motif,
    "compass": _compass_motif,
    "ruler-10": lambda: _ruler_motif(10),
    "ruler-8": lambda: _ruler_motif(8),
    "rose": _rose_motif,
}


def back_motif_svg(motif: str, size_pt: float = 90) -> Markup:
    body = _MOTIFS.get(motif, _rose_motif)()
    return Markup(
        f'<svg width="{size_pt}pt" height="{size_pt}pt" viewBox="0 0 60 60" xmlns="http://www.w3.org/2000/svg" '
        f'fill="none" stroke="{_GOLD}" stroke-width="1.2">{body}</svg>'
    )
