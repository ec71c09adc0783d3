"""The fleet's print view (``print.html``): what the browser needs to lay out card sheets
exactly like the PDF decks.

The sheet geometry is the decks' own (``wastools/layouts/<paper>.yaml`` through
``render.sheets``: card slots, crop marks, check bars, the sheet label), turned from PDF
coordinates (y up from the bottom) into the page's (y down from the top), in points. The
cards are the decks' own HTML faces, one script a unit (``cards/<id>.js``) that the print
view loads for the units of the fleet only: a script, not a fetch, so that it works from
``file://`` as well as from a web server.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from markupsafe import Markup

PAPERS = {"letter": ("Letter", "8.5in 11in"), "a4": ("A4", "210mm 297mm")}


def card_script(unit_id: str, faces: dict[str, str]) -> bytes:
    """``cards/<id>.js``: the unit's card for each deck on the site, as JSON strings (the
    faces are the renderer's escaped HTML; JSON keeps them data until the view places them)."""
    payload = json.dumps(faces, ensure_ascii=True, sort_keys=True)
    return f"window.wasCards.add({json.dumps(unit_id)}, {payload});\n".encode()


def _point(value: float) -> float:
    return round(value, 2)


@cache
def sheet_geometry(paper: str) -> dict[str, Any]:
    """One paper's sheet, y down from the top of the page, in points."""
    from ..render import sheets

    layout = sheets.load_layout(paper)
    width, height = layout["page"]["width"], layout["page"]["height"]
    card_w, card_h = layout["card"]["width"], layout["card"]["height"]
    bars = []
    for bar in sheets.card_sheet_bars(layout):
        x1, y1 = bar.x, height - bar.y
        x2, y2 = bar.end[0], height - bar.end[1]
        bars.append(
            {
                "label": bar.label,
                "vertical": bar.vertical,
                "line": [_point(x1), _point(y1), _point(x2), _point(y2)],
                # as draw_bar places them: beside a vertical bar's middle reading upwards,
                # after a horizontal bar's right end on its baseline 2 pt under the bar
                "text": [_point(bar.x + 7.8), _point(height - bar.y - bar.length / 2)]
                if bar.vertical
                else [_point(bar.end[0] + 3), _point(height - bar.y + 2)],
            }
        )
    first = sheets.card_sheet_bars(layout)[0]
    label_x, label_y = sheets.sheet_label_origin(layout)
    return {
        "name": PAPERS[paper][0],
        "size": PAPERS[paper][1],
        "width": _point(width),
        "height": _point(height),
        "card": [card_w, card_h],
        "slots": [[_point(s["x"]), _point(height - s["y"] - card_h)] for s in layout["slots"]],
        "crops": [
            [_point(x1), _point(height - y1), _point(x2), _point(height - y2)]
            for (x1, y1), (x2, y2) in sheets.crop_mark_segments(layout)
        ],
        "lineWidth": layout["crop_marks"]["line_width"],
        "bars": bars,
        "tick": sheets.TICK,
        "labelSize": sheets.LABEL_SIZE,
        "note": [sheets.NOTE, _point(first.footprint()[2] + 12), _point(height - first.y + 2)],
        "label": [_point(label_x), _point(height - label_y)],
    }


def print_data(
    rows: list[dict[str, Any]], decks: list[dict[str, str]], address: str, backs: dict[str, str] | None = None
) -> Markup:
    """The print view's data as JSON that is safe inside a ``<script>`` element: every
    ``<``, ``>`` and ``&`` is escaped, so no name can close the element. ``backs``: each
    deck's card back as HTML (the decks' own, escaped by the card renderer)."""
    units = [
        {
            "id": r["id"],
            "name": r["name"],
            "points": r["points"],
            "nation": r["nation"],
            "nationName": r["nation_name"],
            "type": r["type"],
            "typeLabel": r["type_label"],
        }
        for r in rows
    ]
    papers = {p: sheet_geometry(p) for p in PAPERS}
    data = {"units": units, "decks": decks, "papers": papers, "site": address, "backs": backs or {}}
    text = json.dumps(data, ensure_ascii=True, sort_keys=True)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))
